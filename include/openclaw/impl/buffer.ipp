// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-template bodies declared in <openclaw/buffer.hpp>: compiled once into the openclaw
// library (src/), or included by that header itself when openclaw is header-only.

#include <openclaw/buffer.hpp>

OPENCLAW_BEGIN_NAMESPACE
namespace detail {

[[gnu::noinline]] OPENCLAW_INLINE bool check_copy_fits(const MemObject& source,
                                                       const MemObject& destination,
                                                       std::size_t source_count,
                                                       std::size_t destination_count,
                                                       OnError on_error) {
    if (!source.get() || !destination.get()) [[unlikely]] {
        refuse_empty(on_error, CL_INVALID_MEM_OBJECT, "clEnqueueCopyBuffer",
                     source.get() ? "destination buffer" : "source buffer");
        return false;
    }
    if (destination_count < source_count) [[unlikely]] {
        fail(on_error, CL_INVALID_VALUE, "clEnqueueCopyBuffer",
             concat("the destination region holds ", destination_count, " elements, the source ",
                    source_count));
        return false;
    }
    return true;
}

OPENCLAW_INLINE void wait_noexcept(const Event& event) noexcept {
    if (event) {
        const cl_event raw = event.get();
        if (const cl_int code = clWaitForEvents(1, &raw); code != CL_SUCCESS) {
            report_cleanup_failure("clWaitForEvents", code);
        }
    }
}

}  // namespace detail
OPENCLAW_END_NAMESPACE
