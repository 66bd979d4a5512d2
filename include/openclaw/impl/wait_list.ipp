// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-template bodies declared in <openclaw/wait_list.hpp>: compiled once into the openclaw
// library (src/), or included by that header itself when openclaw is header-only.

#include <openclaw/wait_list.hpp>

#include <array>
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>

OPENCLAW_BEGIN_NAMESPACE

[[gnu::noinline, gnu::cold]] OPENCLAW_INLINE bool WaitList::refuse(const char* call,
                                                                   OnError on_error) const {
    detail::fail(on_error, CL_INVALID_EVENT_WAIT_LIST, call,
                 detail::concat("event ", refused_at_,
                                " of the wait list is empty (default-constructed or moved-from)"));
    return false;
}

namespace detail {

namespace events {
// The last user events failed, per context: what failed_status names as the origin.
struct FailedUserEvents {
    struct Entry {
        cl_context context = nullptr;
        cl_int status = 0;
    };
    std::mutex mutex;
    std::array<Entry, 8> entries{};
    std::size_t next = 0;
};
inline FailedUserEvents& failed_user_events() {
    static FailedUserEvents* const failed = new FailedUserEvents();  // never destroyed
    return *failed;
}
inline bool user_event(cl_event event) noexcept {
    cl_command_type type = 0;
    return clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr) ==
               CL_SUCCESS &&
           type == CL_COMMAND_USER;
}
}  // namespace events

OPENCLAW_INLINE void note_failed_user_event(cl_context context, cl_int status) noexcept {
    events::FailedUserEvents& failed = events::failed_user_events();
    const std::lock_guard lock(failed.mutex);
    failed.entries[failed.next++ % failed.entries.size()] = {context, status};
}

OPENCLAW_INLINE std::string failed_status(cl_event event, cl_int status) {
    if (events::user_event(event)) {
        return concat(status, ", a user status (UserEvent::fail)");
    }
    cl_context context = nullptr;
    (void)clGetEventInfo(event, CL_EVENT_CONTEXT, sizeof context, &context, nullptr);
    bool found = false;
    cl_int origin = 0;
    {
        events::FailedUserEvents& failed = events::failed_user_events();
        const std::lock_guard lock(failed.mutex);
        for (std::size_t i = failed.next; i > 0 && !found; --i) {  // the newest first
            const auto& entry = failed.entries[(i - 1) % failed.entries.size()];
            if (context != nullptr && entry.context == context) {
                found = true;
                origin = entry.status;
            }
            if (failed.next - i + 1 >= failed.entries.size()) {
                break;
            }
        }
    }
    if (!found) {
        return concat(status, ", ", code_name(status));
    }
    if (origin == status) {
        return concat(status, ", a user status: that of a failed user event it waited for");
    }
    return concat(status,
                  ", the driver's code for a command whose wait failed; the origin: a user "
                  "event of its context failed with ",
                  origin, ", a user status");
}

OPENCLAW_INLINE std::string abnormal_end(cl_event event, cl_int status) {
    if (status >= 0) {
        return "the command terminated abnormally (its execution status could not be read)";
    }
    return concat("the command terminated abnormally: its execution status is ",
                  failed_status(event, status),
                  " (the error it or an event it waited for, a failed user event or a failed "
                  "command before it, ended with)");
}

}  // namespace detail

[[gnu::noinline]] OPENCLAW_INLINE bool detail::BlockingWait::list_ok(const WaitList& wait,
                                                                     const char* call,
                                                                     OnError on_error,
                                                                     cl_int returned) {
    for (cl_uint i = 0; i < wait.size(); ++i) {
        cl_int status = CL_COMPLETE;
        if (clGetEventInfo(wait.data()[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                           &status, nullptr) == CL_SUCCESS &&
            status < 0) {
            fail(on_error, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, call,
                 returned == CL_SUCCESS
                     ? concat("event ", i, " of the wait list has failed (its execution status is ",
                              failed_status(wait.data()[i], status),
                              "): the command would never run")
                     : concat("event ", i, " of the wait list failed (its execution status is ",
                              failed_status(wait.data()[i], status),
                              "): the command did not run (the driver returned ", returned, ", ",
                              code_name(returned), ")"));
            return false;
        }
    }
    return true;
}

[[gnu::noinline, gnu::cold]] OPENCLAW_INLINE void detail::BlockingWait::report(
    const char* call, OnError on_error) const {
    const cl_int code = status(*event_);
    if (event_ != &own_) {
        // The caller's event would be dropped unreleased if the report throws: a failed
        // command gives no event, as every refused one does.
        clReleaseEvent(*event_);
        *event_ = nullptr;
    }
    fail(on_error, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, call,
         concat("the blocking command did not run: an event of its wait list failed (the "
                "command's execution status is ",
                code < 0 ? failed_status(*event_, code) : concat(code, ", ", code_name(code)),
                "); the host memory was not ",
                std::string_view(call).find("Read") != std::string_view::npos ? "filled" : "read"));
}

[[gnu::noinline]] OPENCLAW_INLINE bool WaitList::same_context(cl_context context, const char* call,
                                                              OnError on_error) const {
    for (cl_uint i = 0; i < size(); ++i) {
        cl_context of = nullptr;
        if (clGetEventInfo(data()[i], CL_EVENT_CONTEXT, sizeof of, &of, nullptr) == CL_SUCCESS &&
            of != context) {
            detail::fail(on_error, CL_INVALID_CONTEXT, call,
                         detail::concat("event ", i,
                                        " of the wait list belongs to another context than "
                                        "the queue's"));
            return false;
        }
    }
    return true;
}

OPENCLAW_END_NAMESPACE
