// async_pipeline: a stream of chunks uploaded, transformed and downloaded, first one step after
// another, then with transfers and kernels overlapped on two queues (double buffering ordered by
// wait lists), then the same overlap written as coroutines awaiting events. Each result is
// checked; the times show what the overlap buys (bench/pipeline measures it properly).
// Usage: async_pipeline [chunks] [MiB per chunk] [work per element]
#include <cstdio>
#include <cstdlib>
#include <string>

#include "pipeline.hpp"

namespace {}  // namespace

int main(int argc, char** argv) try {
    const std::size_t chunks = argc > 1 ? std::stoul(argv[1]) : 8;
    const std::size_t mib = argc > 2 ? std::stoul(argv[2]) : 4;
    const cl_uint work = argc > 3 ? static_cast<cl_uint>(std::stoul(argv[3])) : 64;
    const openclaw::Device device = openclaw::select_device();
    std::printf("device: %s, %zu chunks of %zu MiB, %u steps per element\n", device.name().c_str(),
                chunks, mib, work);
    const openclaw::Context context{device};
    example::Pipeline pipeline(context, device, mib * (1 << 20) / sizeof(cl_uint), chunks, work);

    struct Variant {
        const char* name;
        double (example::Pipeline::*run)();
    };
    double serial = 0;
    for (const Variant& variant : {Variant{"serial", &example::Pipeline::run_serial},
                                   Variant{"overlapped", &example::Pipeline::run_overlapped},
                                   Variant{"coroutines", &example::Pipeline::run_coroutines}}) {
        pipeline.clear_outputs();
        const double seconds = (pipeline.*variant.run)();
        const std::size_t wrong = pipeline.wrong();
        if (wrong != 0) {
            std::printf("async_pipeline: FAILED, %s left %zu wrong values\n", variant.name, wrong);
            return EXIT_FAILURE;
        }
        serial = serial == 0 ? seconds : serial;
        std::printf("%-11s %8.2f ms  (%.2fx the serial speed)\n", variant.name, seconds * 1e3,
                    serial / seconds);
    }
    std::printf("async_pipeline: every variant's results verified\n");
    return EXIT_SUCCESS;
} catch (const openclaw::Error& error) {
    std::fprintf(stderr, "async_pipeline: %s\n", error.what());
    return EXIT_FAILURE;
}
