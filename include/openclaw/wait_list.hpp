// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// WaitList: the events a command waits for (objects layer), held inline for short lists, and the
// other options a command takes beside it (with_event, nonblocking); how a blocking command makes
// sure its wait list did not fail (detail::BlockingWait), and the words for a failed event's
// status. Events themselves, and after(), which lists them, are in event.hpp.

#include <openclaw/config.hpp>
#include <openclaw/error.hpp>
#include <openclaw/fwd.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

OPENCLAW_BEGIN_NAMESPACE

namespace detail {
/// Remembers that a user event of `context` was failed with `status` (UserEvent::fail; the last
/// few are kept), so that a command that failed because it waited for it can name the origin:
/// drivers give such a command a code of their own (PoCL's -1), not the user's.
void note_failed_user_event(cl_context context, cl_int status) noexcept;

/// A failed event's negative execution status in words: a user event's status is marked as a
/// user status (no OpenCL error code, whatever code has that number); another command's names its
/// code and, when a user event of its context failed, that event's own status as the origin.
std::string failed_status(cl_event event, cl_int status);

/// Why `event`'s command "terminated abnormally", from its negative execution status (see
/// failed_status), or unknown when the status could not be read.
std::string abnormal_end(cl_event event, cl_int status);
}  // namespace detail

/// Tag asking an enqueue call to return the command's Event. Made only from its own key, so a
/// bare `{}` in a call is never taken for it, as std::nullopt_t does.
struct WithEvent {
    /// The only way to make the tag (openclaw::with_event is one).
    struct Key {
        explicit Key() = default;
    };
    /// Makes the tag from its key.
    constexpr explicit WithEvent(Key) noexcept {}
};
/// Pass it among a command's options (after its operands) to get the command's Event back.
inline constexpr WithEvent with_event{WithEvent::Key{}};

/// Tag asking a transfer not to block: it returns at once with the command's Event. Accepted
/// only for host memory that cannot be freed under the command (a PinnedBuffer, which waits for
/// it; a vector the queue is given, kept in the HostTransfer it returns).
struct Nonblocking {
    /// The only way to make the tag (openclaw::nonblocking is one).
    struct Key {
        explicit Key() = default;
    };
    /// Makes the tag from its key.
    constexpr explicit Nonblocking(Key) noexcept {}
};
/// Pass it among a transfer's options (after its operands) to enqueue it without waiting for it.
inline constexpr Nonblocking nonblocking{Nonblocking::Key{}};

namespace detail {
struct WaitListAccess;
}  // namespace detail

/// The events a command must wait for. Holds raw handles (the caller's Events keep them alive
/// for the call); up to `inline_capacity` of them without touching the heap. Build one with
/// after(e1, e2, ...) or after(range_of_events).
class WaitList {
  public:
    /// How many events fit without a heap allocation.
    static constexpr std::size_t inline_capacity = 8;

    WaitList() = default;
    /// Copies the events (not retained: an Event keeps each alive).
    WaitList(const WaitList&) = default;
    /// Takes the events; `other` is left empty (a moved vector no longer holds what size()
    /// counted).
    WaitList(WaitList&& other) noexcept
        : inline_(other.inline_),
          heap_(std::move(other.heap_)),
          size_(std::exchange(other.size_, 0)),
          refused_at_(std::exchange(other.refused_at_, no_refusal)) {}
    /// Copies the events (onto itself: unchanged).
    WaitList& operator=(const WaitList&) = default;
    /// As the move constructor; moving onto itself keeps the events.
    WaitList& operator=(WaitList&& other) noexcept {
        if (this != &other) {
            inline_ = other.inline_;
            heap_ = std::move(other.heap_);
            size_ = std::exchange(other.size_, 0);
            refused_at_ = std::exchange(other.refused_at_, no_refusal);
        }
        return *this;
    }
    ~WaitList() = default;

    /// The raw events for an event_wait_list argument; null when empty, as OpenCL requires.
    const cl_event* data() const noexcept {
        return size_ == 0 ? nullptr : (heap_.empty() ? inline_.data() : heap_.data());
    }
    /// The number of events (num_events_in_wait_list).
    cl_uint size() const noexcept { return static_cast<cl_uint>(size_); }
    /// True when the list has no events.
    bool empty() const noexcept { return size_ == 0; }

    /// Appends `event`; an empty (default-constructed or moved-from) Event is refused now.
    WaitList& add(const Event& event, OnError on_error = {});

    /// False when after() was given an empty Event: the command that uses this list refuses it
    /// (reporting to that command's OnError), and the list holds the events before it.
    bool valid() const noexcept { return refused_at_ == no_refusal; }

    /// Reports why the list is not valid() to `on_error` for `call`; true when it is valid.
    bool check(const char* call, OnError on_error) const {
        if (refused_at_ != no_refusal) [[unlikely]] {
            return refuse(call, on_error);
        }
        return true;
    }
    /// As check(), and refuses an event of another context than `context` (the queue's): a
    /// driver may run the command anyway (PoCL does) or fail without naming the event.
    bool check(const char* call, cl_context context, OnError on_error) const {
        if (refused_at_ != no_refusal) [[unlikely]] {
            return refuse(call, on_error);
        }
        return size_ == 0 || same_context(context, call, on_error);
    }

  private:
    friend struct detail::WaitListAccess;

    bool same_context(cl_context context, const char* call, OnError on_error) const;
    static constexpr std::size_t no_refusal = static_cast<std::size_t>(-1);

    void push(cl_event event);
    [[gnu::cold]] bool refuse(const char* call, OnError on_error) const;

    std::array<cl_event, inline_capacity> inline_{};
    std::vector<cl_event> heap_;
    std::size_t size_ = 0;
    std::size_t refused_at_ = no_refusal;  // the position of an empty event given to after()
};

namespace detail {
/// The empty wait list every command defaults to: referred to, not made at each call.
inline constexpr WaitList no_wait{};
}  // namespace detail

namespace detail {
/// The event of a blocking command with a wait list, made when the caller asked for none: a
/// failed event of the list must fail the command, but a driver may return CL_SUCCESS from a
/// blocking command that never ran (PoCL 3.1 does, leaving the host memory stale; with an event
/// that failed before the call it hangs instead). before() refuses a list with a failed event;
/// after() reads the command's own status. Without a wait list nothing is made or queried.
class BlockingWait {
  public:
    BlockingWait(const WaitList& wait, cl_event* event) noexcept
        : event_(event != nullptr || wait.empty() ? event : &own_), watch_(!wait.empty()) {}
    BlockingWait(const BlockingWait&) = delete;
    BlockingWait& operator=(const BlockingWait&) = delete;
    ~BlockingWait() {
        if (own_ != nullptr) {
            clReleaseEvent(own_);
        }
    }
    /// Where the command's event goes (the caller's, or this object's).
    cl_event* event() const noexcept { return event_; }
    /// False (after reporting it) when an event of `wait` has already terminated abnormally.
    static bool before(const WaitList& wait, const char* call, OnError on_error) {
        return wait.empty() || list_ok(wait, call, on_error);
    }
    /// After the blocking command returned CL_SUCCESS: false (after reporting it) when it did
    /// not run because an event of its wait list failed.
    bool after(const char* call, OnError on_error) const {
        if (ran()) [[likely]] {
            return true;
        }
        report(call, on_error);
        return false;
    }
    /// After the blocking command returned `code`: true (after reporting it as
    /// CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, naming the event) when it failed and an
    /// event of `wait` has failed. A driver may return the failed event's own status instead
    /// (NVIDIA 580 returns -5 from a read whose user event was failed with -5), which would
    /// read as the command's own error.
    bool wait_failed(cl_int code, const WaitList& wait, const char* call, OnError on_error) const {
        return watch_ && list_failed(code, wait, call, on_error);
    }
    /// As wait_failed(), for a command that waited for `wait` itself (clWaitForEvents).
    static bool list_failed(cl_int code, const WaitList& wait, const char* call, OnError on_error) {
        return code != CL_SUCCESS && !list_ok(wait, call, on_error, code);
    }
    /// As after(), without reporting: for a caller that must undo something first (a map).
    bool ran() const noexcept {
        return !watch_ || event_ == nullptr || *event_ == nullptr || status(*event_) >= 0;
    }
    /// Reports that the command did not run (after ran() said so).
    void report(const char* call, OnError on_error) const;

  private:
    static bool list_ok(const WaitList& wait, const char* call, OnError on_error,
                        cl_int returned = CL_SUCCESS);
    static cl_int status(cl_event event) noexcept {
        cl_int status = CL_COMPLETE;
        return clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                              nullptr) == CL_SUCCESS
                   ? status
                   : CL_COMPLETE;
    }

    cl_event own_ = nullptr;
    cl_event* event_;
    bool watch_;
};
}  // namespace detail

inline void WaitList::push(cl_event event) {
    if (size_ < inline_capacity) {
        inline_[size_] = event;
    } else {
        if (heap_.empty()) {
            heap_.assign(inline_.begin(), inline_.end());
        }
        heap_.push_back(event);
    }
    ++size_;
}

OPENCLAW_END_NAMESPACE

#if OPENCLAW_HEADER_ONLY
#include <openclaw/impl/wait_list.ipp>
#endif

#include <openclaw/detail/base/macros_pop.hpp>
