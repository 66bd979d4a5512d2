// memory_pool: a loop that needs scratch buffers of a few sizes every iteration (a blur of a row
// block through a temporary, then its sum, both kernels of a few microseconds on a GPU), once with
// a new buffer per use (clCreateBuffer and clReleaseMemObject each time), then from a MemoryPool
// that reuses memory once its commands have completed, then from one that reuses it in the
// queue's order; every result is checked against the host, and the pools' statistics show that
// they stopped growing after the first iterations.
// Usage: memory_pool [iterations]  (default 2000)
#include <openclaw/openclaw.hpp>
#include <openclaw/pool.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr const char* source = R"CLC(
__kernel void blur(__global const int* in, __global int* out, const uint n) {
    const uint i = get_global_id(0);
    const int left = in[i == 0 ? 0 : i - 1];
    const int right = in[i + 1 == n ? i : i + 1];
    out[i] = left + in[i] + right;
}
// Each work-group of 256 adds its part in local memory, then into the slot (zeroed before).
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void total(__global const int* in, __global int* sums, const uint slot) {
    __local int part[256];
    const uint l = get_local_id(0);
    part[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = 128; s > 0; s >>= 1) {
        if (l < s) part[l] += part[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) atomic_add(&sums[slot], part[0]);
}
)CLC";

}  // namespace

int main(int argc, char** argv) try {
    using openclaw::In;
    using openclaw::NDRange;
    using openclaw::Out;
    const int iterations = argc > 1 ? std::stoi(argv[1]) : 2000;
    if (iterations <= 0) {
        std::fprintf(stderr, "memory_pool: iterations must be positive\n");
        return EXIT_FAILURE;
    }
    const openclaw::Device device = openclaw::select_device();
    std::printf("device: %s (%s)\n", device.name().c_str(), device.platform().name().c_str());
    openclaw::Context context{device};
    openclaw::Queue queue{context, device};
    auto program = openclaw::Program::build(context, source);
    auto blur = program.kernel<In<cl_int>, Out<cl_int>, cl_uint>("blur");
    auto total = program.kernel<In<cl_int>, openclaw::InOut<cl_int>, cl_uint>("total");

    // 4 KiB to 1 MiB of ints, each a whole number of the sum's work-groups of 256.
    const std::size_t sizes[] = {1024, 4096, 65536, 262144};
    std::vector<cl_int> host(262144);
    for (std::size_t i = 0; i < host.size(); ++i) {
        host[i] = static_cast<cl_int>(i % 7);
    }
    const openclaw::ReadOnlyBuffer<cl_int> input{queue, host};
    const openclaw::ReadWriteBuffer<cl_int> sums{context, static_cast<std::size_t>(iterations)};
    // The host's sum of the blurred first n elements, for each of the sizes.
    cl_int sums_of[4] = {};
    for (std::size_t k = 0; k < 4; ++k) {
        const std::size_t n = sizes[k];
        long long s = 0;
        for (std::size_t i = 0; i < n; ++i) {
            s += host[i == 0 ? 0 : i - 1] + host[i] + host[i + 1 == n ? i : i + 1];
        }
        sums_of[k] = static_cast<cl_int>(s);
    }
    const auto expected = [&](int it) { return sums_of[static_cast<std::size_t>(it) % 4]; };

    // Each iteration: a scratch buffer for the blur, its sum written into slot `it` of `sums`.
    const auto run = [&](auto&& scratch_of, int rounds) {
        queue.fill(sums, 0);
        queue.finish();
        const auto start = std::chrono::steady_clock::now();
        for (int it = 0; it < rounds; ++it) {
            const std::size_t n = sizes[static_cast<std::size_t>(it) % 4];
            const auto scratch = scratch_of(n);
            queue.enqueue(blur.set_args(input, scratch, static_cast<cl_uint>(n)), NDRange{n});
            queue.enqueue(total.set_args(scratch, sums, static_cast<cl_uint>(it)), NDRange{n},
                          NDRange{256});
        }
        queue.finish();
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count();
    };
    const auto verify = [&](const char* what) {
        std::vector<cl_int> back(static_cast<std::size_t>(iterations));
        queue.read(sums, back);
        for (int it = 0; it < iterations; ++it) {
            if (back[static_cast<std::size_t>(it)] != expected(it)) {
                std::fprintf(stderr, "memory_pool: %s: iteration %d: sum %d, expected %d\n", what,
                             it, back[static_cast<std::size_t>(it)], expected(it));
                return false;
            }
        }
        return true;
    };

    (void)run(
        [&](std::size_t n) {
            return openclaw::ReadWriteBuffer<cl_int>{context, n};
        },
        iterations < 4 ? iterations : 4);  // compiles the kernels (PoCL: at the first launch)
    const double fresh_ms = run(
        [&](std::size_t n) {
            return openclaw::ReadWriteBuffer<cl_int>{context, n};
        },
        iterations);
    if (!verify("new buffers")) {
        return EXIT_FAILURE;
    }
    // Reused once the commands before a return have completed; the limit bounds what the host,
    // running ahead of the device, holds in flight.
    openclaw::MemoryPool pool{queue, openclaw::PoolOptions{.max_bytes = std::size_t{16} << 20}};
    const double pooled_ms =
        run([&](std::size_t n) { return pool.allocate<cl_int>(n); }, iterations);
    if (!verify("pooled buffers")) {
        return EXIT_FAILURE;
    }
    // Reused at once by the queue's later commands: every scratch buffer is used on this
    // in-order queue only, so its order keeps each lease's kernels after the previous lease's.
    // (Drivers that count a queued command's reference to a buffer, as PoCL does, hold it back
    // until the command has run; the limit then bounds what is in flight.)
    openclaw::MemoryPool ordered{queue,
                                 openclaw::PoolOptions{.max_bytes = std::size_t{16} << 20,
                                                       .reuse = openclaw::PoolReuse::queue_order}};
    const double ordered_ms =
        run([&](std::size_t n) { return ordered.allocate<cl_int>(n); }, iterations);
    if (!verify("pooled buffers, queue order")) {
        return EXIT_FAILURE;
    }
    std::printf(
        "%d iterations: new buffers %.2f ms, pooled %.2f ms (%.2fx), pooled in queue order %.2f "
        "ms (%.2fx)\n",
        iterations, fresh_ms, pooled_ms, fresh_ms / pooled_ms, ordered_ms, fresh_ms / ordered_ms);
    for (const auto* which : {&pool, &ordered}) {
        const openclaw::PoolStats stats = which->stats();
        std::printf(
            "%s: %llu allocations, %llu memory objects created, %zu bytes held (peak %zu)\n",
            which == &pool ? "pool" : "pool in queue order",
            static_cast<unsigned long long>(stats.allocations),
            static_cast<unsigned long long>(stats.created), stats.bytes_held,
            stats.peak_bytes_held);
    }
    pool.trim();
    std::printf(
        "memory_pool: %d iterations, every sum verified; after trim the pool holds %zu "
        "bytes\n",
        iterations, pool.stats().bytes_held);
    return EXIT_SUCCESS;
} catch (const std::exception& error) {
    std::fprintf(stderr, "memory_pool: %s\n", error.what());
    return EXIT_FAILURE;
}
