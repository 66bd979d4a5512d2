// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the benchmarks share: the device choice, a clock, medians, and the CSV/markdown output.
// OPENCLAW_BENCH_PLATFORM=<part of a platform name> picks the platform (else the first GPU, else
// the first device).

#include <openclaw/openclaw.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
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

inline bool has_flag(int argc, char** argv, std::string_view flag) {
    for (int i = 1; i < argc; ++i) {
        if (flag == argv[i]) {
            return true;
        }
    }
    return false;
}

inline void csv(std::string_view benchmark, std::string_view name, std::string_view peer,
                std::size_t size, double value, std::string_view unit) {
    std::printf("csv,%.*s,%.*s,%.*s,%zu,%.6g,%.*s\n", static_cast<int>(benchmark.size()),
                benchmark.data(), static_cast<int>(name.size()), name.data(),
                static_cast<int>(peer.size()), peer.data(), size, value,
                static_cast<int>(unit.size()), unit.data());
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

}  // namespace bench
