// SPDX-License-Identifier: Apache-2.0
#pragma once
// Program: OpenCL C source built for every device of a context. A failed build throws
// BuildError carrying each device's log; a successful build keeps its logs (warnings) readable.
// Kernels come from program.kernel<Params...>("name") (typed by hand),
// program.kernel<source, "name">() (typed by the source's declaration) or program.kernel("name")
// (checked at run time).

#include <openclaw/context.hpp>
#include <openclaw/detail/handle.hpp>
#include <openclaw/detail/info.hpp>
#include <openclaw/device.hpp>

#include <algorithm>
#include <concepts>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace openclaw {

template <class... Params>
class Kernel;
class DynamicKernel;
template <std::size_t N>
struct FixedString;

namespace detail {
// `auto`, not FixedString: clang 14 rejects redeclarations with a class template placeholder.
template <const auto& Source, auto Name>
struct SourceKernel;
}  // namespace detail

/// Options for clBuildProgram, e.g. {"-cl-fast-relaxed-math", "-DN=4"} or one string.
class BuildOptions {
  public:
    BuildOptions() = default;
    BuildOptions(std::initializer_list<std::string_view> options) {
        for (std::string_view option : options) {
            add(option);
        }
    }
    template <class S>
    requires std::convertible_to<const S&, std::string_view> BuildOptions(
        const S& options) {  // NOLINT(google-explicit-constructor): reads as a string
        add(options);
    }

    /// Appends one or more space-separated options.
    BuildOptions& add(std::string_view options) {
        if (!options.empty()) {
            if (!text_.empty()) {
                text_ += ' ';
            }
            text_ += options;
        }
        return *this;
    }

    /// True if `option` appears as a whole word, or as the prefix of one ending in '=' or a
    /// version ("-cl-std=CL2" matches "-cl-std=CL2.0").
    bool contains(std::string_view option) const {
        std::size_t at = 0;
        while ((at = text_.find(option, at)) != std::string::npos) {
            if (at == 0 || text_[at - 1] == ' ') {
                return true;
            }
            ++at;
        }
        return false;
    }

    const std::string& str() const noexcept { return text_; }

    /// Chooses whether Program::build adds -cl-kernel-arg-info, with which the driver describes
    /// every kernel parameter and openclaw checks kernels against that description. By default
    /// it is added in builds without NDEBUG (on devices of OpenCL 1.2 or later). `false` only
    /// stops openclaw from adding it; an explicit "-cl-kernel-arg-info" option stays.
    BuildOptions& kernel_arg_info(bool on) noexcept {
        arg_info_ = on ? ArgInfo::on : ArgInfo::off;
        return *this;
    }
    /// Whether Program::build will add -cl-kernel-arg-info (see kernel_arg_info(bool)).
    bool adds_kernel_arg_info() const noexcept {
#ifdef NDEBUG
        return arg_info_ == ArgInfo::on;
#else
        return arg_info_ != ArgInfo::off;
#endif
    }

  private:
    enum class ArgInfo : unsigned char { by_default, on, off };
    std::string text_;
    ArgInfo arg_info_ = ArgInfo::by_default;
};

namespace detail {

/// Whether kernels of a program built with `options` may be launched with a last, smaller
/// work-group: only OpenCL C 2.0 and later allow it, and -cl-uniform-work-group-size forbids it.
inline bool allows_non_uniform_groups(const BuildOptions& options) {
    return (options.contains("-cl-std=CL2") || options.contains("-cl-std=CL3")) &&
           !options.contains("-cl-uniform-work-group-size");
}

/// What a program's build options mean for its kernels.
struct ProgramFlags {
    bool non_uniform_groups = false;
    bool kernel_arg_info = false;

    static ProgramFlags of(const BuildOptions& options) {
        return {allows_non_uniform_groups(options), options.contains("-cl-kernel-arg-info")};
    }
};

}  // namespace detail

class Program {
  public:
    Program() = default;

    /// Compiles and links `source` for every device of `context`. Throws BuildError (with every
    /// device's log) if it fails on any of them.
    [[nodiscard]] static Program build(const Context& context, std::string_view source,
                                       const BuildOptions& options = {}) {
        if (source.empty()) {
            detail::throw_error(CL_INVALID_VALUE, "clCreateProgramWithSource",
                                "the source is empty");
        }
        const char* text = source.data();
        const std::size_t length = source.size();
        cl_int code = CL_SUCCESS;
        cl_program raw = clCreateProgramWithSource(context.get(), 1, &text, &length, &code);
        detail::check(code, "clCreateProgramWithSource",
                      [&] { return detail::concat(length, " characters of source"); });
        auto handle = detail::Handle<cl_program>::adopt(raw);  // owned before anything can throw
        BuildOptions effective = options;
        const bool add_arg_info = options.adds_kernel_arg_info() &&
                                  !options.contains("-cl-kernel-arg-info") &&
                                  all_support_arg_info(context);
        if (add_arg_info) {
            effective.add("-cl-kernel-arg-info");
        }
        Program program(std::move(handle), detail::ProgramFlags::of(effective));
        code = clBuildProgram(raw, 0, nullptr, effective.str().c_str(), nullptr, nullptr);
        if (code != CL_SUCCESS) {
            program.build_failed(code, options, add_arg_info);
        }
        return program;
    }

    /// Takes ownership of a built program (also if this throws).
    [[nodiscard]] static Program adopt(cl_program raw) {
        auto handle = detail::Handle<cl_program>::adopt(raw);
        const detail::ProgramFlags flags = flags_of(raw);
        return Program(std::move(handle), flags);
    }
    [[nodiscard]] static Program retain(cl_program raw) {
        auto handle = detail::Handle<cl_program>::retain(raw);
        const detail::ProgramFlags flags = flags_of(raw);
        return Program(std::move(handle), flags);
    }

    /// A typed kernel: Kernel<In<float>, Out<float>, cl_uint> k = program.kernel<...>("name").
    /// Throws if no kernel has that name (listing those that exist), if its parameter count
    /// differs from the declaration, or (with arg info) if a parameter differs from the driver's
    /// description of it.
    template <class... Params>
    [[nodiscard]] Kernel<Params...> kernel(std::string_view name) const {
        return Kernel<Params...>(*this, name);
    }

    /// The kernel Name of Source, typed by its declaration in Source: with
    /// `constexpr char source[] = "__kernel void add(__global const float* a, ...)"` (or a
    /// header from openclaw_embed_kernels), program.kernel<source, "add">() is the Kernel<...>
    /// that the hand-written form would declare. Source must be a constant with static storage
    /// convertible to std::string_view; a signature openclaw cannot read is a compile error
    /// naming the kernel, the parameter and the position.
    template <const auto& Source, FixedString Name>
    [[nodiscard]] typename detail::SourceKernel<Source, Name>::type kernel() const {
        return typename detail::SourceKernel<Source, Name>::type(*this, Name.view());
    }

    /// A kernel without a C++ signature, whose set_args is checked at run time.
    [[nodiscard]] DynamicKernel kernel(std::string_view name) const;

    /// The names of the program's kernels.
    std::vector<std::string> kernel_names() const {
        std::vector<std::string> names;
        const std::string all = info<CL_PROGRAM_KERNEL_NAMES>();
        std::size_t start = 0;
        while (start <= all.size()) {
            const std::size_t end = std::min(all.find(';', start), all.size());
            if (end > start) {
                names.emplace_back(all, start, end - start);
            }
            start = end + 1;
        }
        return names;
    }

    std::vector<Device> devices() const {
        std::vector<Device> devices;
        for (cl_device_id id : info<CL_PROGRAM_DEVICES>()) {
            devices.push_back(Device::retain(id));
        }
        return devices;
    }
    Context context() const { return Context::retain(info<CL_PROGRAM_CONTEXT>()); }

    /// The compiler's output for `device`: warnings after a successful build.
    std::string build_log(const Device& device) const {
        return build_info<CL_PROGRAM_BUILD_LOG>(device);
    }
    /// Every device's build status and log.
    std::vector<BuildLog> build_logs() const {
        std::vector<BuildLog> logs;
        for (const Device& device : devices()) {
            logs.push_back(
                {device.name(), build_info<CL_PROGRAM_BUILD_STATUS>(device), build_log(device)});
        }
        return logs;
    }

    /// True when kernels may be launched with non-uniform work-groups (built as OpenCL C 2.0+).
    bool non_uniform_groups() const noexcept { return flags_.non_uniform_groups; }
    /// True when built with -cl-kernel-arg-info: kernels are then checked against the driver's
    /// description of their parameters when they are created.
    bool kernel_arg_info() const noexcept { return flags_.kernel_arg_info; }

    template <cl_program_info Param>
    detail::info_t<cl_program, Param> info() const {
        return detail::get_info<cl_program, Param>(get());
    }
    template <cl_program_build_info Param>
    detail::info_t<detail::ProgramBuildInfo, Param> build_info(const Device& device) const {
        return detail::get_info<detail::ProgramBuildInfo, Param>(get(), device.get());
    }

    cl_program get() const noexcept { return handle_.get(); }
    explicit operator bool() const noexcept { return static_cast<bool>(handle_); }
    friend bool operator==(const Program& a, const Program& b) noexcept {
        return a.handle_ == b.handle_;
    }

  private:
    Program(detail::Handle<cl_program> handle, detail::ProgramFlags flags) noexcept
        : handle_(std::move(handle)), flags_(flags) {}

    static detail::ProgramFlags flags_of(cl_program raw) {
        const auto ids = detail::get_info<cl_program, CL_PROGRAM_DEVICES>(raw);
        if (ids.empty()) {
            return {};
        }
        return detail::ProgramFlags::of(
            BuildOptions(detail::get_info<detail::ProgramBuildInfo, CL_PROGRAM_BUILD_OPTIONS>(
                raw, ids.front())));
    }

    // -cl-kernel-arg-info exists since OpenCL 1.2; older compilers would refuse the option.
    static bool all_support_arg_info(const Context& context) {
        for (const Device& device : context.devices()) {
            if (device.version() < Version{1, 2}) {
                return false;
            }
        }
        return true;
    }

    [[noreturn, gnu::noinline, gnu::cold]] void build_failed(cl_int code,
                                                             const BuildOptions& options,
                                                             bool added_arg_info) const {
        std::vector<BuildLog> logs;
        std::string detail;
        try {
            logs = build_logs();
            std::size_t failed = 0;
            for (const BuildLog& log : logs) {
                failed += log.status == CL_BUILD_ERROR ? 1 : 0;
            }
            detail =
                detail::concat("the build failed for ", failed, " of ", logs.size(), " device(s)");
        } catch (const Error& secondary) {
            // Some drivers keep no log (e.g. after CL_INVALID_BUILD_OPTIONS), or reading it fails
            // too: the build's own code is still the error, and the message says why no log.
            logs.clear();
            detail =
                detail::concat("the build failed (build logs unavailable: ", secondary.what(), ")");
        }
        detail += detail::concat(", options \"", options.str(), "\"",
                                 added_arg_info ? " (and -cl-kernel-arg-info)" : "");
        throw BuildError(code, "clBuildProgram", std::move(detail), std::move(logs));
    }

    detail::Handle<cl_program> handle_;
    detail::ProgramFlags flags_;
};

}  // namespace openclaw

// Program::kernel() needs the complete Kernel; kernel.hpp includes this file first, so either
// include order yields both.
#include <openclaw/kernel.hpp>
