// multi_device: one vector add spread over several devices of one context: the program built
// for all of them, one queue each, and the range split in proportion to compute units (aligned,
// so each part is a sub-buffer). Uses the GPUs of a platform with several; else partitions a
// CPU device into sub-devices (PoCL); else runs on a single device.
#include <openclaw/openclaw.hpp>
#include <openclaw/split.hpp>  // split(), Slice: a range shared out across devices

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

namespace {

constexpr const char* source = R"CLC(
__kernel void add(__global const float* a, __global const float* b, __global float* c) {
    const size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}
)CLC";

std::vector<openclaw::Device> pick_devices() {
    const auto platforms = openclaw::Platform::list();
    for (const auto& platform : platforms) {
        if (auto gpus = platform.devices(openclaw::DeviceType::gpu); gpus.size() > 1) {
            return gpus;
        }
    }
    for (const auto& platform : platforms) {
        for (const auto& device : platform.devices()) {
            const auto kinds = device.info<CL_DEVICE_PARTITION_PROPERTIES>();
            const bool equally =
                std::find(kinds.begin(), kinds.end(), CL_DEVICE_PARTITION_EQUALLY) != kinds.end();
            if (equally && device.max_compute_units() >= 2) {
                return device.partition_equally(device.max_compute_units() / 2);
            }
        }
    }
    for (const auto& platform : platforms) {
        for (const auto& device : platform.devices()) {
            return {device};
        }
    }
    return {};
}

}  // namespace

int main() try {
    const std::vector<openclaw::Device> devices = pick_devices();
    if (devices.empty()) {
        std::fprintf(stderr, "multi_device: no OpenCL device\n");
        return EXIT_FAILURE;
    }
    const openclaw::Context context{devices};
    const auto program = openclaw::Program::build(context, source);  // for every device

    const std::size_t n = std::size_t{1} << 22;
    std::vector<float> a(n), b(n), c(n);
    std::iota(a.begin(), a.end(), 0.0f);
    std::iota(b.begin(), b.end(), 0.5f);
    const openclaw::ReadOnlyBuffer<float> da{context, a};
    const openclaw::ReadOnlyBuffer<float> db{context, b};
    const openclaw::WriteOnlyBuffer<float> dc{context, n};

    // Work in proportion to compute units, in steps that keep sub-buffer offsets aligned.
    const auto slices = openclaw::split(n, devices, dc.sub_alignment());
    std::vector<openclaw::Queue> queues;
    std::vector<openclaw::Event> done;
    struct Part {
        openclaw::ReadOnlyBuffer<float> a, b;
        openclaw::WriteOnlyBuffer<float> c;
    };
    std::vector<Part> parts;
    parts.reserve(devices.size());
    for (std::size_t d = 0; d < devices.size(); ++d) {
        const openclaw::Slice slice = slices[d];
        std::printf("device %zu: %s, %u compute units, elements [%zu, %zu)\n", d,
                    devices[d].name().c_str(), devices[d].max_compute_units(), slice.offset,
                    slice.offset + slice.count);
        queues.emplace_back(context, devices[d]);
        if (slice.count == 0) {
            continue;
        }
        // One kernel object per device: its argument values belong to it. The sub-buffers live
        // until the end (a kernel does not keep its arguments alive; set_args refuses
        // temporaries at compile time).
        auto add =
            program.kernel<openclaw::In<float>, openclaw::In<float>, openclaw::Out<float>>("add");
        parts.push_back({da.sub(slice.offset, slice.count), db.sub(slice.offset, slice.count),
                         dc.sub(slice.offset, slice.count)});
        add.set_args(parts.back().a, parts.back().b, parts.back().c);
        done.push_back(
            queues[d].enqueue(add, openclaw::NDRange{slice.count}, openclaw::with_event));
        queues[d].flush();
    }
    openclaw::Event::wait_all(done);
    queues.front().read(dc, c);
    for (std::size_t i = 0; i < n; ++i) {
        if (c[i] != a[i] + b[i]) {
            std::printf("multi_device: FAILED at element %zu\n", i);
            return EXIT_FAILURE;
        }
    }
    std::printf("multi_device: %zu elements on %zu device(s), verified\n", n, devices.size());
    return EXIT_SUCCESS;
} catch (const openclaw::Error& error) {
    std::fprintf(stderr, "multi_device: %s\n", error.what());
    return EXIT_FAILURE;
}
