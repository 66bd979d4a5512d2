// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// Program: OpenCL C source (or binaries, or SPIR-V) built for every device of a context, with
// BuildOptions as a value type (kernels layer: a program makes kernels, so it sits above them). A
// failed build reports BuildError carrying each device's log; a successful build keeps its logs
// (warnings) readable. Kernels come from program.kernel<Params...>("name") (typed by hand),
// program.kernel<source, "name">() (typed by the source's declaration: signature.hpp) or
// program.kernel("name") (checked at run time); each is made once per program and name, and
// handed out as copies. The on-disk binary cache (cache.hpp) plugs in when it is included.

#include <openclaw/context.hpp>
#include <openclaw/detail/base/handle.hpp>
#include <openclaw/detail/base/info.hpp>
#include <openclaw/device.hpp>
#include <openclaw/dynamic_kernel.hpp>
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

/// A string usable as a template argument: the kernel name in program.kernel<source, "name">()
/// and the type name in opencl_type<"Particle">. Its characters are a public array, which makes
/// it a structural type (C++20 class-type template parameters).
template <std::size_t N>
struct FixedString {
    static_assert(N >= 1, "FixedString holds a string literal, terminator included");
    /// The characters, with the terminating null.
    char chars[N]{};

    // Implicit on purpose: a string literal is the template argument.
    /// From a string literal: `"vector_add"`.
    constexpr FixedString(const char (&text)[N]) noexcept {  // NOLINT(google-explicit-constructor)
        for (std::size_t i = 0; i < N; ++i) {
            chars[i] = text[i];
        }
    }
    /// The first N - 1 characters of `text` (used to name slices of a source at compile time).
    constexpr explicit FixedString(std::string_view text) noexcept {
        for (std::size_t i = 0; i + 1 < N && i < text.size(); ++i) {
            chars[i] = text[i];
        }
    }
    /// The length without the terminating null.
    static constexpr std::size_t size() noexcept { return N - 1; }
    /// The text as a std::string_view.
    constexpr std::string_view view() const noexcept { return {chars, N - 1}; }
    constexpr operator std::string_view() const noexcept { return view(); }  // NOLINT
};

namespace detail {
// `auto`, not FixedString: clang 14 rejects redeclarations with a class template placeholder.
// Without <openclaw/signature.hpp>, which specialises it, program.kernel<source, "name">() says so.
template <class... As>
struct Bindings;
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
    /// Copies the options.
    BuildOptions(const BuildOptions&) = default;
    /// Takes the options.
    BuildOptions(BuildOptions&&) noexcept = default;
    /// Copies the options (onto itself: unchanged).
    BuildOptions& operator=(const BuildOptions&) = default;
    /// Moving onto itself keeps the options (a string's self-move may empty it).
    BuildOptions& operator=(BuildOptions&& other) noexcept {
        if (this != &other) {
            text_ = std::move(other.text_);
            arg_info_ = other.arg_info_;
            language_ = other.language_;
            cache_ = std::move(other.cache_);
        }
        return *this;
    }
    ~BuildOptions() = default;
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
    /// it is added, in every build type (on devices of OpenCL 1.2 or later). `false` only
    /// stops openclaw from adding it; an explicit "-cl-kernel-arg-info" option stays. If a build
    /// with the option openclaw added fails in the driver's assembler (NVIDIA's, for kernels
    /// without parameters), Program::build builds again without it.
    BuildOptions& kernel_arg_info(bool on) noexcept {
        arg_info_ = on ? ArgInfo::on : ArgInfo::off;
        return *this;
    }
    /// Whether Program::build will add -cl-kernel-arg-info (see kernel_arg_info(bool)).
    bool adds_kernel_arg_info() const noexcept { return arg_info_ != ArgInfo::off; }

    /// The binary cache Program::build reads and writes: `BinaryCache{}` turns caching off,
    /// `BinaryCache{dir}` uses `dir`. Without this call: BinaryCache::user_default(). Needs
    /// <openclaw/cache.hpp>.
    BuildOptions& cache(const BinaryCache& cache);
    /// The cache Program::build will use: the one given to cache(), else
    /// BinaryCache::user_default(), which the environment decides (needs <openclaw/cache.hpp>).
    const BinaryCache& binary_cache() const;
    /// True when cache() chose a cache (or chose none) for these options.
    bool chooses_cache() const noexcept { return static_cast<bool>(cache_); }

    /// The options as clBuildProgram receives them from Program::build for `devices`: these,
    /// then -cl-std=CLx.y (unless a version is named or LanguageVersion::compiler_default is
    /// chosen: the highest OpenCL C version every device accepts, from 1.1 up), then
    /// -cl-kernel-arg-info (see kernel_arg_info). Call str() on the result for the text.
    BuildOptions for_devices(std::span<const Device> devices, OnError on_error = {}) const;

    /// The highest OpenCL C version every device of `devices` accepts; {0, 0} if they share none.
    static Version highest_common_language(std::span<const Device> devices, OnError on_error = {});

  private:
    enum class ArgInfo : unsigned char { on, off };

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
    ArgInfo arg_info_ = ArgInfo::on;
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
extern constinit std::atomic<const BuildCache*> build_cache;  // impl/program.ipp
#if !OPENCLAW_HEADER_ONLY
/// The compiled library's cache (impl/detail/wings/cache.ipp, src/cache.cpp): build_cache points
/// at it from the start, so the environment or a build's options turn the cache on in every
/// program, whatever it includes.
extern const BuildCache binary_cache_hooks;
#endif

/// Whether the environment asks for the binary cache, read now: OPENCLAW_CACHE "1", "on", "ON",
/// "yes" or "true", or OPENCLAW_CACHE_DIR set and OPENCLAW_CACHE not "0", "off", "OFF", "no" or
/// "false" (the one parser of the setting: BinaryCache::from_environment and note_missing_cache).
bool environment_asks_for_cache();

/// Says once per process, on stderr, that the environment asks for the binary cache
/// (OPENCLAW_CACHE, OPENCLAW_CACHE_DIR) in a header-only program none of whose units includes
/// <openclaw/cache.hpp> (where the cache's code would be compiled).
void note_missing_cache();

struct ProgramAccess;

}  // namespace detail

/// An OpenCL C header for Program::compile: the name an `#include` directive uses and its text.
struct Header {
    /// No name, no text (refused by compile()).
    Header() = default;
    /// `Header{"util.h", text}`: the text is copied, so a Header outlives the string it was made
    /// from (it used to hold a view of it).
    Header(std::string header_name, std::string_view text)
        : name(std::move(header_name)), source(text) {}

    /// The name as the directive writes it: "util.h", "lib/math.h".
    std::string name;
    /// The header's text (its own copy).
    std::string source;
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
    /// Bindings after the name, `openclaw::type_as<"T", cl_double>`, type the names the build
    /// defines (`-D T=double`): one source typed per element type.
    template <const auto& Source, FixedString Name, class... As>
    [[nodiscard]] typename detail::SourceKernel<Source, Name, detail::Bindings<As...>>::type kernel(
        OnError on_error = {}) const {
        return typename detail::SourceKernel<Source, Name, detail::Bindings<As...>>::type(
            *this, Name.view(), on_error);
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

OPENCLAW_END_NAMESPACE

#if OPENCLAW_HEADER_ONLY
#include <openclaw/impl/program.ipp>
#endif

#include <openclaw/detail/base/macros_pop.hpp>
