// SPDX-License-Identifier: Apache-2.0
// The vector-add program against OpenCL-CLHPP (exceptions on): the first GPU (else the first
// device) of the platforms matching OPENCLAW_BENCH_PLATFORM, c = a + b launched REPS times through
// a KernelFunctor, checked. compile_time/peers.sh measures what compiling it costs.
#define CL_HPP_ENABLE_EXCEPTIONS
#define CL_HPP_TARGET_OPENCL_VERSION 300
// 110: CLHPP 2.0.x fails to compile its queue constructors with a minimum of 120.
#define CL_HPP_MINIMUM_OPENCL_VERSION 110
#include <CL/opencl.hpp>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

const char* source = R"CLC(
__kernel void vector_add(__global const float* a, __global const float* b, __global float* c,
                         const uint n) {
    const uint i = get_global_id(0);
    if (i < n) {
        c[i] = a[i] + b[i];
    }
})CLC";

cl::Device pick_device() {
    const char* filter = std::getenv("OPENCLAW_BENCH_PLATFORM");
    std::vector<cl::Platform> platforms;
    cl::Platform::get(&platforms);
    cl::Device fallback;
    for (const cl::Platform& platform : platforms) {
        if (filter != nullptr &&
            platform.getInfo<CL_PLATFORM_NAME>().find(filter) == std::string::npos) {
            continue;
        }
        std::vector<cl::Device> devices;
        platform.getDevices(CL_DEVICE_TYPE_ALL, &devices);
        for (const cl::Device& device : devices) {
            if (device.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_GPU) {
                return device;
            }
            if (fallback() == nullptr) {
                fallback = device;
            }
        }
    }
    if (fallback() == nullptr) {
        throw std::runtime_error("no OpenCL device");
    }
    return fallback;
}

}  // namespace

int main(int argc, char** argv) try {
    const cl_uint n = argc > 1 ? static_cast<cl_uint>(std::stoul(argv[1])) : 1u << 20;
    const int reps = argc > 2 ? std::stoi(argv[2]) : 10;
    const cl::Device device = pick_device();
    const cl::Context context(device);
    cl::CommandQueue queue(context, device);

    std::vector<float> host_a(n, 1.0f), host_b(n), host_c(n);
    for (cl_uint i = 0; i < n; ++i) {
        host_b[i] = static_cast<float>(i % 1000);
    }
    const std::size_t bytes = n * sizeof(float);
    const cl::Buffer a(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, host_a.data());
    const cl::Buffer b(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, host_b.data());
    const cl::Buffer c(context, CL_MEM_WRITE_ONLY, bytes);

    cl::Program program(context, source);
    try {
        program.build(device);
    } catch (const cl::BuildError& error) {
        for (const auto& [failed, log] : error.getBuildLog()) {
            std::fprintf(stderr, "%s\n", log.c_str());
        }
        throw;
    }
    cl::KernelFunctor<cl::Buffer, cl::Buffer, cl::Buffer, cl_uint> vector_add(program,
                                                                              "vector_add");
    for (int r = 0; r < reps; ++r) {
        vector_add(cl::EnqueueArgs(queue, cl::NDRange(n)), a, b, c, n);
    }
    queue.enqueueReadBuffer(c, CL_TRUE, 0, bytes, host_c.data());
    for (cl_uint i = 0; i < n; ++i) {
        if (host_c[i] != host_a[i] + host_b[i]) {
            std::fprintf(stderr, "c[%u] = %g, expected %g\n", i, host_c[i], host_a[i] + host_b[i]);
            return 1;
        }
    }
    std::printf("vadd_clhpp: %u elements, %d launches, verified\n", n, reps);
    return 0;
} catch (const cl::Error& error) {
    std::fprintf(stderr, "vadd_clhpp: %s: %d\n", error.what(), error.err());
    return 1;
} catch (const std::exception& error) {
    std::fprintf(stderr, "vadd_clhpp: %s\n", error.what());
    return 1;
}
