// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the benchmarks share: the device choice, a clock, medians, options, and the CSV/markdown
// output. OPENCLAW_BENCH_PLATFORM=<part of a platform name> picks the platform (else the first
// GPU, else the first device).

#include <openclaw/all.hpp>
#include <openclaw/detail/memory/staging.hpp>  // the staging tuning OPENCLAW_BENCH_STAGING sets

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace bench {

inline openclaw::Device pick_device() {
    const char* filter = std::getenv("OPENCLAW_BENCH_PLATFORM");
    openclaw::Device fallback;
    for (const auto& platform : openclaw::Platform::list()) {
        if (filter != nullptr && platform.name().find(filter) == std::string::npos) {
            continue;
        }
        for (const auto& device : platform.devices()) {
            if (device.is_gpu()) {
                return device;
            }
            if (!fallback) {
                fallback = device;
            }
        }
    }
    if (!fallback && filter != nullptr) {  // say why, rather than fail later on a null device
        std::string names;
        for (const auto& platform : openclaw::Platform::list()) {
            names += (names.empty() ? "\"" : ", \"") + platform.name() + "\"";
        }
        throw std::runtime_error("OPENCLAW_BENCH_PLATFORM=\"" + std::string(filter) +
                                 "\" matches no platform with a device (platforms: " +
                                 (names.empty() ? "none" : names) + ")");
    }
    return fallback;
}

inline double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

/// Median of `samples` (modified in place).
inline double median(std::vector<double> samples) {
    std::sort(samples.begin(), samples.end());
    const std::size_t n = samples.size();
    return n == 0 ? 0.0 : (n % 2 == 1 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2);
}

/// The order in which `count` peers take their turns in round `round`: a different shuffle each
/// round (the same in every run), so that no peer always follows the same one (a copy before a
/// kernel, a slow peer before a fast one) and a drift in the machine's load hits all alike.
inline std::vector<std::size_t> round_order(std::size_t count, std::size_t round) {
    std::vector<std::size_t> order(count);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::mt19937 generator(static_cast<std::mt19937::result_type>(round * 7919 + 17));
    std::shuffle(order.begin(), order.end(), generator);
    return order;
}

inline bool has_flag(int argc, char** argv, std::string_view flag) {
    for (int i = 1; i < argc; ++i) {
        if (flag == argv[i]) {
            return true;
        }
    }
    return false;
}

/// The value after `flag` (`--mib 64`), or `fallback` when the flag is absent.
inline std::size_t option(int argc, char** argv, std::string_view flag, std::size_t fallback) {
    for (int i = 1; i + 1 < argc; ++i) {
        if (flag == argv[i]) {
            return std::stoull(argv[i + 1]);
        }
    }
    return fallback;
}

/// OPENCLAW_BENCH_STAGING="slot_mib,slots,min_kib,chunks,threads,stream_reads,stream_writes,
/// spin_us,poll_us,threshold_kib[,mid_limit_kib,mid_chunks,mid_threads,mid_spin_us]" sets the
/// staging pools' tuning (detail/memory/staging.hpp) before the benchmark makes its queues, so
/// that one build measures several tunings in the suite (the mid-size settings keep their
/// defaults when left out).
inline void set_staging(const char* text) {
    openclaw::detail::StagingTuning& t = openclaw::detail::staging_tuning();
    unsigned long long v[14] = {};
    const int read = std::sscanf(
        text, "%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu", &v[0], &v[1],
        &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10], &v[11], &v[12], &v[13]);
    if (read != 10 && read != 14) {
        throw std::runtime_error(std::string("staging tuning \"") + text +
                                 "\": want slot_mib,slots,min_kib,chunks,threads,stream_reads,"
                                 "stream_writes,spin_us,poll_us,threshold_kib[,mid_limit_kib,"
                                 "mid_chunks,mid_threads,mid_spin_us]");
    }
    if (read == 14) {
        t.mid_limit = static_cast<std::size_t>(v[10]) << 10;
        t.mid_chunks = static_cast<std::size_t>(v[11]);
        t.mid_threads = static_cast<unsigned>(v[12]);
        t.mid_spin_us = static_cast<unsigned>(v[13]);
    }
    t.slot_bytes = static_cast<std::size_t>(v[0]) << 20;
    t.slots = static_cast<std::size_t>(v[1]);
    t.min_chunk = static_cast<std::size_t>(v[2]) << 10;
    t.target_chunks = static_cast<std::size_t>(v[3]);
    t.threads = static_cast<unsigned>(v[4]);
    t.stream_reads = v[5] != 0;
    t.stream_writes = v[6] != 0;
    t.spin_us = static_cast<unsigned>(v[7]);
    t.poll_us = static_cast<unsigned>(v[8]);
    t.threshold = static_cast<std::size_t>(v[9]) << 10;
}

/// The tuning in words.
inline std::string describe_staging() {
    const openclaw::detail::StagingTuning& t = openclaw::detail::staging_tuning();
    char text[384];
    std::snprintf(text, sizeof text,
                  "%zu MiB slots x %zu, chunks %zu KiB..%zu MiB (about %zu per transfer), %u "
                  "threads, streaming stores on %s, helpers awake %u us, events polled %u us, "
                  "from %zu KiB; up to %zu KiB: %zu chunks, %u threads awake %u us",
                  t.slot_bytes >> 20, t.slots, t.min_chunk >> 10, t.slot_bytes >> 20,
                  t.target_chunks, t.threads,
                  t.stream_reads && t.stream_writes ? "both"
                  : t.stream_reads                  ? "reads"
                  : t.stream_writes                 ? "writes"
                                                    : "neither",
                  t.spin_us, t.poll_us, t.threshold >> 10, t.mid_limit >> 10, t.mid_chunks,
                  t.mid_threads, t.mid_spin_us);
    return text;
}

/// Applies OPENCLAW_BENCH_STAGING, if set, and prints the tuning in use.
inline void apply_staging_env() {
    if (const char* text = std::getenv("OPENCLAW_BENCH_STAGING")) {
        set_staging(text);
    }
    std::printf("# staging: %s\n", describe_staging().c_str());
}

/// The line scripts/bench.sh reads the device from:
/// "# device: <name> | <platform version> | driver <version> | <GPU, CPU or other>".
inline void print_device(const openclaw::Device& device) {
    std::printf("# device: %s | %s | driver %s | %s\n", device.name().c_str(),
                device.platform().version_string().c_str(), device.driver_version().c_str(),
                device.is_gpu()   ? "GPU"
                : device.is_cpu() ? "CPU"
                                  : "other");
}

/// Records one result row, `csv,benchmark,case,peer,size_bytes,value,unit`. The rows are printed
/// together when the program exits, after its Markdown tables, so that those stay whole.
inline void csv(std::string_view benchmark, std::string_view name, std::string_view peer,
                std::size_t size, double value, std::string_view unit) {
    static std::vector<std::string>& rows = []() -> std::vector<std::string>& {
        static std::vector<std::string> storage;
        std::atexit([] {
            std::fflush(stdout);
            for (const std::string& row : storage) {
                std::printf("%s\n", row.c_str());
            }
        });
        return storage;
    }();
    // A comma inside a field would shift the columns: fields get semicolons instead.
    const auto field = [](std::string_view text) {
        std::string out(text);
        std::replace(out.begin(), out.end(), ',', ';');
        return out;
    };
    char value_text[32];
    std::snprintf(value_text, sizeof(value_text), "%.6g", value);
    rows.push_back(openclaw::detail::concat("csv,", field(benchmark), ",", field(name), ",",
                                            field(peer), ",", size, ",",
                                            std::string_view(value_text), ",", field(unit)));
}

inline std::string human_bytes(std::size_t bytes) {
    if (bytes >= (std::size_t{1} << 30)) {
        return std::to_string(bytes >> 30) + " GiB";
    }
    if (bytes >= (std::size_t{1} << 20)) {
        return std::to_string(bytes >> 20) + " MiB";
    }
    return std::to_string(bytes >> 10) + " KiB";
}

/// The vector add's inputs (bench_vector_add, bench_end_to_end): values whose sums are exact in
/// float, so results can be compared for equality.
inline float a_value(std::size_t i) {
    return static_cast<float>(i % 1024);
}
inline float b_value(std::size_t i) {
    return static_cast<float>((i * 7) % 512) * 0.5f;
}

/// The vector add of bench_vector_add (float and float4), which bench_build builds too.
inline constexpr const char* vector_add_source = R"CLC(
__kernel void add_float(__global const float* a, __global const float* b, __global float* c,
                        const uint n) {
    const uint i = get_global_id(0);
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}
__kernel void add_float4(__global const float4* a, __global const float4* b, __global float4* c,
                         const uint n) {
    const uint i = get_global_id(0);
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}
)CLC";

}  // namespace bench
