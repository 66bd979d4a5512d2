// embedded_kernels: kernels kept in a .cl file (kernels/particles.cl), embedded into the program
// by the CMake function openclaw_embed_kernels(), and typed from their OpenCL C declarations at
// compile time. Moves particles on the device select_device() picks and checks them on the host.
#include <openclaw/openclaw.hpp>
#include <openclaw/signature.hpp>  // kernels typed from their source: program.kernel<source, "name">()

#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <vector>

#include "kernels/particles.cl.hpp"  // generated: kernels::particles, the source text

// The host twin of the OpenCL C struct, and the mapping that lets signatures name it.
struct Particle {
    cl_float4 position;
    cl_float4 velocity;
};
template <>
struct openclaw::opencl_type<"Particle"> {
    using type = Particle;
};

namespace {

// What the declarations in particles.cl say, spelled out: a change there that the host code
// does not follow fails to compile here (or at the set_args calls below).
static_assert(
    std::is_same_v<openclaw::kernel_t<kernels::particles, "advance">,
                   openclaw::Kernel<openclaw::Global<Particle>, cl_float, cl_float, cl_uint>>);
static_assert(std::is_same_v<openclaw::kernel_t<kernels::particles, "energy">,
                             openclaw::Kernel<openclaw::In<Particle>, openclaw::Out<cl_float>,
                                              openclaw::Local<cl_float>, cl_uint>>);

float reflect(float x, float& v, float bound) {
    if (x > bound) {
        v = -v;
        return 2.0f * bound - x;
    }
    if (x < -bound) {
        v = -v;
        return -2.0f * bound - x;
    }
    return x;
}

}  // namespace

int main() try {
    const openclaw::Device device = openclaw::select_device();  // OPENCLAW_DEVICE overrides
    std::printf("device: %s (%s)\n", device.name().c_str(), device.platform().name().c_str());

    constexpr cl_uint n = 4096;  // a multiple of the kernel's required work-group size, 64
    constexpr std::size_t group = 64;
    constexpr int steps = 10;
    // Multiples of powers of two: every step is exact in float on host and device alike, so the
    // results compare exactly.
    constexpr float dt = 1.0f / 16;
    constexpr float bound = 1.0f;
    std::vector<Particle> host(n);
    for (cl_uint i = 0; i < n; ++i) {
        const auto coordinate = [i](cl_uint k) {
            return static_cast<float>(static_cast<int>((i * k) % 1801) - 900) / 1024.0f;
        };
        const auto speed = [i](cl_uint k) {
            return static_cast<float>(static_cast<int>((i * k) % 97) - 48) / 16.0f;
        };
        host[i].position = {{coordinate(37), coordinate(11), coordinate(5), 0.0f}};
        host[i].velocity = {{speed(13), speed(7), speed(3), 0.0f}};
    }

    openclaw::Context context{device};
    openclaw::Queue queue{context, device};
    openclaw::ReadWriteBuffer<Particle> particles{context, host};
    openclaw::WriteOnlyBuffer<float> partial{context, n / group};

    // The source and the kernel types come from the same embedded text.
    const auto program = openclaw::Program::build(context, kernels::particles);
    auto advance = program.kernel<kernels::particles, "advance">();
    auto energy = program.kernel<kernels::particles, "energy">();

    advance.set_args(particles, dt, bound, n);
    for (int s = 0; s < steps; ++s) {
        queue.enqueue(advance, openclaw::NDRange{n}, openclaw::NDRange{group});
    }
    queue.enqueue(energy.set_args(particles, partial, openclaw::LocalMem<float>{group}, n),
                  openclaw::NDRange{n}, openclaw::NDRange{group});
    std::vector<Particle> device_result(n);
    queue.read(particles, device_result);
    std::vector<float> sums(n / group);
    queue.read(partial, sums);

    // The same steps on the host.
    double host_energy = 0;
    std::size_t wrong = 0;
    for (cl_uint i = 0; i < n; ++i) {
        Particle p = host[i];
        for (int s = 0; s < steps; ++s) {
            for (int c = 0; c < 3; ++c) {
                p.position.s[c] =
                    reflect(p.position.s[c] + dt * p.velocity.s[c], p.velocity.s[c], bound);
            }
        }
        for (int c = 0; c < 3; ++c) {
            if (device_result[i].position.s[c] != p.position.s[c] ||
                device_result[i].velocity.s[c] != p.velocity.s[c]) {
                ++wrong;
            }
            host_energy += static_cast<double>(p.velocity.s[c]) * p.velocity.s[c];
        }
    }
    double device_energy = 0;
    for (float sum : sums) {
        device_energy += sum;
    }
    if (wrong != 0 || device_energy != host_energy) {
        std::printf("embedded_kernels: %zu wrong coordinates, energy %g (host %g)\n", wrong,
                    device_energy, host_energy);
        return EXIT_FAILURE;
    }
    std::printf("embedded_kernels: %u particles, %d steps, energy %.3f: results verified\n", n,
                steps, device_energy);
    return EXIT_SUCCESS;
} catch (const openclaw::Error& error) {
    std::fprintf(stderr, "embedded_kernels: %s\n", error.what());
    return EXIT_FAILURE;
}
