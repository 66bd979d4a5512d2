// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// External memory and semaphores (a side header): memory another API (CUDA, Vulkan) exported,
// imported as a typed Buffer<T, Access> without a copy (cl_khr_external_memory and its handle
// extensions), the acquire/release commands that hand it between the APIs, binary semaphores a
// queue waits on and signals (cl_khr_semaphore), imported from or exported as a handle
// (cl_khr_external_semaphore), and devices matched across APIs by UUID (cl_khr_device_uuid).
//
// Every capability is probed, never assumed: NVIDIA's 580 driver lists cl_khr_semaphore but
// answers CL_DEVICE_SEMAPHORE_TYPES_KHR with CL_INVALID_VALUE, imports semaphores but exports
// none. A call on a device without the capability fails before the driver sees it, naming the
// device and what it supports. The entry points are found per platform and declared here, so the
// header does not depend on the revision of <CL/cl_ext.h> installed.

#include <openclaw/buffer.hpp>
#include <openclaw/context.hpp>
#include <openclaw/device.hpp>
#include <openclaw/error.hpp>
#include <openclaw/event.hpp>
#include <openclaw/platform.hpp>
#include <openclaw/queue.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

OPENCLAW_BEGIN_NAMESPACE

namespace detail {
// Interop is declared here: the stubs of fwd.hpp step aside.
template <class... A>
inline constexpr bool side_header_included<external_header, A...> = true;
}  // namespace detail

/// The handle type's name ("opaque_fd"), or "unknown" for a value openclaw does not name.
constexpr std::string_view to_string(ExternalMemoryType type) noexcept {
    switch (type) {
        case ExternalMemoryType::opaque_fd:
            return "opaque_fd";
        case ExternalMemoryType::opaque_win32:
            return "opaque_win32";
        case ExternalMemoryType::opaque_win32_kmt:
            return "opaque_win32_kmt";
        case ExternalMemoryType::d3d11_texture:
            return "d3d11_texture";
        case ExternalMemoryType::d3d11_texture_kmt:
            return "d3d11_texture_kmt";
        case ExternalMemoryType::d3d12_heap:
            return "d3d12_heap";
        case ExternalMemoryType::d3d12_resource:
            return "d3d12_resource";
        case ExternalMemoryType::dma_buf:
            return "dma_buf";
    }
    return "unknown";
}
/// The handle type's name ("opaque_fd"), or "unknown" for a value openclaw does not name.
constexpr std::string_view to_string(SemaphoreHandleType type) noexcept {
    switch (type) {
        case SemaphoreHandleType::opaque_fd:
            return "opaque_fd";
        case SemaphoreHandleType::opaque_win32:
            return "opaque_win32";
        case SemaphoreHandleType::opaque_win32_kmt:
            return "opaque_win32_kmt";
        case SemaphoreHandleType::sync_fd:
            return "sync_fd";
        case SemaphoreHandleType::d3d12_fence:
            return "d3d12_fence";
    }
    return "unknown";
}

/// A device's universally unique identifier (CL_DEVICE_UUID_KHR): the same 16 bytes CUDA
/// (cuDeviceGetUuid, cudaDeviceProp::uuid) and Vulkan (VkPhysicalDeviceIDProperties::deviceUUID)
/// report for the same GPU, so it names one device across APIs.
template <>
struct BasicDeviceUuid<0> {
    /// The 16 bytes, in the order the driver reports them.
    std::array<unsigned char, 16> bytes{};

    /// From 16 bytes another API reports (`DeviceUuid::from_bytes(cuda_uuid.bytes)`).
    static DeviceUuid from_bytes(const void* sixteen_bytes) noexcept {
        DeviceUuid uuid;
        std::memcpy(uuid.bytes.data(), sixteen_bytes, uuid.bytes.size());
        return uuid;
    }
    /// 32 lower-case hexadecimal digits, as nvidia-smi prints them without the dashes.
    std::string to_string() const {
        static constexpr char digits[] = "0123456789abcdef";
        std::string text;
        text.reserve(32);
        for (const unsigned char byte : bytes) {
            text += digits[byte >> 4];
            text += digits[byte & 15];
        }
        return text;
    }
    friend bool operator==(const DeviceUuid&, const DeviceUuid&) = default;
};

/// What a device can share with other APIs. Every field is probed (a query that fails is taken
/// as "not supported", except where noted), so the answers can be trusted on any driver.
template <>
struct BasicExternalCapabilities<0> {
    /// cl_khr_external_memory on an OpenCL 3.0 platform (clCreateBufferWithProperties).
    bool memory = false;
    /// The handle types import_buffer() accepts
    /// (CL_DEVICE_EXTERNAL_MEMORY_IMPORT_HANDLE_TYPES_KHR).
    std::vector<ExternalMemoryType> memory_import;
    /// cl_khr_semaphore: binary semaphores a queue waits on and signals.
    bool semaphores = false;
    /// False when the device lists cl_khr_semaphore but its CL_DEVICE_SEMAPHORE_TYPES_KHR query
    /// fails (NVIDIA 580: CL_INVALID_VALUE); binary semaphores, which the extension requires, are
    /// then taken as supported (they work there).
    bool semaphore_types_reported = false;
    /// The handle types Semaphore::import() accepts (cl_khr_external_semaphore).
    std::vector<SemaphoreHandleType> semaphore_import;
    /// The handle types a semaphore can be exported as (none on NVIDIA 580).
    std::vector<SemaphoreHandleType> semaphore_export;
    /// CL_DEVICE_UUID_KHR and CL_DRIVER_UUID_KHR (cl_khr_device_uuid), if the device has them.
    std::optional<DeviceUuid> uuid;
    /// CL_DRIVER_UUID_KHR: the driver build (CUDA and Vulkan share memory only with the same one).
    std::optional<DeviceUuid> driver_uuid;

    /// True if import_buffer() accepts `type`.
    bool imports(ExternalMemoryType type) const noexcept { return has(memory_import, type); }
    /// True if Semaphore::import_fd() accepts `type`.
    bool imports(SemaphoreHandleType type) const noexcept { return has(semaphore_import, type); }
    /// True if a semaphore can be made exportable as `type`.
    bool exports(SemaphoreHandleType type) const noexcept { return has(semaphore_export, type); }

  private:
    template <class T>
    static bool has(const std::vector<T>& list, T type) noexcept {
        for (const T each : list) {
            if (each == type) {
                return true;
            }
        }
        return false;
    }
};

/// What `device` can share with other APIs (the queries it makes report to `on_error` only when
/// the device itself cannot be queried; an unsupported capability is an empty answer).
ExternalCapabilities external_capabilities(const Device& device, OnError on_error = {});

/// The device's UUID (cl_khr_device_uuid), or nothing where the device does not report one.
std::optional<DeviceUuid> device_uuid(const Device& device, OnError on_error = {});

/// The device among `devices` whose UUID is `uuid`, or nothing.
std::optional<Device> find_device(std::span<const Device> devices, const DeviceUuid& uuid,
                                  OnError on_error = {});
/// The device of any platform whose UUID is `uuid` (the OpenCL device of the GPU a CUDA or Vulkan
/// device is), or nothing.
std::optional<Device> find_device(const DeviceUuid& uuid, OnError on_error = {});

/// Memory another API exported, to import with import_buffer(). The handle goes to the driver:
/// on a successful import it is the driver's (NVIDIA's closes the descriptor when the buffer is
/// released, measured on the 580 driver), so do not close or reuse it; import `dup(fd)` to keep
/// one. After a failed import it is still the caller's.
template <>
struct BasicExternalMemory<0> {
    /// What `handle` is.
    ExternalMemoryType type = ExternalMemoryType::opaque_fd;
    /// The file descriptor (opaque_fd, dma_buf) or Windows handle, as an integer.
    std::intptr_t handle = -1;
    /// The size to import, in bytes: the exporter's allocation or less (CUDA rounds allocations
    /// up to its granularity, 2 MiB on the H200). Must be a whole number of elements.
    std::size_t bytes = 0;
    /// The devices that use the memory (CL_MEM_DEVICE_HANDLE_LIST_KHR); empty: the driver's
    /// default, every device of the context.
    std::vector<Device> devices{};

    /// A POSIX file descriptor (CUDA's cuMemExportToShareableHandle with
    /// CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, Vulkan's vkGetMemoryFdKHR).
    static ExternalMemory opaque_fd(int fd, std::size_t bytes, std::vector<Device> devices = {}) {
        return ExternalMemory{ExternalMemoryType::opaque_fd, fd, bytes, std::move(devices)};
    }
    /// A Linux dma-buf file descriptor.
    static ExternalMemory dma_buf(int fd, std::size_t bytes, std::vector<Device> devices = {}) {
        return ExternalMemory{ExternalMemoryType::dma_buf, fd, bytes, std::move(devices)};
    }
};

namespace detail {

/// The extension entry points of one platform; null where the platform has none.
struct ExternalApi {
    using Semaphore = void*;  // cl_semaphore_khr
    using MemCommand = cl_int(CL_API_CALL*)(cl_command_queue, cl_uint, const cl_mem*, cl_uint,
                                            const cl_event*, cl_event*);
    using CreateSemaphore = Semaphore(CL_API_CALL*)(cl_context, const cl_ulong*, cl_int*);
    using SemaphoreCommand = cl_int(CL_API_CALL*)(cl_command_queue, cl_uint, const Semaphore*,
                                                  const cl_ulong*, cl_uint, const cl_event*,
                                                  cl_event*);
    using SemaphoreInfo = cl_int(CL_API_CALL*)(Semaphore, cl_uint, std::size_t, void*,
                                               std::size_t*);
    using SemaphoreRef = cl_int(CL_API_CALL*)(Semaphore);
    using SemaphoreHandle = cl_int(CL_API_CALL*)(Semaphore, cl_device_id, cl_uint, std::size_t,
                                                 void*, std::size_t*);

    // The values of the Khronos registry (cl_ext.h), spelled here so that older headers work.
    static constexpr cl_uint device_memory_import_types = 0x204F;
    static constexpr cl_ulong mem_device_list = 0x2051;  // CL_MEM_DEVICE_HANDLE_LIST_KHR
    static constexpr cl_uint device_semaphore_types = 0x204C;
    static constexpr cl_uint device_semaphore_import_types = 0x204D;
    static constexpr cl_uint device_semaphore_export_types = 0x204E;
    static constexpr cl_ulong semaphore_type = 0x203D;  // CL_SEMAPHORE_TYPE_KHR
    static constexpr cl_ulong semaphore_binary = 1;
    static constexpr cl_ulong semaphore_export_types = 0x203F;
    static constexpr cl_ulong semaphore_device_list = 0x2053;
    static constexpr cl_uint semaphore_context = 0x2039;
    static constexpr cl_uint semaphore_reference_count = 0x203A;
    static constexpr cl_uint device_uuid = 0x106A;
    static constexpr cl_uint driver_uuid = 0x106B;
    static constexpr cl_int invalid_semaphore = -1142;

    MemCommand acquire = nullptr;
    MemCommand release = nullptr;
    CreateSemaphore create_semaphore = nullptr;
    SemaphoreCommand wait = nullptr;
    SemaphoreCommand signal = nullptr;
    SemaphoreInfo semaphore_info = nullptr;
    SemaphoreRef retain_semaphore = nullptr;
    SemaphoreRef release_semaphore = nullptr;
    SemaphoreHandle semaphore_handle = nullptr;  // cl_khr_external_semaphore only
};

/// Finds the entry points of `platform` (an extension_table loader).
void load_external_api(cl_platform_id platform, ExternalApi& found);
/// The entry points of `platform` (found once, kept for the process: semaphores and buffers hold
/// pointers to the table).
const ExternalApi& external_api(const Platform& platform);

/// Refuses `call` for `device` unless it can import `type` (the reason names the device and what
/// it supports).
bool check_memory_import(const Device& device, ExternalMemoryType type, const char* call,
                         OnError on_error);

/// clCreateBufferWithProperties over `memory`: a memory object of memory.bytes bytes.
MemObject import_memory(const Context& context, const ExternalMemory& memory, Element element,
                        cl_mem_flags flags, OnError on_error);

/// clEnqueueAcquireExternalMemObjectsKHR (acquire) or clEnqueueReleaseExternalMemObjectsKHR.
void external_memory_command(const Queue& queue, const MemObject& memory, bool acquire,
                             const WaitList& wait, cl_event* event, OnError on_error);

/// What a Semaphore and its copies share: the handle, its platform's entry points, its context.
struct SemaphoreState {
    const ExternalApi* api = nullptr;
    ExternalApi::Semaphore handle = nullptr;
    Context context;
    std::vector<Device> devices;  // those it was made for (empty: the context's)
    bool exportable = false;

    SemaphoreState() = default;
    SemaphoreState(const SemaphoreState&) = delete;
    SemaphoreState& operator=(const SemaphoreState&) = delete;
    ~SemaphoreState() {
        if (handle != nullptr) {
            const cl_int code = api->release_semaphore(handle);
            if (code != CL_SUCCESS) {
                report_cleanup_failure("clReleaseSemaphoreKHR", code);
            }
        }
    }
};

}  // namespace detail

/// How a Semaphore is made.
template <>
struct BasicSemaphoreOptions<0> {
    /// Exportable as this handle type (Semaphore::export_fd), if set.
    std::optional<SemaphoreHandleType> export_as{};
    /// The devices it is for (CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR); empty: the context's.
    std::vector<Device> devices{};
};

/// A binary semaphore (cl_khr_semaphore): a queue signals it (Queue::signal) and another queue, or
/// another API that imported it, waits for it (Queue::wait), without the host in between. Copies
/// share one semaphore; the last one releases it (clReleaseSemaphoreKHR).
///
/// A binary semaphore is signalled once and waited for once: a wait that no signal will ever
/// satisfy blocks its queue, and clFinish with it, for ever (the driver cannot tell).
template <>
class BasicSemaphore<0> {
  public:
    BasicSemaphore() = default;

    /// A new binary semaphore of `context` (clCreateSemaphoreWithPropertiesKHR).
    explicit BasicSemaphore(const Context& context, const SemaphoreOptions& options = {},
                            OnError on_error = {});

    /// A semaphore another API exported as a file descriptor (Vulkan's vkGetSemaphoreFdKHR),
    /// imported into `context` (cl_khr_external_semaphore). The descriptor goes to the driver as
    /// ExternalMemory's does: after a successful import it is not the caller's any more.
    [[nodiscard]] static Semaphore import_fd(
        const Context& context, int fd, SemaphoreHandleType type = SemaphoreHandleType::opaque_fd,
        std::vector<Device> devices = {}, OnError on_error = {});

    /// A file descriptor for another API to import (clGetSemaphoreHandleForTypeKHR); the caller
    /// owns it. The semaphore must have been made with SemaphoreOptions::export_as == `type`.
    /// `device` defaults to the semaphore's first device.
    [[nodiscard]] int export_fd(SemaphoreHandleType type = SemaphoreHandleType::opaque_fd,
                                const Device& device = {}, OnError on_error = {}) const;

    /// The context it belongs to.
    const Context& context() const noexcept;
    /// True for an exportable semaphore.
    bool exportable() const noexcept { return state_ && state_->exportable; }
    /// The raw cl_semaphore_khr (not retained; null when empty).
    void* get() const noexcept { return state_ ? state_->handle : nullptr; }
    /// True when the object holds a semaphore.
    explicit operator bool() const noexcept { return state_ != nullptr; }
    friend bool operator==(const Semaphore& a, const Semaphore& b) noexcept {
        return a.get() == b.get();
    }

  private:
    template <class, class>
    friend struct detail::CommandTraits;
    static std::shared_ptr<detail::SemaphoreState> create(const Context& context,
                                                          std::vector<cl_ulong> properties,
                                                          std::vector<Device> devices,
                                                          bool exportable, const char* call,
                                                          OnError on_error);
    /// wait (true) or signal: clEnqueueWaitSemaphoresKHR / clEnqueueSignalSemaphoresKHR.
    void enqueue(const Queue& queue, bool wait_for_it, const WaitList& wait, cl_event* event,
                 OnError on_error) const;

    std::shared_ptr<detail::SemaphoreState> state_;
};

// ---- the queue's commands of this wing (detail::CommandTraits, queue.hpp's open commands) ----

namespace detail {
/// queue.acquire(buffer) hands a buffer made by import_buffer() to OpenCL before its commands
/// here use it (clEnqueueAcquireExternalMemObjectsKHR; enqueued). Options as the buffer
/// commands'.
template <class T, class A>
struct CommandTraits<Buffer<T, A>, verb::Acquire> {
    template <CommandOption... O>
    static EventIfAsked<O...> command(verb::Acquire, const Queue& queue, const Buffer<T, A>& buffer,
                                      O&&... options) {
        return run_command(
            [&](const WaitList& wait, cl_event* event, OnError on_error) {
                external_memory_command(queue, BufferAccess::mem(buffer), true, wait, event,
                                        on_error);
            },
            options...);
    }
};
/// queue.release(buffer) hands an imported buffer back to the API it came from after this
/// queue's commands on it (clEnqueueReleaseExternalMemObjectsKHR; enqueued).
template <class T, class A>
struct CommandTraits<Buffer<T, A>, verb::Release> {
    template <CommandOption... O>
    static EventIfAsked<O...> command(verb::Release, const Queue& queue, const Buffer<T, A>& buffer,
                                      O&&... options) {
        return run_command(
            [&](const WaitList& wait, cl_event* event, OnError on_error) {
                external_memory_command(queue, BufferAccess::mem(buffer), false, wait, event,
                                        on_error);
            },
            options...);
    }
};
/// queue.wait(semaphore): commands enqueued after this one wait until the semaphore is
/// signalled, by a queue or by the API that exported it (clEnqueueWaitSemaphoresKHR; enqueued).
/// queue.signal(semaphore): signals it once the commands before this one have completed
/// (clEnqueueSignalSemaphoresKHR; enqueued). NVIDIA 580 does not return from either while a
/// command it depends on (a wait list, or an earlier command of the queue) waits for an
/// incomplete UserEvent (docs/interop.md): complete such events on another thread.
template <class Verb>
struct CommandTraits<Semaphore, Verb> {
    template <CommandOption... O>
    static EventIfAsked<O...> command(verb::Wait, const Queue& queue, const Semaphore& semaphore,
                                      O&&... options) {
        return run_command(
            [&](const WaitList& wait, cl_event* event, OnError on_error) {
                semaphore.enqueue(queue, true, wait, event, on_error);
            },
            options...);
    }
    template <CommandOption... O>
    static EventIfAsked<O...> command(verb::Signal, const Queue& queue, const Semaphore& semaphore,
                                      O&&... options) {
        return run_command(
            [&](const WaitList& wait, cl_event* event, OnError on_error) {
                semaphore.enqueue(queue, false, wait, event, on_error);
            },
            options...);
    }
};
}  // namespace detail

/// Memory another API exported, as a Buffer<T, Access> over the same memory (no copy):
/// clCreateBufferWithProperties with the handle (cl_khr_external_memory). `memory.bytes` must be
/// a whole number of T; every device that is to use it must import the handle type. Bracket the
/// buffer's OpenCL commands with queue.acquire(buffer) and queue.release(buffer),
/// and synchronise with the other API (a semaphore, or its own wait) before each side uses it.
template <class T, class Access = ReadWrite>
[[nodiscard]] Buffer<T, Access> import_buffer(const Context& context, const ExternalMemory& memory,
                                              OnError on_error = {}) {
    static_assert(
        std::is_trivially_copyable_v<T>,
        "import_buffer<T>: T must be trivially copyable (it is memory another API wrote)");
    return detail::BufferAccess::make<T, Access>(detail::import_memory(
        context, memory, detail::Element{sizeof(T), Access::name}, Access::flags, on_error));
}

OPENCLAW_END_NAMESPACE

#if OPENCLAW_HEADER_ONLY
#include <openclaw/impl/external.ipp>
#endif

#include <openclaw/detail/base/macros_pop.hpp>
