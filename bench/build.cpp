// SPDX-License-Identifier: Apache-2.0
// bench/build: program build time, cold and warm, through each peer's usual way of building from
// source, with whatever caching each peer (and the driver under it) does:
//   cold  a source the driver has never seen (a unique constant is added to the text, so that
//         PoCL's kernel cache and NVIDIA's compute cache miss);
//   warm  the same source built again into a new program (driver caches hit; Boost.Compute's
//         program_cache answers from memory).
// Two sources: the vector-add program of bench_vector_add, and compile_time/kernels300.cl (300
// lines, 17 kernels; needs cl_khr_fp64). Peers take turns in a shuffled order within each sample;
// each build is checked by counting its kernels. Usage: bench_build [--smoke] [--samples N]
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common.hpp"
#include "compile_time/kernels300.cl.hpp"
#include "peers.hpp"

namespace {

/// `source` with a program-scope constant no build has seen: it changes the text and the program,
/// so every cache keyed on either misses.
std::string unseen(std::string_view source) {
    static std::atomic<unsigned long> counter{0};
    static const auto run = static_cast<unsigned long long>(
        std::chrono::system_clock::now().time_since_epoch().count());
    return openclaw::detail::concat("__constant uint openclaw_bench_nonce_", run, "_", ++counter,
                                    " = 1;\n", source);
}

struct Peer {
    std::string name;
    // Builds `source` and returns how many kernels the program has (the check that it built).
    std::function<std::size_t(const std::string& source)> build;
};

const char* env_or(const char* name, const char* fallback) {
    const char* value = std::getenv(name);
    return value != nullptr ? value : fallback;
}

}  // namespace

int main(int argc, char** argv) try {
    const bool smoke = bench::has_flag(argc, argv, "--smoke");
    const auto samples = static_cast<int>(bench::option(argc, argv, "--samples", smoke ? 1 : 9));
    const openclaw::Device device = bench::pick_device();
    if (!device) {
        std::fprintf(stderr, "no OpenCL device\n");
        return 1;
    }
    bench::print_device(device);
    std::printf(
        "# program build: median of %d samples; driver caches: POCL_KERNEL_CACHE=%s, "
        "CUDA_CACHE_DISABLE=%s%s\n",
        samples, env_or("POCL_KERNEL_CACHE", "(unset)"), env_or("CUDA_CACHE_DISABLE", "(unset)"),
        bench::has_boost_compute ? "" : " (Boost.Compute not built: headers not found)");
    const openclaw::Context context{device};
    const cl_context raw_context = context.get();
    const cl_device_id raw_device = device.get();
    const cl::Context clhpp_context(raw_context, true);

    std::vector<Peer> peers = {
        {"raw C",
         [&](const std::string& source) {
             const char* text = source.c_str();
             const std::size_t length = source.size();
             cl_int code = CL_SUCCESS;
             const cl_program program =
                 clCreateProgramWithSource(raw_context, 1, &text, &length, &code);
             bench::check(code, "clCreateProgramWithSource");
             code = clBuildProgram(program, 1, &raw_device, "", nullptr, nullptr);
             std::size_t kernels = 0;
             if (code == CL_SUCCESS) {
                 code = clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS, sizeof(kernels), &kernels,
                                         nullptr);
             }
             clReleaseProgram(program);
             bench::check(code, "clBuildProgram");
             return kernels;
         }},
        {"CLHPP",
         [&](const std::string& source) {
             const cl::Program program(clhpp_context, source, true);
             return program.getInfo<CL_PROGRAM_NUM_KERNELS>();
         }},
    };
#if OPENCLAW_BENCH_BOOST_COMPUTE
    const boost::compute::context boost_context(raw_context, true);
    peers.push_back({"Boost.Compute", [&](const std::string& source) {
                         const auto program =
                             boost::compute::program::build_with_source(source, boost_context);
                         return program.get_info<std::size_t>(CL_PROGRAM_NUM_KERNELS);
                     }});
    // Boost.Compute's own cache: programs kept in memory per context, keyed by a name the caller
    // chooses (here the source text itself).
    peers.push_back({"Boost.Compute program_cache", [&](const std::string& source) {
                         const auto cache =
                             boost::compute::program_cache::get_global_cache(boost_context);
                         const auto program =
                             cache->get_or_build(source, std::string(), source, boost_context);
                         return program.get_info<std::size_t>(CL_PROGRAM_NUM_KERNELS);
                     }});
#endif
    // Hook for openclaw's on-disk program cache (issue 6, being built on another branch): add a
    // peer "openclaw cached" here that builds through it, so that cold and warm show what the
    // cache adds over the driver's own.
    peers.push_back({"openclaw", [&](const std::string& source) {
                         const auto program = openclaw::Program::build(context, source);
                         return program.kernel_names().size();
                     }});

    std::vector<std::pair<std::string, std::string>> sources = {
        {"vector add (2 kernels)", bench::vector_add_source}};
    if (smoke) {
        std::printf("# kernels300.cl left out in smoke mode\n");
    } else if (device.supports_extension("cl_khr_fp64")) {
        sources.emplace_back("kernels300.cl (17 kernels)", kernels::kernels300);
    } else {
        std::printf("# kernels300.cl left out: the device has no cl_khr_fp64\n");
    }

    std::printf("\n| source | peer | cold ms | warm ms | warm / cold |\n|---|---|---|---|---|\n");
    for (const auto& [name, text] : sources) {
        const std::size_t expected = name.starts_with("vector") ? 2 : 17;
        // The first build of a process pays for loading the compiler; it is not what is measured.
        for (const Peer& peer : peers) {
            peer.build(unseen(text));
        }
        const std::string warm_text = unseen(text);
        for (const Peer& peer : peers) {  // puts warm_text in every cache
            peer.build(warm_text);
        }
        std::map<std::string, std::vector<double>> cold, warm;
        for (int s = 0; s < samples; ++s) {
            for (const std::size_t p :
                 bench::round_order(peers.size(), static_cast<std::size_t>(s))) {
                const Peer& peer = peers[p];
                for (const bool is_cold : {true, false}) {
                    const std::string source = is_cold ? unseen(text) : warm_text;
                    const double start = bench::now();
                    const std::size_t kernels = peer.build(source);
                    const double ms = (bench::now() - start) * 1e3;
                    if (kernels != expected) {
                        std::fprintf(stderr, "bench_build: %s built %zu kernels of %s, not %zu\n",
                                     peer.name.c_str(), kernels, name.c_str(), expected);
                        return 1;
                    }
                    (is_cold ? cold : warm)[peer.name].push_back(ms);
                }
            }
        }
        for (const Peer& peer : peers) {
            const double c = bench::median(cold[peer.name]);
            const double w = bench::median(warm[peer.name]);
            bench::csv("build", name + " cold", peer.name, text.size(), c, "ms");
            bench::csv("build", name + " warm", peer.name, text.size(), w, "ms");
            std::printf("| %s | %s | %.2f | %.2f | %.2f |\n", name.c_str(), peer.name.c_str(), c, w,
                        w / c);
        }
    }
    return 0;
} catch (const std::exception& error) {
    std::fprintf(stderr, "bench_build: %s\n", error.what());
    return 1;
}
