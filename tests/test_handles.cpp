// Handles: copy retains, move steals, self-assignment is harmless, moved-from objects are empty
// and reusable, destruction releases. Proven for every handle type by reading the OpenCL
// reference count back after each step.
#include <openclaw/all.hpp>

#include <algorithm>
#include <utility>
#include <vector>

#include "support/catch.hpp"
#include "support/fixture.hpp"

using openclaw_test::env;

namespace {

constexpr const char* source = R"CLC(
__kernel void scale(__global float* data, const float factor) {
    data[get_global_id(0)] *= factor;
}
)CLC";

template <class T, class RefCount>
void check_handle_semantics(const T& object, RefCount refcount) {
    const auto raw = object.get();
    REQUIRE(raw != nullptr);
    const cl_uint base = refcount(raw);
    {
        T copy = object;  // copy construction retains
        CHECK(copy.get() == raw);
        CHECK(refcount(raw) == base + 1);

        T assigned;
        CHECK_FALSE(static_cast<bool>(assigned));
        assigned = object;  // copy assignment retains
        CHECK(assigned.get() == raw);
        CHECK(refcount(raw) == base + 2);

        T moved = std::move(copy);  // move construction steals
        CHECK(moved.get() == raw);
        CHECK(copy.get() == nullptr);  // NOLINT(bugprone-use-after-move): checking moved-from
        CHECK_FALSE(static_cast<bool>(copy));
        CHECK(refcount(raw) == base + 2);

        T move_assigned;
        move_assigned = std::move(moved);  // move assignment steals
        CHECK(move_assigned.get() == raw);
        CHECK(moved.get() == nullptr);  // NOLINT(bugprone-use-after-move)
        CHECK(refcount(raw) == base + 2);

        // Self-assignment, copy and move, changes nothing (through an alias to keep compilers'
        // self-assignment warnings quiet: the point is to run it).
        T& alias = move_assigned;
        move_assigned = alias;
        CHECK(refcount(raw) == base + 2);
        move_assigned = std::move(alias);
        CHECK(move_assigned.get() == raw);
        CHECK(refcount(raw) == base + 2);

        // A moved-from object can be assigned again and destroyed.
        copy = object;
        CHECK(copy.get() == raw);
        CHECK(refcount(raw) == base + 3);

        // Assigning over a live object releases what it held.
        assigned = T{};
        CHECK(refcount(raw) == base + 2);
        copy = std::move(assigned);
        CHECK(refcount(raw) == base + 1);
    }
    // Everything made above is destroyed: back to where we started.
    CHECK(refcount(raw) == base);
}

template <class Tag, cl_uint Param>
auto counter() {
    return
        [](auto raw) { return openclaw::detail::get_info<Tag, Param>(openclaw::OnError{}, raw); };
}

}  // namespace

TEST_CASE("Context handle semantics") {
    const openclaw::Context context{env().device};
    check_handle_semantics(context, counter<cl_context, CL_CONTEXT_REFERENCE_COUNT>());
}

TEST_CASE("Queue handle semantics") {
    const openclaw::Queue queue{env().context, env().device};
    check_handle_semantics(queue, counter<cl_command_queue, CL_QUEUE_REFERENCE_COUNT>());
}

TEST_CASE("Buffer handle semantics") {
    const openclaw::ReadWriteBuffer<float> buffer{env().context, 16};
    check_handle_semantics(buffer, counter<cl_mem, CL_MEM_REFERENCE_COUNT>());
}

TEST_CASE("Program handle semantics") {
    const auto program = openclaw::Program::build(env().context, source);
    check_handle_semantics(program, counter<cl_program, CL_PROGRAM_REFERENCE_COUNT>());
}

TEST_CASE("Kernel handle semantics") {
    const auto program = openclaw::Program::build(env().context, source);
    const auto kernel = program.kernel<openclaw::InOut<float>, cl_float>("scale");
    check_handle_semantics(kernel, counter<cl_kernel, CL_KERNEL_REFERENCE_COUNT>());
}

TEST_CASE("Event handle semantics") {
    // A user event: the driver holds no reference of its own that it could drop mid-test (PoCL
    // lets go of a finished command's event a little after wait() returns).
    cl_int code = CL_SUCCESS;
    const openclaw::Event event =
        openclaw::Event::adopt(clCreateUserEvent(env().context.get(), &code));
    REQUIRE(code == CL_SUCCESS);
    check_handle_semantics(event, counter<cl_event, CL_EVENT_REFERENCE_COUNT>());
    REQUIRE(clSetUserEventStatus(event.get(), CL_COMPLETE) == CL_SUCCESS);
    event.wait();
    CHECK(event.is_complete());
}

TEST_CASE("Device handle semantics (sub-devices are reference counted)") {
    const openclaw::Device& root = env().device;
    // Root devices ignore retain/release; copies still compare equal and stay usable.
    const openclaw::Device copy = root;
    CHECK(copy == root);
    CHECK(copy.name() == root.name());

    const auto properties = root.info<CL_DEVICE_PARTITION_PROPERTIES>();
    const bool equally = std::find(properties.begin(), properties.end(),
                                   CL_DEVICE_PARTITION_EQUALLY) != properties.end();
    if (!equally || root.max_compute_units() < 2) {
        WARN("\"" << root.name() << "\" cannot be partitioned: sub-device counts not checked");
        return;
    }
    // Two halves of the root device.
    const cl_device_partition_property partition[] = {
        CL_DEVICE_PARTITION_EQUALLY,
        static_cast<cl_device_partition_property>(root.max_compute_units() / 2), 0};
    cl_uint made = 0;
    REQUIRE(clCreateSubDevices(root.get(), partition, 0, nullptr, &made) == CL_SUCCESS);
    std::vector<cl_device_id> subs(made);
    REQUIRE(clCreateSubDevices(root.get(), partition, made, subs.data(), nullptr) == CL_SUCCESS);
    std::vector<openclaw::Device> owned;
    for (cl_device_id sub : subs) {
        owned.push_back(openclaw::Device::adopt(sub));  // owns the one reference
    }
    const openclaw::Device& device = owned.front();
    check_handle_semantics(device, counter<cl_device_id, CL_DEVICE_REFERENCE_COUNT>());
    CHECK(device.info<CL_DEVICE_PARENT_DEVICE>() == root.get());
}

TEST_CASE("Platform is a plain value") {
    const openclaw::Platform platform = env().device.platform();
    openclaw::Platform copy = platform;
    CHECK(copy == platform);
    openclaw::Platform moved = std::move(copy);
    CHECK(moved == platform);
    CHECK(moved.name() == platform.name());
}

TEST_CASE("adopt takes the caller's reference, retain shares it, detach gives it back") {
    cl_int code = CL_SUCCESS;
    cl_mem raw = clCreateBuffer(env().context.get(), CL_MEM_READ_WRITE, 64, nullptr, &code);
    REQUIRE(code == CL_SUCCESS);
    const auto count = counter<cl_mem, CL_MEM_REFERENCE_COUNT>();
    REQUIRE(count(raw) == 1);
    {
        const auto shared = openclaw::ReadWriteBuffer<float>::retain(raw);
        CHECK(count(raw) == 2);
        CHECK(shared.size() == 16);  // 64 bytes of float
    }
    CHECK(count(raw) == 1);  // retain gave its reference back; ours is intact

    REQUIRE(clRetainMemObject(raw) == CL_SUCCESS);  // a reference for adopt to own
    {
        const auto owned = openclaw::ReadWriteBuffer<cl_int>::adopt(raw);
        CHECK(count(raw) == 2);
        CHECK(owned.size() == 16);
    }
    CHECK(count(raw) == 1);  // adopt released the reference it took over

    auto handle = openclaw::detail::Handle<cl_mem>::retain(raw);
    CHECK(count(raw) == 2);
    cl_mem detached = handle.detach();
    CHECK(detached == raw);
    CHECK_FALSE(static_cast<bool>(handle));
    CHECK(count(raw) == 2);  // detach released nothing: the reference is ours again
    REQUIRE(clReleaseMemObject(detached) == CL_SUCCESS);
    REQUIRE(clReleaseMemObject(raw) == CL_SUCCESS);
}

TEST_CASE("wrapping a raw buffer checks that its size fits the element type") {
    cl_int code = CL_SUCCESS;
    cl_mem raw = clCreateBuffer(env().context.get(), CL_MEM_READ_WRITE, 10, nullptr, &code);
    REQUIRE(code == CL_SUCCESS);
    const auto error = openclaw_test::thrown<openclaw::Error>(
        [&] { (void)openclaw::ReadOnlyBuffer<float>::retain(raw); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_MEM_OBJECT);
    CHECK_THAT(error->what(), openclaw_test::has("10 bytes is not a whole number of 4-byte"));
    CHECK(counter<cl_mem, CL_MEM_REFERENCE_COUNT>()(raw) == 1);  // the failed wrap let go
    REQUIRE(clReleaseMemObject(raw) == CL_SUCCESS);
}

TEST_CASE("queries on empty objects are refused before the driver sees them, naming the object") {
    using openclaw_test::has;
    using openclaw_test::thrown;
    const auto refused = [](auto query, cl_int code, const char* call, const char* object) {
        const auto error = thrown<openclaw::Error>(query);
        REQUIRE(error);
        CHECK(error->cl_code() == code);
        CHECK(error->call() == call);
        CHECK_THAT(error->what(), has(std::string("the ") + object +
                                      " is empty (default-constructed or moved-from)"));
    };
    const openclaw::Platform platform;
    const openclaw::Device device;
    const openclaw::Context context;
    const openclaw::Queue queue;
    const openclaw::Program program;
    const openclaw::DynamicKernel kernel;
    const openclaw::Event event;
    const openclaw::ReadWriteBuffer<float> buffer;
    refused([&] { (void)platform.name(); }, CL_INVALID_PLATFORM, "clGetPlatformInfo", "platform");
    refused([&] { (void)platform.devices(); }, CL_INVALID_PLATFORM, "clGetDeviceIDs", "platform");
    refused([&] { (void)device.name(); }, CL_INVALID_DEVICE, "clGetDeviceInfo", "device");
    refused([&] { (void)context.info<CL_CONTEXT_NUM_DEVICES>(); }, CL_INVALID_CONTEXT,
            "clGetContextInfo", "context");
    refused([&] { (void)queue.device(); }, CL_INVALID_COMMAND_QUEUE, "clGetCommandQueueInfo",
            "queue");
    refused([&] { queue.finish(); }, CL_INVALID_COMMAND_QUEUE, "clFinish", "queue");
    refused([&] { (void)queue.marker(); }, CL_INVALID_COMMAND_QUEUE, "clEnqueueMarkerWithWaitList",
            "queue");
    refused([&] { (void)program.kernel_names(); }, CL_INVALID_PROGRAM, "clGetProgramInfo",
            "program");
    refused([&] { (void)kernel.info<CL_KERNEL_NUM_ARGS>(); }, CL_INVALID_KERNEL, "clGetKernelInfo",
            "kernel");
    refused([&] { event.wait(); }, CL_INVALID_EVENT, "clWaitForEvents", "event");
    refused([&] { (void)event.status(); }, CL_INVALID_EVENT, "clGetEventInfo", "event");
    refused([&] { event.on_complete([] {}); }, CL_INVALID_EVENT, "clSetEventCallback", "event");
    refused([&] { (void)buffer.info<CL_MEM_SIZE>(); }, CL_INVALID_MEM_OBJECT, "clGetMemObjectInfo",
            "memory object");
    refused([&] { (void)openclaw::UserEvent(context); }, CL_INVALID_CONTEXT, "clCreateUserEvent",
            "context");
    refused([&] { (void)openclaw::Queue(context, device); }, CL_INVALID_CONTEXT,
            "clCreateCommandQueue", "context");
    refused([&] { (void)openclaw::Queue(env().context, device); }, CL_INVALID_DEVICE,
            "clCreateCommandQueue", "device");
    refused([&] { (void)openclaw::Program::build(context, source); }, CL_INVALID_CONTEXT,
            "clCreateProgramWithSource", "context");
    refused([&] { (void)openclaw::ReadWriteBuffer<float>(context, 4); }, CL_INVALID_CONTEXT,
            "clCreateBuffer", "context");
    // The same through an error code: nothing reaches the driver, nothing throws.
    std::error_code ec;
    CHECK(device.name(ec).empty());
    CHECK(ec == openclaw::make_error_code(CL_INVALID_DEVICE));
}

TEST_CASE("a self-move keeps a kernel's arguments, typed and dynamic") {
    const auto program = openclaw::Program::build(env().context, source);
    const openclaw::ReadWriteBuffer<float> data{env().queue, std::vector<float>(8, 2.0f)};
    auto dynamic = program.kernel("scale");
    dynamic.set_args(data, 3.0f);
    openclaw::DynamicKernel& dynamic_alias = dynamic;
    dynamic = std::move(dynamic_alias);
    REQUIRE(dynamic);
    CHECK(dynamic.arity() == 2);
    env().queue.enqueue(dynamic, openclaw::NDRange{8});  // every argument still set
    auto typed = program.kernel<openclaw::InOut<float>, cl_float>("scale");
    typed.set_args(data, 0.5f);
    auto& typed_alias = typed;
    typed = std::move(typed_alias);
    REQUIRE(typed);
    env().queue.enqueue(typed, openclaw::NDRange{8});
    std::vector<float> back(8);
    env().queue.read(data, back);
    CHECK(back == std::vector<float>(8, 3.0f));  // 2 * 3 * 0.5
}

namespace {
// Assignment from the object itself, through two references (so that no compiler sees a
// self-move to warn about).
template <class T>
void move_assign(T& to, T& from) {
    to = std::move(from);
}
template <class T>
void copy_assign(T& to, const T& from) {
    to = from;
}
}  // namespace

TEST_CASE("every type keeps its value when moved or copied onto itself") {
    // Build options: the text and the settings survive (a later build would lose them).
    openclaw::BuildOptions options{"-cl-mad-enable -DWIDTH=1024 -DHEIGHT=768 -DSOMETHING_LONG=1"};
    options.kernel_arg_info(false);
    const std::string text = options.str();
    move_assign(options, options);
    CHECK(options.str() == text);
    CHECK(!options.adds_kernel_arg_info());
    copy_assign(options, options);
    CHECK(options.str() == text);

    // A wait list past its inline capacity (its events on the heap).
    std::vector<openclaw::UserEvent> gates;
    openclaw::WaitList wait;
    for (int i = 0; i < 12; ++i) {
        gates.emplace_back(env().context);
        wait.add(gates.back());
    }
    move_assign(wait, wait);
    REQUIRE(wait.size() == 12);
    CHECK(wait.data()[11] == gates[11].get());
    copy_assign(wait, wait);
    REQUIRE(wait.size() == 12);
    CHECK(wait.data()[0] == gates[0].get());
    for (openclaw::UserEvent& gate : gates) {
        gate.complete();
    }

    // Handles and the objects built on them.
    openclaw::Context context = env().context;
    move_assign(context, context);
    CHECK(context.get() == env().context.get());
    openclaw::Queue queue = env().queue;
    move_assign(queue, queue);
    copy_assign(queue, queue);
    CHECK(queue.get() == env().queue.get());
    openclaw::ReadWriteBuffer<int> buffer{env().context, std::vector<int>{1, 2, 3, 4}};
    const cl_mem raw = buffer.get();
    move_assign(buffer, buffer);
    copy_assign(buffer, buffer);
    CHECK(buffer.get() == raw);
    CHECK(buffer.size() == 4);
    openclaw::Program program = openclaw::Program::build(
        env().context, "__kernel void twice(__global int* p) { p[get_global_id(0)] *= 2; }");
    move_assign(program, program);
    copy_assign(program, program);
    auto kernel = program.kernel<openclaw::InOut<int>>("twice");
    move_assign(kernel, kernel);
    copy_assign(kernel, kernel);
    openclaw::DynamicKernel dynamic = program.kernel("twice");
    move_assign(dynamic, dynamic);
    copy_assign(dynamic, dynamic);
    queue.enqueue(kernel.set_args(buffer), openclaw::NDRange{4});
    queue.enqueue(dynamic.set_args(buffer), openclaw::NDRange{4});
    std::vector<int> back(4);
    queue.read(buffer, back);
    CHECK(back == std::vector<int>{4, 8, 12, 16});
    openclaw::Event event = queue.marker();
    const cl_event raw_event = event.get();
    move_assign(event, event);
    copy_assign(event, event);
    CHECK(event.get() == raw_event);
    openclaw::PinnedBuffer<int> pinned{queue, 4};
    move_assign(pinned, pinned);
    CHECK(pinned.size() == 4);
    auto transfer = queue.write(buffer, std::vector<int>{5, 6, 7, 8}, openclaw::nonblocking);
    move_assign(transfer, transfer);
    CHECK(std::move(transfer).get() == std::vector<int>{5, 6, 7, 8});
    {
        auto view = queue.map_read(buffer);
        move_assign(view, view);
        REQUIRE(view.size() == 4);
        CHECK(view[3] == 8);
    }
    openclaw::Status status;
    std::vector<int> two(2);
    queue.read(buffer, two, status);
    const std::string what = status.what();
    move_assign(status, status);
    copy_assign(status, status);
    CHECK(status.what() == what);
    CHECK(status.cl_code() == CL_INVALID_VALUE);
}
