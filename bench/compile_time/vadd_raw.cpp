// SPDX-License-Identifier: Apache-2.0
// The vector-add program against the raw OpenCL C API: the first GPU (else the first device) of
// the platforms matching OPENCLAW_BENCH_PLATFORM, c = a + b launched REPS times, checked.
// compile_time/peers.sh measures what compiling it costs; usage: bench_vadd_raw [N] [REPS].
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
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

void check(cl_int code, const char* call) {
    if (code != CL_SUCCESS) {
        std::fprintf(stderr, "%s failed: %d\n", call, code);
        std::exit(1);
    }
}

cl_device_id pick_device() {
    const char* filter = std::getenv("OPENCLAW_BENCH_PLATFORM");
    cl_uint count = 0;
    check(clGetPlatformIDs(0, nullptr, &count), "clGetPlatformIDs");
    std::vector<cl_platform_id> platforms(count);
    check(clGetPlatformIDs(count, platforms.data(), nullptr), "clGetPlatformIDs");
    cl_device_id fallback = nullptr;
    for (cl_platform_id platform : platforms) {
        char name[256] = {};
        check(clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof(name) - 1, name, nullptr),
              "clGetPlatformInfo");
        if (filter != nullptr && std::strstr(name, filter) == nullptr) {
            continue;
        }
        cl_device_id device = nullptr;
        if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, nullptr) == CL_SUCCESS) {
            return device;
        }
        if (fallback == nullptr &&
            clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) == CL_SUCCESS) {
            fallback = device;
        }
    }
    if (fallback == nullptr) {
        std::fprintf(stderr, "no OpenCL device\n");
        std::exit(1);
    }
    return fallback;
}

}  // namespace

int main(int argc, char** argv) {
    const cl_uint n = argc > 1 ? static_cast<cl_uint>(std::stoul(argv[1])) : 1u << 20;
    const int reps = argc > 2 ? std::stoi(argv[2]) : 10;
    cl_device_id device = pick_device();
    cl_int code = CL_SUCCESS;
    cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &code);
    check(code, "clCreateContext");
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &code);
    check(code, "clCreateCommandQueueWithProperties");

    std::vector<float> host_a(n, 1.0f), host_b(n), host_c(n);
    for (cl_uint i = 0; i < n; ++i) {
        host_b[i] = static_cast<float>(i % 1000);
    }
    const std::size_t bytes = n * sizeof(float);
    cl_mem a = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes,
                              host_a.data(), &code);
    check(code, "clCreateBuffer");
    cl_mem b = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes,
                              host_b.data(), &code);
    check(code, "clCreateBuffer");
    cl_mem c = clCreateBuffer(context, CL_MEM_WRITE_ONLY, bytes, nullptr, &code);
    check(code, "clCreateBuffer");

    cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &code);
    check(code, "clCreateProgramWithSource");
    if (clBuildProgram(program, 1, &device, "", nullptr, nullptr) != CL_SUCCESS) {
        std::size_t size = 0;
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
        std::string log(size, '\0');
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
        std::fprintf(stderr, "clBuildProgram failed:\n%s\n", log.c_str());
        return 1;
    }
    cl_kernel kernel = clCreateKernel(program, "vector_add", &code);
    check(code, "clCreateKernel");

    const std::size_t global = n;
    for (int r = 0; r < reps; ++r) {
        check(clSetKernelArg(kernel, 0, sizeof(cl_mem), &a), "clSetKernelArg");
        check(clSetKernelArg(kernel, 1, sizeof(cl_mem), &b), "clSetKernelArg");
        check(clSetKernelArg(kernel, 2, sizeof(cl_mem), &c), "clSetKernelArg");
        check(clSetKernelArg(kernel, 3, sizeof(cl_uint), &n), "clSetKernelArg");
        check(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr,
                                     nullptr),
              "clEnqueueNDRangeKernel");
    }
    check(clEnqueueReadBuffer(queue, c, CL_TRUE, 0, bytes, host_c.data(), 0, nullptr, nullptr),
          "clEnqueueReadBuffer");
    for (cl_uint i = 0; i < n; ++i) {
        if (host_c[i] != host_a[i] + host_b[i]) {
            std::fprintf(stderr, "c[%u] = %g, expected %g\n", i, host_c[i], host_a[i] + host_b[i]);
            return 1;
        }
    }
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseMemObject(c);
    clReleaseMemObject(b);
    clReleaseMemObject(a);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    std::printf("vadd_raw: %u elements, %d launches, verified\n", n, reps);
    return 0;
}
