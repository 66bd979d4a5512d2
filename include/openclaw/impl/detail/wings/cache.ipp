// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-template bodies declared in <openclaw/detail/wings/cache.hpp>: compiled once into the
// openclaw library (src/), or included by that header itself when openclaw is header-only.

#include <openclaw/detail/wings/cache.hpp>

OPENCLAW_BEGIN_NAMESPACE

#if !OPENCLAW_HEADER_ONLY
namespace detail {
// What Program::build calls in the compiled library (program.hpp declares it; build_cache
// points at it from the start).
constinit const BuildCache binary_cache_hooks{&load_cached_build, &store_build};
}  // namespace detail
#endif

OPENCLAW_INLINE const BinaryCache& BinaryCache::user_default() {
    static const BinaryCache cache = from_environment();
    return cache;
}

namespace detail {

OPENCLAW_INLINE Program load_cached_build(const Context& context, std::string_view source,
                                          const BuildOptions& options,
                                          const BuildOptions& effective,
                                          const std::vector<Device>& devices,
                                          std::shared_ptr<const void>& ticket) {
    const BinaryCache& cache = options.binary_cache();
    if (!cache.enabled()) {
        return {};
    }
    Status unavailable;
    auto key =
        cache.key(source, effective.str(), effective.include_directories(), devices, unavailable);
    if (!key) {
        return {};
    }
    if (auto entry = cache.load(*key, devices.size())) {
        Status refused;  // the driver refused the entry: compile, and replace it
        Handle<cl_program> handle =
            ProgramAccess::create_with_binaries(context, devices, entry->binaries, refused);
        if (handle && clBuildProgram(handle.get(), 0, nullptr, effective.str().c_str(), nullptr,
                                     nullptr) == CL_SUCCESS) {
            Program program = ProgramAccess::make(std::move(handle), effective, devices,
                                                  std::move(entry->logs), refused);
            if (refused.ok()) {
                return program;
            }
        }
        cache.reject();
    }
    ticket = std::make_shared<const CacheTicket>(CacheTicket{cache, std::move(*key)});
    return {};
}

OPENCLAW_INLINE void store_build(const Program& program, const BuildOptions&,
                                 const std::shared_ptr<const void>& ticket) {
    const auto& where = *static_cast<const CacheTicket*>(ticket.get());
    Status unavailable;
    CachedBuild entry;
    entry.binaries = program.binaries(unavailable);
    // One log per binary, so per device the driver names (not the devices the build was given).
    for (const cl_device_id id : program.info<CL_PROGRAM_DEVICES>(unavailable)) {
        entry.logs.push_back(
            program.build_info<CL_PROGRAM_BUILD_LOG>(Device::retain(id, unavailable), unavailable));
    }
    bool complete = unavailable.ok() && !entry.binaries.empty();
    for (const Binary& binary : entry.binaries) {
        complete = complete && !binary.empty();
    }
    if (complete) {
        where.cache.store(where.key, entry);
    }
}

}  // namespace detail
OPENCLAW_END_NAMESPACE
