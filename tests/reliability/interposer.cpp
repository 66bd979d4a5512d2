// SPDX-License-Identifier: Apache-2.0
// Test-only LD_PRELOAD library over libOpenCL. Every OpenCL call of the process passes through here
// to the real entry point (dlsym(RTLD_NEXT)): it counts the objects each call creates, retains and
// releases per type and reports the references still live at exit, and it can make the N-th call
// (or the N-th call of one named function) fail with a chosen code. docs/reliability.md lists the
// OPENCLAW_FI_* variables and explains the report.

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#define CL_USE_DEPRECATED_OPENCL_2_1_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include <CL/cl.h>
#include <dlfcn.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace {

enum class Kind { context, queue, mem, program, kernel, event, sub_device, sampler };
constexpr std::size_t kind_count = 8;
constexpr std::array<const char*, kind_count> kind_names = {
    "context", "queue", "mem", "program", "kernel", "event", "sub_device", "sampler"};

/// A failure to inject: the `nth` call of `call` (of any function if empty) fails with `code`;
/// if `sticky`, every call after it fails too, as on a lost device.
struct Rule {
    std::string call;
    long nth = 0;
    cl_int code = CL_OUT_OF_HOST_MEMORY;
    bool sticky = false;
    long seen = 0;
};

struct Config {
    std::vector<Rule> rules;  // OPENCLAW_FI_FAIL_AT, OPENCLAW_FI_CALL, OPENCLAW_FI_CODE, _MODE
    bool list = false;        // OPENCLAW_FI_LIST=1: the report names every call in order
    bool trace = false;       // OPENCLAW_FI_TRACE=1: every call to stderr as it happens
    std::string report;       // OPENCLAW_FI_REPORT: where the report goes at exit
    bool active = true;       // false if OPENCLAW_FI_PID names another process (a child of it)
    // OPENCLAW_FI_MODE=object: a create call made to fail returns the driver's object all the
    // same, with the error (NVIDIA 580 does so for a failed clCreateBufferWithProperties import),
    // and so does an enqueue asked for an event (the command runs): the library must release it.
    bool with_object = false;

    static Config from_environment() {
        Config config;
        const auto text = [](const char* name) -> const char* {
            const char* value = std::getenv(name);
            return value != nullptr && *value != '\0' ? value : nullptr;
        };
        if (const char* pid = text("OPENCLAW_FI_PID")) {
            config.active = std::atol(pid) == static_cast<long>(getpid());
        }
        if (const char* at = text("OPENCLAW_FI_FAIL_AT")) {
            Rule rule;
            rule.nth = std::atol(at);
            if (const char* only = text("OPENCLAW_FI_CALL")) {
                rule.call = only;
            }
            if (const char* code = text("OPENCLAW_FI_CODE")) {
                rule.code = static_cast<cl_int>(std::atoi(code));
            }
            if (const char* mode = text("OPENCLAW_FI_MODE")) {
                rule.sticky = std::strcmp(mode, "sticky") == 0;
                config.with_object = std::strcmp(mode, "object") == 0;
            }
            config.rules.push_back(rule);
        }
        if (const char* list = text("OPENCLAW_FI_LIST")) {
            config.list = std::strcmp(list, "1") == 0;
        }
        if (const char* trace = text("OPENCLAW_FI_TRACE")) {
            config.trace = std::strcmp(trace, "1") == 0;
        }
        if (const char* report = text("OPENCLAW_FI_REPORT")) {
            config.report = report;
        }
        return config;
    }
};

struct Object {
    Kind kind;
    long references = 0;
    long stranded = 0;  // references kept because their release was made to fail
};

struct Totals {
    long created = 0;
    long retained = 0;
    long released = 0;
    long failed_releases = 0;
};

// Root devices have no reference count (retain and release are no-ops), but openclaw pairs them
// all the same; their balance must come back to zero like any object's.
struct RootDevice {
    long references = 0;
    long stranded = 0;
};

class State {
  public:
    const Config config = Config::from_environment();

    /// Counts one call and says whether it is to fail (and with which code).
    /// `returns_event`: an enqueue asked for the command's event (object mode may return one).
    std::optional<cl_int> decide(const char* name, bool returns_event) {
        const std::lock_guard lock(mutex_);
        ++calls_;
        ++calls_of_[name];
        if (config.list) {
            sequence_.emplace_back(name, returns_event);
        }
        std::optional<cl_int> code = lost_;
        for (Rule& rule : rules_) {
            if (rule.call.empty() || rule.call == name) {
                if (++rule.seen == rule.nth && !code) {
                    code = rule.code;
                    if (rule.sticky) {
                        lost_ = rule.code;
                    }
                }
            }
        }
        if (config.trace) {
            std::fprintf(stderr, "[openclaw interposer] call %ld %s%s\n", calls_, name,
                         code ? " (failed by injection)" : "");
        }
        if (code) {
            if (injected_ == 0) {
                first_injected_index_ = calls_;
                first_injected_name_ = name;
                first_injected_code_ = *code;
            }
            ++injected_;
        }
        return code;
    }

    /// Adds a rule at run time (tests call it through openclaw_fi_arm).
    void arm(Rule rule) {
        const std::lock_guard lock(mutex_);
        rules_.push_back(std::move(rule));
    }
    /// The number of calls counted so far, of `name` or of all functions (null).
    long count(const char* name) {
        const std::lock_guard lock(mutex_);
        if (name == nullptr) {
            return calls_;
        }
        const auto it = calls_of_.find(name);
        return it != calls_of_.end() ? it->second : 0;
    }
    /// Removes every rule and ends a sticky failure.
    void disarm() {
        const std::lock_guard lock(mutex_);
        rules_.clear();
        lost_.reset();
    }

    void created(Kind kind, const void* handle) {
        if (handle == nullptr) {
            return;
        }
        const std::lock_guard lock(mutex_);
        ++totals_[index(kind)].created;
        auto [it, fresh] = objects_.try_emplace(handle, Object{kind});
        if (!fresh && it->second.references > 0) {
            ++anomalies_;  // the driver handed out a handle that is still live
        }
        it->second = Object{kind, 1, 0};
        retired_.erase(handle);
    }

    void retained(Kind kind, const void* handle) {
        const std::lock_guard lock(mutex_);
        ++totals_[index(kind)].retained;
        if (const auto it = objects_.find(handle); it != objects_.end()) {
            ++it->second.references;
            return;
        }
        // An object whose references the program has all released can still be alive in the
        // driver, kept by another object (a kernel keeps its program, a buffer its context), and
        // a query on that object hands it out again (Kernel::program(), Queue::context()): such a
        // retain revives it. A handle no call of this process ever made is an anomaly; it is
        // counted from here on all the same, so that its release is not taken for a double one.
        if (const auto it = retired_.find(handle); it == retired_.end() || it->second != kind) {
            ++unknown_retains_;
        }
        objects_.emplace(handle, Object{kind, 1, 0});
    }

    /// Before a real release: false (and the call is not forwarded) if it would release a
    /// reference nobody holds, which would make the driver free memory twice.
    bool releasing(Kind kind, const void* handle) {
        const std::lock_guard lock(mutex_);
        const auto it = objects_.find(handle);
        if (it == objects_.end() || it->second.references - it->second.stranded <= 0) {
            ++over_releases_;
            return false;
        }
        ++totals_[index(kind)].released;
        if (--it->second.references == 0) {
            objects_.erase(it);
            retired_[handle] = kind;
        }
        return true;
    }

    /// A real release failed: the reference is still held.
    void release_failed(Kind kind, const void* handle) {
        const std::lock_guard lock(mutex_);
        --totals_[index(kind)].released;
        ++objects_.try_emplace(handle, Object{kind}).first->second.references;
    }

    /// A release made to fail by injection keeps its reference: it is "stranded", not leaked.
    void release_injected(Kind kind, const void* handle) {
        const std::lock_guard lock(mutex_);
        ++totals_[index(kind)].failed_releases;
        const auto it = objects_.find(handle);
        if (it == objects_.end() || it->second.references - it->second.stranded <= 0) {
            ++over_releases_;
            return;
        }
        ++it->second.stranded;
    }

    /// Sub-devices are objects like any other; root devices only keep a balance.
    bool is_sub_device(const void* handle) {
        const std::lock_guard lock(mutex_);
        const auto it = objects_.find(handle);
        return it != objects_.end() && it->second.kind == Kind::sub_device;
    }
    void root_retained(const void* handle) {
        const std::lock_guard lock(mutex_);
        ++root_devices_[handle].references;
    }
    bool root_releasing(const void* handle) {
        const std::lock_guard lock(mutex_);
        RootDevice& root = root_devices_[handle];
        if (root.references - root.stranded <= 0) {
            ++over_releases_;
            return false;
        }
        --root.references;
        return true;
    }
    void root_release_failed(const void* handle) {
        const std::lock_guard lock(mutex_);
        ++root_devices_[handle].references;
    }
    void root_release_injected(const void* handle) {
        const std::lock_guard lock(mutex_);
        RootDevice& root = root_devices_[handle];
        if (root.references - root.stranded <= 0) {
            ++over_releases_;
            return;
        }
        ++root.stranded;
    }

    void write_report() {
        const std::lock_guard lock(mutex_);
        std::array<long, kind_count> live{};
        std::array<long, kind_count> stranded{};
        long leaked = 0;
        for (const auto& [handle, object] : objects_) {
            live[index(object.kind)] += object.references;
            stranded[index(object.kind)] += object.stranded;
            leaked += object.references - object.stranded;
        }
        long root_live = 0;
        long root_stranded = 0;
        for (const auto& [handle, root] : root_devices_) {
            root_live += root.references;
            root_stranded += root.stranded;
            leaked += root.references - root.stranded;
        }
        FILE* out = config.report.empty() ? nullptr : std::fopen(config.report.c_str(), "w");
        if (out == nullptr) {
            if (leaked == 0 && over_releases_ == 0 && unknown_retains_ == 0 && anomalies_ == 0) {
                return;  // nothing asked for, nothing wrong: stay quiet
            }
            out = stderr;
        }
        std::fprintf(out, "calls %ld\n", calls_);
        std::fprintf(out, "injected %ld %ld %s %d\n", injected_, first_injected_index_,
                     first_injected_name_ != nullptr ? first_injected_name_ : "-",
                     static_cast<int>(first_injected_code_));
        for (std::size_t k = 0; k < kind_count; ++k) {
            const Totals& t = totals_[k];
            std::fprintf(out,
                         "kind %s created %ld retained %ld released %ld failed_releases %ld "
                         "live %ld stranded %ld\n",
                         kind_names[k], t.created, t.retained, t.released, t.failed_releases,
                         live[k], stranded[k]);
        }
        std::fprintf(out, "root_device_references live %ld stranded %ld\n", root_live,
                     root_stranded);
        std::fprintf(out, "over_releases %ld\n", over_releases_);
        std::fprintf(out, "unknown_retains %ld\n", unknown_retains_);
        std::fprintf(out, "anomalies %ld\n", anomalies_);
        std::fprintf(out, "leaked %ld\n", leaked);
        for (const auto& [handle, object] : objects_) {
            if (object.references != object.stranded) {
                std::fprintf(out, "leak %s %p references %ld stranded %ld\n",
                             kind_names[index(object.kind)], handle, object.references,
                             object.stranded);
            }
        }
        for (const auto& [name, returns_event] : sequence_) {
            std::fprintf(out, "call %s%s\n", name, returns_event ? " event" : "");
        }
        if (out != stderr) {
            std::fclose(out);
        }
    }

  private:
    static std::size_t index(Kind kind) { return static_cast<std::size_t>(kind); }

    std::mutex mutex_;
    std::unordered_map<const void*, Object> objects_;
    std::unordered_map<const void*, RootDevice> root_devices_;
    std::unordered_map<const void*, Kind> retired_;  // objects whose references all went
    std::array<Totals, kind_count> totals_{};
    std::vector<std::pair<const char*, bool>> sequence_;
    std::unordered_map<std::string, long> calls_of_;
    std::vector<Rule> rules_ = config.rules;
    std::optional<cl_int> lost_;  // a sticky rule fired: every call fails with this code
    long calls_ = 0;
    long injected_ = 0;
    long first_injected_index_ = 0;
    const char* first_injected_name_ = nullptr;
    cl_int first_injected_code_ = CL_SUCCESS;
    long over_releases_ = 0;
    long unknown_retains_ = 0;
    long anomalies_ = 0;
};

// Never destroyed: the report is written after the program's own static objects are gone, and
// OpenCL calls made from their destructors must still be counted.
State& state() {
    static State* const instance = new State();
    return *instance;
}

thread_local int depth = 0;

/// One interposed call. Only the outermost call of a thread is counted (should a driver call
/// exported entry points itself, those calls are its business), and only in the process the
/// configuration names.
class Call {
  public:
    explicit Call(const char* name, bool returns_event = false)
        : name_(name),
          returns_event_(returns_event),
          counted_(depth++ == 0 && state().config.active) {}
    ~Call() { --depth; }
    Call(const Call&) = delete;
    Call& operator=(const Call&) = delete;

    /// The code this call is to fail with, if it is the chosen one.
    std::optional<cl_int> injected() const {
        return counted_ ? state().decide(name_, returns_event_) : std::nullopt;
    }
    bool counted() const { return counted_; }

  private:
    const char* name_;
    bool returns_event_;
    bool counted_;
};

template <class F>
F real(const char* name) {
    void* symbol = dlsym(RTLD_NEXT, name);
    if (symbol == nullptr) {
        std::fprintf(stderr, "openclaw interposer: no %s after the interposer\n", name);
        std::abort();
    }
    return reinterpret_cast<F>(symbol);
}

}  // namespace

#define OPENCLAW_FI_REAL(name) static const auto real_fn = real<decltype(&name)>(#name)

#define OPENCLAW_FI_STATUS(name, params, args)               \
    extern "C" CL_API_ENTRY cl_int CL_API_CALL name params { \
        OPENCLAW_FI_REAL(name);                              \
        const Call call(#name);                              \
        if (const auto code = call.injected()) {             \
            return *code;                                    \
        }                                                    \
        return real_fn args;                                 \
    }

// In object mode a failed enqueue that was asked for an event enqueues the command all the same
// and returns its event with the error: the library must release it.
#define OPENCLAW_FI_ENQUEUE(name, params, args)                                                 \
    extern "C" CL_API_ENTRY cl_int CL_API_CALL name params {                                    \
        OPENCLAW_FI_REAL(name);                                                                 \
        const Call call(#name, event != nullptr);                                               \
        if (const auto code = call.injected()) {                                                \
            if (state().config.with_object && event != nullptr && real_fn args == CL_SUCCESS) { \
                state().created(Kind::event, *event);                                           \
            }                                                                                   \
            return *code;                                                                       \
        }                                                                                       \
        const cl_int result = real_fn args;                                                     \
        if (result == CL_SUCCESS && event != nullptr && call.counted()) {                       \
            state().created(Kind::event, *event);                                               \
        }                                                                                       \
        return result;                                                                          \
    }

#define OPENCLAW_FI_CREATE(kind, type, name, params, args) \
    extern "C" CL_API_ENTRY type CL_API_CALL name params { \
        OPENCLAW_FI_REAL(name);                            \
        const Call call(#name);                            \
        if (const auto code = call.injected()) {           \
            type object = nullptr;                         \
            if (state().config.with_object) {              \
                object = real_fn args;                     \
                state().created(Kind::kind, object);       \
            }                                              \
            if (errcode_ret != nullptr) {                  \
                *errcode_ret = *code;                      \
            }                                              \
            return object;                                 \
        }                                                  \
        type object = real_fn args;                        \
        if (call.counted()) {                              \
            state().created(Kind::kind, object);           \
        }                                                  \
        return object;                                     \
    }

#define OPENCLAW_FI_RETAIN(kind, name, type)                       \
    extern "C" CL_API_ENTRY cl_int CL_API_CALL name(type object) { \
        OPENCLAW_FI_REAL(name);                                    \
        const Call call(#name);                                    \
        if (const auto code = call.injected()) {                   \
            return *code;                                          \
        }                                                          \
        const cl_int result = real_fn(object);                     \
        if (result == CL_SUCCESS && call.counted()) {              \
            state().retained(Kind::kind, object);                  \
        }                                                          \
        return result;                                             \
    }

// An injected release does not reach the driver (an OpenCL call that fails has no effect), so the
// reference stays held: the report counts it as stranded, and the library must have passed the
// failure on (to the error hook, from a destructor) instead of retrying or crashing.
#define OPENCLAW_FI_RELEASE(kind, name, type)                      \
    extern "C" CL_API_ENTRY cl_int CL_API_CALL name(type object) { \
        OPENCLAW_FI_REAL(name);                                    \
        const Call call(#name);                                    \
        if (!call.counted()) {                                     \
            return real_fn(object);                                \
        }                                                          \
        if (const auto code = call.injected()) {                   \
            state().release_injected(Kind::kind, object);          \
            return *code;                                          \
        }                                                          \
        if (!state().releasing(Kind::kind, object)) {              \
            return CL_INVALID_VALUE;                               \
        }                                                          \
        const cl_int result = real_fn(object);                     \
        if (result != CL_SUCCESS) {                                \
            state().release_failed(Kind::kind, object);            \
        }                                                          \
        return result;                                             \
    }

#include "cl_api.def"

namespace {

/// An application's event callback, run with the call depth reset: a driver may run callbacks
/// on the thread of an interposed call (PoCL does, inside clWaitForEvents and others), and the
/// calls the callback makes are the application's, to be counted like any other.
/// Wrappers the driver has not called yet stay listed (reachable: not a leak of the program under
/// test), because PoCL never calls the callback of a failed event.
struct EventCallback {
    void(CL_CALLBACK* notify)(cl_event, cl_int, void*);
    void* user_data;

    static std::mutex& pending_mutex() {
        static std::mutex* const mutex = new std::mutex;
        return *mutex;
    }
    static std::set<EventCallback*>& pending() {
        static std::set<EventCallback*>* const set = new std::set<EventCallback*>;
        return *set;
    }
    static void CL_CALLBACK run(cl_event event, cl_int status, void* data) {
        const std::unique_ptr<EventCallback> self(static_cast<EventCallback*>(data));
        {
            const std::lock_guard lock(pending_mutex());
            pending().erase(self.get());
        }
        const int outer = std::exchange(depth, 0);
        self->notify(event, status, self->user_data);
        depth = outer;
    }
};

}  // namespace

extern "C" CL_API_ENTRY cl_int CL_API_CALL clSetEventCallback(
    cl_event event, cl_int command_exec_callback_type,
    void(CL_CALLBACK* pfn_notify)(cl_event event, cl_int event_command_status, void* user_data),
    void* user_data) {
    OPENCLAW_FI_REAL(clSetEventCallback);
    const Call call("clSetEventCallback");
    if (const auto code = call.injected()) {
        return *code;
    }
    if (pfn_notify == nullptr) {
        return real_fn(event, command_exec_callback_type, pfn_notify, user_data);
    }
    auto wrapped = std::make_unique<EventCallback>(EventCallback{pfn_notify, user_data});
    {
        const std::lock_guard lock(EventCallback::pending_mutex());
        EventCallback::pending().insert(wrapped.get());
    }
    const cl_int result =
        real_fn(event, command_exec_callback_type, &EventCallback::run, wrapped.get());
    if (result == CL_SUCCESS) {
        wrapped.release();  // the driver's until the callback runs
    } else {
        const std::lock_guard lock(EventCallback::pending_mutex());
        EventCallback::pending().erase(wrapped.get());
    }
    return result;
}

// The entry points whose shape the table's macros do not cover.

extern "C" CL_API_ENTRY cl_int CL_API_CALL
clCreateSubDevices(cl_device_id in_device, const cl_device_partition_property* properties,
                   cl_uint num_devices, cl_device_id* out_devices, cl_uint* num_devices_ret) {
    OPENCLAW_FI_REAL(clCreateSubDevices);
    const Call call("clCreateSubDevices");
    if (const auto code = call.injected()) {
        if (state().config.with_object && out_devices != nullptr) {  // made, and returned too
            cl_uint made = 0;
            if (real_fn(in_device, properties, num_devices, out_devices, &made) == CL_SUCCESS) {
                for (cl_uint i = 0; i < made && i < num_devices; ++i) {
                    state().created(Kind::sub_device, out_devices[i]);
                }
            }
        }
        return *code;
    }
    cl_uint made = 0;
    const cl_int result = real_fn(in_device, properties, num_devices, out_devices, &made);
    if (num_devices_ret != nullptr) {
        *num_devices_ret = made;
    }
    if (result == CL_SUCCESS && out_devices != nullptr && call.counted()) {
        for (cl_uint i = 0; i < made && i < num_devices; ++i) {
            state().created(Kind::sub_device, out_devices[i]);
        }
    }
    return result;
}

extern "C" CL_API_ENTRY cl_int CL_API_CALL clRetainDevice(cl_device_id device) {
    OPENCLAW_FI_REAL(clRetainDevice);
    const Call call("clRetainDevice");
    if (const auto code = call.injected()) {
        return *code;
    }
    const cl_int result = real_fn(device);
    if (result == CL_SUCCESS && call.counted()) {
        if (state().is_sub_device(device)) {
            state().retained(Kind::sub_device, device);
        } else {
            state().root_retained(device);
        }
    }
    return result;
}

extern "C" CL_API_ENTRY cl_int CL_API_CALL clReleaseDevice(cl_device_id device) {
    OPENCLAW_FI_REAL(clReleaseDevice);
    const Call call("clReleaseDevice");
    if (!call.counted()) {
        return real_fn(device);
    }
    const bool sub = state().is_sub_device(device);
    if (const auto code = call.injected()) {
        if (sub) {
            state().release_injected(Kind::sub_device, device);
        } else {
            state().root_release_injected(device);
        }
        return *code;
    }
    if (!(sub ? state().releasing(Kind::sub_device, device) : state().root_releasing(device))) {
        return CL_INVALID_DEVICE;
    }
    const cl_int result = real_fn(device);
    if (result != CL_SUCCESS) {
        if (sub) {
            state().release_failed(Kind::sub_device, device);
        } else {
            state().root_release_failed(device);
        }
    }
    return result;
}

extern "C" CL_API_ENTRY cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program,
                                                                    cl_uint num_kernels,
                                                                    cl_kernel* kernels,
                                                                    cl_uint* num_kernels_ret) {
    OPENCLAW_FI_REAL(clCreateKernelsInProgram);
    const Call call("clCreateKernelsInProgram");
    if (const auto code = call.injected()) {
        return *code;
    }
    cl_uint made = 0;
    const cl_int result = real_fn(program, num_kernels, kernels, &made);
    if (num_kernels_ret != nullptr) {
        *num_kernels_ret = made;
    }
    if (result == CL_SUCCESS && kernels != nullptr && call.counted()) {
        for (cl_uint i = 0; i < made && i < num_kernels; ++i) {
            state().created(Kind::kernel, kernels[i]);
        }
    }
    return result;
}

extern "C" CL_API_ENTRY void* CL_API_CALL clEnqueueMapBuffer(
    cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_map, cl_map_flags map_flags,
    size_t offset, size_t size, cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
    cl_event* event, cl_int* errcode_ret) {
    OPENCLAW_FI_REAL(clEnqueueMapBuffer);
    const Call call("clEnqueueMapBuffer");
    if (const auto code = call.injected()) {
        if (errcode_ret != nullptr) {
            *errcode_ret = *code;
        }
        return nullptr;
    }
    cl_int result = CL_SUCCESS;
    void* mapped = real_fn(command_queue, buffer, blocking_map, map_flags, offset, size,
                           num_events_in_wait_list, event_wait_list, event, &result);
    if (errcode_ret != nullptr) {
        *errcode_ret = result;
    }
    if (result == CL_SUCCESS && event != nullptr && call.counted()) {
        state().created(Kind::event, *event);
    }
    return mapped;
}

extern "C" CL_API_ENTRY void* CL_API_CALL clEnqueueMapImage(
    cl_command_queue command_queue, cl_mem image, cl_bool blocking_map, cl_map_flags map_flags,
    const size_t* origin, const size_t* region, size_t* image_row_pitch, size_t* image_slice_pitch,
    cl_uint num_events_in_wait_list, const cl_event* event_wait_list, cl_event* event,
    cl_int* errcode_ret) {
    OPENCLAW_FI_REAL(clEnqueueMapImage);
    const Call call("clEnqueueMapImage");
    if (const auto code = call.injected()) {
        if (errcode_ret != nullptr) {
            *errcode_ret = *code;
        }
        return nullptr;
    }
    cl_int result = CL_SUCCESS;
    void* mapped =
        real_fn(command_queue, image, blocking_map, map_flags, origin, region, image_row_pitch,
                image_slice_pitch, num_events_in_wait_list, event_wait_list, event, &result);
    if (errcode_ret != nullptr) {
        *errcode_ret = result;
    }
    if (result == CL_SUCCESS && event != nullptr && call.counted()) {
        state().created(Kind::event, *event);
    }
    return mapped;
}

// SVM allocations are memory, not reference-counted objects; an injected failure is the NULL
// that clSVMAlloc returns when it cannot allocate.
extern "C" CL_API_ENTRY void* CL_API_CALL clSVMAlloc(cl_context context, cl_svm_mem_flags flags,
                                                     size_t size, cl_uint alignment) {
    OPENCLAW_FI_REAL(clSVMAlloc);
    const Call call("clSVMAlloc");
    if (call.injected()) {
        return nullptr;
    }
    return real_fn(context, flags, size, alignment);
}

// clSVMFree cannot fail (it returns nothing), so it is neither counted nor failed.
extern "C" CL_API_ENTRY void CL_API_CALL clSVMFree(cl_context context, void* svm_pointer) {
    OPENCLAW_FI_REAL(clSVMFree);
    real_fn(context, svm_pointer);
}

// cl_khr_command_buffer (revisions 0.9.0 to 0.9.4, as openclaw's graph.hpp drives them): the
// look-up below returns these wrappers, so that failures can be injected into the entry points
// and the events a replay makes are counted. Command buffers themselves are not counted objects.
namespace command_buffer {
using Buffer = void*;
using SyncPoint = cl_uint;
Buffer(CL_API_CALL* real_create)(cl_uint, const cl_command_queue*, const cl_ulong*, cl_int*);
cl_int(CL_API_CALL* real_finalize)(Buffer);
cl_int(CL_API_CALL* real_release)(Buffer);
cl_int(CL_API_CALL* real_enqueue)(cl_uint, cl_command_queue*, Buffer, cl_uint, const cl_event*,
                                  cl_event*);
cl_int(CL_API_CALL* real_ndrange)(Buffer, cl_command_queue, const cl_ulong*, cl_kernel, cl_uint,
                                  const size_t*, const size_t*, const size_t*, cl_uint,
                                  const SyncPoint*, SyncPoint*, void**);
cl_int(CL_API_CALL* real_copy)(Buffer, cl_command_queue, cl_mem, cl_mem, size_t, size_t, size_t,
                               cl_uint, const SyncPoint*, SyncPoint*, void**);
cl_int(CL_API_CALL* real_fill)(Buffer, cl_command_queue, cl_mem, const void*, size_t, size_t,
                               size_t, cl_uint, const SyncPoint*, SyncPoint*, void**);
cl_int(CL_API_CALL* real_barrier)(Buffer, cl_command_queue, cl_uint, const SyncPoint*, SyncPoint*,
                                  void**);

Buffer CL_API_CALL create(cl_uint n, const cl_command_queue* queues, const cl_ulong* properties,
                          cl_int* errcode_ret) {
    const Call call("clCreateCommandBufferKHR");
    if (const auto code = call.injected()) {
        if (errcode_ret != nullptr) {
            *errcode_ret = *code;
        }
        return nullptr;
    }
    return real_create(n, queues, properties, errcode_ret);
}
cl_int CL_API_CALL finalize(Buffer buffer) {
    const Call call("clFinalizeCommandBufferKHR");
    if (const auto code = call.injected()) {
        return *code;
    }
    return real_finalize(buffer);
}
cl_int CL_API_CALL release(Buffer buffer) {
    const Call call("clReleaseCommandBufferKHR");
    if (const auto code = call.injected()) {
        return *code;  // a failed release: the driver keeps it (reported as a cleanup failure)
    }
    return real_release(buffer);
}
cl_int CL_API_CALL enqueue(cl_uint n, cl_command_queue* queues, Buffer buffer, cl_uint waits,
                           const cl_event* wait, cl_event* event) {
    const Call call("clEnqueueCommandBufferKHR", event != nullptr);
    if (const auto code = call.injected()) {
        if (state().config.with_object && event != nullptr &&
            real_enqueue(n, queues, buffer, waits, wait, event) == CL_SUCCESS) {
            state().created(Kind::event, *event);
        }
        return *code;
    }
    const cl_int result = real_enqueue(n, queues, buffer, waits, wait, event);
    if (result == CL_SUCCESS && event != nullptr && call.counted()) {
        state().created(Kind::event, *event);
    }
    return result;
}
cl_int CL_API_CALL ndrange(Buffer buffer, cl_command_queue queue, const cl_ulong* properties,
                           cl_kernel kernel, cl_uint dims, const size_t* offset,
                           const size_t* global, const size_t* local, cl_uint waits,
                           const SyncPoint* wait, SyncPoint* point, void** handle) {
    const Call call("clCommandNDRangeKernelKHR");
    if (const auto code = call.injected()) {
        return *code;
    }
    return real_ndrange(buffer, queue, properties, kernel, dims, offset, global, local, waits, wait,
                        point, handle);
}
cl_int CL_API_CALL copy(Buffer buffer, cl_command_queue queue, cl_mem src, cl_mem dst,
                        size_t src_offset, size_t dst_offset, size_t size, cl_uint waits,
                        const SyncPoint* wait, SyncPoint* point, void** handle) {
    const Call call("clCommandCopyBufferKHR");
    if (const auto code = call.injected()) {
        return *code;
    }
    return real_copy(buffer, queue, src, dst, src_offset, dst_offset, size, waits, wait, point,
                     handle);
}
cl_int CL_API_CALL fill(Buffer buffer, cl_command_queue queue, cl_mem mem, const void* pattern,
                        size_t pattern_size, size_t offset, size_t size, cl_uint waits,
                        const SyncPoint* wait, SyncPoint* point, void** handle) {
    const Call call("clCommandFillBufferKHR");
    if (const auto code = call.injected()) {
        return *code;
    }
    return real_fill(buffer, queue, mem, pattern, pattern_size, offset, size, waits, wait, point,
                     handle);
}
cl_int CL_API_CALL barrier(Buffer buffer, cl_command_queue queue, cl_uint waits,
                           const SyncPoint* wait, SyncPoint* point, void** handle) {
    const Call call("clCommandBarrierWithWaitListKHR");
    if (const auto code = call.injected()) {
        return *code;
    }
    return real_barrier(buffer, queue, waits, wait, point, handle);
}

// The wrapper of `name` (remembering the driver's `real`), or `real` for other names.
void* wrap(const char* name, void* real) {
    if (real == nullptr) {
        return nullptr;
    }
    const auto take = [&](auto& slot, auto wrapper) {
        slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(real);
        return reinterpret_cast<void*>(wrapper);
    };
    const std::string_view n(name);
    if (n == "clCreateCommandBufferKHR")
        return take(real_create, &create);
    if (n == "clFinalizeCommandBufferKHR")
        return take(real_finalize, &finalize);
    if (n == "clReleaseCommandBufferKHR")
        return take(real_release, &release);
    if (n == "clEnqueueCommandBufferKHR")
        return take(real_enqueue, &enqueue);
    if (n == "clCommandNDRangeKernelKHR")
        return take(real_ndrange, &ndrange);
    if (n == "clCommandCopyBufferKHR")
        return take(real_copy, &copy);
    if (n == "clCommandFillBufferKHR")
        return take(real_fill, &fill);
    if (n == "clCommandBarrierWithWaitListKHR")
        return take(real_barrier, &barrier);
    return real;
}
}  // namespace command_buffer

// An injected failure is the NULL that means "no such function".
extern "C" CL_API_ENTRY void* CL_API_CALL
clGetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char* func_name) {
    OPENCLAW_FI_REAL(clGetExtensionFunctionAddressForPlatform);
    const Call call("clGetExtensionFunctionAddressForPlatform");
    if (call.injected()) {
        return nullptr;
    }
    return command_buffer::wrap(func_name, real_fn(platform, func_name));
}

extern "C" CL_API_ENTRY void* CL_API_CALL clGetExtensionFunctionAddress(const char* func_name) {
    OPENCLAW_FI_REAL(clGetExtensionFunctionAddress);
    const Call call("clGetExtensionFunctionAddress");
    if (call.injected()) {
        return nullptr;
    }
    return real_fn(func_name);
}

// Run-time control for tests that inject failures at chosen points (tests/support/injection.hpp
// finds these with dlsym; they exist only while the interposer is loaded).

/// Adds a rule: the `nth` call of `call` (any call if null) from now on fails with `code`; if
/// `sticky`, so does every call after it. Rules add up until openclaw_fi_disarm().
extern "C" __attribute__((visibility("default"))) void openclaw_fi_arm(const char* call, long nth,
                                                                       cl_int code, int sticky) {
    Rule rule;
    rule.call = call != nullptr ? call : "";
    rule.nth = nth;
    rule.code = code;
    rule.sticky = sticky != 0;
    state().arm(std::move(rule));
}

/// Counts a call of `call` that a test double of the driver makes in the test program (the
/// external memory emulation of tests/support) and returns the code it is to fail with, or
/// CL_SUCCESS.
extern "C" __attribute__((visibility("default"))) cl_int openclaw_fi_call(const char* call) {
    const Call counted(call);
    return counted.injected().value_or(CL_SUCCESS);
}

/// Removes every rule and ends a sticky failure.
extern "C" __attribute__((visibility("default"))) void openclaw_fi_disarm() {
    state().disarm();
}

/// The number of calls the interposer has counted, of `call` or of every function (null).
extern "C" __attribute__((visibility("default"))) long openclaw_fi_count(const char* call) {
    return state().count(call);
}

// Runs after the program's static destructors (which were registered after this library was
// loaded), so the objects they release are accounted for.
__attribute__((destructor)) static void openclaw_interposer_report() {
    if (state().config.active) {
        state().write_report();
    }
}
