// Events and asynchronous work: wait lists across queues (a race would show as wrong data),
// user events, markers and barriers, profiling, callbacks that fire exactly once, kernel clones.
#include <openclaw/all.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <string_view>
#include <thread>
#include <vector>

#include "support/allocations.hpp"
#include "support/catch.hpp"
#include "support/fixture.hpp"

using openclaw::In;
using openclaw::InOut;
using openclaw::NDRange;
using openclaw::Out;
using openclaw_test::env;
using openclaw_test::has;
using openclaw_test::thrown;

namespace {

constexpr const char* source = R"CLC(
__kernel void produce(__global uint* out, const uint base, const uint spin) {
    const size_t i = get_global_id(0);
    uint v = base + (uint)i;
    // Busy work that makes the producer slow enough to race a consumer; its result is kept
    // (in out[i] only when spin is odd, which the tests never ask for) so it is not optimized out.
    for (uint k = 0; k < spin; ++k) {
        v = v * 1664525u + 1013904223u;
        v = (v ^ (v >> 7)) - (v << 3);
    }
    out[i] = (spin & 1u) ? v : base + (uint)i;
}
__kernel void consume(__global const uint* in, __global uint* out) {
    out[get_global_id(0)] = in[get_global_id(0)] * 2u;
}
)CLC";

const openclaw::Program& program() {
    static const openclaw::Program built = openclaw::Program::build(env().context, source);
    return built;
}

template <class Predicate>
bool eventually(Predicate done) {
    for (int i = 0; i < 2000 && !done(); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return done();
}

}  // namespace

TEST_CASE("a chain across two out-of-order queues is ordered by its wait lists") {
    const openclaw::QueueOptions unordered{.out_of_order = true};
    const auto supported = env().device.info<0x102A /* CL_DEVICE_QUEUE_PROPERTIES */>();
    const bool ooo = (supported & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
    const openclaw::Queue first{env().context, env().device,
                                ooo ? unordered : openclaw::QueueOptions{}};
    const openclaw::Queue second{env().context, env().device,
                                 ooo ? unordered : openclaw::QueueOptions{}};
    const std::size_t n = 1 << 16;
    const openclaw::ReadWriteBuffer<cl_uint> middle{env().context, n};
    const openclaw::ReadWriteBuffer<cl_uint> out{env().context, n};
    auto produce = program().kernel<Out<cl_uint>, cl_uint, cl_uint>("produce");
    auto consume = program().kernel<In<cl_uint>, Out<cl_uint>>("consume");
    std::vector<cl_uint> host(n);
    std::size_t wrong = 0;
    for (cl_uint round = 0; round < 20; ++round) {
        const openclaw::Event produced = first.enqueue(produce.set_args(middle, round * 1000u, 64u),
                                                       NDRange{n}, openclaw::with_event);
        const openclaw::Event consumed =
            second.enqueue(consume.set_args(middle, out), NDRange{n}, {}, openclaw::with_event,
                           openclaw::after(produced));
        first.read(out, host, openclaw::after(consumed));
        for (std::size_t i = 0; i < n; i += 97) {
            wrong += host[i] == 2 * (round * 1000u + static_cast<cl_uint>(i)) ? 0 : 1;
        }
    }
    CHECK(wrong == 0);
}

TEST_CASE("a user event holds work back until the host completes it") {
    const std::size_t n = 1024;
    const openclaw::ReadWriteBuffer<cl_uint> data{env().context, n};
    env().queue.fill(data, 0u);
    env().queue.finish();
    const openclaw::Queue queue{env().context, env().device};
    auto produce = program().kernel<Out<cl_uint>, cl_uint, cl_uint>("produce");
    const openclaw::UserEvent gate{env().context};
    const openclaw::Event run = queue.enqueue(produce.set_args(data, 5u, 0u), NDRange{n}, {},
                                              openclaw::with_event, openclaw::after(gate));
    queue.flush();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK_FALSE(run.is_complete());  // still waiting for the gate
    gate.complete();
    run.wait();
    std::vector<cl_uint> host(n);
    queue.read(data, host);
    CHECK(host[3] == 5u + 3u);

    const auto twice = thrown<openclaw::Error>([&] { gate.complete(); });
    REQUIRE(twice);
    CHECK(twice->call() == "clSetUserEventStatus");
    CHECK(twice->cl_code() == CL_INVALID_OPERATION);
    CHECK_THAT(twice->what(), has("can be set once (it is already CL_COMPLETE)"));
    const auto failed_after = thrown<openclaw::Error>([&] { gate.fail(-1); });
    REQUIRE(failed_after);
    CHECK(failed_after->cl_code() == CL_INVALID_OPERATION);
    const auto positive = thrown<openclaw::Error>([&] { gate.fail(3); });
    REQUIRE(positive);
    CHECK_THAT(positive->what(), has("a failure code must be negative, got 3"));
}

TEST_CASE("a command waiting for a failed user event does not run") {
    const openclaw::Queue queue{env().context, env().device};
    const openclaw::ReadWriteBuffer<cl_uint> data{env().context, 64};
    const openclaw::UserEvent gate{env().context};
    const openclaw::Event fill =
        queue.fill(data.slice(0, 64), 1u, openclaw::with_event, openclaw::after(gate));
    gate.fail(-100);
    const auto error = thrown<openclaw::Error>([&] { fill.wait(); });
    REQUIRE(error);
    CHECK(error->call() == "clWaitForEvents");
    // The driver's code, and the command's negative execution status as what it is, not as a
    // code of the wait (PoCL passes the user event's -100 on).
    CHECK(error->cl_code() == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    const cl_int status = fill.status();
    CHECK(status < 0);
    CHECK_THAT(error->what(), has("CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST") &&
                                  has("its execution status is " + std::to_string(status)));
}

TEST_CASE("markers and barriers complete after what they wait for") {
    const openclaw::ReadWriteBuffer<cl_uint> a{env().context, 256};
    const openclaw::ReadWriteBuffer<cl_uint> b{env().context, 256};
    const openclaw::Event fa = env().queue.fill(a.slice(0, 256), 1u, openclaw::with_event);
    const openclaw::Event fb = env().queue.fill(b.slice(0, 256), 2u, openclaw::with_event);
    const openclaw::Event marker = env().queue.marker(openclaw::after(fa, fb));
    marker.wait();
    CHECK(fa.is_complete());
    CHECK(fb.is_complete());
    const openclaw::Event all = env().queue.barrier();
    all.wait();
    CHECK(all.info<CL_EVENT_COMMAND_TYPE>() == static_cast<cl_command_type>(CL_COMMAND_BARRIER));
    openclaw::Event::wait_all(std::vector<openclaw::Event>{fa, fb, marker});
}

TEST_CASE("profiled commands report monotone timestamps") {
    const openclaw::Queue profiled{env().context, env().device, {.profiling = true}};
    const std::size_t n = 1 << 16;
    const openclaw::ReadWriteBuffer<cl_uint> data{env().context, n};
    auto produce = program().kernel<Out<cl_uint>, cl_uint, cl_uint>("produce");
    for (int round = 0; round < 5; ++round) {
        const openclaw::Event event =
            profiled.enqueue(produce.set_args(data, 1u, 32u), NDRange{n}, openclaw::with_event);
        event.wait();
        const openclaw::Profile profile = event.profile();
        CHECK(profile.queued <= profile.submitted);
        CHECK(profile.submitted <= profile.started);
        CHECK(profile.started <= profile.ended);
        CHECK(profile.ended > profile.queued);
        CHECK(event.duration() == profile.duration());
        CHECK(profile.latency() >= std::chrono::nanoseconds{0});
    }
    const openclaw::Event unprofiled =
        env().queue.enqueue(produce.set_args(data, 1u, 0u), NDRange{n}, openclaw::with_event);
    unprofiled.wait();
    const auto error = thrown<openclaw::Error>([&] { (void)unprofiled.profile(); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_PROFILING_INFO_NOT_AVAILABLE);
    CHECK_THAT(error->what(), has("create the queue with {.profiling = true}"));
}

TEST_CASE("callbacks run exactly once and keep their event alive") {
    const int count = 50;
    std::atomic<int> calls{0};
    std::atomic<int> completed{0};
    const auto token = std::make_shared<int>(7);  // captured by every callback
    const openclaw::ReadWriteBuffer<cl_uint> data{env().context, 1024};
    for (int i = 0; i < count; ++i) {
        // The Event handle is dropped at once: the callback's state keeps the event alive.
        env()
            .queue.fill(data.slice(0, 1024), static_cast<cl_uint>(i), openclaw::with_event)
            .on_complete([&calls, &completed, token](cl_int status) {
                ++calls;
                completed += status == CL_COMPLETE ? 1 : 0;
            });
    }
    env().queue.finish();
    CHECK(eventually([&] { return calls.load() == count; }));
    CHECK(completed.load() == count);
    // Every callback's state, with its copy of `token`, was freed after it ran.
    CHECK(eventually([&] { return token.use_count() == 1; }));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK(calls.load() == count);  // and none ran twice
}

TEST_CASE("callbacks of failed commands run once, with the failure, and free their state") {
    // PoCL never calls the completion callback of a command its failed wait list terminated;
    // openclaw runs such a callback itself once the event has failed, and frees its state (and
    // with it the reference to the event) either way.
    const int count = 20;
    std::atomic<int> calls{0};
    std::atomic<int> failed{0};
    const auto token = std::make_shared<int>(7);
    const openclaw::ReadWriteBuffer<cl_uint> data{env().context, 64};
    const openclaw::UserEvent gate{env().context};
    for (int i = 0; i < count; ++i) {
        env()
            .queue
            .fill(data.slice(0, 64), static_cast<cl_uint>(i), openclaw::with_event,
                  openclaw::after(gate))
            .on_complete([&calls, &failed, token](cl_int status) {
                ++calls;
                failed += status < 0 ? 1 : 0;
            });
    }
    // The user event itself, failed: its own callback runs with the failure too.
    gate.on_complete([&calls, &failed, token](cl_int status) {
        ++calls;
        failed += status < 0 ? 1 : 0;
    });
    gate.fail(-5);
    CHECK(eventually([&] { return calls.load() == count + 1; }));
    CHECK(failed.load() == count + 1);
    CHECK(eventually([&] { return token.use_count() == 1; }));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(calls.load() == count + 1);  // none ran twice
}

namespace {
std::atomic<cl_int> seen_status{1};
}  // namespace

TEST_CASE(
    "a driver that calls back with CL_COMPLETE for a failed event still reports the failure") {
    // NVIDIA's driver (580) calls the callback of a failed event with CL_COMPLETE, the status it
    // was registered for: the callback is given the event's own status. Called here as the
    // driver calls it, with the table's key.
    using Table = openclaw::detail::CompletionCallbacks;
    const openclaw::UserEvent gate{env().context};
    gate.fail(-7);
    seen_status = 1;
    void* const key = Table::add(
        gate.get(), new int(0),
        [](void* state, cl_int status) noexcept {
            seen_status = status;
            delete static_cast<int*>(state);
        },
        [](void* state) noexcept { delete static_cast<int*>(state); });
    Table::from_driver(gate.get(), CL_COMPLETE, key);
    CHECK(seen_status.load() == -7);
    // A late second call with the same key finds nothing and runs nothing.
    seen_status = 1;
    Table::from_driver(gate.get(), CL_COMPLETE, key);
    CHECK(seen_status.load() == 1);
    // A completed event keeps its CL_COMPLETE.
    const openclaw::UserEvent done{env().context};
    done.complete();
    void* const other = Table::add(
        done.get(), new int(0),
        [](void* state, cl_int status) noexcept {
            seen_status = status;
            delete static_cast<int*>(state);
        },
        [](void* state) noexcept { delete static_cast<int*>(state); });
    Table::from_driver(done.get(), CL_COMPLETE, other);
    CHECK(seen_status.load() == CL_COMPLETE);
}

namespace users_code {
// A function of the user's that happens to be named `after` and takes openclaw objects: an
// unqualified call must reach it (argument-dependent lookup must not offer openclaw::after,
// whose template would match better and then refuse the arguments at compile time).
int after(const openclaw::Device& device, const char* label) {
    return device ? static_cast<int>(std::string_view(label).size()) : -1;
}
int call_after(openclaw::Device& device, char* label) {
    return after(device, label);
}
}  // namespace users_code

TEST_CASE("a caller's own function named after is not hijacked by openclaw::after") {
    openclaw::Device device = env().device;
    char label[] = "four";
    CHECK(users_code::call_after(device, label) == 4);
    // openclaw::after itself, qualified or through a using-declaration.
    using openclaw::after;
    const openclaw::UserEvent gate{env().context};
    const openclaw::WaitList list = after(gate);
    CHECK(list.size() == 1);
    gate.complete();
}

TEST_CASE("wait lists hold short lists inline and long ones on the heap") {
    std::vector<openclaw::Event> events;
    const openclaw::ReadWriteBuffer<cl_uint> data{env().context, 64};
    for (int i = 0; i < 20; ++i) {
        events.push_back(env().queue.fill(data.slice(0, 64), 0u, openclaw::with_event));
    }
    const std::size_t before = openclaw_test::allocations_on_this_thread();
    const openclaw::WaitList short_list = openclaw::after(events[0], events[1], events[2]);
    CHECK(openclaw_test::allocations_on_this_thread() == before);  // inline
    CHECK(short_list.size() == 3);
    CHECK(short_list.data()[2] == events[2].get());
    const openclaw::WaitList long_list = openclaw::after(events);
    CHECK(long_list.size() == 20);
    CHECK(long_list.data()[19] == events[19].get());
    CHECK(long_list.data()[0] == events[0].get());
    env().queue.marker(long_list).wait();

    // after() has no OnError of its own: an empty event makes the list invalid, and the command
    // given the list refuses it, reporting to that command's OnError.
    const openclaw::WaitList broken = openclaw::after(events[0], openclaw::Event{}, events[1]);
    CHECK_FALSE(broken.valid());
    const auto error = thrown<openclaw::Error>([&] { (void)env().queue.marker(broken); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_EVENT_WAIT_LIST);
    CHECK(error->call() == "clEnqueueMarkerWithWaitList");
    CHECK_THAT(error->what(), has("event 1 of the wait list is empty"));
    std::error_code ec;
    const openclaw::Event none = env().queue.marker(broken, ec);
    CHECK(ec == openclaw::make_error_code(CL_INVALID_EVENT_WAIT_LIST));
    CHECK_FALSE(none);
    std::vector<cl_uint> host(64);
    const auto read_error = thrown<openclaw::Error>([&] { env().queue.read(data, host, broken); });
    REQUIRE(read_error);
    CHECK(read_error->call() == "clEnqueueReadBuffer");
    CHECK(openclaw::after(events[0], events[1]).valid());
}

TEST_CASE("a cloned kernel has its own arguments") {
    const std::size_t n = 256;
    const openclaw::ReadWriteBuffer<cl_uint> a{env().context, n};
    const openclaw::ReadWriteBuffer<cl_uint> b{env().context, n};
    auto produce = program().kernel<Out<cl_uint>, cl_uint, cl_uint>("produce");
    produce.set_args(a, 10u, 0u);
    auto copy = produce.clone();
    CHECK(copy.get() != produce.get());
    copy.set_args(b, 20u, 0u);  // does not touch the original's arguments
    env().queue.enqueue(produce, NDRange{n});
    env().queue.enqueue(copy, NDRange{n});
    std::vector<cl_uint> ha(n), hb(n);
    env().queue.read(a, ha);
    env().queue.read(b, hb);
    CHECK(ha[1] == 11u);
    CHECK(hb[1] == 21u);
}

TEST_CASE("a blocking transfer whose wait list fails reports it instead of returning stale data") {
    const openclaw::Queue queue{env().context, env().device};
    const openclaw::ReadWriteBuffer<cl_uint> data{env().queue, std::vector<cl_uint>(64, 7u)};
    std::vector<cl_uint> host(64, 0u);
    SECTION("an event that fails while the read waits for it") {
        const openclaw::UserEvent gate{env().context};
        std::thread failer([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            gate.fail(-5);
        });
        const auto error =
            thrown<openclaw::Error>([&] { queue.read(data, host, openclaw::after(gate)); });
        failer.join();
        REQUIRE(error);
        CHECK(error->cl_code() == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        CHECK_THAT(error->what(), has("clEnqueueReadBuffer"));
        CHECK(host == std::vector<cl_uint>(64, 0u));  // nothing was read
    }
    SECTION("an event that failed before the call: refused, not hung") {
        const openclaw::UserEvent gate{env().context};
        gate.fail(-5);
        for (int form = 0; form < 3; ++form) {
            INFO("form " << form);
            const auto error = thrown<openclaw::Error>([&] {
                if (form == 0) {
                    queue.read(data, host, openclaw::after(gate));
                } else if (form == 1) {
                    queue.write(data, host, openclaw::after(gate));
                } else {
                    (void)queue.map_read(data, openclaw::after(gate));
                }
            });
            REQUIRE(error);
            CHECK(error->cl_code() == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
            CHECK_THAT(error->what(), has("event 0 of the wait list has failed (its execution "
                                          "status is -5"));
        }
        // The buffer is not left mapped by the refused map.
        queue.write(data, host);
    }
}

TEST_CASE("an event of another context in a wait list is refused, naming the event") {
    const openclaw::Context other{env().device};
    const openclaw::UserEvent foreign{other};
    foreign.complete();
    const openclaw::ReadWriteBuffer<cl_uint> data{env().queue, std::vector<cl_uint>(8, 1u)};
    std::vector<cl_uint> host(8);
    const auto read = thrown<openclaw::Error>(
        [&] { env().queue.read(data, host, openclaw::after(env().queue.marker(), foreign)); });
    REQUIRE(read);
    CHECK(read->cl_code() == CL_INVALID_CONTEXT);
    CHECK_THAT(read->what(), has("clEnqueueReadBuffer") &&
                                 has("event 1 of the wait list belongs to another context"));
    const auto marker =
        thrown<openclaw::Error>([&] { (void)env().queue.marker(openclaw::after(foreign)); });
    REQUIRE(marker);
    CHECK_THAT(marker->what(), has("clEnqueueMarkerWithWaitList") && has("event 0"));
}

TEST_CASE("a blocking read asked for its event gives none when its dependency failed") {
    const openclaw::Queue queue{env().context, env().device};
    const openclaw::ReadWriteBuffer<cl_uint> data{env().queue, std::vector<cl_uint>(16, 3u)};
    std::vector<cl_uint> host(16, 0u);
    const openclaw::UserEvent gate{env().context};
    std::thread failer([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        gate.fail(-5);
    });
    std::error_code ec;
    const openclaw::Event read =
        queue.read(data, host, openclaw::with_event, openclaw::after(gate), ec);
    failer.join();
    CHECK(ec == openclaw::make_error_code(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST));
    CHECK_FALSE(read);  // released, not leaked (the leak checks run this test too)
    CHECK(host == std::vector<cl_uint>(16, 0u));
}

namespace {
std::atomic<int> hook_reports{0};
void count_report(const char*, cl_int) noexcept {
    ++hook_reports;
}
}  // namespace

TEST_CASE("a failed dependency is reported with the user's own status, marked as a user status") {
    const openclaw::Queue queue{env().context, env().device};
    const openclaw::ReadWriteBuffer<cl_uint> data{env().context, 64};
    auto produce = program().kernel<Out<cl_uint>, cl_uint, cl_uint>("produce");
    produce.set_args(data, 1u, 2u);
    const openclaw::UserEvent gate{env().context};
    const openclaw::Event launch =
        queue.enqueue(produce, NDRange{64}, openclaw::with_event, openclaw::after(gate));
    auto transfer = queue.read(data, openclaw::nonblocking, openclaw::after(launch));
    gate.fail(-7);
    // The launch waited for the user event: whatever code the driver gives it, the message
    // names the user's -7 as a user status, never as the OpenCL code that has that number.
    const auto launched = thrown<openclaw::Error>([&] { launch.wait(); });
    REQUIRE(launched);
    const std::string text = launched->what();
    CHECK_THAT(text, has("-7"));
    CHECK_THAT(text, has("user status"));
    CHECK_THAT(text, !has("CL_PROFILING_INFO_NOT_AVAILABLE"));
    if (launch.status() != -7) {
        CHECK_THAT(text, has("the origin: a user event of its context failed with -7, a user "
                             "status"));
    }
    // A wait list holding the user event itself: its status, marked as the user's.
    std::vector<cl_uint> host(64);
    const auto blocked =
        thrown<openclaw::Error>([&] { queue.read(data, host, openclaw::after(gate)); });
    REQUIRE(blocked);
    CHECK_THAT(blocked->what(), has("event 0 of the wait list has failed (its execution status is "
                                    "-7, a user status (UserEvent::fail))"));
    // HostTransfer::get() reports the failure once: its destructor does not report it again.
    hook_reports = 0;
    const openclaw::ErrorHook previous = openclaw::set_error_hook(&count_report);
    {
        const auto got = thrown<openclaw::Error>([&] { (void)std::move(transfer).get(); });
        REQUIRE(got);
        CHECK_THAT(got->what(), has("user status"));
        CHECK_THAT(got->what(), !has("CL_PROFILING_INFO_NOT_AVAILABLE"));
    }
    {
        const openclaw::UserEvent second{env().context};
        auto waited = queue.read(data, openclaw::nonblocking, openclaw::after(second));
        second.fail(-3);
        openclaw::Status status;
        waited.wait(status);
        CHECK(!status.ok());
        CHECK_THAT(status.what(), has("-3"));
    }  // destroyed after a reported failure: no second report
    openclaw::set_error_hook(previous);
    CHECK(hook_reports == 0);
}
