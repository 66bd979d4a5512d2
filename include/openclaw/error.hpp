// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// The errors layer: an std::error_category that names every OpenCL status code, the Error and
// BuildError exceptions, Status, and OnError, which each fallible call takes as its last argument
// to decide where its failures go (thrown by default). Also the failure handler of builds without
// exceptions, the hook that receives failures from destructors (which never throw), and the
// internal fail()/check() that every failure goes through.

#include <openclaw/config.hpp>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

OPENCLAW_BEGIN_NAMESPACE

/// The symbolic name of an OpenCL status code ("CL_INVALID_VALUE"); "CL_UNKNOWN_ERROR" if unknown.
/// Numbers are spelled out so that every name is known whatever CL_TARGET_OPENCL_VERSION is.
constexpr std::string_view code_name(cl_int code) noexcept {
    switch (code) {
        case 0:
            return "CL_SUCCESS";
        case -1:
            return "CL_DEVICE_NOT_FOUND";
        case -2:
            return "CL_DEVICE_NOT_AVAILABLE";
        case -3:
            return "CL_COMPILER_NOT_AVAILABLE";
        case -4:
            return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
        case -5:
            return "CL_OUT_OF_RESOURCES";
        case -6:
            return "CL_OUT_OF_HOST_MEMORY";
        case -7:
            return "CL_PROFILING_INFO_NOT_AVAILABLE";
        case -8:
            return "CL_MEM_COPY_OVERLAP";
        case -9:
            return "CL_IMAGE_FORMAT_MISMATCH";
        case -10:
            return "CL_IMAGE_FORMAT_NOT_SUPPORTED";
        case -11:
            return "CL_BUILD_PROGRAM_FAILURE";
        case -12:
            return "CL_MAP_FAILURE";
        case -13:
            return "CL_MISALIGNED_SUB_BUFFER_OFFSET";
        case -14:
            return "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST";
        case -15:
            return "CL_COMPILE_PROGRAM_FAILURE";
        case -16:
            return "CL_LINKER_NOT_AVAILABLE";
        case -17:
            return "CL_LINK_PROGRAM_FAILURE";
        case -18:
            return "CL_DEVICE_PARTITION_FAILED";
        case -19:
            return "CL_KERNEL_ARG_INFO_NOT_AVAILABLE";
        case -30:
            return "CL_INVALID_VALUE";
        case -31:
            return "CL_INVALID_DEVICE_TYPE";
        case -32:
            return "CL_INVALID_PLATFORM";
        case -33:
            return "CL_INVALID_DEVICE";
        case -34:
            return "CL_INVALID_CONTEXT";
        case -35:
            return "CL_INVALID_QUEUE_PROPERTIES";
        case -36:
            return "CL_INVALID_COMMAND_QUEUE";
        case -37:
            return "CL_INVALID_HOST_PTR";
        case -38:
            return "CL_INVALID_MEM_OBJECT";
        case -39:
            return "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR";
        case -40:
            return "CL_INVALID_IMAGE_SIZE";
        case -41:
            return "CL_INVALID_SAMPLER";
        case -42:
            return "CL_INVALID_BINARY";
        case -43:
            return "CL_INVALID_BUILD_OPTIONS";
        case -44:
            return "CL_INVALID_PROGRAM";
        case -45:
            return "CL_INVALID_PROGRAM_EXECUTABLE";
        case -46:
            return "CL_INVALID_KERNEL_NAME";
        case -47:
            return "CL_INVALID_KERNEL_DEFINITION";
        case -48:
            return "CL_INVALID_KERNEL";
        case -49:
            return "CL_INVALID_ARG_INDEX";
        case -50:
            return "CL_INVALID_ARG_VALUE";
        case -51:
            return "CL_INVALID_ARG_SIZE";
        case -52:
            return "CL_INVALID_KERNEL_ARGS";
        case -53:
            return "CL_INVALID_WORK_DIMENSION";
        case -54:
            return "CL_INVALID_WORK_GROUP_SIZE";
        case -55:
            return "CL_INVALID_WORK_ITEM_SIZE";
        case -56:
            return "CL_INVALID_GLOBAL_OFFSET";
        case -57:
            return "CL_INVALID_EVENT_WAIT_LIST";
        case -58:
            return "CL_INVALID_EVENT";
        case -59:
            return "CL_INVALID_OPERATION";
        case -60:
            return "CL_INVALID_GL_OBJECT";
        case -61:
            return "CL_INVALID_BUFFER_SIZE";
        case -62:
            return "CL_INVALID_MIP_LEVEL";
        case -63:
            return "CL_INVALID_GLOBAL_WORK_SIZE";
        case -64:
            return "CL_INVALID_PROPERTY";
        case -65:
            return "CL_INVALID_IMAGE_DESCRIPTOR";
        case -66:
            return "CL_INVALID_COMPILER_OPTIONS";
        case -67:
            return "CL_INVALID_LINKER_OPTIONS";
        case -68:
            return "CL_INVALID_DEVICE_PARTITION_COUNT";
        case -69:
            return "CL_INVALID_PIPE_SIZE";
        case -70:
            return "CL_INVALID_DEVICE_QUEUE";
        case -71:
            return "CL_INVALID_SPEC_ID";
        case -72:
            return "CL_MAX_SIZE_RESTRICTION_EXCEEDED";
        // Codes of Khronos and vendor extensions (cl_ext.h, cl_gl.h, cl_egl.h, ...).
        case -1000:
            return "CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR";
        case -1001:
            return "CL_PLATFORM_NOT_FOUND_KHR";
        case -1002:
            return "CL_INVALID_D3D10_DEVICE_KHR";
        case -1003:
            return "CL_INVALID_D3D10_RESOURCE_KHR";
        case -1004:
            return "CL_D3D10_RESOURCE_ALREADY_ACQUIRED_KHR";
        case -1005:
            return "CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR";
        case -1006:
            return "CL_INVALID_D3D11_DEVICE_KHR";
        case -1007:
            return "CL_INVALID_D3D11_RESOURCE_KHR";
        case -1008:
            return "CL_D3D11_RESOURCE_ALREADY_ACQUIRED_KHR";
        case -1009:
            return "CL_D3D11_RESOURCE_NOT_ACQUIRED_KHR";
        case -1010:
            return "CL_INVALID_DX9_MEDIA_ADAPTER_KHR";
        case -1011:
            return "CL_INVALID_DX9_MEDIA_SURFACE_KHR";
        case -1012:
            return "CL_DX9_MEDIA_SURFACE_ALREADY_ACQUIRED_KHR";
        case -1013:
            return "CL_DX9_MEDIA_SURFACE_NOT_ACQUIRED_KHR";
        case -1057:
            return "CL_DEVICE_PARTITION_FAILED_EXT";
        case -1058:
            return "CL_INVALID_PARTITION_COUNT_EXT";
        case -1059:
            return "CL_INVALID_PARTITION_NAME_EXT";
        case -1092:
            return "CL_EGL_RESOURCE_NOT_ACQUIRED_KHR";
        case -1093:
            return "CL_INVALID_EGL_OBJECT_KHR";
        case -1094:
            return "CL_INVALID_ACCELERATOR_INTEL";
        case -1095:
            return "CL_INVALID_ACCELERATOR_TYPE_INTEL";
        case -1096:
            return "CL_INVALID_ACCELERATOR_DESCRIPTOR_INTEL";
        case -1097:
            return "CL_ACCELERATOR_TYPE_NOT_SUPPORTED_INTEL";
        case -1098:
            return "CL_INVALID_VA_API_MEDIA_ADAPTER_INTEL";
        case -1099:
            return "CL_INVALID_VA_API_MEDIA_SURFACE_INTEL";
        case -1100:
            return "CL_VA_API_MEDIA_SURFACE_ALREADY_ACQUIRED_INTEL";
        case -1101:
            return "CL_VA_API_MEDIA_SURFACE_NOT_ACQUIRED_INTEL";
        case -1108:
            return "CL_COMMAND_TERMINATED_ITSELF_WITH_FAILURE_ARM";
        case -1121:
            return "CL_CONTEXT_TERMINATED_KHR";
        case -1138:
            return "CL_INVALID_COMMAND_BUFFER_KHR";
        case -1139:
            return "CL_INVALID_SYNC_POINT_WAIT_LIST_KHR";
        case -1140:
            return "CL_INCOMPATIBLE_COMMAND_QUEUE_KHR";
        case -1141:
            return "CL_INVALID_MUTABLE_COMMAND_KHR";
        case -1142:
            return "CL_INVALID_SEMAPHORE_KHR";
        default:
            return "CL_UNKNOWN_ERROR";
    }
}

namespace detail {

class OpenCLCategory final : public std::error_category {
  public:
    const char* name() const noexcept override { return "opencl"; }
    std::string message(int code) const override { return std::string(code_name(code)); }
};

}  // namespace detail

/// The error category of OpenCL status codes; message() is the symbolic name.
inline const std::error_category& opencl_category() noexcept {
    static const detail::OpenCLCategory category;
    return category;
}

/// An std::error_code in opencl_category(), e.g. to compare with Error::code().
inline std::error_code make_error_code(cl_int code) noexcept {
    return {code, opencl_category()};
}

/// One device's outcome of a program build.
struct BuildLog {
    /// CL_DEVICE_NAME of the device.
    std::string device_name;
    /// CL_PROGRAM_BUILD_STATUS for that device.
    cl_build_status status = CL_BUILD_NONE;
    /// CL_PROGRAM_BUILD_LOG for that device (the compiler's messages).
    std::string log;
};

namespace detail {

/// The text of a failure, shared (never copied) by Error, BuildError and Status, so that copying
/// an exception or a Status never throws.
struct FailureText {
    std::string call;
    std::string detail;
    std::string what;

    static std::shared_ptr<const FailureText> compose(cl_int code, std::string call,
                                                      std::string detail,
                                                      const std::vector<BuildLog>* logs);
};

/// Every device's log, as BuildError::what() and Status::what() append them.
std::string format_logs(const std::vector<BuildLog>& logs);

inline const std::string& empty_string() noexcept {
    static const std::string empty;
    return empty;
}

inline const std::vector<BuildLog>& no_logs() noexcept {
    static const std::vector<BuildLog> empty;
    return empty;
}

class Relay;
struct Sink;

}  // namespace detail

/// An OpenCL call failed, or openclaw refused a bad argument before making it. what() reads
/// "call: CL_NAME (code): detail"; call(), cl_code() and detail() give the parts.
class Error : public std::system_error {
  public:
    /// A failure of `call` with OpenCL status `code`; `detail` says what openclaw knows about it.
    /// Also for a user's own raw calls: `throw openclaw::Error(code, "clFoo", "what it was
    /// doing")`.
    Error(cl_int code, std::string call, std::string detail = {})
        : Error(code,
                detail::FailureText::compose(code, std::move(call), std::move(detail), nullptr)) {}

    /// "call: CL_NAME (code): detail".
    const char* what() const noexcept override { return text_->what.c_str(); }
    /// The OpenCL entry point (or openclaw function) that failed, e.g. "clCreateBuffer".
    const std::string& call() const noexcept { return text_->call; }
    /// What openclaw knows about the failure: the offending value, the limit it broke.
    const std::string& detail() const noexcept { return text_->detail; }
    /// The OpenCL status code, e.g. CL_INVALID_VALUE.
    cl_int cl_code() const noexcept { return static_cast<cl_int>(code().value()); }

  protected:
    friend class Status;
    friend struct detail::Sink;
    // The base gets the whole message too, so a copy sliced to std::system_error keeps it.
    /// \private Shares an already composed text.
    Error(cl_int code, std::shared_ptr<const detail::FailureText> text)
        : std::system_error(make_error_code(code), text->what), text_(std::move(text)) {}

    /// \private The composed message and its parts, shared by copies.
    std::shared_ptr<const detail::FailureText> text_;
};

/// A program failed to build. Carries the log of every device; what() contains them all.
class BuildError : public Error {
  public:
    /// A failed build (`call` is usually clBuildProgram) with every device's log.
    BuildError(cl_int code, std::string call, std::string detail, std::vector<BuildLog> logs)
        : Error(code,
                detail::FailureText::compose(code, std::move(call), std::move(detail), &logs)),
          logs_(std::make_shared<const std::vector<BuildLog>>(std::move(logs))) {}

    /// One entry per device of the program, in the program's device order.
    const std::vector<BuildLog>& logs() const noexcept { return *logs_; }

  private:
    friend class Status;
    friend struct detail::Sink;
    BuildError(cl_int code, std::shared_ptr<const detail::FailureText> text,
               std::shared_ptr<const std::vector<BuildLog>> logs)
        : Error(code, std::move(text)), logs_(std::move(logs)) {}

    std::shared_ptr<const std::vector<BuildLog>> logs_;
};

/// A failure recorded instead of thrown (pass one where an operation takes an OnError): the
/// code, the call and the message the exception would have carried, and the build logs of a
/// failed build. A default-constructed Status is ok().
class Status {
  public:
    Status() noexcept = default;

    /// True when nothing failed.
    bool ok() const noexcept { return code_ == CL_SUCCESS; }
    /// True when a failure was recorded.
    bool failed() const noexcept { return code_ != CL_SUCCESS; }
    /// The code in opencl_category(); empty when ok().
    std::error_code code() const noexcept {
        return ok() ? std::error_code{} : make_error_code(code_);
    }
    /// The OpenCL status code; CL_SUCCESS when ok().
    cl_int cl_code() const noexcept { return code_; }
    /// As Error::call(); empty when ok().
    const std::string& call() const noexcept {
        return text_ ? text_->call : detail::empty_string();
    }
    /// As Error::detail(); empty when ok().
    const std::string& detail() const noexcept {
        return text_ ? text_->detail : detail::empty_string();
    }
    /// The full message, as Error::what(); "" when ok().
    const char* what() const noexcept { return text_ ? text_->what.c_str() : ""; }
    /// Every device's log when a program build failed; empty otherwise.
    const std::vector<BuildLog>& build_logs() const noexcept {
        return logs_ ? *logs_ : detail::no_logs();
    }
    /// Forgets the recorded failure: ok() again.
    void clear() noexcept {
        code_ = CL_SUCCESS;
        text_.reset();
        logs_.reset();
    }

#if defined(__cpp_exceptions)
    /// Throws what the operation would have thrown (BuildError when there are build logs, else
    /// Error); does nothing when ok().
    void throw_if_failed() const {
        if (failed()) {
            if (logs_) {
                throw BuildError(code_, text_, logs_);
            }
            throw Error(code_, text_);
        }
    }
#endif

  private:
    friend struct detail::Sink;

    cl_int code_ = CL_SUCCESS;
    std::shared_ptr<const detail::FailureText> text_;
    std::shared_ptr<const std::vector<BuildLog>> logs_;
};

/// Where the failures of one call go. Every openclaw operation that can fail takes an OnError as
/// its last argument, defaulted, in the manner of std::filesystem:
///
///     std::error_code ec;
///     Program program = Program::build(context, source, {}, ec);  // no exception; ec is set
///
/// - OnError{} (the default): the failure throws Error (BuildError for builds). Built without
///   exceptions, it calls the failure handler, which prints the message and aborts.
/// - an std::error_code&: set to the failure's code (in opencl_category()), no message is built.
/// - a Status&: the code, the call, the message and, for builds, every device's log.
///
/// It governs the call it is given to and what that call does on its behalf, never another call
/// of the same statement. The target is cleared when the OnError is made from it, and holds the
/// first failure. On failure the operation returns an empty object (an empty Program, Buffer,
/// Event...), zero or an empty string. An OnError is a small value: a named one can be passed to
/// several calls (they then share one target), and held across a co_await.
class OnError {
  public:
    /// Failures throw (without exceptions: go to the failure handler).
    constexpr OnError() noexcept = default;
    /// Records failures in `code`, which is cleared now.
    OnError(std::error_code& code) noexcept  // NOLINT(google-explicit-constructor): f(..., ec)
        : bits_(reinterpret_cast<std::uintptr_t>(&code) | code_tag) {
        code.clear();
    }
    /// Records failures (with their message and build logs) in `status`, which is cleared now.
    OnError(Status& status) noexcept  // NOLINT(google-explicit-constructor): f(..., status)
        : bits_(reinterpret_cast<std::uintptr_t>(&status) | status_tag) {
        status.clear();
    }

    /// True when a failure given to this OnError is thrown (or goes to the failure handler).
    bool throws() const noexcept;

  private:
    friend class detail::Relay;
    friend struct detail::Sink;

    static constexpr std::uintptr_t code_tag = 1;
    static constexpr std::uintptr_t status_tag = 2;
    static constexpr std::uintptr_t relay_tag = 3;
    static constexpr std::uintptr_t tag_mask = 3;

    constexpr explicit OnError(std::uintptr_t bits) noexcept : bits_(bits) {}

    std::uintptr_t bits_ = 0;  // 0: throw; else a target's address and its kind (tag_mask)
};

namespace detail {

/// One step of an operation that makes several fallible calls: it passes their failures on to
/// the caller's OnError and remembers whether there was one, so the step can stop (the failed
/// call returned an empty result, which may look like a real one).
class Relay {
  public:
    explicit Relay(OnError caller) noexcept : caller_(caller) {}
    Relay(const Relay&) = delete;
    Relay& operator=(const Relay&) = delete;

    /// True once a failure went through this relay.
    bool failed() const noexcept { return failures_ != 0; }
    /// The caller's OnError, for calls whose failure the step need not notice.
    OnError caller() const noexcept { return caller_; }
    /// An OnError that reports here (pass it to the calls of the step).
    operator OnError() noexcept {  // NOLINT(google-explicit-constructor): step(x, relay)
        return OnError(reinterpret_cast<std::uintptr_t>(this) | OnError::relay_tag);
    }

  private:
    friend struct Sink;
    OnError caller_;
    unsigned failures_ = 0;
};

/// What fail() does with an OnError: the one place that reads its bits.
struct Sink {
    [[gnu::cold]] static void report(OnError sink, cl_int code, const char* call,
                                     std::string detail, std::vector<BuildLog>* logs);
    static bool wants_message(OnError sink) noexcept;
    static bool throws(OnError sink) noexcept;
};

/// True for what may end an argument list as its error target: an OnError, or a
/// std::error_code, Status or Relay that it is made from (lvalues, as the last argument of any
/// other call).
template <class A>
inline constexpr bool is_error_target = std::is_same_v<std::remove_cvref_t<A>, OnError> ||
                                        (std::is_lvalue_reference_v<A> &&
                                         !std::is_const_v<std::remove_reference_t<A>> &&
                                         (std::is_same_v<std::remove_cvref_t<A>, std::error_code> ||
                                          std::is_same_v<std::remove_cvref_t<A>, Status> ||
                                          std::is_same_v<std::remove_cvref_t<A>, Relay>));

}  // namespace detail

inline bool OnError::throws() const noexcept {
    return detail::Sink::throws(*this);
}

/// Receives a failure that nothing records when openclaw is built without exceptions
/// (-fno-exceptions). It must not return; if it does, openclaw calls std::abort().
using FailureHandler = void (*)(const Status& failure);

/// The handler installed at start-up: prints "openclaw: <message>" to stderr and aborts.
[[noreturn]] inline void print_and_abort(const Status& failure) {
    std::fprintf(stderr, "openclaw: %s\n", failure.what());
    std::abort();
}

/// Receives failures that cannot be thrown: a release or unmap that fails in a destructor.
/// It must not throw; it may be called from any thread.
using ErrorHook = void (*)(const char* call, cl_int code) noexcept;

/// The hook installed at start-up: prints one line to stderr.
inline void print_error_hook(const char* call, cl_int code) noexcept {
    const std::string_view name = code_name(code);
    std::fprintf(stderr, "openclaw: %s failed during cleanup: %.*s (%d)\n", call,
                 static_cast<int>(name.size()), name.data(), static_cast<int>(code));
}

namespace detail {
// Process-wide state, defined in impl/error.ipp.
extern constinit std::atomic<FailureHandler> failure_handler;
extern constinit std::atomic<ErrorHook> error_hook;
/// What the drivers reported about a context (context.hpp) and no error has carried yet, worded
/// for the error being raised (and forgotten); null until a context first reports.
extern constinit std::atomic<std::string (*)(cl_context)> pending_context_reports;

/// The context the calling thread's current call works on, while a ReportScope says so: an error
/// raised meanwhile carries the driver's reports about that context, and only those.
inline thread_local cl_context report_context = nullptr;

/// Marks the calling thread's call as one on `context`'s objects for as long as it lives.
class ReportScope {
  public:
    explicit ReportScope(cl_context context) noexcept
        : previous_(std::exchange(report_context, context)) {}
    ReportScope(const ReportScope&) = delete;
    ReportScope& operator=(const ReportScope&) = delete;
    ~ReportScope() { report_context = previous_; }

  private:
    cl_context previous_;
};
}  // namespace detail

/// Installs `handler` for failures of builds without exceptions (nullptr restores
/// print_and_abort) and returns the previous one.
inline FailureHandler set_failure_handler(FailureHandler handler) noexcept {
    return detail::failure_handler.exchange(handler != nullptr ? handler : &print_and_abort);
}

/// Installs `hook` (nullptr restores print_error_hook) and returns the previous one.
inline ErrorHook set_error_hook(ErrorHook hook) noexcept {
    return detail::error_hook.exchange(hook != nullptr ? hook : &print_error_hook);
}

namespace detail {

/// Reports a failure from a noexcept cleanup path to the installed hook.
inline void report_cleanup_failure(const char* call, cl_int code) noexcept {
    error_hook.load(std::memory_order_acquire)(call, code);
}

/// One part of a message built by concat(): text, a character, or a number (written as
/// std::to_string writes it). A part only records what it was given; join_message() writes them
/// all, so that each concat() call site compiles to a few stores and one call.
class MessagePart {
  public:
    // Implicit by design: concat("size ", n, " of ", name) converts each argument. Text has
    // non-template constructors, so that string literals of every length share one.
    MessagePart(const char* text) noexcept : kind_(Kind::text), text_(text) {}
    MessagePart(std::string_view text) noexcept : kind_(Kind::text), text_(text) {}
    MessagePart(const std::string& text) noexcept : kind_(Kind::text), text_(text) {}
    MessagePart(char c) noexcept : kind_(Kind::character), character_(c) {}

    /// Other types that convert to std::string_view.
    template <class S>
    requires(std::is_convertible_v<const S&, std::string_view> &&
             !std::is_convertible_v<const S&, const char*>) MessagePart(const S& text)
        : kind_(Kind::text), text_(std::string_view(text)) {}

    template <class N>
    requires(std::is_arithmetic_v<N> && !std::is_same_v<N, char>) MessagePart(N number)
    noexcept {
        if constexpr (std::is_floating_point_v<N>) {
            kind_ = Kind::floating;
            floating_ = static_cast<double>(number);
        } else if constexpr (std::is_signed_v<N>) {
            kind_ = Kind::signed_integer;
            signed_ = number;
        } else {
            kind_ = Kind::unsigned_integer;
            unsigned_ = number;
        }
    }

    void append_to(std::string& out) const;

  private:
    enum class Kind : unsigned char { text, character, signed_integer, unsigned_integer, floating };
    Kind kind_;
    union {
        std::string_view text_;
        char character_;
        long long signed_;
        unsigned long long unsigned_;
        double floating_;
    };
};

/// The parts of a message joined: the one function behind every concat() call.
std::string join_message(const MessagePart* parts, std::size_t count);

/// Builds a message from strings, characters and numbers; used on error paths only.
template <class... Parts>
std::string concat(const Parts&... parts) {
    if constexpr (sizeof...(Parts) == 0) {
        return {};
    } else {
        const MessagePart all[] = {MessagePart(parts)...};
        return join_message(all, sizeof...(Parts));
    }
}

/// Reports a failure of `call` to `sink`: recorded there (and then it returns), thrown as Error,
/// or, without exceptions, given to the failure handler. Callers return an empty result after it.
[[gnu::cold]] void fail(OnError sink, cl_int code, const char* call, std::string detail = {});

/// fail() for a program build, with every device's log.
[[gnu::cold]] void fail_build(OnError sink, cl_int code, const char* call, std::string detail,
                              std::vector<BuildLog> logs);

/// For failures that cannot be reported through OnError (an allocator's allocate(), whose
/// callers cannot take an empty result): throws, or without exceptions calls the handler.
[[noreturn, gnu::cold]] void throw_error(cl_int code, const char* call, std::string detail = {});

/// Reports a failed call; true when `code` is CL_SUCCESS. The message is built only on failure.
[[nodiscard]] inline bool check(cl_int code, const char* call, OnError sink) {
    if (code != CL_SUCCESS) [[unlikely]] {
        fail(sink, code, call);
        return false;
    }
    return true;
}

/// Words the detail of a failure: a callable taking an OnError for the queries it makes (or
/// nothing), called on the failure path only. Holds a reference to the callable, not a copy.
class Describer {
  public:
    template <class F>
    Describer(const F& describe) noexcept  // NOLINT(google-explicit-constructor)
        : call_([](const void* self, OnError quiet) -> std::string {
              const F& f = *static_cast<const F*>(self);
              if constexpr (std::is_invocable_v<const F&, OnError>) {
                  return std::string(f(quiet));
              } else {
                  (void)quiet;
                  return std::string(f());
              }
          }),
          self_(&describe) {}

    std::string operator()(OnError quiet) const { return call_(self_, quiet); }

  private:
    std::string (*call_)(const void*, OnError);
    const void* self_;
};

/// Runs `describe` to word the detail of a failure being reported. The queries it makes can fail
/// too (a lost device fails every call); that must not replace the failure being reported, so
/// they report to a Status of their own, and the second failure becomes part of the detail.
std::string describe_safely(Describer describe);

/// fail() with the detail `describe` words, unless `sink` keeps no message (an error_code).
[[gnu::cold]] void fail_described(OnError sink, cl_int code, const char* call, Describer describe);

/// As check(), with a detail produced by `describe` only on failure; the describing code stays
/// out of line so that the success path is one comparison.
template <class Describe>
[[nodiscard]] bool check(cl_int code, const char* call, OnError sink, const Describe& describe) {
    if (code != CL_SUCCESS) [[unlikely]] {
        fail_described(sink, code, call, Describer(describe));
        return false;
    }
    return true;
}

}  // namespace detail

OPENCLAW_END_NAMESPACE

#if OPENCLAW_HEADER_ONLY
#include <openclaw/impl/error.ipp>
#endif

#include <openclaw/detail/base/macros_pop.hpp>
