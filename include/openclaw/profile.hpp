// SPDX-License-Identifier: Apache-2.0
#pragma once
// Profile: when a profiled command was queued, submitted, started and ended, as std::chrono
// durations (a side header: event.profile() and event.duration() need it, and <chrono> costs the
// common path's units more than the rest of event.hpp).

#include <openclaw/event.hpp>

#include <chrono>

OPENCLAW_BEGIN_NAMESPACE

/// When a command was queued, submitted, started and ended, on the device's clock
/// (event.profile(); the queue made with {.profiling = true}).
struct Profile {
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

OPENCLAW_END_NAMESPACE
