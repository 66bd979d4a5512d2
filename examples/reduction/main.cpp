// reduction: the sum of a large array in two stages. Each work-group adds its share in __local
// memory (a Local<cl_uint> parameter, sized per launch with LocalMem) and writes one partial sum;
// a second launch of the same kernel, one work-group wide, adds the partials. Unsigned integers
// wrap the same way on both sides, so the device's sum must equal the host's exactly.
// Usage: reduction [elements]  (default 4194304)
#include <openclaw/openclaw.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

// The tree reduction halves the active work-items each round: the group size must be a power
// of two. Each work-item first adds a strided run of the input, so any n fits any grid.
constexpr const char* source = R"CLC(
__kernel void reduce_sum(__global const uint* input, __global uint* partials,
                         __local uint* scratch, const uint n) {
    const uint lid = get_local_id(0);
    uint sum = 0;
    for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
        sum += input[i];
    }
    scratch[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint active = get_local_size(0) / 2; active > 0; active /= 2) {
        if (lid < active) {
            scratch[lid] += scratch[lid + active];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        partials[get_group_id(0)] = scratch[0];
    }
}
)CLC";

std::size_t power_of_two_at_most(std::size_t limit) {
    std::size_t size = 1;
    while (size * 2 <= limit) {
        size *= 2;
    }
    return size;
}

}  // namespace

int main(int argc, char** argv) try {
    const std::size_t n = argc > 1 ? std::stoul(argv[1]) : std::size_t{1} << 22;
    if (n == 0 || n > 0xffffffffu) {
        std::fprintf(stderr, "reduction: elements must be 1 to 4294967295, got %zu\n", n);
        return EXIT_FAILURE;
    }
    const openclaw::Device device = openclaw::select_device();
    std::printf("device: %s (%s)\n", device.name().c_str(), device.platform().name().c_str());

    std::vector<cl_uint> host(n);
    cl_uint expected = 0;
    for (std::size_t i = 0; i < n; ++i) {
        host[i] = static_cast<cl_uint>(i * 2654435761u) >> 8;  // scattered, with carries
        expected += host[i];                                   // wraps like the device's sum
    }

    openclaw::Context context{device};
    openclaw::Queue queue{context, device};
    openclaw::ReadOnlyBuffer<cl_uint> input{queue, host};

    auto program = openclaw::Program::build(context, source);
    auto reduce = program.kernel<openclaw::In<cl_uint>, openclaw::Out<cl_uint>,
                                 openclaw::Local<cl_uint>, cl_uint>("reduce_sum");

    // The largest power-of-two group this kernel allows here, at most 256 work-items.
    const std::size_t local = power_of_two_at_most(std::min<std::size_t>(
        {256, reduce.work_group_size(device), device.max_work_item_sizes().front()}));
    // A few groups per compute unit keep every unit busy; the second stage adds one per group.
    const std::size_t groups =
        std::min<std::size_t>(std::size_t{device.max_compute_units()} * 4, (n + local - 1) / local);
    openclaw::ReadWriteBuffer<cl_uint> partials{context, groups};
    openclaw::WriteOnlyBuffer<cl_uint> total{context, 1};

    // Stage 1: `groups` partial sums. Stage 2: one group adds them. The in-order queue runs the
    // second launch after the first; the arguments are captured at each enqueue.
    queue.enqueue(reduce.set_args(input, partials, openclaw::LocalMem<cl_uint>{local},
                                  static_cast<cl_uint>(n)),
                  openclaw::NDRange{groups * local}, openclaw::NDRange{local});
    queue.enqueue(reduce.set_args(partials, total, openclaw::LocalMem<cl_uint>{local},
                                  static_cast<cl_uint>(groups)),
                  openclaw::NDRange{local}, openclaw::NDRange{local});

    std::vector<cl_uint> result(1);
    queue.read(total, result);
    if (result[0] != expected) {
        std::printf("reduction: FAILED, device sum %u, host sum %u\n", result[0], expected);
        return EXIT_FAILURE;
    }
    std::printf("reduction: %zu elements in %zu groups of %zu, sum %u verified\n", n, groups, local,
                result[0]);
    return EXIT_SUCCESS;
} catch (const openclaw::Error& error) {
    std::fprintf(stderr, "reduction: %s\n", error.what());
    return EXIT_FAILURE;
} catch (const std::exception& error) {  // std::stoul on a bad argument
    std::fprintf(stderr, "reduction: %s\n", error.what());
    return EXIT_FAILURE;
}
