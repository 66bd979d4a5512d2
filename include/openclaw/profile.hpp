// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// Profile: when a profiled command was queued, submitted, started and ended, as std::chrono
// durations (a side header: event.profile() and event.duration() need it, and <chrono> costs the
// common path's units more than the rest of event.hpp).

#include <openclaw/event.hpp>

#include <chrono>

OPENCLAW_BEGIN_NAMESPACE

/// When a command was queued, submitted, started and ended, on the device's clock
/// (event.profile(); the queue made with {.profiling = true}).
template <>
struct BasicProfile<0> {
    /// CL_PROFILING_COMMAND_QUEUED: when the host enqueued the command.
    std::chrono::nanoseconds queued{};
    /// CL_PROFILING_COMMAND_SUBMIT: when it was submitted to the device.
    std::chrono::nanoseconds submitted{};
    /// CL_PROFILING_COMMAND_START: when the device started it.
    std::chrono::nanoseconds started{};
    /// CL_PROFILING_COMMAND_END: when the device finished it.
    std::chrono::nanoseconds ended{};
    /// Time the command ran on the device.
    std::chrono::nanoseconds duration() const noexcept { return ended - started; }
    /// Time from being enqueued to starting.
    std::chrono::nanoseconds latency() const noexcept { return started - queued; }
};

namespace detail {
/// Event::profile() and Event::duration() where this header is included.
template <>
struct ProfileReader<Profile> {
    static Profile read(const Event& event, OnError on_error) {
        using std::chrono::nanoseconds;
        const auto at = [&](cl_profiling_info param) {
            return nanoseconds(static_cast<nanoseconds::rep>(event.profiling(param, on_error)));
        };
        return Profile{at(CL_PROFILING_COMMAND_QUEUED), at(CL_PROFILING_COMMAND_SUBMIT),
                       at(CL_PROFILING_COMMAND_START), at(CL_PROFILING_COMMAND_END)};
    }
    // As Profile::duration(): a signed difference of the two timestamps.
    static std::chrono::nanoseconds duration(const Event& event, OnError on_error) {
        using std::chrono::nanoseconds;
        return nanoseconds(static_cast<nanoseconds::rep>(
                   event.profiling(CL_PROFILING_COMMAND_END, on_error))) -
               nanoseconds(static_cast<nanoseconds::rep>(
                   event.profiling(CL_PROFILING_COMMAND_START, on_error)));
    }
};
}  // namespace detail

OPENCLAW_END_NAMESPACE

#include <openclaw/detail/base/macros_pop.hpp>
