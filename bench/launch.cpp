// bench/launch: host time per kernel launch (a tiny kernel, 4 arguments, all set before each
// launch) through the raw C API, OpenCL-CLHPP (KernelFunctor, and setArg + enqueueNDRangeKernel),
// Boost.Compute (set_args + enqueue_1d_range_kernel) and openclaw (set_args + enqueue), in one run:
// a warm-up batch each, then many short rounds in which every peer runs one batch.
// Usage: bench_launch [--smoke] [--launches N] [--stubbed] [--peers]
// Under bench/launch_instructions.sh the OpenCL calls are stubbed and callgrind counts the
// instructions each peer's loop executes per launch; --peers lists the peers and their loops.
#include <functional>
#include <string>
#include <vector>

#include "common.hpp"
#include "peers.hpp"

namespace {

constexpr const char* source = R"CLC(
__kernel void axpy(__global float* y, __global const float* x, const float a, const uint n) {
    const uint i = get_global_id(0);
    if (i < n) {
        y[i] += a * x[i];
    }
}
)CLC";

constexpr cl_uint elements = 256;

struct Setup {
    openclaw::Context context;
    openclaw::Queue queue;
    openclaw::Program program;
    openclaw::ReadWriteBuffer<float> y;
    openclaw::ReadOnlyBuffer<float> x;
};

// One function per peer, not inlined, so that callgrind can count each loop on its own.
[[gnu::noinline]] void raw_loop(Setup& s, cl_kernel kernel, std::size_t launches) {
    const cl_mem y = s.y.get();
    const cl_mem x = s.x.get();
    const float a = 0.5f;
    const cl_uint n = elements;
    const std::size_t global = elements;
    const cl_command_queue queue = s.queue.get();
    for (std::size_t i = 0; i < launches; ++i) {
        clSetKernelArg(kernel, 0, sizeof(cl_mem), &y);
        clSetKernelArg(kernel, 1, sizeof(cl_mem), &x);
        clSetKernelArg(kernel, 2, sizeof(float), &a);
        clSetKernelArg(kernel, 3, sizeof(cl_uint), &n);
        clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr);
    }
}

[[gnu::noinline]] void openclaw_loop(
    Setup& s,
    openclaw::Kernel<openclaw::InOut<float>, openclaw::In<float>, cl_float, cl_uint>& kernel,
    std::size_t launches) {
    for (std::size_t i = 0; i < launches; ++i) {
        s.queue.enqueue(kernel.set_args(s.y, s.x, 0.5f, elements), openclaw::NDRange{elements});
    }
}

[[gnu::noinline]] void clhpp_functor_loop(
    cl::CommandQueue& queue, cl::KernelFunctor<cl::Buffer, cl::Buffer, float, cl_uint>& f,
    const cl::Buffer& y, const cl::Buffer& x, std::size_t launches) {
    for (std::size_t i = 0; i < launches; ++i) {
        f(cl::EnqueueArgs(queue, cl::NDRange(elements)), y, x, 0.5f, elements);
    }
}

[[gnu::noinline]] void clhpp_kernel_loop(const cl::CommandQueue& queue, cl::Kernel& kernel,
                                         const cl::Buffer& y, const cl::Buffer& x,
                                         std::size_t launches) {
    for (std::size_t i = 0; i < launches; ++i) {
        kernel.setArg(0, y);
        kernel.setArg(1, x);
        kernel.setArg(2, 0.5f);
        kernel.setArg(3, elements);
        queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(elements));
    }
}

#if OPENCLAW_BENCH_BOOST_COMPUTE
// Boost.Compute returns an event from every enqueue, so each launch creates and releases one.
[[gnu::noinline]] void boost_compute_loop(boost::compute::command_queue& queue,
                                          boost::compute::kernel& kernel,
                                          const boost::compute::buffer& y,
                                          const boost::compute::buffer& x, std::size_t launches) {
    for (std::size_t i = 0; i < launches; ++i) {
        kernel.set_args(y, x, 0.5f, elements);
        queue.enqueue_1d_range_kernel(kernel, 0, elements, 0);
    }
}
#endif

struct Peer {
    std::string name;
    std::string loop;  // the function callgrind counts (launch_instructions.sh)
    std::function<void(std::size_t)> run;
};

}  // namespace

int main(int argc, char** argv) try {
    const bool smoke = bench::has_flag(argc, argv, "--smoke");
    // Under the stub library nothing runs on the device: only instruction counts mean anything.
    const bool stubbed = bench::has_flag(argc, argv, "--stubbed");
    const std::size_t launches = bench::option(argc, argv, "--launches", smoke ? 200 : 100000);
    const openclaw::Device device = bench::pick_device();
    if (!device) {
        std::fprintf(stderr, "no OpenCL device\n");
        return 1;
    }
    const openclaw::Context context{device};
    const openclaw::Queue queue{context, device};
    Setup s{context, queue, openclaw::Program::build(context, source),
            openclaw::ReadWriteBuffer<float>{context, std::vector<float>(elements, 1.0f)},
            openclaw::ReadOnlyBuffer<float>{context, std::vector<float>(elements, 2.0f)}};
    auto kernel =
        s.program.kernel<openclaw::InOut<float>, openclaw::In<float>, cl_float, cl_uint>("axpy");
    const cl_kernel raw_kernel = clCreateKernel(s.program.get(), "axpy", nullptr);
    cl::CommandQueue clhpp_queue(queue.get(), true);
    const cl::Buffer cy(s.y.get(), true);
    const cl::Buffer cx(s.x.get(), true);
    cl::Kernel clhpp_kernel(clCreateKernel(s.program.get(), "axpy", nullptr));
    cl::KernelFunctor<cl::Buffer, cl::Buffer, float, cl_uint> functor(
        cl::Kernel(clCreateKernel(s.program.get(), "axpy", nullptr)));

    std::vector<Peer> peers = {
        {"raw C", "raw_loop", [&](std::size_t n) { raw_loop(s, raw_kernel, n); }},
        {"CLHPP KernelFunctor", "clhpp_functor_loop",
         [&](std::size_t n) { clhpp_functor_loop(clhpp_queue, functor, cy, cx, n); }},
        {"CLHPP setArg+enqueue", "clhpp_kernel_loop",
         [&](std::size_t n) { clhpp_kernel_loop(clhpp_queue, clhpp_kernel, cy, cx, n); }},
    };
#if OPENCLAW_BENCH_BOOST_COMPUTE
    boost::compute::command_queue boost_queue(queue.get(), true);
    boost::compute::kernel boost_kernel(clCreateKernel(s.program.get(), "axpy", nullptr), false);
    const boost::compute::buffer by(s.y.get(), true);
    const boost::compute::buffer bx(s.x.get(), true);
    peers.push_back({"Boost.Compute", "boost_compute_loop", [&](std::size_t n) {
                         boost_compute_loop(boost_queue, boost_kernel, by, bx, n);
                     }});
#endif
    peers.push_back(
        {"openclaw", "openclaw_loop", [&](std::size_t n) { openclaw_loop(s, kernel, n); }});
    if (bench::has_flag(argc, argv, "--peers")) {
        for (const Peer& peer : peers) {
            std::printf("%s\t%s\n", peer.name.c_str(), peer.loop.c_str());
        }
        return 0;
    }
    bench::print_device(device);
    std::printf("# launch overhead: %zu launches per peer%s\n", launches,
                bench::has_boost_compute ? "" : " (Boost.Compute not built: headers not found)");

    // Each peer alone, from y = 1: one launch adds 0.5 * 2.
    std::vector<float> y(elements);
    for (const Peer& peer : peers) {
        queue.fill(s.y, 1.0f);
        peer.run(1);
        queue.finish();
        queue.read(s.y, y);
        if (!stubbed && std::any_of(y.begin(), y.end(), [](float v) { return v != 2.0f; })) {
            std::fprintf(stderr, "bench_launch: %s computed %g instead of 2\n", peer.name.c_str(),
                         y[0]);
            return 1;
        }
    }

    // Many short rounds, each peer once per round in a shuffled order: a change in the machine's
    // load (other processes, the driver's worker threads) then hits every peer alike, and each
    // peer's ratio to raw C is taken within a round, then the median over the rounds.
    const std::size_t rounds = smoke ? 2 : 50;
    const std::size_t per_batch = std::max<std::size_t>(1, launches / rounds);
    for (const Peer& peer : peers) {  // warm-up: first-launch costs, caches, driver pools
        peer.run(per_batch);
    }
    queue.finish();
    queue.fill(s.y, 0.0f);
    std::vector<std::vector<double>> per_launch(peers.size());  // µs, [peer][round]
    for (std::size_t r = 0; r < rounds; ++r) {
        for (const std::size_t p : bench::round_order(peers.size(), r)) {
            queue.finish();
            const double start = bench::now();
            peers[p].run(per_batch);
            queue.finish();
            per_launch[p].push_back((bench::now() - start) / static_cast<double>(per_batch) * 1e6);
        }
    }
    // Every timed launch ran: y counts them (exactly, while the count fits a float's mantissa).
    const double expected = static_cast<double>(per_batch * peers.size() * rounds);
    queue.read(s.y, y);
    if (!stubbed && expected < (1 << 24) && y[0] != static_cast<float>(expected)) {
        std::fprintf(stderr, "bench_launch: after %.0f timed launches y is %g\n", expected, y[0]);
        return 1;
    }
    std::printf("# launches made by each peer: %zu\n", 1 + per_batch * (rounds + 1));
    std::printf(
        "\n| peer | µs per launch (median of %zu rounds of %zu) | ratio to raw C (median of the "
        "rounds' ratios) |\n|---|---|---|\n",
        rounds, per_batch);
    for (std::size_t p = 0; p < peers.size(); ++p) {
        std::vector<double> ratios;
        for (std::size_t r = 0; r < rounds; ++r) {
            ratios.push_back(per_launch[p][r] / per_launch[0][r]);  // peers[0] is raw C
        }
        const double us = bench::median(per_launch[p]);
        const double ratio = bench::median(ratios);
        bench::csv("launch", "axpy 4 args", peers[p].name, elements, us, "us/launch");
        bench::csv("launch", "axpy 4 args ratio to raw C", peers[p].name, elements, ratio, "x");
        std::printf("| %s | %.3f | %.3fx |\n", peers[p].name.c_str(), us, ratio);
    }
    clReleaseKernel(raw_kernel);
    return 0;
} catch (const std::exception& error) {
    std::fprintf(stderr, "bench_launch: %s\n", error.what());
    return 1;
}
