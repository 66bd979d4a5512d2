// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-template bodies declared in <openclaw/graph.hpp>: compiled once into the openclaw
// library (src/wings.cpp), or included by that header itself when openclaw is header-only.

#include <openclaw/graph.hpp>

OPENCLAW_BEGIN_NAMESPACE

namespace detail {

OPENCLAW_INLINE void GraphState::drop_buffer() noexcept {
    if (buffer != nullptr) {
        if (const cl_int code = api->release(buffer); code != CL_SUCCESS) {
            report_cleanup_failure("clReleaseCommandBufferKHR", code);
        }
        buffer = nullptr;
    }
}

OPENCLAW_INLINE GraphUse::~GraphUse() {
    if (claimed_) {
        state_->busy.leave_setting();
    }
}

OPENCLAW_INLINE void load_command_buffer_api(cl_platform_id platform, CommandBufferApi& found) {
    const auto find = [&](auto& slot, const char* name) { load_entry(platform, slot, name); };
    find(found.create, "clCreateCommandBufferKHR");
    find(found.finalize, "clFinalizeCommandBufferKHR");
    find(found.release, "clReleaseCommandBufferKHR");
    find(found.enqueue, "clEnqueueCommandBufferKHR");
    find(found.ndrange, "clCommandNDRangeKernelKHR");
    find(found.copy, "clCommandCopyBufferKHR");
    find(found.fill, "clCommandFillBufferKHR");
    find(found.barrier, "clCommandBarrierWithWaitListKHR");
}

OPENCLAW_INLINE const CommandBufferApi* find_command_buffers(const Queue& queue, std::string& why,
                                                             OnError on_error) {
    Relay step(on_error);
    const Device device = queue.device(step);
    if (step.failed()) {
        return nullptr;
    }
    const Platform platform = device.platform(step);
    const Version platform_version = platform.version(step);
    if (step.failed()) {
        return nullptr;
    }
    if (!device.supports_extension("cl_khr_command_buffer", step) || step.failed()) {
        why = "the device has no cl_khr_command_buffer";
        return nullptr;
    }
#if CL_TARGET_OPENCL_VERSION >= 300
    if (platform_version < Version{3, 0}) {
        why = "the platform is older than OpenCL 3.0, so the extension's revision is unknown";
        return nullptr;
    }
    cl_version revision = 0;
    for (const cl_name_version& each : device.info<CL_DEVICE_EXTENSIONS_WITH_VERSION>(step)) {
        if (std::strcmp(each.name, "cl_khr_command_buffer") == 0) {
            revision = each.version;
        }
    }
    if (step.failed()) {
        return nullptr;
    }
    if (CL_VERSION_MAJOR(revision) != 0 || CL_VERSION_MINOR(revision) != 9 ||
        CL_VERSION_PATCH(revision) > 4) {
        why = concat("the device's cl_khr_command_buffer is revision ", CL_VERSION_MAJOR(revision),
                     '.', CL_VERSION_MINOR(revision), '.', CL_VERSION_PATCH(revision),
                     ", and openclaw drives 0.9.0 to 0.9.4 (later revisions changed the entry "
                     "points)");
        return nullptr;
    }
    cl_ulong capabilities = 0;
    cl_ulong required = 0;
    if (!check(clGetDeviceInfo(device.get(), CommandBufferApi::capabilities_query,
                               sizeof(capabilities), &capabilities, nullptr),
               "clGetDeviceInfo", on_error,
               [] { return "query CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR"; }) ||
        !check(clGetDeviceInfo(device.get(), CommandBufferApi::required_queue_properties_query,
                               sizeof(required), &required, nullptr),
               "clGetDeviceInfo", on_error,
               [] { return "query CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR"; })) {
        return nullptr;
    }
    if ((capabilities & CommandBufferApi::simultaneous_use_capability) == 0) {
        why =
            "the device's command buffers do not allow simultaneous use (a replay would wait "
            "for the previous one)";
        return nullptr;
    }
    const auto properties = queue.info<CL_QUEUE_PROPERTIES>(step);
    if (step.failed()) {
        return nullptr;
    }
    if ((properties & required) != required) {
        why = concat("the device's command buffers need queue properties (bits ", required,
                     ") that the queue lacks");
        return nullptr;
    }
    // One table per platform, filled once and never changed (graphs hold pointers to it).
    const CommandBufferApi& found =
        extension_table<CommandBufferApi, load_command_buffer_api>(platform);
    const char* missing = !found.create     ? "clCreateCommandBufferKHR"
                          : !found.finalize ? "clFinalizeCommandBufferKHR"
                          : !found.release  ? "clReleaseCommandBufferKHR"
                          : !found.enqueue  ? "clEnqueueCommandBufferKHR"
                          : !found.ndrange  ? "clCommandNDRangeKernelKHR"
                          : !found.copy     ? "clCommandCopyBufferKHR"
                          : !found.fill     ? "clCommandFillBufferKHR"
                          : !found.barrier  ? "clCommandBarrierWithWaitListKHR"
                                            : nullptr;
    if (missing != nullptr) {
        // The device reports the extension: a missing entry point is the platform's failure.
        fail(on_error, CL_INVALID_OPERATION, "clGetExtensionFunctionAddressForPlatform",
             concat("the device reports cl_khr_command_buffer, the platform returned no ", missing,
                    " (GraphOptions{.command_buffer = false} replays without command buffers)"));
        return nullptr;
    }
    return &found;
#else
    (void)platform_version;
    why = "openclaw was compiled for OpenCL before 3.0, which reports no extension revisions";
    return nullptr;
#endif
}

}  // namespace detail

OPENCLAW_INLINE void CommandGraph::replay(const WaitList& wait, OnError on_error) {
    (void)run(wait, nullptr, on_error);
}

OPENCLAW_INLINE GraphPath CommandGraph::path() const noexcept {
    return state_ && state_->api != nullptr ? GraphPath::command_buffer : GraphPath::portable;
}

OPENCLAW_INLINE const Queue& CommandGraph::queue() const noexcept {
    static const Queue none;
    return state_ ? state_->queue : none;
}

OPENCLAW_INLINE void CommandGraph::add(std::unique_ptr<detail::RecordedCommand> command) {
    state_->commands.push_back(std::move(command));
    state_->stale = true;
}

OPENCLAW_INLINE CommandGraph::BasicCommandGraph(const Queue& queue, GraphOptions options,
                                                OnError on_error) {
    constexpr const char* call = "CommandGraph";
    if (!queue) {
        detail::refuse_empty(on_error, CL_INVALID_COMMAND_QUEUE, call, "queue");
        return;
    }
    detail::Relay step(on_error);
    const auto properties = queue.info<CL_QUEUE_PROPERTIES>(step);
    if (step.failed()) {
        return;
    }
    if ((properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0) {
        detail::fail(on_error, CL_INVALID_COMMAND_QUEUE, call,
                     "the queue is out-of-order: a graph records for an in-order queue, whose "
                     "commands run in the order recorded");
        return;
    }
    auto state = std::make_shared<detail::GraphState>();
    state->queue = queue;
    if (options.command_buffer) {
        state->api = detail::find_command_buffers(queue, state->portable_why, step);
        if (step.failed()) {
            return;
        }
    } else {
        state->portable_why = "GraphOptions::command_buffer is false";
    }
    state_ = std::move(state);
}

OPENCLAW_INLINE GraphKernel<DynamicKernel> CommandGraph::enqueue(const DynamicKernel& kernel,
                                                                 const NDRange& global,
                                                                 const NDRange& local,
                                                                 OnError on_error) {
    return record(kernel, nullptr, global, local, on_error);
}

OPENCLAW_INLINE GraphKernel<DynamicKernel> CommandGraph::enqueue(const DynamicKernel& kernel,
                                                                 const GlobalOffset& offset,
                                                                 const NDRange& global,
                                                                 const NDRange& local,
                                                                 OnError on_error) {
    return record(kernel, &offset.values(), global, local, on_error);
}

OPENCLAW_INLINE bool CommandGraph::record_copy(
    const detail::MemObject& source, const detail::MemObject& destination,
    std::size_t source_offset, std::size_t destination_offset, std::size_t source_count,
    std::size_t destination_count, detail::Element element, OnError on_error) {
    constexpr const char* call = "CommandGraph::copy";
    const detail::GraphUse use(state_.get(), call, on_error);
    if (!use) [[unlikely]] {
        return false;
    }
    detail::GraphState& state = *state_;
    const std::size_t index = state.commands.size();
    Status checks;
    if (!detail::check_copy_fits(source, destination, source_count, destination_count, checks) ||
        !detail::check_copy(source, destination, state.queue, source_offset, destination_offset,
                            source_count, element, call, checks)) {
        detail::record_refused(checks, call, index, on_error);
        return false;
    }
    if (source_count == 0) {
        return true;  // nothing to copy: nothing recorded
    }
    // Checked above: offsets and counts lie within the buffers, so the bytes fit.
    const detail::CopyBufferCommand command{
        source.get(), destination.get(), source_offset * element.size,
        destination_offset * element.size, source_count * element.size};
    return keep(command, on_error);
}

OPENCLAW_INLINE bool CommandGraph::record_fill(const detail::MemObject& buffer, const void* pattern,
                                               std::size_t offset, std::size_t count,
                                               detail::Element element, OnError on_error) {
    constexpr const char* call = "CommandGraph::fill";
    const detail::GraphUse use(state_.get(), call, on_error);
    if (!use) [[unlikely]] {
        return false;
    }
    detail::GraphState& state = *state_;
    const std::size_t index = state.commands.size();
    const std::size_t size = element.size;
    Status checks;
    if (!detail::check_fill(buffer, state.queue, offset, count, element, call, checks)) {
        detail::record_refused(checks, call, index, on_error);
        return false;
    }
    if (!detail::FillBufferCommand::takes(size)) {
        detail::fail(on_error, CL_INVALID_VALUE, call,
                     detail::concat("command ", index, " not recorded: elements of ", size,
                                    " bytes; a recorded fill takes a pattern of 1, 2, 4, 8, 16, "
                                    "32, 64 or 128 bytes (record a kernel for other sizes)"));
        return false;
    }
    if (count == 0) {
        return true;
    }
    return keep(detail::FillBufferCommand(buffer.get(), pattern, size, offset * size, count * size),
                on_error);
}

OPENCLAW_INLINE void CommandGraph::barrier(OnError on_error) {
    constexpr const char* call = "CommandGraph::barrier";
    const detail::GraphUse use(state_.get(), call, on_error);
    if (!use) [[unlikely]] {
        return;
    }
    (void)keep(detail::BarrierCommand{}, on_error);
}

OPENCLAW_INLINE bool CommandGraph::check_unmapped(OnError on_error) const {
    for (const auto& command : state_->commands) {
        if (!command->unmapped("CommandGraph::replay", on_error)) {
            return false;
        }
    }
    return true;
}

OPENCLAW_INLINE bool CommandGraph::build(const char* call, OnError on_error) {
    detail::GraphState& state = *state_;
    const detail::CommandBufferApi& api = *state.api;
    state.drop_buffer();
    const cl_ulong properties[] = {detail::CommandBufferApi::flags_property,
                                   detail::CommandBufferApi::simultaneous_use_flag, 0};
    const cl_command_queue queue = state.queue.get();
    cl_int code = CL_SUCCESS;
    detail::CommandBufferApi::Buffer made = api.create(1, &queue, properties, &code);
    if (made != nullptr && code != CL_SUCCESS) {
        (void)api.release(made);  // an object with an error: released before the error is raised
        made = nullptr;
    }
    if (!detail::check(code, "clCreateCommandBufferKHR", on_error, [&] {
            return detail::concat(call, ": a command buffer for ", state.commands.size(),
                                  " commands");
        })) {
        return false;
    }
    state.buffer = made;
    // Each command waits for the one before: the order recorded, whatever the driver's default.
    detail::CommandBufferApi::SyncPoint previous = 0;
    for (std::size_t i = 0; i < state.commands.size(); ++i) {
        const detail::RecordedCommand& command = *state.commands[i];
        const cl_uint waits = i == 0 ? 0 : 1;
        const detail::CommandBufferApi::SyncPoint* wait = i == 0 ? nullptr : &previous;
        detail::CommandBufferApi::SyncPoint point = 0;
        code = command.record(api, made, waits, wait, &point);
        if (code != CL_SUCCESS) {
            state.drop_buffer();
            (void)detail::check(code, command.record_call(), on_error, [&] {
                return detail::concat(call, ": command ", i, " of ", state.commands.size(),
                                      command.what());
            });
            return false;
        }
        previous = point;
    }
    if (!detail::check(api.finalize(made), "clFinalizeCommandBufferKHR", on_error, [&] {
            return detail::concat(call, ": a command buffer of ", state.commands.size(),
                                  " commands");
        })) {
        state.drop_buffer();
        return false;
    }
    state.stale = false;
    return true;
}

OPENCLAW_INLINE void CommandGraph::finalize(OnError on_error) {
    constexpr const char* call = "CommandGraph::finalize";
    const detail::GraphUse use(state_.get(), call, on_error);
    if (!use) [[unlikely]] {
        return;
    }
    if (state_->api != nullptr && state_->stale && !state_->commands.empty()) {
        (void)build(call, on_error);
    }
}

OPENCLAW_INLINE bool CommandGraph::run(const WaitList& wait, cl_event* event, OnError on_error) {
    constexpr const char* call = "CommandGraph::replay";
    const detail::GraphUse use(state_.get(), call, on_error);
    if (!use) [[unlikely]] {
        return false;
    }
    detail::GraphState& state = *state_;
    if (!wait.check(call, state.queue.context_handle(), on_error)) [[unlikely]] {
        return false;
    }
    if (detail::map_registry.any() && !check_unmapped(on_error)) [[unlikely]] {
        return false;
    }
    const std::size_t count = state.commands.size();
    if (count == 0) {
        detail::nothing_to_do(state.queue, wait, event, on_error);
        return true;
    }
    const cl_command_queue queue = state.queue.get();
    if (state.api != nullptr) {
        if (state.stale && !build(call, on_error)) {
            return false;
        }
        return detail::check(
            detail::enqueued(
                state.api->enqueue(0, nullptr, state.buffer, wait.size(), wait.data(), event),
                event),
            "clEnqueueCommandBufferKHR", on_error,
            [&] { return detail::concat(call, ": a command buffer of ", count, " commands"); });
    }
    for (std::size_t i = 0; i < count; ++i) {
        const detail::RecordedCommand& command = *state.commands[i];
        // The wait list goes to the first command (the queue is in order), the event comes
        // from the last.
        const cl_uint waits = i == 0 ? wait.size() : 0;
        const cl_event* events = i == 0 ? wait.data() : nullptr;
        cl_event* done = i + 1 == count ? event : nullptr;
        const cl_int code = detail::enqueued(command.enqueue(queue, waits, events, done), done);
        if (code != CL_SUCCESS) [[unlikely]] {
            return detail::check(code, command.enqueue_call(), on_error, [&] {
                return detail::concat(
                    call, ": replaying command ", i, " of ", count, command.what(),
                    i == 0 ? std::string(": nothing of the replay was enqueued")
                           : detail::concat(": commands 0 to ", i - 1, " were enqueued"));
            });
        }
    }
    return true;
}

OPENCLAW_END_NAMESPACE
