// Failures of chosen OpenCL calls, injected by the fault-injection interposer (ctest runs this
// program under it): a release failing in a destructor reaches the error hook once and is not
// retried, a retain failing in a copy throws and leaves both objects as they were, errors name
// the entry point that failed, and a query failing while an error is worded does not replace it.
#include <openclaw/all.hpp>

#include <chrono>
#include <coroutine>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "support/catch.hpp"
#include "support/fixture.hpp"
#include "support/injection.hpp"

using openclaw::Error;
using openclaw_test::env;
using openclaw_test::has;
using openclaw_test::Injection;
using openclaw_test::thrown;

namespace {

constexpr const char* source = R"CLC(
__kernel void scale(__global float* data, const float factor) {
    data[get_global_id(0)] *= factor;
}
)CLC";

std::vector<std::pair<std::string, cl_int>> hook_calls;
void recording_hook(const char* call, cl_int code) noexcept {
    hook_calls.emplace_back(call, code);
}

/// The interposer's controls for one test: records the error hook, and ends every injected
/// failure when the test ends, passed or not.
class Injected {
  public:
    Injected() : injection_(Injection::find()) {
        (void)env();  // made before anything can fail
        hook_calls.clear();
        previous_ = openclaw::set_error_hook(&recording_hook);
    }
    ~Injected() {
        if (injection_) {
            injection_.clear();
        }
        openclaw::set_error_hook(previous_);
    }
    Injected(const Injected&) = delete;
    Injected& operator=(const Injected&) = delete;

    const Injection& operator*() const { return injection_; }
    const Injection* operator->() const { return &injection_; }
    explicit operator bool() const { return static_cast<bool>(injection_); }

  private:
    Injection injection_;
    openclaw::ErrorHook previous_ = nullptr;
};

const char* queue_creation_call() {
#if CL_TARGET_OPENCL_VERSION >= 200
    if (env().device.platform().version() >= openclaw::Version{2, 0}) {
        return "clCreateCommandQueueWithProperties";
    }
#endif
    return "clCreateCommandQueue";
}

/// Copy construction and copy assignment of `object` with its retain failing: both throw the
/// retain's error, the source keeps its reference count, the target keeps what it held.
template <class T, class RefCount>
void check_failed_copy(const Injected& injected, const char* retain, const T& object, T other,
                       RefCount refcount) {
    const auto raw = object.get();
    const cl_uint before = refcount(raw);
    injected->fail(retain, CL_OUT_OF_HOST_MEMORY);
    const auto construction = thrown<Error>([&] {
        const T copy = object;
        (void)copy;
    });
    REQUIRE(construction);
    CHECK(construction->call() == retain);
    CHECK(construction->cl_code() == CL_OUT_OF_HOST_MEMORY);
    CHECK(refcount(raw) == before);

    const auto held = other.get();
    injected->fail(retain, CL_OUT_OF_HOST_MEMORY);
    const auto assignment = thrown<Error>([&] { other = object; });
    REQUIRE(assignment);
    CHECK(assignment->call() == retain);
    CHECK(other.get() == held);  // unchanged: the strong guarantee
    CHECK(refcount(raw) == before);
    CHECK(hook_calls.empty());
}

template <class Tag, cl_uint Param>
auto counter() {
    return
        [](auto raw) { return openclaw::detail::get_info<Tag, Param>(openclaw::OnError{}, raw); };
}

}  // namespace

TEST_CASE("a release failing in a destructor goes to the error hook once and is not retried") {
    const Injected injected;
    REQUIRE(injected);
    const long releases = injected->calls("clReleaseMemObject");
    {
        const openclaw::ReadWriteBuffer<float> buffer{env().context, 16};
        injected->fail("clReleaseMemObject", CL_OUT_OF_RESOURCES);
    }
    CHECK(injected->calls("clReleaseMemObject") == releases + 1);
    REQUIRE(hook_calls.size() == 1);
    CHECK(hook_calls[0].first == "clReleaseMemObject");
    CHECK(hook_calls[0].second == CL_OUT_OF_RESOURCES);

    // While an exception unwinds the stack too: the destructor reports, the exception goes on.
    hook_calls.clear();
    const auto error = thrown<Error>([&] {
        const openclaw::ReadWriteBuffer<float> buffer{env().context, 16};
        injected->fail("clReleaseMemObject", CL_OUT_OF_RESOURCES);
        openclaw::detail::throw_error(CL_INVALID_VALUE, "test", "the first error");
    });
    REQUIRE(error);
    CHECK(error->call() == "test");
    REQUIRE(hook_calls.size() == 1);
    CHECK(hook_calls[0].first == "clReleaseMemObject");
}

TEST_CASE("a retain failing in a copy throws and leaves both objects as they were") {
    const Injected injected;
    REQUIRE(injected);
    const auto program = openclaw::Program::build(env().context, source);
    // Objects no command has used: their reference counts are the program's alone.
    SECTION("Context") {
        check_failed_copy(injected, "clRetainContext", openclaw::Context{env().device},
                          openclaw::Context{env().device},
                          counter<cl_context, CL_CONTEXT_REFERENCE_COUNT>());
    }
    SECTION("Queue") {
        check_failed_copy(injected, "clRetainCommandQueue",
                          openclaw::Queue{env().context, env().device},
                          openclaw::Queue{env().context, env().device},
                          counter<cl_command_queue, CL_QUEUE_REFERENCE_COUNT>());
    }
    SECTION("Buffer") {
        const openclaw::ReadWriteBuffer<int> buffer{env().context, std::vector<int>{1, 2, 3, 4}};
        check_failed_copy(injected, "clRetainMemObject", buffer,
                          openclaw::ReadWriteBuffer<int>{env().context, 2},
                          counter<cl_mem, CL_MEM_REFERENCE_COUNT>());
        std::vector<int> back(4);
        env().queue.read(buffer, back);  // still usable
        CHECK(back == std::vector<int>{1, 2, 3, 4});
    }
    SECTION("Program") {
        check_failed_copy(injected, "clRetainProgram", program,
                          openclaw::Program::build(env().context, source),
                          counter<cl_program, CL_PROGRAM_REFERENCE_COUNT>());
    }
    SECTION("Kernel") {
        using Scale = openclaw::Kernel<openclaw::InOut<float>, cl_float>;
        check_failed_copy(injected, "clRetainKernel",
                          program.kernel<openclaw::InOut<float>, cl_float>("scale"),
                          Scale{program, "scale"}, counter<cl_kernel, CL_KERNEL_REFERENCE_COUNT>());
    }
    SECTION("Event") {
        // User events: no command, so no reference of the driver's own comes and goes.
        cl_int code = CL_SUCCESS;
        const auto first = openclaw::Event::adopt(clCreateUserEvent(env().context.get(), &code));
        REQUIRE(code == CL_SUCCESS);
        const auto second = openclaw::Event::adopt(clCreateUserEvent(env().context.get(), &code));
        REQUIRE(code == CL_SUCCESS);
        check_failed_copy(injected, "clRetainEvent", first, second,
                          counter<cl_event, CL_EVENT_REFERENCE_COUNT>());
        REQUIRE(clSetUserEventStatus(first.get(), CL_COMPLETE) == CL_SUCCESS);
        REQUIRE(clSetUserEventStatus(second.get(), CL_COMPLETE) == CL_SUCCESS);
    }
}

TEST_CASE("a failed queue creation names the entry point that failed") {
    const Injected injected;
    REQUIRE(injected);
    const char* call = queue_creation_call();
    injected->fail(call, CL_OUT_OF_RESOURCES);
    const auto error = thrown<Error>([] { openclaw::Queue queue{env().context, env().device}; });
    REQUIRE(error);
    CHECK(error->call() == call);
    CHECK(error->cl_code() == CL_OUT_OF_RESOURCES);
    CHECK_THAT(error->what(), has(env().device.name()));
}

TEST_CASE("a buffer the driver finds too large names each device's allocation limit") {
    const Injected injected;
    REQUIRE(injected);
    injected->fail("clCreateBuffer", CL_INVALID_BUFFER_SIZE);
    const auto error = thrown<Error>([] {
        const openclaw::ReadWriteBuffer<float> b{env().context, 1000};
    });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_BUFFER_SIZE);
    CHECK_THAT(error->what(), has("clCreateBuffer") && has("1000 elements (4000 bytes)") &&
                                  has("the largest allocation device 0 allows is " +
                                      std::to_string(env().device.max_mem_alloc_size()) +
                                      " bytes (CL_DEVICE_MAX_MEM_ALLOC_SIZE)"));
}

TEST_CASE("a blocking command failing with its wait list's failure is reported as that") {
    // As NVIDIA 580 does: the dependency fails while the read waits, and the read returns the
    // event's status (-5) as its own error. Forced here: the status query before the read is
    // failed (so the read is enqueued), then the read returns CL_OUT_OF_RESOURCES.
    const openclaw::ReadWriteBuffer<cl_int> data{env().queue, std::vector<cl_int>(16, 1)};
    std::vector<cl_int> host(16, 0);
    const openclaw::UserEvent gate{env().context};
    gate.fail(CL_OUT_OF_RESOURCES);
    const Injected injected;
    REQUIRE(injected);
    injected->fail("clGetEventInfo", CL_INVALID_EVENT, 2);  // 1: the context, 2: the status
    injected->fail("clEnqueueReadBuffer", CL_OUT_OF_RESOURCES);
    const auto error = thrown<Error>([&] { env().queue.read(data, host, openclaw::after(gate)); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK_THAT(error->what(), has("clEnqueueReadBuffer") &&
                                  has("event 0 of the wait list failed") &&
                                  has("the driver returned -5, CL_OUT_OF_RESOURCES"));
    CHECK(injected->calls("clEnqueueReadBuffer") >= 1);
    CHECK(host == std::vector<cl_int>(16, 0));
}

TEST_CASE("a query failing while an error is worded does not replace that error") {
    // Made before the injection and destroyed after it has ended (in reverse order).
    const auto program = openclaw::Program::build(env().context, source);
    auto scale = program.kernel<openclaw::InOut<float>, cl_float>("scale");
    const openclaw::ReadWriteBuffer<float> data{env().context, 64};
    const std::string lost = "(further detail unavailable: ";
    const char* queue_call = queue_creation_call();
    const Injected injected;
    REQUIRE(injected);

    SECTION("context creation, then the device's name") {
        injected->fail_from("clCreateContext", CL_OUT_OF_RESOURCES);
        const auto error = thrown<Error>([] { openclaw::Context context{env().device}; });
        REQUIRE(error);
        CHECK(error->call() == "clCreateContext");
        CHECK_THAT(error->what(), has(lost + "clGetDeviceInfo: CL_OUT_OF_RESOURCES (-5)"));
    }
    SECTION("queue creation, then the device's name") {
        injected->fail_from(queue_call, CL_OUT_OF_RESOURCES);
        const auto error = thrown<Error>([] {
            openclaw::Queue queue{env().context, env().device};
        });
        REQUIRE(error);
        CHECK(error->call() == queue_call);
        CHECK_THAT(error->what(), has(lost + "clGetDeviceInfo"));
    }
    SECTION("clSetKernelArg, then the kernel's name") {
        injected->fail_from("clSetKernelArg", CL_OUT_OF_RESOURCES);
        const auto error = thrown<Error>([&] { scale.set_args(data, 2.0f); });
        REQUIRE(error);
        CHECK(error->call() == "clSetKernelArg");
        CHECK(error->cl_code() == CL_OUT_OF_RESOURCES);
        // The kernel's name was read when the kernel was made: no query is needed to word this.
        CHECK_THAT(error->what(), has("argument 0 of kernel \"scale\""));
    }
    SECTION("a launch, then the kernel's name") {
        scale.set_args(data, 2.0f);
        injected->fail_from("clEnqueueNDRangeKernel", CL_OUT_OF_RESOURCES);
        const auto error =
            thrown<Error>([&] { env().queue.enqueue(scale, openclaw::NDRange{64}); });
        REQUIRE(error);
        CHECK(error->call() == "clEnqueueNDRangeKernel");
        CHECK_THAT(error->what(), has("kernel " + lost + "clGetKernelInfo"));
        CHECK_THAT(error->what(), has("global 64"));
    }
    SECTION("an unknown kernel name, then the list of kernels") {
        injected->fail_from("clGetProgramInfo", CL_OUT_OF_RESOURCES);
        const auto error =
            thrown<Error>([&] { (void)program.kernel<openclaw::InOut<float>, cl_float>("scael"); });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_KERNEL_NAME);
        CHECK_THAT(error->what(), has("kernel \"scael\": no kernel of that name in the program " +
                                      lost + "clGetProgramInfo"));
    }
    SECTION("a launch geometry error, then the queue's device") {
        injected->fail_from("clGetCommandQueueInfo", CL_OUT_OF_RESOURCES);
        const auto error = thrown<Error>([&] {
            env().queue.enqueue(scale.set_args(data, 1.0f), openclaw::NDRange{100},
                                openclaw::NDRange{64});
        });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_WORK_GROUP_SIZE);
        CHECK_THAT(error->what(), has("is not a multiple of local size 64"));
        CHECK_THAT(error->what(), has("on " + lost + "clGetCommandQueueInfo"));
    }
    SECTION("a build, then its logs, then the program's release") {
        injected->fail_from("clBuildProgram", CL_OUT_OF_RESOURCES);
        const auto error = thrown<openclaw::BuildError>(
            [] { (void)openclaw::Program::build(env().context, source); });
        REQUIRE(error);
        CHECK(error->call() == "clBuildProgram");
        CHECK(error->cl_code() == CL_OUT_OF_RESOURCES);
        CHECK(error->logs().empty());
        // The logs are read for the devices the build was for: the first query is a device's name.
        CHECK_THAT(error->what(), has("the build failed (build logs unavailable: clGetDeviceInfo: "
                                      "CL_OUT_OF_RESOURCES (-5)"));
        // The program was released while the BuildError was thrown: that failure went to the hook.
        // (Then the copies of the context's devices the build used, and the program's record of
        // them: their releases fail too.)
        REQUIRE(!hook_calls.empty());
        CHECK(hook_calls[0].first == "clReleaseProgram");
        for (std::size_t i = 1; i < hook_calls.size(); ++i) {
            CHECK(hook_calls[i].first == "clReleaseDevice");
        }
    }
    // Only releases that failed during cleanup reach the hook, each once.
    for (const auto& [call, code] : hook_calls) {
        CHECK(call.rfind("clRelease", 0) == 0);
        CHECK(code == CL_OUT_OF_RESOURCES);
    }
    CHECK(hook_calls.size() <= 3);
}

// Not a failure, but only the interposer can count calls: co_await must submit the awaited
// command's queue before it suspends (NVIDIA's driver holds queued commands back until a flush,
// and a callback on a command never submitted does not fire), and must not flush for an event
// that has no queue (a user event).
TEST_CASE("co_await flushes the awaited command's queue, once, before it suspends") {
    const Injected injected;
    REQUIRE(injected);
    const openclaw::Queue queue{env().context, env().device};
    const openclaw::ReadWriteBuffer<cl_int> data{env().context, 64};
    const openclaw::UserEvent gate{env().context};
    const openclaw::Event fill =
        queue.fill(data.slice(0, 64), 1, openclaw::with_event, openclaw::after(gate));

    const long before = injected->calls("clFlush");
    auto on_fill = operator co_await(fill);
    REQUIRE_FALSE(on_fill.await_ready());  // held back by the gate
    on_fill.await_suspend(std::noop_coroutine());
    CHECK(injected->calls("clFlush") == before + 1);

    auto on_gate = operator co_await(static_cast<const openclaw::Event&>(gate));
    REQUIRE_FALSE(on_gate.await_ready());
    on_gate.await_suspend(std::noop_coroutine());
    CHECK(injected->calls("clFlush") == before + 1);  // a user event has no queue to flush

    const long releases = injected->calls("clReleaseEvent");
    gate.complete();
    fill.wait();
    CHECK(fill.is_complete());
    // Each await's entry in the resume thread's watch holds a reference to its event, dropped by
    // that thread once the await resumed (by its callback or by the watch's poll): wait for both
    // releases, or the leak check could find them live at exit. The callbacks' states hold none.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (injected->calls("clReleaseEvent") < releases + 2 &&
           std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    CHECK(injected->calls("clReleaseEvent") == releases + 2);
}

TEST_CASE("a replay the driver refuses names the entry point, the graph call and the command") {
    const openclaw::ReadWriteBuffer<float> data{env().queue, std::vector<float>(16, 1.0f)};
    const auto program = openclaw::Program::build(env().context, source);
    auto scale = program.kernel<openclaw::InOut<float>, float>("scale");
    scale.set_args(data, 2.0f);
    openclaw::CommandGraph graph{env().queue, {.command_buffer = false}};
    openclaw::Status recorded;
    (void)graph.enqueue(scale, openclaw::NDRange{16}, openclaw::NDRange{}, recorded);
    if (!recorded.ok()) {
        WARN("the graph cannot record kernels here: " << recorded.what());
        return;
    }
    const Injected injected;
    REQUIRE(injected);
    injected->fail("clEnqueueNDRangeKernel", CL_OUT_OF_RESOURCES);
    const auto error = thrown<Error>([&] { graph.replay(); });
    REQUIRE(error);
    // The entry point that failed is the error's call; the detail says which replay and command.
    CHECK(error->call() == "clEnqueueNDRangeKernel");
    CHECK(error->cl_code() == CL_OUT_OF_RESOURCES);
    CHECK_THAT(error->what(), has("CommandGraph::replay: replaying command 0 of 1 (kernel "
                                  "\"scale\"): nothing of the replay was enqueued"));
}
