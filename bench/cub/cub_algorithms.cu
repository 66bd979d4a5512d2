// bench/cub/cub_algorithms: CUB's reduce, scan and radix sorts on the NVIDIA GPU, timed as
// bench_algorithms times openclaw (host wall clock from the call to its completion; a reduce's
// sum copied back to the host), for the GPU issue's side-by-side table. Built with nvcc on the
// GPU machine (scripts/gpu-algorithms.sh); not part of the CMake build.
//   nvcc -O3 -std=c++17 -o cub_algorithms cub_algorithms.cu && ./cub_algorithms 16,20,24,28 5
#include <cub/cub.cuh>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#define CHECK(call)                                                         \
    do {                                                                    \
        cudaError_t e = (call);                                             \
        if (e != cudaSuccess) {                                             \
            std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e)); \
            std::exit(1);                                                   \
        }                                                                   \
    } while (0)

static double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

template <class F>
static double median_seconds(int rounds, F&& f) {
    f();  // warm-up
    CHECK(cudaDeviceSynchronize());
    std::vector<double> s;
    for (int r = 0; r < rounds; ++r) {
        const double t = now();
        f();
        CHECK(cudaDeviceSynchronize());
        s.push_back(now() - t);
    }
    std::sort(s.begin(), s.end());
    return s[s.size() / 2];
}

int main(int argc, char** argv) {
    std::string sizes = argc > 1 ? argv[1] : "16,20,24,28";
    const int rounds = argc > 2 ? std::atoi(argv[2]) : 5;
    cudaDeviceProp prop{};
    CHECK(cudaGetDeviceProperties(&prop, 0));
    std::printf("# device: %s (CUB %d)\n", prop.name, CUB_VERSION);
    std::size_t at = 0;
    while (at < sizes.size()) {
        const std::size_t comma = sizes.find(',', at);
        const int log2n = std::stoi(sizes.substr(at, comma - at));
        at = comma == std::string::npos ? sizes.size() : comma + 1;
        const std::size_t n = std::size_t{1} << log2n;
        std::vector<unsigned> keys(n);
        std::mt19937 rng(42);
        for (auto& k : keys)
            k = rng();
        unsigned *d_keys, *d_keys_out, *d_vals, *d_vals_out, *d_copy;
        float* d_floats;
        int* d_ints;
        float* d_fsum;
        int* d_isum;
        CHECK(cudaMalloc(&d_keys, n * 4));
        CHECK(cudaMalloc(&d_keys_out, n * 4));
        CHECK(cudaMalloc(&d_vals, n * 4));
        CHECK(cudaMalloc(&d_vals_out, n * 4));
        CHECK(cudaMalloc(&d_copy, n * 4));
        CHECK(cudaMalloc(&d_floats, n * 4));
        CHECK(cudaMalloc(&d_ints, n * 4));
        CHECK(cudaMalloc(&d_fsum, 4));
        CHECK(cudaMalloc(&d_isum, 4));
        CHECK(cudaMemcpy(d_keys, keys.data(), n * 4, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(d_vals, keys.data(), n * 4, cudaMemcpyHostToDevice));
        CHECK(cudaMemset(d_floats, 0, n * 4));
        CHECK(cudaMemset(d_ints, 0, n * 4));
        std::size_t temp_bytes = 0, t = 0;
        cub::DeviceReduce::Sum(nullptr, t, d_floats, d_fsum, static_cast<int>(n));
        temp_bytes = std::max(temp_bytes, t);
        cub::DeviceScan::InclusiveSum(nullptr, t, d_keys, d_keys_out, static_cast<int>(n));
        temp_bytes = std::max(temp_bytes, t);
        cub::DeviceRadixSort::SortPairs(nullptr, t, d_keys, d_keys_out, d_vals, d_vals_out,
                                        static_cast<int>(n));
        temp_bytes = std::max(temp_bytes, t);
        void* temp;
        CHECK(cudaMalloc(&temp, temp_bytes));
        const double bytes = 4.0 * n;
        float fsum = 0;
        int isum = 0;
        const double copy = median_seconds(
            rounds, [&] { CHECK(cudaMemcpy(d_copy, d_keys, n * 4, cudaMemcpyDeviceToDevice)); });
        const double rf = median_seconds(rounds, [&] {
            std::size_t tb = temp_bytes;
            cub::DeviceReduce::Sum(temp, tb, d_floats, d_fsum, static_cast<int>(n));
            CHECK(cudaMemcpy(&fsum, d_fsum, 4, cudaMemcpyDeviceToHost));
        });
        const double ri = median_seconds(rounds, [&] {
            std::size_t tb = temp_bytes;
            cub::DeviceReduce::Sum(temp, tb, d_ints, d_isum, static_cast<int>(n));
            CHECK(cudaMemcpy(&isum, d_isum, 4, cudaMemcpyDeviceToHost));
        });
        const double sc = median_seconds(rounds, [&] {
            std::size_t tb = temp_bytes;
            cub::DeviceScan::InclusiveSum(temp, tb, d_keys, d_keys_out, static_cast<int>(n));
        });
        const double sk = median_seconds(rounds, [&] {
            std::size_t tb = temp_bytes;
            cub::DeviceRadixSort::SortKeys(temp, tb, d_keys, d_keys_out, static_cast<int>(n));
        });
        const double sp = median_seconds(rounds, [&] {
            std::size_t tb = temp_bytes;
            cub::DeviceRadixSort::SortPairs(temp, tb, d_keys, d_keys_out, d_vals, d_vals_out,
                                            static_cast<int>(n));
        });
        std::vector<unsigned> check(n);
        CHECK(cudaMemcpy(check.data(), d_keys_out, n * 4, cudaMemcpyDeviceToHost));
        std::sort(keys.begin(), keys.end());
        const bool sorted = check == keys;
        std::printf("\n## CUB, %zu elements (2^%d)%s\n\n", n, log2n,
                    sorted ? "" : " (SORT RESULT WRONG)");
        std::printf("| algorithm | median ms | rate |\n| --- | --- | --- |\n");
        std::printf("| copy (cudaMemcpy device to device) | %.3f | %.2f GB/s |\n", copy * 1e3,
                    2 * bytes / copy / 1e9);
        std::printf("| reduce float (sum to host) | %.3f | %.2f GB/s |\n", rf * 1e3,
                    bytes / rf / 1e9);
        std::printf("| reduce int (sum to host) | %.3f | %.2f GB/s |\n", ri * 1e3,
                    bytes / ri / 1e9);
        std::printf("| inclusive_scan uint | %.3f | %.2f GB/s |\n", sc * 1e3, 2 * bytes / sc / 1e9);
        std::printf("| sort uint | %.3f | %.1f Mkeys/s |\n", sk * 1e3, n / sk / 1e6);
        std::printf("| sort_by_key uint/uint | %.3f | %.1f Mkeys/s |\n", sp * 1e3, n / sp / 1e6);
        cudaFree(temp);
        cudaFree(d_keys);
        cudaFree(d_keys_out);
        cudaFree(d_vals);
        cudaFree(d_vals_out);
        cudaFree(d_copy);
        cudaFree(d_floats);
        cudaFree(d_ints);
        cudaFree(d_fsum);
        cudaFree(d_isum);
    }
    return 0;
}
