// SPDX-License-Identifier: Apache-2.0
#pragma once
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

/// How another API hands out memory (cl_external_memory_handle_type_khr).
enum class ExternalMemoryType : cl_uint {
    opaque_fd = 0x2060,  ///< a POSIX file descriptor (CUDA's cuMemExportToShareableHandle, Vulkan)
    opaque_win32 = 0x2061,      ///< a Windows NT handle
    opaque_win32_kmt = 0x2062,  ///< a Windows global share handle
    d3d11_texture = 0x2063,
    d3d11_texture_kmt = 0x2064,
    d3d12_heap = 0x2065,
    d3d12_resource = 0x2066,
    dma_buf = 0x2067,  ///< a Linux dma-buf file descriptor
};

/// How another API hands out a semaphore (cl_external_semaphore_handle_type_khr).
enum class SemaphoreHandleType : cl_uint {
    opaque_fd = 0x2055,  ///< a POSIX file descriptor (Vulkan's
                         ///< VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT)
    opaque_win32 = 0x2056,
    opaque_win32_kmt = 0x2057,
    sync_fd = 0x2058,  ///< a Linux sync file
    d3d12_fence = 0x2059,
};

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
struct DeviceUuid {
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
struct ExternalCapabilities {
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
struct ExternalMemory {
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
struct SemaphoreOptions {
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
class Semaphore {
  public:
    Semaphore() = default;

    /// A new binary semaphore of `context` (clCreateSemaphoreWithPropertiesKHR).
    explicit Semaphore(const Context& context, const SemaphoreOptions& options = {},
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
    friend class Queue;
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

// ---- Queue commands declared in queue.hpp ----------------------------------------------------

template <class T, class A>
void Queue::acquire_external(const Buffer<T, A>& buffer, const WaitList& wait,
                             OnError on_error) const {
    detail::external_memory_command(*this, detail::BufferAccess::mem(buffer), true, wait, nullptr,
                                    on_error);
}
template <class T, class A>
Event Queue::acquire_external(const Buffer<T, A>& buffer, WithEvent, const WaitList& wait,
                              OnError on_error) const {
    cl_event raw = nullptr;
    detail::external_memory_command(*this, detail::BufferAccess::mem(buffer), true, wait, &raw,
                                    on_error);
    return Event::adopt(raw);
}
template <class T, class A>
void Queue::release_external(const Buffer<T, A>& buffer, const WaitList& wait,
                             OnError on_error) const {
    detail::external_memory_command(*this, detail::BufferAccess::mem(buffer), false, wait, nullptr,
                                    on_error);
}
template <class T, class A>
Event Queue::release_external(const Buffer<T, A>& buffer, WithEvent, const WaitList& wait,
                              OnError on_error) const {
    cl_event raw = nullptr;
    detail::external_memory_command(*this, detail::BufferAccess::mem(buffer), false, wait, &raw,
                                    on_error);
    return Event::adopt(raw);
}
template <std::same_as<Semaphore> S>
void Queue::wait(const S& semaphore, const WaitList& wait, OnError on_error) const {
    semaphore.enqueue(*this, true, wait, nullptr, on_error);
}
template <std::same_as<Semaphore> S>
Event Queue::wait(const S& semaphore, WithEvent, const WaitList& wait, OnError on_error) const {
    cl_event raw = nullptr;
    semaphore.enqueue(*this, true, wait, &raw, on_error);
    return Event::adopt(raw);
}
template <std::same_as<Semaphore> S>
void Queue::signal(const S& semaphore, const WaitList& wait, OnError on_error) const {
    semaphore.enqueue(*this, false, wait, nullptr, on_error);
}
template <std::same_as<Semaphore> S>
Event Queue::signal(const S& semaphore, WithEvent, const WaitList& wait, OnError on_error) const {
    cl_event raw = nullptr;
    semaphore.enqueue(*this, false, wait, &raw, on_error);
    return Event::adopt(raw);
}

/// Memory another API exported, as a Buffer<T, Access> over the same memory (no copy):
/// clCreateBufferWithProperties with the handle (cl_khr_external_memory). `memory.bytes` must be
/// a whole number of T; every device that is to use it must import the handle type. Bracket the
/// buffer's OpenCL commands with queue.acquire_external(buffer) and queue.release_external(buffer),
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

#if OPENCLAW_OUT_OF_LINE_DEFINITIONS
namespace detail {

namespace external {

inline bool extension(const Device& device, const char* name, OnError on_error) {
    Relay step(on_error);
    const bool has = device.supports_extension(name, step);
    return has && !step.failed();
}

/// A list-valued device query of cl_uint values, empty where it fails.
template <class E>
std::vector<E> handle_types(const Device& device, cl_uint query) {
    std::size_t size = 0;
    if (clGetDeviceInfo(device.get(), query, 0, nullptr, &size) != CL_SUCCESS ||
        size % sizeof(cl_uint) != 0) {
        return {};
    }
    std::vector<cl_uint> raw(size / sizeof(cl_uint));
    if (!raw.empty() &&
        clGetDeviceInfo(device.get(), query, size, raw.data(), nullptr) != CL_SUCCESS) {
        return {};
    }
    std::vector<E> types;
    types.reserve(raw.size());
    for (const cl_uint each : raw) {
        types.push_back(static_cast<E>(each));
    }
    return types;
}

template <class E>
std::string list(const std::vector<E>& types) {
    if (types.empty()) {
        return "none";
    }
    std::string text;
    for (const E each : types) {
        if (!text.empty()) {
            text += ", ";
        }
        const std::string_view name = to_string(each);
        text += name == "unknown" ? concat("0x", static_cast<unsigned>(each)) : std::string(name);
    }
    return text;
}

inline std::string device_name(const Device& device) {
    return describe_safely([&](OnError quiet) { return concat('"', device.name(quiet), '"'); });
}

/// The devices `devices` names, or the context's.
inline std::vector<Device> targets(const Context& context, const std::vector<Device>& devices,
                                   OnError on_error) {
    return devices.empty() ? context.devices(on_error) : devices;
}

}  // namespace external

OPENCLAW_INLINE const ExternalApi& external_api(const Platform& platform) {
    // One table per platform, filled once and never changed; an unknown platform past the last
    // slot gets the empty table (no entry points: every call is refused).
    static std::array<std::pair<cl_platform_id, ExternalApi>, 8> tables{};
    static std::size_t filled = 0;
    static const ExternalApi none{};
    static std::mutex filling;
    const std::lock_guard lock(filling);
    for (std::size_t i = 0; i < filled; ++i) {
        if (tables[i].first == platform.get()) {
            return tables[i].second;
        }
    }
    if (filled == tables.size()) {
        return none;
    }
    const auto find = [&](auto& slot, const char* name) {
        slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(
            clGetExtensionFunctionAddressForPlatform(platform.get(), name));
    };
    ExternalApi found;
    find(found.acquire, "clEnqueueAcquireExternalMemObjectsKHR");
    find(found.release, "clEnqueueReleaseExternalMemObjectsKHR");
    find(found.create_semaphore, "clCreateSemaphoreWithPropertiesKHR");
    find(found.wait, "clEnqueueWaitSemaphoresKHR");
    find(found.signal, "clEnqueueSignalSemaphoresKHR");
    find(found.semaphore_info, "clGetSemaphoreInfoKHR");
    find(found.retain_semaphore, "clRetainSemaphoreKHR");
    find(found.release_semaphore, "clReleaseSemaphoreKHR");
    find(found.semaphore_handle, "clGetSemaphoreHandleForTypeKHR");
    tables[filled] = {platform.get(), found};
    return tables[filled++].second;
}

OPENCLAW_INLINE bool check_memory_import(const Device& device, ExternalMemoryType type,
                                         const char* call, OnError on_error) {
    if (!external::extension(device, "cl_khr_external_memory", on_error)) {
        fail(on_error, CL_INVALID_OPERATION, call,
             concat("device ", external::device_name(device),
                    " has no cl_khr_external_memory (it cannot import memory of other APIs)"));
        return false;
    }
    const auto types =
        external::handle_types<ExternalMemoryType>(device, ExternalApi::device_memory_import_types);
    for (const ExternalMemoryType each : types) {
        if (each == type) {
            return true;
        }
    }
    fail(on_error, CL_INVALID_OPERATION, call,
         concat("device ", external::device_name(device), " cannot import ", to_string(type),
                " memory (it imports: ", external::list(types), ")"));
    return false;
}

OPENCLAW_INLINE MemObject import_memory(const Context& context, const ExternalMemory& memory,
                                        Element element, cl_mem_flags flags, OnError on_error) {
    constexpr const char* call = "import_buffer";
    if (!context) {
        refuse_empty(on_error, CL_INVALID_CONTEXT, call, "context");
        return {};
    }
    if (memory.bytes == 0 || memory.bytes % element.size != 0) {
        fail(on_error, CL_INVALID_BUFFER_SIZE, call,
             memory.bytes == 0
                 ? std::string("the external memory's size is 0 bytes")
                 : concat("the external memory's ", memory.bytes,
                          " bytes are not a whole number of ", element.size, "-byte elements"));
        return {};
    }
    if (memory.handle < 0 && (memory.type == ExternalMemoryType::opaque_fd ||
                              memory.type == ExternalMemoryType::dma_buf)) {
        fail(on_error, CL_INVALID_VALUE, call,
             concat("the ", to_string(memory.type), " handle is ", memory.handle,
                    ", not a file descriptor"));
        return {};
    }
    if (!check_context_devices(context, memory.devices, call, on_error)) {
        return {};
    }
    Relay step(on_error);
    const std::vector<Device> devices = external::targets(context, memory.devices, step);
    if (step.failed()) {
        return {};
    }
    for (const Device& device : devices) {
        if (!check_memory_import(device, memory.type, call, on_error)) {
            return {};
        }
    }
#if CL_TARGET_OPENCL_VERSION >= 300
    const Platform platform = devices.front().platform(step);
    const Version version = platform.version(step);
    if (step.failed()) {
        return {};
    }
    if (version < Version{3, 0}) {
        fail(on_error, CL_INVALID_OPERATION, call,
             concat("the platform is OpenCL ", version.major, '.', version.minor,
                    "; importing memory needs clCreateBufferWithProperties (OpenCL 3.0)"));
        return {};
    }
    std::vector<cl_mem_properties> properties{static_cast<cl_mem_properties>(memory.type),
                                              static_cast<cl_mem_properties>(memory.handle)};
    if (!memory.devices.empty()) {
        properties.push_back(ExternalApi::mem_device_list);
        for (const Device& device : memory.devices) {
            properties.push_back(reinterpret_cast<cl_mem_properties>(device.get()));
        }
        properties.push_back(0);  // CL_MEM_DEVICE_HANDLE_LIST_END_KHR
    }
    properties.push_back(0);
    cl_int code = CL_SUCCESS;
    cl_mem raw = clCreateBufferWithProperties(context.get(), properties.data(), flags, memory.bytes,
                                              nullptr, &code);
    raw = created_or_null(raw, code);  // NVIDIA returns an object with a failed import's error
    if (raw == nullptr && code == CL_SUCCESS) {
        code = CL_INVALID_MEM_OBJECT;  // a driver that returns no object and no code
    }
    if (!check(code, "clCreateBufferWithProperties", on_error, [&] {
            return concat("import of ", memory.bytes, " bytes of ", to_string(memory.type),
                          " memory (handle ", memory.handle, ") as a ", element.access, " buffer");
        })) {
        return {};
    }
    MemObject imported = describe_buffer(Handle<cl_mem>::adopt(raw), element, on_error);
    imported.external = imported.get() != nullptr;
    return imported;
#else
    (void)flags;
    fail(on_error, CL_INVALID_OPERATION, call,
         "openclaw was compiled for OpenCL before 3.0 (CL_TARGET_OPENCL_VERSION), which has no "
         "clCreateBufferWithProperties");
    return {};
#endif
}

OPENCLAW_INLINE void external_memory_command(const Queue& queue, const MemObject& memory,
                                             bool acquire, const WaitList& wait, cl_event* event,
                                             OnError on_error) {
    const char* call =
        acquire ? "clEnqueueAcquireExternalMemObjectsKHR" : "clEnqueueReleaseExternalMemObjectsKHR";
    if (!queue) {
        refuse_empty(on_error, CL_INVALID_COMMAND_QUEUE, call, "queue");
        return;
    }
    if (!memory.get()) {
        refuse_empty(on_error, CL_INVALID_MEM_OBJECT, call, "buffer");
        return;
    }
    if (!memory.external) {
        fail(on_error, CL_INVALID_MEM_OBJECT, call,
             memory.root ? "the buffer is a sub-buffer: acquire and release the imported buffer "
                           "it was cut from"
                         : "the buffer was not made by import_buffer: only memory imported from "
                           "another API is acquired and released");
        return;
    }
    if (memory.context != queue.context_handle()) {
        fail(on_error, CL_INVALID_CONTEXT, call,
             "the buffer belongs to another context than the queue");
        return;
    }
    if (!wait.check(call, queue.context_handle(), on_error)) {
        return;
    }
    Relay step(on_error);
    const Device device = queue.device(step);
    const Platform platform = device.platform(step);
    if (step.failed()) {
        return;
    }
    const ExternalApi& api = external_api(platform);
    const ExternalApi::MemCommand command = acquire ? api.acquire : api.release;
    if (command == nullptr) {
        fail(on_error, CL_INVALID_OPERATION, "clGetExtensionFunctionAddressForPlatform",
             concat("the platform imported the memory (cl_khr_external_memory) and returned no ",
                    call));
        return;
    }
    const cl_mem raw = memory.get();
    (void)check(enqueued(command(queue.get(), 1, &raw, wait.size(), wait.data(), event), event),
                call, on_error);
}

}  // namespace detail

OPENCLAW_INLINE ExternalCapabilities external_capabilities(const Device& device, OnError on_error) {
    ExternalCapabilities caps;
    if (!device) {
        detail::refuse_empty(on_error, CL_INVALID_DEVICE, "external_capabilities", "device");
        return caps;
    }
    detail::Relay step(on_error);
    const Platform platform = device.platform(step);
    const Version version = platform.version(step);
    const bool memory = detail::external::extension(device, "cl_khr_external_memory", step);
    const bool semaphores = detail::external::extension(device, "cl_khr_semaphore", step);
    const bool external_semaphores =
        detail::external::extension(device, "cl_khr_external_semaphore", step);
    const bool uuid = detail::external::extension(device, "cl_khr_device_uuid", step);
    if (step.failed()) {
        return caps;
    }
    using Api = detail::ExternalApi;
    caps.memory = memory && version >= Version{3, 0} && CL_TARGET_OPENCL_VERSION >= 300;
    if (caps.memory) {
        caps.memory_import = detail::external::handle_types<ExternalMemoryType>(
            device, Api::device_memory_import_types);
    }
    if (semaphores) {
        const auto types =
            detail::external::handle_types<cl_uint>(device, Api::device_semaphore_types);
        caps.semaphore_types_reported = !types.empty();
        bool binary = types.empty();  // the query failed: the extension requires binary ones
        for (const cl_uint each : types) {
            binary = binary || each == Api::semaphore_binary;
        }
        caps.semaphores = binary;
    }
    if (caps.semaphores && external_semaphores) {
        caps.semaphore_import = detail::external::handle_types<SemaphoreHandleType>(
            device, Api::device_semaphore_import_types);
        caps.semaphore_export = detail::external::handle_types<SemaphoreHandleType>(
            device, Api::device_semaphore_export_types);
    }
    if (uuid) {
        caps.uuid = device_uuid(device, on_error);
        DeviceUuid driver;
        if (clGetDeviceInfo(device.get(), Api::driver_uuid, driver.bytes.size(),
                            driver.bytes.data(), nullptr) == CL_SUCCESS) {
            caps.driver_uuid = driver;
        }
    }
    return caps;
}

OPENCLAW_INLINE std::optional<DeviceUuid> device_uuid(const Device& device, OnError on_error) {
    if (!device) {
        detail::refuse_empty(on_error, CL_INVALID_DEVICE, "device_uuid", "device");
        return std::nullopt;
    }
    if (!detail::external::extension(device, "cl_khr_device_uuid", on_error)) {
        return std::nullopt;
    }
    DeviceUuid uuid;
    if (!detail::check(clGetDeviceInfo(device.get(), detail::ExternalApi::device_uuid,
                                       uuid.bytes.size(), uuid.bytes.data(), nullptr),
                       "clGetDeviceInfo", on_error, [] { return "query CL_DEVICE_UUID_KHR"; })) {
        return std::nullopt;
    }
    return uuid;
}

OPENCLAW_INLINE std::optional<Device> find_device(std::span<const Device> devices,
                                                  const DeviceUuid& uuid, OnError on_error) {
    for (const Device& device : devices) {
        detail::Relay step(on_error);
        const std::optional<DeviceUuid> found = device_uuid(device, step);
        if (step.failed()) {
            return std::nullopt;
        }
        if (found && *found == uuid) {
            return device;
        }
    }
    return std::nullopt;
}

OPENCLAW_INLINE std::optional<Device> find_device(const DeviceUuid& uuid, OnError on_error) {
    detail::Relay step(on_error);
    for (const Platform& platform : Platform::list(step)) {
        const std::vector<Device> devices = platform.devices(DeviceType::all, step);
        if (step.failed()) {
            return std::nullopt;
        }
        if (std::optional<Device> found = find_device(devices, uuid, step)) {
            return found;
        }
        if (step.failed()) {
            return std::nullopt;
        }
    }
    return std::nullopt;
}

OPENCLAW_INLINE std::shared_ptr<detail::SemaphoreState> Semaphore::create(
    const Context& context, std::vector<cl_ulong> properties, std::vector<Device> devices,
    bool exportable, const char* call, OnError on_error) {
    using detail::ExternalApi;
    if (!context) {
        detail::refuse_empty(on_error, CL_INVALID_CONTEXT, call, "context");
        return nullptr;
    }
    if (!detail::check_context_devices(context, devices, call, on_error)) {
        return nullptr;
    }
    detail::Relay step(on_error);
    const std::vector<Device> targets = detail::external::targets(context, devices, step);
    if (step.failed() || targets.empty()) {
        return nullptr;
    }
    for (const Device& device : targets) {
        const ExternalCapabilities caps = external_capabilities(device, step);
        if (step.failed()) {
            return nullptr;
        }
        if (!caps.semaphores) {
            detail::fail(on_error, CL_INVALID_OPERATION, call,
                         detail::concat("device ", detail::external::device_name(device),
                                        " has no cl_khr_semaphore (binary semaphores)"));
            return nullptr;
        }
    }
    const ExternalApi& api = detail::external_api(targets.front().platform(step));
    if (step.failed()) {
        return nullptr;
    }
    const char* missing = !api.create_semaphore    ? "clCreateSemaphoreWithPropertiesKHR"
                          : !api.wait              ? "clEnqueueWaitSemaphoresKHR"
                          : !api.signal            ? "clEnqueueSignalSemaphoresKHR"
                          : !api.release_semaphore ? "clReleaseSemaphoreKHR"
                                                   : nullptr;
    if (missing != nullptr) {
        detail::fail(
            on_error, CL_INVALID_OPERATION, "clGetExtensionFunctionAddressForPlatform",
            detail::concat("the device reports cl_khr_semaphore, the platform returned no ",
                           missing));
        return nullptr;
    }
    if (!devices.empty()) {
        properties.push_back(ExternalApi::semaphore_device_list);
        for (const Device& device : devices) {
            properties.push_back(reinterpret_cast<cl_ulong>(device.get()));
        }
        properties.push_back(0);  // CL_SEMAPHORE_DEVICE_HANDLE_LIST_END_KHR
    }
    properties.push_back(0);
    auto state = std::make_shared<detail::SemaphoreState>();
    cl_int code = CL_SUCCESS;
    void* raw = api.create_semaphore(context.get(), properties.data(), &code);
    if (raw != nullptr && code != CL_SUCCESS) {
        (void)api.release_semaphore(raw);  // released before the error is raised
        raw = nullptr;
    }
    if (raw == nullptr && code == CL_SUCCESS) {
        code = ExternalApi::invalid_semaphore;  // a driver that returns no object and no code
    }
    if (!detail::check(code, "clCreateSemaphoreWithPropertiesKHR", on_error, [&] {
            return detail::concat(call, ": a binary semaphore for ", targets.size(),
                                  " device(s), first ",
                                  detail::external::device_name(targets.front()));
        })) {
        return nullptr;
    }
    state->api = &api;
    state->handle = raw;
    state->context = context;
    state->devices = std::move(devices);
    state->exportable = exportable;
    return state;
}

OPENCLAW_INLINE Semaphore::Semaphore(const Context& context, const SemaphoreOptions& options,
                                     OnError on_error) {
    using detail::ExternalApi;
    constexpr const char* call = "Semaphore";
    std::vector<cl_ulong> properties{ExternalApi::semaphore_type, ExternalApi::semaphore_binary};
    if (options.export_as) {
        if (!detail::check_context_devices(context, options.devices, call, on_error)) {
            return;
        }
        detail::Relay step(on_error);
        const std::vector<Device> targets =
            context ? detail::external::targets(context, options.devices, step)
                    : std::vector<Device>{};
        if (step.failed()) {
            return;
        }
        for (const Device& device : targets) {
            const ExternalCapabilities caps = external_capabilities(device, step);
            if (step.failed()) {
                return;
            }
            if (caps.semaphores && !caps.exports(*options.export_as)) {
                detail::fail(on_error, CL_INVALID_OPERATION, call,
                             detail::concat("device ", detail::external::device_name(device),
                                            " cannot export semaphores as ",
                                            to_string(*options.export_as), " (it exports: ",
                                            detail::external::list(caps.semaphore_export), ")"));
                return;
            }
        }
        properties.push_back(ExternalApi::semaphore_export_types);
        properties.push_back(static_cast<cl_ulong>(*options.export_as));
        properties.push_back(0);  // CL_SEMAPHORE_EXPORT_HANDLE_TYPES_LIST_END_KHR
    }
    state_ = create(context, std::move(properties), options.devices, options.export_as.has_value(),
                    call, on_error);
}

OPENCLAW_INLINE Semaphore Semaphore::import_fd(const Context& context, int fd,
                                               SemaphoreHandleType type,
                                               std::vector<Device> devices, OnError on_error) {
    using detail::ExternalApi;
    constexpr const char* call = "Semaphore::import_fd";
    if (fd < 0) {
        detail::fail(
            on_error, CL_INVALID_VALUE, call,
            detail::concat("the ", to_string(type), " handle is ", fd, ", not a file descriptor"));
        return {};
    }
    if (!detail::check_context_devices(context, devices, call, on_error)) {
        return {};
    }
    detail::Relay step(on_error);
    const std::vector<Device> targets =
        context ? detail::external::targets(context, devices, step) : std::vector<Device>{};
    if (step.failed()) {
        return {};
    }
    for (const Device& device : targets) {
        const ExternalCapabilities caps = external_capabilities(device, step);
        if (step.failed()) {
            return {};
        }
        if (caps.semaphores && !caps.imports(type)) {
            detail::fail(
                on_error, CL_INVALID_OPERATION, call,
                detail::concat("device ", detail::external::device_name(device), " cannot import ",
                               to_string(type), " semaphores (it imports: ",
                               detail::external::list(caps.semaphore_import), ")"));
            return {};
        }
    }
    Semaphore semaphore;
    semaphore.state_ = create(context,
                              {ExternalApi::semaphore_type, ExternalApi::semaphore_binary,
                               static_cast<cl_ulong>(type), static_cast<cl_ulong>(fd)},
                              std::move(devices), false, call, on_error);
    return semaphore;
}

OPENCLAW_INLINE int Semaphore::export_fd(SemaphoreHandleType type, const Device& device,
                                         OnError on_error) const {
    constexpr const char* call = "clGetSemaphoreHandleForTypeKHR";
    if (!state_) {
        detail::refuse_empty(on_error, detail::ExternalApi::invalid_semaphore, call, "semaphore");
        return -1;
    }
    if (!state_->exportable) {
        detail::fail(on_error, CL_INVALID_OPERATION, call,
                     detail::concat("the semaphore was not made exportable (SemaphoreOptions{."
                                    "export_as = SemaphoreHandleType::",
                                    to_string(type), "})"));
        return -1;
    }
    if (state_->api->semaphore_handle == nullptr) {
        detail::fail(on_error, CL_INVALID_OPERATION, "clGetExtensionFunctionAddressForPlatform",
                     "the platform returned no clGetSemaphoreHandleForTypeKHR");
        return -1;
    }
    Device target = device;
    if (!target) {
        detail::Relay step(on_error);
        const std::vector<Device> targets =
            detail::external::targets(state_->context, state_->devices, step);
        if (step.failed() || targets.empty()) {
            return -1;
        }
        target = targets.front();
    }
    int fd = -1;
    if (!detail::check(
            state_->api->semaphore_handle(state_->handle, target.get(), static_cast<cl_uint>(type),
                                          sizeof(fd), &fd, nullptr),
            call, on_error, [&] {
                return detail::concat("export as ", to_string(type), " for device ",
                                      detail::external::device_name(target));
            })) {
        return -1;
    }
    return fd;
}

OPENCLAW_INLINE const Context& Semaphore::context() const noexcept {
    static const Context none;
    return state_ ? state_->context : none;
}

OPENCLAW_INLINE void Semaphore::enqueue(const Queue& queue, bool wait_for_it, const WaitList& wait,
                                        cl_event* event, OnError on_error) const {
    const char* call = wait_for_it ? "clEnqueueWaitSemaphoresKHR" : "clEnqueueSignalSemaphoresKHR";
    if (!queue) {
        detail::refuse_empty(on_error, CL_INVALID_COMMAND_QUEUE, call, "queue");
        return;
    }
    if (!state_) {
        detail::refuse_empty(on_error, detail::ExternalApi::invalid_semaphore, call, "semaphore");
        return;
    }
    if (state_->context.get() != queue.context_handle()) {
        detail::fail(on_error, CL_INVALID_CONTEXT, call,
                     "the semaphore belongs to another context than the queue");
        return;
    }
    if (!wait.check(call, queue.context_handle(), on_error)) {
        return;
    }
    const auto command = wait_for_it ? state_->api->wait : state_->api->signal;
    void* const handle = state_->handle;
    (void)detail::check(
        detail::enqueued(command(queue.get(), 1, &handle, nullptr, wait.size(), wait.data(), event),
                         event),
        call, on_error);
}
#endif  // OPENCLAW_OUT_OF_LINE_DEFINITIONS

OPENCLAW_END_NAMESPACE
