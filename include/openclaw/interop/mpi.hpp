// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// One process per device under MPI: this rank's place on its node (the ranks that share its
// memory, MPI_Comm_split_type with MPI_COMM_TYPE_SHARED) and the device that place picks, so that
// the ranks of a node spread over its GPUs and no two ranks of a node share one while a device is
// free. Only this header includes <mpi.h>; openclaw's other headers never do.
//
//   MPI_Init(&argc, &argv);
//   const openclaw::mpi::Placement place = openclaw::mpi::place_rank(openclaw::DeviceType::gpu);
//   openclaw::Context context(place.device);   // this rank's device

#include <openclaw/openclaw.hpp>

// The C API only: the MPI-2 C++ bindings, removed from the standard, do not compile warning-free.
#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>

#include <cstddef>
#include <span>
#include <string>
#include <vector>

OPENCLAW_BEGIN_NAMESPACE

namespace mpi {

/// Where a rank is: among all ranks of the communicator, and among those of its node.
struct NodeRank {
    int rank = 0;       ///< in the communicator
    int size = 1;       ///< ranks in the communicator
    int node_rank = 0;  ///< among the ranks of this node (MPI_COMM_TYPE_SHARED)
    int node_size = 1;  ///< ranks on this node
};

/// A rank's device: the device list's `index`-th, chosen from the node rank.
struct Placement {
    /// The device this rank uses.
    Device device;
    std::size_t index = 0;    ///< in the list the device was chosen from
    std::size_t devices = 0;  ///< how many there were to choose from
    /// Where the rank is.
    NodeRank rank;
    /// True when the node has more ranks than devices, so this device serves several ranks.
    bool shared = false;
};

namespace detail {
[[noreturn]] inline void mpi_failed(const char* call, int code) {
    char text[MPI_MAX_ERROR_STRING] = {};
    int length = 0;
    if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) {
        length = 0;
    }
    openclaw::detail::throw_error(
        CL_INVALID_OPERATION, call,
        openclaw::detail::concat("MPI error ", code, ": ", std::string(text, length)));
}
}  // namespace detail

/// This rank's place in `comm` and on its node (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)).
/// MPI must be initialised. Throws openclaw::Error naming the MPI call if one fails (with
/// MPI_ERRORS_RETURN; MPI's default handler aborts first).
inline NodeRank node_rank(MPI_Comm comm = MPI_COMM_WORLD) {
    NodeRank where;
    if (const int code = MPI_Comm_rank(comm, &where.rank); code != MPI_SUCCESS) {
        detail::mpi_failed("MPI_Comm_rank", code);
    }
    if (const int code = MPI_Comm_size(comm, &where.size); code != MPI_SUCCESS) {
        detail::mpi_failed("MPI_Comm_size", code);
    }
    MPI_Comm node = MPI_COMM_NULL;
    if (const int code =
            MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, where.rank, MPI_INFO_NULL, &node);
        code != MPI_SUCCESS) {
        detail::mpi_failed("MPI_Comm_split_type", code);
    }
    const int rank_code = MPI_Comm_rank(node, &where.node_rank);
    const int size_code = MPI_Comm_size(node, &where.node_size);
    (void)MPI_Comm_free(&node);
    if (rank_code != MPI_SUCCESS) {
        detail::mpi_failed("MPI_Comm_rank", rank_code);
    }
    if (size_code != MPI_SUCCESS) {
        detail::mpi_failed("MPI_Comm_size", size_code);
    }
    return where;
}

/// The device of `devices` for the rank at `where`: the node's ranks take the devices in turn
/// (node rank r gets device r modulo the count), so each device serves ranks/devices of them.
/// Throws openclaw::Error (CL_DEVICE_NOT_FOUND) for an empty list.
inline Placement place_rank(std::span<const Device> devices, const NodeRank& where) {
    if (devices.empty()) {
        openclaw::detail::throw_error(
            CL_DEVICE_NOT_FOUND, "openclaw::mpi::place_rank",
            openclaw::detail::concat("no devices to place rank ", where.rank, " (node rank ",
                                     where.node_rank, " of ", where.node_size, ") on"));
    }
    Placement placement;
    placement.index = static_cast<std::size_t>(where.node_rank) % devices.size();
    placement.device = devices[placement.index];
    placement.devices = devices.size();
    placement.rank = where;
    placement.shared = static_cast<std::size_t>(where.node_size) > devices.size();
    return placement;
}

/// As above, for this rank of `comm`.
inline Placement place_rank(std::span<const Device> devices, MPI_Comm comm = MPI_COMM_WORLD) {
    return place_rank(devices, node_rank(comm));
}

/// As above, over the devices of `type` of every platform (in Platform::list() order, so that the
/// ranks of a node see one list); with none of that type, over every device.
inline Placement place_rank(DeviceType type, MPI_Comm comm = MPI_COMM_WORLD) {
    std::vector<Device> all;
    std::vector<Device> typed;
    for (const Platform& platform : Platform::list()) {
        for (const Device& device : platform.devices(DeviceType::all)) {
            all.push_back(device);
            if ((static_cast<cl_device_type>(device.type()) & static_cast<cl_device_type>(type)) !=
                0) {
                typed.push_back(device);
            }
        }
    }
    return place_rank(typed.empty() ? all : typed, comm);
}

}  // namespace mpi

OPENCLAW_END_NAMESPACE

#include <openclaw/detail/base/macros_pop.hpp>
