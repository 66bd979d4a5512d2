// SPDX-License-Identifier: Apache-2.0
// The programs the fault-injection driver runs (tests/reliability/driver.cpp). Each scenario uses
// a part of openclaw the way an application does and checks its own results. Run plainly, every
// scenario completes. Run under the interposer with one OpenCL call made to fail, it must end in an
// openclaw::Error naming that call and code, or hand the failure to the error hook (cleanup), or
// name it in the message of the error it was already reporting; and nothing may leak.
//
// Usage: openclaw_fault_scenarios --list | <scenario>. The result goes to stdout as lines
// "outcome completed|raised <call> <code>|other <text>", "expected <what>" for each error the
// scenario provoked on purpose, and "hook <call> <code>" for each failure the error hook received.
//
// Adding a scenario: write a `void name()` below and add it to `scenarios` at the end.

#include <openclaw/algorithm.hpp>
#include <openclaw/all.hpp>
#include <openclaw/graph.hpp>
#include <openclaw/pool.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <numeric>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "support/fixture.hpp"

namespace {

using namespace openclaw;

constexpr const char* source = R"CLC(
__kernel void vector_add(__global const float* a, __global const float* b, __global float* c,
                         const uint n) {
    const size_t i = get_global_id(0);
    if (i < n) c[i] = a[i] + b[i];
}
__kernel void scale(__global float* data, const float factor) {
    data[get_global_id(0)] *= factor;
}
__kernel void offset_by(__global int* data, const int2 by) {
    data[get_global_id(0)] += by.x + by.y;
}
)CLC";

/// The scenario's own check failed: a wrong result, or an error it provoked did not come.
struct ScenarioFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

void require(bool condition, const char* what) {
    if (!condition) {
        throw ScenarioFailure(what);
    }
}

std::vector<std::string> expected_errors;

/// Runs `f`, which must throw an Error from `call` with `code`: a mistake the scenario makes on
/// purpose. Any other Error is passed on (it is the injected one).
template <class F>
void expect_error(const char* call, cl_int code, F&& f) {
    try {
        f();
    } catch (const Error& error) {
        if (error.call() != call || error.cl_code() != code) {
            throw;
        }
        expected_errors.emplace_back(error.what());
        return;
    }
    throw ScenarioFailure(std::string("no error from ") + call);
}

// The error hook may run in any destructor; it records into fixed storage and never allocates.
struct HookCall {
    const char* call;
    cl_int code;
};
std::array<HookCall, 256> hook_calls;
std::atomic<std::size_t> hook_count{0};

void recording_hook(const char* call, cl_int code) noexcept {
    const std::size_t at = hook_count.fetch_add(1);
    if (at < hook_calls.size()) {
        hook_calls[at] = {call, code};
    }
}

struct Setup {
    Device device = openclaw_test::pick_device();
    Context context{device};
    Queue queue{context, device};
};

std::vector<float> ramp(std::size_t n, float start, float step) {
    std::vector<float> values(n);
    for (std::size_t i = 0; i < n; ++i) {
        values[i] = start + step * static_cast<float>(i);
    }
    return values;
}

// --- scenarios ---------------------------------------------------------------------------------

void vector_add() {
    const Setup s;
    const std::size_t n = 1024;
    const auto a = ramp(n, 1.0f, 0.5f);
    const auto b = ramp(n, -3.0f, 2.0f);
    const ReadOnlyBuffer<float> da{s.context, a};
    const ReadOnlyBuffer<float> db{s.context, b};
    const WriteOnlyBuffer<float> dc{s.context, n};
    const auto program = Program::build(s.context, source);
    auto vadd = program.kernel<In<float>, In<float>, Out<float>, cl_uint>("vector_add");
    s.queue.enqueue(vadd.set_args(da, db, dc, static_cast<cl_uint>(n)), NDRange{n}, NDRange{64});
    std::vector<float> c(n);
    s.queue.read(dc, c);
    for (std::size_t i = 0; i < n; ++i) {
        require(c[i] == a[i] + b[i], "vector_add: wrong sum");
    }
}

struct Particle {  // 12 bytes: filled from a host pattern, not by clEnqueueFillBuffer
    float x, y, z;
};

void transfers() {
    const Setup s;
    std::vector<cl_int> initial(256);
    std::iota(initial.begin(), initial.end(), 0);
    const ReadWriteBuffer<cl_int> a{s.context, initial};
    const ReadWriteBuffer<cl_int> b{s.context, 256};
    const std::vector<cl_int> patch = {-1, -2, -3, -4, -5};
    s.queue.write(a.slice(10, patch.size()), patch);
    s.queue.copy(a, b);
    s.queue.copy(a.slice(0, 16), b.slice(200, 16));
    s.queue.fill(b.slice(100, 50), 7);
    const Event copied = s.queue.copy(a.slice(20, 8), b.slice(20, 8), with_event);
    copied.wait();
    const Event filled = s.queue.fill(b.slice(250, 6), 9, with_event);
    filled.wait();
    const Event nothing = s.queue.fill(b.slice(0, 0), 0, with_event);  // empty range: a marker
    nothing.wait();
    std::vector<cl_int> back(256);
    s.queue.read(b, back);
    require(back[0] == 0 && back[12] == -3 && back[20] == 20, "transfers: copy");
    require(back[100] == 7 && back[149] == 7 && back[150] == 150, "transfers: fill");
    require(back[200] == 0 && back[215] == 15, "transfers: ranged copy");
    require(back[250] == 9 && back[255] == 9, "transfers: fill with event");
    std::vector<cl_int> part(4);
    s.queue.read(a.slice(9, part.size()), part);
    require(part == std::vector<cl_int>{9, -1, -2, -3}, "transfers: read_at");

    // Commands asked for their events (in object mode each fails returning its event as well).
    const Event wrote = s.queue.write(b.slice(30, patch.size()), patch, with_event);
    const Event read_back = s.queue.read(b.slice(30, part.size()), part, with_event);
    require(part == std::vector<cl_int>{-1, -2, -3, -4}, "transfers: write and read with events");
    Rect box;
    box.extent = {4, 2, 1};
    box.source.origin = {0, 1, 0};
    box.source.row_pitch = 16;
    box.destination.row_pitch = 16;
    const Event boxed = s.queue.copy(a, b, box, with_event);
    const Event migrated = s.queue.migrate(b, MigrateOptions{}, with_event);
    const Event marked = s.queue.marker();
    const Event barrier = s.queue.barrier();
    barrier.wait();
    s.queue.read(b.slice(0, part.size()), part);
    require(part == std::vector<cl_int>{16, 17, 18, 19}, "transfers: box copy with an event");

    const ReadWriteBuffer<Particle> particles{s.context, 9};
    s.queue.fill(particles, Particle{1.0f, 2.0f, 3.0f});
    std::vector<Particle> p(9);
    s.queue.read(particles, p);
    require(p[8].z == 3.0f, "transfers: struct fill");
}

void build_failure() {
    const Setup s;
    try {
        (void)Program::build(s.context,
                             "__kernel void broken(__global float* out) {\n"
                             "    out[0] = no_such_identifier;\n}\n");
        throw ScenarioFailure("build_failure: a broken program built");
    } catch (const BuildError& error) {
        if (error.call() != "clBuildProgram" || error.cl_code() != CL_BUILD_PROGRAM_FAILURE) {
            throw;
        }
        expected_errors.emplace_back(error.what());
        // The log names the culprit unless reading it failed, which the message then says.
        require(std::string_view(error.what()).find("no_such_identifier") != std::string::npos ||
                    std::string_view(error.what()).find("unavailable") != std::string::npos,
                "build_failure: the log is missing without a reason");
    }
    // The context is still good for a correct program.
    const auto program = Program::build(s.context, source);
    auto scale = program.kernel<InOut<float>, cl_float>("scale");
    const ReadWriteBuffer<float> data{s.context, std::vector<float>(64, 1.5f)};
    s.queue.enqueue(scale.set_args(data, 2.0f), NDRange{64});
    std::vector<float> back(64);
    s.queue.read(data, back);
    require(back[63] == 3.0f, "build_failure: the recovery launch");
}

void launch_with_event() {
    const Setup s;
    const auto program = Program::build(s.context, source);
    auto scale = program.kernel<InOut<float>, cl_float>("scale");
    const ReadWriteBuffer<float> data{s.context, std::vector<float>(256, 1.0f)};
    const Event first = s.queue.enqueue(scale.set_args(data, 2.0f), NDRange{256}, with_event);
    first.wait();
    require(first.is_complete(), "launch_with_event: not complete after wait");
    const Event second = s.queue.enqueue(scale, NDRange{256}, NDRange{64}, with_event);
    second.wait();
    require(second.info<CL_EVENT_COMMAND_TYPE>() ==
                static_cast<cl_command_type>(CL_COMMAND_NDRANGE_KERNEL),
            "launch_with_event: command type");
    require(second.info<CL_EVENT_COMMAND_QUEUE>() == s.queue.get(), "launch_with_event: queue");
    std::vector<float> back(256);
    s.queue.read(data, back);
    require(back[0] == 4.0f && back[255] == 4.0f, "launch_with_event: result");
}

void two_queues() {
    const Setup s;
    const Queue second{s.context, s.device};
    const auto program = Program::build(s.context, source);
    auto scale = program.kernel<InOut<float>, cl_float>("scale");
    const ReadWriteBuffer<float> data{s.context, ramp(512, 0.0f, 1.0f)};
    const ReadWriteBuffer<float> copy{s.context, 512};
    // Produce on the first queue, consume on the second once the first has finished.
    s.queue.enqueue(scale.set_args(data, 3.0f), NDRange{512});
    s.queue.finish();
    second.copy(data, copy);
    second.flush();
    std::vector<float> back(512);
    second.read(copy, back);
    require(back[1] == 3.0f && back[511] == 1533.0f, "two_queues: result");
    // And back: the second queue scales, the first reads.
    second.enqueue(scale.set_args(copy, 0.5f), NDRange{512});
    second.finish();
    s.queue.read(copy, back);
    require(back[2] == 3.0f, "two_queues: result of the second queue");
}

// Copies retain, so every copy is a call that can fail; so are the objects handed out by queries.
void copies() {
    const Setup s;
    const auto program = Program::build(s.context, source);
    const auto scale = program.kernel<InOut<float>, cl_float>("scale");
    const ReadWriteBuffer<float> data{s.context, std::vector<float>(32, 1.0f)};

    const Device device = s.device;
    const Context context = s.context;
    Queue queue;
    queue = s.queue;
    const ReadWriteBuffer<float> buffer = data;
    const Program program_copy = program;
    auto kernel = scale;
    const Event event = queue.enqueue(kernel.set_args(buffer, 2.0f), NDRange{32}, with_event);
    const Event event_copy = event;
    event_copy.wait();

    require(queue.context() == context, "copies: queue context");
    require(queue.device() == device, "copies: queue device");
    require(kernel.program() == program_copy, "copies: kernel program");
    require(kernel.context() == s.context, "copies: kernel context");
    require(program.context() == context, "copies: program context");
    require(program.devices().size() == 1, "copies: program devices");
    require(context.devices().front() == device, "copies: context devices");
    const auto shared = ReadWriteBuffer<float>::retain(buffer.get());
    const auto shared_kernel = Kernel<InOut<float>, cl_float>::retain(kernel.get());
    const auto shared_queue = Queue::retain(queue.get());
    const auto shared_program = Program::retain(program.get());
    const auto shared_event = Event::retain(event.get());
    require(shared.size() == 32 && shared_event.is_complete(), "copies: shared handles");
    shared_queue.enqueue(shared_kernel, NDRange{32});
    std::vector<float> back(32);
    shared_queue.read(shared, back);
    require(back[31] == 4.0f, "copies: result");
    require(shared_program.kernel_names().size() == 3, "copies: kernel names");
}

// Mistakes openclaw reports itself, each with a message that takes queries to write.
void user_mistakes() {
    const Setup s;
    const auto program = Program::build(s.context, source);
    expect_error("clCreateKernel", CL_INVALID_KERNEL_NAME,
                 [&] { (void)program.kernel<InOut<float>, cl_float>("scael"); });
    expect_error("clCreateKernel", CL_INVALID_KERNEL_ARGS,
                 [&] { (void)program.kernel<InOut<float>>("scale"); });
    auto scale = program.kernel<InOut<float>, cl_float>("scale");
    expect_error("clEnqueueNDRangeKernel", CL_INVALID_KERNEL_ARGS,
                 [&] { s.queue.enqueue(scale, NDRange{64}); });
    const ReadWriteBuffer<float> data{s.context, 100};
    scale.set_args(data, 1.0f);
    expect_error("clEnqueueNDRangeKernel", CL_INVALID_WORK_GROUP_SIZE,
                 [&] { s.queue.enqueue(scale, NDRange{100}, NDRange{64}); });
    const Context other{s.device};
    const Queue other_queue{other, s.device};
    expect_error("clEnqueueNDRangeKernel", CL_INVALID_CONTEXT,
                 [&] { other_queue.enqueue(scale, NDRange{64}); });
    // The kernel takes int2: with arg info (debug builds) creation refuses the C++ signature;
    // without it, the driver refuses the argument's size.
    const auto blind = Program::build(s.context, source, BuildOptions{}.kernel_arg_info(false));
    if (program.kernel_arg_info()) {
        expect_error("clCreateKernel", CL_INVALID_KERNEL_ARGS,
                     [&] { (void)program.kernel<InOut<cl_int>, cl_int4>("offset_by"); });
    }
    auto offset = blind.kernel<InOut<cl_int>, cl_int4>("offset_by");
    const ReadWriteBuffer<cl_int> ints{s.context, 16};
    expect_error("clSetKernelArg", CL_INVALID_ARG_SIZE, [&] { offset.set_args(ints, cl_int4{}); });
    std::vector<float> small(10);
    expect_error("clEnqueueReadBuffer", CL_INVALID_VALUE, [&] { s.queue.read(data, small); });
    expect_error("clEnqueueReadBuffer", CL_INVALID_CONTEXT,
                 [&] { other_queue.read(data.slice(0, small.size()), small); });
}

// A recorded graph (the command-buffer path where the device has one) replayed, its kernel's
// arguments changed between replays.
void graph() {
    const Setup s;
    const std::size_t n = 256;
    const ReadWriteBuffer<float> data{s.context, n};
    const ReadWriteBuffer<float> copy{s.context, n};
    const auto program = Program::build(s.context, source);
    auto scale = program.kernel<InOut<float>, float>("scale");
    CommandGraph graph{s.queue};
    graph.fill(data, 1.0f);
    auto step = graph.enqueue(scale.set_args(data, 2.0f), NDRange{n});
    graph.copy(data, copy);
    graph.replay();
    step.set_args(data, 3.0f);
    const Event done = graph.replay(with_event);
    done.wait();
    std::vector<float> back(n);
    s.queue.read(copy, back);
    for (const float value : back) {
        require(value == 3.0f, "graph: wrong value");
    }
}

// Pooled buffers used by kernels, returned, reused and trimmed, by a pool that reuses after
// completion and by one that reuses in queue order.
void pool() {
    const Setup s;
    const std::size_t n = 128;
    const auto program = Program::build(s.context, source);
    auto scale = program.kernel<InOut<float>, float>("scale");
    MemoryPool after_completion{s.queue};
    MemoryPool queue_order{s.queue,
                           openclaw::PoolOptions{.reuse = openclaw::PoolReuse::queue_order}};
    std::vector<float> back(n);
    for (MemoryPool* which : {&after_completion, &queue_order}) {
        MemoryPool& pool = *which;
        // Each round returns its buffer, and trim() waits for its commands: the calls are the same
        // in every run (a pool that checked a marker's status while it runs would not be).
        for (int round = 0; round < 3; ++round) {
            {
                const auto buffer = pool.allocate<float>(n);
                s.queue.fill(buffer, 2.0f);
                s.queue.enqueue(scale.set_args(buffer, 2.0f), NDRange{n});
                s.queue.read(buffer, back);
                for (const float value : back) {
                    require(value == 4.0f, "pool: wrong value");
                }
            }
            scale.forget_arguments();
            scale = program.kernel<InOut<float>, float>("scale");
            // PoCL drops its own references to a command's buffers a moment after the command has
            // completed, and the pool reuses memory only that nothing else references: the pause
            // makes the reuse, and so the calls, the same in every run.
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            (void)pool.trim(std::size_t{1} << 20);  // keeps it idle for the next round
        }
        (void)pool.trim();
    }
}

void algorithms() {
    const Setup s;
    const std::size_t n = 5000;
    std::vector<cl_uint> host(n);
    for (std::size_t i = 0; i < n; ++i) {
        host[i] = static_cast<cl_uint>((i * 7919) % 1000);
    }
    ReadWriteBuffer<cl_uint> keys(s.context, std::span<const cl_uint>(host));
    ReadWriteBuffer<cl_uint> values(s.context, n);
    ReadWriteBuffer<cl_uint> out(s.context, n);
    require(openclaw::reduce(s.queue, keys) == std::accumulate(host.begin(), host.end(), 0u),
            "algorithms: reduce");
    openclaw::inclusive_scan(s.queue, keys, out, AlgorithmPath::portable);
    openclaw::exclusive_scan(s.queue, keys, out, 0u, AlgorithmPath::single_pass);
    std::vector<cl_uint> back(n);
    s.queue.read(out, back);
    std::vector<cl_uint> expected(n);
    std::exclusive_scan(host.begin(), host.end(), expected.begin(), 0u);
    require(back == expected, "algorithms: exclusive_scan");
    const std::size_t odd =
        openclaw::copy_if(s.queue, keys, out, openclaw::op<"int odd(uint x) { return x & 1u; }">{});
    require(odd == static_cast<std::size_t>(std::count_if(host.begin(), host.end(),
                                                          [](cl_uint x) { return (x & 1u) != 0; })),
            "algorithms: copy_if");
    // The sort passes make most of the scenario's calls: keys only, one order.
    Event sorted = openclaw::sort(s.queue, keys, openclaw::with_event);
    sorted.wait();
    s.queue.read(keys, back);
    require(std::is_sorted(back.begin(), back.end()), "algorithms: sort");
    openclaw::iota(s.queue, values, 0u);
    Event summed = openclaw::reduce_into(s.queue, values, out.slice(0, 1), openclaw::with_event);
    summed.wait();
    s.queue.read(out.slice(0, 1), std::span<cl_uint>(back.data(), 1));
    require(back[0] == n * (n - 1) / 2, "algorithms: reduce_into");
    // The other compactions and the histogram, on the sorted keys (runs of equal values).
    const std::size_t small = openclaw::partition(
        s.queue, keys, out, openclaw::op<"int low(uint x) { return x < 500u; }">{});
    require(small == static_cast<std::size_t>(std::count_if(host.begin(), host.end(),
                                                            [](cl_uint x) { return x < 500u; })),
            "algorithms: partition");
    std::vector<cl_uint> heads;
    std::sort(host.begin(), host.end());
    std::unique_copy(host.begin(), host.end(), std::back_inserter(heads));
    require(openclaw::unique(s.queue, keys, out) == heads.size(), "algorithms: unique");
    // A scan by key over the sorted keys: each run of equal keys counts 1, 2, ...
    openclaw::fill(s.queue, values, 1u);
    openclaw::inclusive_scan_by_key(s.queue, keys, values, out);
    s.queue.read(out, back);
    require(back[0] == 1 && back[n - 1] == static_cast<cl_uint>(
                                               std::count(host.begin(), host.end(), host[n - 1])),
            "algorithms: inclusive_scan_by_key");
    ReadWriteBuffer<cl_uint> bins(s.context, 1000);
    openclaw::histogram(s.queue, keys, bins);
    s.queue.read(bins, std::span<cl_uint>(back.data(), 1000));
    require(std::accumulate(back.begin(), back.begin() + 1000, std::size_t{0}) == n,
            "algorithms: histogram");
    // Scratch memory from a pool: taken and given back by the call, failures included.
    openclaw::MemoryPool pool(s.queue, {.reuse = openclaw::PoolReuse::queue_order});
    openclaw::iota(s.queue, values, 0u);
    openclaw::sort_by_key(s.queue, bins, values.slice(0, 1000), SortOrder::descending, pool);
    s.queue.read(bins, std::span<cl_uint>(back.data(), 1000));
    require(std::is_sorted(back.begin(), back.begin() + 1000, std::greater<>()),
            "algorithms: sort_by_key with a pool");
}

void device_queries() {
    const Device device = openclaw_test::pick_device();
    const Platform platform = device.platform();
    require(!platform.name().empty() && !platform.vendor().empty(), "device_queries: platform");
    require(platform.version() >= Version{1, 2}, "device_queries: platform version");
    for (const Device& each : platform.devices()) {
        require(!each.name().empty() && each.is_available(), "device_queries: device");
        require(each.version() >= Version{1, 2} && each.opencl_c_version() >= Version{1, 2},
                "device_queries: versions");
        require(each.max_work_item_sizes().size() >= 1 && each.max_work_group_size() >= 1,
                "device_queries: sizes");
        require(each.mem_base_addr_align() > 0 && each.local_mem_size() > 0,
                "device_queries: memory");
        require(!each.extensions().empty() && !each.supports_extension("cl_no_such_thing"),
                "device_queries: extensions");
        (void)each.type();
        (void)each.driver_version();
    }
    require(platform.devices(DeviceType::all).size() >= 1, "device_queries: device list");
    // Sub-devices of one compute unit each, where the device can be split (PoCL's CPU device).
    const auto ways = device.info<CL_DEVICE_PARTITION_PROPERTIES>();
    if (device.max_compute_units() >= 2 &&
        std::find(ways.begin(), ways.end(), CL_DEVICE_PARTITION_EQUALLY) != ways.end()) {
        const std::vector<Device> parts = device.partition_equally(1);
        require(parts.size() >= 2 && parts[0].max_compute_units() == 1,
                "device_queries: sub-devices");
    }
}

struct Scenario {
    const char* name;
    void (*run)();
};

constexpr std::array scenarios = {
    Scenario{"vector_add", &vector_add},
    Scenario{"transfers", &transfers},
    Scenario{"build_failure", &build_failure},
    Scenario{"launch_with_event", &launch_with_event},
    Scenario{"two_queues", &two_queues},
    Scenario{"copies", &copies},
    Scenario{"user_mistakes", &user_mistakes},
    Scenario{"device_queries", &device_queries},
    Scenario{"graph", &graph},
    Scenario{"pool", &pool},
    Scenario{"algorithms", &algorithms},
};

/// One line per value: a message with newlines (build logs) would break the format.
std::string one_line(std::string_view text) {
    std::string line(text);
    std::replace(line.begin(), line.end(), '\n', ' ');
    return line;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 2 && std::strcmp(argv[1], "--list") == 0) {
        for (const Scenario& scenario : scenarios) {
            std::printf("%s\n", scenario.name);
        }
        return 0;
    }
    const Scenario* chosen = nullptr;
    for (const Scenario& scenario : scenarios) {
        if (argc == 2 && std::strcmp(argv[1], scenario.name) == 0) {
            chosen = &scenario;
        }
    }
    if (chosen == nullptr) {
        std::fprintf(stderr, "usage: %s --list | <scenario>\n", argv[0]);
        return 2;
    }
    set_error_hook(&recording_hook);
    try {
        chosen->run();
        std::printf("outcome completed\n");
    } catch (const Error& error) {
        std::printf("outcome raised %s %d\nwhat %s\n", error.call().c_str(),
                    static_cast<int>(error.cl_code()), one_line(error.what()).c_str());
    } catch (const std::exception& error) {
        std::printf("outcome other %s\n", one_line(error.what()).c_str());
    }
    for (const std::string& what : expected_errors) {
        std::printf("expected %s\n", one_line(what).c_str());
    }
    const std::size_t hooks = std::min(hook_count.load(), hook_calls.size());
    for (std::size_t i = 0; i < hooks; ++i) {
        std::printf("hook %s %d\n", hook_calls[i].call, static_cast<int>(hook_calls[i].code));
    }
    return 0;
}
