// Pinned host memory, asynchronous transfers that keep their memory alive, and the pipelined
// (staged) path for large pageable transfers, verified element by element.
#include <openclaw/all.hpp>
#include <openclaw/detail/memory/staging.hpp>  // the staging tuning the tests change

#include <algorithm>
#include <numeric>
#include <vector>

#include "support/catch.hpp"
#include "support/fixture.hpp"

using openclaw_test::env;
using openclaw_test::has;
using openclaw_test::thrown;

namespace {

std::vector<cl_uint> pattern(std::size_t n, cl_uint seed) {
    std::vector<cl_uint> values(n);
    for (std::size_t i = 0; i < n; ++i) {
        values[i] = static_cast<cl_uint>(i * 2654435761u) ^ seed;
    }
    return values;
}

}  // namespace

TEST_CASE("pinned memory is host memory that transfers read and write directly") {
    openclaw::PinnedBuffer<cl_uint> pinned{env().queue, 1000};
    REQUIRE(pinned.size() == 1000);
    REQUIRE(pinned.data() != nullptr);
    const auto values = pattern(1000, 7);
    std::copy(values.begin(), values.end(), pinned.begin());
    const openclaw::ReadWriteBuffer<cl_uint> device{env().context, 1000};
    env().queue.write(device, pinned);
    openclaw::PinnedBuffer<cl_uint> back{env().queue, 1000};
    env().queue.read(device, back);
    CHECK(std::equal(back.begin(), back.end(), values.begin()));
    const std::span<const cl_uint> view = back;
    CHECK(view.size() == 1000);

    const auto error = thrown<openclaw::Error>([] {
        openclaw::PinnedBuffer<float> none{env().queue, 0};
    });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_BUFFER_SIZE);
}

TEST_CASE("asynchronous transfers return at once and keep their pinned memory alive") {
    const std::size_t n = std::size_t{1} << 20;
    const auto values = pattern(n, 11);
    openclaw::PinnedBuffer<cl_uint> source{env().queue, n};
    std::copy(values.begin(), values.end(), source.begin());
    const openclaw::ReadWriteBuffer<cl_uint> device{env().context, n};
    const openclaw::Event written = env().queue.write(device, source, openclaw::nonblocking);
    openclaw::Event read;
    {
        openclaw::PinnedBuffer<cl_uint> target{env().queue, n};
        read = env().queue.read(device, target, openclaw::nonblocking);
        // target is destroyed here, while the read may still be running: its destructor waits.
    }
    CHECK(read.is_complete());
    written.wait();
    openclaw::PinnedBuffer<cl_uint> check{env().queue, n};
    const openclaw::Event again =
        env().queue.read(device.slice(0, check.size()), check, openclaw::nonblocking);
    check.wait();
    CHECK(again.is_complete());
    CHECK(std::equal(check.begin(), check.end(), values.begin()));

    openclaw::PinnedBuffer<cl_uint> too_big{env().queue, n + 1};
    const auto error = thrown<openclaw::Error>(
        [&] { (void)env().queue.write(device, too_big, openclaw::nonblocking); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_VALUE);
    CHECK_THAT(error->what(),
               has("the source holds " + std::to_string(n + 1) + " elements, the region " +
                   std::to_string(n) + ": they must match"));
}

TEST_CASE("staged transfers move every element, at any size and offset") {
    const openclaw::Queue staged{
        env().context, env().device, {.staging = openclaw::Staging::always}};
    CHECK(staged.options().staging == openclaw::Staging::always);
    const std::size_t chunk = openclaw::detail::staging_tuning().slot_bytes / sizeof(cl_uint);
    // Below the threshold, one element, odd sizes across chunk edges, and several full rounds
    // of the staging slots.
    for (const std::size_t n :
         {std::size_t{0}, std::size_t{1}, chunk - 1, chunk + 3, 5 * chunk + 12345, 9 * chunk}) {
        INFO("elements: " << n);
        const std::size_t size = n + 100;
        const openclaw::ReadWriteBuffer<cl_uint> device{env().context, size};
        staged.fill(device, 0xDEADBEEFu);
        const auto values = pattern(n, static_cast<cl_uint>(n));
        staged.write(device.slice(100, values.size()), values);
        std::vector<cl_uint> back(n, 0);
        staged.read(device.slice(100, back.size()), back);
        CHECK(back == values);
        // The same data through an unstaged queue, and the elements before the offset intact.
        staged.finish();  // the fill (and any write) ran on the other queue
        std::vector<cl_uint> direct(size);
        const openclaw::Queue plain{
            env().context, env().device, {.staging = openclaw::Staging::never}};
        plain.read(device, direct);
        CHECK(std::vector<cl_uint>(direct.begin() + 100, direct.end()) == values);
        CHECK(direct[99] == 0xDEADBEEFu);
    }
}

TEST_CASE("staged transfers are exact under every staging tuning") {
    using openclaw::detail::StagingTuning;
    struct Restore {
        StagingTuning saved = openclaw::detail::staging_tuning();
        ~Restore() { openclaw::detail::staging_tuning() = saved; }
    } restore;
    const auto tuned = [](std::size_t slot_kib, std::size_t slots, std::size_t min_kib,
                          std::size_t chunks, unsigned threads, bool streaming, unsigned spin_us,
                          std::size_t mid_kib = 0) {
        // Streaming in one direction, polling the chunks' events, where the helpers spin.
        // Transfers up to mid_kib are mid-sized: about `chunks` chunks of pieces of the slots,
        // on `threads` threads.
        StagingTuning t;
        t.mid_limit = mid_kib << 10;
        t.mid_chunks = chunks;
        t.mid_threads = threads;
        t.mid_spin_us = spin_us;
        t.slot_bytes = slot_kib << 10;
        t.slots = slots;
        t.min_chunk = min_kib << 10;
        t.target_chunks = chunks;
        t.threads = threads;
        t.stream_reads = streaming;
        t.stream_writes = streaming != (spin_us != 0);
        t.spin_us = spin_us;
        t.poll_us = spin_us * 10;
        return t;
    };
    // One slot and one thread; adaptive chunks with streaming copies on helpers that stay
    // awake; chunks smaller than the helpers' minimum part; out-of-range settings clamped
    // (0 slots, 0 threads, 0-byte chunks, more slots than the pool has). Then mid-sized
    // transfers: several chunks to a slot, more chunks than the pieces hold (pieces reused),
    // more pieces than a transfer may have in flight, and mid-sized up to a limit inside the
    // sizes tried (both paths in one tuning).
    const StagingTuning tunings[] = {
        tuned(256, 1, 256, 1, 1, false, 0),
        tuned(1024, 4, 64, 8, 4, true, 200),
        tuned(512, 3, 128, 16, 16, true, 0),
        tuned(8192, 8, 1024, 8, 3, false, 50),
        tuned(0, 0, 0, 0, 0, true, 0),
        tuned(64, 99, 64, 1000, 2, true, 10),
        tuned(1024, 2, 64, 8, 4, false, 100, 8192),
        tuned(256, 2, 64, 64, 3, true, 0, 8192),
        tuned(8192, 16, 64, 200, 2, false, 20, 8192),
        tuned(1024, 3, 256, 4, 4, false, 50, 1024),
    };
    // Byte counts that are not multiples of 16, 64 or a chunk, at host addresses off by 1..15
    // bytes from any alignment, and at odd device offsets.
    const std::size_t total = (std::size_t{5} << 20) + 4096;
    const openclaw::ReadWriteBuffer<unsigned char> device{env().context, total};
    std::vector<unsigned char> source(total + 16);
    for (std::size_t i = 0; i < source.size(); ++i) {
        source[i] = static_cast<unsigned char>((i * 2654435761u) >> 13);
    }
    for (std::size_t t = 0; t < std::size(tunings); ++t) {
        openclaw::detail::staging_tuning() = tunings[t];
        openclaw::detail::staging_tuning().threshold = 0;  // stage every size
        const openclaw::Queue staged{
            env().context, env().device, {.staging = openclaw::Staging::always}};
        for (const std::size_t bytes :
             {std::size_t{1}, std::size_t{65535}, std::size_t{300001}, total - 7, total - 1}) {
            const std::size_t host_skew = (t + bytes) % 16;
            const std::size_t at = total - bytes;  // the last bytes of the buffer
            INFO("tuning " << t << ", " << bytes << " bytes at byte " << at << ", host skew "
                           << host_skew);
            staged.fill(device, static_cast<unsigned char>(0xA5));
            staged.write(device.slice(at, bytes),
                         std::span<const unsigned char>(source.data() + host_skew, bytes));
            std::vector<unsigned char> back(bytes + 32, 0x5A);
            staged.read(device.slice(at, bytes),
                        std::span<unsigned char>(back.data() + 16 - host_skew % 16, bytes));
            CHECK(std::equal(source.begin() + static_cast<std::ptrdiff_t>(host_skew),
                             source.begin() + static_cast<std::ptrdiff_t>(host_skew + bytes),
                             back.begin() + static_cast<std::ptrdiff_t>(16 - host_skew % 16)));
            // Nothing outside the region moved, on either side.
            CHECK(back[15 - host_skew % 16] == 0x5A);
            CHECK(back[16 - host_skew % 16 + bytes] == 0x5A);
            if (at > 0) {
                unsigned char before = 0;
                staged.read(device.slice(at - 1, 1), std::span<unsigned char>(&before, 1));
                CHECK(before == 0xA5);
            }
        }
    }
}

TEST_CASE("automatic staging is for discrete devices only") {
    const bool discrete = (env().device.is_gpu() || env().device.is_accelerator()) &&
                          !env().device.info<0x1035 /* CL_DEVICE_HOST_UNIFIED_MEMORY */>();
    CHECK(openclaw::detail::QueueAccess::state(env().queue)->stage_pageable == discrete);
    const openclaw::Queue never{env().context, env().device, {.staging = openclaw::Staging::never}};
    CHECK_FALSE(openclaw::detail::QueueAccess::state(never)->stage_pageable);
}

TEST_CASE("automatic staging takes the driver's own path while staging measures slower") {
    // The choice alone, fed with rates: a host whose copy threads are held off their cores
    // makes staging slower than the driver (measured on a lent H200 guest: 0.27x at 4 MiB).
    openclaw::detail::PathChooser paths;
    const std::size_t size = std::size_t{16} << 20;
    const double staged_slow = 0.004;   // 16 MiB in 4 ms: 4.2 GB/s
    const double direct = 0.0016;       // 10.5 GB/s
    const double staged_fast = 0.0004;  // 42 GB/s
    CHECK(paths.stage(true, size));     // staged first
    paths.record(true, size, staged_slow, true);
    CHECK_FALSE(paths.stage(true, size));  // then the driver's path once, to compare
    paths.record(true, size, direct, false);
    // `count` transfers, staged ones taking `staged_time`; how many were staged.
    const auto run = [&](int count, double staged_time) {
        int staged = 0;
        for (int i = 0; i < count; ++i) {
            const bool s = paths.stage(true, size);
            staged += s ? 1 : 0;
            paths.record(true, size, s ? staged_time : direct, s);
        }
        return staged;
    };
    CHECK(run(64, staged_slow) == 2);  // staging tried again after 16 transfers, then after 32
    // The host recovers: the next try of staging (after 64) wins, and from then on the driver's
    // path is taken once every 256 transfers.
    int waited = 0;
    while (!paths.stage(true, size) && waited < 100) {
        paths.record(true, size, direct, false);
        ++waited;
    }
    CHECK(waited <= 64);
    paths.record(true, size, staged_fast, true);
    CHECK(run(512, staged_fast) == 512 - 2);
    // A run of slow staged transfers shows within a few: the best rate decays by 1/8 a sample.
    int slow_staged = 0;
    while (paths.stage(true, size) && slow_staged < 100) {
        paths.record(true, size, staged_slow, true);
        ++slow_staged;
    }
    CHECK(slow_staged <= 12);
    // Each direction and power-of-two size keeps its own: they start with staging.
    CHECK(paths.stage(false, size));
    CHECK(paths.stage(true, 4 * size));
    paths.record(true, 4 * size, 0.0, true);  // a zero time is not a rate: ignored
    CHECK(paths.stage(true, 4 * size));
}
