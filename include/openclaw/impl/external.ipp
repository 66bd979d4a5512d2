// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-template bodies declared in <openclaw/external.hpp>: compiled once into the openclaw
// library (src/), or included by that header itself when openclaw is header-only.

#include <openclaw/external.hpp>

OPENCLAW_BEGIN_NAMESPACE

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

OPENCLAW_INLINE void load_external_api(cl_platform_id platform, ExternalApi& found) {
    const auto find = [&](auto& slot, const char* name) { load_entry(platform, slot, name); };
    find(found.acquire, "clEnqueueAcquireExternalMemObjectsKHR");
    find(found.release, "clEnqueueReleaseExternalMemObjectsKHR");
    find(found.create_semaphore, "clCreateSemaphoreWithPropertiesKHR");
    find(found.wait, "clEnqueueWaitSemaphoresKHR");
    find(found.signal, "clEnqueueSignalSemaphoresKHR");
    find(found.semaphore_info, "clGetSemaphoreInfoKHR");
    find(found.retain_semaphore, "clRetainSemaphoreKHR");
    find(found.release_semaphore, "clReleaseSemaphoreKHR");
    find(found.semaphore_handle, "clGetSemaphoreHandleForTypeKHR");
}

OPENCLAW_INLINE const ExternalApi& external_api(const Platform& platform) {
    return extension_table<ExternalApi, load_external_api>(platform);
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
    const ReportScope reports_about(queue.context_handle());
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
    const Platform platform = targets.front().platform(step);
    if (step.failed()) {
        return nullptr;
    }
    const ExternalApi& api = detail::external_api(platform);
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

OPENCLAW_INLINE Semaphore::BasicSemaphore(const Context& context, const SemaphoreOptions& options,
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

OPENCLAW_END_NAMESPACE
