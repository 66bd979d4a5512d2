// nbody: a few steps of an n-body simulation. Positions (xyz, mass in w) and velocities are
// float4 buffers; each work-group copies a block of positions into __local memory (a
// Local<cl_float4> parameter) and every work-item adds the pull of that block on its body. The
// steps ping-pong between two pairs of buffers; the end state is checked against the same steps
// computed on the host in double precision.
// Usage: nbody [bodies] [steps]  (bodies a multiple of 64; default 1024 bodies, 4 steps)
#include <openclaw/openclaw.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr const char* source = R"CLC(
__kernel void nbody_step(__global const float4* pos_in, __global const float4* vel_in,
                         __global float4* pos_out, __global float4* vel_out,
                         __local float4* block, const float dt, const float softening2,
                         const uint n) {
    const uint i = get_global_id(0);
    const uint lid = get_local_id(0);
    const uint block_size = get_local_size(0);
    const float4 p = pos_in[i];
    float4 acc = (float4)(0.0f);
    for (uint start = 0; start < n; start += block_size) {
        block[lid] = pos_in[start + lid];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = 0; k < block_size; ++k) {
            const float4 q = block[k];
            const float4 d = (float4)(q.xyz - p.xyz, 0.0f);
            const float inv_r = rsqrt(dot(d, d) + softening2);
            acc += d * (q.w * inv_r * inv_r * inv_r);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    float4 v = vel_in[i] + acc * dt;
    v.w = 0.0f;
    vel_out[i] = v;
    pos_out[i] = (float4)(p.xyz + v.xyz * dt, p.w);
}
)CLC";

constexpr std::size_t block = 64;
constexpr float dt = 0.001f;
constexpr float softening2 = 0.01f * 0.01f;

struct Body {
    double x, y, z, mass, vx, vy, vz;
};

// The kernel's step in double precision, the reference the device's floats are checked against.
void host_step(std::vector<Body>& bodies) {
    std::vector<Body> next = bodies;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        double ax = 0.0, ay = 0.0, az = 0.0;
        for (const Body& other : bodies) {
            const double dx = other.x - bodies[i].x;
            const double dy = other.y - bodies[i].y;
            const double dz = other.z - bodies[i].z;
            const double inv_r = 1.0 / std::sqrt(dx * dx + dy * dy + dz * dz + double{softening2});
            const double scale = other.mass * inv_r * inv_r * inv_r;
            ax += dx * scale;
            ay += dy * scale;
            az += dz * scale;
        }
        Body& b = next[i];
        b.vx += ax * double{dt};
        b.vy += ay * double{dt};
        b.vz += az * double{dt};
        b.x += b.vx * double{dt};
        b.y += b.vy * double{dt};
        b.z += b.vz * double{dt};
    }
    bodies = std::move(next);
}

}  // namespace

int main(int argc, char** argv) try {
    const std::size_t n = argc > 1 ? std::stoul(argv[1]) : 1024;
    const int steps = argc > 2 ? std::stoi(argv[2]) : 4;
    if (n == 0 || n % block != 0 || n > 0xffffffffu || steps < 1) {
        std::fprintf(stderr,
                     "usage: nbody [bodies] [steps]: bodies a multiple of %zu (got %zu), steps at "
                     "least 1\n",
                     block, n);
        return EXIT_FAILURE;
    }
    const openclaw::Device device = openclaw::select_device();
    std::printf("device: %s (%s)\n", device.name().c_str(), device.platform().name().c_str());

    // Bodies scattered in a unit cube, slowly rotating about the z axis, masses 0.5 to 1.5 / n.
    std::vector<Body> bodies(n);
    cl_uint state = 2024;
    const auto next = [&state] {
        state = state * 1664525u + 1013904223u;
        return static_cast<double>(state >> 8) / 16777216.0;  // [0, 1)
    };
    std::vector<cl_float4> host_pos(n), host_vel(n);
    for (std::size_t i = 0; i < n; ++i) {
        Body& b = bodies[i];
        b.x = next() - 0.5;
        b.y = next() - 0.5;
        b.z = next() - 0.5;
        b.mass = (0.5 + next()) / static_cast<double>(n);
        b.vx = -b.y * 0.1;
        b.vy = b.x * 0.1;
        b.vz = 0.0;
        // The host keeps the float values exactly, so both sides start from the same state.
        host_pos[i] = {{static_cast<float>(b.x), static_cast<float>(b.y), static_cast<float>(b.z),
                        static_cast<float>(b.mass)}};
        host_vel[i] = {{static_cast<float>(b.vx), static_cast<float>(b.vy), 0.0f, 0.0f}};
        b.x = host_pos[i].s[0];
        b.y = host_pos[i].s[1];
        b.z = host_pos[i].s[2];
        b.mass = host_pos[i].s[3];
        b.vx = host_vel[i].s[0];
        b.vy = host_vel[i].s[1];
    }

    openclaw::Context context{device};
    openclaw::Queue queue{context, device};
    // Two pairs of buffers: each step reads one pair and writes the other.
    openclaw::ReadWriteBuffer<cl_float4> pos[2] = {{context, host_pos}, {context, n}};
    openclaw::ReadWriteBuffer<cl_float4> vel[2] = {{context, host_vel}, {context, n}};

    auto program = openclaw::Program::build(context, source);
    auto step =
        program.kernel<openclaw::In<cl_float4>, openclaw::In<cl_float4>, openclaw::Out<cl_float4>,
                       openclaw::Out<cl_float4>, openclaw::Local<cl_float4>, cl_float, cl_float,
                       cl_uint>("nbody_step");
    if (step.work_group_size(device) < block) {
        std::fprintf(stderr, "nbody: this device runs at most %zu work-items per group, not %zu\n",
                     step.work_group_size(device), block);
        return EXIT_FAILURE;
    }
    for (int s = 0; s < steps; ++s) {
        const int from = s % 2;
        const int to = 1 - from;
        queue.enqueue(step.set_args(pos[from], vel[from], pos[to], vel[to],
                                    openclaw::LocalMem<cl_float4>{block}, dt, softening2,
                                    static_cast<cl_uint>(n)),
                      openclaw::NDRange{n}, openclaw::NDRange{block});
    }
    queue.read(pos[steps % 2], host_pos);
    queue.read(vel[steps % 2], host_vel);

    for (int s = 0; s < steps; ++s) {
        host_step(bodies);
    }
    // float against double: positions are within 0.9 of the origin, so float rounds them to about
    // 6e-8; the bounds allow for that growing over the steps and for the order of the additions.
    double worst = 0.0;
    double worst_velocity = 0.0;
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const Body& b = bodies[i];
        const double position_error =
            std::max({std::fabs(host_pos[i].s[0] - b.x), std::fabs(host_pos[i].s[1] - b.y),
                      std::fabs(host_pos[i].s[2] - b.z)});
        const double velocity_error =
            std::max({std::fabs(host_vel[i].s[0] - b.vx), std::fabs(host_vel[i].s[1] - b.vy),
                      std::fabs(host_vel[i].s[2] - b.vz)});
        worst = std::max(worst, position_error);
        worst_velocity = std::max(worst_velocity, velocity_error);
        if (position_error > 2e-6 || velocity_error > 2e-6 || host_pos[i].s[3] != b.mass) {
            if (wrong++ < 5) {
                std::printf("nbody: body %zu at (%g, %g, %g), expected (%g, %g, %g)\n", i,
                            static_cast<double>(host_pos[i].s[0]),
                            static_cast<double>(host_pos[i].s[1]),
                            static_cast<double>(host_pos[i].s[2]), b.x, b.y, b.z);
            }
        }
    }
    if (wrong != 0) {
        std::printf("nbody: FAILED, %zu of %zu bodies differ from the host's\n", wrong, n);
        return EXIT_FAILURE;
    }
    std::printf(
        "nbody: %zu bodies, %d steps, largest errors: position %.2g, velocity %.2g: verified\n", n,
        steps, worst, worst_velocity);
    return EXIT_SUCCESS;
} catch (const openclaw::Error& error) {
    std::fprintf(stderr, "nbody: %s\n", error.what());
    return EXIT_FAILURE;
} catch (const std::exception& error) {  // std::stoul on a bad argument
    std::fprintf(stderr, "nbody: %s\n", error.what());
    return EXIT_FAILURE;
}
