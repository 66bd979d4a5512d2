// SPDX-License-Identifier: Apache-2.0
#pragma once
// Event: the completion of one enqueued command. openclaw creates one only when the caller asks
// for it (pass `with_event` to an enqueue call), so the plain launch path allocates nothing.

#include <openclaw/detail/handle.hpp>
#include <openclaw/detail/info.hpp>

#include <utility>

namespace openclaw {

/// Tag asking an enqueue call to return the command's Event.
struct WithEvent {
    explicit WithEvent() = default;
};
inline constexpr WithEvent with_event{};

class Event {
  public:
    Event() = default;

    [[nodiscard]] static Event adopt(cl_event raw) noexcept {
        return Event(detail::Handle<cl_event>::adopt(raw));
    }
    [[nodiscard]] static Event retain(cl_event raw) {
        return Event(detail::Handle<cl_event>::retain(raw));
    }

    /// Blocks until the command completes; throws if it terminated abnormally.
    void wait() const {
        const cl_event raw = get();
        const cl_int code = clWaitForEvents(1, &raw);
        if (code == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) {
            // The command's own (negative) status says why; if even that cannot be read, the
            // wait's code is the error, not the failed query's.
            cl_int status = code;
            try {
                status = this->status();
            } catch (const Error&) {
            }
            detail::throw_error(status < 0 ? status : code, "clWaitForEvents",
                                "the command terminated abnormally");
        }
        detail::check(code, "clWaitForEvents");
    }

    /// CL_QUEUED, CL_SUBMITTED, CL_RUNNING, CL_COMPLETE, or a negative error code.
    cl_int status() const { return info<CL_EVENT_COMMAND_EXECUTION_STATUS>(); }
    bool is_complete() const { return status() == CL_COMPLETE; }

    template <cl_event_info Param>
    detail::info_t<cl_event, Param> info() const {
        return detail::get_info<cl_event, Param>(get());
    }

    cl_event get() const noexcept { return handle_.get(); }
    explicit operator bool() const noexcept { return static_cast<bool>(handle_); }
    friend bool operator==(const Event&, const Event&) = default;

  private:
    explicit Event(detail::Handle<cl_event> handle) noexcept : handle_(std::move(handle)) {}
    detail::Handle<cl_event> handle_;
};

}  // namespace openclaw
