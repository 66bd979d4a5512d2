// SPDX-License-Identifier: Apache-2.0
// bench/end_to_end: the seed's vector add as a whole program, the way each peer's users write it:
// buffers made from host data, one kernel, the result read back into host memory (the context,
// queue and built program exist before the clock starts; the buffers are made and released
// inside it). Peers:
//   raw naive      clCreateBuffer(CL_MEM_COPY_HOST_PTR) for a and b, clEnqueueReadBuffer
//   raw careful    empty buffers, blocking clEnqueueWriteBuffer, clEnqueueReadBuffer
//   CLHPP          cl::Buffer(queue, begin, end, readOnly) (CLHPP maps and copies),
//   enqueueReadBuffer Boost.Compute  compute::buffer + enqueue_write_buffer / enqueue_read_buffer
//   openclaw       ReadOnlyBuffer<float>{queue, host_a} (the README's flow), queue.read(c, host_c)
//   openclaw (moved vectors)  ReadOnlyBuffer<float>{queue, std::move(a)}: zero-copy where the
//                  device shares host memory (the vectors are made before the clock starts)
// Peers take turns within every round in a shuffled order; figures are medians of the rounds.
// Every peer's result is checked. Usage: bench_end_to_end [--smoke] [--runs N] [--max-log2 N]
// (2^20, 2^24 and 2^28 floats on a GPU, 2^20 and 2^24 elsewhere: every fourth power up to the
// maximum).
#include <functional>
#include <string>
#include <vector>

#include "common.hpp"
#include "peers.hpp"

namespace {

using bench::check;

void verify(const std::vector<float>& c, const char* peer) {
    for (std::size_t i = 0; i < c.size(); i += (i % 7919) + 1) {
        if (c[i] != bench::a_value(i) + bench::b_value(i)) {
            throw std::runtime_error(std::string(peer) + ": wrong sum at element " +
                                     std::to_string(i));
        }
    }
    if (c.back() != bench::a_value(c.size() - 1) + bench::b_value(c.size() - 1)) {
        throw std::runtime_error(std::string(peer) + ": wrong last element");
    }
}

struct Peer {
    std::string name;
    std::function<void()> prepare;  // outside the clock
    std::function<void()> run;      // the whole program
};

}  // namespace

int main(int argc, char** argv) try {
    const bool smoke = bench::has_flag(argc, argv, "--smoke");
    const openclaw::Device device = bench::pick_device();
    if (!device) {
        std::fprintf(stderr, "no OpenCL device\n");
        return 1;
    }
    const std::size_t max_log2 = bench::option(argc, argv, "--max-log2",
                                               smoke             ? 16
                                               : device.is_gpu() ? 28
                                                                 : 24);
    const int runs = static_cast<int>(bench::option(argc, argv, "--runs", smoke ? 1 : 7));
    bench::print_device(device);
    bench::apply_staging_env();
    std::printf(
        "# end to end: vector add, buffers from host data + kernel + read back, median "
        "of %d rounds%s\n",
        runs, bench::has_boost_compute ? "" : " (Boost.Compute not built)");

    const openclaw::Context context{device};
    const openclaw::Queue queue{context, device};
    const auto program = openclaw::Program::build(context, bench::vector_add_source);
    auto kernel =
        program.kernel<openclaw::In<float>, openclaw::In<float>, openclaw::Out<float>, cl_uint>(
            "add_float");
    const cl_context raw_context = context.get();
    const cl_command_queue raw_queue = queue.get();
    cl::Context clhpp_context(raw_context, true);
    cl::CommandQueue clhpp_queue(raw_queue, true);
    // Each peer sets arguments on a kernel object of its own (openclaw's remembers what it set).
    const auto other_kernel = [&] {
        cl_int code = CL_SUCCESS;
        cl_kernel made = clCreateKernel(program.get(), "add_float", &code);
        check(code, "clCreateKernel");
        return made;
    };
    const cl_kernel raw_kernel = other_kernel();
    cl::Kernel clhpp_kernel(other_kernel());
#if OPENCLAW_BENCH_BOOST_COMPUTE
    boost::compute::context boost_context(raw_context, true);
    boost::compute::command_queue boost_queue(raw_queue, true);
    boost::compute::kernel boost_kernel(other_kernel(), false);
#endif

    // 2^20, 2^24 and 2^28 floats (4 MiB, 64 MiB and 1 GiB per buffer), up to --max-log2.
    std::vector<std::size_t> logs;
    for (std::size_t log2 = smoke ? 12 : 20; log2 <= max_log2; log2 += 4) {
        logs.push_back(log2);
    }
    if (logs.empty() || logs.back() != max_log2) {
        logs.push_back(max_log2);
    }
    std::printf("\n| floats | peer | ms | speed-up over raw naive | over raw careful |\n");
    std::printf("|---|---|---|---|---|\n");
    for (const std::size_t log2 : logs) {
        const std::size_t n = std::size_t{1} << log2;
        const std::size_t bytes = n * sizeof(float);
        std::vector<float> host_a(n), host_b(n), host_c(n);
        for (std::size_t i = 0; i < n; ++i) {
            host_a[i] = bench::a_value(i);
            host_b[i] = bench::b_value(i);
        }
        const cl_uint count = static_cast<cl_uint>(n);
        const auto raw_program = [&](bool careful, const char* name) {
            cl_int code = CL_SUCCESS;
            const cl_mem_flags copy = careful ? 0 : CL_MEM_COPY_HOST_PTR;
            cl_mem a = clCreateBuffer(raw_context, CL_MEM_READ_ONLY | copy, bytes,
                                      careful ? nullptr : host_a.data(), &code);
            check(code, "clCreateBuffer");
            cl_mem b = clCreateBuffer(raw_context, CL_MEM_READ_ONLY | copy, bytes,
                                      careful ? nullptr : host_b.data(), &code);
            check(code, "clCreateBuffer");
            cl_mem c = clCreateBuffer(raw_context, CL_MEM_WRITE_ONLY, bytes, nullptr, &code);
            check(code, "clCreateBuffer");
            if (careful) {
                check(clEnqueueWriteBuffer(raw_queue, a, CL_TRUE, 0, bytes, host_a.data(), 0,
                                           nullptr, nullptr),
                      "clEnqueueWriteBuffer");
                check(clEnqueueWriteBuffer(raw_queue, b, CL_TRUE, 0, bytes, host_b.data(), 0,
                                           nullptr, nullptr),
                      "clEnqueueWriteBuffer");
            }
            cl_kernel k = raw_kernel;
            check(clSetKernelArg(k, 0, sizeof(cl_mem), &a), "clSetKernelArg");
            check(clSetKernelArg(k, 1, sizeof(cl_mem), &b), "clSetKernelArg");
            check(clSetKernelArg(k, 2, sizeof(cl_mem), &c), "clSetKernelArg");
            check(clSetKernelArg(k, 3, sizeof(cl_uint), &count), "clSetKernelArg");
            const std::size_t global = n;
            check(clEnqueueNDRangeKernel(raw_queue, k, 1, nullptr, &global, nullptr, 0, nullptr,
                                         nullptr),
                  "clEnqueueNDRangeKernel");
            check(clEnqueueReadBuffer(raw_queue, c, CL_TRUE, 0, bytes, host_c.data(), 0, nullptr,
                                      nullptr),
                  "clEnqueueReadBuffer");
            clReleaseMemObject(a);
            clReleaseMemObject(b);
            clReleaseMemObject(c);
            (void)name;
        };
        std::vector<float> moved_a, moved_b;
        std::vector<Peer> peers;
        peers.push_back({"raw naive", nullptr, [&] { raw_program(false, "raw naive"); }});
        peers.push_back({"raw careful", nullptr, [&] { raw_program(true, "raw careful"); }});
        peers.push_back(
            {"CLHPP", nullptr, [&] {
                 cl::Buffer a(clhpp_queue, host_a.begin(), host_a.end(), true);
                 cl::Buffer b(clhpp_queue, host_b.begin(), host_b.end(), true);
                 cl::Buffer c(clhpp_context, CL_MEM_WRITE_ONLY, bytes);
                 clhpp_kernel.setArg(0, a);
                 clhpp_kernel.setArg(1, b);
                 clhpp_kernel.setArg(2, c);
                 clhpp_kernel.setArg(3, count);
                 check(
                     clhpp_queue.enqueueNDRangeKernel(clhpp_kernel, cl::NullRange, cl::NDRange(n)),
                     "enqueueNDRangeKernel");
                 check(clhpp_queue.enqueueReadBuffer(c, CL_TRUE, 0, bytes, host_c.data()),
                       "enqueueReadBuffer");
             }});
#if OPENCLAW_BENCH_BOOST_COMPUTE
        peers.push_back({"Boost.Compute", nullptr, [&] {
                             namespace compute = boost::compute;
                             compute::buffer a(boost_context, bytes, compute::buffer::read_only);
                             compute::buffer b(boost_context, bytes, compute::buffer::read_only);
                             compute::buffer c(boost_context, bytes, compute::buffer::write_only);
                             boost_queue.enqueue_write_buffer(a, 0, bytes, host_a.data());
                             boost_queue.enqueue_write_buffer(b, 0, bytes, host_b.data());
                             boost_kernel.set_args(a, b, c, count);
                             boost_queue.enqueue_1d_range_kernel(boost_kernel, 0, n, 0);
                             boost_queue.enqueue_read_buffer(c, 0, bytes, host_c.data());
                         }});
#endif
        peers.push_back({"openclaw", nullptr, [&] {
                             const openclaw::ReadOnlyBuffer<float> a{queue, host_a};
                             const openclaw::ReadOnlyBuffer<float> b{queue, host_b};
                             const openclaw::WriteOnlyBuffer<float> c{context, n};
                             queue.enqueue(kernel.set_args(a, b, c, count), openclaw::NDRange{n});
                             queue.read(c, host_c);
                         }});
        peers.push_back({"openclaw (moved vectors)",
                         [&] {
                             moved_a = host_a;
                             moved_b = host_b;
                         },
                         [&] {
                             const openclaw::ReadOnlyBuffer<float> a{queue, std::move(moved_a)};
                             const openclaw::ReadOnlyBuffer<float> b{queue, std::move(moved_b)};
                             const openclaw::WriteOnlyBuffer<float> c{context, n};
                             queue.enqueue(kernel.set_args(a, b, c, count), openclaw::NDRange{n});
                             queue.read(c, host_c);
                         }});

        std::vector<std::vector<double>> times(peers.size());
        for (int round = -1; round < runs; ++round) {  // round -1: each peer once, checked
            for (const std::size_t p : bench::round_order(peers.size(), round < 0 ? 0 : round)) {
                if (peers[p].prepare) {
                    peers[p].prepare();
                }
                std::fill(host_c.begin(), host_c.end(), -1.0f);
                const double start = bench::now();
                peers[p].run();
                const double seconds = bench::now() - start;
                if (round < 0) {
                    verify(host_c, peers[p].name.c_str());
                } else {
                    times[p].push_back(seconds);
                }
            }
        }
        const double naive = bench::median(times[0]);
        const double careful = bench::median(times[1]);
        for (std::size_t p = 0; p < peers.size(); ++p) {
            const double t = bench::median(times[p]);
            std::printf("| 2^%zu | %s | %.2f | %.2fx | %.2fx |\n", log2, peers[p].name.c_str(),
                        t * 1e3, naive / t, careful / t);
            bench::csv("end_to_end", "vector add 2^" + std::to_string(log2), peers[p].name, bytes,
                       t * 1e3, "ms");
        }
    }
    clReleaseKernel(raw_kernel);
    return 0;
} catch (const std::exception& error) {
    std::fprintf(stderr, "bench_end_to_end: %s\n", error.what());
    return 1;
}
