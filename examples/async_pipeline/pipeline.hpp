// SPDX-License-Identifier: Apache-2.0
#pragma once
// A stream of chunks, each uploaded, transformed by a kernel and downloaded, three ways:
//   serial      one in-order queue, every step waits for the previous one;
//   overlapped  transfers on one queue, kernels on another, two device buffer slots (double
//               buffering), ordered by wait lists so chunk c+1 uploads while chunk c computes;
//   coroutine   the same overlap written as two coroutines awaiting events.
// Shared by examples/async_pipeline and bench/pipeline.cpp.

#include <openclaw/async.hpp>  // co_await on events
#include <openclaw/openclaw.hpp>
#include <openclaw/pinned.hpp>  // PinnedBuffer

#include <array>
#include <chrono>
#include <cstdint>
#include <vector>

#include "task.hpp"

namespace example {

inline constexpr const char* pipeline_source = R"CLC(
__kernel void transform(__global const uint* in, __global uint* out, const uint work) {
    const size_t i = get_global_id(0);
    uint x = in[i];
    for (uint k = 0; k < work; ++k) {
        x = x * 1664525u + 1013904223u;
    }
    out[i] = x;
}
)CLC";

/// The kernel's arithmetic on the host, for checking.
inline cl_uint transform(cl_uint x, cl_uint work) {
    for (cl_uint k = 0; k < work; ++k) {
        x = x * 1664525u + 1013904223u;
    }
    return x;
}

class Pipeline {
  public:
    using Kernel = openclaw::Kernel<openclaw::In<cl_uint>, openclaw::Out<cl_uint>, cl_uint>;

    Pipeline(const openclaw::Context& context, const openclaw::Device& device,
             std::size_t chunk_elements, std::size_t chunks, cl_uint work)
        : context_(context),
          transfers_(context, device),
          compute_(context, device),
          program_(openclaw::Program::build(context, pipeline_source)),
          kernel_(
              program_.kernel<openclaw::In<cl_uint>, openclaw::Out<cl_uint>, cl_uint>("transform")),
          chunk_(chunk_elements),
          work_(work) {
        for (std::size_t c = 0; c < chunks; ++c) {
            inputs_.emplace_back(transfers_, chunk_);
            outputs_.emplace_back(transfers_, chunk_);
            for (std::size_t i = 0; i < chunk_; ++i) {
                inputs_.back()[i] = static_cast<cl_uint>(c * chunk_ + i);
            }
        }
        for (Slot& slot : slots_) {
            slot.in = openclaw::ReadOnlyBuffer<cl_uint>{context, chunk_};
            slot.out = openclaw::WriteOnlyBuffer<cl_uint>{context, chunk_};
        }
    }

    void set_work(cl_uint work) { work_ = work; }
    std::size_t bytes_per_chunk() const { return chunk_ * sizeof(cl_uint); }

    /// Everything on one queue, each step waiting for the last. Returns seconds.
    double run_serial() {
        return timed([&] {
            for (std::size_t c = 0; c < inputs_.size(); ++c) {
                Slot& slot = slots_[0];
                transfers_.write(slot.in, inputs_[c]);
                transfers_.enqueue(kernel_.set_args(slot.in, slot.out, work_),
                                   openclaw::NDRange{chunk_});
                transfers_.read(slot.out, outputs_[c]);
            }
        });
    }

    /// Uploads and downloads on the transfer queue, kernels on the compute queue; chunk c+1 is
    /// uploaded before chunk c is downloaded, so the copy engine and the compute units overlap.
    double run_overlapped() {
        return timed([&] {
            const std::size_t n = inputs_.size();
            std::vector<openclaw::Event> uploaded(n), computed(n), downloaded(n);
            const auto upload = [&](std::size_t c) {
                Slot& slot = slots_[c % 2];
                // The slot's input is free once the kernel of chunk c-2 has read it.
                uploaded[c] = transfers_.write(
                    slot.in, inputs_[c], openclaw::nonblocking,
                    c >= 2 ? openclaw::after(computed[c - 2]) : openclaw::WaitList{});
            };
            upload(0);
            for (std::size_t c = 0; c < n; ++c) {
                Slot& slot = slots_[c % 2];
                // The slot's output is free once chunk c-2 has been downloaded.
                const openclaw::WaitList ready =
                    c >= 2 ? openclaw::after(uploaded[c], downloaded[c - 2])
                           : openclaw::after(uploaded[c]);
                computed[c] =
                    compute_.enqueue(kernel_.set_args(slot.in, slot.out, work_),
                                     openclaw::NDRange{chunk_}, openclaw::with_event, ready);
                compute_.flush();
                if (c + 1 < n) {
                    upload(c + 1);
                }
                downloaded[c] = transfers_.read(slot.out, outputs_[c], openclaw::nonblocking,
                                                openclaw::after(computed[c]));
                transfers_.flush();
            }
            openclaw::Event::wait_all(downloaded);
        });
    }

    /// Two coroutines, one per slot, each taking every second chunk and awaiting each step.
    double run_coroutines() {
        return timed([&] {
            Task<int> even = worker(0);
            Task<int> odd = worker(1);
            even.get();
            odd.get();
        });
    }

    /// Checks the outputs against the host's computation, every `stride`-th value of each chunk
    /// (every value by default; a benchmark with heavy work checks a sample); returns the number
    /// of wrong values.
    std::size_t wrong(std::size_t stride = 1) const {
        std::size_t bad = 0;
        for (std::size_t c = 0; c < inputs_.size(); ++c) {
            for (std::size_t i = c % stride; i < chunk_; i += stride) {
                bad += outputs_[c][i] == transform(inputs_[c][i], work_) ? 0 : 1;
            }
        }
        return bad;
    }

    void clear_outputs() {
        for (auto& output : outputs_) {
            std::fill(output.begin(), output.end(), 0u);
        }
    }

  private:
    struct Slot {
        openclaw::ReadOnlyBuffer<cl_uint> in;
        openclaw::WriteOnlyBuffer<cl_uint> out;
    };

    Task<int> worker(std::size_t first) {
        Slot& slot = slots_[first];
        Kernel kernel = kernel_.clone();  // a kernel's arguments are per coroutine, not shared
        for (std::size_t c = first; c < inputs_.size(); c += 2) {
            co_await transfers_.write(slot.in, inputs_[c], openclaw::nonblocking);
            co_await compute_.enqueue(kernel.set_args(slot.in, slot.out, work_),
                                      openclaw::NDRange{chunk_}, openclaw::with_event);
            co_await transfers_.read(slot.out, outputs_[c], openclaw::nonblocking);
        }
        co_return 0;
    }

    template <class F>
    double timed(F&& run) {
        transfers_.finish();
        compute_.finish();
        const auto start = std::chrono::steady_clock::now();
        run();
        transfers_.finish();
        compute_.finish();
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }

    openclaw::Context context_;
    openclaw::Queue transfers_;
    openclaw::Queue compute_;
    openclaw::Program program_;
    Kernel kernel_;
    std::size_t chunk_;
    cl_uint work_;
    std::vector<openclaw::PinnedBuffer<cl_uint>> inputs_;
    std::vector<openclaw::PinnedBuffer<cl_uint>> outputs_;
    std::array<Slot, 2> slots_;
};

}  // namespace example
