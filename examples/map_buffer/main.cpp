// map_buffer: fill a buffer through a mapped view (no staging copy in host code), scale it on
// the device, and read the result through another view. Views unmap themselves when destroyed,
// and while one is alive openclaw refuses to hand its buffer to a conflicting kernel or transfer.
#include <openclaw/openclaw.hpp>

#include <cstdio>
#include <cstdlib>
#include <numeric>

namespace {

constexpr const char* source = R"CLC(
__kernel void scale(__global float* data, const float factor) {
    data[get_global_id(0)] *= factor;
}
)CLC";

}  // namespace

int main() try {
    const openclaw::Device device = openclaw::select_device();
    std::printf("device: %s\n", device.name().c_str());
    openclaw::Context context{device};
    openclaw::Queue queue{context, device};
    const std::size_t n = 1 << 16;
    openclaw::ReadWriteBuffer<float> data{context, n};

    {
        // Every element is overwritten: map_discard does not copy the old contents to the host
        // (map_write would, keeping what the host leaves untouched).
        openclaw::MappedSpan<float> view = queue.map_discard(data);
        std::iota(view.begin(), view.end(), 0.0f);
    }  // unmapped here

    auto program = openclaw::Program::build(context, source);
    auto scale = program.kernel<openclaw::InOut<float>, cl_float>("scale");
    queue.enqueue(scale.set_args(data, 0.5f), openclaw::NDRange{n});

    const openclaw::MappedSpan<const float> result = queue.map_read(data);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < result.size(); ++i) {
        wrong += result[i] == 0.5f * static_cast<float>(i) ? 0 : 1;
    }
    // While `result` is alive, the kernel may not write `data`: openclaw says so.
    try {
        scale.set_args(data, 2.0f);
        std::printf("map_buffer: FAILED, a mapped buffer reached a kernel\n");
        return EXIT_FAILURE;
    } catch (const openclaw::Error& refused) {
        std::printf("refused while mapped: %s\n", refused.what());
    }
    if (wrong != 0) {
        std::printf("map_buffer: FAILED, %zu elements wrong\n", wrong);
        return EXIT_FAILURE;
    }
    std::printf("map_buffer: %zu elements written and read through mapped views, verified\n", n);
    return EXIT_SUCCESS;
} catch (const openclaw::Error& error) {
    std::fprintf(stderr, "map_buffer: %s\n", error.what());
    return EXIT_FAILURE;
}
