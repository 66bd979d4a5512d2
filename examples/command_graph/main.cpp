// command_graph: a chain of small kernels (a few explicit Euler steps of a damped oscillator per
// element) and a copy, recorded once in a CommandGraph and replayed many times; the results are
// checked against the same chain enqueued directly and against the host. The graph is one
// cl_khr_command_buffer where the device drives one (PoCL), else a loop of pre-checked enqueues
// (NVIDIA); the program says which and how long a replay took either way.
// Usage: command_graph [elements] [replays]  (default 65536, 200)
#include <openclaw/graph.hpp>
#include <openclaw/openclaw.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr const char* source = R"CLC(
__kernel void velocity(__global const float* x, __global float* v, const float dt) {
    const size_t i = get_global_id(0);
    v[i] -= dt * (x[i] + 0.1f * v[i]);
}
__kernel void position(__global float* x, __global const float* v, const float dt) {
    const size_t i = get_global_id(0);
    x[i] += dt * v[i];
}
)CLC";

constexpr int steps_per_replay = 8;  // 16 kernels and a copy per replay

void host_steps(std::vector<float>& x, std::vector<float>& v, float dt, int steps) {
    for (int s = 0; s < steps; ++s) {
        for (std::size_t i = 0; i < x.size(); ++i) {
            v[i] -= dt * (x[i] + 0.1f * v[i]);
        }
        for (std::size_t i = 0; i < x.size(); ++i) {
            x[i] += dt * v[i];
        }
    }
}

}  // namespace

int main(int argc, char** argv) try {
    using openclaw::In;
    using openclaw::InOut;
    using openclaw::NDRange;
    const std::size_t n = argc > 1 ? std::stoul(argv[1]) : 65536;
    const int replays = argc > 2 ? std::stoi(argv[2]) : 200;
    if (n == 0 || replays <= 0) {
        std::fprintf(stderr, "command_graph: elements and replays must be positive\n");
        return EXIT_FAILURE;
    }
    const openclaw::Device device = openclaw::select_device();
    std::printf("device: %s (%s)\n", device.name().c_str(), device.platform().name().c_str());
    openclaw::Context context{device};
    openclaw::Queue queue{context, device};
    auto program = openclaw::Program::build(context, source);
    auto velocity = program.kernel<In<float>, InOut<float>, float>("velocity");
    auto position = program.kernel<InOut<float>, In<float>, float>("position");

    std::vector<float> x0(n);
    std::vector<float> v0(n, 0.0f);
    for (std::size_t i = 0; i < n; ++i) {
        x0[i] = static_cast<float>(i % 97) / 97.0f;
    }
    const float dt = 0.01f;

    // Directly: each step's two launches, then the copy of the positions.
    openclaw::ReadWriteBuffer<float> x{context, n};
    openclaw::ReadWriteBuffer<float> v{context, n};
    openclaw::ReadWriteBuffer<float> snapshot{context, n};
    queue.write(x, x0);
    queue.write(v, v0);
    velocity.set_args(x, v, dt);
    position.set_args(x, v, dt);
    // The first launches compile the kernels on some drivers (PoCL): a warm-up, not timed,
    // after which the start values are written again.
    queue.enqueue(velocity, NDRange{n});
    queue.enqueue(position, NDRange{n});
    queue.write(x, x0);
    queue.write(v, v0);
    queue.finish();
    auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < replays; ++r) {
        for (int s = 0; s < steps_per_replay; ++s) {
            queue.enqueue(velocity, NDRange{n});
            queue.enqueue(position, NDRange{n});
        }
        queue.copy(x, snapshot);
    }
    queue.finish();
    const double direct_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::vector<float> direct(n);
    queue.read(snapshot, direct);

    // Recorded once, replayed: the same chain on fresh buffers.
    openclaw::ReadWriteBuffer<float> gx{context, n};
    openclaw::ReadWriteBuffer<float> gv{context, n};
    openclaw::ReadWriteBuffer<float> gsnapshot{context, n};
    queue.write(gx, x0);
    queue.write(gv, v0);
    openclaw::CommandGraph graph{queue};
    velocity.set_args(gx, gv, dt);
    position.set_args(gx, gv, dt);
    for (int s = 0; s < steps_per_replay; ++s) {
        (void)graph.enqueue(velocity, NDRange{n});
        (void)graph.enqueue(position, NDRange{n});
    }
    graph.copy(gx, gsnapshot);
    graph.finalize();
    start = std::chrono::steady_clock::now();
    for (int r = 0; r < replays; ++r) {
        graph.replay();
    }
    queue.finish();
    const double graph_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::vector<float> replayed(n);
    queue.read(gsnapshot, replayed);

    std::vector<float> hx = x0;
    std::vector<float> hv = v0;
    host_steps(hx, hv, dt, steps_per_replay * replays);
    double worst = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (replayed[i] != direct[i]) {
            std::fprintf(stderr, "command_graph: element %zu: replayed %g, direct %g\n", i,
                         static_cast<double>(replayed[i]), static_cast<double>(direct[i]));
            return EXIT_FAILURE;
        }
        worst = std::fmax(worst, std::fabs(static_cast<double>(replayed[i] - hx[i])));
    }
    if (worst > 1e-3) {
        std::fprintf(stderr, "command_graph: largest difference from the host %g\n", worst);
        return EXIT_FAILURE;
    }
    const bool native = graph.path() == openclaw::GraphPath::command_buffer;
    std::printf("graph: %zu commands, %s%s%s\n", graph.size(),
                native ? "one cl_khr_command_buffer" : "portable replay", native ? "" : ": ",
                native ? "" : graph.portable_reason().c_str());
    std::printf("%d replays: direct %.2f ms, graph %.2f ms (%.2fx)\n", replays, direct_ms, graph_ms,
                direct_ms / graph_ms);
    std::printf(
        "command_graph: %zu elements, %d steps, replayed = direct, largest difference "
        "from the host %.1e: verified\n",
        n, steps_per_replay * replays, worst);
    return EXIT_SUCCESS;
} catch (const std::exception& error) {
    std::fprintf(stderr, "command_graph: %s\n", error.what());
    return EXIT_FAILURE;
}
