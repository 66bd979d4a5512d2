// CLHPP interop (openclaw/interop/clhpp.hpp): every conversion shares the OpenCL object, proven
// by reading the reference count back after converting and after destroying each side; round
// trips give back the same handle; a kernel built through one library runs through the other.
// Reference counts are read from objects no command touches (PoCL drops its references to a
// finished command's event asynchronously), and the failed conversions take no reference.
#include <openclaw/interop/clhpp.hpp>

#include <algorithm>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "support/catch.hpp"
#include "support/fixture.hpp"

using openclaw_test::env;
using openclaw_test::has;
using openclaw_test::thrown;

namespace {

constexpr const char* source = R"CLC(
__kernel void scale(__global float* data, const float factor) {
    data[get_global_id(0)] *= factor;
}
)CLC";

template <class Tag, cl_uint Param>
auto counter() {
    return
        [](auto raw) { return openclaw::detail::get_info<Tag, Param>(openclaw::OnError{}, raw); };
}

// Converting openclaw -> CLHPP -> openclaw: each step adds exactly one reference, each
// destruction removes exactly one, and every object refers to the same OpenCL object.
template <class T, class RefCount>
void check_shared_both_ways(const T& object, RefCount refcount) {
    const auto raw = object.get();
    REQUIRE(raw != nullptr);
    const cl_uint base = refcount(raw);
    {
        auto clhpp = openclaw::to_clhpp(object);
        CHECK(clhpp() == raw);
        CHECK(refcount(raw) == base + 1);
        {
            const T back = openclaw::from_clhpp(clhpp);
            CHECK(back.get() == raw);
            CHECK(refcount(raw) == base + 2);
            // The CLHPP object dies first: the openclaw copy keeps its own reference.
            clhpp = decltype(clhpp)();
            CHECK(refcount(raw) == base + 1);
            CHECK(back.get() == raw);
            // A CLHPP copy of the round-tripped object is one more reference again.
            const auto again = openclaw::to_clhpp(back);
            CHECK(refcount(raw) == base + 2);
        }
        CHECK(refcount(raw) == base);
    }
    CHECK(refcount(raw) == base);
    CHECK(object.get() == raw);  // the source was never touched
}

// Raw handles: T::retain shares the caller's reference (the caller still releases its own),
// T::adopt takes one over (the caller releases nothing more). The caller's references are intact
// afterwards.
template <class T, class Raw, class RefCount>
void check_adopt_and_retain(Raw raw, RefCount refcount) {
    const cl_uint base = refcount(raw);
    {
        const T shared = T::retain(raw);
        CHECK(shared.get() == raw);
        CHECK(refcount(raw) == base + 1);
    }
    CHECK(refcount(raw) == base);
    REQUIRE(openclaw::detail::HandleTraits<Raw>::retain(raw) == CL_SUCCESS);  // for adopt to own
    CHECK(refcount(raw) == base + 1);
    {
        const T owned = T::adopt(raw);
        CHECK(owned.get() == raw);
        CHECK(refcount(raw) == base + 1);
    }
    CHECK(refcount(raw) == base);
}

openclaw::Program fresh_program() {
    return openclaw::Program::build(env().context, source);
}

}  // namespace

TEST_CASE("Context converts both ways without stealing or leaking a reference") {
    const openclaw::Context context{env().device};  // nothing else refers to it
    check_shared_both_ways(context, counter<cl_context, CL_CONTEXT_REFERENCE_COUNT>());
    // A context that CLHPP made, adopted by openclaw through a conversion.
    cl_int code = CL_SUCCESS;
    std::optional<cl::Context> made_by_clhpp;
    made_by_clhpp.emplace(openclaw::to_clhpp(env().device), nullptr, nullptr, nullptr, &code);
    REQUIRE(code == CL_SUCCESS);
    const cl_context raw = (*made_by_clhpp)();
    CHECK(counter<cl_context, CL_CONTEXT_REFERENCE_COUNT>()(raw) == 1);
    const openclaw::Context shared = openclaw::from_clhpp(*made_by_clhpp);
    CHECK(shared.info<CL_CONTEXT_REFERENCE_COUNT>() == 2);
    made_by_clhpp.reset();  // CLHPP lets go first: openclaw's reference keeps it alive
    CHECK(shared.info<CL_CONTEXT_REFERENCE_COUNT>() == 1);
    CHECK(shared.devices().front() == env().device);
}

TEST_CASE("Queue converts both ways without stealing or leaking a reference") {
    const openclaw::Queue queue{env().context, env().device, {.profiling = true}};
    check_shared_both_ways(queue, counter<cl_command_queue, CL_QUEUE_REFERENCE_COUNT>());
    const openclaw::Queue back = openclaw::from_clhpp(openclaw::to_clhpp(queue));
    CHECK(back == queue);
    CHECK(back.options().profiling);
    CHECK(back.device() == env().device);
    CHECK(back.context() == env().context);
}

TEST_CASE("Program converts both ways without stealing or leaking a reference") {
    const openclaw::Program program = fresh_program();
    check_shared_both_ways(program, counter<cl_program, CL_PROGRAM_REFERENCE_COUNT>());
    const cl::Program clhpp = openclaw::to_clhpp(program);
    std::string names;
    REQUIRE(clhpp.getInfo(CL_PROGRAM_KERNEL_NAMES, &names) == CL_SUCCESS);
    CHECK_THAT(names, has("scale"));
}

TEST_CASE("Buffer converts both ways without stealing or leaking a reference") {
    const openclaw::ReadWriteBuffer<float> buffer{env().context, 16};
    const auto refcount = counter<cl_mem, CL_MEM_REFERENCE_COUNT>();
    const cl_uint base = refcount(buffer.get());
    {
        cl::Buffer clhpp = openclaw::to_clhpp(buffer);
        CHECK(clhpp() == buffer.get());
        CHECK(refcount(buffer.get()) == base + 1);
        {
            const auto as_floats =
                openclaw::from_clhpp<openclaw::ReadWriteBuffer<float>>(clhpp, env().context);
            CHECK(as_floats.get() == buffer.get());
            CHECK(as_floats.size() == 16);
            // The same bytes seen as another element type of a size that divides them.
            const auto as_pairs =
                openclaw::from_clhpp<openclaw::ReadOnlyBuffer<cl_float2>>(clhpp, env().context);
            CHECK(as_pairs.size() == 8);
            CHECK(refcount(buffer.get()) == base + 3);
            clhpp = cl::Buffer();
            CHECK(refcount(buffer.get()) == base + 2);
        }
        CHECK(refcount(buffer.get()) == base);
    }
    CHECK(refcount(buffer.get()) == base);
    // A sub-buffer is a buffer too: its own memory object is shared.
    const openclaw::ReadWriteBuffer<float> part = buffer.sub(0, 8);
    const cl::Buffer clhpp_part = openclaw::to_clhpp(part);
    CHECK(clhpp_part() == part.get());
    CHECK(clhpp_part.getInfo<CL_MEM_SIZE>() == 8 * sizeof(float));
}

TEST_CASE("Kernel converts both ways, typed or dynamic, without stealing or leaking") {
    const openclaw::Program program = fresh_program();
    using Scale = openclaw::Kernel<openclaw::InOut<float>, cl_float>;
    const Scale kernel = program.kernel<openclaw::InOut<float>, cl_float>("scale");
    const auto refcount = counter<cl_kernel, CL_KERNEL_REFERENCE_COUNT>();
    const cl_uint base = refcount(kernel.get());
    {
        const cl::Kernel clhpp = openclaw::to_clhpp(kernel);
        CHECK(clhpp() == kernel.get());
        CHECK(refcount(kernel.get()) == base + 1);
        const Scale typed = openclaw::from_clhpp<Scale>(clhpp);
        CHECK(typed.get() == kernel.get());
        const auto dynamic = openclaw::from_clhpp<openclaw::DynamicKernel>(clhpp);
        CHECK(dynamic.arity() == 2);
        CHECK(refcount(kernel.get()) == base + 3);
        // A signature that does not match is refused, and the refusal keeps no reference.
        const auto error = thrown<openclaw::Error>(
            [&] { (void)openclaw::from_clhpp<openclaw::Kernel<openclaw::InOut<float>>>(clhpp); });
        REQUIRE(error);
        CHECK_THAT(error->what(), has("scale"));
        CHECK(refcount(kernel.get()) == base + 3);
    }
    CHECK(refcount(kernel.get()) == base);
}

TEST_CASE("Event converts both ways without stealing or leaking a reference") {
    // A user event: no command holds it, so its count only moves when we move it.
    const openclaw::UserEvent event{env().context};
    check_shared_both_ways(static_cast<const openclaw::Event&>(event),
                           counter<cl_event, CL_EVENT_REFERENCE_COUNT>());
    // Completing it through CLHPP is seen by openclaw.
    const cl::Event clhpp = openclaw::to_clhpp(event);
    CHECK(clhpp.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() == CL_SUBMITTED);
    event.complete();
    CHECK(clhpp.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() == CL_COMPLETE);
    CHECK(openclaw::from_clhpp(clhpp).is_complete());
}

TEST_CASE("Device and Platform convert both ways") {
    const openclaw::Device device = env().device;
    const cl::Device clhpp = openclaw::to_clhpp(device);
    CHECK(clhpp() == device.get());
    CHECK(clhpp.getInfo<CL_DEVICE_NAME>() == device.name());
    CHECK(openclaw::from_clhpp(clhpp) == device);
    const cl::Platform platform = openclaw::to_clhpp(device.platform());
    CHECK(platform() == device.platform().get());
    CHECK(openclaw::from_clhpp(platform) == device.platform());
    CHECK(openclaw::from_clhpp(cl::Platform(clhpp.getInfo<CL_DEVICE_PLATFORM>())) ==
          device.platform());

    // Only sub-devices are reference counted; not every device can be partitioned.
    const auto kinds = device.info<CL_DEVICE_PARTITION_PROPERTIES>();
    const bool equally =
        std::find(kinds.begin(), kinds.end(), CL_DEVICE_PARTITION_EQUALLY) != kinds.end();
    if (!equally || device.max_compute_units() < 2) {
        WARN("\"" << device.name()
                  << "\" cannot be partitioned equally: sub-device reference counts not checked");
        return;
    }
    const std::vector<openclaw::Device> parts = device.partition_equally(1);
    REQUIRE_FALSE(parts.empty());
    check_shared_both_ways(parts.front(), counter<cl_device_id, CL_DEVICE_REFERENCE_COUNT>());
    check_adopt_and_retain<openclaw::Device>(parts.front().get(),
                                             counter<cl_device_id, CL_DEVICE_REFERENCE_COUNT>());
}

TEST_CASE("Empty objects convert to empty objects") {
    CHECK(openclaw::to_clhpp(openclaw::Context())() == nullptr);
    CHECK(openclaw::to_clhpp(openclaw::Queue())() == nullptr);
    CHECK(openclaw::to_clhpp(openclaw::Program())() == nullptr);
    CHECK(openclaw::to_clhpp(openclaw::DynamicKernel())() == nullptr);
    CHECK(openclaw::to_clhpp(openclaw::Event())() == nullptr);
    CHECK(openclaw::to_clhpp(openclaw::ReadOnlyBuffer<int>())() == nullptr);
    CHECK_FALSE(openclaw::from_clhpp(cl::Context()));
    CHECK_FALSE(openclaw::from_clhpp(cl::CommandQueue()));
    CHECK_FALSE(openclaw::from_clhpp(cl::Program()).get());
    CHECK_FALSE(openclaw::from_clhpp<openclaw::DynamicKernel>(cl::Kernel()).get());
    CHECK_FALSE(openclaw::from_clhpp(cl::Event()));
    CHECK_FALSE(openclaw::from_clhpp<openclaw::ReadOnlyBuffer<int>>(cl::Buffer(), env().context));
}

TEST_CASE("A cl::Buffer that does not fit the Buffer type is refused without a reference") {
    const auto refcount = counter<cl_mem, CL_MEM_REFERENCE_COUNT>();
    const cl::Context context = openclaw::to_clhpp(env().context);
    cl_int code = CL_SUCCESS;

    SECTION("a size that is not a whole number of elements") {
        const cl::Buffer odd(context, CL_MEM_READ_WRITE, 10, nullptr, &code);
        REQUIRE(code == CL_SUCCESS);
        const auto error = thrown<openclaw::Error>([&] {
            (void)openclaw::from_clhpp<openclaw::ReadWriteBuffer<float>>(odd, env().context);
        });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_MEM_OBJECT);
        CHECK(error->call() == "from_clhpp");
        CHECK_THAT(error->what(), has("10 bytes are not a whole number of 4-byte elements"));
        CHECK(refcount(odd()) == 1);
    }
    SECTION("a buffer of another context") {
        const openclaw::Context other{env().device};
        const cl::Buffer foreign(openclaw::to_clhpp(other), CL_MEM_READ_WRITE, 16, nullptr, &code);
        REQUIRE(code == CL_SUCCESS);
        const auto error = thrown<openclaw::Error>([&] {
            (void)openclaw::from_clhpp<openclaw::ReadWriteBuffer<float>>(foreign, env().context);
        });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_CONTEXT);
        CHECK_THAT(error->what(), has("belongs to another context"));
        CHECK(refcount(foreign()) == 1);
    }
    SECTION("an access the kernels would violate") {
        const cl::Buffer read_only(context, CL_MEM_READ_ONLY, 16, nullptr, &code);
        REQUIRE(code == CL_SUCCESS);
        const auto error = thrown<openclaw::Error>([&] {
            (void)openclaw::from_clhpp<openclaw::ReadWriteBuffer<float>>(read_only, env().context);
        });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_MEM_OBJECT);
        CHECK_THAT(error->what(), has("created CL_MEM_READ_ONLY: it cannot become a ReadWrite"));
        CHECK(refcount(read_only()) == 1);
        // Read-only is what it is: as a ReadOnly buffer it converts.
        const auto fine =
            openclaw::from_clhpp<openclaw::ReadOnlyBuffer<float>>(read_only, env().context);
        CHECK(fine.size() == 4);
        CHECK(refcount(read_only()) == 2);

        const cl::Buffer write_only(context, CL_MEM_WRITE_ONLY, 16, nullptr, &code);
        REQUIRE(code == CL_SUCCESS);
        const auto refused = thrown<openclaw::Error>([&] {
            (void)openclaw::from_clhpp<openclaw::ReadOnlyBuffer<float>>(write_only, env().context);
        });
        REQUIRE(refused);
        CHECK_THAT(refused->what(), has("created CL_MEM_WRITE_ONLY: it cannot become a ReadOnly"));
        CHECK(refcount(write_only()) == 1);
    }
}

TEST_CASE("A kernel built with CLHPP runs through openclaw") {
    cl_int code = CL_SUCCESS;
    const cl::Context context = openclaw::to_clhpp(env().context);
    cl::Program program(context, std::string(source), false, &code);
    REQUIRE(code == CL_SUCCESS);
    REQUIRE(program.build() == CL_SUCCESS);
    const cl::Kernel clhpp_kernel(program, "scale", &code);
    REQUIRE(code == CL_SUCCESS);
    std::vector<float> host(64);
    std::iota(host.begin(), host.end(), 1.0f);
    cl::Buffer clhpp_buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                            host.size() * sizeof(float), host.data(), &code);
    REQUIRE(code == CL_SUCCESS);

    auto kernel =
        openclaw::from_clhpp<openclaw::Kernel<openclaw::InOut<float>, cl_float>>(clhpp_kernel);
    const auto data =
        openclaw::from_clhpp<openclaw::ReadWriteBuffer<float>>(clhpp_buffer, env().context);
    env().queue.enqueue(kernel.set_args(data, 3.0f), openclaw::NDRange{host.size()});
    std::vector<float> result(host.size());
    env().queue.read(data, result);
    for (std::size_t i = 0; i < host.size(); ++i) {
        CHECK(result[i] == host[i] * 3.0f);
    }
}

TEST_CASE("A kernel built with openclaw runs through CLHPP") {
    const openclaw::Program program = fresh_program();
    const auto kernel = program.kernel<openclaw::InOut<float>, cl_float>("scale");
    std::vector<float> host(64);
    std::iota(host.begin(), host.end(), 1.0f);
    const openclaw::ReadWriteBuffer<float> data{env().context, host};

    cl::Kernel clhpp_kernel = openclaw::to_clhpp(kernel);
    REQUIRE(clhpp_kernel.setArg(0, openclaw::to_clhpp(data)) == CL_SUCCESS);
    REQUIRE(clhpp_kernel.setArg(1, cl_float{0.5f}) == CL_SUCCESS);
    const cl::CommandQueue queue = openclaw::to_clhpp(env().queue);
    cl::Event done;
    REQUIRE(queue.enqueueNDRangeKernel(clhpp_kernel, cl::NullRange, cl::NDRange(host.size()),
                                       cl::NullRange, nullptr, &done) == CL_SUCCESS);
    // The CLHPP event waited for through openclaw.
    openclaw::from_clhpp(done).wait();
    std::vector<float> result(host.size());
    env().queue.read(data, result);
    for (std::size_t i = 0; i < host.size(); ++i) {
        CHECK(result[i] == host[i] * 0.5f);
    }
}

TEST_CASE("Raw handles: adopt takes the caller's reference, retain shares it, for every type") {
    const cl_device_id device = env().device.get();
    cl_int code = CL_SUCCESS;

    const cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &code);
    REQUIRE(code == CL_SUCCESS);
    check_adopt_and_retain<openclaw::Context>(context,
                                              counter<cl_context, CL_CONTEXT_REFERENCE_COUNT>());

#if CL_TARGET_OPENCL_VERSION >= 200
    const cl_command_queue queue =
        clCreateCommandQueueWithProperties(context, device, nullptr, &code);
#else
    const cl_command_queue queue = clCreateCommandQueue(context, device, 0, &code);
#endif
    REQUIRE(code == CL_SUCCESS);
    check_adopt_and_retain<openclaw::Queue>(queue,
                                            counter<cl_command_queue, CL_QUEUE_REFERENCE_COUNT>());

    const cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, 64, nullptr, &code);
    REQUIRE(code == CL_SUCCESS);
    check_adopt_and_retain<openclaw::ReadWriteBuffer<float>>(
        buffer, counter<cl_mem, CL_MEM_REFERENCE_COUNT>());

    const cl_event event = clCreateUserEvent(context, &code);
    REQUIRE(code == CL_SUCCESS);
    check_adopt_and_retain<openclaw::Event>(event, counter<cl_event, CL_EVENT_REFERENCE_COUNT>());

    const char* text = source;
    const cl_program program = clCreateProgramWithSource(context, 1, &text, nullptr, &code);
    REQUIRE(code == CL_SUCCESS);
    REQUIRE(clBuildProgram(program, 1, &device, nullptr, nullptr, nullptr) == CL_SUCCESS);
    check_adopt_and_retain<openclaw::Program>(program,
                                              counter<cl_program, CL_PROGRAM_REFERENCE_COUNT>());

    const cl_kernel kernel = clCreateKernel(program, "scale", &code);
    REQUIRE(code == CL_SUCCESS);
    const auto kernel_refs = counter<cl_kernel, CL_KERNEL_REFERENCE_COUNT>();
    check_adopt_and_retain<openclaw::Kernel<openclaw::InOut<float>, cl_float>>(kernel, kernel_refs);
    check_adopt_and_retain<openclaw::DynamicKernel>(kernel, kernel_refs);
    // A refused signature: retain gives its reference back, adopt releases the one it was given.
    const cl_uint base = kernel_refs(kernel);
    CHECK(thrown<openclaw::Error>(
        [&] { (void)openclaw::Kernel<openclaw::InOut<float>>::retain(kernel); }));
    CHECK(kernel_refs(kernel) == base);
    REQUIRE(clRetainKernel(kernel) == CL_SUCCESS);
    CHECK(thrown<openclaw::Error>(
        [&] { (void)openclaw::Kernel<openclaw::InOut<float>>::adopt(kernel); }));
    CHECK(kernel_refs(kernel) == base);

    // Our own references, each released once: nothing above took or left one.
    CHECK(clSetUserEventStatus(event, CL_COMPLETE) == CL_SUCCESS);
    CHECK(clReleaseEvent(event) == CL_SUCCESS);
    CHECK(clReleaseKernel(kernel) == CL_SUCCESS);
    CHECK(clReleaseProgram(program) == CL_SUCCESS);
    CHECK(clReleaseMemObject(buffer) == CL_SUCCESS);
    CHECK(clReleaseCommandQueue(queue) == CL_SUCCESS);
    CHECK(clReleaseContext(context) == CL_SUCCESS);
}
