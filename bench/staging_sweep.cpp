// bench/staging_sweep: how the staging pool's tuning (chunk sizes, slots, copy threads) sets
// pageable transfer rates, against the raw pageable and pinned rates of the same device. Each
// configuration gets a fresh queue (its own pool); every rate is the median of the runs.
// Usage: bench_staging_sweep [--runs N] [--smoke]. A tool for choosing the defaults in
// include/openclaw/detail/staging.hpp; the suite's bench_transfers measures the chosen ones.
#include <cstring>
#include <string>
#include <vector>

#include "common.hpp"

namespace {

using openclaw::detail::StagingTuning;

struct Config {
    const char* name;
    StagingTuning tuning;
};

StagingTuning make(std::size_t max_mib, std::size_t min_kib, std::size_t chunks, std::size_t slots,
                   unsigned threads, std::size_t threshold_mib = 1) {
    StagingTuning t;
    t.max_chunk = max_mib << 20;
    t.min_chunk = min_kib << 10;
    t.target_chunks = chunks;
    t.slots = slots;
    t.threads = threads;
    t.threshold = threshold_mib << 20;
    return t;
}

}  // namespace

int main(int argc, char** argv) try {
    const bool smoke = bench::has_flag(argc, argv, "--smoke");
    std::size_t runs = smoke ? 2 : 9;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--runs") == 0) {
            runs = std::stoul(argv[i + 1]);
        }
    }
    const openclaw::Device device = bench::pick_device();
    const openclaw::Context context{device};
    std::printf("staging sweep on %s, %zu runs per rate\n", device.name().c_str(), runs);
    const std::vector<std::size_t> sizes =
        smoke ? std::vector<std::size_t>{std::size_t{4} << 20}
              : std::vector<std::size_t>{std::size_t{1} << 20,  std::size_t{2} << 20,
                                         std::size_t{4} << 20,  std::size_t{16} << 20,
                                         std::size_t{64} << 20, std::size_t{256} << 20,
                                         std::size_t{1} << 30};
    const std::size_t largest = sizes.back();
    std::vector<std::byte> host(largest);
    std::memset(host.data(), 7, host.size());
    const openclaw::ReadWriteBuffer<std::byte> buffer{context, largest};

    const std::vector<Config> configs = {
        {"8M fixed, 4 slots, 16 thr", make(8, 8192, 1, 4, 16)},
        {"8M max, 1M min, 8 chunks, 8 slots, 16 thr", make(8, 1024, 8, 8, 16)},
        {"8M max, 512K min, 8 chunks, 8 slots, 16 thr", make(8, 512, 8, 8, 16)},
        {"8M max, 1M min, 8 chunks, 8 slots, 12 thr", make(8, 1024, 8, 8, 12)},
        {"4M max, 512K min, 8 chunks, 8 slots, 16 thr", make(4, 512, 8, 8, 16)},
        {"8M max, 256K min, 8 chunks, 16 slots, 16 thr", make(8, 256, 8, 16, 16)},
    };

    const auto rate = [&](const openclaw::Queue& queue, bool write, std::size_t bytes) {
        std::vector<double> samples;
        const auto region = buffer.slice(0, bytes);
        const std::span<std::byte> span(host.data(), bytes);
        for (std::size_t r = 0; r < runs + 1; ++r) {
            const double start = bench::now();
            if (write) {
                queue.write(region, span);
            } else {
                queue.read(region, span);
            }
            const double seconds = bench::now() - start;
            if (r > 0) {
                samples.push_back(static_cast<double>(bytes) / seconds / 1e9);
            }
        }
        return bench::median(samples);
    };

    std::printf("| configuration | dir |");
    for (const std::size_t size : sizes) {
        std::printf(" %zu MiB |", size >> 20);
    }
    std::printf("\n|---|---|%s\n", std::string(sizes.size() * 4, '-').c_str());
    {
        const openclaw::Queue direct{context, device, {.staging = openclaw::Staging::never}};
        for (const bool write : {true, false}) {
            std::printf("| raw pageable (never staged) | %s |", write ? "write" : "read");
            for (const std::size_t size : sizes) {
                std::printf(" %.2f |", rate(direct, write, size));
            }
            std::printf("\n");
        }
        openclaw::PinnedBuffer<std::byte> pinned{direct, largest};
        for (const bool write : {true, false}) {
            std::printf("| pinned | %s |", write ? "write" : "read");
            for (const std::size_t size : sizes) {
                std::vector<double> samples;
                for (std::size_t r = 0; r < runs + 1; ++r) {
                    const double start = bench::now();
                    if (write) {
                        direct.write(buffer.slice(0, size), pinned.span().first(size));
                    } else {
                        direct.read(buffer.slice(0, size), pinned.span().first(size));
                    }
                    if (r > 0) {
                        samples.push_back(static_cast<double>(size) / (bench::now() - start) / 1e9);
                    }
                }
                std::printf(" %.2f |", bench::median(samples));
            }
            std::printf("\n");
        }
    }
    for (const Config& config : configs) {
        openclaw::detail::staging_tuning() = config.tuning;
        const openclaw::Queue queue{context, device, {.staging = openclaw::Staging::always}};
        for (const bool write : {true, false}) {
            std::printf("| %s | %s |", config.name, write ? "write" : "read");
            for (const std::size_t size : sizes) {
                std::printf(" %.2f |", rate(queue, write, size));
            }
            std::printf("\n");
            std::fflush(stdout);
        }
    }
    return 0;
} catch (const std::exception& error) {
    std::fprintf(stderr, "staging_sweep: %s\n", error.what());
    return 1;
}
