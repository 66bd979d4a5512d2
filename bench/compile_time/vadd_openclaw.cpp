// SPDX-License-Identifier: Apache-2.0
// The vector-add program against openclaw: the first GPU (else the first device) of the platforms
// matching OPENCLAW_BENCH_PLATFORM, c = a + b launched REPS times, checked. The kernel is typed by
// hand, or from its source with -DOPENCLAW_BENCH_FROM_SOURCE=1 (which adds the signature wing).
// It includes the main header; -DOPENCLAW_BENCH_FEW_HEADERS=1 only the three headers it uses,
// -DOPENCLAW_BENCH_ALL_HEADERS=1 every side wing too (<openclaw/all.hpp>). compile_time/peers.sh
// measures what compiling it costs.
#if OPENCLAW_BENCH_FEW_HEADERS
#include <openclaw/buffer.hpp>
#include <openclaw/platform.hpp>
#include <openclaw/program.hpp>
#elif OPENCLAW_BENCH_ALL_HEADERS
#include <openclaw/all.hpp>
#else
#include <openclaw/openclaw.hpp>
#endif
#if OPENCLAW_BENCH_FROM_SOURCE
#include <openclaw/signature.hpp>  // kernels typed from their source: a side wing
#endif

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr char source[] = R"CLC(
__kernel void vector_add(__global const float* a, __global const float* b, __global float* c,
                         const uint n) {
    const uint i = get_global_id(0);
    if (i < n) {
        c[i] = a[i] + b[i];
    }
})CLC";

openclaw::Device pick_device() {
    const char* filter = std::getenv("OPENCLAW_BENCH_PLATFORM");
    openclaw::Device fallback;
    for (const openclaw::Platform& platform : openclaw::Platform::list()) {
        if (filter != nullptr && platform.name().find(filter) == std::string::npos) {
            continue;
        }
        for (const openclaw::Device& device : platform.devices()) {
            if (device.is_gpu()) {
                return device;
            }
            if (!fallback) {
                fallback = device;
            }
        }
    }
    if (!fallback) {
        throw std::runtime_error("no OpenCL device");
    }
    return fallback;
}

}  // namespace

int main(int argc, char** argv) try {
    const cl_uint n = argc > 1 ? static_cast<cl_uint>(std::stoul(argv[1])) : 1u << 20;
    const int reps = argc > 2 ? std::stoi(argv[2]) : 10;
    const openclaw::Device device = pick_device();
    const openclaw::Context context{device};
    const openclaw::Queue queue{context, device};

    std::vector<float> host_a(n, 1.0f), host_b(n), host_c(n);
    for (cl_uint i = 0; i < n; ++i) {
        host_b[i] = static_cast<float>(i % 1000);
    }
    const openclaw::ReadOnlyBuffer<float> a{context, host_a};
    const openclaw::ReadOnlyBuffer<float> b{context, host_b};
    const openclaw::WriteOnlyBuffer<float> c{context, n};

    const auto program = openclaw::Program::build(context, source);
#if OPENCLAW_BENCH_FROM_SOURCE
    auto vector_add = program.kernel<source, "vector_add">();
#else
    using openclaw::In, openclaw::Out;
    auto vector_add = program.kernel<In<float>, In<float>, Out<float>, cl_uint>("vector_add");
#endif
    for (int r = 0; r < reps; ++r) {
        queue.enqueue(vector_add.set_args(a, b, c, n), openclaw::NDRange{n});
    }
    queue.read(c, host_c);
    for (cl_uint i = 0; i < n; ++i) {
        if (host_c[i] != host_a[i] + host_b[i]) {
            std::fprintf(stderr, "c[%u] = %g, expected %g\n", i, host_c[i], host_a[i] + host_b[i]);
            return 1;
        }
    }
    std::printf("vadd_openclaw: %u elements, %d launches, verified\n", n, reps);
    return 0;
} catch (const std::exception& error) {
    std::fprintf(stderr, "vadd_openclaw: %s\n", error.what());
    return 1;
}
