// SPDX-License-Identifier: Apache-2.0
// The vector-add program against Boost.Compute's core (the same kernel, not its transform()
// algorithm): the first GPU (else the first device) of the platforms matching
// OPENCLAW_BENCH_PLATFORM, c = a + b launched REPS times, checked. compile_time/peers.sh measures
// what compiling it costs.
#define CL_TARGET_OPENCL_VERSION 300
#include <boost/compute/core.hpp>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace compute = boost::compute;

namespace {

const char* source = R"CLC(
__kernel void vector_add(__global const float* a, __global const float* b, __global float* c,
                         const uint n) {
    const uint i = get_global_id(0);
    if (i < n) {
        c[i] = a[i] + b[i];
    }
})CLC";

compute::device pick_device() {
    const char* filter = std::getenv("OPENCLAW_BENCH_PLATFORM");
    compute::device fallback;
    for (const compute::platform& platform : compute::system::platforms()) {
        if (filter != nullptr && platform.name().find(filter) == std::string::npos) {
            continue;
        }
        for (const compute::device& device : platform.devices()) {
            if (device.type() & compute::device::gpu) {
                return device;
            }
            if (fallback.id() == nullptr) {
                fallback = device;
            }
        }
    }
    if (fallback.id() == nullptr) {
        throw std::runtime_error("no OpenCL device");
    }
    return fallback;
}

}  // namespace

int main(int argc, char** argv) try {
    const cl_uint n = argc > 1 ? static_cast<cl_uint>(std::stoul(argv[1])) : 1u << 20;
    const int reps = argc > 2 ? std::stoi(argv[2]) : 10;
    const compute::device device = pick_device();
    const compute::context context(device);
    compute::command_queue queue(context, device);

    std::vector<float> host_a(n, 1.0f), host_b(n), host_c(n);
    for (cl_uint i = 0; i < n; ++i) {
        host_b[i] = static_cast<float>(i % 1000);
    }
    const std::size_t bytes = n * sizeof(float);
    const compute::buffer a(
        context, bytes, compute::buffer::read_only | compute::buffer::copy_host_ptr, host_a.data());
    const compute::buffer b(
        context, bytes, compute::buffer::read_only | compute::buffer::copy_host_ptr, host_b.data());
    const compute::buffer c(context, bytes, compute::buffer::write_only);

    const compute::program program = compute::program::build_with_source(source, context);
    compute::kernel kernel(program, "vector_add");
    for (int r = 0; r < reps; ++r) {
        kernel.set_args(a, b, c, n);
        queue.enqueue_1d_range_kernel(kernel, 0, n, 0);
    }
    queue.enqueue_read_buffer(c, 0, bytes, host_c.data());
    for (cl_uint i = 0; i < n; ++i) {
        if (host_c[i] != host_a[i] + host_b[i]) {
            std::fprintf(stderr, "c[%u] = %g, expected %g\n", i, host_c[i], host_a[i] + host_b[i]);
            return 1;
        }
    }
    std::printf("vadd_boost_compute: %u elements, %d launches, verified\n", n, reps);
    return 0;
} catch (const std::exception& error) {
    std::fprintf(stderr, "vadd_boost_compute: %s\n", error.what());
    return 1;
}
