// SPDX-License-Identifier: Apache-2.0
// mpi_reduce: one process per device under MPI. Each rank takes the device its place on the node
// picks (openclaw::mpi::place_rank: node-local rank modulo the node's devices), sums its slice of
// a large array there (work-group partial sums of 64-bit integers, then the host adds the
// partials), and MPI_Allreduce adds the ranks' sums. Rank 0 checks the total against the host.
//
//   mpirun -np 2 mpi_reduce [elements]      (default 16777216)
#include <openclaw/interop/mpi.hpp>
#include <openclaw/openclaw.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr const char* source = R"CLC(
// Each work-item adds a strided run of the slice, then the group adds its items' sums.
__kernel void partial_sums(__global const uint* input, __global ulong* partials,
                           __local ulong* scratch, const uint n) {
    const uint lid = get_local_id(0);
    ulong sum = 0;
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

cl_uint value_at(std::uint64_t i) {  // the array: the same on every rank, without sending it
    return static_cast<cl_uint>((i * 2654435761u) % 100003u);
}

int run(int argc, char** argv) {
    const std::uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : (1u << 24);
    const auto place = openclaw::mpi::place_rank(openclaw::DeviceType::gpu);
    const int rank = place.rank.rank;
    const int ranks = place.rank.size;
    if (n == 0 || n / static_cast<std::uint64_t>(ranks) > 0xffffffffu) {
        if (rank == 0) {
            std::fprintf(stderr, "mpi_reduce: elements must be 1 to %d * 4294967295\n", ranks);
        }
        return EXIT_FAILURE;
    }
    // This rank's slice [begin, end) of the array.
    const std::uint64_t begin = n * static_cast<std::uint64_t>(rank) / ranks;
    const std::uint64_t end = n * static_cast<std::uint64_t>(rank + 1) / ranks;
    const auto count = static_cast<cl_uint>(end - begin);
    std::printf(
        "rank %d of %d (node rank %d of %d): device %zu of %zu, \"%s\"%s, elements [%llu, "
        "%llu)\n",
        rank, ranks, place.rank.node_rank, place.rank.node_size, place.index, place.devices,
        place.device.name().c_str(), place.shared ? " (shared with other ranks of the node)" : "",
        static_cast<unsigned long long>(begin), static_cast<unsigned long long>(end));
    std::fflush(stdout);

    std::uint64_t local_sum = 0;
    if (count > 0) {
        const openclaw::Context context(place.device);
        const openclaw::Queue queue(context, place.device);
        std::vector<cl_uint> slice(count);
        for (cl_uint i = 0; i < count; ++i) {
            slice[i] = value_at(begin + i);
        }
        const openclaw::ReadOnlyBuffer<cl_uint> input(context, count);
        queue.write(input, slice);
        const auto program = openclaw::Program::build(context, source);
        openclaw::Kernel<openclaw::In<cl_uint>, openclaw::Out<cl_ulong>, openclaw::Local<cl_ulong>,
                         cl_uint>
            partial_sums(program, "partial_sums");
        std::size_t group = 1;
        while (group * 2 <= place.device.max_work_group_size() && group * 2 <= 256) {
            group *= 2;
        }
        const std::size_t groups = 64;
        const openclaw::ReadWriteBuffer<cl_ulong> partials(context, groups);
        partial_sums.set_args(input, partials, openclaw::LocalMem<cl_ulong>{group}, count);
        queue.enqueue(partial_sums, openclaw::NDRange{groups * group}, openclaw::NDRange{group});
        std::vector<cl_ulong> sums(groups);
        queue.read(partials, sums);  // blocking: the staging step of an exchange over MPI
        for (const cl_ulong each : sums) {
            local_sum += each;
        }
    }
    std::uint64_t total = 0;
    MPI_Allreduce(&local_sum, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        std::uint64_t expected = 0;
        for (std::uint64_t i = 0; i < n; ++i) {
            expected += value_at(i);
        }
        std::printf("%d ranks: sum of %llu elements = %llu, host %llu: %s\n", ranks,
                    static_cast<unsigned long long>(n), static_cast<unsigned long long>(total),
                    static_cast<unsigned long long>(expected),
                    total == expected ? "verified" : "MISMATCH");
        return total == expected ? EXIT_SUCCESS : EXIT_FAILURE;
    }
    return EXIT_SUCCESS;
}

}  // namespace

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int status = EXIT_FAILURE;
    try {
        status = run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "mpi_reduce: %s\n", e.what());
        MPI_Abort(MPI_COMM_WORLD, EXIT_FAILURE);
    }
    // Every rank learns rank 0's verdict, so mpirun's status is the check's.
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return status;
}
