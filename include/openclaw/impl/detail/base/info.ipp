// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-template bodies declared in <openclaw/detail/base/info.hpp>: compiled once into the
// openclaw library (src/), or included by that header itself when openclaw is header-only.

#include <openclaw/detail/base/info.hpp>

OPENCLAW_BEGIN_NAMESPACE
namespace detail {

OPENCLAW_INLINE bool info_fixed(OnError sink, const InfoCall& query, void* value,
                                std::size_t size) {
    const cl_int code = query.get(query.self, size, value, nullptr);
    if (code != CL_SUCCESS) [[unlikely]] {
        info_failed(sink, code, query.call, query.name);
        return false;
    }
    return true;
}

OPENCLAW_INLINE bool info_size(OnError sink, const InfoCall& query, std::size_t& bytes) {
    const cl_int code = query.get(query.self, 0, nullptr, &bytes);
    if (code != CL_SUCCESS) [[unlikely]] {
        info_failed(sink, code, query.call, query.name);
        return false;
    }
    return true;
}

OPENCLAW_INLINE std::string info_string(OnError sink, const InfoCall& query) {
    std::size_t bytes = 0;
    if (!info_size(sink, query, bytes)) {
        return {};
    }
    std::string text(bytes, '\0');
    if (bytes != 0 && !info_fixed(sink, query, text.data(), bytes)) {
        return {};
    }
    while (!text.empty() && text.back() == '\0') {
        text.pop_back();
    }
    return text;
}

[[gnu::noinline, gnu::cold]] OPENCLAW_INLINE void info_failed(OnError sink, cl_int code,
                                                              const char* call, const char* name) {
    fail(sink, code, call, concat("query ", name));
}

[[gnu::noinline, gnu::cold]] OPENCLAW_INLINE void refuse_empty(OnError sink, cl_int code,
                                                               const char* call,
                                                               const char* object) {
    fail(sink, code, call, concat("the ", object, " is empty (default-constructed or moved-from)"));
}

OPENCLAW_INLINE std::string quoted_kernel_name(cl_kernel kernel) {
    return describe_safely([&](OnError quiet) {
        return concat('"', get_info<cl_kernel, CL_KERNEL_FUNCTION_NAME>(quiet, kernel), '"');
    });
}

}  // namespace detail
OPENCLAW_END_NAMESPACE
