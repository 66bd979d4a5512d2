// bench/algorithms: openclaw's algorithms side by side with Boost.Compute through the same driver,
// the host's std:: algorithms, and clEnqueueCopyBuffer as the bandwidth reference, at each size
// (default 2^22 and 2^26 elements; --sizes 16,20,24,28 for powers of two). Rounds alternate the
// peers in a shuffled order; the table gives medians. Every result is checked against the host's.
//   copy     clEnqueueCopyBuffer of n uints: GB/s of 2n * 4 bytes moved
//   vadd     the float4 vector add c = a + b over n floats: GB/s of 3n * 4 bytes (the bandwidth a
//            kernel of openclaw's reaches, the reduce's reference)
//   reduce   float and int sums: GB/s of the n elements read (the value back on the host)
//   scan     inclusive_scan of uint: GB/s of 2n * 4 bytes (read and written); openclaw on the
//            portable path and on the single-pass one
//   sort     uint keys, and uint keys with uint values: millions of keys per second
// The host's peers run up to 2^24 elements. --stress N then runs N single-pass scans and N
// single-pass sorts of 2^20 elements, each checked (a spin on another group's flag that never
// ends shows as a run killed by its time limit).
// Usage: bench_algorithms [--smoke] [--sizes 22,26] [--rounds N] [--stress N]
#include <openclaw/algorithm.hpp>

#include <bit>
#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common.hpp"

#if OPENCLAW_BENCH_BOOST_COMPUTE
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
#include <boost/compute/algorithm/inclusive_scan.hpp>
#include <boost/compute/algorithm/reduce.hpp>
#include <boost/compute/algorithm/sort.hpp>
#include <boost/compute/algorithm/sort_by_key.hpp>
#include <boost/compute/command_queue.hpp>
#include <boost/compute/iterator/buffer_iterator.hpp>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif

namespace {

void check(bool ok, const std::string& what) {
    if (!ok) {
        throw std::runtime_error("wrong result: " + what);
    }
}

std::vector<std::size_t> parse_sizes(int argc, char** argv, bool smoke, bool gpu) {
    std::string text = smoke ? "12,16" : gpu ? "16,20,24,28" : "22,26";
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::string_view(argv[i]) == "--sizes") {
            text = argv[i + 1];
        }
    }
    std::vector<std::size_t> sizes;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t comma = text.find(',', at);
        sizes.push_back(std::size_t{1} << std::stoul(text.substr(at, comma - at)));
        at = comma == std::string::npos ? text.size() : comma + 1;
    }
    return sizes;
}

/// One measured operation: `prepare` (untimed: resets the input of an in-place sort), then
/// `run`, which must leave its work complete.
struct Peer {
    std::string row;   // "reduce float"
    std::string name;  // "openclaw", "Boost.Compute", "host std::"
    double units;      // bytes (GB/s) or keys (Mkeys/s) per run
    bool keys;
    std::function<void()> prepare;
    std::function<void()> run;
    std::function<void()> verify;
    std::vector<double> seconds;
};

}  // namespace

int main(int argc, char** argv) try {
    const bool smoke = bench::has_flag(argc, argv, "--smoke");
    const std::size_t rounds = bench::option(argc, argv, "--rounds", smoke ? 1 : 5);
    const openclaw::Device device = bench::pick_device();
    bench::print_device(device);
    const openclaw::Context context{device};
    const openclaw::Queue queue{context, device};
    const std::vector<std::size_t> sizes = parse_sizes(argc, argv, smoke, device.is_gpu());
#if OPENCLAW_BENCH_BOOST_COMPUTE
    boost::compute::command_queue boost_queue(queue.get());
#else
    std::printf("# Boost.Compute: not built (headers not found): its peer is left out\n");
#endif
    std::printf("# %zu rounds, peers in a shuffled order each round; medians\n", rounds);
    const openclaw::Program vadd_program =
        openclaw::Program::build(context, bench::vector_add_source);
    using In4 = openclaw::In<cl_float4>;
    auto vadd = vadd_program.kernel<In4, In4, openclaw::Out<cl_float4>, cl_uint>("add_float4");

    for (const std::size_t n : sizes) {
        std::mt19937 rng(42);
        std::vector<cl_uint> keys(n);
        std::vector<cl_float> floats(n);
        std::vector<cl_int> ints(n);
        for (std::size_t i = 0; i < n; ++i) {
            keys[i] = static_cast<cl_uint>(rng());
            floats[i] = static_cast<float>(rng() % 1000) / 1000.0f;
            ints[i] = static_cast<cl_int>(rng() % 2001) - 1000;
        }
        std::vector<cl_uint> small(n);
        for (std::size_t i = 0; i < n; ++i) {
            small[i] = keys[i] % 16;  // scan inputs whose sums do not wrap in 2^28 elements
        }
        const openclaw::ReadWriteBuffer<cl_uint> pristine(queue, std::span<const cl_uint>(keys));
        const openclaw::ReadWriteBuffer<cl_uint> values_pristine(queue,
                                                                 std::span<const cl_uint>(small));
        const openclaw::ReadWriteBuffer<cl_float> float_buffer(queue,
                                                               std::span<const cl_float>(floats));
        const openclaw::ReadWriteBuffer<cl_int> int_buffer(queue, std::span<const cl_int>(ints));
        const openclaw::ReadWriteBuffer<cl_uint> scan_in(queue, std::span<const cl_uint>(small));
        openclaw::ReadWriteBuffer<cl_uint> scan_out(context, n);
        openclaw::ReadWriteBuffer<cl_uint> sort_keys(context, n);
        openclaw::ReadWriteBuffer<cl_uint> sort_values(context, n);
        openclaw::ReadWriteBuffer<cl_uint> copy_out(context, n);
        // The vector add's operands: the floats twice (two memory objects), viewed as float4.
        const openclaw::ReadWriteBuffer<cl_float> float_twin(queue,
                                                             std::span<const cl_float>(floats));
        const auto vadd_a = openclaw::ReadOnlyBuffer<cl_float4>::retain(float_buffer.get());
        const auto vadd_b = openclaw::ReadOnlyBuffer<cl_float4>::retain(float_twin.get());
        openclaw::ReadWriteBuffer<cl_float4> vadd_c(context, n / 4);

        // The host's answers.
        double float_sum = 0;
        for (const float f : floats) {
            float_sum += f;
        }
        const cl_int int_sum = std::accumulate(ints.begin(), ints.end(), cl_int{0});
        std::vector<cl_uint> scanned(n);
        std::inclusive_scan(small.begin(), small.end(), scanned.begin());
        std::vector<cl_uint> sorted = keys;
        std::sort(sorted.begin(), sorted.end());
        const auto read = [&](const openclaw::ReadWriteBuffer<cl_uint>& b) {
            std::vector<cl_uint> out(n);
            queue.read(b, out);
            return out;
        };
        const auto reset_sort = [&](bool with_values) {
            queue.copy(pristine, sort_keys);
            if (with_values) {
                queue.copy(values_pristine, sort_values);
            }
            queue.finish();
        };
        std::vector<Peer> peers;
        const double bytes = static_cast<double>(n) * 4;
        float host_float = 0;
        float device_float = 0;
        cl_int device_int = 0;
        std::size_t host_sink = 0;
        peers.push_back({"copy",
                         "clEnqueueCopyBuffer",
                         2 * bytes,
                         false,
                         nullptr,
                         [&] {
                             queue.copy(pristine, copy_out);
                             queue.finish();
                         },
                         [&] { check(read(copy_out) == keys, "copy"); },
                         {}});
        peers.push_back({"vector add float4",
                         "openclaw kernel",
                         3 * bytes,
                         false,
                         nullptr,
                         [&] {
                             const std::size_t items = n / 4;
                             queue.enqueue(
                                 vadd.set_args(vadd_a, vadd_b, vadd_c, static_cast<cl_uint>(items)),
                                 openclaw::NDRange{(items + 255) / 256 * 256},
                                 openclaw::NDRange{256});
                             queue.finish();
                         },
                         [&] {
                             std::vector<cl_float4> sum(n / 4);
                             queue.read(vadd_c, sum);
                             bool same = true;
                             for (std::size_t i = 0; i < n && same; ++i) {
                                 same = sum[i / 4].s[i % 4] == floats[i] + floats[i];
                             }
                             check(same, "vector add");
                         },
                         {}});
        peers.push_back({"reduce float",
                         "openclaw",
                         bytes,
                         false,
                         nullptr,
                         [&] { device_float = openclaw::reduce(queue, float_buffer); },
                         [&] {
                             check(std::fabs(device_float - float_sum) <= 1e-4 * float_sum + 1,
                                   "reduce float");
                         },
                         {}});
        peers.push_back({"reduce float",
                         "host std::reduce",
                         bytes,
                         false,
                         nullptr,
                         [&] { host_float = std::reduce(floats.begin(), floats.end(), 0.0f); },
                         [&] { check(host_float > 0, "host reduce"); },
                         {}});
        peers.push_back({"reduce int",
                         "openclaw",
                         bytes,
                         false,
                         nullptr,
                         [&] { device_int = openclaw::reduce(queue, int_buffer); },
                         [&] { check(device_int == int_sum, "reduce int"); },
                         {}});
        peers.push_back({"reduce int",
                         "host std::reduce",
                         bytes,
                         false,
                         nullptr,
                         [&] { host_sink += std::reduce(ints.begin(), ints.end(), 0); },
                         [&] {},
                         {}});
        peers.push_back({"inclusive_scan uint",
                         "openclaw portable",
                         2 * bytes,
                         false,
                         nullptr,
                         [&] {
                             openclaw::inclusive_scan(queue, scan_in, scan_out,
                                                      openclaw::AlgorithmPath::portable);
                             queue.finish();
                         },
                         [&] { check(read(scan_out) == scanned, "scan portable"); },
                         {}});
        peers.push_back({"inclusive_scan uint",
                         "openclaw single-pass",
                         2 * bytes,
                         false,
                         nullptr,
                         [&] {
                             openclaw::inclusive_scan(queue, scan_in, scan_out,
                                                      openclaw::AlgorithmPath::single_pass);
                             queue.finish();
                         },
                         [&] { check(read(scan_out) == scanned, "scan single-pass"); },
                         {}});
        std::vector<cl_uint> host_scan(n);
        peers.push_back(
            {"inclusive_scan uint",
             "host std::inclusive_scan",
             2 * bytes,
             false,
             nullptr,
             [&] { std::inclusive_scan(small.begin(), small.end(), host_scan.begin()); },
             [&] { check(host_scan == scanned, "host scan"); },
             {}});
        peers.push_back({"sort uint",
                         "openclaw",
                         static_cast<double>(n),
                         true,
                         [&] { reset_sort(false); },
                         [&] {
                             openclaw::sort(queue, sort_keys);
                             queue.finish();
                         },
                         [&] { check(read(sort_keys) == sorted, "sort"); },
                         {}});
        std::vector<cl_uint> host_keys;
        peers.push_back({"sort uint",
                         "host std::sort",
                         static_cast<double>(n),
                         true,
                         [&] { host_keys = keys; },
                         [&] { std::sort(host_keys.begin(), host_keys.end()); },
                         [&] { check(host_keys == sorted, "host sort"); },
                         {}});
        peers.push_back({"sort_by_key uint/uint",
                         "openclaw",
                         static_cast<double>(n),
                         true,
                         [&] { reset_sort(true); },
                         [&] {
                             openclaw::sort_by_key(queue, sort_keys, sort_values);
                             queue.finish();
                         },
                         [&] { check(read(sort_keys) == sorted, "sort_by_key keys"); },
                         {}});
        if (device.is_gpu()) {
            // The single-pass (Onesweep) sort runs on the tiled kernels, which CPUs do not use.
            peers.push_back({"sort uint",
                             "openclaw single-pass",
                             static_cast<double>(n),
                             true,
                             [&] { reset_sort(false); },
                             [&] {
                                 openclaw::sort(queue, sort_keys,
                                                openclaw::AlgorithmPath::single_pass);
                                 queue.finish();
                             },
                             [&] { check(read(sort_keys) == sorted, "sort single-pass"); },
                             {}});
            peers.push_back({"sort_by_key uint/uint",
                             "openclaw single-pass",
                             static_cast<double>(n),
                             true,
                             [&] { reset_sort(true); },
                             [&] {
                                 openclaw::sort_by_key(queue, sort_keys, sort_values,
                                                       openclaw::AlgorithmPath::single_pass);
                                 queue.finish();
                             },
                             [&] { check(read(sort_keys) == sorted, "sort_by_key single-pass"); },
                             {}});
        }
#if OPENCLAW_BENCH_BOOST_COMPUTE
        namespace bc = boost::compute;
        const bc::buffer b_pristine(pristine.get());
        const bc::buffer b_values_pristine(values_pristine.get());
        const bc::buffer b_floats(float_buffer.get());
        const bc::buffer b_ints(int_buffer.get());
        const bc::buffer b_scan_in(scan_in.get());
        const bc::buffer b_scan_out(scan_out.get());
        const bc::buffer b_keys(sort_keys.get());
        const bc::buffer b_values(sort_values.get());
        float boost_float = 0;
        cl_int boost_int = 0;
        peers.push_back({"reduce float",
                         "Boost.Compute",
                         bytes,
                         false,
                         nullptr,
                         [&] {
                             bc::reduce(bc::make_buffer_iterator<float>(b_floats, 0),
                                        bc::make_buffer_iterator<float>(b_floats, n), &boost_float,
                                        boost_queue);
                         },
                         [&] {
                             check(std::fabs(boost_float - float_sum) <= 1e-4 * float_sum + 1,
                                   "Boost.Compute reduce float");
                         },
                         {}});
        peers.push_back({"reduce int",
                         "Boost.Compute",
                         bytes,
                         false,
                         nullptr,
                         [&] {
                             bc::reduce(bc::make_buffer_iterator<cl_int>(b_ints, 0),
                                        bc::make_buffer_iterator<cl_int>(b_ints, n), &boost_int,
                                        boost_queue);
                         },
                         [&] { check(boost_int == int_sum, "Boost.Compute reduce int"); },
                         {}});
        peers.push_back({"inclusive_scan uint",
                         "Boost.Compute",
                         2 * bytes,
                         false,
                         nullptr,
                         [&] {
                             bc::inclusive_scan(bc::make_buffer_iterator<cl_uint>(b_scan_in, 0),
                                                bc::make_buffer_iterator<cl_uint>(b_scan_in, n),
                                                bc::make_buffer_iterator<cl_uint>(b_scan_out, 0),
                                                boost_queue);
                             boost_queue.finish();
                         },
                         [&] { check(read(scan_out) == scanned, "Boost.Compute scan"); },
                         {}});
        peers.push_back({"sort uint",
                         "Boost.Compute",
                         static_cast<double>(n),
                         true,
                         [&] { reset_sort(false); },
                         [&] {
                             bc::sort(bc::make_buffer_iterator<cl_uint>(b_keys, 0),
                                      bc::make_buffer_iterator<cl_uint>(b_keys, n), boost_queue);
                             boost_queue.finish();
                         },
                         [&] { check(read(sort_keys) == sorted, "Boost.Compute sort"); },
                         {}});
        peers.push_back({"sort_by_key uint/uint",
                         "Boost.Compute",
                         static_cast<double>(n),
                         true,
                         [&] { reset_sort(true); },
                         [&] {
                             bc::sort_by_key(bc::make_buffer_iterator<cl_uint>(b_keys, 0),
                                             bc::make_buffer_iterator<cl_uint>(b_keys, n),
                                             bc::make_buffer_iterator<cl_uint>(b_values, 0),
                                             boost_queue);
                             boost_queue.finish();
                         },
                         [&] { check(read(sort_keys) == sorted, "Boost.Compute sort_by_key"); },
                         {}});
#endif
        // The host's peers take seconds a call from 2^26 up: they run at the smaller sizes only.
        if (n > (std::size_t{1} << 24)) {
            std::erase_if(peers, [](const Peer& peer) { return peer.name.starts_with("host"); });
        }
        // A warm-up (builds every program, grows the scratch), checked; then the rounds.
        for (Peer& peer : peers) {
            if (peer.prepare) {
                peer.prepare();
            }
            peer.run();
            peer.verify();
        }
        for (std::size_t round = 0; round < rounds; ++round) {
            for (const std::size_t index : bench::round_order(peers.size(), round)) {
                Peer& peer = peers[index];
                if (peer.prepare) {
                    peer.prepare();
                }
                const double start = bench::now();
                peer.run();
                peer.seconds.push_back(bench::now() - start);
            }
        }
        for (Peer& peer : peers) {  // the last round's results too
            peer.verify();
        }
        (void)host_sink;

        const double copy_rate = peers[0].units / bench::median(peers[0].seconds) / 1e9;
        std::map<std::string, double> boost_rate;
        for (const Peer& peer : peers) {
            if (peer.name == "Boost.Compute") {
                boost_rate[peer.row] = peer.units / bench::median(peer.seconds);
            }
        }
        std::printf("\n## %zu elements (2^%d)\n\n", n, std::countr_zero(n));
        std::printf("| algorithm | peer | median ms | rate | x copy rate | x Boost.Compute |\n");
        std::printf("| --- | --- | --- | --- | --- | --- |\n");
        for (const Peer& peer : peers) {
            const double seconds = bench::median(peer.seconds);
            const double rate = peer.units / seconds;
            const std::string rate_text = peer.keys
                                              ? std::to_string(rate / 1e6).substr(0, 7) + " Mkeys/s"
                                              : std::to_string(rate / 1e9).substr(0, 7) + " GB/s";
            const std::string vs_copy =
                peer.keys ? "" : std::to_string(rate / 1e9 / copy_rate).substr(0, 5);
            const auto b = boost_rate.find(peer.row);
            const std::string vs_boost = b == boost_rate.end() || peer.name == "Boost.Compute"
                                             ? ""
                                             : std::to_string(rate / b->second).substr(0, 5);
            std::printf("| %s | %s | %.3f | %s | %s | %s |\n", peer.row.c_str(), peer.name.c_str(),
                        seconds * 1e3, rate_text.c_str(), vs_copy.c_str(), vs_boost.c_str());
            bench::csv("algorithms", peer.row, peer.name, n * 4,
                       peer.keys ? rate / 1e6 : rate / 1e9, peer.keys ? "Mkeys/s" : "GB/s");
        }
    }
    if (const std::size_t stress = bench::option(argc, argv, "--stress", 0); stress > 0) {
        const std::size_t n = std::size_t{1} << 20;
        std::mt19937 rng(7);
        std::vector<cl_uint> keys(n);
        for (cl_uint& k : keys) {
            k = static_cast<cl_uint>(rng());
        }
        std::vector<cl_uint> small(keys);
        for (cl_uint& k : small) {
            k %= 16;
        }
        std::vector<cl_uint> scanned(n);
        std::inclusive_scan(small.begin(), small.end(), scanned.begin());
        std::vector<cl_uint> sorted = keys;
        std::sort(sorted.begin(), sorted.end());
        const openclaw::ReadWriteBuffer<cl_uint> in(queue, std::span<const cl_uint>(small));
        const openclaw::ReadWriteBuffer<cl_uint> pristine(queue, std::span<const cl_uint>(keys));
        openclaw::ReadWriteBuffer<cl_uint> out(context, n);
        std::vector<cl_uint> back(n);
        std::size_t wrong = 0;
        const double start = bench::now();
        for (std::size_t i = 0; i < stress; ++i) {
            openclaw::inclusive_scan(queue, in, out, openclaw::AlgorithmPath::single_pass);
            queue.read(out, back);
            wrong += back == scanned ? 0 : 1;
        }
        const double scans = bench::now() - start;
        for (std::size_t i = 0; i < stress; ++i) {
            queue.copy(pristine, out);
            openclaw::sort(queue, out, openclaw::AlgorithmPath::single_pass);
            queue.read(out, back);
            wrong += back == sorted ? 0 : 1;
        }
        const double sorts = bench::now() - scans - start;
        std::printf(
            "\n# stress: %zu single-pass scans (%.2f s) and %zu single-pass sorts (%.2f s) "
            "of 2^20 elements, each checked: %zu wrong\n",
            stress, scans, stress, sorts, wrong);
        if (wrong != 0) {
            return 1;
        }
    }
    const openclaw::AlgorithmStats stats = openclaw::algorithm_stats(queue);
    std::printf(
        "\n# openclaw's engine: %zu programs, %zu kernels, %zu scratch allocations, %zu "
        "scratch bytes\n",
        stats.programs, stats.kernels, stats.scratch_allocations, stats.scratch_bytes);
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "bench_algorithms: %s\n", e.what());
    return 1;
}
