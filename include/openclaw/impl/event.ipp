// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-template bodies declared in <openclaw/event.hpp>: compiled once into the openclaw
// library (src/), or included by that header itself when openclaw is header-only.

#include <openclaw/event.hpp>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#if defined(__linux__)
#include <sys/prctl.h>
#endif

OPENCLAW_BEGIN_NAMESPACE

namespace detail {

// The service thread's deadlines as steady_clock times, and back.
inline ServiceTime service_time(std::chrono::steady_clock::time_point when) noexcept {
    return when == std::chrono::steady_clock::time_point::max()
               ? service_idle
               : std::chrono::duration_cast<std::chrono::nanoseconds>(when.time_since_epoch())
                     .count();
}
inline std::chrono::steady_clock::time_point service_clock(ServiceTime when) noexcept {
    return std::chrono::steady_clock::time_point(
        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
            std::chrono::nanoseconds(when)));
}

/// The service thread (see ServiceClient in event.hpp): one for the program, started with its
/// first client.
class ServiceThread {
  public:
    static ServiceThread& instance() {
        static ServiceThread* const thread = new ServiceThread;  // intentionally immortal
        return *thread;
    }
    void add(ServiceClient& client) {
        {
            const std::lock_guard lock(mutex_);
            clients_.push_back(&client);
            woken_ = true;
        }
        wake_.notify_one();
    }
    void wake() {
        {
            const std::lock_guard lock(mutex_);
            woken_ = true;
        }
        wake_.notify_one();
    }

  private:
    ServiceThread() {
        std::thread([this] {
#if defined(__linux__)
            // Linux lets a timed wait overrun by the thread's timer slack, 50 us by default: as
            // long as the resumer's shortest poll interval. This thread's slack is set to 1 ns.
            // Measured on the H200: a co_await on a 57 us command took 106 us with the default,
            // 75 us so.
            (void)prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
            // Named, so that a debugger or `top -H` shows whose it is (at most 15 characters).
            (void)prctl(PR_SET_NAME, "openclaw", 0UL, 0UL, 0UL);
#endif
            run();
        }).detach();
    }

    [[noreturn]] void run() {
        ServiceTime next = service_idle;
        std::vector<ServiceClient*> clients;
        for (;;) {
            {
                std::unique_lock lock(mutex_);
                if (next == service_idle) {
                    wake_.wait(lock, [this] { return woken_; });
                } else {
                    wake_.wait_until(lock, service_clock(next), [this] { return woken_; });
                }
                woken_ = false;
                if (clients.size() != clients_.size()) {
                    clients = clients_;  // clients are only ever added: copied when one was
                }
            }
            // A wake during the round (a client's own, or another thread's) makes another round.
            next = service_idle;
            for (ServiceClient* client : clients) {
                const ServiceTime due = client->serve();
                next = due < next ? due : next;
            }
        }
    }

    std::mutex mutex_;
    std::condition_variable wake_;
    std::vector<ServiceClient*> clients_;
    bool woken_ = false;
};

/// The table behind CompletionCallbacks: the one of the program, a client of the service thread
/// (see CompletionCallbacks in event.hpp for why it polls).
class CallbackTable final : public ServiceClient {
  public:
    using Run = CompletionCallbacks::Run;
    using Destroy = CompletionCallbacks::Destroy;
    struct Entry {
        std::uintptr_t key;
        cl_event event;  // retained by the state
        void* state;
        Run run;
        Destroy destroy;
        bool failed_once;  // seen failed by the previous poll
    };

    static CallbackTable& instance();
    void* add(cl_event event, void* state, Run run, Destroy destroy);
    bool take(std::uintptr_t key, Entry& out) noexcept;
    /// Polls the pending events every 20 ms (and at least 1 us per pending callback) while any
    /// is pending, the first time an interval after the first became pending.
    ServiceTime serve() override;

  private:
    CallbackTable() = default;

    std::mutex mutex_;
    std::vector<Entry> entries_;  // keys ascend; a taken entry has no state until compacted
    std::size_t taken_ = 0;       // taken entries still in entries_
    std::uintptr_t next_ = 0;
    std::chrono::steady_clock::time_point next_poll_{};  // epoch: no poll scheduled
};

inline CallbackTable& CallbackTable::instance() {
    static CallbackTable* const table = [] {
        auto* made = new CallbackTable;  // intentionally immortal
        ServiceThread::instance().add(*made);
        return made;
    }();
    return *table;
}

inline void* CallbackTable::add(cl_event event, void* state, Run run, Destroy destroy) {
    std::uintptr_t key = 0;
    bool first = false;
    {
        const std::lock_guard lock(mutex_);
        key = ++next_;
        first = entries_.empty();
        entries_.push_back({key, event, state, run, destroy, false});
    }
    if (first) {
        ServiceThread::instance().wake();  // schedules the first poll
    }
    return reinterpret_cast<void*>(key);
}

inline bool CallbackTable::take(std::uintptr_t key, Entry& out) noexcept {
    const std::lock_guard lock(mutex_);
    std::size_t low = 0;  // the keys ascend: binary search
    std::size_t high = entries_.size();
    while (low < high) {
        const std::size_t middle = low + (high - low) / 2;
        if (entries_[middle].key < key) {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    if (low == entries_.size() || entries_[low].key != key || entries_[low].state == nullptr) {
        return false;
    }
    out = entries_[low];
    entries_[low].state = nullptr;  // taken: removed lazily, so that taking stays O(log n)
    ++taken_;
    while (!entries_.empty() && entries_.back().state == nullptr) {
        entries_.pop_back();
        --taken_;
    }
    if (taken_ > entries_.size() / 2) {
        std::erase_if(entries_, [](const Entry& entry) { return entry.state == nullptr; });
        taken_ = 0;
    }
    return true;
}

OPENCLAW_INLINE void CompletionCallbacks::cancel(void* key) noexcept {
    CallbackTable::Entry entry{};
    if (CallbackTable::instance().take(reinterpret_cast<std::uintptr_t>(key), entry)) {
        entry.destroy(entry.state);
    }
}

OPENCLAW_INLINE void CL_CALLBACK CompletionCallbacks::from_driver(cl_event, cl_int status,
                                                                  void* key) noexcept {
    CallbackTable::Entry entry{};
    if (CallbackTable::instance().take(reinterpret_cast<std::uintptr_t>(key), entry)) {
        // NVIDIA's driver (580) passes CL_COMPLETE, the status the callback was registered
        // for, also for an event that failed: the event's own status says which it was.
        cl_int actual = CL_COMPLETE;
        if (status >= 0 &&
            clGetEventInfo(entry.event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof actual, &actual,
                           nullptr) == CL_SUCCESS &&
            actual < 0) {
            status = actual;
        }
        entry.run(entry.state, status);
    }
}

inline ServiceTime CallbackTable::serve() {
    using clock = std::chrono::steady_clock;
    std::vector<std::pair<Entry, cl_int>> due;
    clock::time_point next = clock::time_point::max();
    {
        const std::lock_guard lock(mutex_);
        if (entries_.empty()) {
            next_poll_ = {};
            return service_idle;
        }
        const clock::time_point now = clock::now();
        const auto interval = std::chrono::microseconds(
            20000 + static_cast<std::chrono::microseconds::rep>(entries_.size()));
        if (next_poll_ == clock::time_point{}) {
            next_poll_ = now + interval;  // the driver's calls may still come: poll later
            return service_time(next_poll_);
        }
        if (now < next_poll_) {
            return service_time(next_poll_);
        }
        std::size_t kept = 0;
        for (Entry& entry : entries_) {
            if (entry.state == nullptr) {
                continue;  // taken by its driver call
            }
            cl_int status = CL_COMPLETE;
            const bool known = clGetEventInfo(entry.event, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                              sizeof status, &status, nullptr) == CL_SUCCESS;
            if (!known || status < 0) {
                if (entry.failed_once) {
                    due.emplace_back(entry, known ? status : CL_INVALID_EVENT);
                    continue;
                }
                entry.failed_once = true;  // the driver's call may still be on its way
            }
            // Running, complete (the driver calls back) or failed since this poll only.
            entries_[kept++] = entry;
        }
        entries_.resize(kept);
        taken_ = 0;
        next_poll_ = entries_.empty() ? clock::time_point{} : now + interval;
        next = entries_.empty() ? next : next_poll_;
    }
    for (const auto& [entry, status] : due) {
        entry.run(entry.state, status);
    }
    return service_time(next);
}

OPENCLAW_INLINE void* CompletionCallbacks::add(cl_event event, void* state, Run run,
                                               Destroy destroy) {
    return CallbackTable::instance().add(event, state, run, destroy);
}

OPENCLAW_INLINE void add_service_client(ServiceClient& client) {
    ServiceThread::instance().add(client);
}

OPENCLAW_INLINE void wake_service() {
    ServiceThread::instance().wake();
}

}  // namespace detail

OPENCLAW_INLINE void Event::wait(OnError on_error) const {
    if (!*this) {
        detail::refuse_empty(on_error, CL_INVALID_EVENT, "clWaitForEvents", "event");
        return;
    }
    const cl_event raw = get();
    check_wait(clWaitForEvents(1, &raw), on_error);
}

OPENCLAW_INLINE void Event::wait_all(std::span<const Event> events, OnError on_error) {
    WaitList list;
    for (const Event& event : events) {
        detail::WaitListAccess::add_deferred(list, event);
    }
    if (!list.check("clWaitForEvents", on_error) || list.empty()) {
        return;
    }
    const cl_int code = clWaitForEvents(list.size(), list.data());
    if (code == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) {
        for (const Event& event : events) {
            Status unreadable;
            if (event.status(unreadable) < 0 && !event.check_wait(code, on_error)) {
                return;
            }
        }
    }
    (void)detail::check(code, "clWaitForEvents", on_error,
                        [&] { return detail::concat("waiting for ", list.size(), " events"); });
}

OPENCLAW_INLINE bool Event::check_wait(cl_int code, OnError on_error) const {
    if (code == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) {
        // The command's own (negative) status says why; if even that cannot be read, the
        // wait's code is the error, not the failed query's.
        std::error_code unreadable;
        const cl_int status = this->status(unreadable);
        detail::fail(on_error, code, "clWaitForEvents", detail::abnormal_end(get(), status));
        return false;
    }
    return detail::check(code, "clWaitForEvents", on_error);
}

OPENCLAW_INLINE cl_ulong Event::profiling(cl_profiling_info param, OnError on_error) const {
    if (!*this) {
        detail::refuse_empty(on_error, CL_INVALID_EVENT, "clGetEventProfilingInfo", "event");
        return {};
    }
    cl_ulong value = 0;
    const cl_int code = clGetEventProfilingInfo(get(), param, sizeof(value), &value, nullptr);
    (void)detail::check(code, "clGetEventProfilingInfo", on_error, [&] {
        return code == CL_PROFILING_INFO_NOT_AVAILABLE
                   ? std::string(
                         "no timestamps: create the queue with {.profiling = true} "
                         "and wait for the command to complete")
               : param == CL_PROFILING_COMMAND_QUEUED ? std::string("CL_PROFILING_COMMAND_QUEUED")
               : param == CL_PROFILING_COMMAND_SUBMIT ? std::string("CL_PROFILING_COMMAND_SUBMIT")
               : param == CL_PROFILING_COMMAND_START  ? std::string("CL_PROFILING_COMMAND_START")
                                                      : std::string("CL_PROFILING_COMMAND_END");
    });
    return value;
}

OPENCLAW_INLINE detail::Handle<cl_event> UserEvent::create(const Context& context,
                                                           OnError on_error) {
    if (!context) {
        detail::refuse_empty(on_error, CL_INVALID_CONTEXT, "clCreateUserEvent", "context");
        return {};
    }
    cl_int code = CL_SUCCESS;
    cl_event raw = clCreateUserEvent(context.get(), &code);
    raw = detail::created_or_null(raw, code);
    if (!detail::check(code, "clCreateUserEvent", on_error)) {
        return {};
    }
    return detail::Handle<cl_event>::adopt(raw);
}

OPENCLAW_INLINE void UserEvent::set(cl_int status, OnError on_error) const {
    // A second clSetUserEventStatus is CL_INVALID_OPERATION by the specification, but not
    // every driver says so (NVIDIA's returns CL_SUCCESS): the status is read first.
    detail::Relay step(on_error);
    const cl_int current = this->status(step);
    if (step.failed()) {
        return;
    }
    if (current == CL_COMPLETE || current < 0) {
        detail::fail(on_error, CL_INVALID_OPERATION, "clSetUserEventStatus",
                     detail::concat("a user event's status can be set once (it is already ",
                                    current == CL_COMPLETE ? std::string("CL_COMPLETE")
                                                           : std::string(code_name(current)),
                                    ")"));
        return;
    }
    if (detail::check(clSetUserEventStatus(get(), status), "clSetUserEventStatus", on_error,
                      [] { return std::string("a user event's status can be set once"); }) &&
        status < 0) {
        cl_context context = nullptr;
        if (clGetEventInfo(get(), CL_EVENT_CONTEXT, sizeof context, &context, nullptr) ==
            CL_SUCCESS) {
            detail::note_failed_user_event(context, status);
        }
    }
}

OPENCLAW_END_NAMESPACE
