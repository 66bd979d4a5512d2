// async_pipeline: a stream of chunks uploaded, transformed and downloaded, first one step after
// another, then with transfers and kernels overlapped on two queues (double buffering ordered by
// wait lists), then the same overlap written as coroutines awaiting events. Each result is
// checked; the times show what the overlap buys (bench/pipeline measures it properly).
// Usage: async_pipeline [chunks] [MiB per chunk] [work per element]
// Defaults: 8 chunks of 4 MiB and 64 steps of work on a CPU device; 16 chunks of 16 MiB and 8192
// steps on a GPU, where a chunk's kernel then takes about as long as its transfers (on the H200)
// and each step is long enough that what an await costs (tens of microseconds) stays small.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "pipeline.hpp"

int main(int argc, char** argv) try {
    const openclaw::Device device = openclaw::select_device();
    const bool gpu = device.is_gpu();
    const std::size_t chunks = argc > 1 ? std::stoul(argv[1]) : (gpu ? 16 : 8);
    const std::size_t mib = argc > 2 ? std::stoul(argv[2]) : (gpu ? 16 : 4);
    const cl_uint work = argc > 3 ? static_cast<cl_uint>(std::stoul(argv[3])) : (gpu ? 8192 : 64);
    std::printf("device: %s, %zu chunks of %zu MiB, %u steps per element\n", device.name().c_str(),
                chunks, mib, work);
    const openclaw::Context context{device};
    const std::size_t chunk_elements = mib * (1 << 20) / sizeof(cl_uint);
    example::Pipeline pipeline(context, device, chunk_elements, chunks, work);
    // The host repeats the kernel's work to check it: every value while that stays under about
    // 2^30 steps, else an evenly spread sample of about that size.
    const std::size_t stride = std::max<std::size_t>(1, chunks * chunk_elements * work >> 30);

    struct Variant {
        const char* name;
        double (example::Pipeline::*run)();
    };
    pipeline.run_serial();  // warm-up: the first launch and transfers pay one-time costs
    double serial = 0;
    for (const Variant& variant : {Variant{"serial", &example::Pipeline::run_serial},
                                   Variant{"overlapped", &example::Pipeline::run_overlapped},
                                   Variant{"coroutines", &example::Pipeline::run_coroutines}}) {
        pipeline.clear_outputs();
        const double seconds = (pipeline.*variant.run)();
        const std::size_t wrong = pipeline.wrong(stride);
        if (wrong != 0) {
            std::printf("async_pipeline: FAILED, %s left %zu wrong values\n", variant.name, wrong);
            return EXIT_FAILURE;
        }
        serial = serial == 0 ? seconds : serial;
        std::printf("%-11s %8.2f ms  (%.2fx the serial speed)\n", variant.name, seconds * 1e3,
                    serial / seconds);
    }
    if (stride == 1) {
        std::printf("async_pipeline: every variant's results verified\n");
    } else {
        std::printf("async_pipeline: every variant's results verified (one value in %zu)\n",
                    stride);
    }
    return EXIT_SUCCESS;
} catch (const openclaw::Error& error) {
    std::fprintf(stderr, "async_pipeline: %s\n", error.what());
    return EXIT_FAILURE;
}
