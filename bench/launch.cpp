// bench/launch: host time per kernel launch (a tiny kernel, 4 arguments, all set before each
// launch) through the raw C API, OpenCL-CLHPP (KernelFunctor, and setArg + enqueueNDRangeKernel)
// and openclaw (set_args + enqueue), in one run with the peers alternating batch by batch.
// Usage: bench_launch [--smoke] [--launches N] [--stubbed]
// Under bench/launch_instructions.sh the OpenCL calls are stubbed and callgrind counts the
// instructions each peer's loop executes per launch.
#include <openclaw/openclaw.hpp>

#define CL_HPP_TARGET_OPENCL_VERSION 300
// 110: CLHPP 2.0.x fails to compile its queue constructors with a minimum of 120.
#define CL_HPP_MINIMUM_OPENCL_VERSION 110
#include <CL/opencl.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common.hpp"

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

}  // namespace

int main(int argc, char** argv) try {
    const bool smoke = bench::has_flag(argc, argv, "--smoke");
    // Under the stub library nothing runs on the device: only instruction counts mean anything.
    const bool stubbed = bench::has_flag(argc, argv, "--stubbed");
    std::size_t launches = smoke ? 200 : 100000;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::string_view(argv[i]) == "--launches") {
            launches = std::stoull(argv[i + 1]);
        }
    }
    const openclaw::Device device = bench::pick_device();
    if (!device) {
        std::fprintf(stderr, "no OpenCL device\n");
        return 1;
    }
    std::printf("# launch overhead on \"%s\" (%s), %zu launches per peer\n", device.name().c_str(),
                device.platform().version_string().c_str(), launches);
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

    const std::vector<std::pair<std::string, std::function<void(std::size_t)>>> peers = {
        {"raw C", [&](std::size_t n) { raw_loop(s, raw_kernel, n); }},
        {"CLHPP KernelFunctor",
         [&](std::size_t n) { clhpp_functor_loop(clhpp_queue, functor, cy, cx, n); }},
        {"CLHPP setArg+enqueue",
         [&](std::size_t n) { clhpp_kernel_loop(clhpp_queue, clhpp_kernel, cy, cx, n); }},
        {"openclaw", [&](std::size_t n) { openclaw_loop(s, kernel, n); }},
    };
    // Verify: every peer's launches add 0.5 * 2 to y; one launch each from y = 1 gives 5.
    for (const auto& [name, run] : peers) {
        run(1);
    }
    queue.finish();
    std::vector<float> y(elements);
    s.y.read(queue, y);
    if (!stubbed && (y[0] != 5.0f || y[elements - 1] != 5.0f)) {
        std::fprintf(stderr, "a peer's launch computed the wrong result (%g)\n", y[0]);
        return 1;
    }

    const int batches = smoke ? 2 : 10;
    const std::size_t per_batch = std::max<std::size_t>(1, launches / batches);
    std::map<std::string, std::vector<double>> per_launch;
    for (int b = 0; b < batches; ++b) {
        for (const auto& [name, run] : peers) {
            queue.finish();
            const double start = bench::now();
            run(per_batch);
            queue.finish();
            per_launch[name].push_back((bench::now() - start) / static_cast<double>(per_batch) *
                                       1e6);
        }
    }
    const double raw = bench::median(per_launch["raw C"]);
    std::printf(
        "\n| peer | µs per launch (median of %d batches) | ratio to raw C |\n|---|---|---|\n",
        batches);
    for (const auto& [name, run] : peers) {
        const double us = bench::median(per_launch[name]);
        bench::csv("launch", "axpy 4 args", name, elements, us, "us/launch");
        std::printf("| %s | %.3f | %.3fx |\n", name.c_str(), us, us / raw);
    }
    clReleaseKernel(raw_kernel);
    return 0;
} catch (const std::exception& error) {
    std::fprintf(stderr, "bench_launch: %s\n", error.what());
    return 1;
}
