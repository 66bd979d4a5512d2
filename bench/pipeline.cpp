// bench/pipeline: the overlap of transfers and kernels (examples/async_pipeline) against the
// same work serialised, in one run. The kernel's work per element is calibrated first so that a
// chunk's compute time matches its upload plus download time, where overlap matters most.
// Usage: bench_pipeline [--smoke] [--chunk-mib N] [--chunks N]
#include <algorithm>
#include <string>

#include "common.hpp"
#include "pipeline.hpp"

int main(int argc, char** argv) try {
    const bool smoke = bench::has_flag(argc, argv, "--smoke");
    std::size_t chunk_mib = smoke ? 1 : 16;
    std::size_t chunks = smoke ? 4 : 32;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::string_view(argv[i]) == "--chunk-mib") {
            chunk_mib = std::stoul(argv[i + 1]);
        } else if (std::string_view(argv[i]) == "--chunks") {
            chunks = std::stoul(argv[i + 1]);
        }
    }
    const openclaw::Device device = bench::pick_device();
    if (!device) {
        std::fprintf(stderr, "no OpenCL device\n");
        return 1;
    }
    bench::print_device(device);
    const openclaw::Context context{device};
    example::Pipeline pipeline(context, device, chunk_mib * (1 << 20) / sizeof(cl_uint), chunks, 0);

    // Serial time is transfers + work * per-step cost. The probe doubles the work until the
    // kernels' share is measurable (at least the transfers' time: on a GPU a few hundred steps
    // vanish in the noise, and a per-step cost read from noise would make the work enormous),
    // then the work is scaled so that the kernels take as long as the transfers.
    pipeline.run_serial();
    const double base = pipeline.run_serial();
    cl_uint probe = smoke ? 16 : 64;
    double probed = base;
    for (;;) {
        pipeline.set_work(probe);
        probed = pipeline.run_serial();
        std::fprintf(stderr, "# probe: %u steps, %.2f ms\n", probe, probed * 1e3);
        if (probed - base >= base || probe >= (1u << 24)) {
            break;
        }
        probe *= 2;
    }
    const double per_step = std::max(1e-12, (probed - base) / probe);
    const auto work = static_cast<cl_uint>(std::clamp(base / per_step, 1.0, double(probe)));
    pipeline.set_work(work);
    std::printf(
        "# pipeline on \"%s\" (%s): %zu chunks of %zu MiB, %u steps per element "
        "(calibrated: transfers %.2f ms per run)\n",
        device.name().c_str(), device.platform().version_string().c_str(), chunks, chunk_mib, work,
        base * 1e3);
    std::fflush(stdout);

    std::vector<double> serial, overlapped, coroutines;
    const int samples = smoke ? 1 : 5;
    for (int s = 0; s < samples; ++s) {
        serial.push_back(pipeline.run_serial());
        overlapped.push_back(pipeline.run_overlapped());
        coroutines.push_back(pipeline.run_coroutines());
        std::printf("# sample %d: serial %.2f ms, overlapped %.2f ms, coroutines %.2f ms\n", s,
                    serial.back() * 1e3, overlapped.back() * 1e3, coroutines.back() * 1e3);
        std::fflush(stdout);  // a run cut short still shows what it measured
    }
    // A sample of about 2^16 values (every value would take minutes on one host core at the
    // thousands of steps per element calibrated on a GPU); each chunk's sample starts elsewhere.
    const std::size_t stride =
        std::max<std::size_t>(1, chunks * pipeline.bytes_per_chunk() / sizeof(cl_uint) >> 16);
    if (pipeline.wrong(stride | 1) != 0) {
        std::fprintf(stderr, "the pipeline computed wrong values\n");
        return 1;
    }
    const double ts = bench::median(serial), to = bench::median(overlapped),
                 tc = bench::median(coroutines);
    const std::size_t bytes = chunks * pipeline.bytes_per_chunk();
    bench::csv("pipeline", "serial", "openclaw", bytes, ts * 1e3, "ms");
    bench::csv("pipeline", "overlapped", "openclaw", bytes, to * 1e3, "ms");
    bench::csv("pipeline", "coroutines", "openclaw", bytes, tc * 1e3, "ms");
    std::printf("\n| variant | ms (median of %d) | speed-up over serial |\n|---|---|---|\n",
                samples);
    std::printf(
        "| serial | %.2f | 1.00x |\n| overlapped (wait lists) | %.2f | %.2fx |\n"
        "| overlapped (coroutines) | %.2f | %.2fx |\n",
        ts * 1e3, to * 1e3, ts / to, tc * 1e3, ts / tc);
    return 0;
} catch (const std::exception& error) {
    std::fprintf(stderr, "bench_pipeline: %s\n", error.what());
    return 1;
}
