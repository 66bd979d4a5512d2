// SPDX-License-Identifier: Apache-2.0
#pragma once
// C++20 coroutines over events: `co_await event` suspends until the command completes, and
// `co_await when_all(events)` until several have. Completion callbacks run on driver threads,
// where blocking OpenCL calls are not allowed, so coroutines are resumed on one thread of
// openclaw's instead; code after a co_await may call anything (it runs on that thread). openclaw
// supplies no task type: bring your own (examples/async_pipeline has a small one).

#include <openclaw/error.hpp>
#include <openclaw/event.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <coroutine>
#include <deque>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

namespace openclaw {

namespace detail {

/// One suspended co_await: the coroutine, the events it waits for, and whether it has been
/// handed to the resume thread (exactly once, by a callback or by the failure watch).
struct Suspension {
    std::coroutine_handle<> handle;
    // Raw handles, not references: the awaiter in the suspended coroutine's frame holds the
    // Events, and only the resume thread resumes the coroutine, so they are alive whenever the
    // watch (on that thread) looks at an entry not yet resumed.
    std::vector<cl_event> events;
    std::atomic<bool> resumed{false};

    void resume_once();
};

/// The thread that resumes coroutines whose events completed. Made on first use and never
/// destroyed (callbacks may still arrive while static objects are being destroyed at exit).
/// It also watches suspended awaits for failed events: some drivers (PoCL 3.1 and 5.0) never
/// call completion callbacks of commands that terminate abnormally, and a co_await on one must
/// not hang. The watch polls every 20 ms, and only while an await is suspended.
class Resumer {
  public:
    static Resumer& instance() {
        static Resumer* const resumer = new Resumer;  // intentionally immortal
        return *resumer;
    }

    void post(std::coroutine_handle<> handle) {
        {
            const std::lock_guard lock(mutex_);
            ready_.push_back(handle);
        }
        wake_.notify_one();
    }

    void watch(std::shared_ptr<Suspension> suspension) {
        {
            const std::lock_guard lock(mutex_);
            watched_.push_back(std::move(suspension));
        }
        wake_.notify_one();
    }

  private:
    Resumer() {
        std::thread([this] { run(); }).detach();
    }

    [[noreturn]] void run() {
        for (;;) {
            std::deque<std::coroutine_handle<>> ready;
            std::vector<std::shared_ptr<Suspension>> watched;
            {
                std::unique_lock lock(mutex_);
                if (watched_.empty()) {
                    wake_.wait(lock, [this] { return !ready_.empty() || !watched_.empty(); });
                } else {
                    wake_.wait_for(lock, std::chrono::milliseconds(20),
                                   [this] { return !ready_.empty(); });
                }
                ready.swap(ready_);
                watched = watched_;
            }
            for (std::coroutine_handle<> handle : ready) {
                handle.resume();
            }
            for (const auto& suspension : watched) {
                if (!suspension->resumed.load() && any_failed(suspension->events)) {
                    suspension->resume_once();
                }
            }
            const std::lock_guard lock(mutex_);
            std::erase_if(watched_, [](const auto& s) { return s->resumed.load(); });
        }
    }

    static bool any_failed(const std::vector<cl_event>& events) noexcept {
        for (const cl_event event : events) {
            cl_int status = CL_COMPLETE;
            if (clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status,
                               nullptr) != CL_SUCCESS ||
                status < 0) {
                return true;  // failed, or cannot be queried: it will not complete either
            }
        }
        return false;
    }

    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::coroutine_handle<>> ready_;
    std::vector<std::shared_ptr<Suspension>> watched_;
};

inline void Suspension::resume_once() {
    if (!resumed.exchange(true)) {
        Resumer::instance().post(handle);
    }
}

/// Registers `suspension` with the failure watch and arms `arm` (which sets the callbacks); if
/// arming throws, the coroutine is not resumed by the watch: the exception resumes it.
template <class Arm>
void suspend(const std::shared_ptr<Suspension>& suspension, Arm&& arm) {
    Resumer::instance().watch(suspension);
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
}

/// Submits the commands queued before `event` (clFlush on its queue; user events have none):
/// a driver may hold queued commands back until a flush (NVIDIA's does), and a callback on a
/// command that was never submitted does not fire, so the awaiting coroutine would wait for the
/// failure watch instead.
inline void flush_queue_of(const Event& event) {
    const cl_command_queue queue = event.info<CL_EVENT_COMMAND_QUEUE>();
    if (queue != nullptr) {
        (void)check(clFlush(queue), "clFlush");
    }
}

inline void throw_if_failed(const std::vector<Event>& events, const char* call) {
    for (const Event& event : events) {
        const cl_int status = event.status();
        if (status < 0) {
            fail(status, call, "the awaited command terminated abnormally");
            return;
        }
    }
}

}  // namespace detail

/// What `co_await event` uses: resumes on openclaw's resume thread once the command completes,
/// and throws an Error if it failed.
class EventAwaiter {
  public:
    /// Waits for `event` (a copy: the awaiter shares the command's event).
    explicit EventAwaiter(Event event) : events_{std::move(event)} {}

    /// True when the command has already completed (clGetEventInfo), so no suspension is needed.
    bool await_ready() const { return events_.front().is_complete(); }
    /// Registers a completion callback (clSetEventCallback) that resumes `handle` on openclaw's
    /// resume thread.
    void await_suspend(std::coroutine_handle<> handle) const {
        auto suspension = std::make_shared<detail::Suspension>();
        suspension->handle = handle;
        suspension->events = {events_.front().get()};
        detail::suspend(suspension, [&] {
            // Flushed first: once the callback is set the coroutine may resume (and this awaiter
            // be destroyed) at any moment.
            detail::flush_queue_of(events_.front());
            events_.front().on_complete([suspension] { suspension->resume_once(); });
        });
    }
    /// Throws Error if the command terminated abnormally (a negative execution status).
    void await_resume() const { detail::throw_if_failed(events_, "co_await"); }

  private:
    std::vector<Event> events_;
};

/// Makes an Event awaitable: `co_await event` resumes once the command completes and throws
/// Error if it failed.
inline EventAwaiter operator co_await(const Event& event) {
    return EventAwaiter(event);
}

/// An awaitable that completes when every one of its events has completed (or one has failed).
class WhenAll {
  public:
    /// Waits for all of `events`.
    explicit WhenAll(std::vector<Event> events) : events_(std::move(events)) {}

    /// True when every event has already completed.
    bool await_ready() const {
        for (const Event& event : events_) {
            if (!event.is_complete()) {
                return false;
            }
        }
        return true;
    }
    /// Registers one completion callback per event; the last one to fire resumes `handle`.
    void await_suspend(std::coroutine_handle<> handle) const {
        auto suspension = std::make_shared<detail::Suspension>();
        suspension->handle = handle;
        for (const Event& event : events_) {
            suspension->events.push_back(event.get());
        }
        // One counter shared by the callbacks; the last to finish resumes the coroutine.
        auto remaining = std::make_shared<std::atomic<std::size_t>>(events_.size());
        detail::suspend(suspension, [&] {
            for (const Event& event : events_) {
                detail::flush_queue_of(event);
            }
            // The last callback set may resume the coroutine and destroy this awaiter: the loop
            // runs over a copy of the handles.
            const std::vector<Event> events = events_;
            for (const Event& event : events) {
                event.on_complete([remaining, suspension] {
                    if (remaining->fetch_sub(1, std::memory_order_acq_rel) == 1) {
                        suspension->resume_once();
                    }
                });
            }
        });
    }
    /// Throws Error naming the first event that terminated abnormally.
    void await_resume() const { detail::throw_if_failed(events_, "co_await when_all"); }

  private:
    std::vector<Event> events_;
};

/// `co_await when_all(a, b, c)` or `co_await when_all(vector_of_events)`.
inline WhenAll when_all(std::span<const Event> events) {
    return WhenAll(std::vector<Event>(events.begin(), events.end()));
}
/// `co_await when_all(e1, e2, e3)`: an awaitable over the given events.
template <class... Events>
requires(std::same_as<Events, Event>&&...) WhenAll when_all(const Events&... events) {
    return WhenAll(std::vector<Event>{events...});
}

}  // namespace openclaw
