// MemoryPool: buffers handed out are plain typed buffers with the requested size; memory comes
// back when the last copy goes and is reused only after the commands before its return have
// completed and nothing else references it; a steady loop holds a flat amount; limits, trim,
// statistics and the errors of bad requests.
#include <openclaw/all.hpp>
#include <openclaw/pool.hpp>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "support/catch.hpp"
#include "support/fixture.hpp"

using openclaw::InOut;
using openclaw::MemoryPool;
using openclaw::NDRange;
using openclaw::PoolOptions;
using openclaw_test::env;
using openclaw_test::has;
using openclaw_test::thrown;

namespace {

constexpr const char* source = R"CLC(
__kernel void add(__global int* data, const int value) { data[get_global_id(0)] += value; }
)CLC";

const openclaw::Program& program() {
    static const openclaw::Program built = openclaw::Program::build(env().context, source);
    return built;
}

// Waits (at most 2 s) until no returned memory is pending: its marker done, and the driver's own
// references to it dropped (PoCL drops them a moment after the commands complete).
void settle(MemoryPool& pool) {
    for (int i = 0; i < 200 && pool.stats().bytes_pending != 0; ++i) {
        (void)pool.trim(static_cast<std::size_t>(-1));  // waits for markers, releases nothing
        if (pool.stats().bytes_pending != 0) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    }
}

}  // namespace

TEST_CASE("a pooled buffer is a typed buffer of the requested size that works as any other") {
    MemoryPool pool{env().queue};
    auto buffer = pool.allocate<cl_int>(1000);
    static_assert(std::is_same_v<decltype(buffer), openclaw::ReadWriteBuffer<cl_int>>);
    REQUIRE(buffer);
    CHECK(buffer.size() == 1000);
    const auto read_only = pool.allocate<float, openclaw::ReadOnly>(10);
    static_assert(std::is_same_v<decltype(read_only), const openclaw::ReadOnlyBuffer<float>>);
    CHECK(read_only.size() == 10);

    std::vector<cl_int> data(1000, 5);
    env().queue.write(buffer, data);
    auto add = program().kernel<InOut<cl_int>, cl_int>("add");
    env().queue.enqueue(add.set_args(buffer, 2), NDRange{1000});
    std::vector<cl_int> back(1000);
    env().queue.read(buffer, back);
    CHECK(back == std::vector<cl_int>(1000, 7));
    // The range checks see the requested size, not the pool's rounding (4096 bytes here).
    const auto past =
        thrown<openclaw::Error>([&] { env().queue.read(buffer.slice(990, 20), back); });
    REQUIRE(past);
    CHECK_THAT(past->what(), has("1000"));

    const openclaw::PoolStats stats = pool.stats();
    CHECK(stats.allocations == 2);
    CHECK(stats.created == 2);
    CHECK(stats.bytes_held == 4096 + 256);
    CHECK(stats.bytes_in_use == 4096 + 256);
}

TEST_CASE("pooled memory is reused only after the commands before its return have completed") {
    auto add = program().kernel<InOut<cl_int>, cl_int>("add");
    MemoryPool pool{env().queue};
    cl_mem first = nullptr;
    openclaw::UserEvent gate{env().context};
    {
        const auto buffer = pool.allocate<cl_int>(64);
        first = buffer.get();
        env().queue.fill(buffer, 1);
        add.set_args(buffer, 1);
        env().queue.enqueue(add, NDRange{64}, NDRange{}, openclaw::after(gate));
        env().queue.flush();
    }  // returned while its kernel waits for the gate
    add = program().kernel<InOut<cl_int>, cl_int>("add");  // the old kernel's reference goes
    {
        const auto second = pool.allocate<cl_int>(64);
        CHECK(second.get() != first);  // the kernel has not run: not reused
        CHECK(pool.stats().bytes_pending == 256);
    }
    gate.complete();
    env().queue.finish();
    settle(pool);
    const auto third = pool.allocate<cl_int>(64);
    CHECK((third.get() == first || pool.stats().created == 2));
    const openclaw::PoolStats stats = pool.stats();
    CHECK(stats.created == 2);  // the third reused one of the two
    CHECK(stats.buffers_held == 2);
}

TEST_CASE("pooled memory still referenced by a kernel is not handed out again") {
    MemoryPool pool{env().queue};
    auto add = program().kernel<InOut<cl_int>, cl_int>("add");
    cl_mem held = nullptr;
    {
        const auto buffer = pool.allocate<cl_int>(16);
        held = buffer.get();
        add.set_args(buffer, 1);  // the kernel keeps the memory object
    }
    env().queue.finish();
    {
        const auto next = pool.allocate<cl_int>(16);
        CHECK(next.get() != held);
    }
    add.forget_arguments();
    add = program().kernel<InOut<cl_int>, cl_int>("add");
    env().queue.finish();
    settle(pool);
    const auto again = pool.allocate<cl_int>(16);
    CHECK(pool.stats().created == 2);  // one of the two came back
}

TEST_CASE("a steady loop of short-lived buffers holds a flat amount of memory") {
    // The host waits for each round, so each round's memory is reusable by the next. (A host
    // that runs ahead holds what is in flight: bench/pool_graph.cpp measures that.)
    auto add = program().kernel<InOut<cl_int>, cl_int>("add");
    MemoryPool pool{env().queue};
    std::size_t held_after_warmup = 0;
    std::vector<cl_int> back(256);
    for (int round = 0; round < 200; ++round) {
        const auto a = pool.allocate<cl_int>(256);
        const auto b = pool.allocate<cl_int>(1024);
        env().queue.fill(a, round);
        env().queue.enqueue(add.set_args(a, 1), NDRange{256});
        env().queue.copy(a, b.slice(0, 256));
        if (round % 50 == 49) {
            env().queue.read(b.slice(0, 256), back);
            CHECK(back == std::vector<cl_int>(256, round + 1));
        }
        env().queue.finish();
        if (round == 50) {
            held_after_warmup = pool.stats().bytes_held;
        }
    }
    const openclaw::PoolStats stats = pool.stats();
    CHECK(stats.allocations == 400);
    // Two buffers a round; the round before's, whose marker the next allocation may find still
    // running (it is enqueued when the memory is first asked for again); the one the kernel
    // still holds. Bounded whatever the number of rounds: measured 4 on PoCL, 6 on the H200.
    CHECK(stats.created <= 6);
    CHECK(stats.bytes_held <= 3 * (1024 + 4096));
    CHECK(stats.bytes_held >= held_after_warmup);
    CHECK(stats.peak_bytes_held == stats.bytes_held);
}

TEST_CASE("trim releases idle memory, and a limit bounds what the pool holds") {
    MemoryPool pool{env().queue};
    {
        std::vector<openclaw::ReadWriteBuffer<cl_int>> many;
        for (int i = 0; i < 8; ++i) {
            many.push_back(pool.allocate<cl_int>(1024));
        }
    }
    env().queue.finish();
    CHECK(pool.stats().bytes_held == 8 * 4096);
    const std::size_t released = pool.trim(4096);
    CHECK(released == 7 * 4096);
    CHECK(pool.stats().bytes_held == 4096);
    CHECK(pool.stats().released == 7);
    CHECK(pool.trim() == 4096);
    CHECK(pool.stats().buffers_held == 0);

    MemoryPool limited{env().queue, PoolOptions{.max_bytes = 3 * 4096}};
    const auto a = limited.allocate<cl_int>(1024);
    const auto b = limited.allocate<cl_int>(1024);
    auto c = limited.allocate<cl_int>(1024);
    const auto over = thrown<openclaw::Error>([&] { (void)limited.allocate<cl_int>(1024); });
    REQUIRE(over);
    CHECK(over->cl_code() == CL_MEM_OBJECT_ALLOCATION_FAILURE);
    CHECK_THAT(over->what(), has("PoolOptions::max_bytes is 12288"));
    c = openclaw::ReadWriteBuffer<cl_int>{};        // its memory goes back
    const auto e = limited.allocate<cl_int>(1024);  // waits for the queue, then reuses
    CHECK(limited.stats().created == 3);
}

TEST_CASE("a pool refuses bad requests, naming the call and the numbers") {
    MemoryPool pool{env().queue};
    const auto zero = thrown<openclaw::Error>([&] { (void)pool.allocate<cl_int>(0); });
    REQUIRE(zero);
    CHECK(zero->cl_code() == CL_INVALID_BUFFER_SIZE);
    CHECK(zero->call() == "MemoryPool::allocate");
    const auto huge = thrown<openclaw::Error>(
        [&] { (void)pool.allocate<cl_int>(static_cast<std::size_t>(-1) / 2); });
    REQUIRE(huge);
    CHECK_THAT(huge->what(), has("overflows size_t"));
    // Above the device's largest allocation: refused with that limit, before the driver.
    const auto most = static_cast<std::size_t>(env().device.max_mem_alloc_size());
    const std::size_t past = most / sizeof(cl_int) + 1;
    const auto too_large = thrown<openclaw::Error>([&] { (void)pool.allocate<cl_int>(past); });
    REQUIRE(too_large);
    CHECK(too_large->cl_code() == CL_INVALID_BUFFER_SIZE);
    CHECK_THAT(too_large->what(),
               has("exceed the largest allocation the queue's device allows, " +
                   std::to_string(most) + " bytes (CL_DEVICE_MAX_MEM_ALLOC_SIZE)"));
    CHECK(pool.stats().allocations == 0);
    MemoryPool none;
    const auto empty = thrown<openclaw::Error>([&] { (void)none.allocate<cl_int>(4); });
    REQUIRE(empty);
    CHECK_THAT(empty->what(), has("empty"));
    std::error_code ec;
    const auto nothing = none.allocate<cl_int>(4, ec);
    CHECK_FALSE(nothing);
    CHECK(ec == openclaw::make_error_code(CL_INVALID_VALUE));
}

TEST_CASE("a pooled buffer may outlive its pool") {
    openclaw::ReadWriteBuffer<cl_int> kept;
    {
        MemoryPool pool{env().queue};
        kept = pool.allocate<cl_int>(8);
        const auto idle = pool.allocate<cl_int>(8);
    }
    env().queue.fill(kept, 9);
    std::vector<cl_int> back(8);
    env().queue.read(kept, back);
    CHECK(back == std::vector<cl_int>(8, 9));
}

TEST_CASE("in queue order, returned memory is handed out again before earlier commands ran") {
    // The queue is held behind a gate: nothing enqueued before the return has run. A pool that
    // reuses after completion makes a second memory object; one in queue order hands the same
    // memory out at once (the queue runs the new lease's commands after the old ones).
    for (const openclaw::PoolReuse reuse :
         {openclaw::PoolReuse::after_completion, openclaw::PoolReuse::queue_order}) {
        const bool in_order = reuse == openclaw::PoolReuse::queue_order;
        openclaw::UserEvent gate{env().context};
        const openclaw::Queue queue{env().context, env().device};
        MemoryPool pool{queue, PoolOptions{.reuse = reuse}};
        (void)queue.barrier(openclaw::after(gate));
        cl_mem first = nullptr;
        {
            const auto buffer = pool.allocate<cl_int>(64);
            first = buffer.get();
        }
        cl_mem second_mem = nullptr;
        bool driver_holds = false;
        {
            const auto second = pool.allocate<cl_int>(64);
            CHECK((second.get() == first) == in_order);
            CHECK(pool.stats().created == (in_order ? 1u : 2u));
            second_mem = second.get();
            queue.fill(second, 1);  // queued behind the gate
            // Drivers that count a queued command's reference (PoCL) hold the memory back until
            // the command has run, in either mode.
            cl_uint references = 0;
            REQUIRE(clGetMemObjectInfo(second.get(), CL_MEM_REFERENCE_COUNT, sizeof references,
                                       &references, nullptr) == CL_SUCCESS);
            driver_holds = references > 2;  // more than the buffer's and the pool's
        }
        const auto third = pool.allocate<cl_int>(64);
        CHECK((third.get() == second_mem) == (in_order && !driver_holds));
        // The queue's order keeps the leases' commands apart: the earlier fill runs first.
        queue.fill(third, 7);
        gate.complete();
        std::vector<cl_int> back(64);
        queue.read(third, back);
        CHECK(back == std::vector<cl_int>(64, 7));
    }
}

TEST_CASE("in queue order, a loop that runs ahead of the device computes the same results") {
    auto add = program().kernel<InOut<cl_int>, cl_int>("add");
    MemoryPool pool{env().queue, PoolOptions{.reuse = openclaw::PoolReuse::queue_order}};
    const openclaw::ReadWriteBuffer<cl_int> results{env().context, 300};
    for (int round = 0; round < 300; ++round) {
        const auto scratch = pool.allocate<cl_int>(round % 2 == 0 ? 256 : 1024);
        env().queue.fill(scratch, round);
        env().queue.enqueue(add.set_args(scratch, 1), NDRange{256});
        env().queue.copy(scratch.slice(0, 1), results.slice(static_cast<std::size_t>(round), 1));
    }  // no wait in the loop: each scratch goes back with its commands still queued
    std::vector<cl_int> back(300);
    env().queue.read(results, back);
    for (int round = 0; round < 300; ++round) {
        CHECK(back[static_cast<std::size_t>(round)] == round + 1);
    }
    CHECK(pool.stats().allocations == 300);
    CHECK(pool.stats().bytes_in_use == 0);
}

TEST_CASE("in queue order, memory a kernel still holds is not handed out again") {
    MemoryPool pool{env().queue, PoolOptions{.reuse = openclaw::PoolReuse::queue_order}};
    auto add = program().kernel<InOut<cl_int>, cl_int>("add");
    cl_mem held = nullptr;
    {
        const auto buffer = pool.allocate<cl_int>(16);
        held = buffer.get();
        add.set_args(buffer, 1);  // a later launch of `add` would use this memory
    }
    env().queue.finish();
    {
        const auto next = pool.allocate<cl_int>(16);
        CHECK(next.get() != held);
    }
    add = program().kernel<InOut<cl_int>, cl_int>("add");
    (void)pool.trim(static_cast<std::size_t>(-1));  // finishes the queue, releases nothing
    settle(pool);
    CHECK(pool.stats().bytes_pending == 0);
    const auto again = pool.allocate<cl_int>(16);
    CHECK(pool.stats().created == 2);  // one of the two came back
}

TEST_CASE("in queue order, a limit waits for the queue, and trim releases what it held") {
    MemoryPool limited{
        env().queue, PoolOptions{.max_bytes = 2 * 4096, .reuse = openclaw::PoolReuse::queue_order}};
    const auto a = limited.allocate<cl_int>(1024);
    auto b = limited.allocate<cl_int>(1024);
    const auto over = thrown<openclaw::Error>([&] { (void)limited.allocate<cl_int>(1024); });
    REQUIRE(over);
    CHECK(over->cl_code() == CL_MEM_OBJECT_ALLOCATION_FAILURE);
    CHECK_THAT(over->what(), has("PoolOptions::max_bytes is 8192"));
    env().queue.fill(b, 3);
    b = openclaw::ReadWriteBuffer<cl_int>{};       // back, its fill perhaps still queued
    const auto c = limited.allocate<cl_int>(256);  // another size: b's memory makes room
    CHECK(limited.stats().created == 3);
    CHECK(limited.stats().released == 1);
    CHECK(limited.stats().bytes_held == 4096 + 1024);
    CHECK(limited.trim() == 0);  // a and c are in use
}

TEST_CASE("queue-order reuse on an out-of-order queue is refused, naming why") {
    const auto supported = env().device.info<0x102A /* CL_DEVICE_QUEUE_PROPERTIES */>();
    if ((supported & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) == 0) {
        WARN("the device has no out-of-order queues: the refusal is not tried");
        return;
    }
    const openclaw::Queue unordered{env().context, env().device, {.out_of_order = true}};
    const auto refused = thrown<openclaw::Error>([&] {
        MemoryPool pool{unordered, PoolOptions{.reuse = openclaw::PoolReuse::queue_order}};
    });
    REQUIRE(refused);
    CHECK(refused->cl_code() == CL_INVALID_COMMAND_QUEUE);
    CHECK(refused->call() == "MemoryPool");
    CHECK_THAT(refused->what(), has("out-of-order"));
    // After completion, the default, works on any queue.
    MemoryPool any{unordered};
    const auto buffer = any.allocate<cl_int>(4);
    CHECK(buffer.size() == 4);
}

TEST_CASE("trim waits without holding the pool: buffers may come back meanwhile") {
    // Another thread returns a buffer, then completes what the queue waits for: a trim that held
    // the pool while it waited would never see the gate open.
    for (const openclaw::PoolReuse reuse :
         {openclaw::PoolReuse::after_completion, openclaw::PoolReuse::queue_order}) {
        const openclaw::Queue queue{env().context, env().device};
        MemoryPool pool{queue, PoolOptions{.reuse = reuse}};
        openclaw::UserEvent gate{env().context};
        auto held = pool.allocate<cl_int>(16);
        (void)queue.barrier(openclaw::after(gate));
        {
            const auto returned = pool.allocate<cl_int>(16);
            queue.fill(returned, 1);  // behind the gate: trim has commands to wait for
        }
        std::thread other([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            held = openclaw::ReadWriteBuffer<cl_int>{};  // back to the pool, during the trim
            gate.complete();
        });
        const std::size_t released = pool.trim();
        other.join();
        CHECK(pool.stats().bytes_in_use == 0);
        queue.finish();
        settle(pool);
        CHECK(released + pool.trim() == 2 * 256);  // both came back and were released
        CHECK(pool.stats().bytes_held == 0);
    }
}
