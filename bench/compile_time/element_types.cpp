// SPDX-License-Identifier: Apache-2.0
// What an extra buffer element type costs to compile: the same round trip (create, write, fill,
// copy, map, read) for OPENCLAW_BENCH_TYPES element types (1 to 5), each with two access tags.
// With OPENCLAW_BENCH_RAW=1 the round trip is written against the C API instead, with the same
// host vectors: its cost per type is what the program pays whatever the library.
// compile_time/peers.sh compiles each with 1 and 5 types and reports the difference per type.
#if OPENCLAW_BENCH_RAW
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#else
#include <openclaw/buffer.hpp>
#include <openclaw/platform.hpp>
#endif

#include <cstdio>
#include <vector>

#ifndef OPENCLAW_BENCH_TYPES
#define OPENCLAW_BENCH_TYPES 1
#endif

namespace {

struct Particle {  // 12 bytes: a user struct (filled from a host copy of the pattern)
    float x, y, z;
};

#if OPENCLAW_BENCH_RAW
template <class T>
bool round_trip(cl_context context, cl_command_queue queue, std::size_t n) {
    std::vector<T> host(n);
    cl_int code = CL_SUCCESS;
    cl_mem data = clCreateBuffer(context, CL_MEM_READ_WRITE, n * sizeof(T), nullptr, &code);
    cl_mem out = clCreateBuffer(context, CL_MEM_WRITE_ONLY, n * sizeof(T), nullptr, &code);
    bool ok = code == CL_SUCCESS;
    ok = ok && clEnqueueWriteBuffer(queue, data, CL_TRUE, 0, n * sizeof(T), host.data(), 0, nullptr,
                                    nullptr) == CL_SUCCESS;
    const T zero{};
    if constexpr ((sizeof(T) & (sizeof(T) - 1)) == 0) {  // patterns of 1, 2, 4, ... bytes
        ok = ok && clEnqueueFillBuffer(queue, data, &zero, sizeof(T), 0, n / 2 * sizeof(T), 0,
                                       nullptr, nullptr) == CL_SUCCESS;
    } else {  // others from a host copy of the pattern, as openclaw does
        const std::vector<T> zeros(n / 2, zero);
        ok = ok && clEnqueueWriteBuffer(queue, data, CL_TRUE, 0, n / 2 * sizeof(T), zeros.data(), 0,
                                        nullptr, nullptr) == CL_SUCCESS;
    }
    ok = ok && clEnqueueCopyBuffer(queue, data, out, 0, 0, n * sizeof(T), 0, nullptr, nullptr) ==
                   CL_SUCCESS;
    ok = ok && clEnqueueReadBuffer(queue, out, CL_TRUE, 0, n * sizeof(T), host.data(), 0, nullptr,
                                   nullptr) == CL_SUCCESS;
    void* view = clEnqueueMapBuffer(queue, data, CL_TRUE, CL_MAP_READ, 0, n * sizeof(T), 0, nullptr,
                                    nullptr, &code);
    if (code == CL_SUCCESS) {
        const T* first = static_cast<const T*>(view);
        host.assign(first, first + n);
        clEnqueueUnmapMemObject(queue, data, view, 0, nullptr, nullptr);
    }
    ok = ok && clEnqueueReadBuffer(queue, data, CL_TRUE, n / 2 * sizeof(T), n / 2 * sizeof(T),
                                   host.data(), 0, nullptr, nullptr) == CL_SUCCESS;
    clReleaseMemObject(out);
    clReleaseMemObject(data);
    return ok && host.size() == n;
}
#else
template <class T>
bool round_trip(const openclaw::Context& context, const openclaw::Queue& queue, std::size_t n) {
    std::vector<T> host(n);
    const openclaw::ReadWriteBuffer<T> data{context, n};
    const openclaw::WriteOnlyBuffer<T> out{context, n};
    queue.write(data, host);
    queue.fill(data.slice(0, n / 2), T{});
    queue.copy(data, out);
    queue.read(out, host);
    {
        const auto view = queue.map_read(data);
        host.assign(view.begin(), view.end());
    }
    queue.read(data.slice(n / 2, std::size(std::span<T>(host).first(n / 2))),
               std::span<T>(host).first(n / 2));
    return host.size() == n;
}
#endif

}  // namespace

int main() {
#if OPENCLAW_BENCH_RAW
    cl_platform_id platform = nullptr;
    cl_device_id device = nullptr;
    if (clGetPlatformIDs(1, &platform, nullptr) != CL_SUCCESS ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) != CL_SUCCESS) {
        return 1;
    }
    cl_int code = CL_SUCCESS;
    cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &code);
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &code);
#else
    const openclaw::Device device = openclaw::Platform::list().front().devices().front();
    const openclaw::Context context{device};
    const openclaw::Queue queue{context, device};
#endif
    bool ok = round_trip<float>(context, queue, 1024);
#if OPENCLAW_BENCH_TYPES >= 2
    ok = ok && round_trip<cl_int>(context, queue, 1024);
#endif
#if OPENCLAW_BENCH_TYPES >= 3
    ok = ok && round_trip<cl_float4>(context, queue, 1024);
#endif
#if OPENCLAW_BENCH_TYPES >= 4
    ok = ok && round_trip<cl_ulong>(context, queue, 1024);
#endif
#if OPENCLAW_BENCH_TYPES >= 5
    ok = ok && round_trip<Particle>(context, queue, 1024);
#endif
#if OPENCLAW_BENCH_RAW
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
#endif
    std::printf("element_types: %d type(s), %s\n", OPENCLAW_BENCH_TYPES, ok ? "ok" : "failed");
    return ok ? 0 : 1;
}
