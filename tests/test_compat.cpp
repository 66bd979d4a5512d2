// Kernels made once per program and name, and OpenCL 1.2 platforms: with the platform made to
// report OpenCL 1.2 (support/cl_intercept.cpp), openclaw calls no entry point and makes no query
// newer than 1.2. Built twice: for OpenCL 3.0 headers and for 1.2 ones (cl120/ tests).
#include <openclaw/all.hpp>
#include <openclaw/cache.hpp>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "support/catch.hpp"
#include "support/cl_intercept.hpp"
#include "support/fixture.hpp"
#include "task.hpp"  // examples/async_pipeline/task.hpp

using openclaw_test::cl_calls;
using openclaw_test::env;
using openclaw_test::has;
using openclaw_test::thrown;

namespace {

constexpr const char* source = R"CLC(
__kernel void add(__global int* data, int addend) { data[get_global_id(0)] += addend; }
)CLC";

openclaw::Program build(const openclaw::Context& context) {
    openclaw::BuildOptions options;
    options.cache(openclaw::BinaryCache{});
    return openclaw::Program::build(context, source, options);
}

bool clones_kernels(const openclaw::Device& device) {
    return openclaw::target_opencl_version >= 210 &&
           device.platform().version() >= openclaw::Version{2, 1};
}

// Two stages, each gated by a user event: one co_await, then a when_all over two commands.
example::Task<int> gated_stages(const openclaw::Queue& queue,
                                const openclaw::ReadWriteBuffer<cl_int>& data,
                                const openclaw::UserEvent& first, const openclaw::UserEvent& second,
                                std::atomic<int>& stage) {
    co_await queue.fill(data.slice(0, 8), 1, openclaw::with_event, openclaw::after(first));
    stage = 1;
    const openclaw::Event low =
        queue.fill(data.slice(0, 4), 2, openclaw::with_event, openclaw::after(second));
    const openclaw::Event high =
        queue.fill(data.slice(4, 4), 3, openclaw::with_event, openclaw::after(second));
    co_await openclaw::when_all(low, high);
    stage = 2;
    co_return 0;
}

template <class Predicate>
bool eventually(Predicate predicate) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!predicate() && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return predicate();
}

bool reaches(const std::atomic<int>& stage, int wanted) {
    return eventually([&] { return stage.load() >= wanted; });
}

void reset_counts() {
    cl_calls().create_kernel = 0;
    cl_calls().clone_kernel = 0;
    cl_calls().create_queue_1x = 0;
    cl_calls().newer = 0;
    cl_calls().newer_names.clear();
}

}  // namespace

TEST_CASE("a program creates each kernel once and hands out copies") {
    const auto program = build(env().context);
    const auto copy = program;
    reset_counts();
    auto first = program.kernel<openclaw::InOut<cl_int>, cl_int>("add");
    auto second = copy.kernel<openclaw::InOut<cl_int>, cl_int>("add");
    auto dynamic = program.kernel("add");
    if (clones_kernels(env().device)) {
        CHECK(cl_calls().create_kernel == 1);
        CHECK(cl_calls().clone_kernel == 3);
    } else {
        WARN("no clCloneKernel (OpenCL 1.x/2.0 platform or headers): one clCreateKernel each");
        CHECK(cl_calls().create_kernel == 3);
        CHECK(cl_calls().clone_kernel == 0);
    }
    // Their argument values are their own.
    const openclaw::ReadWriteBuffer<cl_int> a{env().context, std::vector<cl_int>(4, 0)};
    const openclaw::ReadWriteBuffer<cl_int> b{env().context, std::vector<cl_int>(4, 0)};
    first.set_args(a, 1);
    second.set_args(b, 2);
    dynamic.set_args(a, 10);
    env().queue.enqueue(second, openclaw::NDRange{4});
    env().queue.enqueue(first, openclaw::NDRange{4});
    std::vector<cl_int> back(4);
    env().queue.read(a, back);
    CHECK(back == std::vector<cl_int>(4, 1));
    env().queue.read(b, back);
    CHECK(back == std::vector<cl_int>(4, 2));
    // clone() copies the argument values where the platform can.
    auto cloned = first.clone();
    if (clones_kernels(env().device)) {
        env().queue.enqueue(cloned, openclaw::NDRange{4});
        env().queue.read(a, back);
        CHECK(back == std::vector<cl_int>(4, 2));
    }
}

TEST_CASE("threads asking one program for kernels at once") {
    const auto program = build(env().context);
    reset_counts();
    constexpr int threads = 8;
    constexpr int requests = 16;
    std::mutex mutex;
    std::set<cl_kernel> handles;
    std::vector<openclaw::Kernel<openclaw::InOut<cl_int>, cl_int>> alive;
    std::vector<int> correct(threads, 0);
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
            std::vector<openclaw::Kernel<openclaw::InOut<cl_int>, cl_int>> mine;
            for (int r = 0; r < requests; ++r) {
                mine.push_back(program.kernel<openclaw::InOut<cl_int>, cl_int>("add"));
            }
            const openclaw::Queue queue{env().context, env().device};
            const openclaw::ReadWriteBuffer<cl_int> data{env().context, std::vector<cl_int>(8, 0)};
            for (auto& kernel : mine) {
                queue.enqueue(kernel.set_args(data, t), openclaw::NDRange{8});
            }
            std::vector<cl_int> back(8);
            queue.read(data, back);
            correct[t] = back == std::vector<cl_int>(8, t * requests) ? 1 : 0;
            const std::lock_guard lock(mutex);
            for (auto& kernel : mine) {
                handles.insert(kernel.get());
                alive.push_back(std::move(kernel));  // a freed handle's address may be reused
            }
        });
    }
    for (auto& worker : workers) {
        worker.join();
    }
    CHECK(correct == std::vector<int>(threads, 1));
    CHECK(handles.size() == static_cast<std::size_t>(threads * requests));
    if (clones_kernels(env().device)) {
        CHECK(cl_calls().create_kernel == 1);
        CHECK(cl_calls().clone_kernel == threads * requests);
    } else {
        CHECK(cl_calls().create_kernel == threads * requests);
    }
}

TEST_CASE(
    "co_await resumes when the command completes, even if the driver holds the callback back") {
    // NVIDIA's driver delivers completion callbacks of longer commands on a 20 ms tick; here they
    // are held until the end, so only the resume thread's poll of the events can resume.
    const openclaw::Queue queue{env().context, env().device};
    const openclaw::ReadWriteBuffer<cl_int> data{env().context, 8};
    const openclaw::UserEvent first{env().context};
    const openclaw::UserEvent second{env().context};
    std::atomic<int> stage{0};
    openclaw_test::HoldEventCallbacks hold;
    auto task = gated_stages(queue, data, first, second, stage);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK(stage.load() == 0);  // suspended: the command waits for its gate
    first.complete();
    CHECK(reaches(stage, 1));
    // The second gate opens only once when_all has suspended (its two callbacks are set): opened
    // earlier, a fast device could finish both fills before the await and no callback be set.
    CHECK(eventually([&] { return hold.held() == 3; }));
    second.complete();
    CHECK(reaches(stage, 2));
    CHECK(hold.held() == 3);  // every await did set its callbacks, none of them ran yet
    hold.release();
    CHECK(task.get() == 0);
    std::vector<cl_int> back(8);
    queue.read(data, back);
    CHECK(back == std::vector<cl_int>{2, 2, 2, 2, 3, 3, 3, 3});
}

TEST_CASE("on an OpenCL 1.2 platform nothing newer than 1.2 is called") {
    const openclaw::Device device = env().device;  // the fixture's queue is made before
    const openclaw_test::PretendOpenCL12 pretend;
    reset_counts();
    CHECK(device.version() == openclaw::Version{1, 2});
    CHECK(device.platform().version() == openclaw::Version{1, 2});
    CHECK(device.opencl_c_versions() == std::vector<openclaw::Version>{{1, 0}, {1, 1}, {1, 2}});
    CHECK(device.il_version().empty());
    CHECK_FALSE(device.non_uniform_work_groups());

    const openclaw::Context context{device};
    const openclaw::Queue queue{context, device};
    CHECK(cl_calls().create_queue_1x == 1);

    const auto program = build(context);
    CHECK_THAT(program.build_info<CL_PROGRAM_BUILD_OPTIONS>(device), has("-cl-std=CL1.2"));
    CHECK_FALSE(program.non_uniform_groups());
    auto first = program.kernel<openclaw::InOut<cl_int>, cl_int>("add");
    auto second = program.kernel<openclaw::InOut<cl_int>, cl_int>("add");
    auto third = first.clone();
    CHECK(cl_calls().create_kernel == 3);
    const openclaw::ReadWriteBuffer<cl_int> data{context, std::vector<cl_int>(4, 0)};
    queue.enqueue(first.set_args(data, 1), openclaw::NDRange{4});
    queue.enqueue(second.set_args(data, 2), openclaw::NDRange{4});
    queue.enqueue(third.set_args(data, 3), openclaw::NDRange{4});
    std::vector<cl_int> back(4);
    queue.read(data, back);
    CHECK(back == std::vector<cl_int>(4, 6));

    // Non-uniform work-groups are refused before the driver sees them.
    const auto uneven = thrown<openclaw::Error>(
        [&] { queue.enqueue(first, openclaw::NDRange{6}, openclaw::NDRange{4}); });
    REQUIRE(uneven);
    CHECK(uneven->cl_code() == CL_INVALID_WORK_GROUP_SIZE);

    const auto il = thrown<openclaw::Error>(
        [&] { (void)openclaw::Program::from_il(context, std::vector<unsigned char>(20, 0)); });
    REQUIRE(il);
    CHECK(il->cl_code() == CL_INVALID_OPERATION);
    CHECK_THAT(il->what(), has("accepts no intermediate language"));

#if CL_TARGET_OPENCL_VERSION >= 200
    CHECK(openclaw::svm_level(device) == openclaw::SvmLevel::none);
    const auto svm = thrown<openclaw::Error>([&] { (void)openclaw::SvmAllocator<int>(context); });
    REQUIRE(svm);
    CHECK(svm->cl_code() == CL_INVALID_OPERATION);
    int host = 0;
    const auto svm_arg =
        thrown<openclaw::Error>([&] { program.kernel("add").set_args(openclaw::svm(&host), 1); });
    REQUIRE(svm_arg);
    CHECK_THAT(svm_arg->what(), has("predates OpenCL 2.0"));
#endif

    // The binary cache works there too.
    const auto dir = std::filesystem::temp_directory_path() / "openclaw-compat-cache";
    std::filesystem::remove_all(dir);
    openclaw::BuildOptions cached;
    cached.cache(openclaw::BinaryCache{dir});
    (void)openclaw::Program::build(context, source, cached);
    CHECK(openclaw::Program::build(context, source, cached).loaded_from_cache());

    INFO("newer entry points or queries used: " << cl_calls().newer_names.size());
    for (const auto& name : cl_calls().newer_names) {
        UNSCOPED_INFO(name);
    }
    CHECK(cl_calls().newer == 0);
}
