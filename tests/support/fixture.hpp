// SPDX-License-Identifier: Apache-2.0
#pragma once
// The device, context and queue the tests run on: the first GPU, else the first device.
// OPENCLAW_TEST_PLATFORM=<substring of a platform name> restricts the choice to that platform.

#include <openclaw/openclaw.hpp>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace openclaw_test {

struct Env {
    openclaw::Device device;
    openclaw::Context context;
    openclaw::Queue queue;
};

inline openclaw::Device pick_device() {
    const char* filter = std::getenv("OPENCLAW_TEST_PLATFORM");
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
    if (!fallback) {
        throw std::runtime_error("no OpenCL device to test on (OPENCLAW_TEST_PLATFORM=" +
                                 std::string(filter != nullptr ? filter : "") + ")");
    }
    return fallback;
}

inline const Env& env() {
    static const Env instance = [] {
        openclaw::Device device = pick_device();
        std::fprintf(stderr, "[openclaw tests on \"%s\", %s]\n", device.name().c_str(),
                     device.platform().version_string().c_str());
        openclaw::Context context{device};
        openclaw::Queue queue{context, device};
        return Env{device, context, queue};
    }();
    return instance;
}

}  // namespace openclaw_test
