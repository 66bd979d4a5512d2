// bench/staging_sweep: how the staging pool's tuning (chunk sizes, slots, copy threads,
// streaming stores, helpers that stay awake) sets pageable transfer rates, beside the raw
// pageable and pinned rates of the same device and the host's own copy rate. Each configuration
// has its own queue (its own pool, kept for the whole run); the configurations take turns in
// every pass, so a host that slows down during the run slows all of them. Figures are medians
// over the passes, each transfer timed after a warm-up one.
// Usage: bench_staging_sweep [--passes N] [--smoke]. A tool for choosing the defaults of
// include/openclaw/detail/memory/staging.hpp; bench_transfers measures the chosen ones in the
// suite.
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "common.hpp"

namespace {

double gbps(std::size_t bytes, double seconds) {
    return static_cast<double>(bytes) / seconds / 1e9;
}

}  // namespace

int main(int argc, char** argv) try {
    const bool smoke = bench::has_flag(argc, argv, "--smoke");
    const std::size_t passes = bench::option(argc, argv, "--passes", smoke ? 1 : 5);
    const openclaw::Device device = bench::pick_device();
    const openclaw::Context context{device};
    bench::print_device(device);
    const std::vector<std::size_t> sizes =
        smoke ? std::vector<std::size_t>{std::size_t{4} << 20}
              : std::vector<std::size_t>{std::size_t{1} << 20,   std::size_t{4} << 20,
                                         std::size_t{16} << 20,  std::size_t{64} << 20,
                                         std::size_t{256} << 20, std::size_t{1} << 30};
    const std::size_t largest = sizes.back();
    std::vector<std::byte> host(largest);
    std::memset(host.data(), 7, host.size());
    std::vector<std::byte> back(largest);
    std::memset(back.data(), 1, back.size());
    const openclaw::ReadWriteBuffer<std::byte> buffer{context, largest};

    // The host alone: one pageable block into another, by memcpy or streaming stores, on
    // 1 to 16 threads (the staging pool's copy workers).
    std::printf("\n| host copy, %zu MiB | GB/s |\n|---|---|\n", largest >> 20);
    for (const bool streaming : {false, true}) {
        for (const unsigned threads : {1u, 4u, 8u, 12u, 16u}) {
            openclaw::detail::CopyWorkers workers(threads, 0);
            std::vector<double> samples;
            for (std::size_t r = 0; r < passes + 1; ++r) {
                const double start = bench::now();
                workers.copy(back.data(), host.data(), largest, streaming);
                if (r > 0) {
                    samples.push_back(gbps(largest, bench::now() - start));
                }
            }
            std::printf("| %s, %u threads | %.2f |\n", streaming ? "streaming" : "memcpy", threads,
                        bench::median(samples));
        }
    }

    // slot_mib,slots,min_kib,chunks,threads,stream_reads,stream_writes,spin_us,poll_us,
    // threshold_kib (bench/common.hpp)
    std::vector<std::string> configs = {
        "8,4,8192,1,16,0,0,0,0,4096",       "8,8,1024,8,16,1,0,100,0,1024",
        "8,8,1024,8,16,1,0,100,2000,1024",  "8,8,1024,8,12,1,0,100,2000,1024",
        "8,8,1024,8,8,1,0,100,2000,1024",   "8,8,512,8,16,1,0,100,2000,1024",
        "8,8,1024,8,16,1,1,100,2000,1024",  "8,8,1024,8,16,0,0,100,2000,1024",
        "8,8,1024,16,16,1,0,100,2000,1024", "4,8,1024,8,16,1,0,100,2000,1024",
        "8,4,8192,1,16,1,0,100,2000,4096",  "8,8,1024,8,16,1,0,0,2000,1024",
    };
    if (const char* only = std::getenv("OPENCLAW_BENCH_STAGING")) {
        configs = {only};
    }
    if (smoke) {
        configs.resize(2);
    }
    // One queue per configuration, made with its tuning (a pool is made at the first staged
    // transfer, from the tuning of that moment); index 0 and 1: raw pageable, raw pinned.
    const openclaw::Queue direct{context, device, {.staging = openclaw::Staging::never}};
    openclaw::PinnedBuffer<std::byte> pinned{direct, largest};
    std::memcpy(pinned.data(), host.data(), largest);
    std::vector<openclaw::Queue> queues;
    std::vector<std::string> names = {"raw pageable (never staged)", "raw pinned"};
    for (const std::string& config : configs) {
        bench::set_staging(config.c_str());
        queues.emplace_back(context, device,
                            openclaw::QueueOptions{.staging = openclaw::Staging::always});
        queues.back().write(buffer.slice(0, 1), std::span<const std::byte>(host.data(), 1));
        std::printf("# %s: %s\n", config.c_str(), bench::describe_staging().c_str());
        names.push_back(config);
    }
    std::map<std::size_t, std::map<bool, std::map<std::size_t, std::vector<double>>>> rates;
    const auto once = [&](const openclaw::Queue& queue, bool write, std::size_t bytes,
                          std::span<std::byte> from, std::span<std::byte> to) {
        const auto region = buffer.slice(0, bytes);
        double seconds = 0;
        for (int r = 0; r < 2; ++r) {  // a warm-up transfer, then the timed one
            const double start = bench::now();
            if (write) {
                queue.write(region, std::span<const std::byte>(from.first(bytes)));
            } else {
                queue.read(region, to.first(bytes));
            }
            seconds = bench::now() - start;
        }
        return gbps(bytes, seconds);
    };
    for (std::size_t pass = 0; pass < passes; ++pass) {
        for (std::size_t c = 0; c < names.size(); ++c) {
            const openclaw::Queue& queue = c < 2 ? direct : queues[c - 2];
            const std::span<std::byte> from = c == 1 ? pinned.span() : std::span(host);
            const std::span<std::byte> to = c == 1 ? pinned.span() : std::span(back);
            for (const bool write : {true, false}) {
                for (const std::size_t bytes : sizes) {
                    rates[c][write][bytes].push_back(once(queue, write, bytes, from, to));
                }
            }
        }
    }
    // The data must have arrived.
    if (std::memcmp(back.data(), host.data(), largest) != 0) {
        std::fprintf(stderr, "staging_sweep: a read brought back wrong data\n");
        return 1;
    }

    std::printf("\n| configuration | dir |");
    for (const std::size_t size : sizes) {
        std::printf(" %s |", bench::human_bytes(size).c_str());
    }
    std::printf("\n|---|---|");
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        std::printf("---|");
    }
    std::printf("\n");
    for (std::size_t c = 0; c < names.size(); ++c) {
        for (const bool write : {true, false}) {
            std::printf("| %s | %s |", names[c].c_str(), write ? "write" : "read");
            for (const std::size_t size : sizes) {
                const double median = bench::median(rates[c][write][size]);
                std::printf(" %.2f |", median);
                bench::csv("staging_sweep", write ? "write" : "read", names[c], size, median,
                           "GB/s");
            }
            std::printf("\n");
        }
    }
    return 0;
} catch (const std::exception& error) {
    std::fprintf(stderr, "staging_sweep: %s\n", error.what());
    return 1;
}
