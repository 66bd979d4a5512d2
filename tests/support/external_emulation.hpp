// SPDX-License-Identifier: Apache-2.0
#pragma once
// A test double of a driver with cl_khr_external_memory(_opaque_fd), cl_khr_semaphore,
// cl_khr_external_semaphore(_opaque_fd) and cl_khr_device_uuid, over a platform that has none of
// them (PoCL): support/external_emulation.cpp defines the OpenCL entry points involved in the test
// program, which openclaw's calls reach first. While an EmulateExternal is alive:
//
// - devices list the extensions and answer their queries (as configured below);
// - clCreateBufferWithProperties imports an opaque fd as memory another API wrote: the descriptor
//   is mapped (MAP_SHARED) and the buffer made over the mapping (CL_MEM_USE_HOST_PTR), so what the
//   "other API" writes through its own mapping of the descriptor is what kernels read, without a
//   copy; the descriptor is closed when the buffer is destroyed, as NVIDIA's driver does;
// - acquire/release are markers that record, per memory object, that they happened;
// - binary semaphores are made of user events: a signal completes the next waiter (or leaves the
//   semaphore signalled), a wait is a barrier on a user event; an exported descriptor, imported
//   into another context, shares the semaphore's state.
//
// Every emulated entry point asks the fault-injection interposer, when it is loaded, whether to
// fail (openclaw_fi_call), so injected failures reach them as they reach the driver's.

#include <CL/cl.h>

namespace openclaw_test {

struct ExternalEmulation {
    bool memory = true;              ///< cl_khr_external_memory(_opaque_fd)
    bool semaphores = true;          ///< cl_khr_semaphore and cl_khr_external_semaphore(_opaque_fd)
    bool exports = true;             ///< semaphores export as opaque_fd (NVIDIA 580: no)
    bool types_query_fails = false;  ///< CL_DEVICE_SEMAPHORE_TYPES_KHR fails (NVIDIA 580)
    bool uuid = true;                ///< cl_khr_device_uuid
};

/// While alive, the platform has the extensions `emulation` names (one at a time).
class EmulateExternal {
  public:
    explicit EmulateExternal(ExternalEmulation emulation = {});
    ~EmulateExternal();
    EmulateExternal(const EmulateExternal&) = delete;
    EmulateExternal& operator=(const EmulateExternal&) = delete;

    /// Semaphores alive (created and not yet released to zero).
    static int live_semaphores();
    /// Memory objects imported and not yet destroyed.
    static int live_imports();
    /// acquire (true) or release commands completed so far for `memory`.
    static int commands(cl_mem memory, bool acquire);
    /// The UUID the emulation reports for `device` (16 bytes into `out`).
    static void uuid_of(cl_device_id device, unsigned char* out);
};

}  // namespace openclaw_test
