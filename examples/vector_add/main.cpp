// vector_add: c = a + b on the device select_device() picks (the first GPU, else an accelerator,
// else a CPU such as PoCL's; OPENCLAW_DEVICE overrides), checked against the same sum on the
// host. A starting point for openclaw programs.
#include <openclaw/openclaw.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

constexpr const char* source = R"CLC(
__kernel void vector_add(__global const float* a, __global const float* b,
                         __global float* c, const uint n) {
    const size_t i = get_global_id(0);
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}
)CLC";

}  // namespace

int main() try {
    const openclaw::Device device = openclaw::select_device();
    std::printf("device: %s (%s, %s)\n", device.name().c_str(), device.platform().name().c_str(),
                device.platform().version_string().c_str());

    const std::size_t n = std::size_t{1} << 20;
    std::vector<float> host_a(n), host_b(n), host_c(n);
    for (std::size_t i = 0; i < n; ++i) {
        host_a[i] = static_cast<float>(i) * 0.5f;
        host_b[i] = 2.0f - static_cast<float>(i % 1000);
    }

    openclaw::Context context{device};
    openclaw::Queue queue{context, device};
    openclaw::ReadOnlyBuffer<float> a{queue, host_a};  // host_a on the device on return
    openclaw::ReadOnlyBuffer<float> b{queue, host_b};
    openclaw::WriteOnlyBuffer<float> c{context, n};

    auto program = openclaw::Program::build(context, source, {"-cl-fast-relaxed-math"});
    // The C++ signature of the kernel: a mismatch in set_args is a compile error.
    auto vadd =
        program.kernel<openclaw::In<float>, openclaw::In<float>, openclaw::Out<float>, cl_uint>(
            "vector_add");
    vadd.set_args(a, b, c, static_cast<cl_uint>(n));

    const std::size_t local = 64;
    const std::size_t global = (n + local - 1) / local * local;  // a multiple of the group size
    queue.enqueue(vadd, openclaw::NDRange{global}, openclaw::NDRange{local});
    queue.read(c, host_c);  // blocking: host_c holds the result on return

    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (std::fabs(host_c[i] - (host_a[i] + host_b[i])) > 1e-5f * std::fabs(host_a[i]) + 1e-6f) {
            ++wrong;
        }
    }
    if (wrong != 0) {
        std::printf("vector_add: FAILED, %zu of %zu elements differ from the host's sum\n", wrong,
                    n);
        return EXIT_FAILURE;
    }
    std::printf("vector_add: %zu elements, result verified\n", n);
    return EXIT_SUCCESS;
} catch (const openclaw::Error& error) {
    std::fprintf(stderr, "vector_add: %s\n", error.what());
    return EXIT_FAILURE;
}
