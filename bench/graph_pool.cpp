// bench/graph_pool: repeated work that openclaw records or recycles, against the raw C API.
// 1. A chain of 16 tiny kernels replayed many times: host time per kernel (enqueue to finish) for
//    raw clEnqueueNDRangeKernel (16 kernels, arguments set once), openclaw's queue.enqueue, a
//    CommandGraph on the portable path, and one on the command-buffer path where the device has
//    it. Results verified (each kernel adds 1: every element ends at 16 x replays).
// 2. Many allocate + use + release cycles of small buffers (4 KiB to 1 MiB in turn, each used by
//    a kernel): raw clCreateBuffer/clReleaseMemObject, openclaw Buffers made afresh, and a
//    MemoryPool (unbounded, with max_bytes, and reusing in queue order); results verified every
//    64 cycles, the pools' peaks reported, each cycle also as a speed-up over fresh Buffers. A
//    floor peer runs the same kernels on four buffers made once: what a cycle costs without any
//    allocation. Each peer's allocation cost is its cycle less the floor, so the second table
//    compares what allocating costs, apart from the kernel every cycle runs. Rounds alternate the
//    peers; medians of the rounds.
// Usage: bench_graph_pool [--smoke] [--replays N] [--cycles N] [--rounds N]
#include <openclaw/graph.hpp>
#include <openclaw/pool.hpp>

#include <functional>
#include <string>
#include <vector>

#include "common.hpp"

namespace {

constexpr const char* source = R"CLC(
__kernel void bump(__global int* data) { data[get_global_id(0)] += 1; }
__kernel void stamp(__global int* data, const int value) { data[get_global_id(0)] = value; }
)CLC";

constexpr std::size_t chain = 16;
constexpr std::size_t items = 256;

void check(bool ok, const char* what) {
    if (!ok) {
        throw std::runtime_error(what);
    }
}

}  // namespace

int main(int argc, char** argv) try {
    const bool smoke = bench::has_flag(argc, argv, "--smoke");
    const std::size_t replays = bench::option(argc, argv, "--replays", smoke ? 50 : 10000);
    const std::size_t cycles = bench::option(argc, argv, "--cycles", smoke ? 128 : 10000);
    const std::size_t rounds = bench::option(argc, argv, "--rounds", smoke ? 1 : 5);
    const openclaw::Device device = bench::pick_device();
    bench::print_device(device);
    const openclaw::Context context{device};
    const openclaw::Queue queue{context, device};
    const auto program = openclaw::Program::build(context, source);

    // ---- 1. a chain of 16 tiny kernels, replayed --------------------------------------------
    const openclaw::ReadWriteBuffer<cl_int> data{context, items};
    std::vector<openclaw::Kernel<openclaw::InOut<cl_int>>> kernels;
    std::vector<cl_kernel> raw_kernels;
    for (std::size_t k = 0; k < chain; ++k) {
        kernels.push_back(program.kernel<openclaw::InOut<cl_int>>("bump"));
        kernels.back().set_args(data);
        cl_int code = CL_SUCCESS;
        raw_kernels.push_back(clCreateKernel(program.get(), "bump", &code));
        const cl_mem mem = data.get();
        check(code == CL_SUCCESS &&
                  clSetKernelArg(raw_kernels.back(), 0, sizeof(mem), &mem) == CL_SUCCESS,
              "raw kernel");
    }
    openclaw::CommandGraph portable{queue, openclaw::GraphOptions{.command_buffer = false}};
    openclaw::CommandGraph native{queue};
    for (const auto& kernel : kernels) {
        (void)portable.enqueue(kernel, openclaw::NDRange{items});
        (void)native.enqueue(kernel, openclaw::NDRange{items});
    }
    native.finalize();
    const bool has_native = native.path() == openclaw::GraphPath::command_buffer;
    struct Peer {
        std::string name;
        std::function<void()> once;  // one replay of the chain
    };
    std::vector<Peer> peers = {
        {"raw C",
         [&] {
             const std::size_t global = items;
             for (cl_kernel kernel : raw_kernels) {
                 check(clEnqueueNDRangeKernel(queue.get(), kernel, 1, nullptr, &global, nullptr, 0,
                                              nullptr, nullptr) == CL_SUCCESS,
                       "raw launch");
             }
         }},
        {"openclaw enqueue",
         [&] {
             for (const auto& kernel : kernels) {
                 queue.enqueue(kernel, openclaw::NDRange{items});
             }
         }},
        {"graph (portable replay)", [&] { portable.replay(); }},
    };
    if (has_native) {
        peers.push_back({"graph (command buffer)", [&] { native.replay(); }});
    }
    std::printf("# command graph: %zu kernels of %zu work-items, %zu replays, %zu rounds%s%s\n",
                chain, items, replays, rounds, has_native ? "" : "; command buffer: ",
                has_native ? "" : native.portable_reason().c_str());
    std::vector<std::vector<double>> per_kernel(peers.size());
    std::vector<std::vector<double>> ratios(peers.size());
    for (std::size_t round = 0; round <= rounds; ++round) {  // round 0 warms up
        std::vector<double> times(peers.size());
        for (const std::size_t p : bench::round_order(peers.size(), round)) {
            queue.fill(data, 0);
            queue.finish();
            const std::size_t count = round == 0 ? 2 : replays;
            const double start = bench::now();
            for (std::size_t r = 0; r < count; ++r) {
                peers[p].once();
            }
            queue.finish();
            times[p] = (bench::now() - start) / static_cast<double>(count * chain) * 1e6;
            std::vector<cl_int> back(items);
            queue.read(data, back);
            check(back == std::vector<cl_int>(items, static_cast<cl_int>(count * chain)),
                  "command graph: wrong result");
        }
        if (round > 0) {
            for (std::size_t p = 0; p < peers.size(); ++p) {
                per_kernel[p].push_back(times[p]);
                ratios[p].push_back(times[p] / times[0]);
            }
        }
    }
    std::printf("\n| peer | us per kernel (median) | ratio to raw C (median of rounds) |\n");
    std::printf("|---|---|---|\n");
    for (std::size_t p = 0; p < peers.size(); ++p) {
        const double us = bench::median(per_kernel[p]);
        const double ratio = bench::median(ratios[p]);
        std::printf("| %s | %.3f | %.3fx |\n", peers[p].name.c_str(), us, ratio);
        bench::csv("graph", "16 tiny kernels", peers[p].name, items * sizeof(cl_int), us,
                   "us/kernel");
        bench::csv("graph", "16 tiny kernels ratio to raw C", peers[p].name, items * sizeof(cl_int),
                   ratio, "x");
    }
    for (cl_kernel kernel : raw_kernels) {
        clReleaseKernel(kernel);
    }

    // ---- 2. short-lived buffers ------------------------------------------------------------
    const std::size_t sizes[] = {1024, 16384, 65536, 262144};  // cl_int: 4 KiB to 1 MiB
    auto stamp = program.kernel<openclaw::Out<cl_int>, cl_int>("stamp");
    cl_int code = CL_SUCCESS;
    const cl_kernel raw_stamp = clCreateKernel(program.get(), "stamp", &code);
    check(code == CL_SUCCESS, "raw stamp kernel");
    openclaw::MemoryPool pool{queue};
    openclaw::MemoryPool bounded{queue, openclaw::PoolOptions{.max_bytes = std::size_t{16} << 20}};
    openclaw::MemoryPool ordered{queue,
                                 openclaw::PoolOptions{.reuse = openclaw::PoolReuse::queue_order}};
    std::vector<cl_int> first(1);
    // Every 64th cycle reads the first element back: the kernel's value must be there.
    const auto verify = [&](auto& buffer, std::size_t cycle) {
        if (cycle % 64 == 0) {
            queue.read(buffer.slice(0, 1), first);
            check(first[0] == static_cast<cl_int>(cycle), "pool: wrong value");
        }
    };
    std::vector<cl_mem> kept;  // the floor's buffers, one per size, made once
    for (const std::size_t n : sizes) {
        kept.push_back(
            clCreateBuffer(context.get(), CL_MEM_READ_WRITE, n * sizeof(cl_int), nullptr, &code));
        check(code == CL_SUCCESS, "floor buffer");
    }
    // The raw C cycle on `mem`: the kernel stamps cycle `c` into it (read back every 64th).
    const auto raw_cycle = [&](cl_mem mem, std::size_t c, const char* what) {
        const std::size_t n = sizes[c % 4];
        const cl_int value = static_cast<cl_int>(c);
        check(clSetKernelArg(raw_stamp, 0, sizeof(mem), &mem) == 0 &&
                  clSetKernelArg(raw_stamp, 1, sizeof(value), &value) == 0 &&
                  clEnqueueNDRangeKernel(queue.get(), raw_stamp, 1, nullptr, &n, nullptr, 0,
                                         nullptr, nullptr) == CL_SUCCESS,
              what);
        if (c % 64 == 0) {
            check(clEnqueueReadBuffer(queue.get(), mem, CL_TRUE, 0, sizeof(cl_int), first.data(), 0,
                                      nullptr, nullptr) == CL_SUCCESS &&
                      first[0] == value,
                  what);
        }
    };
    // The cycles of a pool's peer: allocate, stamp, read back every 64th, release.
    const auto pooled_cycles = [&](openclaw::MemoryPool& from) {
        return [&, pool = &from] {
            for (std::size_t c = 0; c < cycles; ++c) {
                const std::size_t n = sizes[c % 4];
                const auto buffer = pool->allocate<cl_int>(n);
                queue.enqueue(stamp.set_args(buffer, static_cast<cl_int>(c)), openclaw::NDRange{n});
                verify(buffer, c);
            }
        };
    };
    std::vector<Peer> alloc_peers = {
        {"raw clCreateBuffer",
         [&] {
             for (std::size_t c = 0; c < cycles; ++c) {
                 cl_int err = CL_SUCCESS;
                 cl_mem mem = clCreateBuffer(context.get(), CL_MEM_READ_WRITE,
                                             sizes[c % 4] * sizeof(cl_int), nullptr, &err);
                 check(err == CL_SUCCESS, "raw clCreateBuffer");
                 raw_cycle(mem, c, "raw cycle: a failed call or a wrong value");
                 clReleaseMemObject(mem);
             }
         }},
        {"floor: raw, no allocation",
         [&] {
             for (std::size_t c = 0; c < cycles; ++c) {
                 raw_cycle(kept[c % 4], c, "floor cycle: a failed call or a wrong value");
             }
         }},
        {"openclaw Buffer",
         [&] {
             for (std::size_t c = 0; c < cycles; ++c) {
                 const std::size_t n = sizes[c % 4];
                 const openclaw::ReadWriteBuffer<cl_int> buffer{context, n};
                 queue.enqueue(stamp.set_args(buffer, static_cast<cl_int>(c)),
                               openclaw::NDRange{n});
                 verify(buffer, c);
             }
         }},
        {"MemoryPool", pooled_cycles(pool)},
        {"MemoryPool (max 16 MiB)", pooled_cycles(bounded)},
        {"MemoryPool (queue order)", pooled_cycles(ordered)},
    };
    std::printf(
        "\n# memory pool: %zu cycles of allocate, one kernel, release (4 KiB to 1 MiB), %zu "
        "rounds\n",
        cycles, rounds);
    constexpr std::size_t floor_peer = 1;
    std::vector<std::vector<double>> per_cycle(alloc_peers.size());
    std::vector<std::vector<double>> speedups(alloc_peers.size());
    std::vector<std::vector<double>> allocation(alloc_peers.size());  // cycle less the floor
    for (std::size_t round = 0; round <= rounds; ++round) {
        std::vector<double> times(alloc_peers.size());
        for (const std::size_t p : bench::round_order(alloc_peers.size(), round)) {
            queue.finish();
            const double start = bench::now();
            alloc_peers[p].once();
            queue.finish();
            times[p] = (bench::now() - start) / static_cast<double>(cycles) * 1e6;
        }
        if (round > 0) {
            for (std::size_t p = 0; p < alloc_peers.size(); ++p) {
                per_cycle[p].push_back(times[p]);
                speedups[p].push_back(times[0] / times[p]);
                allocation[p].push_back(times[p] - times[floor_peer]);
            }
        }
    }
    std::printf(
        "\n| peer | us per cycle (median) | speed-up over raw C (median of rounds) | over "
        "openclaw Buffers made afresh |\n");
    std::printf("|---|---|---|---|\n");
    constexpr std::size_t fresh_peer = 2;
    for (std::size_t p = 0; p < alloc_peers.size(); ++p) {
        const double us = bench::median(per_cycle[p]);
        const double speedup = bench::median(speedups[p]);
        std::vector<double> over_fresh;
        for (std::size_t r = 0; r < per_cycle[p].size(); ++r) {
            over_fresh.push_back(per_cycle[fresh_peer][r] / per_cycle[p][r]);
        }
        std::printf("| %s | %.3f | %.2fx | %.2fx |\n", alloc_peers[p].name.c_str(), us, speedup,
                    bench::median(over_fresh));
        bench::csv("pool", "allocate+kernel+release speed-up over openclaw Buffers made afresh",
                   alloc_peers[p].name, 0, bench::median(over_fresh), "x");
        bench::csv("pool", "allocate+kernel+release", alloc_peers[p].name, 0, us, "us/cycle");
        bench::csv("pool", "allocate+kernel+release speed-up over raw C", alloc_peers[p].name, 0,
                   speedup, "x");
    }
    // What allocating costs a cycle, apart from the kernel: the cycle less the floor's. A cost
    // within 2% of the floor's cycle is below what the rounds can resolve.
    const double floor_us = bench::median(per_cycle[floor_peer]);
    const double raw_cost = bench::median(allocation[0]);
    std::printf(
        "\n| peer | allocation cost, us per cycle (cycle less the floor's %.3f) | "
        "speed-up of the allocation cost over raw C |\n",
        floor_us);
    std::printf("|---|---|---|\n");
    for (std::size_t p = 0; p < alloc_peers.size(); ++p) {
        if (p == floor_peer) {
            continue;
        }
        const double cost = bench::median(allocation[p]);
        if (cost <= 0.02 * floor_us) {
            std::printf("| %s | %.3f | more than %.0fx (below the rounds' resolution) |\n",
                        alloc_peers[p].name.c_str(), cost, raw_cost / (0.02 * floor_us));
            bench::csv("pool", "allocation cost speed-up over raw C (lower bound)",
                       alloc_peers[p].name, 0, raw_cost / (0.02 * floor_us), "x");
        } else {
            std::printf("| %s | %.3f | %.2fx |\n", alloc_peers[p].name.c_str(), cost,
                        raw_cost / cost);
            bench::csv("pool", "allocation cost speed-up over raw C", alloc_peers[p].name, 0,
                       raw_cost / cost, "x");
        }
        bench::csv("pool", "allocation cost", alloc_peers[p].name, 0, cost, "us/cycle");
    }
    for (cl_mem mem : kept) {
        clReleaseMemObject(mem);
    }
    for (const auto* which : {&pool, &bounded, &ordered}) {
        const openclaw::PoolStats stats = which->stats();
        const char* name = which == &pool      ? "pool"
                           : which == &bounded ? "pool (max 16 MiB)"
                                               : "pool (queue order)";
        std::printf("%s: %llu allocations, %llu memory objects created, peak %s held\n", name,
                    static_cast<unsigned long long>(stats.allocations),
                    static_cast<unsigned long long>(stats.created),
                    bench::human_bytes(stats.peak_bytes_held).c_str());
        bench::csv("pool", std::string("peak held, ") + name, "MemoryPool", 0,
                   static_cast<double>(stats.peak_bytes_held), "bytes");
    }
    clReleaseKernel(raw_stamp);
    std::printf("graph_pool: results verified\n");
    return 0;
} catch (const std::exception& error) {
    std::fprintf(stderr, "bench_graph_pool: %s\n", error.what());
    return 1;
}
