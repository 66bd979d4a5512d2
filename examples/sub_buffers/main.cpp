// sub_buffers: split one buffer into aligned parts with sub(), process each part with its own
// launch, and see every result in the parent. sub_alignment() says how far apart parts must
// start (the device's CL_DEVICE_MEM_BASE_ADDR_ALIGN, converted from bits to elements).
#include <openclaw/openclaw.hpp>

#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

namespace {

constexpr const char* source = R"CLC(
__kernel void add(__global int* data, const int amount) {
    data[get_global_id(0)] += amount;
}
)CLC";

}  // namespace

int main() try {
    const openclaw::Device device = openclaw::select_device();
    openclaw::Context context{device};
    openclaw::Queue queue{context, device};
    const std::size_t parts = 4;
    openclaw::ReadWriteBuffer<cl_int> probe{context, 1};
    const std::size_t step = probe.sub_alignment();
    const std::size_t part = step * 256;  // every part starts on an aligned element
    std::printf("device: %s, sub-buffer offsets in steps of %zu elements\n", device.name().c_str(),
                step);

    std::vector<cl_int> host(parts * part, 0);
    openclaw::ReadWriteBuffer<cl_int> whole{queue, host};
    auto program = openclaw::Program::build(context, source);
    auto add = program.kernel<openclaw::InOut<cl_int>, cl_int>("add");
    for (std::size_t k = 0; k < parts; ++k) {
        openclaw::ReadWriteBuffer<cl_int> piece = whole.sub(k * part, part);
        queue.enqueue(add.set_args(piece, static_cast<cl_int>(k + 1)), openclaw::NDRange{part});
    }

    // A misaligned split is refused before the driver sees it, with the numbers to fix it.
    if (step > 1) {
        try {
            (void)whole.sub(1, part);
        } catch (const openclaw::Error& refused) {
            std::printf("refused: %s\n", refused.what());
        }
    }

    queue.read(whole, host);
    for (std::size_t i = 0; i < host.size(); ++i) {
        if (host[i] != static_cast<cl_int>(i / part + 1)) {
            std::printf("sub_buffers: FAILED at element %zu\n", i);
            return EXIT_FAILURE;
        }
    }
    std::printf("sub_buffers: %zu parts of %zu elements processed separately, verified\n", parts,
                part);
    return EXIT_SUCCESS;
} catch (const openclaw::Error& error) {
    std::fprintf(stderr, "sub_buffers: %s\n", error.what());
    return EXIT_FAILURE;
}
