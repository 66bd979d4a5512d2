// Coroutines: co_await on events resumes after the command completes (on openclaw's service
// thread, where blocking calls are allowed), when_all, and failures thrown at the co_await.
#include <openclaw/all.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "support/catch.hpp"
#include "support/fixture.hpp"
#include "task.hpp"  // examples/async_pipeline/task.hpp

using example::Task;
using openclaw::In;
using openclaw::InOut;
using openclaw::NDRange;
using openclaw::Out;
using openclaw_test::env;
using openclaw_test::has;

namespace {

constexpr const char* source = R"CLC(
__kernel void add(__global const int* a, __global const int* b, __global int* c) {
    const size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}
__kernel void scale(__global int* data, const int factor) {
    data[get_global_id(0)] *= factor;
}
)CLC";

const openclaw::Program& program() {
    static const openclaw::Program built = openclaw::Program::build(env().context, source);
    return built;
}

// Several stages, each awaited: write two chunks on two queues, add, scale, read.
Task<std::vector<int>> pipeline(int chunk, std::size_t n) {
    const openclaw::Queue upload{env().context, env().device};
    const openclaw::Queue compute{env().context, env().device};
    openclaw::PinnedBuffer<int> a{upload, n};
    openclaw::PinnedBuffer<int> b{upload, n};
    for (std::size_t i = 0; i < n; ++i) {
        a[i] = static_cast<int>(i) + chunk;
        b[i] = chunk * 1000;
    }
    const openclaw::ReadOnlyBuffer<int> da{env().context, n};
    const openclaw::ReadOnlyBuffer<int> db{env().context, n};
    const openclaw::ReadWriteBuffer<int> dc{env().context, n};
    co_await openclaw::when_all(upload.write(da, a, openclaw::nonblocking),
                                compute.write(db, b, openclaw::nonblocking));
    auto add = program().kernel<In<int>, In<int>, Out<int>>("add");
    co_await compute.enqueue(add.set_args(da, db, dc), NDRange{n}, openclaw::with_event);
    auto scale = program().kernel<InOut<int>, cl_int>("scale");
    co_await compute.enqueue(scale.set_args(dc, 3), NDRange{n}, openclaw::with_event);
    // After a co_await the coroutine runs on openclaw's thread: a blocking read is fine here.
    std::vector<int> result(n);
    compute.read(dc, result);
    co_return result;
}

}  // namespace

TEST_CASE("a coroutine pipeline awaits each stage and computes the right result") {
    const std::size_t n = 4096;
    std::vector<Task<std::vector<int>>> tasks;
    for (int chunk = 0; chunk < 4; ++chunk) {
        tasks.push_back(pipeline(chunk, n));
    }
    for (int chunk = 0; chunk < 4; ++chunk) {
        const std::vector<int> result = tasks[static_cast<std::size_t>(chunk)].get();
        REQUIRE(result.size() == n);
        for (std::size_t i = 0; i < n; i += 101) {
            CHECK(result[i] == 3 * (static_cast<int>(i) + chunk + chunk * 1000));
        }
    }
}

TEST_CASE("a completed event does not suspend, an empty when_all neither") {
    const openclaw::ReadWriteBuffer<int> data{env().context, 16};
    const openclaw::Event done = env().queue.fill(data.slice(0, 16), 4, openclaw::with_event);
    done.wait();
    CHECK(openclaw::EventAwaiter(done).await_ready());
    CHECK(openclaw::when_all(std::span<const openclaw::Event>{}).await_ready());
}

#if defined(__linux__)
namespace {
// The threads of this process named "openclaw" (the service thread names itself), and whether
// the calling thread is one of them.
std::size_t openclaw_threads() {
    std::size_t count = 0;
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
        std::ifstream comm(task.path() / "comm");
        std::string name;
        std::getline(comm, name);
        count += name == "openclaw" ? 1 : 0;
    }
    return count;
}
bool on_openclaw_thread() {
    std::ifstream comm("/proc/thread-self/comm");
    std::string name;
    std::getline(comm, name);
    return name == "openclaw";
}

Task<bool> resumed_on_service_thread(const openclaw::Event& event) {
    co_await event;
    co_return on_openclaw_thread();
}
}  // namespace

TEST_CASE("coroutines and the completion callbacks' poll share one service thread") {
    // A failed user event: PoCL never calls its completion callback, so the service thread's poll
    // runs it; a coroutine awaiting a completed command resumes on the same thread.
    const openclaw::UserEvent gate{env().context};
    std::atomic<int> ran_on_service{-1};
    gate.on_complete([&](cl_int) { ran_on_service = on_openclaw_thread() ? 1 : 0; });
    gate.fail(-3);
    // The task starts at once and suspends on a user event that is not complete yet.
    const openclaw::UserEvent go{env().context};
    Task<bool> awaiting = resumed_on_service_thread(go);
    go.complete();
    CHECK(awaiting.get());
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (ran_on_service.load() < 0 && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    // The driver may call the callback itself (NVIDIA does, on a thread of its own); PoCL leaves
    // it to the poll, on the service thread.
    CHECK(ran_on_service.load() >= 0);
    if (env().device.platform().name().find("Portable") != std::string::npos) {
        CHECK(ran_on_service.load() == 1);
    }
    CHECK(openclaw_threads() == 1);
}
#endif
