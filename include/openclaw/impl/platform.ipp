// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-template bodies declared in <openclaw/platform.hpp>: compiled once into the openclaw
// library (src/), or included by that header itself when openclaw is header-only.

#include <openclaw/platform.hpp>

#include <memory>
#include <mutex>
#include <vector>

OPENCLAW_BEGIN_NAMESPACE

OPENCLAW_INLINE const void* detail::extension_table(const void* kind, cl_platform_id platform,
                                                    std::size_t bytes,
                                                    void (*load)(cl_platform_id, void*)) {
    struct Entry {
        const void* kind;
        cl_platform_id platform;
        std::unique_ptr<std::max_align_t[]> table;
    };
    // Immortal: objects destroyed at exit may still call through their tables.
    static std::mutex* const filling = new std::mutex;
    static std::vector<Entry>* const entries = new std::vector<Entry>;
    const std::lock_guard lock(*filling);
    for (const Entry& entry : *entries) {
        if (entry.kind == kind && entry.platform == platform) {
            return entry.table.get();
        }
    }
    const std::size_t words = (bytes + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t);
    auto table = std::make_unique<std::max_align_t[]>(words == 0 ? 1 : words);
    load(platform, table.get());
    entries->push_back({kind, platform, std::move(table)});
    return entries->back().table.get();
}

OPENCLAW_INLINE std::vector<Platform> Platform::list(OnError on_error) {
    cl_uint count = 0;
    const cl_int code = clGetPlatformIDs(0, nullptr, &count);
    if (code == -1001 /* CL_PLATFORM_NOT_FOUND_KHR: the ICD loader found no driver */ ||
        (code == CL_SUCCESS && count == 0)) {
        return {};
    }
    std::vector<cl_platform_id> ids(count);
    if (!detail::check(code, "clGetPlatformIDs", on_error) ||
        !detail::check(clGetPlatformIDs(count, ids.data(), &count), "clGetPlatformIDs", on_error)) {
        return {};
    }
    std::vector<Platform> platforms;
    platforms.reserve(count);
    for (cl_uint i = 0; i < count; ++i) {
        platforms.emplace_back(ids[i]);
    }
    return platforms;
}

OPENCLAW_END_NAMESPACE
