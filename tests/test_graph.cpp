// CommandGraph: recorded chains of kernels, copies and fills give the results of the same commands
// enqueued directly, on the command-buffer path where the device has one and on the portable path
// everywhere; argument updates between replays; what a graph keeps alive; the checks made while
// recording and those left for a replay.
#include <openclaw/all.hpp>
#include <openclaw/graph.hpp>

#include <string>
#include <vector>

#include "support/catch.hpp"
#include "support/fixture.hpp"

using openclaw::CommandGraph;
using openclaw::GraphOptions;
using openclaw::GraphPath;
using openclaw::In;
using openclaw::InOut;
using openclaw::NDRange;
using openclaw::Out;
using openclaw_test::env;
using openclaw_test::has;
using openclaw_test::thrown;

namespace {

constexpr const char* source = R"CLC(
__kernel void add(__global int* data, const int value) { data[get_global_id(0)] += value; }
__kernel void twice(__global const int* in, __global int* out) {
    out[get_global_id(0)] = 2 * in[get_global_id(0)];
}
__kernel void staged(__global int* data, __local int* scratch) {
    scratch[get_local_id(0)] = data[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    data[get_global_id(0)] = scratch[get_local_size(0) - 1 - get_local_id(0)];
}
)CLC";

const openclaw::Program& program() {
    static const openclaw::Program built = openclaw::Program::build(env().context, source);
    return built;
}

}  // namespace

#if CL_TARGET_OPENCL_VERSION >= 210

namespace {

// The options of both paths this device can take: the portable one always, the command-buffer
// one where the device has it.
std::vector<GraphOptions> both_paths() {
    return {GraphOptions{.command_buffer = true}, GraphOptions{.command_buffer = false}};
}

std::string path_name(const CommandGraph& graph) {
    return graph.path() == GraphPath::command_buffer ? "command buffer" : "portable";
}

}  // namespace

TEST_CASE("a recorded chain gives the results of the same commands enqueued directly") {
    constexpr std::size_t n = 256;
    std::vector<cl_int> start(n);
    for (std::size_t i = 0; i < n; ++i) {
        start[i] = static_cast<cl_int>(i);
    }
    auto add = program().kernel<InOut<cl_int>, cl_int>("add");
    auto twice = program().kernel<In<cl_int>, Out<cl_int>>("twice");

    // Directly: 3 rounds of (add 1, add 2, twice into b, copy b to a, fill the first 4 with 7).
    const openclaw::ReadWriteBuffer<cl_int> a{env().context, n};
    const openclaw::ReadWriteBuffer<cl_int> b{env().context, n};
    env().queue.write(a, start);
    for (int round = 0; round < 3; ++round) {
        env().queue.enqueue(add.set_args(a, 1), NDRange{n});
        env().queue.enqueue(add.set_args(a, 2), NDRange{n});
        env().queue.enqueue(twice.set_args(a, b), NDRange{n});
        env().queue.copy(b, a);
        env().queue.fill(a.slice(0, 4), 7);
    }
    std::vector<cl_int> direct(n);
    env().queue.read(a, direct);

    for (const GraphOptions& options : both_paths()) {
        const openclaw::ReadWriteBuffer<cl_int> x{env().context, n};
        const openclaw::ReadWriteBuffer<cl_int> y{env().context, n};
        CommandGraph graph{env().queue, options};
        INFO("path: " << path_name(graph) << " (" << graph.portable_reason() << ")");
        // The same kernel object, recorded with two argument values: each launch keeps its own.
        (void)graph.enqueue(add.set_args(x, 1), NDRange{n});
        (void)graph.enqueue(add.set_args(x, 2), NDRange{n});
        (void)graph.enqueue(twice.set_args(x, y), NDRange{n});
        graph.copy(y, x);
        graph.fill(x.slice(0, 4), 7);
        CHECK(graph.size() == 5);
        add.set_args(y, 1000);  // after recording: the graph keeps the values it recorded
        env().queue.write(x, start);
        for (int round = 0; round < 3; ++round) {
            graph.replay();
        }
        std::vector<cl_int> replayed(n);
        env().queue.read(x, replayed);
        CHECK(replayed == direct);
    }
}

TEST_CASE("the graph takes the command-buffer path only where the device drives one") {
    const CommandGraph graph{env().queue};
    const CommandGraph portable{env().queue, GraphOptions{.command_buffer = false}};
    CHECK(portable.path() == GraphPath::portable);
    CHECK_THAT(portable.portable_reason(), has("GraphOptions::command_buffer is false"));
    const bool has_extension = env().device.supports_extension("cl_khr_command_buffer");
    if (!has_extension) {
        CHECK(graph.path() == GraphPath::portable);
        CHECK_THAT(graph.portable_reason(), has("no cl_khr_command_buffer"));
    } else if (graph.path() == GraphPath::portable) {
        // A revision openclaw does not drive, or no simultaneous use: the reason says which.
        CHECK_FALSE(graph.portable_reason().empty());
        WARN("cl_khr_command_buffer present, portable replay: " << graph.portable_reason());
    } else {
        CHECK(graph.portable_reason().empty());
    }
}

TEST_CASE("a graph kernel's arguments change between replays, checked like set_args") {
    constexpr std::size_t n = 64;
    auto add = program().kernel<InOut<cl_int>, cl_int>("add");
    for (const GraphOptions& options : both_paths()) {
        const openclaw::ReadWriteBuffer<cl_int> x{env().context, n};
        const openclaw::ReadWriteBuffer<cl_int> y{env().context, n};
        env().queue.fill(x, 0);
        env().queue.fill(y, 0);
        CommandGraph graph{env().queue, options};
        INFO("path: " << path_name(graph));
        auto step = graph.enqueue(add.set_args(x, 5), NDRange{n});
        REQUIRE(step);
        CHECK(step.index() == 0);
        CHECK(step.kernel().name() == "add");
        graph.replay();
        step.set_args(y, 3);  // another buffer and value
        graph.replay();
        graph.replay();
        step.set_arg<1>(10);  // one argument alone
        graph.replay();
        std::vector<cl_int> back_x(n);
        std::vector<cl_int> back_y(n);
        env().queue.read(x, back_x);
        env().queue.read(y, back_y);
        CHECK(back_x == std::vector<cl_int>(n, 5));
        CHECK(back_y == std::vector<cl_int>(n, 3 + 3 + 10));
    }
}

TEST_CASE("a graph keeps the buffers it records alive") {
    constexpr std::size_t n = 32;
    auto add = program().kernel<InOut<cl_int>, cl_int>("add");
    const openclaw::ReadWriteBuffer<cl_int> out{env().context, n};
    for (const GraphOptions& options : both_paths()) {
        CommandGraph graph{env().queue, options};
        {
            const openclaw::ReadWriteBuffer<cl_int> scratch{env().context, n};
            graph.fill(scratch, 4);
            (void)graph.enqueue(add.set_args(scratch, 1), NDRange{n});
            graph.copy(scratch, out);
            add.forget_arguments();
        }  // the buffer object is gone; the graph holds the memory
        add = program().kernel<InOut<cl_int>, cl_int>("add");  // no reference from the kernel
        env().queue.fill(out, 0);
        graph.replay();
        std::vector<cl_int> back(n);
        env().queue.read(out, back);
        CHECK(back == std::vector<cl_int>(n, 5));
    }
}

TEST_CASE("a replay waits for its wait list and gives an event of the whole replay") {
    constexpr std::size_t n = 16;
    auto add = program().kernel<InOut<cl_int>, cl_int>("add");
    for (const GraphOptions& options : both_paths()) {
        const openclaw::ReadWriteBuffer<cl_int> x{env().context, n};
        env().queue.fill(x, 1);
        env().queue.finish();
        CommandGraph graph{env().queue, options};
        (void)graph.enqueue(add.set_args(x, 1), NDRange{n});
        (void)graph.enqueue(add.set_args(x, 1), NDRange{n});
        openclaw::UserEvent gate{env().context};
        const openclaw::Event done = graph.replay(openclaw::with_event, openclaw::after(gate));
        REQUIRE(done);
        env().queue.flush();
        CHECK(done.status() != CL_COMPLETE);
        gate.complete();
        done.wait();
        std::vector<cl_int> back(n);
        env().queue.read(x, back);
        CHECK(back == std::vector<cl_int>(n, 3));
    }
    // An empty graph still gives an event, which completes.
    CommandGraph empty{env().queue};
    CHECK(empty.size() == 0);
    const openclaw::Event nothing = empty.replay(openclaw::with_event);
    REQUIRE(nothing);
    nothing.wait();
    CHECK(nothing.status() == CL_COMPLETE);
}

TEST_CASE("a graph records a DynamicKernel and local memory, with offsets") {
    constexpr std::size_t n = 64;
    const openclaw::DynamicKernel add(program(), "add");
    auto staged = program().kernel<InOut<cl_int>, openclaw::Local<cl_int>>("staged");
    std::vector<cl_int> start(n);
    for (std::size_t i = 0; i < n; ++i) {
        start[i] = static_cast<cl_int>(i);
    }
    for (const GraphOptions& options : both_paths()) {
        const openclaw::ReadWriteBuffer<cl_int> x{env().context, n};
        env().queue.write(x, start);
        CommandGraph graph{env().queue, options};
        openclaw::DynamicKernel mine = add;
        mine.set_args(x, 100);
        // The second half only: global IDs from 32.
        auto dynamic = graph.enqueue(mine, openclaw::GlobalOffset{32}, NDRange{32});
        (void)graph.enqueue(staged.set_args(x, openclaw::LocalMem<cl_int>{16}), NDRange{n},
                            NDRange{16});
        graph.replay();
        dynamic.set_arg(1, 1);  // a DynamicKernel argument by index
        graph.replay();
        std::vector<cl_int> expected = start;
        for (int round = 0; round < 2; ++round) {
            for (std::size_t i = 32; i < n; ++i) {
                expected[i] += round == 0 ? 100 : 1;
            }
            std::vector<cl_int> reversed = expected;
            for (std::size_t g = 0; g < n; g += 16) {
                for (std::size_t l = 0; l < 16; ++l) {
                    reversed[g + l] = expected[g + 15 - l];
                }
            }
            expected = reversed;
        }
        std::vector<cl_int> back(n);
        env().queue.read(x, back);
        CHECK(back == expected);
    }
}

TEST_CASE("a clone of a kernel with LocalMem arguments runs as the original") {
    // PoCL 3.1's clCloneKernel kept a __local argument's size without storage for it (ASan: the
    // clone's launch, and a command buffer recording it, read past it); clones set it again.
    constexpr std::size_t n = 32;
    std::vector<cl_int> start(n);
    for (std::size_t i = 0; i < n; ++i) {
        start[i] = static_cast<cl_int>(i);
    }
    std::vector<cl_int> reversed(n);
    for (std::size_t i = 0; i < n; ++i) {
        reversed[i] = start[(i / 16) * 16 + 15 - i % 16];
    }
    const openclaw::ReadWriteBuffer<cl_int> x{env().context, n};
    auto staged = program().kernel<InOut<cl_int>, openclaw::Local<cl_int>>("staged");
    staged.set_args(x, openclaw::LocalMem<cl_int>{16});
    openclaw::DynamicKernel dynamic(program(), "staged");
    dynamic.set_args(x, openclaw::LocalMem<cl_int>{16});
    const auto typed_clone = staged.clone();
    const auto dynamic_clone = dynamic.clone();
    CHECK(typed_clone.local_bytes() == 16 * sizeof(cl_int));
    CHECK(dynamic_clone.local_bytes() == 16 * sizeof(cl_int));
    for (int which = 0; which < 2; ++which) {
        env().queue.write(x, start);
        if (which == 0) {
            env().queue.enqueue(typed_clone, NDRange{n}, NDRange{16});
        } else {
            env().queue.enqueue(dynamic_clone, NDRange{n}, NDRange{16});
        }
        std::vector<cl_int> back(n);
        env().queue.read(x, back);
        CHECK(back == reversed);
    }
}

TEST_CASE("recording checks what a queue checks, naming the graph call and the command") {
    constexpr std::size_t n = 64;
    CommandGraph graph{env().queue};
    const openclaw::ReadWriteBuffer<cl_int> x{env().context, n};
    auto add = program().kernel<InOut<cl_int>, cl_int>("add");
    add.set_args(x, 1);
    (void)graph.enqueue(add, NDRange{n});

    // A work-group larger than the device allows.
    const std::size_t too_large = env().device.max_work_group_size() * 2;
    const auto geometry = thrown<openclaw::Error>(
        [&] { (void)graph.enqueue(add, NDRange{too_large}, NDRange{too_large}); });
    REQUIRE(geometry);
    CHECK(geometry->call() == "CommandGraph::enqueue");
    CHECK_THAT(geometry->what(), has("command 1 not recorded"));

    // An argument not set.
    auto fresh = program().kernel<InOut<cl_int>, cl_int>("add");
    const auto unset = thrown<openclaw::Error>([&] { (void)graph.enqueue(fresh, NDRange{n}); });
    REQUIRE(unset);
    CHECK(unset->cl_code() == CL_INVALID_KERNEL_ARGS);
    CHECK_THAT(unset->what(), has("argument 0"));

    // A copy past the end, a fill of a size command buffers do not take, a foreign buffer.
    const openclaw::ReadWriteBuffer<cl_int> small{env().context, 8};
    const auto range = thrown<openclaw::Error>([&] { graph.copy(x.slice(60, 8), small); });
    REQUIRE(range);
    CHECK(range->call() == "CommandGraph::copy");
    CHECK_THAT(range->what(), has("60"));
    const auto too_small = thrown<openclaw::Error>([&] { graph.copy(x, small); });
    REQUIRE(too_small);
    CHECK(too_small->cl_code() == CL_INVALID_VALUE);
    struct Triple {
        cl_int a, b, c;
    };
    const openclaw::ReadWriteBuffer<Triple> triples{env().context, 4};
    const auto odd = thrown<openclaw::Error>([&] { graph.fill(triples, Triple{1, 2, 3}); });
    REQUIRE(odd);
    CHECK_THAT(odd->what(), has("elements of 12 bytes"));
    const openclaw::Context other{env().device};
    const openclaw::ReadWriteBuffer<cl_int> foreign{other, n};
    const auto elsewhere = thrown<openclaw::Error>([&] { graph.copy(foreign, x); });
    REQUIRE(elsewhere);
    CHECK(elsewhere->cl_code() == CL_INVALID_CONTEXT);
    // Overlapping ranges of one buffer: refused when recorded, with the ranges.
    const auto overlap =
        thrown<openclaw::Error>([&] { graph.copy(x.slice(0, 16), x.slice(8, 16)); });
    REQUIRE(overlap);
    CHECK(overlap->cl_code() == CL_MEM_COPY_OVERLAP);
    CHECK(overlap->call() == "CommandGraph::copy");
    CHECK_THAT(overlap->what(), has("command 1 not recorded") && has("overlap in one buffer"));
    CHECK(graph.size() == 1);  // nothing refused was recorded

    // A LocalMem update past the device's local memory is refused when it is made.
    auto staged = program().kernel<InOut<cl_int>, openclaw::Local<cl_int>>("staged");
    auto step =
        graph.enqueue(staged.set_args(x, openclaw::LocalMem<cl_int>{16}), NDRange{n}, NDRange{16});
    const std::size_t too_much = env().device.local_mem_size() / sizeof(cl_int) + 1;
    const auto local =
        thrown<openclaw::Error>([&] { step.set_args(x, openclaw::LocalMem<cl_int>{too_much}); });
    REQUIRE(local);
    CHECK(local->call() == "GraphKernel::set_args");
    CHECK_THAT(local->what(), has("command 1 not recorded"));

    // Empty objects, and out-of-order queues.
    CommandGraph none;
    const auto empty = thrown<openclaw::Error>([&] { none.replay(); });
    REQUIRE(empty);
    CHECK_THAT(empty->what(), has("empty"));
    const auto empty_kernel = thrown<openclaw::Error>(
        [&] { (void)graph.enqueue(openclaw::Kernel<InOut<cl_int>, cl_int>{}, NDRange{n}); });
    REQUIRE(empty_kernel);
    CHECK(empty_kernel->cl_code() == CL_INVALID_KERNEL);
    const openclaw::Queue unordered{env().context, env().device, {.out_of_order = true}};
    const auto ooo = thrown<openclaw::Error>([&] { CommandGraph g{unordered}; });
    REQUIRE(ooo);
    CHECK_THAT(ooo->what(), has("out-of-order"));
    std::error_code ec;
    none.replay({}, ec);
    CHECK(ec == openclaw::make_error_code(CL_INVALID_VALUE));
}

TEST_CASE("a replay refuses a buffer of the graph that is mapped in a conflicting way") {
    constexpr std::size_t n = 16;
    const openclaw::ReadWriteBuffer<cl_int> x{env().context, n};
    env().queue.fill(x, 2);
    auto add = program().kernel<InOut<cl_int>, cl_int>("add");
    for (const GraphOptions& options : both_paths()) {
        CommandGraph graph{env().queue, options};
        (void)graph.enqueue(add.set_args(x, 1), NDRange{n});
        add.forget_arguments();
        add = program().kernel<InOut<cl_int>, cl_int>("add");
        {
            const auto view = env().queue.map_read(x);
            const cl_int first = view[0];
            const auto mapped = thrown<openclaw::Error>([&] { graph.replay(); });
            REQUIRE(mapped);
            CHECK(mapped->cl_code() == CL_INVALID_OPERATION);
            CHECK(mapped->call() == "CommandGraph::replay");  // not the launch it replays
            CHECK_THAT(mapped->what(), has("mapped"));
            CHECK(view[0] == first);  // nothing ran under the reader
        }
        graph.replay();
    }
    std::vector<cl_int> back(n);
    env().queue.read(x, back);
    CHECK(back == std::vector<cl_int>(n, 4));
}

TEST_CASE("a moved graph replays, and a moved-from graph is empty") {
    constexpr std::size_t n = 8;
    const openclaw::ReadWriteBuffer<cl_int> x{env().context, n};
    env().queue.fill(x, 0);
    auto add = program().kernel<InOut<cl_int>, cl_int>("add");
    CommandGraph first{env().queue};
    auto step = first.enqueue(add.set_args(x, 2), NDRange{n});
    CommandGraph second = std::move(first);
    CHECK_FALSE(first);  // NOLINT(bugprone-use-after-move): what a moved-from graph is
    CHECK(second.size() == 1);
    second.replay();
    step.set_args(x, 3);  // the handle still names the launch
    second.replay();
    std::vector<cl_int> back(n);
    env().queue.read(x, back);
    CHECK(back == std::vector<cl_int>(n, 5));
}

#else

TEST_CASE("recording a kernel needs clCloneKernel, which the OpenCL 1.2 API lacks") {
    const openclaw::ReadWriteBuffer<cl_int> x{env().context, 8};
    auto add = program().kernel<InOut<cl_int>, cl_int>("add");
    CommandGraph graph{env().queue};
    CHECK(graph.path() == GraphPath::portable);
    const auto refused =
        thrown<openclaw::Error>([&] { (void)graph.enqueue(add.set_args(x, 1), NDRange{8}); });
    REQUIRE(refused);
    CHECK_THAT(refused->what(), has("clCloneKernel"));
    graph.fill(x, 3);  // copies and fills record without it
    graph.replay();
    std::vector<cl_int> back(8);
    env().queue.read(x, back);
    CHECK(back == std::vector<cl_int>(8, 3));
}

#endif
