// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-template bodies declared in <openclaw/platform.hpp>: compiled once into the openclaw
// library (src/), or included by that header itself when openclaw is header-only.

#include <openclaw/platform.hpp>

OPENCLAW_BEGIN_NAMESPACE

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
