// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// Queue: a command queue on one device of a context; in-order unless asked otherwise (objects
// layer). Kernel launches go through Queue::enqueue, which checks the launch geometry against
// limits read once at construction, so the launch path makes no queries, no allocations and no
// event unless asked.

#include <openclaw/context.hpp>
#include <openclaw/detail/base/argument_gate.hpp>
#include <openclaw/detail/base/checked.hpp>
#include <openclaw/detail/base/handle.hpp>
#include <openclaw/detail/base/info.hpp>
#include <openclaw/detail/objects/commands.hpp>
#include <openclaw/device.hpp>
#include <openclaw/event.hpp>
#include <openclaw/fwd.hpp>
#include <openclaw/ndrange.hpp>

#include <array>
#include <concepts>
#include <cstddef>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

OPENCLAW_BEGIN_NAMESPACE

/// Whether large blocking transfers from or to pageable host memory go through pinned staging
/// buffers (pipelined: the host copies one chunk while the device moves the previous one).
enum class Staging {
    /// For discrete devices (a GPU or accelerator without host-unified memory), while staging
    /// measures faster than the driver's own path (the other is tried again now and then).
    automatic,
    /// Every pageable blocking transfer from the threshold (4 MiB) up, on any device.
    always,
    never,
};

/// How a queue executes; designated initializers read well: `Queue{ctx, dev, {.profiling = true}}`.
struct QueueOptions {
    bool profiling = false;     ///< events carry start/end timestamps
    bool out_of_order = false;  ///< commands may run in any order their events allow
    /// Whether large blocking transfers of pageable memory go through pinned staging buffers.
    Staging staging = Staging::automatic;
    friend constexpr bool operator==(const QueueOptions&, const QueueOptions&) = default;
};

namespace detail {

/// What a launch is checked against, read from the device once per queue.
struct LaunchLimits {
    std::size_t max_group_size = 0;
    std::array<std::size_t, 3> max_item_sizes{0, 0, 0};
    bool non_uniform_groups = false;         // the device can run a last, smaller work-group
    cl_ulong local_mem_size = ~cl_ulong{0};  // CL_DEVICE_LOCAL_MEM_SIZE
};

/// What copies of one Queue share: the staging buffers of pipelined transfers, made on first
/// use (detail/memory/staging.hpp), and whether to use them; the algorithms' programs and
/// scratch memory, made at the first algorithm call.
struct QueueState {
    std::mutex mutex;
    std::shared_ptr<void> staging;
    std::shared_ptr<void> algorithms;  // the algorithms wing's engine (algorithm_core.ipp)
    bool stage_pageable = false;
    Staging mode = Staging::automatic;
};

struct QueueAccess;

/// Host memory a read can fill with elements of T: a PinnedBuffer<T> or what converts to
/// std::span<T> (a std::vector<T>, an array, a span).
template <class Host, class T>
concept HostDestination = (is_pinned<std::remove_cvref_t<Host>> &&
                           std::is_same_v<typename std::remove_cvref_t<Host>::value_type, T>) ||
                          std::is_convertible_v<Host&&, std::span<T>>;
/// Host memory a write can send elements of T from: a PinnedBuffer<T> or what converts to
/// std::span<const T>.
template <class Host, class T>
concept HostSource = (is_pinned<std::remove_cvref_t<Host>> &&
                      std::is_same_v<typename std::remove_cvref_t<Host>::value_type, T>) ||
                     std::is_convertible_v<Host&&, std::span<const T>>;
/// Host memory of some element type: a PinnedBuffer, or what has std::data and std::size (a
/// vector, array, span); what the refusals of a mismatched transfer recognise.
template <class Host>
concept HostMemory = is_pinned<std::remove_cvref_t<Host>> || requires(Host& host) {
    std::data(host);
    std::size(host);
};
/// True when host memory's elements are T (const or not).
template <class Host, class T>
inline constexpr bool same_element = [] {
    if constexpr (is_pinned<std::remove_cvref_t<Host>>) {
        return std::is_same_v<typename std::remove_cvref_t<Host>::value_type, T>;
    } else {
        return std::is_same_v<
            std::remove_cv_t<std::remove_pointer_t<decltype(std::data(std::declval<Host&>()))>>, T>;
    }
}();
/// `host` as a span of T, or an empty span when it is not one (after a static_assert has said
/// why: nothing else fails).
template <class T, class Host>
std::span<T> host_span(Host&& host) noexcept {
    if constexpr (std::is_convertible_v<Host&&, std::span<T>>) {
        return std::span<T>(std::forward<Host>(host));
    } else {
        return {};
    }
}
/// A Buffer or a BufferSlice (buffer.slice(offset, count)).
template <class R>
concept BufferRegion = is_buffer_region<std::remove_cvref_t<R>>;

/// What may follow a command's operands, in any order and each at most once: `with_event`,
/// `nonblocking` (transfers only), a WaitList (`openclaw::after(...)`) and an error target (an
/// OnError, or the std::error_code&, Status& it is made from).
template <class O>
concept CommandOption = std::is_same_v<std::remove_cvref_t<O>, WithEvent> ||
    std::is_same_v<std::remove_cvref_t<O>, Nonblocking> ||
    std::is_same_v<std::remove_cvref_t<O>, WaitList> || is_error_target<O>;

/// How many of a command's options are of type T.
template <class T, class... O>
inline constexpr std::size_t option_count =
    (std::size_t{0} + ... + std::size_t{std::is_same_v<std::remove_cvref_t<O>, T>});
/// True when a command was given `with_event`.
template <class... O>
inline constexpr bool asks_event = option_count<WithEvent, O...> != 0;
/// True when a transfer was given `nonblocking`.
template <class... O>
inline constexpr bool asks_nonblocking = option_count<Nonblocking, O...> != 0;
/// Event when a command was given `with_event`, else void: what most commands return.
template <class... O>
using EventIfAsked = std::conditional_t<asks_event<O...>, Event, void>;

/// What a transfer of host memory returns: the Event when asked for (`with_event`) or when the
/// transfer does not block (`nonblocking`), else nothing.
template <class... O>
using TransferResult = std::conditional_t<asks_event<O...> || asks_nonblocking<O...>, Event, void>;
/// True when `Host` is a vector of the region's elements moved into a transfer that does not
/// block: the transfer owns it until it is done (a HostTransfer). A concept, so that a Region
/// without elements (an image, when overloads are tried) makes it false, not an error.
template <class Region, class Host, class... O>
concept moves_vector = asks_nonblocking<O...> && requires {
    typename Region::value_type;
} && std::is_same_v<Host, std::vector<typename Region::value_type>>;
/// What read(region, host, options...) and write(region, host, options...) return: as
/// TransferResult, but a HostTransfer holding the vector when a vector moved in is read into
/// or written from without blocking.
template <class Region, class Host, class... O>
using ReadResult =
    std::conditional_t<moves_vector<Region, Host, O...>, HostTransfer<typename Region::value_type>,
                       TransferResult<O...>>;
template <class Region, class Host, class... O>
using WriteResult = ReadResult<Region, Host, O...>;
/// What the maps return: the view, and with `with_event` the map command's Event beside it.
template <class T, class... O>
using MapResult =
    std::conditional_t<asks_event<O...>, std::pair<MappedSpan<T>, Event>, MappedSpan<T>>;

/// A command's options, read from its trailing arguments.
struct CommandOptions {
    const WaitList* wait = &no_wait;
    OnError on_error;
};

inline void take_option(CommandOptions&, WithEvent) noexcept {}
inline void take_option(CommandOptions&, Nonblocking) noexcept {}
inline void take_option(CommandOptions& options, const WaitList& wait) noexcept {
    options.wait = &wait;
}
template <class Target>
requires is_error_target<Target&>
void take_option(CommandOptions& options, Target& target) {
    options.on_error = OnError(target);
}
inline void take_option(CommandOptions& options, OnError on_error) noexcept {
    options.on_error = on_error;
}

/// Reads a command's options; each kind at most once (a compile-time refusal otherwise).
template <class... O>
CommandOptions command_options(O&&... options) {
    static_assert(option_count<WithEvent, O...> <= 1 && option_count<Nonblocking, O...> <= 1 &&
                      option_count<WaitList, O...> <= 1 &&
                      (std::size_t{0} + ... + std::size_t{is_error_target<O&&>}) <= 1,
                  "a command takes each of with_event, nonblocking, a wait list and an error "
                  "target at most once");
    CommandOptions read;
    (take_option(read, options), ...);
    return read;
}

/// The body of a command that never blocks: runs `command(wait, event, on_error)` (event null
/// unless `with_event` was given) with the command's options, and returns its Event when asked.
template <class Command, class... O>
EventIfAsked<O...> run_command(Command&& command, O&... options) {
    static_assert(!asks_nonblocking<O...>,
                  "this command never blocks: nonblocking is for the reads and writes of host "
                  "memory");
    const CommandOptions o = command_options(options...);
    if constexpr (asks_event<O...>) {
        cl_event raw = nullptr;
        command(*o.wait, &raw, o.on_error);
        return Event::adopt(raw);
    } else {
        command(*o.wait, nullptr, o.on_error);
    }
}

/// The body of a map: `map(wait, event, on_error)` makes the view; with `with_event` the view and
/// the map command's Event come back together.
template <class Map, class... O>
auto run_map(Map&& map, O&... options) {
    static_assert(!asks_nonblocking<O...>,
                  "queue.map_*: a map blocks until the view is ready (take its Event with "
                  "with_event)");
    const CommandOptions o = command_options(options...);
    if constexpr (asks_event<O...>) {
        cl_event raw = nullptr;
        auto view = map(*o.wait, &raw, o.on_error);
        return std::pair<decltype(view), Event>{std::move(view), Event::adopt(raw)};
    } else {
        return map(*o.wait, nullptr, o.on_error);
    }
}

/// The verbs of the queue's open commands: the first parameter of a CommandTraits' `command`,
/// naming the Queue member that calls it.
namespace verb {
struct Read {};
struct Write {};
struct Copy {};
struct Fill {};
struct MapRead {};
struct MapWrite {};
struct MapDiscard {};
struct MapReadWrite {};
struct Migrate {};
struct Acquire {};
struct Release {};
struct Wait {};
struct Signal {};
}  // namespace verb

/// The commands a side wing adds to Queue for an operand type of its own, specialised beside the
/// type (images in image.hpp, SVM spans in svm.hpp, semaphores and imported buffers in
/// external.hpp), so that Queue never names them (docs/design.md, "Where a new command goes").
/// A specialisation for an operand type and a verb (or, partially, for every verb) declares
/// static overloads `command(Verb, const Queue&, operands..., options...)`, one per operand shape;
/// `queue.read(operand, rest...)` calls the one of its first operand's type, `queue.copy(src,
/// dst, rest...)` the source's or else the destination's. The primary template has none. The
/// verb is a parameter so that a wing may add a verb to a core type (external.hpp: acquire and
/// release of a Buffer) without changing what the core's own verbs see.
template <class Operand, class Verb>
struct CommandTraits {};

/// True when CommandTraits<Operand, Verb> has a `command` for `args`.
template <class Verb, class Operand, class... Args>
concept has_command = requires(const Queue& queue, Args&&... args) {
    CommandTraits<std::remove_cvref_t<Operand>, Verb>::command(Verb{}, queue,
                                                               std::forward<Args>(args)...);
};

/// A memory object of any kind: what clEnqueueMigrateMemObjects takes.
template <class M>
concept MemoryObject = requires(const M& memory) {
    { memory.get() } -> std::same_as<cl_mem>;
    { memory.context_handle() } -> std::same_as<cl_context>;
};

}  // namespace detail

/// How clEnqueueMigrateMemObjects moves memory.
struct MigrateOptions {
    /// CL_MIGRATE_MEM_OBJECT_HOST: to the host instead of the queue's device.
    bool to_host = false;
    /// CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED: the contents need not be moved (they become
    /// undefined), which counts as a write of the whole object for the mapping checks.
    bool content_undefined = false;
};

/// A command queue (cl_command_queue) on one device of a context: the subject of every command
/// (launches, transfers, copies, fills, maps, markers). Copying shares it (clRetainCommandQueue).
class Queue {
  public:
    Queue() = default;

    /// A queue on `device`, which must be one of `context`'s devices.
    Queue(const Context& context, const Device& device, QueueOptions options = {},
          OnError on_error = {});

    /// Takes ownership of `raw` (no retain; released by the destructor).
    [[nodiscard]] static Queue adopt(cl_command_queue raw, OnError on_error = {}) {
        return Queue(detail::Handle<cl_command_queue>::adopt(raw), on_error);
    }
    /// Shares `raw`: retains it (clRetainCommandQueue), the caller keeps its own reference.
    [[nodiscard]] static Queue retain(cl_command_queue raw, OnError on_error = {}) {
        return Queue(detail::Handle<cl_command_queue>::retain(raw, on_error), on_error);
    }

    /// The queue's context (CL_QUEUE_CONTEXT), retained.
    Context context(OnError on_error = {}) const {
        return Context::retain(info<CL_QUEUE_CONTEXT>(on_error), on_error);
    }
    /// The queue's device (CL_QUEUE_DEVICE).
    Device device(OnError on_error = {}) const {
        return Device::retain(info<CL_QUEUE_DEVICE>(on_error), on_error);
    }
    /// The options the queue was made with (from CL_QUEUE_PROPERTIES and openclaw's staging
    /// choice).
    QueueOptions options(OnError on_error = {}) const {
        const cl_command_queue_properties bits = info<CL_QUEUE_PROPERTIES>(on_error);
        return {(bits & CL_QUEUE_PROFILING_ENABLE) != 0,
                (bits & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0,
                state_ ? state_->mode : Staging::automatic};
    }

    /// Blocks until every command enqueued so far has completed.
    void finish(OnError on_error = {}) const {
        const detail::ReportScope reports_about(context_);
        if (check_not_empty("clFinish", on_error)) {
            (void)detail::check(clFinish(get()), "clFinish", on_error);
        }
    }
    /// Submits the enqueued commands to the device without waiting.
    void flush(OnError on_error = {}) const {
        const detail::ReportScope reports_about(context_);
        if (check_not_empty("clFlush", on_error)) {
            (void)detail::check(clFlush(get()), "clFlush", on_error);
        }
    }

    /// Launches `kernel` with the arguments it holds over `global` work-items in work-groups
    /// chosen by the driver (or of `local`, in the overload below), then returns: the launch is
    /// enqueued. The geometry is checked against the device first. Options follow in any order:
    /// `with_event` (the launch's Event is returned; empty if the launch failed), a wait list
    /// (`openclaw::after(event, ...)`) and an error target. `kernel.set_args(...)` returns the
    /// kernel, so `queue.enqueue(k.set_args(a, b), NDRange{n})` binds and launches in one
    /// expression.
    template <std::derived_from<KernelBase> K, detail::CommandOption... Options>
    detail::EventIfAsked<Options...> enqueue(const K& kernel, const NDRange& global,
                                             Options&&... options) const {
        return enqueue(kernel, global, detail::no_range, std::forward<Options>(options)...);
    }
    /// As enqueue() above, in work-groups of `local`.
    template <std::derived_from<KernelBase> K, detail::CommandOption... Options>
    detail::EventIfAsked<Options...> enqueue(const K& kernel, const NDRange& global,
                                             const NDRange& local, Options&&... options) const {
        static_assert(!detail::asks_nonblocking<Options...>,
                      "queue.enqueue: a launch never blocks (nonblocking is for transfers)");
        const detail::CommandOptions o = detail::command_options(options...);
        if constexpr (detail::asks_event<Options...>) {
            cl_event raw = nullptr;
            launch(kernel, global, local, *o.wait, &raw, o.on_error);
            return Event::adopt(raw);
        } else {
            launch(kernel, global, local, *o.wait, nullptr, o.on_error);
        }
    }

    /// As enqueue(), with the work-items' global IDs starting at `offset` instead of 0 (the
    /// global_work_offset of clEnqueueNDRangeKernel). The offset has the global range's
    /// dimensions, and offset + global must stay within size_t.
    template <std::derived_from<KernelBase> K, detail::CommandOption... Options>
    detail::EventIfAsked<Options...> enqueue(const K& kernel, const GlobalOffset& offset,
                                             const NDRange& global, Options&&... options) const {
        return enqueue(kernel, offset, global, detail::no_range, std::forward<Options>(options)...);
    }
    /// As the launch with an offset above, in work-groups of `local`.
    template <std::derived_from<KernelBase> K, detail::CommandOption... Options>
    detail::EventIfAsked<Options...> enqueue(const K& kernel, const GlobalOffset& offset,
                                             const NDRange& global, const NDRange& local,
                                             Options&&... options) const {
        static_assert(!detail::asks_nonblocking<Options...>,
                      "queue.enqueue: a launch never blocks (nonblocking is for transfers)");
        const detail::CommandOptions o = detail::command_options(options...);
        cl_event raw = nullptr;
        if (check_offset(offset.values(), global, o.on_error)) [[likely]] {
            launch(kernel, global, local, *o.wait, detail::asks_event<Options...> ? &raw : nullptr,
                   o.on_error, offset.values().data());
        }
        if constexpr (detail::asks_event<Options...>) {
            return Event::adopt(raw);
        }
    }

    /// Refused at compile time: enqueue launches kernels.
    template <class K, class... Rest>
    requires(!std::derived_from<std::remove_cvref_t<K>, KernelBase>) void enqueue(const K&,
                                                                                  Rest&&...) const {
        static_assert(detail::dependent_false<K>,
                      "queue.enqueue(kernel, NDRange{...}): the first argument must be a kernel "
                      "(Kernel<...> or DynamicKernel); memory moves with queue.read, write, copy "
                      "and fill");
    }

    // ---- buffer commands (defined in buffer.hpp) -----------------------------------------
    // A region is a Buffer or a slice of one, `buffer.slice(offset, count)`. The rule: a
    // command that reads or writes host memory blocks until that memory is free again, unless
    // given `nonblocking` (only for memory that cannot be freed under it); every other command
    // is enqueued and returns at once. `with_event` returns the command's Event (one command:
    // such a transfer is not staged); without it no cl_event is made.

    /// Reads the region into `dst` (a span, vector or PinnedBuffer of exactly the region's
    /// size: a mismatch is refused, never truncated; name a part with `buffer.slice(offset,
    /// count)` or `std::span(dst).first(count)`). Blocking: large reads into pageable memory of a
    /// discrete device are staged through pinned buffers (QueueOptions::staging). Options, in any
    /// order: `with_event` returns the (completed) command's Event, e.g. for its profile;
    /// `nonblocking` starts the read and returns at once, for memory that cannot be freed under
    /// it: a PinnedBuffer (which waits for the command before its memory goes; the Event is
    /// returned) or a vector moved in (`queue.read(region, std::move(v), nonblocking)`: the
    /// returned HostTransfer holds it, no copy, no allocation, and get() hands it back filled); a
    /// wait list; an error target.
    template <detail::BufferRegion Region, detail::HostMemory Host,
              detail::CommandOption... Options>
    detail::ReadResult<Region, Host, Options...> read(const Region& src, Host&& dst,
                                                      Options&&... options) const;
    /// Starts reading the region into a new vector the returned HostTransfer owns; get() waits
    /// and hands it over. The memory cannot be freed under the command. It allocates and zeroes
    /// the vector: to read into memory of your own, move a vector in (above). Options: a wait
    /// list, an error target.
    template <detail::BufferRegion Region, detail::CommandOption... Options>
    [[nodiscard]] HostTransfer<typename Region::value_type> read(const Region& src, Nonblocking,
                                                                 Options&&... options) const;

    /// Writes `src` (a span, vector or PinnedBuffer of exactly the region's size, as read())
    /// into the region; blocking (staged like read()). Options as read()'s; `nonblocking`
    /// takes a PinnedBuffer (the Event is returned) or a vector moved in
    /// (`queue.write(region, std::move(v), nonblocking)`: the returned HostTransfer keeps it
    /// until the command is done).
    template <detail::BufferRegion Region, detail::HostMemory Host,
              detail::CommandOption... Options>
    detail::WriteResult<Region, Host, Options...> write(const Region& dst, Host&& src,
                                                        Options&&... options) const;

    /// Copies the source region to the start of the destination region, which must hold it
    /// (clEnqueueCopyBuffer; enqueued, the buffers are the device's). Options: `with_event`, a
    /// wait list, an error target.
    template <detail::BufferRegion Source, detail::BufferRegion Destination,
              detail::CommandOption... Options>
    detail::EventIfAsked<Options...> copy(const Source& src, const Destination& dst,
                                          Options&&... options) const;

    /// Sets every element of the region to `value` (clEnqueueFillBuffer; enqueued: the pattern
    /// is copied at once). Options as copy()'s.
    template <detail::BufferRegion Region, detail::CommandOption... Options>
    detail::EventIfAsked<Options...> fill(const Region& dst,
                                          const typename Region::value_type& value,
                                          Options&&... options) const;

    /// Maps the region for reading (blocking): a view over const T that unmaps itself. With
    /// `with_event` it returns the view and the map command's Event: `auto [view, event] =
    /// queue.map_read(region, openclaw::with_event)`. Options also: a wait list, an error
    /// target.
    template <detail::BufferRegion Region, detail::CommandOption... Options>
    [[nodiscard]] detail::MapResult<const typename Region::value_type, Options...> map_read(
        const Region& region, Options&&... options) const;
    /// Maps the region for writing (CL_MAP_WRITE: what the host leaves keeps its contents).
    /// Options as map_read()'s.
    template <detail::BufferRegion Region, detail::CommandOption... Options>
    [[nodiscard]] detail::MapResult<typename Region::value_type, Options...> map_write(
        const Region& region, Options&&... options) const;
    /// Maps the region for overwriting (CL_MAP_WRITE_INVALIDATE_REGION: the view starts
    /// undefined; write every element). Options as map_read()'s.
    template <detail::BufferRegion Region, detail::CommandOption... Options>
    [[nodiscard]] detail::MapResult<typename Region::value_type, Options...> map_discard(
        const Region& region, Options&&... options) const;
    /// Maps the region for reading and writing. Options as map_read()'s.
    template <detail::BufferRegion Region, detail::CommandOption... Options>
    [[nodiscard]] detail::MapResult<typename Region::value_type, Options...> map_read_write(
        const Region& region, Options&&... options) const;

    /// Reads a rectangular box of `src` into `dst` (clEnqueueReadBufferRect; blocking):
    /// `rect.source` places it in the buffer, `rect.destination` in `dst`, in elements. Options:
    /// `with_event`, a wait list, an error target.
    template <class T, class A, class Host, detail::CommandOption... Options>
    requires detail::HostDestination<Host, T> detail::EventIfAsked<Options...> read(
        const Buffer<T, A>& src, const Rect& rect, Host&& dst, Options&&... options)
    const;
    /// Writes a rectangular box of `src` into `dst` (clEnqueueWriteBufferRect; blocking):
    /// `rect.source` places it in `src`, `rect.destination` in the buffer. Options as the
    /// rectangular read's.
    template <class T, class A, class Host, detail::CommandOption... Options>
    requires detail::HostSource<Host, T> detail::EventIfAsked<Options...> write(
        const Buffer<T, A>& dst, const Rect& rect, Host&& src, Options&&... options)
    const;
    /// Copies a rectangular box between buffers (clEnqueueCopyBufferRect; enqueued). The box is
    /// a Rect by name (`queue.copy(a, b, Rect{...})`). Options as the rectangular read's.
    template <class T, class A, class B, std::same_as<Rect> R, detail::CommandOption... Options>
    detail::EventIfAsked<Options...> copy(const Buffer<T, A>& src, const Buffer<T, B>& dst,
                                          const R& rect, Options&&... options) const;

    /// Moves a memory object (a buffer, an image) to this queue's device ahead of its use
    /// (clEnqueueMigrateMemObjects; enqueued). Options: `with_event`, a wait list, an error
    /// target.
    template <detail::MemoryObject Memory, detail::CommandOption... Options>
    detail::EventIfAsked<Options...> migrate(const Memory& memory, Options&&... options) const {
        return migrate(memory, MigrateOptions{}, std::forward<Options>(options)...);
    }
    /// As migrate(), with `options` (`{.to_host = true}`: to the host; `{.content_undefined =
    /// true}`: the contents need not move).
    template <detail::MemoryObject Memory, detail::CommandOption... Options>
    detail::EventIfAsked<Options...> migrate(const Memory& memory, const MigrateOptions& how,
                                             Options&&... options) const;

    // ---- the open commands: what a side wing adds for its own operand types -----------------
    // Each verb calls detail::CommandTraits<first operand>::command(verb, *this, operands...)
    // (for copy, the source's traits or else the destination's), declared beside the type:
    // images (image.hpp: read, write, the maps, fill, copy), SVM spans (svm.hpp: copy, fill,
    // migrate, the maps), imported buffers and semaphores (external.hpp: acquire, release, wait,
    // signal). Options are the buffer commands', checked by the same detail::run_command.

    /// Reads `memory` (an image, or what a wing adds) into host memory; see its header.
    template <class Memory, class... Rest>
    requires detail::has_command<detail::verb::Read, Memory, const Memory&, Rest...>
    decltype(auto) read(const Memory& memory, Rest&&... rest) const {
        return detail::CommandTraits<Memory, detail::verb::Read>::command(
            detail::verb::Read{}, *this, memory, std::forward<Rest>(rest)...);
    }
    /// Writes host memory into `memory` (an image, or what a wing adds).
    template <class Memory, class... Rest>
    requires detail::has_command<detail::verb::Write, Memory, const Memory&, Rest...>
    decltype(auto) write(const Memory& memory, Rest&&... rest) const {
        return detail::CommandTraits<Memory, detail::verb::Write>::command(
            detail::verb::Write{}, *this, memory, std::forward<Rest>(rest)...);
    }
    /// Copies between memory of a wing's kinds (images, SVM) or between one and a buffer.
    template <class Source, class... Rest>
    requires detail::has_command<detail::verb::Copy, Source, const Source&, Rest...>
    decltype(auto) copy(const Source& src, Rest&&... rest) const {
        return detail::CommandTraits<Source, detail::verb::Copy>::command(
            detail::verb::Copy{}, *this, src, std::forward<Rest>(rest)...);
    }
    /// As above, for a copy into a wing's kind from another kind (a buffer into an image).
    template <class Source, class Destination, class... Rest>
    requires(!detail::has_command<detail::verb::Copy, Source, const Source&, const Destination&,
                                  Rest...> &&
             detail::has_command<detail::verb::Copy, Destination, const Source&, const Destination&,
                                 Rest...>) decltype(auto)
        copy(const Source& src, const Destination& dst, Rest&&... rest) const {
        return detail::CommandTraits<Destination, detail::verb::Copy>::command(
            detail::verb::Copy{}, *this, src, dst, std::forward<Rest>(rest)...);
    }
    /// As above, with a point in the destination as the fourth operand, which may be braced:
    /// `queue.copy(image, region, other, {x, y, z})`.
    template <class Source, class Region, class Destination, class... Rest>
    requires detail::has_command < detail::verb::Copy, Source, const Source&, const Region&,
        const Destination&, const std::array<std::size_t, 3>
    &, Rest... > decltype(auto) copy(const Source& src, const Region& region,
                                     const Destination& dst, const std::array<std::size_t, 3>& to,
                                     Rest&&... rest) const {
        return detail::CommandTraits<Source, detail::verb::Copy>::command(
            detail::verb::Copy{}, *this, src, region, dst, to, std::forward<Rest>(rest)...);
    }
    /// Fills memory of a wing's kind (an image region with a colour, SVM with a value).
    template <class Memory, class... Rest>
    requires detail::has_command<detail::verb::Fill, Memory, const Memory&, Rest...>
    decltype(auto) fill(const Memory& memory, Rest&&... rest) const {
        return detail::CommandTraits<Memory, detail::verb::Fill>::command(
            detail::verb::Fill{}, *this, memory, std::forward<Rest>(rest)...);
    }
    /// Maps memory of a wing's kind for reading: a view that unmaps itself.
    template <class Memory, class... Rest>
    requires detail::has_command<detail::verb::MapRead, Memory, const Memory&, Rest...>
    [[nodiscard]] decltype(auto) map_read(const Memory& memory, Rest&&... rest) const {
        return detail::CommandTraits<Memory, detail::verb::MapRead>::command(
            detail::verb::MapRead{}, *this, memory, std::forward<Rest>(rest)...);
    }
    /// Maps memory of a wing's kind for writing (CL_MAP_WRITE).
    template <class Memory, class... Rest>
    requires detail::has_command<detail::verb::MapWrite, Memory, const Memory&, Rest...>
    [[nodiscard]] decltype(auto) map_write(const Memory& memory, Rest&&... rest) const {
        return detail::CommandTraits<Memory, detail::verb::MapWrite>::command(
            detail::verb::MapWrite{}, *this, memory, std::forward<Rest>(rest)...);
    }
    /// Maps memory of a wing's kind for overwriting (CL_MAP_WRITE_INVALIDATE_REGION).
    template <class Memory, class... Rest>
    requires detail::has_command<detail::verb::MapDiscard, Memory, const Memory&, Rest...>
    [[nodiscard]] decltype(auto) map_discard(const Memory& memory, Rest&&... rest) const {
        return detail::CommandTraits<Memory, detail::verb::MapDiscard>::command(
            detail::verb::MapDiscard{}, *this, memory, std::forward<Rest>(rest)...);
    }
    /// Maps memory of a wing's kind for reading and writing.
    template <class Memory, class... Rest>
    requires detail::has_command<detail::verb::MapReadWrite, Memory, const Memory&, Rest...>
    [[nodiscard]] decltype(auto) map_read_write(const Memory& memory, Rest&&... rest) const {
        return detail::CommandTraits<Memory, detail::verb::MapReadWrite>::command(
            detail::verb::MapReadWrite{}, *this, memory, std::forward<Rest>(rest)...);
    }
    /// Migrates memory of a wing's kind that is not a memory object (SVM).
    template <class Memory, class... Rest>
    requires detail::has_command<detail::verb::Migrate, Memory, const Memory&, Rest...>
    decltype(auto) migrate(const Memory& memory, Rest&&... rest) const {
        return detail::CommandTraits<Memory, detail::verb::Migrate>::command(
            detail::verb::Migrate{}, *this, memory, std::forward<Rest>(rest)...);
    }
    /// As above, with MigrateOptions, which may be braced: `queue.migrate(svm(v), {.to_host =
    /// true})`.
    template <class Memory, class... Rest>
    requires detail::has_command<detail::verb::Migrate, Memory, const Memory&,
                                 const MigrateOptions&, Rest...>
    decltype(auto) migrate(const Memory& memory, const MigrateOptions& how, Rest&&... rest) const {
        return detail::CommandTraits<Memory, detail::verb::Migrate>::command(
            detail::verb::Migrate{}, *this, memory, how, std::forward<Rest>(rest)...);
    }
    /// Hands memory shared with another API to OpenCL before this queue's commands use it (an
    /// imported buffer: clEnqueueAcquireExternalMemObjectsKHR).
    template <class Memory, class... Rest>
    requires detail::has_command<detail::verb::Acquire, Memory, const Memory&, Rest...>
    decltype(auto) acquire(const Memory& memory, Rest&&... rest) const {
        return detail::CommandTraits<Memory, detail::verb::Acquire>::command(
            detail::verb::Acquire{}, *this, memory, std::forward<Rest>(rest)...);
    }
    /// Hands memory shared with another API back after this queue's commands on it.
    template <class Memory, class... Rest>
    requires detail::has_command<detail::verb::Release, Memory, const Memory&, Rest...>
    decltype(auto) release(const Memory& memory, Rest&&... rest) const {
        return detail::CommandTraits<Memory, detail::verb::Release>::command(
            detail::verb::Release{}, *this, memory, std::forward<Rest>(rest)...);
    }
    /// Commands enqueued after this one wait for `signal` (a semaphore: external.hpp).
    template <class Signal, class... Rest>
    requires detail::has_command<detail::verb::Wait, Signal, const Signal&, Rest...>
    decltype(auto) wait(const Signal& object, Rest&&... rest) const {
        return detail::CommandTraits<Signal, detail::verb::Wait>::command(
            detail::verb::Wait{}, *this, object, std::forward<Rest>(rest)...);
    }
    /// Signals `signal` once the commands before this one have completed (a semaphore).
    template <class Signal, class... Rest>
    requires detail::has_command<detail::verb::Signal, Signal, const Signal&, Rest...>
    decltype(auto) signal(const Signal& object, Rest&&... rest) const {
        return detail::CommandTraits<Signal, detail::verb::Signal>::command(
            detail::verb::Signal{}, *this, object, std::forward<Rest>(rest)...);
    }

    /// An event that completes when the events of `wait` have (or, with an empty list, when
    /// every command enqueued so far has). Other commands may run past it.
    [[nodiscard]] Event marker(const WaitList& wait = detail::no_wait, OnError on_error = {}) const;
    /// As marker(), and commands enqueued after it wait for it (matters on out-of-order queues).
    [[nodiscard]] Event barrier(const WaitList& wait = detail::no_wait,
                                OnError on_error = {}) const;

    /// Any clGetCommandQueueInfo parameter, with its C++ type from openclaw's info table.
    template <cl_command_queue_info Param>
    detail::info_t<cl_command_queue, Param> info(OnError on_error = {}) const {
        return detail::get_info<cl_command_queue, Param>(on_error, get());
    }

    /// The raw cl_command_queue (not retained; null when empty).
    cl_command_queue get() const noexcept { return handle_.get(); }
    /// The raw context the queue belongs to (not retained: the queue keeps it alive).
    cl_context context_handle() const noexcept { return context_; }
    /// True when the object holds a queue.
    explicit operator bool() const noexcept { return static_cast<bool>(handle_); }
    friend bool operator==(const Queue& a, const Queue& b) noexcept {
        return a.handle_ == b.handle_;
    }

  private:
    friend struct detail::QueueAccess;

    Queue(detail::Handle<cl_command_queue> handle, OnError on_error);

    // What a queue reads once: its context, the launch limits of its device, its shared state.
    // Leaves the queue empty when a query fails (reported to `on_error`).
    void initialize(cl_context context, const Device& device, Staging staging, OnError on_error);

    static detail::Handle<cl_command_queue> create(const Context& context, const Device& device,
                                                   QueueOptions options, OnError on_error);

    bool check_not_empty(const char* call, OnError on_error) const {
        if (!handle_) [[unlikely]] {
            detail::refuse_empty(on_error, CL_INVALID_COMMAND_QUEUE, call, "queue");
            return false;
        }
        return true;
    }

    template <class K>
    void launch(const K& kernel, const NDRange& global, const NDRange& local, const WaitList& wait,
                cl_event* event, OnError on_error, const std::size_t* offset = nullptr) const {
        const detail::ReportScope reports_about(context_);
        if (kernel.context_handle() != context_) [[unlikely]] {
            return foreign_kernel(kernel.get(), on_error);
        }
        if (!check_geometry(global, local, kernel.non_uniform_groups(), on_error) ||
            !wait.check("clEnqueueNDRangeKernel", context_, on_error)) [[unlikely]] {
            return;
        }
        // Held until the launch is enqueued: set_args on another thread is refused meanwhile (and
        // this launch while it sets them).
        const detail::LaunchingKernel reading(argument_gate(kernel));
        if (!reading) [[unlikely]] {
            (void)kernel.launched_while_setting(on_error);
            return;
        }
        if (!kernel_ready(kernel, on_error)) [[unlikely]] {
            return;
        }
        // global is not empty (checked): its sizes go as they are.
        const detail::LaunchCommand command{kernel.get(), global.dimensions(), offset,
                                            global.sizes(), local.data()};
        const cl_int code =
            detail::enqueued(command.enqueue(get(), wait.size(), wait.data(), event), event);
        if (code != CL_SUCCESS) [[unlikely]] {
            launch_failed(code, kernel.get(), global, local, on_error);
        }
    }

    // The gate of a kernel's argument values (null for a kernel type without one).
    template <class K>
    static detail::ArgumentGate* argument_gate(const K& kernel) noexcept {
        if constexpr (requires { kernel.argument_gate(); }) {
            return kernel.argument_gate();
        } else {
            return nullptr;
        }
    }

    // The kernel's own launch checks: a bound buffer mapped in a conflicting way, an argument
    // not set, more LocalMem than the device has. One test for a typed kernel when all is well.
    template <class K>
    bool kernel_ready(const K& kernel, OnError on_error) const {
        if constexpr (requires { kernel.launch_ready(limits_.local_mem_size); }) {
            if (kernel.launch_ready(limits_.local_mem_size)) [[likely]] {
                return true;
            }
        }
        if constexpr (requires { kernel.check_unmapped(on_error); }) {
            if (!kernel.check_unmapped(on_error)) {
                return false;
            }
        }
        if constexpr (requires { kernel.check_arguments_set(on_error); }) {
            if (!kernel.check_arguments_set(on_error)) {
                return false;
            }
        }
        if constexpr (requires { kernel.local_needed(); }) {
            if (kernel.local_needed() > limits_.local_mem_size) {
                local_exceeded(kernel.get(), kernel.local_bytes(), kernel.local_needed(), on_error);
                return false;
            }
        }
        return true;
    }

    // False (after reporting why) when the geometry does not fit the device.
    bool check_geometry(const NDRange& global, const NDRange& local, bool kernel_non_uniform,
                        OnError on_error) const {
        if (global.empty() || (!local.empty() && local.dimensions() != global.dimensions())) {
            return geometry_error(global, local, CL_INVALID_WORK_DIMENSION, 0, on_error);
        }
        // A negative size (NDRange::valid() false) is stored as 0: the zero checks below catch
        // it, and geometry_error words it as the negative size it was.
        std::size_t items = 1;
        std::size_t group = 1;
        for (cl_uint d = 0; d < global.dimensions(); ++d) {
            if (global[d] == 0) {
                return geometry_error(global, local, CL_INVALID_GLOBAL_WORK_SIZE, d, on_error);
            }
            if (!detail::checked_mul(items, global[d], items)) {
                return geometry_error(global, local, CL_INVALID_GLOBAL_WORK_SIZE, 3, on_error);
            }
            if (!local.empty()) {
                if (local[d] == 0 || local[d] > limits_.max_item_sizes[d]) {
                    return geometry_error(global, local, CL_INVALID_WORK_ITEM_SIZE, d, on_error);
                }
                if (!detail::checked_mul(group, local[d], group)) {
                    group = static_cast<std::size_t>(-1);  // larger than any device allows
                }
                if (global[d] % local[d] != 0 &&
                    !(kernel_non_uniform && limits_.non_uniform_groups)) {
                    return geometry_error(global, local, CL_INVALID_WORK_GROUP_SIZE, d, on_error);
                }
            }
        }
        if (!local.empty() && group > limits_.max_group_size) {
            return geometry_error(global, local, CL_INVALID_WORK_GROUP_SIZE, 3, on_error);
        }
        return true;
    }

    // False (after reporting why) when `offset` does not fit `global`: other dimensions, a
    // negative value, or offset + global beyond size_t (CL_INVALID_GLOBAL_OFFSET).
    bool check_offset(const NDRange& offset, const NDRange& global, OnError on_error) const {
        bool fits = offset.dimensions() == global.dimensions() && offset.valid();
        for (cl_uint d = 0; fits && d < global.dimensions(); ++d) {
            fits = offset[d] <= static_cast<std::size_t>(-1) - global[d];
        }
        return fits || offset_error(offset, global, on_error);
    }

    // Cold paths: build the message with whatever queries make it useful, then report it.
    [[gnu::cold]] bool offset_error(const NDRange& offset, const NDRange& global,
                                    OnError on_error) const;
    [[gnu::cold]] bool geometry_error(const NDRange& global, const NDRange& local, cl_int code,
                                      cl_uint d, OnError on_error) const;
    [[gnu::cold]] void foreign_kernel(cl_kernel kernel, OnError on_error) const;
    [[gnu::cold]] void local_exceeded(cl_kernel kernel, std::size_t arguments, std::size_t needed,
                                      OnError on_error) const;
    [[gnu::cold]] void launch_failed(cl_int code, cl_kernel kernel, const NDRange& global,
                                     const NDRange& local, OnError on_error) const;

    detail::Handle<cl_command_queue> handle_;
    detail::ResetOnMove<cl_context> context_;
    detail::LaunchLimits limits_;
    std::shared_ptr<detail::QueueState> state_;
};

namespace detail {
/// What the memory core needs of a queue beyond its public face: its shared state.
struct QueueAccess {
    static QueueState* state(const Queue& queue) noexcept { return queue.state_.get(); }
    /// Every check of a launch without the launch (what a command graph makes when recording):
    /// the queue, the kernel's context, the offset, the geometry, the kernel's own checks.
    template <class K>
    static bool check_launch(const Queue& queue, const K& kernel, const NDRange& global,
                             const NDRange& local, const NDRange* offset, OnError on_error) {
        if (!queue.check_not_empty("clEnqueueNDRangeKernel", on_error)) {
            return false;
        }
        if (kernel.context_handle() != queue.context_) {
            queue.foreign_kernel(kernel.get(), on_error);
            return false;
        }
        return (offset == nullptr || queue.check_offset(*offset, global, on_error)) &&
               queue.check_geometry(global, local, kernel.non_uniform_groups(), on_error) &&
               queue.kernel_ready(kernel, on_error);
    }
    /// The launch checks that depend on the kernel's arguments (set, local memory).
    template <class K>
    static bool check_kernel(const Queue& queue, const K& kernel, OnError on_error) {
        return queue.kernel_ready(kernel, on_error);
    }
};
}  // namespace detail

OPENCLAW_END_NAMESPACE

#if OPENCLAW_HEADER_ONLY
#include <openclaw/impl/queue.ipp>
#endif

#include <openclaw/detail/base/macros_pop.hpp>
