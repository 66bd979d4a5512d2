// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// C++20 coroutines over events (a side header: the async wing): `co_await event` suspends until
// the command completes, and `co_await when_all(events)` until several have. Completion callbacks
// run on driver threads, where blocking OpenCL calls are not allowed, so coroutines are resumed on
// one thread of openclaw's instead; code after a co_await may call anything (it runs on that
// thread). openclaw supplies no task type: bring your own (examples/async_pipeline has a small
// one).

#include <openclaw/error.hpp>
#include <openclaw/event.hpp>

#include <atomic>
#include <chrono>
#include <coroutine>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

OPENCLAW_BEGIN_NAMESPACE

namespace detail {
// Awaiting events is declared here: the stubs of fwd.hpp step aside.
template <class... A>
inline constexpr bool side_header_included<async_header, A...> = true;
}  // namespace detail

namespace detail {

/// One suspended co_await: the coroutine, the events it waits for, when it suspended, and
/// whether it has been handed to the resumer (exactly once, by a callback or by the watch).
struct Suspension {
    std::coroutine_handle<> handle;
    // Copies (retained): the watch may still be querying them when a callback resumes the
    // coroutine and the awaiter's own copies go away. Read and cleared only by the resumer
    // once the entry is in the watch (cleared when it leaves the watch).
    std::vector<Event> events;
    std::chrono::steady_clock::time_point since = std::chrono::steady_clock::now();
    // Callbacks still to come; the last one resumes the coroutine (when_all sets one per event).
    std::atomic<std::size_t> callbacks{1};
    std::atomic<bool> resumed{false};
    // The keys of its callbacks in AwaitCallbacks (guarded by that table's mutex).
    std::vector<std::uintptr_t> keys;

    void resume_once();
};

/// The await callbacks handed to the driver, by key: the driver is given a number, not a
/// pointer. PoCL (3.1 and 5.0) never calls the completion callback of a command that terminated
/// abnormally, so a callback's state cannot be freed by the callback alone: once its await has
/// resumed (by the resumer's poll), its entries are dropped here, and a callback that comes
/// after that finds no entry and does nothing. Nothing leaks, whatever the driver does.
class AwaitCallbacks {
  public:
    /// The one table of the program (made on first use and never destroyed, as the resume
    /// thread: callbacks may arrive while static objects are being destroyed at exit).
    static AwaitCallbacks& instance();

    /// A new key for a callback of `suspension`.
    void* add(const std::shared_ptr<Suspension>& suspension) {
        const std::lock_guard lock(mutex_);
        const std::uintptr_t key = ++next_;
        entries_.push_back({key, suspension});  // keys ascend: the table stays sorted
        ++live_;
        suspension->keys.push_back(key);
        return reinterpret_cast<void*>(key);
    }
    /// The suspension of `key`, removed from the table; empty when it was dropped already.
    std::shared_ptr<Suspension> take(const void* key) {
        const std::lock_guard lock(mutex_);
        return remove(reinterpret_cast<std::uintptr_t>(key));
    }
    /// Drops every callback of `suspension` still in the table (it has resumed).
    void drop(Suspension& suspension) {
        const std::lock_guard lock(mutex_);
        for (const std::uintptr_t key : suspension.keys) {
            (void)remove(key);
        }
        suspension.keys.clear();
    }

  private:
    struct Entry {
        std::uintptr_t key;
        std::shared_ptr<Suspension> suspension;  // empty once taken or dropped
    };
    AwaitCallbacks() = default;

    // Called locked. Binary search (the keys ascend); taken entries are trimmed from both ends,
    // and the table is compacted when most of it is taken.
    std::shared_ptr<Suspension> remove(std::uintptr_t key) {
        std::size_t low = 0;
        std::size_t high = entries_.size();
        while (low < high) {
            const std::size_t middle = low + (high - low) / 2;
            if (entries_[middle].key < key) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        if (low == entries_.size() || entries_[low].key != key) {
            return {};
        }
        std::shared_ptr<Suspension> found = std::move(entries_[low].suspension);
        if (found) {
            --live_;
        }
        while (!entries_.empty() && !entries_.back().suspension) {
            entries_.pop_back();
        }
        if (live_ < entries_.size() / 2) {
            std::erase_if(entries_, [](const Entry& entry) { return !entry.suspension; });
        }
        return found;
    }

    std::mutex mutex_;
    std::vector<Entry> entries_;
    std::size_t live_ = 0;
    std::uintptr_t next_ = 0;
};

/// What resumes coroutines whose events completed, on openclaw's service thread (a client of it:
/// detail::ServiceClient, event.hpp). Made on first use and never destroyed (callbacks may still
/// arrive while static objects are being destroyed at exit).
///
/// Completion callbacks resume coroutines, but they are not enough. NVIDIA's driver (580, H200)
/// delivers the callback of a command that ran longer than about 0.1 ms on a 20 ms tick
/// (measured: a 0.7 ms kernel's callback came 19.9 ms after it was enqueued, while
/// clGetEventInfo saw it complete at 0.74 ms), and PoCL (3.1, 5.0) never calls the callback of a
/// command that terminated abnormally. So while an await is suspended the resumer also polls the
/// awaited events' execution status (clGetEventInfo) and resumes a coroutine whose events have
/// completed or failed, whichever of callback and poll comes first. The poll interval grows with
/// the time waited, an eighth of the youngest await's age, from 20 us to at most 1 ms: a
/// resumption is late by at most an eighth of the wait (and 1 ms), and a long wait costs a few
/// polls per millisecond. With many awaits suspended the interval is at least 1 us per await, so
/// that polling stays a few percent of a core (one poll costs about 40 ns per await: measured on
/// the H200 host, 10,000 awaits polled every millisecond took 0.3 to 0.4 of a core). No await
/// suspended, no polling.
///
/// A callback that comes after the poll resumed its coroutine (on NVIDIA up to 20 ms later, maybe
/// after the program ended) holds no OpenCL object: awaits' callback states hold no event
/// reference (`AwaitCallback`), and the watch drops its references to an await's events before
/// the coroutine runs on.
class Resumer final : public ServiceClient {
  public:
    /// The one resumer of the program (made on first use; a client of the service thread).
    static Resumer& instance();

    void post(std::coroutine_handle<> handle) {
        {
            const std::lock_guard lock(mutex_);
            ready_.push_back(handle);
        }
        wake_service();
    }

    void watch(std::shared_ptr<Suspension> suspension) {
        {
            const std::lock_guard lock(mutex_);
            watched_.push_back(std::move(suspension));
        }
        wake_service();  // a young await: poll it soon, not after the current (long) interval
    }

    /// Polls the watched awaits, resumes the coroutines posted (on the service thread), and asks
    /// for the next round after poll_interval() while an await is suspended.
    detail::ServiceTime serve() override {
        std::vector<std::shared_ptr<Suspension>> watched;
        {
            const std::lock_guard lock(mutex_);
            drop_resumed();
            watched = watched_;
        }
        for (const auto& suspension : watched) {
            if (!suspension->resumed.load() && settled(suspension->events)) {
                suspension->resume_once();
            }
        }
        watched.clear();
        // Every handle in `ready` was posted by resume_once, which marked its suspension resumed
        // first: erased here, in the same locked step, so that no entry of the watch (and no
        // reference to an awaited event) outlives the await once the coroutine runs again. A
        // program that ends right after its last await leaves nothing behind.
        std::vector<std::coroutine_handle<>> ready;
        {
            const std::lock_guard lock(mutex_);
            drop_resumed();
            ready.swap(ready_);
        }
        for (std::coroutine_handle<> handle : ready) {
            handle.resume();
        }
        const std::lock_guard lock(mutex_);
        if (watched_.empty()) {
            return detail::service_idle;
        }
        return std::chrono::duration_cast<std::chrono::nanoseconds>(
                   (std::chrono::steady_clock::now() + poll_interval()).time_since_epoch())
            .count();
    }

  private:
    Resumer() = default;

    /// An eighth of the youngest suspended await's age, within [20 us, 1 ms], and at least 1 us
    /// per suspended await. Called locked.
    std::chrono::microseconds poll_interval() const {
        auto youngest = watched_.front()->since;
        for (const auto& suspension : watched_) {
            youngest = suspension->since > youngest ? suspension->since : youngest;
        }
        const auto age = std::chrono::duration_cast<std::chrono::microseconds>(
            std::chrono::steady_clock::now() - youngest);
        const auto eighth = age / 8;
        const auto by_age = eighth < std::chrono::microseconds(20) ? std::chrono::microseconds(20)
                            : eighth > std::chrono::microseconds(1000)
                                ? std::chrono::microseconds(1000)
                                : eighth;
        const auto by_count =
            std::chrono::microseconds(static_cast<std::chrono::microseconds::rep>(watched_.size()));
        return by_count > by_age ? by_count : by_age;
    }

    /// True when every event has completed or one has failed (or cannot be queried: it will not
    /// complete either).
    static bool settled(const std::vector<Event>& events) noexcept {
        bool all_complete = true;
        for (const Event& event : events) {
            cl_int status = CL_COMPLETE;
            if (clGetEventInfo(event.get(), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status),
                               &status, nullptr) != CL_SUCCESS ||
                status < 0) {
                return true;
            }
            all_complete = all_complete && status == CL_COMPLETE;
        }
        return all_complete;
    }

    /// Removes the resumed entries from the watch, with their event references. Called locked.
    void drop_resumed() {
        std::erase_if(watched_, [](const auto& suspension) {
            if (!suspension->resumed.load()) {
                return false;
            }
            suspension->events.clear();
            AwaitCallbacks::instance().drop(*suspension);  // callbacks the driver never calls
            return true;
        });
    }

    std::mutex mutex_;
    std::vector<std::coroutine_handle<>> ready_;
    std::vector<std::shared_ptr<Suspension>> watched_;
};

inline void Suspension::resume_once() {
    if (!resumed.exchange(true)) {
        Resumer::instance().post(handle);
    }
}

/// An await's completion callback. The driver is handed the callback's key in AwaitCallbacks
/// and no OpenCL object (the driver passes the event to the callback and keeps it until then), so
/// a callback still pending when the program ends holds nothing, and one the driver never calls
/// is dropped when its await resumes. The last of a suspension's callbacks resumes the coroutine.
struct AwaitCallback {
    static void CL_CALLBACK invoke(cl_event, cl_int, void* key) {
        const std::shared_ptr<Suspension> suspension = AwaitCallbacks::instance().take(key);
        if (suspension && suspension->callbacks.fetch_sub(1, std::memory_order_acq_rel) == 1) {
            suspension->resume_once();
        }
    }

    /// Sets the callback on `event` (clSetEventCallback, CL_COMPLETE).
    static void set(const Event& event, const std::shared_ptr<Suspension>& suspension,
                    OnError on_error) {
        AwaitCallbacks& table = AwaitCallbacks::instance();
        void* const key = table.add(suspension);
        const cl_int code = clSetEventCallback(event.get(), CL_COMPLETE, &invoke, key);
        if (code != CL_SUCCESS) [[unlikely]] {
            (void)table.take(key);  // never handed to the driver: out before the report throws
            (void)check(code, "clSetEventCallback", on_error);
        }
    }
};

/// Arms `arm` (which flushes and sets the callbacks), then registers `suspension` with the resume
/// thread's watch. In that order because the watch may resume the coroutine, and so destroy the
/// awaiter, as soon as it sees the events complete: `arm` may use the awaiter, and nothing after
/// it does (`suspension` is the caller's local). If arming throws, neither a callback nor the
/// watch resumes the coroutine: the exception does.
template <class Arm>
void suspend(const std::shared_ptr<Suspension>& suspension, Arm&& arm) {
#if defined(__cpp_exceptions)
    try {
        arm();
    } catch (...) {
        suspension->resumed.store(true);
        throw;
    }
#else
    arm();
#endif
    Resumer::instance().watch(suspension);
}

/// Submits the commands queued before `event` (clFlush on its queue; user events have none):
/// a driver may hold queued commands back until a flush (NVIDIA's does), and a callback on a
/// command that was never submitted does not fire, nor does the command complete for the watch to
/// see.
inline void flush_queue_of(const Event& event, OnError on_error) {
    const cl_command_queue queue = event.info<CL_EVENT_COMMAND_QUEUE>(on_error);
    if (queue != nullptr) {
        (void)check(clFlush(queue), "clFlush", on_error);
    }
}

inline void report_if_failed(const std::vector<Event>& events, const char* call, OnError on_error) {
    for (const Event& event : events) {
        const cl_int status = event.status(on_error);
        if (status < 0) {
            fail(on_error, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, call,
                 concat("the awaited ", abnormal_end(event.get(), status).substr(4)));
            return;
        }
    }
}

}  // namespace detail

/// What `co_await event` uses: resumes on openclaw's service thread once the command completes,
/// and throws an Error if it failed (or reports it to the OnError given: when_complete()).
class EventAwaiter {
  public:
    /// Waits for `event` (a copy: the awaiter shares the command's event); failures go to
    /// `on_error` (it may be held across the suspension: its target outlives the coroutine's
    /// frame, or lives in it).
    explicit EventAwaiter(Event event, OnError on_error = {})
        : events_{std::move(event)}, on_error_(on_error) {}

    /// True when the command has already completed (clGetEventInfo), so no suspension is needed.
    bool await_ready() const {
        if (!events_.front()) {
            return true;  // refused by await_resume
        }
        return events_.front().is_complete(on_error_);
    }
    /// Flushes the command's queue and has `handle` resumed on openclaw's service thread when the
    /// command completes: by a completion callback (clSetEventCallback) or by the resumer's
    /// poll of its status, whichever comes first.
    void await_suspend(std::coroutine_handle<> handle) const {
        auto suspension = std::make_shared<detail::Suspension>();
        suspension->handle = handle;
        suspension->events = events_;
        detail::suspend(suspension, [&] {
            // Flushed first: once the callback is set the coroutine may resume (and this awaiter
            // be destroyed) at any moment.
            const OnError on_error = on_error_;
            detail::flush_queue_of(events_.front(), on_error);
            detail::AwaitCallback::set(suspension->events.front(), suspension, on_error);
        });
    }
    /// Throws Error (or reports to the OnError given) if the command terminated abnormally (a
    /// negative execution status).
    void await_resume() const {
        if (!events_.front()) {
            detail::refuse_empty(on_error_, CL_INVALID_EVENT, "co_await", "event");
            return;
        }
        detail::report_if_failed(events_, "co_await", on_error_);
    }

  private:
    std::vector<Event> events_;
    OnError on_error_;
};

/// Makes an Event awaitable: `co_await event` resumes once the command completes and throws
/// Error if it failed.
inline EventAwaiter operator co_await(const Event& event) {
    return EventAwaiter(event);
}

/// `co_await when_complete(event, status)`: as `co_await event`, with the failure of the command
/// (or of the await) reported to `on_error` instead of thrown.
inline EventAwaiter when_complete(const Event& event, OnError on_error) {
    return EventAwaiter(event, on_error);
}

/// An awaitable that completes when every one of its events has completed (or one has failed).
class WhenAll {
  public:
    /// Waits for all of `events`; failures go to `on_error`.
    explicit WhenAll(std::vector<Event> events, OnError on_error = {})
        : events_(std::move(events)), on_error_(on_error) {}

    /// True when every event has already completed.
    bool await_ready() const {
        for (const Event& event : events_) {
            if (!event || !event.is_complete(on_error_)) {
                return !event;  // an empty event: refused by await_resume
            }
        }
        return true;
    }
    /// Registers one completion callback per event; the last one to fire resumes `handle`, unless
    /// the resumer's poll sees them all complete (or one failed) first.
    void await_suspend(std::coroutine_handle<> handle) const {
        auto suspension = std::make_shared<detail::Suspension>();
        suspension->handle = handle;
        suspension->events = events_;
        suspension->callbacks = events_.size();  // the last callback resumes the coroutine
        detail::suspend(suspension, [&] {
            const OnError on_error = on_error_;
            for (const Event& event : events_) {
                detail::flush_queue_of(event, on_error);
            }
            // The last callback set may resume the coroutine and destroy this awaiter: the loop
            // runs over the suspension's copies (kept alive by this frame's `suspension`).
            for (const Event& event : suspension->events) {
                detail::AwaitCallback::set(event, suspension, on_error);
            }
        });
    }
    /// Throws Error (or reports to the OnError given) naming the first event that terminated
    /// abnormally.
    void await_resume() const {
        for (std::size_t i = 0; i < events_.size(); ++i) {
            if (!events_[i]) {
                detail::fail(
                    on_error_, CL_INVALID_EVENT, "co_await when_all",
                    detail::concat("event ", i, " is empty (default-constructed or moved-from)"));
                return;
            }
        }
        detail::report_if_failed(events_, "co_await when_all", on_error_);
    }

  private:
    std::vector<Event> events_;
    OnError on_error_;
};

/// `co_await when_all(a, b, c)` or `co_await when_all(vector_of_events)`; with an OnError last,
/// `when_all(events, status)`, failures are reported there instead of thrown.
inline WhenAll when_all(std::span<const Event> events, OnError on_error = {}) {
    return WhenAll(std::vector<Event>(events.begin(), events.end()), on_error);
}
/// `co_await when_all(e1, e2, e3)`: an awaitable over the given events.
template <class... Events>
requires(std::same_as<Events, Event>&&...) WhenAll when_all(const Events&... events) {
    return WhenAll(std::vector<Event>{events...});
}

OPENCLAW_END_NAMESPACE

#if OPENCLAW_HEADER_ONLY
#include <openclaw/impl/async.ipp>
#endif

#include <openclaw/detail/base/macros_pop.hpp>
