// SPDX-License-Identifier: Apache-2.0
// bench/vector_add: the bandwidth of c = a + b over float and float4, launched through the raw C
// API, OpenCL-CLHPP, Boost.Compute and openclaw (the same program, the same buffers), against the
// device's own clEnqueueCopyBuffer rate measured in the same run. GB/s count the bytes read and
// written: 3 x buffer size for a vector add, 2 x for a copy. Peers alternate within each sample;
// every peer's result is checked element by element before it is timed.
// Usage: bench_vector_add [--smoke] [--mib N (per buffer)] [--samples N] [--local N (0: the
// driver's choice)]. Default size: 1 GiB per buffer on a GPU, 256 MiB on other devices.
#include <cmath>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "common.hpp"
#include "peers.hpp"

namespace {

constexpr const char* source = R"CLC(
__kernel void add_float(__global const float* a, __global const float* b, __global float* c,
                        const uint n) {
    const uint i = get_global_id(0);
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}
__kernel void add_float4(__global const float4* a, __global const float4* b, __global float4* c,
                         const uint n) {
    const uint i = get_global_id(0);
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}
)CLC";

struct Peer {
    std::string name;
    std::function<void()> run;  // enqueues one launch (or one copy); the caller finishes
};

// Values whose sums are exact in float, so the check can compare for equality.
float a_value(std::size_t i) {
    return static_cast<float>(i % 1024);
}
float b_value(std::size_t i) {
    return static_cast<float>((i * 7) % 512) * 0.5f;
}

}  // namespace

int main(int argc, char** argv) try {
    const bool smoke = bench::has_flag(argc, argv, "--smoke");
    const openclaw::Device device = bench::pick_device();
    if (!device) {
        std::fprintf(stderr, "no OpenCL device\n");
        return 1;
    }
    const std::size_t mib = bench::option(argc, argv, "--mib",
                                          smoke             ? 1
                                          : device.is_gpu() ? 1024
                                                            : 256);
    const std::size_t bytes = mib << 20;
    const std::size_t floats = bytes / sizeof(cl_float);
    const int samples = static_cast<int>(bench::option(argc, argv, "--samples", smoke ? 2 : 7));
    const std::size_t local = std::min<std::size_t>(bench::option(argc, argv, "--local", 256),
                                                    device.max_work_group_size());
    if (floats == 0 || floats > 0xFFFFFFFFu || (local != 0 && floats / 4 % local != 0)) {
        std::fprintf(stderr,
                     "bench_vector_add: --mib %zu does not fit the kernels (uint index, "
                     "whole work-groups of %zu)\n",
                     mib, local);
        return 1;
    }
    bench::print_device(device);
    std::printf("# vector add: %zu MiB per buffer, work-groups of %zu%s, median of %d samples%s\n",
                mib, local, local == 0 ? " (driver's choice)" : "", samples,
                bench::has_boost_compute ? "" : " (Boost.Compute not built: headers not found)");

    const openclaw::Context context{device};
    const openclaw::Queue queue{context, device};
    std::vector<float> host_a(floats), host_b(floats);
    for (std::size_t i = 0; i < floats; ++i) {
        host_a[i] = a_value(i);
        host_b[i] = b_value(i);
    }
    const openclaw::ReadOnlyBuffer<float> a{context, host_a};
    const openclaw::ReadOnlyBuffer<float> b{context, host_b};
    const openclaw::ReadWriteBuffer<float> c{context, floats};
    const auto program = openclaw::Program::build(context, source);

    const cl_command_queue raw_queue = queue.get();
    cl::CommandQueue clhpp_queue(raw_queue, true);
    const cl::Buffer ca(a.get(), true), cb(b.get(), true), cc(c.get(), true);
#if OPENCLAW_BENCH_BOOST_COMPUTE
    boost::compute::command_queue boost_queue(raw_queue, true);
    const boost::compute::buffer ba(a.get(), true), bb(b.get(), true), bc(c.get(), true);
#endif

    std::vector<float> back(floats);
    std::map<std::string, std::vector<double>> rates;  // "<case>/<peer>" -> GB/s per sample
    // One kernel (float or float4), every peer; then the copy.
    auto measure = [&](const std::string& kase, const std::vector<Peer>& peers,
                       double bytes_moved) {
        for (const Peer& peer : peers) {
            c.fill(queue, -1.0f);
            peer.run();
            queue.finish();
            c.read(queue, back);
            for (std::size_t i = 0; i < floats; ++i) {
                const float want = kase == "copy" ? host_a[i] : host_a[i] + host_b[i];
                if (back[i] != want) {
                    throw std::runtime_error(openclaw::detail::concat(kase, " through ", peer.name,
                                                                      ": c[", i, "] = ", back[i],
                                                                      ", expected ", want));
                }
            }
        }
        // Enough launches per sample that one sample lasts about 0.2 s (from a warm-up launch).
        const Peer& first = peers.front();
        first.run();
        queue.finish();
        const double start = bench::now();
        first.run();
        queue.finish();
        const double once = bench::now() - start;
        const auto reps = static_cast<std::size_t>(
            std::clamp(std::ceil((smoke ? 0.005 : 0.2) / std::max(once, 1e-9)), 1.0, 200.0));
        for (const Peer& peer : peers) {  // warm-up
            peer.run();
        }
        queue.finish();
        for (int s = 0; s < samples; ++s) {
            for (const Peer& peer : peers) {
                const double t0 = bench::now();
                for (std::size_t r = 0; r < reps; ++r) {
                    peer.run();
                }
                queue.finish();
                const double seconds = (bench::now() - t0) / static_cast<double>(reps);
                rates[kase + "/" + peer.name].push_back(bytes_moved / seconds / 1e9);
            }
        }
    };

    std::vector<std::string> peer_names;
    for (const auto& [kase, width] :
         std::vector<std::pair<std::string, std::size_t>>{{"float", 1}, {"float4", 4}}) {
        const std::string name = "add_" + kase;
        const std::size_t n = floats / width;
        const std::size_t global = n;
        const std::size_t* local_ptr = local == 0 ? nullptr : &local;
        const auto count = static_cast<cl_uint>(n);
        const cl_kernel raw_kernel = clCreateKernel(program.get(), name.c_str(), nullptr);
        cl::KernelFunctor<cl::Buffer, cl::Buffer, cl::Buffer, cl_uint> functor(
            cl::Kernel(clCreateKernel(program.get(), name.c_str(), nullptr)));
        const cl::EnqueueArgs clhpp_args =
            local == 0 ? cl::EnqueueArgs(clhpp_queue, cl::NDRange(global))
                       : cl::EnqueueArgs(clhpp_queue, cl::NDRange(global), cl::NDRange(local));
        std::vector<Peer> peers = {
            {"raw C",
             [&] {
                 const cl_mem ma = a.get(), mb = b.get(), mc = c.get();
                 bench::check(clSetKernelArg(raw_kernel, 0, sizeof(cl_mem), &ma), "clSetKernelArg");
                 bench::check(clSetKernelArg(raw_kernel, 1, sizeof(cl_mem), &mb), "clSetKernelArg");
                 bench::check(clSetKernelArg(raw_kernel, 2, sizeof(cl_mem), &mc), "clSetKernelArg");
                 bench::check(clSetKernelArg(raw_kernel, 3, sizeof(cl_uint), &count),
                              "clSetKernelArg");
                 bench::check(clEnqueueNDRangeKernel(raw_queue, raw_kernel, 1, nullptr, &global,
                                                     local_ptr, 0, nullptr, nullptr),
                              "clEnqueueNDRangeKernel");
             }},
            {"CLHPP", [&] { functor(clhpp_args, ca, cb, cc, count); }},
        };
#if OPENCLAW_BENCH_BOOST_COMPUTE
        boost::compute::kernel boost_kernel(clCreateKernel(program.get(), name.c_str(), nullptr),
                                            false);
        peers.push_back({"Boost.Compute", [&] {
                             boost_kernel.set_args(ba, bb, bc, count);
                             boost_queue.enqueue_1d_range_kernel(boost_kernel, 0, global, local);
                         }});
#endif
        // The typed kernel differs by element type; both are the same clSetKernelArg calls.
        using openclaw::In, openclaw::Out;
        std::function<void()> openclaw_run;
        if (width == 1) {
            auto k = program.kernel<In<float>, In<float>, Out<float>, cl_uint>(name);
            openclaw_run = [&, k]() mutable {
                queue.enqueue(k.set_args(a, b, c, count), openclaw::NDRange{global},
                              local == 0 ? openclaw::NDRange{} : openclaw::NDRange{local});
            };
        } else {
            // The float buffers viewed as float4: the same memory objects, typed for the kernel.
            auto a4 = openclaw::ReadOnlyBuffer<cl_float4>::retain(a.get());
            auto b4 = openclaw::ReadOnlyBuffer<cl_float4>::retain(b.get());
            auto c4 = openclaw::ReadWriteBuffer<cl_float4>::retain(c.get());
            auto k = program.kernel<In<cl_float4>, In<cl_float4>, Out<cl_float4>, cl_uint>(name);
            openclaw_run = [&, k, a4, b4, c4]() mutable {
                queue.enqueue(k.set_args(a4, b4, c4, count), openclaw::NDRange{global},
                              local == 0 ? openclaw::NDRange{} : openclaw::NDRange{local});
            };
        }
        peers.push_back({"openclaw", openclaw_run});
        measure(kase, peers, 3.0 * static_cast<double>(bytes));
        if (peer_names.empty()) {
            for (const Peer& peer : peers) {
                peer_names.push_back(peer.name);
            }
        }
        clReleaseKernel(raw_kernel);
    }
    const std::vector<Peer> copy = {
        {"raw C", [&] {
             bench::check(
                 clEnqueueCopyBuffer(raw_queue, a.get(), c.get(), 0, 0, bytes, 0, nullptr, nullptr),
                 "clEnqueueCopyBuffer");
         }}};
    measure("copy", copy, 2.0 * static_cast<double>(bytes));

    const double copy_rate = bench::median(rates["copy/raw C"]);
    std::printf("\n| kernel |");
    for (const std::string& peer : peer_names) {
        std::printf(" %s GB/s |", peer.c_str());
    }
    std::printf(" openclaw / raw C | openclaw / copy |\n|---|");
    for (std::size_t i = 0; i < peer_names.size() + 2; ++i) {
        std::printf("---|");
    }
    std::printf("\n");
    for (const std::string kase : {"float", "float4"}) {
        std::printf("| %s |", kase.c_str());
        for (const std::string& peer : peer_names) {
            std::printf(" %.1f |", bench::median(rates[kase + "/" + peer]));
        }
        const double ours = bench::median(rates[kase + "/openclaw"]);
        std::printf(" %.3fx | %.3fx |\n", ours / bench::median(rates[kase + "/raw C"]),
                    ours / copy_rate);
    }
    std::printf("\nclEnqueueCopyBuffer of the same size (2 x size moved): %.1f GB/s\n\n",
                copy_rate);
    bench::csv("vector_add", "copy", "raw C", bytes, copy_rate, "GB/s");
    for (const std::string kase : {"float", "float4"}) {
        for (const std::string& peer : peer_names) {
            bench::csv("vector_add", kase, peer, bytes, bench::median(rates[kase + "/" + peer]),
                       "GB/s");
        }
    }
    return 0;
} catch (const std::exception& error) {
    std::fprintf(stderr, "bench_vector_add: %s\n", error.what());
    return 1;
}
