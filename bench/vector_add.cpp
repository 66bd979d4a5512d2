// SPDX-License-Identifier: Apache-2.0
// bench/vector_add: the bandwidth of c = a + b over float and float4, launched through the raw C
// API, OpenCL-CLHPP, Boost.Compute and openclaw (the same program, the same buffers), against the
// device's own clEnqueueCopyBuffer rate measured in the same rounds. GB/s count the bytes read and
// written: 3 x buffer size for a vector add, 2 x for a copy. Every peer's result is checked element
// by element before it is timed; then each round runs every (kernel, peer) pair and the copy once,
// in a shuffled order, and the figures are medians over the rounds.
// Usage: bench_vector_add [--smoke] [--mib N (per buffer)] [--samples N] [--local N (0: the
// driver's choice)]. Default size: 1 GiB per buffer on a GPU, 256 MiB on other devices.
#include <cmath>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "common.hpp"
#include "peers.hpp"

int main(int argc, char** argv) try {
    const bool smoke = bench::has_flag(argc, argv, "--smoke");
    const openclaw::Device device = bench::pick_device();
    if (!device) {
        std::fprintf(stderr, "no OpenCL device\n");
        return 1;
    }
    const std::size_t mib = bench::option(argc, argv, "--mib",
                                          smoke             ? 1
                                          : device.is_gpu() ? 1024
                                                            : 256);
    const std::size_t bytes = mib << 20;
    const std::size_t floats = bytes / sizeof(cl_float);
    const int samples = static_cast<int>(bench::option(argc, argv, "--samples", smoke ? 2 : 15));
    const std::size_t local = std::min<std::size_t>(bench::option(argc, argv, "--local", 256),
                                                    device.max_work_group_size());
    if (floats == 0 || floats > 0xFFFFFFFFu || (local != 0 && floats / 4 % local != 0)) {
        std::fprintf(stderr,
                     "bench_vector_add: --mib %zu does not fit the kernels (uint index, "
                     "whole work-groups of %zu)\n",
                     mib, local);
        return 1;
    }
    bench::print_device(device);
    std::printf("# vector add: %zu MiB per buffer, work-groups of %zu%s, median of %d samples%s\n",
                mib, local, local == 0 ? " (driver's choice)" : "", samples,
                bench::has_boost_compute ? "" : " (Boost.Compute not built: headers not found)");

    const openclaw::Context context{device};
    const openclaw::Queue queue{context, device};
    std::vector<float> host_a(floats), host_b(floats);
    for (std::size_t i = 0; i < floats; ++i) {
        host_a[i] = bench::a_value(i);
        host_b[i] = bench::b_value(i);
    }
    const openclaw::ReadOnlyBuffer<float> a{context, host_a};
    const openclaw::ReadOnlyBuffer<float> b{context, host_b};
    const openclaw::ReadWriteBuffer<float> c{context, floats};
    const auto program = openclaw::Program::build(context, bench::vector_add_source);

    const cl_command_queue raw_queue = queue.get();
    cl::CommandQueue clhpp_queue(raw_queue, true);
    const cl::Buffer ca(a.get(), true), cb(b.get(), true), cc(c.get(), true);
#if OPENCLAW_BENCH_BOOST_COMPUTE
    boost::compute::command_queue boost_queue(raw_queue, true);
    const boost::compute::buffer ba(a.get(), true), bb(b.get(), true), bc(c.get(), true);
#endif

    // Every (case, peer) pair, float and float4 kernels and the copy, measured in the same rounds.
    struct Item {
        Item(std::string k, std::string p, std::function<void()> f, double moved)
            : kase(std::move(k)), peer(std::move(p)), run(std::move(f)), bytes_moved(moved) {}
        std::string kase;  // "float", "float4" or "copy"
        std::string peer;
        std::function<void()> run;  // enqueues one launch (or one copy); the caller finishes
        double bytes_moved;
        std::size_t reps = 1;
        std::vector<double> rates;  // GB/s, one per round
    };
    std::vector<Item> items;
    for (const auto& [kase, width] :
         std::vector<std::pair<std::string, std::size_t>>{{"float", 1}, {"float4", 4}}) {
        const std::string name = "add_" + kase;
        const std::size_t global = floats / width;
        const auto count = static_cast<cl_uint>(global);
        const double moved = 3.0 * static_cast<double>(bytes);
        const std::size_t* local_ptr = local == 0 ? nullptr : &local;
        auto raw_kernel = std::shared_ptr<_cl_kernel>(
            clCreateKernel(program.get(), name.c_str(), nullptr), clReleaseKernel);
        items.push_back(
            {kase, "raw C",
             [=, &a, &b, &c] {
                 const cl_mem ma = a.get(), mb = b.get(), mc = c.get();
                 const cl_kernel k = raw_kernel.get();
                 bench::check(clSetKernelArg(k, 0, sizeof(cl_mem), &ma), "clSetKernelArg");
                 bench::check(clSetKernelArg(k, 1, sizeof(cl_mem), &mb), "clSetKernelArg");
                 bench::check(clSetKernelArg(k, 2, sizeof(cl_mem), &mc), "clSetKernelArg");
                 bench::check(clSetKernelArg(k, 3, sizeof(cl_uint), &count), "clSetKernelArg");
                 bench::check(clEnqueueNDRangeKernel(raw_queue, k, 1, nullptr, &global, local_ptr,
                                                     0, nullptr, nullptr),
                              "clEnqueueNDRangeKernel");
             },
             moved});
        using Functor = cl::KernelFunctor<cl::Buffer, cl::Buffer, cl::Buffer, cl_uint>;
        auto functor = std::make_shared<Functor>(
            cl::Kernel(clCreateKernel(program.get(), name.c_str(), nullptr)));
        const cl::EnqueueArgs clhpp_args =
            local == 0 ? cl::EnqueueArgs(clhpp_queue, cl::NDRange(global))
                       : cl::EnqueueArgs(clhpp_queue, cl::NDRange(global), cl::NDRange(local));
        items.push_back({kase, "CLHPP",
                         [=, &ca, &cb, &cc] { (*functor)(clhpp_args, ca, cb, cc, count); }, moved});
#if OPENCLAW_BENCH_BOOST_COMPUTE
        auto boost_kernel = std::make_shared<boost::compute::kernel>(
            clCreateKernel(program.get(), name.c_str(), nullptr), false);
        items.push_back({kase, "Boost.Compute",
                         [=, &boost_queue, &ba, &bb, &bc] {
                             boost_kernel->set_args(ba, bb, bc, count);
                             boost_queue.enqueue_1d_range_kernel(*boost_kernel, 0, global, local);
                         },
                         moved});
#endif
        // The typed kernel differs by element type; both are the same clSetKernelArg calls.
        using openclaw::In, openclaw::Out;
        const openclaw::NDRange group = local == 0 ? openclaw::NDRange{} : openclaw::NDRange{local};
        if (width == 1) {
            auto k = std::make_shared<openclaw::Kernel<In<float>, In<float>, Out<float>, cl_uint>>(
                program.kernel<In<float>, In<float>, Out<float>, cl_uint>(name));
            items.push_back({kase, "openclaw",
                             [=, &queue, &a, &b, &c] {
                                 queue.enqueue(k->set_args(a, b, c, count),
                                               openclaw::NDRange{global}, group);
                             },
                             moved});
        } else {
            // The float buffers viewed as float4: the same memory objects, typed for the kernel.
            auto a4 = openclaw::ReadOnlyBuffer<cl_float4>::retain(a.get());
            auto b4 = openclaw::ReadOnlyBuffer<cl_float4>::retain(b.get());
            auto c4 = openclaw::ReadWriteBuffer<cl_float4>::retain(c.get());
            using K4 = openclaw::Kernel<In<cl_float4>, In<cl_float4>, Out<cl_float4>, cl_uint>;
            auto k = std::make_shared<K4>(
                program.kernel<In<cl_float4>, In<cl_float4>, Out<cl_float4>, cl_uint>(name));
            items.push_back({kase, "openclaw",
                             [=, &queue] {
                                 queue.enqueue(k->set_args(a4, b4, c4, count),
                                               openclaw::NDRange{global}, group);
                             },
                             moved});
        }
    }
    items.push_back({"copy", "raw C",
                     [&] {
                         bench::check(clEnqueueCopyBuffer(raw_queue, a.get(), c.get(), 0, 0, bytes,
                                                          0, nullptr, nullptr),
                                      "clEnqueueCopyBuffer");
                     },
                     2.0 * static_cast<double>(bytes)});

    // Each item's result, checked element by element before anything is timed.
    std::vector<float> back(floats);
    for (const Item& item : items) {
        queue.fill(c, -1.0f);
        item.run();
        queue.finish();
        queue.read(c, back);
        for (std::size_t i = 0; i < floats; ++i) {
            const float want = item.kase == "copy" ? host_a[i] : host_a[i] + host_b[i];
            if (back[i] != want) {
                throw std::runtime_error(openclaw::detail::concat(item.kase, " through ", item.peer,
                                                                  ": c[", i, "] = ", back[i],
                                                                  ", expected ", want));
            }
        }
    }
    // Warm-up, and enough launches per sample that one lasts about 0.1 s.
    for (Item& item : items) {
        item.run();
        queue.finish();
        const double start = bench::now();
        item.run();
        queue.finish();
        const double once = bench::now() - start;
        item.reps = static_cast<std::size_t>(
            std::clamp(std::ceil((smoke ? 0.002 : 0.1) / std::max(once, 1e-9)), 1.0, 200.0));
    }
    // Rounds: every item once, in a shuffled order (bench::round_order); ratios are taken within
    // a round.
    for (int round = 0; round < samples; ++round) {
        for (const std::size_t k :
             bench::round_order(items.size(), static_cast<std::size_t>(round))) {
            Item& item = items[k];
            const double t0 = bench::now();
            for (std::size_t r = 0; r < item.reps; ++r) {
                item.run();
            }
            queue.finish();
            const double seconds = (bench::now() - t0) / static_cast<double>(item.reps);
            item.rates.push_back(item.bytes_moved / seconds / 1e9);
        }
    }

    const auto find = [&](const std::string& kase, const std::string& peer) -> const Item* {
        for (const Item& item : items) {
            if (item.kase == kase && item.peer == peer) {
                return &item;
            }
        }
        return nullptr;
    };
    // The median over the rounds of a / b, each taken within one round.
    const auto ratio = [&](const Item& x, const Item& y) {
        std::vector<double> ratios;
        for (std::size_t r = 0; r < x.rates.size(); ++r) {
            ratios.push_back(x.rates[r] / y.rates[r]);
        }
        return bench::median(ratios);
    };
    std::vector<std::string> peer_names;
    for (const Item& item : items) {
        if (item.kase == "float") {
            peer_names.push_back(item.peer);
        }
    }
    const Item& copy = *find("copy", "raw C");
    std::printf("\n| kernel |");
    for (const std::string& peer : peer_names) {
        std::printf(" %s GB/s |", peer.c_str());
    }
    std::printf(" openclaw / raw C | openclaw / copy |\n|---|");
    for (std::size_t i = 0; i < peer_names.size() + 2; ++i) {
        std::printf("---|");
    }
    std::printf("\n");
    for (const std::string kase : {"float", "float4"}) {
        std::printf("| %s |", kase.c_str());
        for (const std::string& peer : peer_names) {
            std::printf(" %.1f |", bench::median(find(kase, peer)->rates));
        }
        const Item& ours = *find(kase, "openclaw");
        std::printf(" %.3fx | %.3fx |\n", ratio(ours, *find(kase, "raw C")), ratio(ours, copy));
    }
    std::printf(
        "\nclEnqueueCopyBuffer of the same size (2 x size moved): %.1f GB/s. Ratios: the median "
        "of the rounds' own ratios.\n\n",
        bench::median(copy.rates));
    for (const Item& item : items) {
        bench::csv("vector_add", item.kase, item.peer, bytes, bench::median(item.rates), "GB/s");
        if (item.kase != "copy") {
            bench::csv("vector_add", item.kase + " ratio to raw C", item.peer, bytes,
                       ratio(item, *find(item.kase, "raw C")), "x");
            bench::csv("vector_add", item.kase + " ratio to copy", item.peer, bytes,
                       ratio(item, copy), "x");
        }
    }
    return 0;
} catch (const std::exception& error) {
    std::fprintf(stderr, "bench_vector_add: %s\n", error.what());
    return 1;
}
