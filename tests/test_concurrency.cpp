// Concurrency: eight threads share one context, each with its own queue and kernel, writing,
// launching and reading back OPENCLAW_STRESS_ITERATIONS times (default 1000; lower it for slow
// runs such as valgrind's); eight threads launch kernels that read buffers they all share; eight
// threads copy and drop handles of the same objects at once. Every result is checked. The tsan
// preset runs these under ThreadSanitizer (docs/reliability.md has the timings).
#include <openclaw/all.hpp>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "support/catch.hpp"
#include "support/fixture.hpp"

using openclaw::In;
using openclaw::NDRange;
using openclaw::Out;
using openclaw_test::env;

namespace {

constexpr int thread_count = 8;
constexpr std::size_t n = 256;

constexpr const char* source = R"CLC(
__kernel void affine(__global const int* in, __global int* out, const int add) {
    const size_t i = get_global_id(0);
    out[i] = in[i] * 3 + add;
}
)CLC";

using Affine = openclaw::Kernel<In<cl_int>, Out<cl_int>, cl_int>;

int iterations() {
    const char* text = std::getenv("OPENCLAW_STRESS_ITERATIONS");
    const int count = text != nullptr ? std::atoi(text) : 0;
    return count > 0 ? count : 1000;
}

const openclaw::Program& program() {
    static const openclaw::Program built = openclaw::Program::build(env().context, source);
    return built;
}

/// Runs `work(thread)` on eight threads; returns what each thread threw ("" if nothing). Catch's
/// assertions are not thread-safe, so the threads only count and the caller checks.
template <class Work>
std::array<std::string, thread_count> on_threads(const char* what, int rounds, Work work) {
    std::array<std::string, thread_count> errors;
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (int t = 0; t < thread_count; ++t) {
        threads.emplace_back([&, t] {
            try {
                work(t);
            } catch (const std::exception& error) {
                errors[static_cast<std::size_t>(t)] = error.what();
            }
        });
    }
    for (std::thread& thread : threads) {
        thread.join();
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("stress: %s: %d threads x %d iterations in %.2f s\n", what, thread_count, rounds,
                seconds);
    return errors;
}

void check_no_errors(const std::array<std::string, thread_count>& errors) {
    for (std::size_t t = 0; t < errors.size(); ++t) {
        INFO("thread " << t);
        CHECK(errors[t] == std::string());  // shows the error if there is one
    }
}

}  // namespace

TEST_CASE("eight threads share a context, each with its own queue and kernel") {
    (void)program();
    const int rounds = iterations();
    std::array<long, thread_count> wrong{};
    std::array<long, thread_count> launches{};
    const auto errors = on_threads("own queue and kernel", rounds, [&](int t) {
        const openclaw::Queue queue{env().context, env().device};
        Affine kernel = program().kernel<In<cl_int>, Out<cl_int>, cl_int>("affine");
        const openclaw::ReadOnlyBuffer<cl_int> in{env().context, n};
        const openclaw::WriteOnlyBuffer<cl_int> out{env().context, n};
        std::vector<cl_int> host(n);
        std::vector<cl_int> back(n);
        for (int i = 0; i < rounds; ++i) {
            for (std::size_t k = 0; k < n; ++k) {
                host[k] = t * 100000 + i * 7 + static_cast<cl_int>(k);
            }
            queue.write(in, host);
            queue.enqueue(kernel.set_args(in, out, t), NDRange{n});
            queue.read(out, back);
            for (std::size_t k = 0; k < n; ++k) {
                wrong[static_cast<std::size_t>(t)] += back[k] == host[k] * 3 + t ? 0 : 1;
            }
            ++launches[static_cast<std::size_t>(t)];
        }
    });
    check_no_errors(errors);
    for (std::size_t t = 0; t < thread_count; ++t) {
        INFO("thread " << t);
        CHECK(launches[t] == rounds);
        CHECK(wrong[t] == 0);
    }
}

TEST_CASE("eight threads launch kernels that read the buffers they share") {
    (void)program();
    const int rounds = iterations();
    std::vector<cl_int> values(n);
    std::iota(values.begin(), values.end(), -100);
    const openclaw::ReadOnlyBuffer<cl_int> shared{env().context, values};
    const openclaw::ReadOnlyBuffer<cl_int> shared_too{env().context, values};
    std::array<long, thread_count> wrong{};
    const auto errors = on_threads("shared read-only buffers", rounds, [&](int t) {
        const openclaw::Queue queue{env().context, env().device};
        Affine kernel = program().kernel<In<cl_int>, Out<cl_int>, cl_int>("affine");
        const openclaw::WriteOnlyBuffer<cl_int> out{env().context, n};
        std::vector<cl_int> back(n);
        for (int i = 0; i < rounds; ++i) {
            const auto& input = i % 2 == 0 ? shared : shared_too;
            queue.enqueue(kernel.set_args(input, out, t + i), NDRange{n});
            queue.read(out, back);
            for (std::size_t k = 0; k < n; ++k) {
                wrong[static_cast<std::size_t>(t)] += back[k] == values[k] * 3 + t + i ? 0 : 1;
            }
            if (i % 8 == 0) {  // the host reads the shared buffers too
                queue.read(input, back);
                wrong[static_cast<std::size_t>(t)] += back == values ? 0 : 1;
            }
        }
    });
    check_no_errors(errors);
    for (std::size_t t = 0; t < thread_count; ++t) {
        INFO("thread " << t);
        CHECK(wrong[t] == 0);
    }
    std::vector<cl_int> after(n);
    env().queue.read(shared, after);
    CHECK(after == values);  // nobody wrote it
}

TEST_CASE("eight threads copy and drop handles of the same objects at once") {
    // Objects no command uses, so that the driver holds no references of its own that it could
    // drop while the counts are compared: a buffer never enqueued, a program and kernel never
    // launched, a user event.
    const openclaw::ReadWriteBuffer<cl_int> buffer{env().context, n};
    const openclaw::Program fresh = openclaw::Program::build(env().context, source);
    const Affine kernel = fresh.kernel<In<cl_int>, Out<cl_int>, cl_int>("affine");
    cl_int code = CL_SUCCESS;
    const openclaw::Event event =
        openclaw::Event::adopt(clCreateUserEvent(env().context.get(), &code));
    REQUIRE(code == CL_SUCCESS);
    const cl_uint buffer_refs = buffer.info<CL_MEM_REFERENCE_COUNT>();
    const cl_uint kernel_refs = kernel.info<CL_KERNEL_REFERENCE_COUNT>();
    const cl_uint event_refs = event.info<CL_EVENT_REFERENCE_COUNT>();
    const cl_uint program_refs = fresh.info<CL_PROGRAM_REFERENCE_COUNT>();
    std::array<long, thread_count> wrong{};
    const int rounds = iterations() * 4;
    const auto errors = on_threads("handle copies", rounds, [&](int t) {
        for (int i = 0; i < rounds; ++i) {
            const openclaw::Context context = env().context;
            const openclaw::Queue queue = env().queue;
            const auto buffer_copy = buffer;
            const Affine kernel_copy = kernel;
            const openclaw::Program program_copy = fresh;
            openclaw::Event event_copy;
            event_copy = event;
            const bool same = context == env().context && queue == env().queue &&
                              buffer_copy.get() == buffer.get() &&
                              kernel_copy.get() == kernel.get() && program_copy == fresh &&
                              event_copy == event;
            wrong[static_cast<std::size_t>(t)] += same ? 0 : 1;
        }
    });
    check_no_errors(errors);
    for (std::size_t t = 0; t < thread_count; ++t) {
        CHECK(wrong[t] == 0);
    }
    // Every copy was released again.
    CHECK(buffer.info<CL_MEM_REFERENCE_COUNT>() == buffer_refs);
    CHECK(kernel.info<CL_KERNEL_REFERENCE_COUNT>() == kernel_refs);
    CHECK(event.info<CL_EVENT_REFERENCE_COUNT>() == event_refs);
    CHECK(fresh.info<CL_PROGRAM_REFERENCE_COUNT>() == program_refs);
    REQUIRE(clSetUserEventStatus(event.get(), CL_COMPLETE) == CL_SUCCESS);
}
