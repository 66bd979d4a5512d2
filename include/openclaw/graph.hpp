// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// CommandGraph: a sequence of commands (kernel launches with their arguments, buffer copies and
// fills, barriers) recorded once for one in-order queue, every check made while recording, and
// replayed with one call (a side header). On a device whose cl_khr_command_buffer is a revision
// openclaw drives (0.9.0 to 0.9.4, gated on the version the device reports, not on the name) and
// allows simultaneous use, the graph is a command buffer; elsewhere (NVIDIA's driver has no
// command buffers) a replay is a loop over the pre-checked enqueues, so the same code runs
// everywhere. A recorded kernel is a clone of the kernel with its argument values, which the
// graph owns: buffers bound to it stay alive while the graph exists, and GraphKernel::set_args
// changes them between replays with the checks of Kernel::set_args.

#include <openclaw/buffer.hpp>
#include <openclaw/context.hpp>
#include <openclaw/device.hpp>
#include <openclaw/error.hpp>
#include <openclaw/event.hpp>
#include <openclaw/kernel.hpp>
#include <openclaw/ndrange.hpp>
#include <openclaw/platform.hpp>
#include <openclaw/program.hpp>
#include <openclaw/queue.hpp>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

OPENCLAW_BEGIN_NAMESPACE

/// How a CommandGraph is made.
template <>
struct BasicGraphOptions<0> {
    /// Use cl_khr_command_buffer where the device has a revision openclaw drives; false: always
    /// the portable replay (to compare the two, or to avoid a driver's command buffers).
    bool command_buffer = true;
};

template <class K>
class GraphKernel;

namespace detail {

// cl_khr_command_buffer as revisions 0.9.0 to 0.9.4 declare it (PoCL 3.1 reports 0.9.0, PoCL 5.0
// 0.9.4). Revision 0.9.5 added a properties parameter to every recording entry point, so the
// revisions are not interchangeable; these are openclaw's own declarations, whatever revision the
// installed <CL/cl_ext.h> has.
struct CommandBufferApi {
    using Buffer = void*;  // cl_command_buffer_khr
    using SyncPoint = cl_uint;
    static constexpr cl_uint capabilities_query =
        0x12A9;  // CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR
    static constexpr cl_uint required_queue_properties_query = 0x12AA;
    static constexpr cl_ulong simultaneous_use_capability = 1 << 2;
    static constexpr cl_ulong flags_property = 0x1293;  // CL_COMMAND_BUFFER_FLAGS_KHR
    static constexpr cl_ulong simultaneous_use_flag = 1 << 0;

    using Create = Buffer(CL_API_CALL*)(cl_uint, const cl_command_queue*, const cl_ulong*, cl_int*);
    using Finalize = cl_int(CL_API_CALL*)(Buffer);
    using Enqueue = cl_int(CL_API_CALL*)(cl_uint, cl_command_queue*, Buffer, cl_uint,
                                         const cl_event*, cl_event*);
    using NDRangeKernel = cl_int(CL_API_CALL*)(Buffer, cl_command_queue, const cl_ulong*, cl_kernel,
                                               cl_uint, const std::size_t*, const std::size_t*,
                                               const std::size_t*, cl_uint, const SyncPoint*,
                                               SyncPoint*, void**);
    using CopyBuffer = cl_int(CL_API_CALL*)(Buffer, cl_command_queue, cl_mem, cl_mem, std::size_t,
                                            std::size_t, std::size_t, cl_uint, const SyncPoint*,
                                            SyncPoint*, void**);
    using FillBuffer = cl_int(CL_API_CALL*)(Buffer, cl_command_queue, cl_mem, const void*,
                                            std::size_t, std::size_t, std::size_t, cl_uint,
                                            const SyncPoint*, SyncPoint*, void**);
    using Barrier = cl_int(CL_API_CALL*)(Buffer, cl_command_queue, cl_uint, const SyncPoint*,
                                         SyncPoint*, void**);

    Create create = nullptr;
    Finalize finalize = nullptr;
    Finalize release = nullptr;
    Enqueue enqueue = nullptr;
    NDRangeKernel ndrange = nullptr;
    CopyBuffer copy = nullptr;
    FillBuffer fill = nullptr;
    Barrier barrier = nullptr;
};

/// One recorded command, type-erased: a command description (detail/objects/commands.hpp) with what
/// keeps its operands alive. Replays enqueue it, command buffers record it, through one interface
/// whatever the command is.
struct RecordedCommand {
    RecordedCommand() = default;
    RecordedCommand(const RecordedCommand&) = delete;
    RecordedCommand& operator=(const RecordedCommand&) = delete;
    virtual ~RecordedCommand() = default;
    /// The description's enqueue (the portable replay).
    virtual cl_int enqueue(cl_command_queue queue, cl_uint waits, const cl_event* events,
                           cl_event* done) const = 0;
    /// The description's record into a command buffer.
    virtual cl_int record(const CommandBufferApi& api, CommandBufferApi::Buffer buffer,
                          cl_uint waits, const CommandBufferApi::SyncPoint* after,
                          CommandBufferApi::SyncPoint* point) const = 0;
    virtual const char* enqueue_call() const noexcept = 0;
    virtual const char* record_call() const noexcept = 0;
    /// The mapping check of a replay (no operand mapped in a way the command conflicts with),
    /// reported as `call`.
    virtual bool unmapped(const char* call, OnError on_error) const = 0;
    /// What a failure's message adds after the command's index (the kernel's name).
    virtual std::string what() const { return {}; }
};

/// A recorded copy, fill or barrier: the description and its memory objects, retained.
template <class Command>
struct Recorded final : RecordedCommand {
    Recorded(const Command& made, OnError on_error) : command(made) {
        const auto memory = command.memory();
        for (std::size_t i = 0; i < memory.size(); ++i) {
            kept[i] = Handle<cl_mem>::retain(memory[i], on_error);
        }
    }
    cl_int enqueue(cl_command_queue queue, cl_uint waits, const cl_event* events,
                   cl_event* done) const override {
        return command.enqueue(queue, waits, events, done);
    }
    cl_int record(const CommandBufferApi& api, CommandBufferApi::Buffer buffer, cl_uint waits,
                  const CommandBufferApi::SyncPoint* after,
                  CommandBufferApi::SyncPoint* point) const override {
        return command.record(api, buffer, waits, after, point);
    }
    const char* enqueue_call() const noexcept override { return Command::enqueue_call; }
    const char* record_call() const noexcept override { return Command::record_call; }
    bool unmapped(const char* call, OnError on_error) const override {
        return command.unmapped(call, on_error);
    }

    Command command;
    std::array<Handle<cl_mem>, std::tuple_size_v<decltype(std::declval<Command>().memory())>> kept;
};

/// A recorded launch: the graph's own clone of the user's kernel (with its argument values) and
/// the geometry, which the launch's description points into.
template <class K>
struct RecordedLaunch final : RecordedCommand {
    RecordedLaunch(K made, const NDRange* from, const NDRange& over, const NDRange& groups)
        : kernel(std::move(made)),
          offset(from != nullptr ? *from : NDRange()),
          global(over),
          local(groups) {}
    LaunchCommand command() const noexcept {
        return {kernel.get(), global.dimensions(), offset.data(), global.sizes(), local.data()};
    }
    cl_int enqueue(cl_command_queue queue, cl_uint waits, const cl_event* events,
                   cl_event* done) const override {
        return command().enqueue(queue, waits, events, done);
    }
    cl_int record(const CommandBufferApi& api, CommandBufferApi::Buffer buffer, cl_uint waits,
                  const CommandBufferApi::SyncPoint* after,
                  CommandBufferApi::SyncPoint* point) const override {
        return command().record(api, buffer, waits, after, point);
    }
    const char* enqueue_call() const noexcept override { return LaunchCommand::enqueue_call; }
    const char* record_call() const noexcept override { return LaunchCommand::record_call; }
    bool unmapped(const char* call, OnError on_error) const override {
        // The kernel's own check names a launch; the refusal is the caller's.
        Status checks;
        if (kernel.check_unmapped(checks)) {
            return true;
        }
        fail(on_error, checks.cl_code(), call, checks.detail());
        return false;
    }
    std::string what() const override {
        Status quiet;
        return concat(" (kernel \"", kernel.name(quiet), "\")");
    }

    K kernel;
    NDRange offset;  // empty: no offset
    NDRange global;
    NDRange local;  // empty: the driver chooses
};

/// What a graph and the handles of its kernels share.
struct GraphState {
    Queue queue;
    std::vector<std::unique_ptr<RecordedCommand>> commands;
    const CommandBufferApi* api = nullptr;  // null: the portable replay
    std::string portable_why;
    CommandBufferApi::Buffer buffer = nullptr;  // built at the first replay (or finalize)
    bool stale = true;                          // the buffer no longer matches the commands
    ArgumentGate busy;                          // a thread replays, records or updates

    GraphState() = default;
    GraphState(const GraphState&) = delete;
    GraphState& operator=(const GraphState&) = delete;
    ~GraphState() { drop_buffer(); }

    void drop_buffer() noexcept;
};

/// Refuses a second thread using one graph at the same time (as a Kernel refuses set_args).
[[gnu::cold]] inline bool graph_shared(const char* call, OnError on_error) {
    fail(on_error, CL_INVALID_OPERATION, call,
         "another thread is using this graph (recording, replaying or changing arguments) at the "
         "same time: a graph, like a kernel, is used by one thread at a time");
    return false;
}

/// One call's claim on a graph for its duration: refuses an empty graph, and a second thread
/// using the graph at the same time (the claim of Kernel::set_args, on the graph's flag).
class GraphUse {
  public:
    GraphUse(GraphState* state, const char* call, OnError on_error)
        : state_(state), claimed_(state != nullptr && state->busy.enter_setting()) {
        if (state == nullptr) {
            refuse_empty(on_error, CL_INVALID_VALUE, call, "graph");
        } else if (!claimed_) {
            (void)graph_shared(call, on_error);
        }
    }
    GraphUse(const GraphUse&) = delete;
    GraphUse& operator=(const GraphUse&) = delete;
    ~GraphUse();
    /// False when the call must stop (reported already).
    explicit operator bool() const noexcept { return claimed_; }

  private:
    GraphState* state_;
    bool claimed_;
};

/// A failure of the recording checks, reported as the graph's call with the command's index.
[[gnu::cold]] inline void record_refused(const Status& checks, const char* call, std::size_t index,
                                         OnError on_error) {
    fail(on_error, checks.cl_code(), call,
         concat("command ", index, " not recorded: ", checks.detail()));
}

/// The command buffer entry points for `queue`'s device, or nullptr with the reason in `why`.
/// Finds the command-buffer entry points of `platform` (an extension_table loader).
void load_command_buffer_api(cl_platform_id platform, CommandBufferApi& found);

const CommandBufferApi* find_command_buffers(const Queue& queue, std::string& why,
                                             OnError on_error);

}  // namespace detail

/// A recorded sequence of commands for one in-order queue, replayed with one call: the graphs of
/// CUDA (cudaStreamBeginCapture / cudaGraphInstantiate / cudaGraphLaunch) for OpenCL.
///
///     openclaw::CommandGraph graph{queue};
///     auto step = graph.enqueue(kernel.set_args(a, b, n), NDRange{n});  // checked now
///     graph.copy(b, c);
///     for (int i = 0; i < 1000; ++i) graph.replay();                   // nothing checked again
///     step.set_args(a, c, n);                                          // typed, between replays
///
/// Every check a queue makes (geometry against the device, arguments set, local memory, ranges,
/// contexts) is made when a command is recorded; a replay checks only that no buffer of the
/// graph is mapped in a way a command conflicts with, and the wait list. The graph keeps what it
/// records alive: its kernels are its own clones of the kernels given (with their argument
/// values: changing the original's arguments later does not change the graph), and the buffers
/// of its copies and fills are retained. A graph is used by one thread at a time; moving it is
/// cheap, copying it is not allowed.
template <>
class BasicCommandGraph<0> {
  public:
    /// An empty graph; assign one made for a queue before use.
    BasicCommandGraph() = default;
    /// A graph for `queue` (in-order: commands run in the order recorded).
    explicit BasicCommandGraph(const Queue& queue, GraphOptions options = {},
                               OnError on_error = {});

    /// Takes `other`'s recording; `other` is left empty.
    BasicCommandGraph(CommandGraph&& other) noexcept = default;
    /// Takes `other`'s recording (a self-move keeps it); `other` is left empty.
    CommandGraph& operator=(CommandGraph&& other) noexcept = default;
    BasicCommandGraph(const CommandGraph&) = delete;
    CommandGraph& operator=(const CommandGraph&) = delete;
    ~BasicCommandGraph() = default;

    /// Records a launch of `kernel` with the argument values it holds now; returns the handle
    /// through which GraphKernel::set_args changes them later. Checked as Queue::enqueue checks.
    template <class... Params>
    GraphKernel<Kernel<Params...>> enqueue(const Kernel<Params...>& kernel, const NDRange& global,
                                           const NDRange& local = detail::no_range,
                                           OnError on_error = {}) {
        return record(kernel, nullptr, global, local, on_error);
    }
    /// As above, with the work-items' global IDs starting at `offset`.
    template <class... Params>
    GraphKernel<Kernel<Params...>> enqueue(const Kernel<Params...>& kernel,
                                           const GlobalOffset& offset, const NDRange& global,
                                           const NDRange& local = detail::no_range,
                                           OnError on_error = {}) {
        return record(kernel, &offset.values(), global, local, on_error);
    }
    /// Records a launch of a kernel without a C++ signature (checked as Queue::enqueue checks).
    GraphKernel<DynamicKernel> enqueue(const DynamicKernel& kernel, const NDRange& global,
                                       const NDRange& local = detail::no_range,
                                       OnError on_error = {});
    /// As above, with the work-items' global IDs starting at `offset`.
    GraphKernel<DynamicKernel> enqueue(const DynamicKernel& kernel, const GlobalOffset& offset,
                                       const NDRange& global,
                                       const NDRange& local = detail::no_range,
                                       OnError on_error = {});
    /// Refused at compile time: a graph records kernels (copies and fills by name).
    template <class K, class... Rest>
    requires(!std::derived_from<std::remove_cvref_t<K>, KernelBase>) void enqueue(const K&,
                                                                                  Rest&&...) {
        static_assert(detail::dependent_false<K>,
                      "graph.enqueue(kernel, NDRange{...}): the first argument must be a kernel "
                      "(Kernel<...> or DynamicKernel); record copies and fills with graph.copy "
                      "and graph.fill");
    }

    /// Records a copy of the source region into the destination region (same element type; the
    /// destination at least as large). The buffers are kept alive by the graph.
    template <detail::BufferRegion Source, detail::BufferRegion Destination>
    void copy(const Source& src, const Destination& dst, OnError on_error = {});
    /// Records setting every element of the region to `value` (elements of 1, 2, 4, ..., 128
    /// bytes: what clEnqueueFillBuffer and command buffers take).
    template <detail::BufferRegion Region>
    void fill(const Region& dst, const typename Region::value_type& value, OnError on_error = {});
    /// Records a barrier: later commands start after earlier ones have completed (what an
    /// in-order queue does anyway; it marks the point in the graph).
    void barrier(OnError on_error = {});

    /// Builds the command buffer now rather than at the first replay (on the portable path it
    /// does nothing), so that a driver's refusal shows here.
    void finalize(OnError on_error = {});

    /// Enqueues every recorded command, after the events of `wait`; returns when they are
    /// enqueued. Fails before enqueuing anything if a buffer of the graph is mapped in a way a
    /// command conflicts with.
    void replay(const WaitList& wait = detail::no_wait, OnError on_error = {});
    /// As replay(), returning an Event that completes when the whole replay has.
    [[nodiscard]] Event replay(WithEvent, const WaitList& wait = detail::no_wait,
                               OnError on_error = {}) {
        cl_event raw = nullptr;
        (void)run(wait, &raw, on_error);
        return Event::adopt(raw);
    }

    /// How replays run: one command buffer, or the portable loop.
    GraphPath path() const noexcept;
    /// Why the graph replays on the portable path (empty on the command-buffer path).
    std::string portable_reason() const { return state_ ? state_->portable_why : std::string(); }
    /// The number of recorded commands.
    std::size_t size() const noexcept { return state_ ? state_->commands.size() : 0; }
    /// The queue the graph replays on.
    const Queue& queue() const noexcept;
    /// True when the graph was made for a queue.
    explicit operator bool() const noexcept { return static_cast<bool>(state_); }

  private:
    template <class K>
    GraphKernel<K> record(const K& kernel, const NDRange* offset, const NDRange& global,
                          const NDRange& local, OnError on_error);
    bool run(const WaitList& wait, cl_event* event, OnError on_error);
    bool build(const char* call, OnError on_error);
    bool check_unmapped(OnError on_error) const;
    void add(std::unique_ptr<detail::RecordedCommand> command);
    bool record_copy(const detail::MemObject& source, const detail::MemObject& destination,
                     std::size_t source_offset, std::size_t destination_offset,
                     std::size_t source_count, std::size_t destination_count,
                     detail::Element element, OnError on_error);
    bool record_fill(const detail::MemObject& buffer, const void* pattern, std::size_t offset,
                     std::size_t count, detail::Element element, OnError on_error);
    // Adds a checked description, retaining its memory objects; false when a retain failed.
    template <class Command>
    bool keep(const Command& command, OnError on_error) {
        detail::Relay step(on_error);
        auto recorded = std::make_unique<detail::Recorded<Command>>(command, step);
        if (step.failed()) {
            return false;
        }
        add(std::move(recorded));
        return true;
    }

    std::shared_ptr<detail::GraphState> state_;
};

/// A kernel launch recorded in a CommandGraph: changes the launch's arguments between replays
/// with the checks of the kernel's own set_args (compile-time for a Kernel<Params...>), then
/// the launch checks that depend on arguments (every one set, local memory) again. On the
/// command-buffer path the graph is rebuilt at the next replay.
template <class K>
class GraphKernel {
  public:
    /// An empty handle (a failed recording returns one).
    GraphKernel() = default;

    /// Sets every argument, as K::set_args does (a trailing error target included).
    template <class... Args>
    GraphKernel& set_args(Args&&... args) {
        return detail::split_error_target(
            [this]<class... ArgRefs>(OnError on_error, const auto&... values) -> GraphKernel& {
                static_assert((detail::outlives_the_call<ArgRefs> && ...),
                              "GraphKernel::set_args: a temporary buffer, image or sampler is "
                              "released when the statement ends: keep it in a variable while "
                              "the graph may replay");
                update(on_error, [&](OnError step) { kernel_->set_args(values..., step); });
                return *this;
            },
            std::forward<Args>(args)...);
    }
    /// Sets argument `Index` alone (a Kernel<Params...>), as Kernel::set_arg does.
    template <std::size_t Index, class ArgRef>
    GraphKernel& set_arg(ArgRef&& arg, OnError on_error = {}) {
        static_assert(detail::outlives_the_call<ArgRef>,
                      "GraphKernel::set_arg: a temporary buffer, image or sampler is released "
                      "when the statement ends: keep it in a variable while the graph may replay");
        update(on_error,
               [&](OnError step) { kernel_->template set_arg<Index>(std::as_const(arg), step); });
        return *this;
    }
    /// Sets argument `index` alone (a DynamicKernel), as DynamicKernel::set_arg does.
    template <class ArgRef>
    requires std::is_same_v<K, DynamicKernel> GraphKernel& set_arg(cl_uint index, ArgRef&& arg,
                                                                   OnError on_error = {}) {
        static_assert(detail::outlives_the_call<ArgRef>,
                      "GraphKernel::set_arg: a temporary buffer, image or sampler is released "
                      "when the statement ends: keep it in a variable while the graph may replay");
        update(on_error, [&](OnError step) { kernel_->set_arg(index, std::as_const(arg), step); });
        return *this;
    }

    /// The graph's own kernel for this launch (read its name, arity...; set arguments through
    /// this handle, so that the graph knows).
    const K& kernel() const noexcept {
        static const K none;
        return kernel_ != nullptr ? *kernel_ : none;
    }
    /// The command's position in the graph.
    std::size_t index() const noexcept { return index_; }
    /// True when the handle names a recorded launch.
    explicit operator bool() const noexcept { return kernel_ != nullptr; }

  private:
    friend CommandGraph;
    GraphKernel(std::shared_ptr<detail::GraphState> state, std::size_t index, K* kernel)
        : state_(std::move(state)), index_(index), kernel_(kernel) {}

    template <class F>
    void update(OnError on_error, F&& set) {
        constexpr const char* call = "GraphKernel::set_args";
        if (kernel_ == nullptr) [[unlikely]] {
            detail::refuse_empty(on_error, CL_INVALID_KERNEL, call, "graph kernel");
            return;
        }
        const detail::GraphUse use(state_.get(), call, on_error);
        if (!use) [[unlikely]] {
            return;
        }
        detail::GraphState& state = *state_;
        detail::Relay step(on_error);
        set(step);
        state.stale = true;  // whatever was set before a failure is in the kernel now
        if (!step.failed()) {
            Status checks;
            if (!detail::QueueAccess::check_kernel(state.queue, *kernel_, checks)) {
                detail::record_refused(checks, call, index_, on_error);
            }
        }
    }

    std::shared_ptr<detail::GraphState> state_;
    std::size_t index_ = 0;
    K* kernel_ = nullptr;  // owned by the graph's command
};

// ---- definitions ---------------------------------------------------------------------------

template <class K>
GraphKernel<K> BasicCommandGraph<0>::record(const K& kernel, const NDRange* offset,
                                            const NDRange& global, const NDRange& local,
                                            OnError on_error) {
    constexpr const char* call = "CommandGraph::enqueue";
    const detail::GraphUse use(state_.get(), call, on_error);
    if (!use) [[unlikely]] {
        return {};
    }
    if (!kernel) {
        detail::refuse_empty(on_error, CL_INVALID_KERNEL, call, "kernel");
        return {};
    }
    detail::GraphState& state = *state_;
    const std::size_t index = state.commands.size();
    Status checks;
    if (!detail::QueueAccess::check_launch(state.queue, kernel, global, local, offset, checks)) {
        detail::record_refused(checks, call, index, on_error);
        return {};
    }
    bool kept = false;
    detail::Relay step(on_error);
    K copy = kernel.clone_for_record(kept, step);
    if (step.failed()) {
        return {};
    }
    if (!kept) {
        detail::fail(on_error, CL_INVALID_OPERATION, call,
                     detail::concat("kernel \"", kernel.name(step),
                                    "\": a graph records a clone of the kernel with its argument "
                                    "values, which needs clCloneKernel (an OpenCL 2.1 platform "
                                    "and CL_TARGET_OPENCL_VERSION >= 210)"));
        return {};
    }
    auto command =
        std::make_unique<detail::RecordedLaunch<K>>(std::move(copy), offset, global, local);
    K* made = &command->kernel;
    add(std::move(command));
    return GraphKernel<K>(state_, index, made);
}

template <detail::BufferRegion Source, detail::BufferRegion Destination>
void BasicCommandGraph<0>::copy(const Source& src, const Destination& dst, OnError on_error) {
    const auto& source = detail::region_of(src);
    const auto& destination = detail::region_of(dst);
    static_assert(std::is_same_v<typename Source::value_type, typename Destination::value_type>,
                  "graph.copy: the source and destination regions must have the same element "
                  "type (view one as the other's type with buffer.as<U>())");
    (void)record_copy(detail::SliceAccess::mem(source), detail::SliceAccess::mem(destination),
                      source.offset(), destination.offset(), source.size(), destination.size(),
                      detail::element_of(source), on_error);
}

template <detail::BufferRegion Region>
void BasicCommandGraph<0>::fill(const Region& dst, const typename Region::value_type& value,
                                OnError on_error) {
    const auto& region = detail::region_of(dst);
    (void)record_fill(detail::SliceAccess::mem(region), &value, region.offset(), region.size(),
                      detail::element_of(region), on_error);
}

OPENCLAW_END_NAMESPACE

#if OPENCLAW_HEADER_ONLY
#include <openclaw/impl/graph.ipp>
#endif

#include <openclaw/detail/base/macros_pop.hpp>
