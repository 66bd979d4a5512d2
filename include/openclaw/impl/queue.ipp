// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-template bodies declared in <openclaw/queue.hpp>: compiled once into the openclaw
// library (src/), or included by that header itself when openclaw is header-only.

#include <openclaw/queue.hpp>

OPENCLAW_BEGIN_NAMESPACE

OPENCLAW_INLINE Queue::Queue(const Context& context, const Device& device, QueueOptions options,
                             OnError on_error) {
    detail::Relay step(on_error);
    handle_ = create(context, device, options, step);
    if (handle_) {
        initialize(context.get(), device, options.staging, step);
    }
}

OPENCLAW_INLINE Queue::Queue(detail::Handle<cl_command_queue> handle, OnError on_error)
    : handle_(std::move(handle)) {
    if (handle_) {
        detail::Relay step(on_error);
        const cl_context context = info<CL_QUEUE_CONTEXT>(step);
        const Device queue_device = device(step);
        if (!step.failed()) {
            initialize(context, queue_device, Staging::automatic, step);
        }
        if (step.failed()) {
            *this = Queue();
        }
    }
}

OPENCLAW_INLINE void Queue::initialize(cl_context context, const Device& device, Staging staging,
                                       OnError on_error) {
    detail::Relay step(on_error);
    context_ = context;
    limits_.max_group_size = device.max_work_group_size(step);
    const auto items = device.max_work_item_sizes(step);
    for (std::size_t d = 0; d < 3 && d < items.size(); ++d) {
        limits_.max_item_sizes[d] = items[d];
    }
    limits_.non_uniform_groups = device.non_uniform_work_groups(step);
    limits_.local_mem_size = device.local_mem_size(step);
    state_ = std::make_shared<detail::QueueState>();
    state_->mode = staging;
    state_->stage_pageable =
        staging != Staging::automatic
            ? staging == Staging::always
            : (device.is_gpu(step) || device.is_accelerator(step)) &&
                  !device.info<0x1035 /* CL_DEVICE_HOST_UNIFIED_MEMORY */>(step);
    if (step.failed()) {
        *this = Queue();
    }
}

OPENCLAW_INLINE detail::Handle<cl_command_queue> Queue::create(const Context& context,
                                                               const Device& device,
                                                               QueueOptions options,
                                                               OnError on_error) {
    if (!context) {
        detail::refuse_empty(on_error, CL_INVALID_CONTEXT, "clCreateCommandQueue", "context");
        return {};
    }
    if (!device) {
        detail::refuse_empty(on_error, CL_INVALID_DEVICE, "clCreateCommandQueue", "device");
        return {};
    }
    cl_command_queue_properties bits = 0;
    if (options.profiling) {
        bits |= CL_QUEUE_PROFILING_ENABLE;
    }
    if (options.out_of_order) {
        bits |= CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
    }
    // A device of another context (worse, of another platform) can crash the driver that
    // receives it, so membership is checked here, once per queue, against the devices the
    // context was made of (Context::devices() keeps them: PoCL reports the root device for a
    // context of sub-devices).
    detail::Relay step(on_error);
    const std::vector<Device> members = context.devices(step);
    bool member = false;
    for (const Device& candidate : members) {
        member = member || candidate == device;
    }
    if (step.failed()) {
        return {};
    }
    if (!member) {
        detail::fail(on_error, CL_INVALID_DEVICE, "clCreateCommandQueue",
                     detail::describe_safely([&](OnError quiet) {
                         std::string names;
                         bool parent_member = false;
                         for (const Device& candidate : members) {
                             names += detail::concat(names.empty() ? "" : ", ",
                                                     detail::device_label(candidate, quiet));
                             parent_member =
                                 parent_member || candidate.get() == detail::parent_of(device);
                         }
                         return detail::concat(
                             "device ", detail::device_label(device, quiet),
                             " is not one of the context's devices (", names, ")",
                             parent_member ? ": a context of the parent device does not hold its "
                                             "sub-devices; make the context with the sub-device"
                                           : "");
                     }));
        return {};
    }
    cl_int code = CL_SUCCESS;
    cl_command_queue raw = nullptr;
    // Errors name the entry point actually called.
    const char* call = "clCreateCommandQueue";
#if CL_TARGET_OPENCL_VERSION >= 200
    const Version platform_version = device.platform(step).version(step);
    if (step.failed()) {
        return {};
    }
    if (platform_version >= Version{2, 0}) {
        const cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES, bits, 0};
        call = "clCreateCommandQueueWithProperties";
        raw = clCreateCommandQueueWithProperties(context.get(), device.get(), properties, &code);
    } else {
        // The platform predates clCreateCommandQueueWithProperties: use the 1.x entry point.
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
        raw = clCreateCommandQueue(context.get(), device.get(), bits, &code);
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
    }
#else
    raw = clCreateCommandQueue(context.get(), device.get(), bits, &code);
#endif
    raw = detail::created_or_null(raw, code);
    if (!detail::check(code, call, on_error, [&] {
            std::string detail =
                detail::concat("device ", detail::describe_safely([&](OnError quiet) {
                                   return detail::concat('"', device.name(quiet), '"');
                               }));
            if (code == CL_INVALID_QUEUE_PROPERTIES) {
                detail += detail::concat(" does not support the requested properties (profiling ",
                                         options.profiling ? "on" : "off", ", out-of-order ",
                                         options.out_of_order ? "on" : "off", ")");
            }
            return detail;
        })) {
        return {};
    }
    return detail::Handle<cl_command_queue>::adopt(raw);
}

OPENCLAW_INLINE Event Queue::marker(const WaitList& wait, OnError on_error) const {
    cl_event raw = nullptr;
    if (check_not_empty("clEnqueueMarkerWithWaitList", on_error) &&
        wait.check("clEnqueueMarkerWithWaitList", context_, on_error)) {
        (void)detail::check(
            detail::enqueued(clEnqueueMarkerWithWaitList(get(), wait.size(), wait.data(), &raw),
                             &raw),
            "clEnqueueMarkerWithWaitList", on_error);
    }
    return Event::adopt(raw);
}

OPENCLAW_INLINE Event Queue::barrier(const WaitList& wait, OnError on_error) const {
    cl_event raw = nullptr;
    if (check_not_empty("clEnqueueBarrierWithWaitList", on_error) &&
        wait.check("clEnqueueBarrierWithWaitList", context_, on_error)) {
        (void)detail::check(
            detail::enqueued(clEnqueueBarrierWithWaitList(get(), wait.size(), wait.data(), &raw),
                             &raw),
            "clEnqueueBarrierWithWaitList", on_error);
    }
    return Event::adopt(raw);
}

[[gnu::noinline, gnu::cold]] OPENCLAW_INLINE bool Queue::geometry_error(const NDRange& global,
                                                                        const NDRange& local,
                                                                        cl_int code, cl_uint d,
                                                                        OnError on_error) const {
    std::string detail;
    if (code != CL_INVALID_WORK_DIMENSION && (!global.valid() || !local.valid())) {
        code = CL_INVALID_VALUE;
    }
    if (code == CL_INVALID_WORK_DIMENSION) {
        detail = global.empty()
                     ? std::string("the global range is empty (it needs 1 to 3 dimensions)")
                     : detail::concat("local range ", local.to_string(), " has ",
                                      local.dimensions(), " dimension(s), global range ",
                                      global.to_string(), " has ", global.dimensions());
    } else if (code == CL_INVALID_VALUE) {
        const NDRange& negative = global.valid() ? local : global;
        detail =
            detail::concat(global.valid() ? "local" : "global", " size ", negative.negative_size(),
                           " in dimension ", negative.negative_dimension(), " is negative");
    } else if (code == CL_INVALID_GLOBAL_WORK_SIZE) {
        detail = d < 3 ? detail::concat("global size is 0 in dimension ", d, " (global ",
                                        global.to_string(), ")")
                       : detail::concat("global range ", global.to_string(),
                                        ": the number of work-items does not fit in size_t");
    } else if (code == CL_INVALID_WORK_ITEM_SIZE) {
        detail = local[d] == 0 ? detail::concat("local size is 0 in dimension ", d)
                               : detail::concat("local size ", local[d], " in dimension ", d,
                                                " exceeds the device's maximum work-item size ",
                                                limits_.max_item_sizes[d], " in that dimension");
    } else if (d < 3) {
        detail = detail::concat("global size ", global[d], " in dimension ", d,
                                " is not a multiple of local size ", local[d],
                                " (work-groups must be uniform: OpenCL C 1.x, or a device "
                                "without non-uniform work-group support)");
    } else {
        detail = detail::concat("local size ", local.to_string(), " (", local.total(),
                                " work-items) exceeds the device's maximum work-group size ",
                                limits_.max_group_size);
    }
    if (*this) {
        detail += " on ";
        detail += detail::describe_safely(
            [&](OnError quiet) { return detail::concat('"', device(quiet).name(quiet), '"'); });
    }
    detail::fail(on_error, code, "clEnqueueNDRangeKernel", std::move(detail));
    return false;
}

[[gnu::noinline, gnu::cold]] OPENCLAW_INLINE void Queue::foreign_kernel(cl_kernel kernel,
                                                                        OnError on_error) const {
    if (!*this) {
        detail::refuse_empty(on_error, CL_INVALID_COMMAND_QUEUE, "clEnqueueNDRangeKernel", "queue");
        return;
    }
    if (kernel == nullptr) {
        detail::refuse_empty(on_error, CL_INVALID_KERNEL, "clEnqueueNDRangeKernel", "kernel");
        return;
    }
    detail::fail(on_error, CL_INVALID_CONTEXT, "clEnqueueNDRangeKernel",
                 detail::concat("kernel ", detail::quoted_kernel_name(kernel),
                                " belongs to another context than the queue"));
}

[[gnu::noinline, gnu::cold]] OPENCLAW_INLINE bool Queue::offset_error(const NDRange& offset,
                                                                      const NDRange& global,
                                                                      OnError on_error) const {
    std::string detail;
    if (offset.dimensions() != global.dimensions()) {
        detail = detail::concat("global offset ", offset.to_string(), " has ", offset.dimensions(),
                                " dimension(s), global range ", global.to_string(), " has ",
                                global.dimensions());
    } else if (!offset.valid()) {
        detail = detail::concat("global offset ", offset.negative_size(), " in dimension ",
                                offset.negative_dimension(), " is negative");
    } else {
        cl_uint d = 0;
        while (d + 1 < global.dimensions() &&
               offset[d] <= static_cast<std::size_t>(-1) - global[d]) {
            ++d;
        }
        detail = detail::concat("global offset ", offset.to_string(), " + global range ",
                                global.to_string(), " overflows size_t in dimension ", d);
    }
    detail::fail(on_error, CL_INVALID_GLOBAL_OFFSET, "clEnqueueNDRangeKernel", std::move(detail));
    return false;
}

[[gnu::noinline, gnu::cold]] OPENCLAW_INLINE void Queue::local_exceeded(cl_kernel kernel,
                                                                        std::size_t arguments,
                                                                        std::size_t needed,
                                                                        OnError on_error) const {
    detail::fail(
        on_error, CL_OUT_OF_RESOURCES, "clEnqueueNDRangeKernel",
        detail::describe_safely([&](OnError quiet) {
            const std::size_t own = needed - (arguments < needed ? arguments : needed);
            return detail::concat(
                "the LocalMem arguments of kernel \"",
                detail::get_info<cl_kernel, CL_KERNEL_FUNCTION_NAME>(quiet, kernel), "\" need ",
                arguments, " bytes of local memory",
                own == 0 ? std::string()
                         : detail::concat(" and the kernel's own __local variables ", own,
                                          " (CL_KERNEL_LOCAL_MEM_SIZE): ", needed, " in all"),
                "; the device has ", limits_.local_mem_size, " (CL_DEVICE_LOCAL_MEM_SIZE)");
        }));
}

[[gnu::noinline, gnu::cold]] OPENCLAW_INLINE void Queue::launch_failed(cl_int code,
                                                                       cl_kernel kernel,
                                                                       const NDRange& global,
                                                                       const NDRange& local,
                                                                       OnError on_error) const {
    if (!detail::Sink::wants_message(on_error)) {
        detail::fail(on_error, code, "clEnqueueNDRangeKernel");
        return;
    }
    std::string detail = detail::concat("kernel ", detail::quoted_kernel_name(kernel), ", global ",
                                        global.to_string(), ", local ", local.to_string());
    if (code == CL_INVALID_KERNEL_ARGS) {
        detail += ": not every argument is set ";
        detail += detail::describe_safely([&](OnError quiet) {
            return detail::concat("(the kernel takes ",
                                  detail::get_info<cl_kernel, CL_KERNEL_NUM_ARGS>(quiet, kernel),
                                  "); call set_args first (NVIDIA's driver also says so "
                                  "when a pointer argument was set as an SVM pointer and "
                                  "then as a buffer: use a fresh kernel object)");
        });
    } else if (code == CL_INVALID_CONTEXT) {
        detail += ": the kernel and the queue belong to different contexts";
    } else if (code == CL_INVALID_PROGRAM_EXECUTABLE) {
        detail +=
            ": the kernel's program is not built for the queue's device (it was built for "
            "a subset of the context's devices)";
    } else if (code == CL_INVALID_WORK_GROUP_SIZE && !local.empty()) {
        detail += ": ";
        detail += detail::describe_safely([&](OnError quiet) {
            return detail::concat(
                "this kernel allows at most ",
                detail::get_info<detail::KernelWorkGroupInfo, CL_KERNEL_WORK_GROUP_SIZE>(
                    quiet, kernel, device(quiet).get()),
                " work-items per group on this device");
        });
    }
    detail::fail(on_error, code, "clEnqueueNDRangeKernel", std::move(detail));
}

OPENCLAW_END_NAMESPACE
