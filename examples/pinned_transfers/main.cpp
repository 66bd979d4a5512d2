// pinned_transfers: how fast data reaches the device from ordinary (pageable) memory, from
// pinned memory (PinnedBuffer), and asynchronously from pinned memory while the host goes on.
// openclaw pipelines large pageable transfers through pinned staging buffers on discrete GPUs.
// Usage: pinned_transfers [MiB]  (default 256)
#include <openclaw/openclaw.hpp>
#include <openclaw/pinned.hpp>  // PinnedBuffer

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

template <class F>
double gigabytes_per_second(std::size_t bytes, F&& transfer) {
    transfer();  // warm up
    const int repetitions = 5;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < repetitions; ++i) {
        transfer();
    }
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    return static_cast<double>(bytes) * repetitions / took.count() / 1e9;
}

}  // namespace

int main(int argc, char** argv) try {
    const std::size_t mib = argc > 1 ? std::stoul(argv[1]) : 256;
    const openclaw::Device device = openclaw::select_device();
    openclaw::Context context{device};
    openclaw::Queue queue{context, device};
    const std::size_t n = mib * (1 << 20) / sizeof(float);
    const std::size_t bytes = n * sizeof(float);
    std::printf("device: %s, %zu MiB per transfer\n", device.name().c_str(), mib);

    std::vector<float> pageable(n, 1.0f);
    openclaw::PinnedBuffer<float> pinned{queue, n};
    std::memcpy(pinned.data(), pageable.data(), bytes);
    openclaw::ReadWriteBuffer<float> on_device{context, n};

    std::printf("write from pageable memory:  %6.2f GB/s\n",
                gigabytes_per_second(bytes, [&] { queue.write(on_device, pageable); }));
    std::printf("write from pinned memory:    %6.2f GB/s\n",
                gigabytes_per_second(bytes, [&] { queue.write(on_device, pinned); }));
    std::printf("read into pageable memory:   %6.2f GB/s\n",
                gigabytes_per_second(bytes, [&] { queue.read(on_device, pageable); }));
    std::printf("read into pinned memory:     %6.2f GB/s\n",
                gigabytes_per_second(bytes, [&] { queue.read(on_device, pinned); }));
    // Asynchronous: the call returns at once; `pinned` knows the transfer uses it, so even
    // destroying it now would wait for the copy first.
    std::printf("async write from pinned:     %6.2f GB/s\n", gigabytes_per_second(bytes, [&] {
                    const openclaw::Event done =
                        queue.write(on_device, pinned, openclaw::nonblocking);
                    done.wait();
                }));

    queue.read(on_device, pageable);
    for (std::size_t i = 0; i < n; i += 4096) {
        if (pageable[i] != 1.0f) {
            std::printf("pinned_transfers: FAILED, wrong data at %zu\n", i);
            return EXIT_FAILURE;
        }
    }
    std::printf("pinned_transfers: data verified\n");
    return EXIT_SUCCESS;
} catch (const openclaw::Error& error) {
    std::fprintf(stderr, "pinned_transfers: %s\n", error.what());
    return EXIT_FAILURE;
}
