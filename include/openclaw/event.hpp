// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// Event: the completion of one enqueued command (objects layer). openclaw creates one only when
// the caller asks for it (pass `with_event` to an enqueue call), so the plain launch path
// allocates nothing. Also here: completion callbacks taking any callable, user events, and after(),
// which makes wait lists of Events (wait_list.hpp). The timestamps of a profiled command are
// Profile, std::chrono durations in the side header profile.hpp, so that the common path does
// without <chrono>.

#include <openclaw/context.hpp>
#include <openclaw/detail/base/handle.hpp>
#include <openclaw/detail/base/info.hpp>
#include <openclaw/wait_list.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>

OPENCLAW_BEGIN_NAMESPACE

namespace detail {

/// What Event::profile() and Event::duration() make of a command's timestamps.
/// <openclaw/profile.hpp> specializes it for Profile; this primary template, the only one a unit
/// without that header sees, stops the build with the header to include (a unit either has the
/// specialization or does not compile the call: no two units can read it differently).
template <class P>
struct ProfileReader {
    static_assert(dependent_false<P>,
                  "event.profile(), event.duration(): profiling times are std::chrono "
                  "durations, declared in <openclaw/profile.hpp>: include it (or "
                  "<openclaw/all.hpp>)");
    template <class E>
    static void read(const E&, OnError) {}
    template <class E>
    static void duration(const E&, OnError) {}
};

/// A time on std::chrono::steady_clock in nanoseconds since its epoch (the service thread's
/// deadlines, kept as integers so that this header does without <chrono>).
using ServiceTime = std::int64_t;
/// The deadline of a client with nothing to do until it is woken.
inline constexpr ServiceTime service_idle = INT64_MAX;

/// Work openclaw does on its one service thread (made on first use, never destroyed: callbacks
/// may arrive while static objects are being destroyed at exit). The thread serves its clients
/// in rounds: the completion callbacks' poll (below) and, in a program that awaits events, the
/// coroutine resumer (async.hpp). serve() does one round of the client's work and returns when it
/// wants the next round (service_idle: only when woken); the thread runs a round at the
/// earliest time any client asked for, or at once after wake_service(). Code that runs there
/// (coroutines after a co_await, callbacks run by the poll) must not wait for another client's
/// work: the thread is busy with it.
class ServiceClient {
  public:
    /// One round of work; returns when the next round is due.
    virtual ServiceTime serve() = 0;

  protected:
    ServiceClient() = default;
    ServiceClient(const ServiceClient&) = delete;
    ServiceClient& operator=(const ServiceClient&) = delete;
    ~ServiceClient() = default;
};

/// Adds `client`, which lives as long as the program, to the service thread's rounds (starting
/// the thread with its first client).
void add_service_client(ServiceClient& client);
/// Asks the service thread for a round now (a client has work).
void wake_service();

/// The on_complete callbacks handed to the driver, by key: the driver is given a number, not a
/// pointer, and the table owns each callback's state. PoCL (3.1 and 5.0) never calls the
/// completion callback of an event that failed (a user event set to a negative status, or a
/// command its failed wait list terminated), so the service thread polls the events whose
/// callbacks are still pending, every 20 ms, and runs the callback of one that has failed and
/// stayed without its driver call for a whole poll interval. Whoever takes a key from the table
/// first (the driver's call or the poll) runs its callback: exactly once, then the state is
/// freed. A driver call that comes later finds no entry and does nothing. Nothing is polled while
/// nothing is pending.
class CompletionCallbacks {
  public:
    /// Runs the callback with the event's final status, then frees the state.
    using Run = void (*)(void* state, cl_int status) noexcept;
    /// Frees the state without running the callback.
    using Destroy = void (*)(void* state) noexcept;

    /// Takes `state`, whose callback waits for `event` (which the state keeps retained), and
    /// returns the key to hand the driver. The table (and its thread) is made on first use and
    /// never destroyed: callbacks may arrive while static objects are being destroyed at exit.
    static void* add(cl_event event, void* state, Run run, Destroy destroy);
    /// Frees the state of `key` without running it (the driver refused the registration).
    static void cancel(void* key) noexcept;
    /// The driver's callback: runs the state of `key` unless the poll ran it already.
    static void CL_CALLBACK from_driver(cl_event, cl_int status, void* key) noexcept;
};

/// The state of one on_complete registration: the callable and a reference to its event, so the
/// event outlives the user's handles. Run or destroyed once, by CompletionCallbacks.
template <class F>
struct CallbackState {
    detail::Handle<cl_event> event;
    F callback;

    static void run(void* data, cl_int status) noexcept {
        const std::unique_ptr<CallbackState> self(static_cast<CallbackState*>(data));
        // The driver holds the event while it calls us: our reference may go first, so nothing
        // of OpenCL's is left to release once the callback has run (it may resume a coroutine
        // that ends the program).
        self->event.reset();
        if constexpr (std::is_invocable_v<F&, cl_int>) {
            self->callback(status);
        } else {
            self->callback();
        }
    }
    static void destroy(void* data) noexcept { delete static_cast<CallbackState*>(data); }
};

}  // namespace detail

/// The status of one enqueued command (cl_event): wait(), status(), profile(), callbacks. Made
/// by the enqueue calls that take `with_event`; copying shares it (clRetainEvent).
class [[nodiscard]] Event {
  public:
    Event() = default;

    /// Takes ownership of `raw` (no retain; released by the destructor).
    [[nodiscard]] static Event adopt(cl_event raw) noexcept {
        return Event(detail::Handle<cl_event>::adopt(raw));
    }
    /// Shares `raw`: retains it (clRetainEvent), the caller keeps its own reference.
    [[nodiscard]] static Event retain(cl_event raw, OnError on_error = {}) {
        return Event(detail::Handle<cl_event>::retain(raw, on_error));
    }

    /// Blocks until the command completes; fails if it terminated abnormally.
    void wait(OnError on_error = {}) const;

    /// Blocks until every event of `events` has completed.
    static void wait_all(std::span<const Event> events, OnError on_error = {});

    /// CL_QUEUED, CL_SUBMITTED, CL_RUNNING, CL_COMPLETE, or a negative error code.
    cl_int status(OnError on_error = {}) const {
        return info<CL_EVENT_COMMAND_EXECUTION_STATUS>(on_error);
    }
    /// True once the command has completed (CL_COMPLETE); false while it is queued or running, or
    /// if it terminated abnormally.
    bool is_complete(OnError on_error = {}) const { return status(on_error) == CL_COMPLETE; }

    /// The command's timestamps (a Profile: include <openclaw/profile.hpp>); its queue must have
    /// been created with {.profiling = true} and the command must have completed (call wait()
    /// first).
    template <class P = Profile>
    auto profile(OnError on_error = {}) const {
        return detail::ProfileReader<P>::read(*this, on_error);
    }
    /// How long the command ran on the device, as std::chrono::nanoseconds (profile().duration();
    /// include <openclaw/profile.hpp>).
    template <class P = Profile>
    auto duration(OnError on_error = {}) const {
        return detail::ProfileReader<P>::duration(*this, on_error);
    }

    /// Calls `callback` (with the command's final status, a cl_int, if it takes one) once the
    /// command completes or fails, on a thread of the driver's (or, for a failed event whose
    /// driver never calls back, as PoCL's, on openclaw's poll thread within about 20 ms). The
    /// callback keeps the event alive; its state is freed once, after it ran. Like any driver
    /// callback it must not block on OpenCL work or throw (an escaping exception terminates).
    template <class F>
    requires std::is_invocable_v < std::decay_t<F>
    &, cl_int > ||
           std::is_invocable_v<std::decay_t<F>&> void on_complete(F&& callback,
                                                                  OnError on_error = {}) const {
        using State = detail::CallbackState<std::decay_t<F>>;
        if (!*this) {
            detail::refuse_empty(on_error, CL_INVALID_EVENT, "clSetEventCallback", "event");
            return;
        }
        auto state = std::make_unique<State>(
            State{detail::Handle<cl_event>::retain(get(), on_error), std::forward<F>(callback)});
        if (!state->event) {
            return;
        }
        const cl_event event = state->event.get();
        void* const key =
            detail::CompletionCallbacks::add(event, state.get(), &State::run, &State::destroy);
        (void)state.release();  // the table's now (add may throw: then the state is freed here)
        if (!detail::check(clSetEventCallback(event, CL_COMPLETE,
                                              &detail::CompletionCallbacks::from_driver, key),
                           "clSetEventCallback", on_error)) {
            detail::CompletionCallbacks::cancel(key);
        }
    }

    /// Any clGetEventInfo parameter, with its C++ type from openclaw's info table.
    template <cl_event_info Param>
    detail::info_t<cl_event, Param> info(OnError on_error = {}) const {
        return detail::get_info<cl_event, Param>(on_error, get());
    }

    /// The raw cl_event (not retained; null when empty).
    cl_event get() const noexcept { return handle_.get(); }
    /// True when the object holds an event.
    explicit operator bool() const noexcept { return static_cast<bool>(handle_); }
    friend bool operator==(const Event&, const Event&) = default;

  protected:
    /// \private Wraps a handle (for UserEvent).
    explicit Event(detail::Handle<cl_event> handle) noexcept : handle_(std::move(handle)) {}

  private:
    bool check_wait(cl_int code, OnError on_error) const;
    // One timestamp in nanoseconds (0 after a failure).
    cl_ulong profiling(cl_profiling_info param, OnError on_error) const;
    template <class P>
    friend struct detail::ProfileReader;

    detail::Handle<cl_event> handle_;
};

/// An event the host completes: commands can wait for it (to hold work back until the host is
/// ready), and complete() or fail() releases them.
class UserEvent : public Event {
  public:
    /// A new user event of `context` (clCreateUserEvent), not yet complete.
    explicit UserEvent(const Context& context, OnError on_error = {})
        : Event(create(context, on_error)) {}

    /// Marks the event complete: commands waiting for it may run.
    void complete(OnError on_error = {}) const { set(CL_COMPLETE, on_error); }
    /// Marks the event failed with a negative `code`: commands waiting for it terminate.
    void fail(cl_int code, OnError on_error = {}) const {
        if (code >= 0) {
            detail::fail(on_error, CL_INVALID_VALUE, "clSetUserEventStatus",
                         detail::concat("a failure code must be negative, got ", code));
            return;
        }
        set(code, on_error);
    }

  private:
    static detail::Handle<cl_event> create(const Context& context, OnError on_error);
    void set(cl_int status, OnError on_error) const;
};

inline WaitList& WaitList::add(const Event& event, OnError on_error) {
    if (!event) {
        detail::fail(
            on_error, CL_INVALID_EVENT_WAIT_LIST, "WaitList::add",
            detail::concat("event ", size_, " is empty (default-constructed or moved-from)"));
        return *this;
    }
    push(event.get());
    return *this;
}

namespace detail {

struct WaitListAccess {
    /// Appends `event`, or, for an empty one, marks the list refused (after() cannot report).
    static void add_deferred(WaitList& list, const Event& event) {
        if (!event) {
            if (list.refused_at_ == WaitList::no_refusal) {
                list.refused_at_ = list.size_;
            }
            return;
        }
        list.push(event.get());
    }
};

template <class R>
concept EventRange = requires(const R& range) {
    { *std::begin(range) } -> std::convertible_to<const Event&>;
    std::end(range);
};
}  // namespace detail

namespace detail {
struct After {
    template <class... Events>
    WaitList operator()(const Events&... events) const {
        WaitList list;
        const auto add = [&list](const auto& item) {
            if constexpr (std::is_convertible_v<const decltype(item)&, const Event&>) {
                detail::WaitListAccess::add_deferred(list, item);
            } else if constexpr (std::is_same_v<std::remove_cvref_t<decltype(item)>, cl_event>) {
                static_assert(detail::dependent_false<decltype(item)>,
                              "after(): a raw cl_event is not an openclaw::Event: wrap it first, "
                              "Event::retain(e) (the caller keeps its reference) or "
                              "Event::adopt(e) (the Event takes it over)");
            } else if constexpr (detail::EventRange<std::remove_cvref_t<decltype(item)>>) {
                for (const Event& event : item) {
                    detail::WaitListAccess::add_deferred(list, event);
                }
            } else {
                static_assert(detail::dependent_false<decltype(item)>,
                              "after(): pass openclaw::Events or ranges of them (a vector, array "
                              "or span of Event)");
            }
        };
        (add(events), ...);
        return list;
    }
};
}  // namespace detail

/// `after(events...)`: the wait list of `events`, Events or ranges of Events (a vector, an
/// array, a span...). An empty Event among them makes the command that uses the list fail
/// (CL_INVALID_EVENT_WAIT_LIST, reported to that command's OnError). A function object, so that
/// argument-dependent lookup never offers it in place of a function of the caller's that is
/// also named `after`; call it qualified (`openclaw::after(e)`) or after a using-declaration.
inline constexpr detail::After after{};

OPENCLAW_END_NAMESPACE

#if OPENCLAW_HEADER_ONLY
#include <openclaw/impl/event.ipp>
#endif

#include <openclaw/detail/base/macros_pop.hpp>
