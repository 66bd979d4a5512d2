// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-template bodies declared in <openclaw/svm.hpp>: compiled once into the openclaw
// library (src/), or included by that header itself when openclaw is header-only.

#include <openclaw/svm.hpp>

#if CL_TARGET_OPENCL_VERSION >= 200

OPENCLAW_BEGIN_NAMESPACE
namespace detail {

[[gnu::noinline]] OPENCLAW_INLINE void svm_copy(const Queue& queue, void* dst, const void* src,
                                                std::size_t dst_bytes, std::size_t bytes,
                                                const WaitList& wait, cl_event* event,
                                                OnError on_error) {
    const ReportScope reports_about(queue.context_handle());
    constexpr const char* call = "clEnqueueSVMMemcpy";
    if (!queue) {
        refuse_empty(on_error, CL_INVALID_COMMAND_QUEUE, call, "queue");
        return;
    }
    if (dst_bytes < bytes) {
        fail(on_error, CL_INVALID_VALUE, call,
             concat("the destination holds ", dst_bytes, " bytes, the source ", bytes));
        return;
    }
    if (!wait.check(call, queue.context_handle(), on_error)) {
        return;
    }
    if (bytes == 0) {
        return nothing_to_do(queue, wait, event, on_error);
    }
    if (dst == nullptr || src == nullptr) {
        fail(on_error, CL_INVALID_VALUE, call, "a null pointer");
        return;
    }
    (void)check(enqueued(clEnqueueSVMMemcpy(queue.get(), CL_TRUE, dst, src, bytes, wait.size(),
                                            wait.data(), event),
                         event),
                call, on_error, [&] { return concat(bytes, " bytes"); });
}

[[gnu::noinline]] OPENCLAW_INLINE void svm_fill(const Queue& queue, void* dst, std::size_t bytes,
                                                const void* pattern, std::size_t pattern_size,
                                                const WaitList& wait, cl_event* event,
                                                OnError on_error) {
    const ReportScope reports_about(queue.context_handle());
    constexpr const char* call = "clEnqueueSVMMemFill";
    if (!queue) {
        refuse_empty(on_error, CL_INVALID_COMMAND_QUEUE, call, "queue");
        return;
    }
    if ((pattern_size & (pattern_size - 1)) != 0 || pattern_size > 128) {
        fail(on_error, CL_INVALID_VALUE, call,
             concat("a pattern of ", pattern_size,
                    " bytes: SVM fills take elements of 1, 2, 4, ..., 128 bytes"));
        return;
    }
    if (reinterpret_cast<std::uintptr_t>(dst) % pattern_size != 0) {
        fail(on_error, CL_INVALID_VALUE, call,
             concat("the destination is ", reinterpret_cast<std::uintptr_t>(dst) % pattern_size,
                    " bytes past a multiple of the pattern's ", pattern_size,
                    " bytes: an SVM fill's destination must be aligned to its element size"));
        return;
    }
    if (!wait.check(call, queue.context_handle(), on_error)) {
        return;
    }
    if (bytes == 0) {
        return nothing_to_do(queue, wait, event, on_error);
    }
    (void)check(enqueued(clEnqueueSVMMemFill(queue.get(), dst, pattern, pattern_size, bytes,
                                             wait.size(), wait.data(), event),
                         event),
                call, on_error, [&] { return concat(bytes, " bytes"); });
}

[[gnu::noinline]] OPENCLAW_INLINE void svm_migrate(const Queue& queue, const void* memory,
                                                   std::size_t bytes, MigrateOptions options,
                                                   const WaitList& wait, cl_event* event,
                                                   OnError on_error) {
    const ReportScope reports_about(queue.context_handle());
    constexpr const char* call = "clEnqueueSVMMigrateMem";
    if (!queue) {
        refuse_empty(on_error, CL_INVALID_COMMAND_QUEUE, call, "queue");
        return;
    }
    if (!wait.check(call, queue.context_handle(), on_error)) {
        return;
    }
#if CL_TARGET_OPENCL_VERSION >= 210
    Relay step(on_error);
    const Version version = queue.device(step).platform(step).version(step);
    if (step.failed()) {
        return;
    }
    if (version < Version{2, 1}) {
        fail(on_error, CL_INVALID_OPERATION, call,
             concat("the platform is OpenCL ", version.major, ".", version.minor,
                    ": clEnqueueSVMMigrateMem needs 2.1"));
        return;
    }
    if (bytes == 0) {
        return nothing_to_do(queue, wait, event, on_error);
    }
    cl_mem_migration_flags flags = 0;
    if (options.to_host) {
        flags |= CL_MIGRATE_MEM_OBJECT_HOST;
    }
    if (options.content_undefined) {
        flags |= CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
    }
    (void)check(enqueued(clEnqueueSVMMigrateMem(queue.get(), 1, &memory, &bytes, flags, wait.size(),
                                                wait.data(), event),
                         event),
                call, on_error, [&] { return concat(bytes, " bytes"); });
#else
    (void)memory;
    (void)bytes;
    (void)options;
    (void)event;
    fail(on_error, CL_INVALID_OPERATION, call,
         "openclaw was compiled for OpenCL before 2.1 (CL_TARGET_OPENCL_VERSION)");
#endif
}

}  // namespace detail
OPENCLAW_END_NAMESPACE

#endif  // CL_TARGET_OPENCL_VERSION >= 200
