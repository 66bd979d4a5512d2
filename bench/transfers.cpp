// bench/transfers: host<->device transfer rates, 4 KiB to 1 GiB, from pageable and pinned host
// memory, through the raw C API, OpenCL-CLHPP, Boost.Compute and openclaw in one run (peers
// alternate within each size, after a warm-up transfer each). CLHPP and Boost.Compute have no
// pinned-memory type of their own, so the pinned columns compare openclaw with the raw C way.
// Then non-blocking reads into ordinary memory (512 MiB on a GPU): the raw C API into a vector it
// keeps, openclaw into a vector moved in and handed back, and openclaw into a vector it makes,
// with the C++ allocations each openclaw read makes (counted by this program's operator new).
// Usage: bench_transfers [--smoke] [--max-mib N] (the largest transfer, non-blocking reads
// included; default: 1024 on a GPU, 256 on other devices)
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common.hpp"
#include "peers.hpp"

namespace bench {
/// C++ allocations so far (allocation_count.cpp replaces this program's operator new).
std::size_t allocations() noexcept;
}  // namespace bench

namespace {

struct Peer {
    std::string name;
    std::function<void()> run;  // one transfer of the whole size
};

using bench::check;

/// Pinned memory the raw C way: an ALLOC_HOST_PTR buffer, mapped.
struct RawPinned {
    RawPinned(cl_context context, cl_command_queue queue, std::size_t bytes) : queue(queue) {
        cl_int code = CL_SUCCESS;
        mem = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, nullptr,
                             &code);
        check(code, "clCreateBuffer");
        host = clEnqueueMapBuffer(queue, mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0,
                                  nullptr, nullptr, &code);
        check(code, "clEnqueueMapBuffer");
    }
    RawPinned(const RawPinned&) = delete;
    RawPinned& operator=(const RawPinned&) = delete;
    ~RawPinned() {
        clEnqueueUnmapMemObject(queue, mem, host, 0, nullptr, nullptr);
        clFinish(queue);
        clReleaseMemObject(mem);
    }
    cl_command_queue queue;
    cl_mem mem = nullptr;
    void* host = nullptr;
};

void fill_pattern(std::byte* p, std::size_t bytes, unsigned seed) {
    for (std::size_t i = 0; i < bytes; ++i) {
        p[i] = static_cast<std::byte>((i * 131 + seed) & 0xFF);
    }
}

}  // namespace

int main(int argc, char** argv) try {
    const bool smoke = bench::has_flag(argc, argv, "--smoke");

    const openclaw::Device device = bench::pick_device();
    if (!device) {
        std::fprintf(stderr, "no OpenCL device\n");
        return 1;
    }
    // Up to 1 GiB on a GPU; 256 MiB elsewhere (a CPU device's "transfers" are host memcpys).
    const std::size_t max_bytes = bench::option(argc, argv, "--max-mib",
                                                smoke             ? 16
                                                : device.is_gpu() ? 1024
                                                                  : 256)
                                  << 20;
    bench::print_device(device);
    bench::apply_staging_env();
    std::printf("# transfers up to %s%s\n", bench::human_bytes(max_bytes).c_str(),
                bench::has_boost_compute ? "" : " (Boost.Compute not built: headers not found)");
    const openclaw::Context context{device};
    const openclaw::Queue queue{context, device};
    const cl_command_queue raw_queue = queue.get();
    const cl::CommandQueue clhpp_queue(raw_queue, true);
#if OPENCLAW_BENCH_BOOST_COMPUTE
    boost::compute::command_queue boost_queue(raw_queue, true);
#endif

    std::vector<std::size_t> sizes = {
        std::size_t{4} << 10,  std::size_t{64} << 10, std::size_t{1} << 20,   std::size_t{4} << 20,
        std::size_t{16} << 20, std::size_t{64} << 20, std::size_t{256} << 20, std::size_t{1} << 30};
    std::erase_if(sizes, [&](std::size_t s) { return s > max_bytes; });
    const int samples = smoke ? 1 : 7;

    std::printf(
        "\n| size | direction | raw pageable GB/s | CLHPP pageable GB/s |%s openclaw "
        "pageable GB/s | openclaw / raw (pageable) | raw pinned GB/s | openclaw pinned "
        "GB/s | openclaw / raw (pinned) |\n|---|---|---|---|%s---|---|---|---|---|\n",
        bench::has_boost_compute ? " Boost.Compute pageable GB/s |" : "",
        bench::has_boost_compute ? "---|" : "");
    for (const std::size_t bytes : sizes) {
        const std::size_t iterations =
            smoke ? 1 : std::clamp<std::size_t>((std::size_t{512} << 20) / bytes, 2, 2000);
        cl_int code = CL_SUCCESS;
        const cl_mem raw_buffer =
            clCreateBuffer(context.get(), CL_MEM_READ_WRITE, bytes, nullptr, &code);
        check(code, "clCreateBuffer");
        const auto buffer = openclaw::ReadWriteBuffer<std::byte>::adopt(raw_buffer);
        const cl::Buffer clhpp_buffer(raw_buffer, true);
#if OPENCLAW_BENCH_BOOST_COMPUTE
        const boost::compute::buffer boost_buffer(raw_buffer, true);
#endif
        std::vector<std::byte> pageable(bytes);
        fill_pattern(pageable.data(), bytes, 1);
        std::vector<std::byte> pageable_back(bytes);
        RawPinned raw_pinned(context.get(), raw_queue, bytes);
        std::memcpy(raw_pinned.host, pageable.data(), bytes);
        openclaw::PinnedBuffer<std::byte> pinned{queue, bytes};
        std::memcpy(pinned.data(), pageable.data(), bytes);

        for (const bool write : {true, false}) {
            std::vector<Peer> peers;
            if (write) {
                peers = {
                    {"raw pageable",
                     [&] {
                         check(clEnqueueWriteBuffer(raw_queue, raw_buffer, CL_TRUE, 0, bytes,
                                                    pageable.data(), 0, nullptr, nullptr),
                               "clEnqueueWriteBuffer");
                     }},
                    {"CLHPP pageable",
                     [&] {
                         check(clhpp_queue.enqueueWriteBuffer(clhpp_buffer, CL_TRUE, 0, bytes,
                                                              pageable.data()),
                               "enqueueWriteBuffer");
                     }},
#if OPENCLAW_BENCH_BOOST_COMPUTE
                    {"Boost.Compute pageable",
                     [&] {
                         boost_queue.enqueue_write_buffer(boost_buffer, 0, bytes, pageable.data());
                     }},
#endif
                    {"openclaw pageable", [&] { queue.write(buffer, pageable); }},
                    {"raw pinned",
                     [&] {
                         check(clEnqueueWriteBuffer(raw_queue, raw_buffer, CL_TRUE, 0, bytes,
                                                    raw_pinned.host, 0, nullptr, nullptr),
                               "clEnqueueWriteBuffer");
                     }},
                    {"openclaw pinned", [&] { queue.write(buffer, pinned); }},
                };
            } else {
                peers = {
                    {"raw pageable",
                     [&] {
                         check(clEnqueueReadBuffer(raw_queue, raw_buffer, CL_TRUE, 0, bytes,
                                                   pageable_back.data(), 0, nullptr, nullptr),
                               "clEnqueueReadBuffer");
                     }},
                    {"CLHPP pageable",
                     [&] {
                         check(clhpp_queue.enqueueReadBuffer(clhpp_buffer, CL_TRUE, 0, bytes,
                                                             pageable_back.data()),
                               "enqueueReadBuffer");
                     }},
#if OPENCLAW_BENCH_BOOST_COMPUTE
                    {"Boost.Compute pageable",
                     [&] {
                         boost_queue.enqueue_read_buffer(boost_buffer, 0, bytes,
                                                         pageable_back.data());
                     }},
#endif
                    {"openclaw pageable", [&] { queue.read(buffer, pageable_back); }},
                    {"raw pinned",
                     [&] {
                         check(clEnqueueReadBuffer(raw_queue, raw_buffer, CL_TRUE, 0, bytes,
                                                   raw_pinned.host, 0, nullptr, nullptr),
                               "clEnqueueReadBuffer");
                     }},
                    {"openclaw pinned", [&] { queue.read(buffer, pinned); }},
                };
            }
            // Verify each peer once: a write must land on the device, a read in host memory.
            for (Peer& peer : peers) {
                if (write) {
                    queue.fill(buffer, std::byte{0});
                    peer.run();
                    std::vector<std::byte> check_back(bytes);
                    queue.read(buffer, check_back);
                    if (std::memcmp(check_back.data(), pageable.data(), bytes) != 0) {
                        std::fprintf(stderr, "%s write of %zu bytes is wrong\n", peer.name.c_str(),
                                     bytes);
                        return 1;
                    }
                } else {
                    queue.write(buffer, pageable);
                    std::memset(pageable_back.data(), 0, bytes);
                    std::memset(raw_pinned.host, 0, bytes);
                    std::memset(pinned.data(), 0, bytes);
                    peer.run();
                    const void* got = peer.name == "raw pinned"        ? raw_pinned.host
                                      : peer.name == "openclaw pinned" ? pinned.data()
                                                                       : pageable_back.data();
                    if (std::memcmp(got, pageable.data(), bytes) != 0) {
                        std::fprintf(stderr, "%s read of %zu bytes is wrong\n", peer.name.c_str(),
                                     bytes);
                        return 1;
                    }
                }
            }
            std::map<std::string, std::vector<double>> rates;
            for (int s = 0; s < samples; ++s) {
                for (Peer& peer : peers) {
                    peer.run();  // warm
                    const double start = bench::now();
                    for (std::size_t i = 0; i < iterations; ++i) {
                        peer.run();
                    }
                    const double seconds = bench::now() - start;
                    rates[peer.name].push_back(static_cast<double>(bytes * iterations) / seconds /
                                               1e9);
                }
            }
            std::map<std::string, double> gbs;
            for (const auto& [name, values] : rates) {
                gbs[name] = bench::median(values);
                bench::csv("transfers", write ? "write" : "read", name, bytes, gbs[name], "GB/s");
            }
            std::printf("| %s | %s | %.2f | %.2f |", bench::human_bytes(bytes).c_str(),
                        write ? "write" : "read", gbs["raw pageable"], gbs["CLHPP pageable"]);
            if (bench::has_boost_compute) {
                std::printf(" %.2f |", gbs["Boost.Compute pageable"]);
            }
            std::printf(" %.2f | %.2fx | %.2f | %.2f | %.2fx |\n", gbs["openclaw pageable"],
                        gbs["openclaw pageable"] / gbs["raw pageable"], gbs["raw pinned"],
                        gbs["openclaw pinned"], gbs["openclaw pinned"] / gbs["raw pinned"]);
            std::fflush(stdout);
        }
    }

    // Non-blocking reads into ordinary (pageable) memory: the command returns at once, the
    // caller waits later. The raw C way reads into memory the caller keeps; openclaw takes that
    // memory by move and hands it back (queue.read(region, std::move(v), nonblocking)), or makes a
    // vector of its own (queue.read(region, nonblocking)).
    const std::size_t async_bytes = std::min(max_bytes, smoke             ? std::size_t{4} << 20
                                                        : device.is_gpu() ? std::size_t{512} << 20
                                                                          : std::size_t{64} << 20);
    {
        const auto buffer = openclaw::ReadWriteBuffer<std::byte>{context, async_bytes};
        std::vector<std::byte> source(async_bytes);
        fill_pattern(source.data(), async_bytes, 3);
        queue.write(buffer, source);
        std::vector<std::byte> raw_memory(async_bytes);
        std::vector<std::byte> moved_memory(async_bytes);
        std::vector<std::byte> made;
        std::size_t moved_allocations = 0;
        std::size_t made_allocations = 0;
        std::vector<Peer> peers = {
            {"raw",
             [&] {
                 cl_event done = nullptr;
                 check(clEnqueueReadBuffer(raw_queue, buffer.get(), CL_FALSE, 0, async_bytes,
                                           raw_memory.data(), 0, nullptr, &done),
                       "clEnqueueReadBuffer");
                 check(clWaitForEvents(1, &done), "clWaitForEvents");
                 clReleaseEvent(done);
             }},
            {"openclaw, vector moved in",
             [&] {
                 const std::size_t before = bench::allocations();
                 openclaw::HostTransfer<std::byte> reading =
                     queue.read(buffer, std::move(moved_memory), openclaw::nonblocking);
                 moved_memory = std::move(reading).get();
                 moved_allocations = bench::allocations() - before;
             }},
            {"openclaw, vector made",
             [&] {
                 const std::size_t before = bench::allocations();
                 openclaw::HostTransfer<std::byte> reading =
                     queue.read(buffer, openclaw::nonblocking);
                 made = std::move(reading).get();
                 made_allocations = bench::allocations() - before;
             }},
        };
        for (Peer& peer : peers) {
            peer.run();
        }
        if (raw_memory != source || moved_memory != source || made != source) {
            std::fprintf(stderr, "a non-blocking read is wrong\n");
            return 1;
        }
        std::map<std::string, std::vector<double>> rates;
        const int rounds = smoke ? 1 : 9;
        for (int s = 0; s < rounds; ++s) {
            for (const std::size_t p : bench::round_order(peers.size(), s)) {
                const double start = bench::now();
                peers[p].run();
                rates[peers[p].name].push_back(static_cast<double>(async_bytes) /
                                               (bench::now() - start) / 1e9);
            }
        }
        const double raw = bench::median(rates["raw"]);
        std::printf(
            "\n| non-blocking read of %s into ordinary memory | GB/s | / raw | C++ "
            "allocations per read |\n|---|---|---|---|\n",
            bench::human_bytes(async_bytes).c_str());
        std::printf("| raw C (clEnqueueReadBuffer CL_FALSE, then wait) | %.2f | 1.00x | - |\n",
                    raw);
        for (const auto& [name, count] :
             {std::pair{std::string("openclaw, vector moved in"), moved_allocations},
              std::pair{std::string("openclaw, vector made"), made_allocations}}) {
            const double rate = bench::median(rates[name]);
            std::printf("| %s | %.2f | %.2fx | %zu |\n", name.c_str(), rate, rate / raw, count);
            bench::csv("transfers", "nonblocking read", name, async_bytes, rate, "GB/s");
        }
        bench::csv("transfers", "nonblocking read", "raw", async_bytes, raw, "GB/s");
    }
    return 0;
} catch (const std::exception& error) {
    std::fprintf(stderr, "bench_transfers: %s\n", error.what());
    return 1;
}
