// SPDX-License-Identifier: Apache-2.0
// A process of the binary cache's concurrency test: builds the test program through the cache in
// argv[1] and checks its result. Exit status 0 when the result is right.
#include <cstdio>

#include "cache/kernel.hpp"
#include "support/fixture.hpp"

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: cache_worker <cache directory>\n");
        return 2;
    }
    // The device the test programs use (OPENCLAW_TEST_PLATFORM), so that the parent test looks
    // up the same cache entry.
    const openclaw::Device device = openclaw_test::pick_device();
    const openclaw::Context context{device};
    const openclaw::Queue queue{context, device};
    const openclaw::BinaryCache cache{argv[1]};
    const bool ok = openclaw_test::build_and_check(context, queue, cache, 5);
    const auto stats = cache.stats();
    std::printf("%s hits %zu misses %zu rejected %zu on \"%s\"\n", ok ? "ok" : "WRONG", stats.hits,
                stats.misses, stats.rejected, device.name().c_str());
    return ok ? 0 : 1;
}
