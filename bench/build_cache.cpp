// SPDX-License-Identifier: Apache-2.0
// Program start-up: how long building a program takes with a cold driver cache, a warm driver
// cache (PoCL's kcache, NVIDIA's ComputeCache), openclaw's BinaryCache, and both; and what making
// a kernel costs (raw clCreateKernel and clCloneKernel, openclaw's first and later requests).
// Each build is measured in a fresh process (the caches under test live on disk), up to the first
// kernel's result: PoCL compiles kernels when they are first created and launched.
//
// Usage: bench_build_cache [--smoke] [--runs N] [--source file.cl]
//        (internally: bench_build_cache --child <our cache dir or "off"> <source file>)

#define CL_HPP_TARGET_OPENCL_VERSION 300
// 110: CLHPP 2.0.x fails to compile its queue constructors with a minimum of 120.
#define CL_HPP_MINIMUM_OPENCL_VERSION 110
#include <CL/opencl.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <openclaw/cache.hpp>

#include "common.hpp"

namespace fs = std::filesystem;

namespace {

constexpr const char* smoke_source = R"CLC(
__kernel void saxpy(const float alpha, __global const float* x, __global float* y,
                    const uint n) {
    const size_t i = get_global_id(0);
    if (i < n) y[i] = alpha * x[i] + y[i];
}
)CLC";

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// One build in this process: build, create saxpy, launch, read back. Prints "ms <time> <hit>".
int child(const std::string& cache_dir, const std::string& source_path) {
    const double start = bench::now();
    const openclaw::Device device = bench::pick_device();
    const openclaw::Context context{device};
    const openclaw::Queue queue{context, device};
    const std::string source = source_path.empty() ? smoke_source : read_text(source_path);
    openclaw::BuildOptions options;
    options.cache(cache_dir == "off" ? openclaw::BinaryCache{} : openclaw::BinaryCache{cache_dir});
    const double before_build = bench::now();
    const auto program = openclaw::Program::build(context, source, options);
    auto saxpy =
        program.kernel<cl_float, openclaw::In<cl_float>, openclaw::InOut<cl_float>, cl_uint>(
            "saxpy");
    const openclaw::ReadOnlyBuffer<cl_float> x{context, std::vector<cl_float>(1024, 1.0f)};
    const openclaw::ReadWriteBuffer<cl_float> y{context, std::vector<cl_float>(1024, 1.0f)};
    queue.enqueue(saxpy.set_args(2.0f, x, y, cl_uint{1024}), openclaw::NDRange{1024});
    std::vector<cl_float> back(1024);
    queue.read(y, back);
    const double end = bench::now();
    if (back[1023] != 3.0f) {
        std::fprintf(stderr, "wrong result %g\n", back[1023]);
        return 1;
    }
    std::printf("device: %s (%s)\n", device.name().c_str(),
                device.platform().version_string().c_str());
    std::printf("ms %.3f %.3f %d\n", (end - before_build) * 1e3, (before_build - start) * 1e3,
                program.loaded_from_cache() ? 1 : 0);
    return 0;
}

struct Run {
    double ms = 0;
    bool hit = false;
    std::string device;  // the "device: ..." line the child printed
};

// Runs a child with the drivers' caches in `driver_cache` (PoCL and NVIDIA honour these).
Run spawn(const std::string& self, const fs::path& driver_cache, const std::string& ours,
          const std::string& source) {
    const std::string command = "POCL_CACHE_DIR='" + driver_cache.string() + "' CUDA_CACHE_PATH='" +
                                driver_cache.string() + "' '" + self + "' --child '" + ours +
                                "' '" + source + "'";
    std::FILE* pipe = popen(command.c_str(), "r");
    Run run;
    if (pipe == nullptr) {
        return run;
    }
    char line[256];
    while (std::fgets(line, sizeof(line), pipe) != nullptr) {
        double setup = 0;
        int hit = 0;
        if (std::sscanf(line, "ms %lf %lf %d", &run.ms, &setup, &hit) == 3) {
            run.hit = hit != 0;
        } else if (std::string_view(line).starts_with("device: ")) {
            run.device = line;
        }
    }
    if (pclose(pipe) != 0) {
        std::fprintf(stderr, "bench_build_cache: a child failed: %s\n", command.c_str());
        std::exit(1);
    }
    return run;
}

// Kernel creation in this process, microseconds per kernel.
void kernels(const std::string& source, int count) {
    const openclaw::Device device = bench::pick_device();
    const openclaw::Context context{device};
    openclaw::BuildOptions options;
    options.cache(openclaw::BinaryCache{});
    const auto program = openclaw::Program::build(context, source, options);
    using Saxpy =
        openclaw::Kernel<cl_float, openclaw::In<cl_float>, openclaw::InOut<cl_float>, cl_uint>;
    std::vector<std::pair<std::string, double>> rows;
    const auto time = [&](const std::string& name, auto&& make) {
        make();  // the first one (PoCL compiles the kernel then) is not counted
        const double start = bench::now();
        for (int i = 0; i < count; ++i) {
            make();
        }
        rows.emplace_back(name, (bench::now() - start) / count * 1e6);
    };
    time("raw clCreateKernel", [&] {
        cl_int code = CL_SUCCESS;
        clReleaseKernel(clCreateKernel(program.get(), "saxpy", &code));
    });
    const bool clones = device.platform().version() >= openclaw::Version{2, 1};
    if (clones) {
        cl_int code = CL_SUCCESS;
        cl_kernel prototype = clCreateKernel(program.get(), "saxpy", &code);
        time("raw clCloneKernel", [&] { clReleaseKernel(clCloneKernel(prototype, &code)); });
        clReleaseKernel(prototype);
    }
    time("CLHPP cl::Kernel", [&] { (void)cl::Kernel(cl::Program(program.get(), true), "saxpy"); });
    time("openclaw uncached (create + arg-info queries)", [&] {
        cl_int code = CL_SUCCESS;
        (void)Saxpy::adopt(clCreateKernel(program.get(), "saxpy", &code));
    });
    time("openclaw program.kernel<...>()", [&] {
        (void)program.kernel<cl_float, openclaw::In<cl_float>, openclaw::InOut<cl_float>, cl_uint>(
            "saxpy");
    });
    std::printf("\n| making a kernel | µs per kernel (%d) |\n|---|---|\n", count);
    for (const auto& [name, us] : rows) {
        bench::csv("kernel", "saxpy", name, 0, us, "us/kernel");
        std::printf("| %s | %.2f |\n", name.c_str(), us);
    }
    if (!clones) {
        std::printf("(no clCloneKernel: the platform is older than OpenCL 2.1)\n");
    }
}

}  // namespace

int main(int argc, char** argv) try {
    if (argc >= 4 && std::string(argv[1]) == "--child") {
        return child(argv[2], argv[3]);
    }
    const bool smoke = bench::has_flag(argc, argv, "--smoke");
    int runs = smoke ? 1 : 5;
    std::string source_path = smoke ? std::string() : std::string(OPENCLAW_BENCH_DEFAULT_SOURCE);
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::string(argv[i]) == "--runs") {
            runs = std::max(1, std::atoi(argv[i + 1]));
        } else if (std::string(argv[i]) == "--source") {
            source_path = argv[i + 1];
        }
    }
    const std::string self = fs::canonical("/proc/self/exe").string();
    const fs::path scratch = fs::temp_directory_path() / "openclaw-bench-build-cache";
    const auto fresh = [&](const std::string& name) {
        const fs::path dir = scratch / name;
        fs::remove_all(dir);
        fs::create_directories(dir);
        return dir;
    };
    // The parent makes no OpenCL call before its children have run: with NVIDIA's driver loaded
    // in the parent, children spawned from it did not see the NVIDIA platform (H200, driver
    // 580). The children report the device.
    std::printf("source: %s\n",
                source_path.empty() ? "a one-kernel smoke source" : source_path.c_str());

    // Each case: `runs` children, medians. "cold" = empty driver cache and no openclaw cache.
    std::vector<double> cold, driver, ours_only, both;
    bool hits = true;
    for (int r = 0; r < runs; ++r) {
        const fs::path driver_cache = fresh("driver");
        const fs::path our_cache = fresh("ours");
        const Run first = spawn(self, driver_cache, "off", source_path);
        if (r == 0) {
            std::printf("%s", first.device.c_str());
        }
        cold.push_back(first.ms);
        driver.push_back(spawn(self, driver_cache, "off", source_path).ms);
        (void)spawn(self, fresh("driver-filler"), our_cache.string(), source_path);  // fills ours
        const Run only = spawn(self, fresh("driver-empty"), our_cache.string(), source_path);
        const Run warm = spawn(self, driver_cache, our_cache.string(), source_path);
        ours_only.push_back(only.ms);
        both.push_back(warm.ms);
        hits = hits && only.hit && warm.hit;
    }
    const double base = bench::median(cold);
    std::printf(
        "\n| start-up (build to first result) | ms, median of %d | ratio to cold |\n"
        "|---|---|---|\n",
        runs);
    const std::pair<const char*, double> rows[] = {
        {"cold: no cache at all", base},
        {"driver cache warm / openclaw cache off", bench::median(driver)},
        {"openclaw cache warm / driver cache empty", bench::median(ours_only)},
        {"openclaw cache warm / driver cache warm", bench::median(both)},
    };
    for (const auto& [name, ms] : rows) {
        bench::csv("build", source_path.empty() ? "smoke" : "source", name, 0, ms, "ms");
        std::printf("| %s | %.1f | %.3fx |\n", name, ms, ms / base);
    }
    if (!hits) {
        std::printf("(openclaw's cache missed: the driver refused its binaries; see stats)\n");
    }
    kernels(source_path.empty() ? smoke_source : read_text(source_path), smoke ? 20 : 2000);
    fs::remove_all(scratch);
    return 0;
} catch (const std::exception& error) {
    std::fprintf(stderr, "bench_build_cache: %s\n", error.what());
    return 1;
}
