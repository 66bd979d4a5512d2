// SPDX-License-Identifier: Apache-2.0
// The external memory and semaphore test double (support/external_emulation.hpp says what it
// emulates). Entry points defined here are the program's; they forward to the next definition
// (the fault-injection interposer when it is loaded, then the ICD loader) through dlsym(RTLD_NEXT).
#undef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#include "support/external_emulation.hpp"

#include <CL/cl.h>
#include <dlfcn.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace openclaw_test {

namespace {

template <class F>
F next(const char* name) {
    return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}
#define OPENCLAW_NEXT(name) static const auto real = openclaw_test::next<decltype(&::name)>(#name)

std::atomic<bool> active{false};
ExternalEmulation config;  // written only while no emulated call runs (by EmulateExternal)

/// The interposer's verdict on an emulated call: the code it is to fail with, or CL_SUCCESS.
cl_int injected(const char* name) {
    using Decide = cl_int (*)(const char*);
    static const auto decide = reinterpret_cast<Decide>(dlsym(RTLD_DEFAULT, "openclaw_fi_call"));
    return decide != nullptr ? decide(name) : CL_SUCCESS;
}

constexpr cl_uint memory_import_types = 0x204F;
constexpr cl_uint semaphore_types = 0x204C;
constexpr cl_uint semaphore_import_types = 0x204D;
constexpr cl_uint semaphore_export_types = 0x204E;
constexpr cl_uint device_uuid = 0x106A;
constexpr cl_uint driver_uuid = 0x106B;
constexpr cl_mem_properties opaque_fd_memory = 0x2060;
constexpr cl_mem_properties mem_device_list = 0x2051;
constexpr cl_ulong semaphore_type = 0x203D;
constexpr cl_ulong export_types = 0x203F;
constexpr cl_ulong semaphore_device_list = 0x2053;
constexpr cl_ulong opaque_fd_semaphore = 0x2055;
constexpr cl_uint semaphore_context = 0x2039;
constexpr cl_uint semaphore_reference_count = 0x203A;
constexpr cl_int invalid_semaphore = -1142;
constexpr cl_int invalid_property = -64;

cl_int answer(const void* data, size_t bytes, size_t size, void* value, size_t* size_ret) {
    if (size_ret != nullptr) {
        *size_ret = bytes;
    }
    if (value != nullptr) {
        if (size < bytes) {
            return CL_INVALID_VALUE;
        }
        std::memcpy(value, data, bytes);
    }
    return CL_SUCCESS;
}

// ---- semaphores ----------------------------------------------------------------------------

/// What a semaphore and its imports share: signalled or not, and the waits not yet satisfied.
struct Payload {
    std::mutex mutex;
    bool signalled = false;
    std::deque<cl_event> waiters;  // user events, completed in order by signals

    Payload() = default;
    Payload(const Payload&) = delete;
    Payload& operator=(const Payload&) = delete;
    // Waits no signal can satisfy any more fail (a real driver's would block for ever), so that
    // their queue drains and nothing stays referenced.
    ~Payload() {
        for (cl_event waiter : waiters) {
            (void)clSetUserEventStatus(waiter, CL_INVALID_OPERATION);
            (void)clReleaseEvent(waiter);
        }
    }
};

struct Semaphore {
    std::uint32_t magic = 0x5e3a9402;
    std::atomic<int> references{1};
    cl_context context = nullptr;
    bool exportable = false;
    int imported_fd = -1;  // closed when the semaphore goes, as a driver that took it would
    std::shared_ptr<Payload> payload = std::make_shared<Payload>();
};

std::mutex registry_mutex;
std::map<int, std::shared_ptr<Payload>> exported;  // descriptor -> the payload it carries
std::map<cl_mem, std::pair<int, int>> imports;     // imported memory -> acquires, releases
std::map<cl_mem, std::pair<int, int>> finished;    // counts of destroyed imports, for commands()
std::atomic<int> live_semaphores{0};

Semaphore* semaphore_of(void* handle) {
    auto* s = static_cast<Semaphore*>(handle);
    return s != nullptr && s->magic == 0x5e3a9402 && s->references.load() > 0 ? s : nullptr;
}

void signal_payload(Payload& payload) {
    cl_event waiter = nullptr;
    {
        const std::lock_guard lock(payload.mutex);
        if (payload.waiters.empty()) {
            payload.signalled = true;
            return;
        }
        waiter = payload.waiters.front();
        payload.waiters.pop_front();
    }
    (void)clSetUserEventStatus(waiter, CL_COMPLETE);
    (void)clReleaseEvent(waiter);  // the payload's reference
}

// Signals whose marker's callback has not finished yet: the callback releases the waiter it
// completes only after completing it, so a program could end between the two (the leak check then
// counts the waiter); EmulateExternal's destructor waits for them.
std::atomic<int> signals_in_flight{0};

void CL_CALLBACK signal_when_done(cl_event, cl_int, void* data) {
    auto* payload = static_cast<std::shared_ptr<Payload>*>(data);
    signal_payload(**payload);
    delete payload;
    signals_in_flight.fetch_sub(1);
}

void* CL_API_CALL create_semaphore(cl_context context, const cl_ulong* properties,
                                   cl_int* errcode_ret) {
    const auto result = [&](cl_int code) {
        if (errcode_ret != nullptr) {
            *errcode_ret = code;
        }
        return nullptr;
    };
    if (const cl_int code = injected("clCreateSemaphoreWithPropertiesKHR")) {
        return result(code);
    }
    if (context == nullptr) {
        return result(CL_INVALID_CONTEXT);
    }
    auto semaphore = std::make_unique<Semaphore>();
    semaphore->context = context;
    bool binary = false;
    for (const cl_ulong* p = properties; p != nullptr && *p != 0;) {
        if (p[0] == semaphore_type) {
            binary = p[1] == 1;
            p += 2;
        } else if (p[0] == export_types) {
            for (p += 1; *p != 0; ++p) {
                if (*p != opaque_fd_semaphore || !config.exports) {
                    return result(invalid_property);
                }
                semaphore->exportable = true;
            }
            p += 1;
        } else if (p[0] == semaphore_device_list) {
            for (p += 1; *p != 0; ++p) {
            }
            p += 1;
        } else if (p[0] == opaque_fd_semaphore) {
            const int fd = static_cast<int>(p[1]);
            const std::lock_guard lock(registry_mutex);
            const auto it = exported.find(fd);
            if (it == exported.end()) {
                return result(CL_INVALID_VALUE);  // not a descriptor of an exported semaphore
            }
            semaphore->payload = it->second;
            semaphore->imported_fd = fd;
            exported.erase(it);
            p += 2;
        } else {
            return result(invalid_property);
        }
    }
    if (!binary) {
        return result(CL_INVALID_VALUE);
    }
    ++live_semaphores;
    if (errcode_ret != nullptr) {
        *errcode_ret = CL_SUCCESS;
    }
    return semaphore.release();
}

cl_int CL_API_CALL retain_semaphore(void* handle) {
    if (const cl_int code = injected("clRetainSemaphoreKHR")) {
        return code;
    }
    Semaphore* s = semaphore_of(handle);
    if (s == nullptr) {
        return invalid_semaphore;
    }
    ++s->references;
    return CL_SUCCESS;
}

cl_int CL_API_CALL release_semaphore(void* handle) {
    if (const cl_int code = injected("clReleaseSemaphoreKHR")) {
        return code;
    }
    Semaphore* s = semaphore_of(handle);
    if (s == nullptr) {
        return invalid_semaphore;
    }
    if (--s->references == 0) {
        if (s->imported_fd >= 0) {
            close(s->imported_fd);
        }
        s->magic = 0;
        delete s;
        --live_semaphores;
    }
    return CL_SUCCESS;
}

cl_int CL_API_CALL semaphore_info(void* handle, cl_uint param, size_t size, void* value,
                                  size_t* size_ret) {
    if (const cl_int code = injected("clGetSemaphoreInfoKHR")) {
        return code;
    }
    Semaphore* s = semaphore_of(handle);
    if (s == nullptr) {
        return invalid_semaphore;
    }
    if (param == semaphore_context) {
        return answer(&s->context, sizeof(s->context), size, value, size_ret);
    }
    if (param == semaphore_reference_count) {
        const cl_uint count = static_cast<cl_uint>(s->references.load());
        return answer(&count, sizeof(count), size, value, size_ret);
    }
    return CL_INVALID_VALUE;
}

cl_int CL_API_CALL semaphore_handle(void* handle, cl_device_id, cl_uint type, size_t size,
                                    void* value, size_t* size_ret) {
    if (const cl_int code = injected("clGetSemaphoreHandleForTypeKHR")) {
        return code;
    }
    Semaphore* s = semaphore_of(handle);
    if (s == nullptr) {
        return invalid_semaphore;
    }
    if (!s->exportable || type != opaque_fd_semaphore) {
        return invalid_semaphore;
    }
    if (value == nullptr) {
        const int none = -1;
        return answer(&none, sizeof(none), 0, nullptr, size_ret);
    }
    if (size < sizeof(int)) {
        return CL_INVALID_VALUE;
    }
    // A fresh descriptor of no file that matters; the registry says which semaphore it carries.
    const int made = memfd_create("openclaw-test-semaphore", 0);
    if (made < 0) {
        return CL_OUT_OF_RESOURCES;
    }
    {
        const std::lock_guard lock(registry_mutex);
        exported[made] = s->payload;
    }
    return answer(&made, sizeof(made), size, value, size_ret);
}

cl_int CL_API_CALL wait_semaphores(cl_command_queue queue, cl_uint count, void* const* semaphores,
                                   const cl_ulong* payloads, cl_uint waits, const cl_event* wait,
                                   cl_event* event) {
    if (const cl_int code = injected("clEnqueueWaitSemaphoresKHR")) {
        return code;
    }
    if (count == 0 || semaphores == nullptr || payloads != nullptr) {
        return CL_INVALID_VALUE;
    }
    cl_context context = nullptr;
    if (const cl_int code =
            clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof(context), &context, nullptr);
        code != CL_SUCCESS) {
        return code;
    }
    for (cl_uint i = 0; i < count; ++i) {
        if (semaphore_of(semaphores[i]) == nullptr) {
            return invalid_semaphore;
        }
    }
    std::vector<cl_event> all(wait, wait + waits);
    for (cl_uint i = 0; i < count; ++i) {
        Semaphore* s = semaphore_of(semaphores[i]);
        cl_int code = CL_SUCCESS;
        cl_event user = clCreateUserEvent(context, &code);
        if (code != CL_SUCCESS) {
            for (std::size_t j = waits; j < all.size(); ++j) {
                (void)clReleaseEvent(all[j]);
            }
            return code;
        }
        bool ready = false;
        {
            const std::lock_guard lock(s->payload->mutex);
            ready = std::exchange(s->payload->signalled, false);
            if (!ready) {
                (void)clRetainEvent(user);  // the payload's reference
                s->payload->waiters.push_back(user);
            }
        }
        if (ready) {
            (void)clSetUserEventStatus(user, CL_COMPLETE);
        }
        all.push_back(user);
    }
    const cl_int code =
        clEnqueueBarrierWithWaitList(queue, static_cast<cl_uint>(all.size()), all.data(), event);
    for (std::size_t j = waits; j < all.size(); ++j) {
        (void)clReleaseEvent(all[j]);
    }
    return code;
}

cl_int CL_API_CALL signal_semaphores(cl_command_queue queue, cl_uint count, void* const* semaphores,
                                     const cl_ulong* payloads, cl_uint waits, const cl_event* wait,
                                     cl_event* event) {
    if (const cl_int code = injected("clEnqueueSignalSemaphoresKHR")) {
        return code;
    }
    if (count == 0 || semaphores == nullptr || payloads != nullptr) {
        return CL_INVALID_VALUE;
    }
    for (cl_uint i = 0; i < count; ++i) {
        if (semaphore_of(semaphores[i]) == nullptr) {
            return invalid_semaphore;
        }
    }
    cl_event marker = nullptr;
    if (const cl_int code = clEnqueueMarkerWithWaitList(queue, waits, wait, &marker);
        code != CL_SUCCESS) {
        return code;
    }
    for (cl_uint i = 0; i < count; ++i) {
        auto* payload = new std::shared_ptr<Payload>(semaphore_of(semaphores[i])->payload);
        signals_in_flight.fetch_add(1);
        if (clSetEventCallback(marker, CL_COMPLETE, &signal_when_done, payload) != CL_SUCCESS) {
            signals_in_flight.fetch_sub(1);
            delete payload;
        }
    }
    (void)clFlush(queue);
    if (event != nullptr) {
        *event = marker;
    } else {
        (void)clReleaseEvent(marker);
    }
    return CL_SUCCESS;
}

std::map<cl_mem, std::pair<int, int>>::iterator import_of(cl_mem memory) {
    return imports.find(memory);
}

cl_int memory_command(const char* name, bool acquire, cl_command_queue queue, cl_uint count,
                      const cl_mem* memory, cl_uint waits, const cl_event* wait, cl_event* event) {
    if (const cl_int code = injected(name)) {
        return code;
    }
    if (count == 0 || memory == nullptr) {
        return CL_INVALID_VALUE;
    }
    {
        const std::lock_guard lock(registry_mutex);
        for (cl_uint i = 0; i < count; ++i) {
            if (import_of(memory[i]) == imports.end()) {
                return CL_INVALID_MEM_OBJECT;  // not made from an external handle
            }
        }
    }
    if (const cl_int code = clEnqueueMarkerWithWaitList(queue, waits, wait, event);
        code != CL_SUCCESS) {
        return code;
    }
    const std::lock_guard lock(registry_mutex);
    for (cl_uint i = 0; i < count; ++i) {
        auto& counts = import_of(memory[i])->second;
        ++(acquire ? counts.first : counts.second);
    }
    return CL_SUCCESS;
}

cl_int CL_API_CALL acquire_memory(cl_command_queue queue, cl_uint count, const cl_mem* memory,
                                  cl_uint waits, const cl_event* wait, cl_event* event) {
    return memory_command("clEnqueueAcquireExternalMemObjectsKHR", true, queue, count, memory,
                          waits, wait, event);
}
cl_int CL_API_CALL release_memory(cl_command_queue queue, cl_uint count, const cl_mem* memory,
                                  cl_uint waits, const cl_event* wait, cl_event* event) {
    return memory_command("clEnqueueReleaseExternalMemObjectsKHR", false, queue, count, memory,
                          waits, wait, event);
}

/// What an imported buffer holds until the driver destroys it: the mapping and the descriptor.
struct Import {
    void* data;
    size_t bytes;
    int fd;
};

void CL_CALLBACK destroyed(cl_mem memory, void* data) {
    const std::unique_ptr<Import> import(static_cast<Import*>(data));
    munmap(import->data, import->bytes);
    close(import->fd);
    const std::lock_guard lock(registry_mutex);
    if (const auto it = imports.find(memory); it != imports.end()) {
        finished[memory] = it->second;
        imports.erase(it);
    }
}

std::string extensions_added() {
    std::string text;
    if (config.memory) {
        text += " cl_khr_external_memory cl_khr_external_memory_opaque_fd";
    }
    if (config.semaphores) {
        text += " cl_khr_semaphore cl_khr_external_semaphore cl_khr_external_semaphore_opaque_fd";
    }
    if (config.uuid) {
        text += " cl_khr_device_uuid";
    }
    return text;
}

}  // namespace

EmulateExternal::EmulateExternal(ExternalEmulation emulation) {
    config = emulation;
    active = true;
}
EmulateExternal::~EmulateExternal() {
    // At most 2 s: a marker that failed never calls back on PoCL.
    for (int i = 0; i < 2000 && signals_in_flight.load() > 0; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    active = false;
}
int EmulateExternal::live_semaphores() {
    return openclaw_test::live_semaphores.load();
}
int EmulateExternal::live_imports() {
    const std::lock_guard lock(registry_mutex);
    return static_cast<int>(imports.size());
}
int EmulateExternal::commands(cl_mem memory, bool acquire) {
    const std::lock_guard lock(registry_mutex);
    auto it = imports.find(memory);
    if (it == imports.end()) {
        it = finished.find(memory);
        if (it == finished.end()) {
            return 0;
        }
    }
    return acquire ? it->second.first : it->second.second;
}
void EmulateExternal::uuid_of(cl_device_id device, unsigned char* out) {
    const auto bits = reinterpret_cast<std::uintptr_t>(device);
    for (int i = 0; i < 16; ++i) {
        out[i] = static_cast<unsigned char>((bits >> ((i % 8) * 8)) ^ (0xa5 + i));
    }
}

}  // namespace openclaw_test

using openclaw_test::active;
using openclaw_test::config;

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info param,
                                                size_t size, void* value, size_t* size_ret) {
    OPENCLAW_NEXT(clGetDeviceInfo);
    if (!active) {
        return real(device, param, size, value, size_ret);
    }
    using namespace openclaw_test;
    if (param == CL_DEVICE_EXTENSIONS) {
        size_t base = 0;
        if (const cl_int code = real(device, param, 0, nullptr, &base); code != CL_SUCCESS) {
            return code;
        }
        std::string text(base, '\0');
        if (const cl_int code = real(device, param, base, text.data(), nullptr);
            code != CL_SUCCESS) {
            return code;
        }
        text.resize(std::strlen(text.c_str()));
        // The device's own extensions of these names go: the emulation alone says which it has.
        std::string kept;
        std::size_t start = 0;
        while (start < text.size()) {
            std::size_t end = text.find(' ', start);
            end = end == std::string::npos ? text.size() : end;
            const std::string name = text.substr(start, end - start);
            if (!name.empty() && name.find("cl_khr_external_") != 0 && name != "cl_khr_semaphore" &&
                name != "cl_khr_device_uuid") {
                kept += (kept.empty() ? "" : " ") + name;
            }
            start = end + 1;
        }
        text = kept + extensions_added();
        return answer(text.c_str(), text.size() + 1, size, value, size_ret);
    }
    // Queries of what the emulation leaves out fail, whatever the device itself has.
    if ((param == memory_import_types && !config.memory) ||
        ((param == semaphore_types || param == semaphore_import_types ||
          param == semaphore_export_types) &&
         !config.semaphores) ||
        ((param == device_uuid || param == driver_uuid) && !config.uuid)) {
        return CL_INVALID_VALUE;
    }
    if (param == memory_import_types && config.memory) {
        const cl_uint types[] = {static_cast<cl_uint>(opaque_fd_memory)};
        return answer(types, sizeof(types), size, value, size_ret);
    }
    if (param == semaphore_types && config.semaphores) {
        if (config.types_query_fails) {
            return CL_INVALID_VALUE;
        }
        const cl_uint types[] = {1};
        return answer(types, sizeof(types), size, value, size_ret);
    }
    if (param == semaphore_import_types && config.semaphores) {
        const cl_uint types[] = {static_cast<cl_uint>(opaque_fd_semaphore)};
        return answer(types, sizeof(types), size, value, size_ret);
    }
    if (param == semaphore_export_types && config.semaphores) {
        const cl_uint types[] = {static_cast<cl_uint>(opaque_fd_semaphore)};
        return answer(types, config.exports ? sizeof(types) : 0, size, value, size_ret);
    }
    if ((param == device_uuid || param == driver_uuid) && config.uuid) {
        unsigned char uuid[16];
        EmulateExternal::uuid_of(param == device_uuid ? device : nullptr, uuid);
        return answer(uuid, sizeof(uuid), size, value, size_ret);
    }
    return real(device, param, size, value, size_ret);
}

CL_API_ENTRY void* CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                                        const char* name) {
    OPENCLAW_NEXT(clGetExtensionFunctionAddressForPlatform);
    if (!active) {
        return real(platform, name);
    }
    using namespace openclaw_test;
    const std::string n = name;
    if (n == "clEnqueueAcquireExternalMemObjectsKHR" && config.memory)
        return reinterpret_cast<void*>(&acquire_memory);
    if (n == "clEnqueueReleaseExternalMemObjectsKHR" && config.memory)
        return reinterpret_cast<void*>(&release_memory);
    if (config.semaphores) {
        if (n == "clCreateSemaphoreWithPropertiesKHR")
            return reinterpret_cast<void*>(&create_semaphore);
        if (n == "clEnqueueWaitSemaphoresKHR")
            return reinterpret_cast<void*>(&wait_semaphores);
        if (n == "clEnqueueSignalSemaphoresKHR")
            return reinterpret_cast<void*>(&signal_semaphores);
        if (n == "clGetSemaphoreInfoKHR")
            return reinterpret_cast<void*>(&semaphore_info);
        if (n == "clRetainSemaphoreKHR")
            return reinterpret_cast<void*>(&retain_semaphore);
        if (n == "clReleaseSemaphoreKHR")
            return reinterpret_cast<void*>(&release_semaphore);
        if (n == "clGetSemaphoreHandleForTypeKHR")
            return reinterpret_cast<void*>(&semaphore_handle);
    }
    return real(platform, name);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context context,
                                                             const cl_mem_properties* properties,
                                                             cl_mem_flags flags, size_t size,
                                                             void* host_ptr, cl_int* errcode_ret) {
    OPENCLAW_NEXT(clCreateBufferWithProperties);
    using namespace openclaw_test;
    bool external = false;
    for (const cl_mem_properties* p = properties; p != nullptr && *p != 0; p += 2) {
        external = external || *p == opaque_fd_memory;
    }
    if (!active || !config.memory || !external) {
        return real(context, properties, flags, size, host_ptr, errcode_ret);
    }
    const auto result = [&](cl_int code) -> cl_mem {
        if (errcode_ret != nullptr) {
            *errcode_ret = code;
        }
        return nullptr;
    };
    if (const cl_int code = injected("clCreateBufferWithProperties")) {
        return result(code);
    }
    int fd = -1;
    for (const cl_mem_properties* p = properties; *p != 0;) {
        if (p[0] == opaque_fd_memory) {
            fd = static_cast<int>(p[1]);
            p += 2;
        } else if (p[0] == mem_device_list) {
            for (p += 1; *p != 0; ++p) {
            }
            p += 1;
        } else {
            return result(invalid_property);
        }
    }
    struct stat file {};
    if (fd < 0 || fstat(fd, &file) != 0) {
        return result(CL_INVALID_VALUE);
    }
    if (size == 0 || static_cast<size_t>(file.st_size) < size) {
        return result(CL_INVALID_BUFFER_SIZE);
    }
    if (host_ptr != nullptr ||
        (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR | CL_MEM_ALLOC_HOST_PTR)) != 0) {
        return result(CL_INVALID_VALUE);
    }
    void* data = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (data == MAP_FAILED) {
        return result(CL_INVALID_VALUE);
    }
    cl_int code = CL_SUCCESS;
    cl_mem memory = clCreateBuffer(context, flags | CL_MEM_USE_HOST_PTR, size, data, &code);
    if (code != CL_SUCCESS) {
        munmap(data, size);
        return result(code);
    }
    auto* import = new Import{data, size, fd};
    if (const cl_int set = clSetMemObjectDestructorCallback(memory, &destroyed, import);
        set != CL_SUCCESS) {
        delete import;
        clReleaseMemObject(memory);
        munmap(data, size);
        return result(set);
    }
    {
        const std::lock_guard lock(registry_mutex);
        imports[memory] = {0, 0};
    }
    if (errcode_ret != nullptr) {
        *errcode_ret = CL_SUCCESS;
    }
    return memory;
}

}  // extern "C"
