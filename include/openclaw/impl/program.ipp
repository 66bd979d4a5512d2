// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-template bodies declared in <openclaw/program.hpp>: compiled once into the openclaw
// library (src/), or included by that header itself when openclaw is header-only.

#include <openclaw/program.hpp>

OPENCLAW_BEGIN_NAMESPACE

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

#if OPENCLAW_HEADER_ONLY
// Header-only, the cache's code is compiled where <openclaw/cache.hpp> is included; that header
// sets this pointer during static initialization.
inline constinit std::atomic<const BuildCache*> build_cache{nullptr};
#else
constinit std::atomic<const BuildCache*> build_cache{&binary_cache_hooks};
#endif
OPENCLAW_INLINE bool environment_asks_for_cache() {
    const char* mode = std::getenv("OPENCLAW_CACHE");
    const char* dir = std::getenv("OPENCLAW_CACHE_DIR");
    const std::string_view m = mode != nullptr ? std::string_view(mode) : std::string_view();
    if (m == "0" || m == "off" || m == "OFF" || m == "no" || m == "false") {
        return false;
    }
    return m == "1" || m == "on" || m == "ON" || m == "yes" || m == "true" ||
           (dir != nullptr && *dir != '\0');
}

OPENCLAW_INLINE void note_missing_cache() {
    static const bool noted = [] {
        if (environment_asks_for_cache()) {
            std::fputs(
                "openclaw: OPENCLAW_CACHE asks for the binary cache, but this program is "
                "header-only and no unit of it includes <openclaw/cache.hpp> (or links the "
                "compiled library): building without it\n",
                stderr);
        }
        return true;
    }();
    (void)noted;
}

// clCreateProgramWithSource, the one place a program is made of source (builds, compiles and a
// compile's headers): owned at once; empty, and reported with `header` (a compile's header) or
// "of source" and the length, on failure.
OPENCLAW_INLINE Handle<cl_program> program_of_source(const Context& context,
                                                     std::string_view source,
                                                     std::string_view header, OnError on_error) {
    const char* text = source.data();
    const std::size_t length = source.size();
    cl_int code = CL_SUCCESS;
    // Two statements: `code` must be read after the call has written it.
    cl_program raw = clCreateProgramWithSource(context.get(), 1, &text, &length, &code);
    raw = created_or_null(raw, code);
    if (!check(code, "clCreateProgramWithSource", on_error, [&] {
            return header.empty() ? concat(length, " characters of source")
                                  : concat("header \"", header, "\", ", length, " characters");
        })) {
        return {};
    }
    return Handle<cl_program>::adopt(raw);
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
    const detail::ReportScope reports_about(context.get());
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
    detail::Handle<cl_program> handle = detail::program_of_source(context, source, {}, on_error);
    if (!handle) {
        return {};
    }
    const cl_program raw = handle.get();
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
    const cl_int code =
        clBuildProgram(raw, static_cast<cl_uint>(ids.size()), ids.empty() ? nullptr : ids.data(),
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
    const detail::ReportScope reports_about(context.get());
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
        detail::Handle<cl_program> made =
            detail::program_of_source(context, header.source, header.name, on_error);
        if (!made) {
            return {};
        }
        header_handles.push_back(made.get());
        header_programs.push_back(std::move(made));
        header_names.push_back(header.name.c_str());
    }
    detail::Handle<cl_program> handle = detail::program_of_source(context, source, {}, on_error);
    if (!handle) {
        return {};
    }
    const cl_program raw = handle.get();
    Program program(std::move(handle), detail::ProgramFlags::of(effective, devices, step));
    program.state_->devices = devices;
    program.state_->link_input = true;
    if (step.failed()) {
        return {};
    }
    const cl_int code = clCompileProgram(
        raw, 0, nullptr, effective.str().c_str(), static_cast<cl_uint>(header_handles.size()),
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
    const detail::ReportScope reports_about(context.get());
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
    const detail::ReportScope reports_about(context.get());
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
    const detail::ReportScope reports_about(context.get());
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

OPENCLAW_END_NAMESPACE
