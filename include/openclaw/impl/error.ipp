// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-template bodies declared in <openclaw/error.hpp>: compiled once into the openclaw
// library (src/), or included by that header itself when openclaw is header-only.

#include <openclaw/error.hpp>

OPENCLAW_BEGIN_NAMESPACE

namespace detail {

OPENCLAW_INLINE constinit std::atomic<FailureHandler> failure_handler{&print_and_abort};
OPENCLAW_INLINE constinit std::atomic<ErrorHook> error_hook{&print_error_hook};
OPENCLAW_INLINE constinit std::atomic<std::string (*)(cl_context)> pending_context_reports{nullptr};

OPENCLAW_INLINE std::shared_ptr<const FailureText> FailureText::compose(
    cl_int code, std::string call, std::string detail, const std::vector<BuildLog>* logs) {
    std::string what = detail.empty()
                           ? concat(call, ": ", code_name(code), " (", code, ')')
                           : concat(call, ": ", code_name(code), " (", code, "): ", detail);
    if (logs != nullptr) {
        what += format_logs(*logs);
    }
    return std::make_shared<const FailureText>(
        FailureText{std::move(call), std::move(detail), std::move(what)});
}

OPENCLAW_INLINE std::string format_logs(const std::vector<BuildLog>& logs) {
    std::string text;
    for (const auto& entry : logs) {
        text += "\n--- build log of device \"";
        text += entry.device_name;
        text += "\" (";
        text += entry.status == CL_BUILD_SUCCESS ? "built"
                : entry.status == CL_BUILD_ERROR ? "failed"
                                                 : "not built";
        text += ") ---\n";
        text += entry.log.empty() ? std::string_view("(empty log)") : entry.log;
    }
    return text;
}

OPENCLAW_INLINE void MessagePart::append_to(std::string& out) const {
    // Numbers as std::to_string writes them, from one formatting call (a double's %f has up to
    // 317 characters).
    char digits[400];
    int length = 0;
    switch (kind_) {
        case Kind::text:
            out += text_;
            return;
        case Kind::character:
            out += character_;
            return;
        case Kind::signed_integer:
            length = std::snprintf(digits, sizeof(digits), "%lld", signed_);
            break;
        case Kind::unsigned_integer:
            length = std::snprintf(digits, sizeof(digits), "%llu", unsigned_);
            break;
        case Kind::floating:
            length = std::snprintf(digits, sizeof(digits), "%f", floating_);
            break;
    }
    if (length > 0) {
        out.append(digits, static_cast<std::size_t>(length) < sizeof(digits)
                               ? static_cast<std::size_t>(length)
                               : sizeof(digits) - 1);
    }
}

OPENCLAW_INLINE std::string join_message(const MessagePart* parts, std::size_t count) {
    std::string out;
    for (std::size_t i = 0; i < count; ++i) {
        parts[i].append_to(out);
    }
    return out;
}

OPENCLAW_INLINE bool Sink::throws(OnError sink) noexcept {
    while ((sink.bits_ & OnError::tag_mask) == OnError::relay_tag) {
        sink = reinterpret_cast<const Relay*>(sink.bits_ & ~OnError::tag_mask)->caller_;
    }
    return sink.bits_ == 0;
}

OPENCLAW_INLINE bool Sink::wants_message(OnError sink) noexcept {
    while ((sink.bits_ & OnError::tag_mask) == OnError::relay_tag) {
        sink = reinterpret_cast<const Relay*>(sink.bits_ & ~OnError::tag_mask)->caller_;
    }
    return (sink.bits_ & OnError::tag_mask) != OnError::code_tag;
}

// The driver's own words about the context the failing call works on (ReportScope), if any.
[[gnu::cold]] inline std::string driver_reports() {
    if (report_context == nullptr) {
        return {};
    }
    const auto reports = pending_context_reports.load(std::memory_order_acquire);
    return reports != nullptr ? reports(report_context) : std::string();
}

[[gnu::noinline, gnu::cold]] OPENCLAW_INLINE void Sink::report(OnError sink, cl_int code,
                                                               const char* call, std::string detail,
                                                               std::vector<BuildLog>* logs) {
    while ((sink.bits_ & OnError::tag_mask) == OnError::relay_tag) {
        auto* relay = reinterpret_cast<Relay*>(sink.bits_ & ~OnError::tag_mask);
        ++relay->failures_;
        sink = relay->caller_;
    }
    void* target = reinterpret_cast<void*>(sink.bits_ & ~OnError::tag_mask);
    switch (sink.bits_ & OnError::tag_mask) {
        case OnError::code_tag: {
            auto& ec = *static_cast<std::error_code*>(target);
            if (!ec) {
                ec = make_error_code(code);
            }
            return;
        }
        case OnError::status_tag: {
            auto& status = *static_cast<Status*>(target);
            if (status.ok()) {
                detail += driver_reports();
                status.code_ = code;
                status.text_ = FailureText::compose(code, call, std::move(detail), logs);
                if (logs != nullptr) {
                    status.logs_ = std::make_shared<const std::vector<BuildLog>>(std::move(*logs));
                }
            }
            return;
        }
        default:
            break;
    }
    detail += driver_reports();
    auto text = FailureText::compose(code, call, std::move(detail), logs);
#if defined(__cpp_exceptions)
    if (logs != nullptr) {
        throw BuildError(code, std::move(text),
                         std::make_shared<const std::vector<BuildLog>>(std::move(*logs)));
    }
    throw Error(code, std::move(text));
#else
    Status status;
    status.code_ = code;
    status.text_ = std::move(text);
    if (logs != nullptr) {
        status.logs_ = std::make_shared<const std::vector<BuildLog>>(std::move(*logs));
    }
    failure_handler.load()(status);
    std::abort();
#endif
}

[[gnu::noinline, gnu::cold]] OPENCLAW_INLINE void fail(OnError sink, cl_int code, const char* call,
                                                       std::string detail) {
    Sink::report(sink, code, call, std::move(detail), nullptr);
}

[[gnu::noinline, gnu::cold]] OPENCLAW_INLINE void fail_build(OnError sink, cl_int code,
                                                             const char* call, std::string detail,
                                                             std::vector<BuildLog> logs) {
    Sink::report(sink, code, call, std::move(detail), &logs);
}

[[noreturn, gnu::noinline, gnu::cold]] OPENCLAW_INLINE void throw_error(cl_int code,
                                                                        const char* call,
                                                                        std::string detail) {
    Sink::report(OnError{}, code, call, std::move(detail), nullptr);
    std::abort();  // unreachable: a throwing sink throws or aborts
}

OPENCLAW_INLINE std::string describe_safely(Describer describe) {
    Status secondary;
    std::string text;
#if defined(__cpp_exceptions)
    try {
        text = describe(secondary);
    } catch (const Error& thrown) {  // from code that throws whatever it is given
        return concat("(further detail unavailable: ", thrown.what(), ")");
    }
#else
    text = describe(secondary);
#endif
    if (secondary.failed()) {
        return concat("(further detail unavailable: ", secondary.what(), ")");
    }
    return text;
}

[[gnu::noinline, gnu::cold]] OPENCLAW_INLINE void fail_described(OnError sink, cl_int code,
                                                                 const char* call,
                                                                 Describer describe) {
    // An std::error_code keeps only the code: the description is not worth its queries.
    fail(sink, code, call, Sink::wants_message(sink) ? describe_safely(describe) : std::string());
}

}  // namespace detail

OPENCLAW_END_NAMESPACE
