// SPDX-License-Identifier: Apache-2.0
#pragma once
// Program: OpenCL C source (or binaries, or SPIR-V) built for every device of a context, with
// BuildOptions as a value type (kernels layer: a program makes kernels, so it sits above them). A
// failed build reports BuildError carrying each device's log; a successful build keeps its logs
// (warnings) readable. Kernels come from program.kernel<Params...>("name") (typed by hand),
// program.kernel<source, "name">() (typed by the source's declaration: signature.hpp) or
// program.kernel("name") (checked at run time); each is made once per program and name, and
// handed out as copies. The on-disk binary cache (cache.hpp) plugs in when it is included.

#include <openclaw/context.hpp>
#include <openclaw/detail/handle.hpp>
#include <openclaw/detail/info.hpp>
#include <openclaw/device.hpp>
#include <openclaw/fwd.hpp>
#include <openclaw/kernel.hpp>

#include <atomic>
#include <charconv>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <limits>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

OPENCLAW_BEGIN_NAMESPACE

/// A program binary of one device, as clGetProgramInfo(CL_PROGRAM_BINARIES) returns it.
using Binary = std::vector<unsigned char>;

namespace detail {
// `auto`, not FixedString: clang 14 rejects redeclarations with a class template placeholder.
// Without <openclaw/signature.hpp>, which specialises it, program.kernel<source, "name">() says so.
template <const auto& Source, auto Name, class = void>
struct SourceKernel {
    static_assert(sizeof(Name) == 0,
                  "program.kernel<source, name>(): include <openclaw/signature.hpp> to type "
                  "kernels from their OpenCL C source");
    using type = DynamicKernel;
};

// What program.kernel<...>(name) makes: Kernel<Params...>, or the kernel type itself when the
// one argument is already one (program.kernel<Add>("add") with `using Add = Kernel<...>`).
template <class... Params>
struct KernelFor {
    using type = Kernel<Params...>;
};
template <class... Params>
struct KernelFor<Kernel<Params...>> {
    using type = Kernel<Params...>;
};
template <>
struct KernelFor<DynamicKernel> {
    using type = DynamicKernel;
};
}  // namespace detail

/// The OpenCL C version a program is compiled as when its options name none (-cl-std).
enum class LanguageVersion : unsigned char {
    highest,           ///< the highest version every device of the context accepts (the default)
    compiler_default,  ///< no -cl-std: the compiler's default, the highest OpenCL C 1.x
};

/// Options for clBuildProgram: raw strings ({"-cl-mad-enable", "-DN=4"} or one string) and
/// named parts (define, include_directory, language, fast_math, warnings_as_errors), plus what
/// Program::build adds itself: -cl-std (see LanguageVersion), -cl-kernel-arg-info (see
/// kernel_arg_info) and the binary cache to use (see cache).
class BuildOptions {
  public:
    BuildOptions() = default;
    /// `{"-cl-mad-enable", "-DN=4"}`: each string is appended as with add().
    BuildOptions(std::initializer_list<std::string_view> options) {
        for (std::string_view option : options) {
            add(option);
        }
    }
    /// One string of space-separated options, e.g. `"-cl-mad-enable -DN=4"`.
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

    /// -D name: defines the macro `name` (as 1).
    BuildOptions& define(std::string_view name, OnError on_error = {}) {
        if (valid_macro_name(name, on_error)) {
            add(detail::concat("-D", name));
        }
        return *this;
    }

    /// -D name=value. Integers and bools are written in decimal, floating-point values exactly
    /// (shortest round-trip form; a float gets the f suffix: 0.5f), strings as they are (a
    /// replacement text such as "unsigned int" or "(a + b)", quoted for the driver when it holds
    /// spaces). A value no driver can be handed (a double quote, a line break, a NaN or an
    /// infinity) fails with CL_INVALID_BUILD_OPTIONS.
    template <class T>
    BuildOptions& define(std::string_view name, const T& value, OnError on_error = {}) {
        static_assert(std::is_arithmetic_v<T> || std::is_convertible_v<const T&, std::string_view>,
                      "BuildOptions::define: the value must be a number, a bool or a string");
        static_assert(!std::is_same_v<T, long double>,
                      "BuildOptions::define: OpenCL C has no long double");
        if (!valid_macro_name(name, on_error)) {
            return *this;
        }
        std::string text;
        if constexpr (std::is_same_v<T, bool>) {
            text = value ? "1" : "0";
        } else if constexpr (std::is_integral_v<T>) {
            text = std::to_string(value);
        } else if constexpr (std::is_floating_point_v<T>) {
            if (!(value == value) || value == std::numeric_limits<T>::infinity() ||
                value == -std::numeric_limits<T>::infinity()) {
                detail::fail(
                    on_error, CL_INVALID_BUILD_OPTIONS, "BuildOptions::define",
                    detail::concat("macro ", name, ": ", value, " has no OpenCL C literal"));
                return *this;
            }
            char digits[64];
            const auto result = std::to_chars(digits, digits + sizeof(digits), value);
            text.assign(digits, result.ptr);
            if (text.find_first_of(".e") == std::string::npos) {
                text += ".0";
            }
            if constexpr (std::is_same_v<T, float>) {
                text += 'f';
            }
        } else {
            text = std::string(std::string_view(value));
            if (text.find_first_of("\"\n\r") != std::string::npos) {
                detail::fail(on_error, CL_INVALID_BUILD_OPTIONS, "BuildOptions::define",
                             detail::concat("macro ", name, ": the value \"", text,
                                            "\" holds a double quote or a line break, which "
                                            "drivers' option parsers cannot take"));
                return *this;
            }
            if (text.find_first_of(" \t") != std::string::npos) {
                text = detail::concat('"', text, '"');
            }
        }
        return add(detail::concat("-D", name, "=", text));
    }

    /// -I dir: a directory searched for `#include` files (quoted when it holds spaces; PoCL before
    /// 4.0 cannot take such a path at all, its option parser turns the quotes into spaces).
    BuildOptions& include_directory(std::string_view directory, OnError on_error = {}) {
        if (directory.empty() || directory.find_first_of("\"\n\r") != std::string_view::npos) {
            detail::fail(on_error, CL_INVALID_BUILD_OPTIONS, "BuildOptions::include_directory",
                         detail::concat("\"", directory, "\" is ",
                                        directory.empty() ? "empty"
                                                          : "not a path drivers can take (a "
                                                            "double quote or a line break)"));
            return *this;
        }
        if (directory.find_first_of(" \t") != std::string_view::npos) {
            return add(detail::concat("-I \"", directory, "\""));
        }
        return add(detail::concat("-I ", directory));
    }

    /// -cl-std=CLx.y: compiles as OpenCL C 1.1, 1.2, 2.0 or 3.0.
    BuildOptions& language(Version version, OnError on_error = {}) {
        if (version != Version{1, 1} && version != Version{1, 2} && version != Version{2, 0} &&
            version != Version{3, 0}) {
            detail::fail(on_error, CL_INVALID_BUILD_OPTIONS, "BuildOptions::language",
                         detail::concat("OpenCL C ", version.major, '.', version.minor,
                                        " is not 1.1, 1.2, 2.0 or 3.0"));
            return *this;
        }
        return add(detail::concat("-cl-std=CL", version.major, '.', version.minor));
    }
    /// Whether Program::build adds -cl-std when the options name no version (by default the
    /// highest version all devices accept).
    BuildOptions& language(LanguageVersion choice) noexcept {
        language_ = choice;
        return *this;
    }
    /// The -cl-std choice set by language() (LanguageVersion::highest unless changed).
    LanguageVersion language_choice() const noexcept { return language_; }

    /// -cl-fast-relaxed-math: faster, less exact floating point (also defines
    /// __FAST_RELAXED_MATH__ in the source).
    BuildOptions& fast_math() { return add("-cl-fast-relaxed-math"); }
    /// -Werror: a warning fails the build.
    BuildOptions& warnings_as_errors() { return add("-Werror"); }

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

    /// The options given so far, space-separated, as passed to clBuildProgram (without what
    /// Program::build adds).
    const std::string& str() const noexcept { return text_; }

    /// The options split as drivers split them: at spaces outside double quotes, the quotes
    /// removed.
    std::vector<std::string> tokens() const {
        std::vector<std::string> out;
        std::string token;
        bool quoted = false;
        bool pending = false;
        for (char c : text_) {
            if (c == '"') {
                quoted = !quoted;
                pending = true;
            } else if ((c == ' ' || c == '\t') && !quoted) {
                if (pending) {
                    out.push_back(std::move(token));
                    token.clear();
                    pending = false;
                }
            } else {
                token += c;
                pending = true;
            }
        }
        if (pending) {
            out.push_back(std::move(token));
        }
        return out;
    }

    /// The directories of -I options, named parts and raw strings alike, in order.
    std::vector<std::string> include_directories() const {
        std::vector<std::string> dirs;
        const auto all = tokens();
        for (std::size_t i = 0; i < all.size(); ++i) {
            if (all[i] == "-I" && i + 1 < all.size()) {
                dirs.push_back(all[++i]);
            } else if (all[i].size() > 2 && all[i].compare(0, 2, "-I") == 0) {
                dirs.push_back(all[i].substr(2));
            }
        }
        return dirs;
    }

    /// Chooses whether Program::build adds -cl-kernel-arg-info, with which the driver describes
    /// every kernel parameter and openclaw checks kernels against that description. By default
    /// it is added in builds without NDEBUG (on devices of OpenCL 1.2 or later). `false` only
    /// stops openclaw from adding it; an explicit "-cl-kernel-arg-info" option stays. If a build
    /// with the option openclaw added fails in the driver's assembler (NVIDIA's, for kernels
    /// without parameters), Program::build builds again without it.
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

    /// The binary cache Program::build reads and writes: `BinaryCache{}` turns caching off,
    /// `BinaryCache{dir}` uses `dir`. Without this call: BinaryCache::user_default(). Needs
    /// <openclaw/cache.hpp>.
    BuildOptions& cache(const BinaryCache& cache);
    /// The cache Program::build will use: the one given to cache(), else
    /// BinaryCache::user_default(), which the environment decides (needs <openclaw/cache.hpp>).
    const BinaryCache& binary_cache() const;
    /// True when cache() chose a cache (or chose none) for these options.
    bool chooses_cache() const noexcept {
        return static_cast<bool>(cache_);
    }

    /// The options as clBuildProgram receives them from Program::build for `devices`: these,
    /// then -cl-std=CLx.y (unless a version is named or LanguageVersion::compiler_default is
    /// chosen: the highest OpenCL C version every device accepts, from 1.1 up), then
    /// -cl-kernel-arg-info (see kernel_arg_info). Call str() on the result for the text.
    BuildOptions for_devices(std::span<const Device> devices, OnError on_error = {}) const;

    /// The highest OpenCL C version every device of `devices` accepts; {0, 0} if they share none.
    static Version highest_common_language(std::span<const Device> devices, OnError on_error = {});

  private:
    enum class ArgInfo : unsigned char { by_default, on, off };

    static bool valid_macro_name(std::string_view name, OnError on_error) {
        bool ok = !name.empty() && !(name[0] >= '0' && name[0] <= '9');
        for (char c : name) {
            ok = ok && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '_');
        }
        if (!ok) {
            detail::fail(on_error, CL_INVALID_BUILD_OPTIONS, "BuildOptions::define",
                         detail::concat("\"", name,
                                        "\" is not a macro name (letters, digits and "
                                        "_, not starting with a digit)"));
        }
        return ok;
    }

    std::string text_;
    ArgInfo arg_info_ = ArgInfo::by_default;
    LanguageVersion language_ = LanguageVersion::highest;
    std::shared_ptr<const BinaryCache> cache_;  // set by cache(): the cache of these options
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
    /// As of(options), with non-uniform work-groups only where every device can run them.
    static ProgramFlags of(const BuildOptions& options, const std::vector<Device>& devices,
                           OnError on_error) {
        ProgramFlags flags = of(options);
        for (const Device& device : devices) {
            flags.non_uniform_groups =
                flags.non_uniform_groups && device.non_uniform_work_groups(on_error);
        }
        return flags;
    }
};

/// A kernel made once per program and name. The prototype is never handed out (its arguments
/// stay unset); requests get clones of it, which have their own argument values.
struct CachedKernel {
    std::string name;
    Handle<cl_kernel> prototype;  // empty where kernels cannot be cloned (before OpenCL 2.1)
    std::shared_ptr<const KernelDescription> description;
};

/// What the copies of one Program share: what its options mean, the logs of a build served
/// from the binary cache, and the kernels made so far.
struct ProgramState {
    ProgramFlags flags;
    bool from_cache = false;
    bool link_input = false;  // compiled, not linked (or linked as a library): no kernels
    // The devices the build was for, as given (empty for an adopted handle): PoCL reports the root
    // device for a program of sub-devices, so CL_PROGRAM_DEVICES cannot say which were built.
    std::vector<Device> devices;
    std::vector<std::string> cached_logs;
    std::mutex mutex;  // guards what follows
    bool platform_known = false;
    Version platform_version;  // decides clCloneKernel and SVM arguments; read once
    std::vector<CachedKernel> kernels;
};

/// True when a device's build failed in the driver's assembler (NVIDIA's ptxas) rather than on
/// the source: the front end accepted the program and the compiler's own output was refused.
bool assembler_failed(const std::vector<BuildLog>& logs);

/// What the binary cache (cache.hpp) plugs into Program::build when a unit of the program includes
/// it; nullptr otherwise. `load` returns a program built from a cache entry, or an empty one and,
/// in `key`, what `store` needs to keep the program that the build then makes.
struct BuildCache {
    Program (*load)(const Context& context, std::string_view source, const BuildOptions& options,
                    const BuildOptions& effective, const std::vector<Device>& devices,
                    std::shared_ptr<const void>& key);
    void (*store)(const Program& program, const BuildOptions& options,
                  const std::shared_ptr<const void>& key);
};
OPENCLAW_PROCESS_STATE std::atomic<const BuildCache*> build_cache OPENCLAW_INITIALIZED_AS(nullptr);

/// Says once per process, on stderr, that the environment asks for the binary cache
/// (OPENCLAW_CACHE, OPENCLAW_CACHE_DIR) while no unit of the program includes <openclaw/cache.hpp>.
void note_missing_cache();

struct ProgramAccess;

}  // namespace detail

/// An OpenCL C header for Program::compile: the name an `#include` directive uses and its text.
struct Header {
    /// The name as the directive writes it: "util.h", "lib/math.h".
    std::string name;
    /// The header's text (not copied: it must outlive the compile() call).
    std::string_view source;
};

/// An OpenCL program (cl_program) built for the devices of a context, from source, binaries or
/// IL; makes Kernels by name. Copying shares it (clRetainProgram), destruction releases it.
class Program {
  public:
    Program() = default;

    /// Compiles and links `source` for every device of `context`, with `options` plus -cl-std
    /// and -cl-kernel-arg-info (see BuildOptions::for_devices). With <openclaw/cache.hpp> in the
    /// program, a binary cache entry of the same build, when there is one, is loaded instead (see
    /// BinaryCache). Fails with BuildError, carrying every device's log, if the build fails on
    /// any device.
    [[nodiscard]] static Program build(const Context& context, std::string_view source,
                                       const BuildOptions& options = {}, OnError on_error = {});

    /// As build(), for `devices` only: some of the context's devices (each once). Kernels of the
    /// program run on queues of those devices; a launch on another device of the context fails
    /// with CL_INVALID_PROGRAM_EXECUTABLE.
    [[nodiscard]] static Program build(const Context& context, const std::vector<Device>& devices,
                                       std::string_view source, const BuildOptions& options = {},
                                       OnError on_error = {});

    /// Compiles `source` for every device of `context` without linking it (clCompileProgram),
    /// with `headers` as the files its `#include` directives name, and `options` plus -cl-std and
    /// -cl-kernel-arg-info as build() adds them. The result is an input of link(); it makes no
    /// kernels. Fails with BuildError, carrying every device's log.
    [[nodiscard]] static Program compile(const Context& context, std::string_view source,
                                         const std::vector<Header>& headers = {},
                                         const BuildOptions& options = {}, OnError on_error = {});

    /// Links compiled programs and libraries of `context` into one program (clLinkProgram) with
    /// the linker `options` (e.g. "-create-library" for a library, itself an input of link(), or
    /// "-cl-denorms-are-zero"). Kernels are checked against the driver's description where every
    /// input was compiled with -cl-kernel-arg-info. Fails with BuildError, carrying the logs.
    [[nodiscard]] static Program link(const Context& context, const std::vector<Program>& programs,
                                      const BuildOptions& options = {}, OnError on_error = {});

    /// A program from binaries (one per device of `context`, in the context's device order, as
    /// binaries() returns them), built with `options`. Pass the options the binaries were
    /// compiled with: -cl-std=CL2.x/3.x and -cl-kernel-arg-info decide whether kernels may use
    /// non-uniform work-groups and are checked against the driver's parameter description.
    [[nodiscard]] static Program from_binaries(const Context& context,
                                               std::span<const Binary> binaries,
                                               const BuildOptions& options = {},
                                               OnError on_error = {});

    /// A program from an intermediate language (SPIR-V) module, built with `options`. Every
    /// device must accept an IL (Device::il_version(): OpenCL 2.1 or later, and not PoCL 3.1 or
    /// NVIDIA's driver): otherwise it fails with CL_INVALID_OPERATION naming the device, and
    /// clCreateProgramWithIL is not called.
    [[nodiscard]] static Program from_il(const Context& context, std::span<const unsigned char> il,
                                         const BuildOptions& options = {}, OnError on_error = {});

    /// Takes ownership of a built program (also if this fails).
    [[nodiscard]] static Program adopt(cl_program raw, OnError on_error = {}) {
        return of(detail::Handle<cl_program>::adopt(raw), on_error);
    }
    /// Shares `raw` (retains it); it must be built.
    [[nodiscard]] static Program retain(cl_program raw, OnError on_error = {}) {
        return of(detail::Handle<cl_program>::retain(raw, on_error), on_error);
    }

    /// A typed kernel: Kernel<In<float>, Out<float>, cl_uint> k = program.kernel<...>("name").
    /// Fails if no kernel has that name (listing those that exist), if its parameter count
    /// differs from the declaration, or (with arg info) if a parameter differs from the driver's
    /// description of it. The program makes each kernel once and hands out copies of it with
    /// their own argument values (clCloneKernel; see docs/programs.md). The same as
    /// `Kernel<Params...>(program, name)`. A kernel type may be given instead of its parameters:
    /// with `using Add = Kernel<In<float>, Out<float>>`, `program.kernel<Add>("add")` is an Add
    /// (and `program.kernel<DynamicKernel>("add")` the untyped kernel).
    template <class... Params>
    [[nodiscard]] typename detail::KernelFor<Params...>::type kernel(std::string_view name,
                                                                     OnError on_error = {}) const {
        return typename detail::KernelFor<Params...>::type(*this, name, on_error);
    }

    /// The kernel Name of Source, typed by its declaration in Source: with
    /// `constexpr char source[] = "__kernel void add(__global const float* a, ...)"` (or a
    /// header from openclaw_embed_kernels), program.kernel<source, "add">() is the Kernel<...>
    /// that the hand-written form would declare. Source must be a constant with static storage
    /// convertible to std::string_view; a signature openclaw cannot read is a compile error
    /// naming the kernel, the parameter and the position. Needs <openclaw/signature.hpp>.
    template <const auto& Source, FixedString Name>
    [[nodiscard]] typename detail::SourceKernel<Source, Name>::type kernel(
        OnError on_error = {}) const {
        return typename detail::SourceKernel<Source, Name>::type(*this, Name.view(), on_error);
    }

    /// A kernel without a C++ signature, whose set_args is checked at run time.
    [[nodiscard]] DynamicKernel kernel(std::string_view name, OnError on_error = {}) const {
        return DynamicKernel(*this, name, on_error);
    }

    /// The names of the program's kernels.
    std::vector<std::string> kernel_names(OnError on_error = {}) const;

    /// The devices the program was built for, as the build was given them (its device list, or
    /// the context's devices); CL_PROGRAM_DEVICES for a program adopted from a raw handle. (PoCL
    /// reports the root device for a program of sub-devices.)
    std::vector<Device> devices(OnError on_error = {}) const;
    /// The program's context (CL_PROGRAM_CONTEXT), retained.
    Context context(OnError on_error = {}) const {
        return Context::retain(info<CL_PROGRAM_CONTEXT>(on_error), on_error);
    }

    /// The program's binary for each of its devices (in devices() order): what from_binaries
    /// takes back, e.g. in another process.
    std::vector<Binary> binaries(OnError on_error = {}) const;

    /// The compiler's output for `device`: warnings after a successful build. For a program
    /// loaded from the binary cache, the log of the build that made the entry.
    std::string build_log(const Device& device, OnError on_error = {}) const;
    /// Every device's build status and log.
    std::vector<BuildLog> build_logs(OnError on_error = {}) const;

    /// True for a program made by compile() or linked as a library: an input of link(), which
    /// makes no kernels.
    bool is_link_input() const noexcept { return state_ && state_->link_input; }

    /// True when the program was loaded from the binary cache instead of being compiled.
    bool loaded_from_cache() const noexcept { return state_ && state_->from_cache; }
    /// True when kernels may be launched with non-uniform work-groups: built as OpenCL C 2.0 or
    /// later (without -cl-uniform-work-group-size) for devices that can run them.
    bool non_uniform_groups() const noexcept { return state_ && state_->flags.non_uniform_groups; }
    /// True when built with -cl-kernel-arg-info: kernels are then checked against the driver's
    /// description of their parameters when they are created.
    bool kernel_arg_info() const noexcept { return state_ && state_->flags.kernel_arg_info; }

    /// Any clGetProgramInfo parameter, with its C++ type from openclaw's info table.
    template <cl_program_info Param>
    detail::info_t<cl_program, Param> info(OnError on_error = {}) const {
        return detail::get_info<cl_program, Param>(on_error, get());
    }
    /// Any clGetProgramBuildInfo parameter for `device`, typed.
    template <cl_program_build_info Param>
    detail::info_t<detail::ProgramBuildInfo, Param> build_info(const Device& device,
                                                               OnError on_error = {}) const {
        return detail::get_info<detail::ProgramBuildInfo, Param>(on_error, get(), device.get());
    }

    /// The raw cl_program (not retained; null when empty).
    cl_program get() const noexcept { return handle_.get(); }
    /// True when the object holds a program.
    explicit operator bool() const noexcept { return static_cast<bool>(handle_); }
    friend bool operator==(const Program& a, const Program& b) noexcept {
        return a.handle_ == b.handle_;
    }

  private:
    friend struct detail::ProgramAccess;
    friend detail::MadeKernel detail::make_kernel(const Program&, std::string_view, OnError);

    Program(detail::Handle<cl_program> handle, detail::ProgramFlags flags)
        : state_(std::make_shared<detail::ProgramState>()), handle_(std::move(handle)) {
        state_->flags = flags;
    }

    // A program of a raw handle: its flags read from its build options and devices.
    static Program of(detail::Handle<cl_program> handle, OnError on_error);

    // build() for `devices`; `some` passes them to clBuildProgram (a subset of the context's).
    static Program build_for(const Context& context, const std::vector<Device>& devices, bool some,
                             std::string_view source, const BuildOptions& options,
                             OnError on_error);

    // clCreateProgramWithBinary for `devices`, one binary each.
    static detail::Handle<cl_program> create_with_binaries(const Context& context,
                                                           const std::vector<Device>& devices,
                                                           std::span<const Binary> binaries,
                                                           OnError on_error);

    static bool added_arg_info(const BuildOptions& options, const BuildOptions& effective) {
        return !options.contains("-cl-kernel-arg-info") &&
               effective.contains("-cl-kernel-arg-info");
    }

    // The logs of a failed build, or why there are none.
    struct FailedBuild {
        std::vector<BuildLog> logs;
        std::string unavailable_why;
    };
    [[gnu::cold]] FailedBuild failed_build() const;
    [[gnu::cold]] void build_failed(cl_int code, const BuildOptions& options,
                                    const BuildOptions& effective, FailedBuild why,
                                    OnError on_error, const char* call = "clBuildProgram") const;

    // The state first: destroyed after the handle, so the program is released before the
    // devices its state keeps.
    std::shared_ptr<detail::ProgramState> state_;
    detail::Handle<cl_program> handle_;
};

namespace detail {
/// What the binary cache needs of a program beyond its public face.
struct ProgramAccess {
    static Program make(Handle<cl_program> handle, const BuildOptions& effective,
                        const std::vector<Device>& devices, std::vector<std::string> logs,
                        OnError on_error) {
        Program program(std::move(handle), ProgramFlags::of(effective, devices, on_error));
        program.state_->devices = devices;
        program.state_->from_cache = true;
        program.state_->cached_logs = std::move(logs);
        return program;
    }
    static Handle<cl_program> create_with_binaries(const Context& context,
                                                   const std::vector<Device>& devices,
                                                   std::span<const Binary> binaries,
                                                   OnError on_error) {
        return Program::create_with_binaries(context, devices, binaries, on_error);
    }
};
}  // namespace detail

#if OPENCLAW_OUT_OF_LINE_DEFINITIONS
OPENCLAW_INLINE BuildOptions BuildOptions::for_devices(std::span<const Device> devices,
                                                       OnError on_error) const {
    BuildOptions out = *this;
    if (language_ == LanguageVersion::highest && !contains("-cl-std=")) {
        const Version version = highest_common_language(devices, on_error);
        if (version >= Version{1, 1}) {
            out.add(detail::concat("-cl-std=CL", version.major, '.', version.minor));
        }
    }
    if (adds_kernel_arg_info() && !contains("-cl-kernel-arg-info")) {
        // -cl-kernel-arg-info exists since OpenCL 1.2; older compilers would refuse it.
        bool all = true;
        for (const Device& device : devices) {
            all = all && device.version(on_error) >= Version{1, 2};
        }
        if (all) {
            out.add("-cl-kernel-arg-info");
        }
    }
    return out;
}

OPENCLAW_INLINE Version BuildOptions::highest_common_language(std::span<const Device> devices,
                                                              OnError on_error) {
    unsigned common = devices.empty() ? 0u : ~0u;
    for (const Device& device : devices) {
        common &= detail::language_mask(device, on_error);
    }
    Version highest;
    for (unsigned i = 0; i < detail::language_versions.size(); ++i) {
        if ((common & (1u << i)) != 0) {
            highest = detail::language_versions[i];
        }
    }
    return highest;
}

namespace detail {
OPENCLAW_INLINE void note_missing_cache() {
    static const bool noted = [] {
        const char* mode = std::getenv("OPENCLAW_CACHE");
        const char* dir = std::getenv("OPENCLAW_CACHE_DIR");
        const std::string_view m = mode != nullptr ? std::string_view(mode) : std::string_view();
        const bool off = m == "0" || m == "off" || m == "OFF" || m == "no" || m == "false";
        const bool asked = m == "1" || m == "on" || m == "ON" || m == "yes" || m == "true" ||
                           (dir != nullptr && *dir != '\0');
        if (asked && !off) {
            std::fputs(
                "openclaw: OPENCLAW_CACHE asks for the binary cache, but no unit of this "
                "program includes <openclaw/cache.hpp>: building without it\n",
                stderr);
        }
        return true;
    }();
    (void)noted;
}

// Refuses an empty source or context before a program is made of them.
OPENCLAW_INLINE bool check_source(const Context& context, std::string_view source,
                                  OnError on_error) {
    if (source.empty()) {
        fail(on_error, CL_INVALID_VALUE, "clCreateProgramWithSource", "the source is empty");
        return false;
    }
    if (!context) {
        refuse_empty(on_error, CL_INVALID_CONTEXT, "clCreateProgramWithSource", "context");
        return false;
    }
    return true;
}

OPENCLAW_INLINE bool assembler_failed(const std::vector<BuildLog>& logs) {
    for (const BuildLog& log : logs) {
        if (log.status == CL_BUILD_ERROR && log.log.find("ptxas") != std::string::npos) {
            return true;
        }
    }
    return false;
}
}  // namespace detail

OPENCLAW_INLINE Program Program::build(const Context& context, std::string_view source,
                                       const BuildOptions& options, OnError on_error) {
    if (!detail::check_source(context, source, on_error)) {
        return {};
    }
    detail::Relay step(on_error);
    const std::vector<Device> devices = context.devices(step);
    if (step.failed()) {
        return {};
    }
    return build_for(context, devices, false, source, options, on_error);
}

OPENCLAW_INLINE Program Program::build(const Context& context, const std::vector<Device>& devices,
                                       std::string_view source, const BuildOptions& options,
                                       OnError on_error) {
    if (!detail::check_source(context, source, on_error)) {
        return {};
    }
    if (!detail::check_context_devices(context, devices, "clBuildProgram", on_error,
                                       "the list of devices to build for is empty")) {
        return {};
    }
    return build_for(context, devices, true, source, options, on_error);
}

OPENCLAW_INLINE Program Program::build_for(const Context& context,
                                           const std::vector<Device>& devices, bool some,
                                           std::string_view source, const BuildOptions& options,
                                           OnError on_error) {
    detail::Relay step(on_error);
    const BuildOptions effective = options.for_devices(devices, step);
    if (step.failed()) {
        return {};
    }
    std::shared_ptr<const void> cache_key;
    if (const detail::BuildCache* cache = detail::build_cache.load(std::memory_order_acquire)) {
        if (Program cached = cache->load(context, source, options, effective, devices, cache_key)) {
            return cached;
        }
    } else {
        detail::note_missing_cache();
    }
    const char* text = source.data();
    const std::size_t length = source.size();
    cl_int code = CL_SUCCESS;
    cl_program raw = clCreateProgramWithSource(context.get(), 1, &text, &length, &code);
    raw = detail::created_or_null(raw, code);
    if (!detail::check(code, "clCreateProgramWithSource", on_error,
                       [&] { return detail::concat(length, " characters of source"); })) {
        return {};
    }
    auto handle = detail::Handle<cl_program>::adopt(raw);  // owned before anything can throw
    Program program(std::move(handle), detail::ProgramFlags::of(effective, devices, step));
    program.state_->devices = devices;
    if (step.failed()) {
        return {};
    }
    std::vector<cl_device_id> ids;
    if (some) {
        for (const Device& device : devices) {
            ids.push_back(device.get());
        }
    }
    code = clBuildProgram(raw, static_cast<cl_uint>(ids.size()), ids.empty() ? nullptr : ids.data(),
                          effective.str().c_str(), nullptr, nullptr);
    if (code != CL_SUCCESS) {
        FailedBuild failed = program.failed_build();
        if (code == CL_BUILD_PROGRAM_FAILURE && added_arg_info(options, effective) &&
            detail::assembler_failed(failed.logs)) {
            // NVIDIA's compiler (driver 580, H200) emits PTX its own assembler rejects for a
            // kernel without parameters when -cl-kernel-arg-info is given. The option was
            // openclaw's, not the caller's: build without it (kernels then keep the checks
            // that need no driver description; kernel_arg_info() says false).
            BuildOptions without = options;
            without.kernel_arg_info(false);
            return build_for(context, devices, some, source, without, on_error);
        }
        program.build_failed(code, options, effective, std::move(failed), on_error);
        return {};
    }
    if (cache_key) {
        detail::build_cache.load(std::memory_order_acquire)->store(program, options, cache_key);
    }
    return program;
}

OPENCLAW_INLINE Program Program::compile(const Context& context, std::string_view source,
                                         const std::vector<Header>& headers,
                                         const BuildOptions& options, OnError on_error) {
    constexpr const char* call = "clCompileProgram";
    if (source.empty()) {
        detail::fail(on_error, CL_INVALID_VALUE, call, "the source is empty");
        return {};
    }
    if (!context) {
        detail::refuse_empty(on_error, CL_INVALID_CONTEXT, call, "context");
        return {};
    }
    for (std::size_t i = 0; i < headers.size(); ++i) {
        if (headers[i].name.empty() || headers[i].source.empty()) {
            detail::fail(on_error, CL_INVALID_VALUE, call,
                         detail::concat("header ", i, " (\"", headers[i].name, "\") has ",
                                        headers[i].name.empty() ? "no name" : "no text"));
            return {};
        }
    }
    detail::Relay step(on_error);
    const std::vector<Device> devices = context.devices(step);
    const BuildOptions effective = options.for_devices(devices, step);
    if (step.failed()) {
        return {};
    }
    // The headers are programs of their own source, named for the directives.
    std::vector<detail::Handle<cl_program>> header_programs;
    std::vector<cl_program> header_handles;
    std::vector<const char*> header_names;
    for (const Header& header : headers) {
        const char* text = header.source.data();
        const std::size_t length = header.source.size();
        cl_int code = CL_SUCCESS;
        cl_program raw = clCreateProgramWithSource(context.get(), 1, &text, &length, &code);
        raw = detail::created_or_null(raw, code);
        if (!detail::check(code, "clCreateProgramWithSource", on_error, [&] {
                return detail::concat("header \"", header.name, "\", ", length, " characters");
            })) {
            return {};
        }
        header_programs.push_back(detail::Handle<cl_program>::adopt(raw));
        header_handles.push_back(raw);
        header_names.push_back(header.name.c_str());
    }
    const char* text = source.data();
    const std::size_t length = source.size();
    cl_int code = CL_SUCCESS;
    cl_program raw = clCreateProgramWithSource(context.get(), 1, &text, &length, &code);
    raw = detail::created_or_null(raw, code);
    if (!detail::check(code, "clCreateProgramWithSource", on_error,
                       [&] { return detail::concat(length, " characters of source"); })) {
        return {};
    }
    Program program(detail::Handle<cl_program>::adopt(raw),
                    detail::ProgramFlags::of(effective, devices, step));
    program.state_->devices = devices;
    program.state_->link_input = true;
    if (step.failed()) {
        return {};
    }
    code = clCompileProgram(raw, 0, nullptr, effective.str().c_str(),
                            static_cast<cl_uint>(header_handles.size()),
                            header_handles.empty() ? nullptr : header_handles.data(),
                            header_names.empty() ? nullptr : header_names.data(), nullptr, nullptr);
    if (code != CL_SUCCESS) {
        program.build_failed(code, options, effective, program.failed_build(), on_error, call);
        return {};
    }
    return program;
}

OPENCLAW_INLINE Program Program::link(const Context& context, const std::vector<Program>& programs,
                                      const BuildOptions& options, OnError on_error) {
    constexpr const char* call = "clLinkProgram";
    if (!context) {
        detail::refuse_empty(on_error, CL_INVALID_CONTEXT, call, "context");
        return {};
    }
    if (programs.empty()) {
        detail::fail(on_error, CL_INVALID_VALUE, call, "no programs to link");
        return {};
    }
    detail::Relay step(on_error);
    detail::ProgramFlags flags{true, true};
    std::vector<cl_program> handles;
    for (std::size_t i = 0; i < programs.size(); ++i) {
        const Program& input = programs[i];
        if (!input) {
            detail::fail(
                on_error, CL_INVALID_PROGRAM, call,
                detail::concat("program ", i, " is empty (default-constructed or moved-from)"));
            return {};
        }
        const cl_context owner = input.info<CL_PROGRAM_CONTEXT>(step);
        if (step.failed()) {
            return {};
        }
        if (owner != context.get()) {
            detail::fail(on_error, CL_INVALID_CONTEXT, call,
                         detail::concat("program ", i, " belongs to another context"));
            return {};
        }
        if (!input.is_link_input()) {
            detail::fail(on_error, CL_INVALID_OPERATION, call,
                         detail::concat("program ", i,
                                        " is an executable, not a compiled program or a library: "
                                        "make the inputs with Program::compile (or link them "
                                        "with -create-library)"));
            return {};
        }
        flags.non_uniform_groups = flags.non_uniform_groups && input.non_uniform_groups();
        flags.kernel_arg_info = flags.kernel_arg_info && input.kernel_arg_info();
        handles.push_back(input.get());
    }
    cl_int code = CL_SUCCESS;
    cl_program raw = clLinkProgram(context.get(), 0, nullptr, options.str().c_str(),
                                   static_cast<cl_uint>(handles.size()), handles.data(), nullptr,
                                   nullptr, &code);
    // A failed link may still return a program: it holds the logs.
    Program program(detail::Handle<cl_program>::adopt(raw), flags);
    program.state_->link_input = options.contains("-create-library");
    Status unknown;  // then devices() asks the program
    program.state_->devices = context.devices(unknown);
    if (code != CL_SUCCESS) {
        if (raw != nullptr) {
            program.build_failed(code, options, options, program.failed_build(), on_error, call);
        } else {
            detail::fail(on_error, code, call,
                         detail::concat(handles.size(), " program(s), options \"", options.str(),
                                        "\" (no program, so no log)"));
        }
        return {};
    }
    return program;
}

OPENCLAW_INLINE Program Program::from_binaries(const Context& context,
                                               std::span<const Binary> binaries,
                                               const BuildOptions& options, OnError on_error) {
    if (!context) {
        detail::refuse_empty(on_error, CL_INVALID_CONTEXT, "clCreateProgramWithBinary", "context");
        return {};
    }
    detail::Relay step(on_error);
    const std::vector<Device> devices = context.devices(step);
    if (step.failed()) {
        return {};
    }
    auto handle = create_with_binaries(context, devices, binaries, on_error);
    if (!handle) {
        return {};
    }
    Program program(std::move(handle), detail::ProgramFlags::of(options, devices, step));
    program.state_->devices = devices;
    if (step.failed()) {
        return {};
    }
    const cl_int code =
        clBuildProgram(program.get(), 0, nullptr, options.str().c_str(), nullptr, nullptr);
    if (code != CL_SUCCESS) {
        program.build_failed(code, options, options, program.failed_build(), on_error);
        return {};
    }
    return program;
}

OPENCLAW_INLINE Program Program::from_il(const Context& context, std::span<const unsigned char> il,
                                         const BuildOptions& options, OnError on_error) {
    constexpr const char* call = "clCreateProgramWithIL";
    if (il.size() < 20 || il.size() % 4 != 0) {
        detail::fail(on_error, CL_INVALID_VALUE, call,
                     detail::concat("an IL module of ", il.size(),
                                    " bytes: SPIR-V is a sequence of 32-bit words with a "
                                    "5-word header"));
        return {};
    }
    if (!context) {
        detail::refuse_empty(on_error, CL_INVALID_CONTEXT, call, "context");
        return {};
    }
    detail::Relay step(on_error);
    const std::vector<Device> devices = context.devices(step);
    for (const Device& device : devices) {
        if (device.il_version(step).empty() && !step.failed()) {
            detail::fail(on_error, CL_INVALID_OPERATION, call,
                         detail::describe_safely([&](OnError quiet) {
                             const Platform platform = device.platform(quiet);
                             return detail::concat(
                                 "device \"", device.name(quiet), "\" (platform \"",
                                 platform.name(quiet), "\", ", platform.version_string(quiet),
                                 ") accepts no intermediate language: CL_DEVICE_IL_VERSION is ",
                                 "empty or unknown (it exists from OpenCL 2.1 on",
                                 CL_TARGET_OPENCL_VERSION < 210
                                     ? ", and openclaw was compiled for an older OpenCL"
                                     : "",
                                 "); build from OpenCL C source or from binaries instead");
                         }));
            return {};
        }
    }
    if (step.failed()) {
        return {};
    }
#if CL_TARGET_OPENCL_VERSION >= 210
    cl_int code = CL_SUCCESS;
    cl_program raw = clCreateProgramWithIL(context.get(), il.data(), il.size(), &code);
    raw = detail::created_or_null(raw, code);
    if (!detail::check(code, call, on_error, [&](OnError quiet) {
            return detail::concat("a module of ", il.size(), " bytes for ", devices.size(),
                                  " device(s), first \"", devices.front().name(quiet), "\"");
        })) {
        return {};
    }
    Program program(detail::Handle<cl_program>::adopt(raw),
                    detail::ProgramFlags::of(options, devices, step));
    program.state_->devices = devices;
    if (step.failed()) {
        return {};
    }
    code = clBuildProgram(raw, 0, nullptr, options.str().c_str(), nullptr, nullptr);
    if (code != CL_SUCCESS) {
        program.build_failed(code, options, options, program.failed_build(), on_error);
        return {};
    }
    return program;
#else
    (void)options;
    return {};  // unreachable: no device reports an IL before OpenCL 2.1
#endif
}

OPENCLAW_INLINE Program Program::of(detail::Handle<cl_program> handle, OnError on_error) {
    if (!handle) {
        return {};
    }
    detail::Relay step(on_error);
    const auto ids = detail::get_info<cl_program, CL_PROGRAM_DEVICES>(step, handle.get());
    std::vector<Device> devices;
    for (cl_device_id id : ids) {
        devices.push_back(Device::retain(id, step));
    }
    detail::ProgramFlags flags;
    if (!ids.empty() && !step.failed()) {
        flags = detail::ProgramFlags::of(
            BuildOptions(detail::get_info<detail::ProgramBuildInfo, CL_PROGRAM_BUILD_OPTIONS>(
                step, handle.get(), ids.front())),
            devices, step);
    }
    if (step.failed()) {
        return {};
    }
    return Program(std::move(handle), flags);
}

OPENCLAW_INLINE std::vector<Device> Program::devices(OnError on_error) const {
    if (state_ && !state_->devices.empty()) {
        return state_->devices;
    }
    detail::Relay step(on_error);
    std::vector<Device> devices;
    for (cl_device_id id : info<CL_PROGRAM_DEVICES>(step)) {
        devices.push_back(Device::retain(id, step));
    }
    return step.failed() ? std::vector<Device>() : devices;
}

OPENCLAW_INLINE std::vector<Binary> Program::binaries(OnError on_error) const {
    detail::Relay step(on_error);
    const std::vector<std::size_t> sizes = info<CL_PROGRAM_BINARY_SIZES>(step);
    if (step.failed()) {
        return {};
    }
    std::vector<Binary> out(sizes.size());
    std::vector<unsigned char*> pointers(sizes.size(), nullptr);
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        out[i].resize(sizes[i]);
        pointers[i] = sizes[i] != 0 ? out[i].data() : nullptr;
    }
    if (!detail::check(
            clGetProgramInfo(get(), CL_PROGRAM_BINARIES, pointers.size() * sizeof(unsigned char*),
                             pointers.data(), nullptr),
            "clGetProgramInfo", on_error,
            [] { return std::string("query CL_PROGRAM_BINARIES"); })) {
        return {};
    }
    return out;
}

OPENCLAW_INLINE std::string Program::build_log(const Device& device, OnError on_error) const {
    if (state_ && state_->from_cache) {
        const auto ids = info<CL_PROGRAM_DEVICES>(on_error);
        for (std::size_t i = 0; i < ids.size() && i < state_->cached_logs.size(); ++i) {
            if (ids[i] == device.get()) {
                return state_->cached_logs[i];
            }
        }
    }
    return build_info<CL_PROGRAM_BUILD_LOG>(device, on_error);
}

OPENCLAW_INLINE std::vector<BuildLog> Program::build_logs(OnError on_error) const {
    std::vector<BuildLog> logs;
    const auto add = [&](const Device& device) {
        logs.push_back({device.name(on_error),
                        build_info<CL_PROGRAM_BUILD_STATUS>(device, on_error),
                        build_log(device, on_error)});
    };
    if (state_ && !state_->devices.empty()) {
        for (const Device& device : state_->devices) {  // not copied: a copy retains
            add(device);
        }
    } else {
        for (const Device& device : devices(on_error)) {
            add(device);
        }
    }
    return logs;
}

[[gnu::noinline, gnu::cold]] OPENCLAW_INLINE Program::FailedBuild Program::failed_build() const {
    // No logs to be had (e.g. CL_INVALID_BUILD_OPTIONS on some drivers), or reading them
    // fails too: the build's own code is still the error, and the message says why no log.
    FailedBuild result;
    Status unavailable;
    result.logs = build_logs(unavailable);
    if (unavailable.failed()) {
        result.logs.clear();
        result.unavailable_why = unavailable.what();
    }
    return result;
}

OPENCLAW_INLINE detail::Handle<cl_program> Program::create_with_binaries(
    const Context& context, const std::vector<Device>& devices, std::span<const Binary> binaries,
    OnError on_error) {
    constexpr const char* call = "clCreateProgramWithBinary";
    if (binaries.size() != devices.size()) {
        detail::fail(on_error, CL_INVALID_VALUE, call,
                     detail::concat(binaries.size(), " binaries for a context of ", devices.size(),
                                    " device(s): give one per device, in the context's "
                                    "device order"));
        return {};
    }
    std::vector<cl_device_id> ids;
    std::vector<std::size_t> lengths;
    std::vector<const unsigned char*> pointers;
    for (std::size_t i = 0; i < devices.size(); ++i) {
        if (binaries[i].empty()) {
            detail::fail(on_error, CL_INVALID_VALUE, call,
                         detail::describe_safely([&](OnError quiet) {
                             return detail::concat("binary ", i, " (for device \"",
                                                   devices[i].name(quiet), "\") is empty");
                         }));
            return {};
        }
        ids.push_back(devices[i].get());
        lengths.push_back(binaries[i].size());
        pointers.push_back(binaries[i].data());
    }
    std::vector<cl_int> status(devices.size(), CL_SUCCESS);
    cl_int code = CL_SUCCESS;
    cl_program raw =
        clCreateProgramWithBinary(context.get(), static_cast<cl_uint>(ids.size()), ids.data(),
                                  lengths.data(), pointers.data(), status.data(), &code);
    auto handle = detail::Handle<cl_program>::adopt(code == CL_SUCCESS ? raw : nullptr);
    if (code != CL_SUCCESS && raw != nullptr) {
        clReleaseProgram(raw);
    }
    if (!detail::check(code, call, on_error, [&](OnError quiet) {
            std::string detail;
            for (std::size_t i = 0; i < status.size(); ++i) {
                if (status[i] != CL_SUCCESS) {
                    detail += detail::concat(detail.empty() ? "" : "; ", "binary ", i, " (",
                                             lengths[i], " bytes) for device \"",
                                             devices[i].name(quiet), "\": ", code_name(status[i]));
                }
            }
            return detail.empty() ? detail::concat(ids.size(), " binaries") : detail;
        })) {
        return {};
    }
    return handle;
}

[[gnu::noinline, gnu::cold]] OPENCLAW_INLINE void Program::build_failed(
    cl_int code, const BuildOptions& options, const BuildOptions& effective, FailedBuild why,
    OnError on_error, const char* call) const {
    std::vector<BuildLog> logs = std::move(why.logs);
    const std::string unavailable_why = std::move(why.unavailable_why);
    std::size_t failed = 0;
    for (const BuildLog& log : logs) {
        failed += log.status == CL_BUILD_ERROR ? 1 : 0;
    }
    const std::size_t given = options.str().size();
    std::string added =
        effective.str().size() > given ? effective.str().substr(given) : std::string();
    if (!added.empty() && added.front() == ' ') {
        added.erase(0, 1);
    }
    std::string detail =
        unavailable_why.empty()
            ? detail::concat("the build failed for ", failed, " of ", logs.size(), " device(s)")
            : detail::concat("the build failed (build logs unavailable: ", unavailable_why, ")");
    detail += detail::concat(
        ", options \"", options.str(), "\"",
        added.empty() ? std::string() : detail::concat(" (and, added by openclaw: ", added, ")"));
    detail::fail_build(on_error, code, call, std::move(detail), std::move(logs));
}

OPENCLAW_INLINE std::vector<std::string> Program::kernel_names(OnError on_error) const {
    std::vector<std::string> names;
    const std::string all = info<CL_PROGRAM_KERNEL_NAMES>(on_error);
    std::size_t start = 0;
    while (start <= all.size()) {
        std::size_t end = all.find(';', start);
        end = end == std::string::npos ? all.size() : end;
        if (end > start) {
            names.emplace_back(all, start, end - start);
        }
        start = end + 1;
    }
    return names;
}

OPENCLAW_INLINE Program KernelBase::program(OnError on_error) const {
    return Program::retain(info<CL_KERNEL_PROGRAM>(on_error), on_error);
}

namespace detail {

OPENCLAW_INLINE MadeKernel make_kernel(const Program& program, std::string_view name,
                                       OnError on_error) {
    ProgramState* state = program.state_.get();
    if (!program || state == nullptr) {
        fail(on_error, CL_INVALID_PROGRAM, "clCreateKernel",
             concat("kernel \"", name,
                    "\": the program is empty (default-constructed or moved-from)"));
        return {};
    }
    if (state->link_input) {
        fail(on_error, CL_INVALID_PROGRAM_EXECUTABLE, "clCreateKernel",
             concat("kernel \"", name,
                    "\": the program is compiled, not linked (or is a library): make kernels of "
                    "what Program::link returns"));
        return {};
    }
    const bool non_uniform = state->flags.non_uniform_groups;
    const std::lock_guard lock(state->mutex);
    if (!state->platform_known) {
        Relay step(on_error);
        state->platform_version = platform_version_of(program.get(), step);
        if (step.failed()) {
            return {};
        }
        state->platform_known = true;
    }
    CachedKernel* entry = nullptr;
    for (CachedKernel& cached : state->kernels) {
        if (cached.name == name) {
            entry = &cached;
            break;
        }
    }
    if (entry == nullptr) {
        Handle<cl_kernel> first = create_kernel(program.get(), name, on_error);
        if (!first) {
            return {};
        }
        auto description = KernelDescription::of(first.get(), state->flags.kernel_arg_info,
                                                 state->platform_version, on_error, true);
        if (!description) {
            return {};
        }
        if (!description->clonable) {
            state->kernels.push_back({std::string(name), {}, description});
            return {std::move(first), std::move(description), non_uniform};
        }
        state->kernels.push_back({std::string(name), std::move(first), std::move(description)});
        entry = &state->kernels.back();
    }
    if (entry->prototype) {
        bool unsupported = false;
        Handle<cl_kernel> copy =
            clone_kernel(entry->prototype.get(), entry->name, unsupported, on_error);
        if (copy) {
            return {std::move(copy), entry->description, non_uniform};
        }
        if (!unsupported) {
            return {};
        }
        entry->prototype.reset();  // the driver cannot clone: create each kernel from now on
    }
    Handle<cl_kernel> fresh = create_kernel(program.get(), name, on_error);
    if (!fresh) {
        return {};
    }
    return {std::move(fresh), entry->description, non_uniform};
}

OPENCLAW_INLINE MadeKernel describe_kernel(Handle<cl_kernel> handle, OnError on_error) {
    if (!handle) {
        return {};
    }
    Relay step(on_error);
    const Program program =
        Program::retain(get_info<cl_kernel, CL_KERNEL_PROGRAM>(step, handle.get()), step);
    if (step.failed()) {
        return {};
    }
    auto description = KernelDescription::of(handle.get(), program.kernel_arg_info(),
                                             platform_version_of(program.get(), step), step);
    if (step.failed() || !description) {
        return {};
    }
    return {std::move(handle), std::move(description), program.non_uniform_groups()};
}

}  // namespace detail
#endif  // OPENCLAW_OUT_OF_LINE_DEFINITIONS

OPENCLAW_END_NAMESPACE
