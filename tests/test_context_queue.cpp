// Contexts, queues and launch ranges.
#include <openclaw/all.hpp>

#include <algorithm>
#include <vector>

#include "support/catch.hpp"
#include "support/fixture.hpp"

using openclaw_test::env;
using openclaw_test::has;
using openclaw_test::thrown;

namespace {

// A device of another platform than the test device's, if the machine has one.
openclaw::Device device_of_another_platform() {
    for (const auto& platform : openclaw::Platform::list()) {
        if (platform == env().device.platform()) {
            continue;
        }
        for (const auto& device : platform.devices()) {
            return device;
        }
    }
    return {};
}

}  // namespace

TEST_CASE("a context over one device lists that device") {
    const openclaw::Context context{env().device};
    const auto devices = context.devices();
    REQUIRE(devices.size() == 1);
    CHECK(devices[0] == env().device);
    CHECK(context.info<CL_CONTEXT_NUM_DEVICES>() == 1);
}

TEST_CASE("contexts refuse bad device lists before calling the driver") {
    SECTION("no devices") {
        const auto error = thrown<openclaw::Error>(
            [] { openclaw::Context context{std::span<const openclaw::Device>{}}; });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_VALUE);
        CHECK_THAT(error->what(), has("clCreateContext: CL_INVALID_VALUE (-30): no devices"));
    }
    SECTION("an empty device") {
        const std::vector<openclaw::Device> devices = {env().device, openclaw::Device{}};
        const auto error = thrown<openclaw::Error>([&] { openclaw::Context context{devices}; });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_DEVICE);
        CHECK_THAT(error->what(), has("device 1 is empty"));
    }
    SECTION("devices of two platforms") {
        const openclaw::Device other = device_of_another_platform();
        if (!other) {
            WARN("only one platform here: the two-platform context is not tried");
            return;
        }
        const std::vector<openclaw::Device> devices = {env().device, other};
        const auto error = thrown<openclaw::Error>([&] { openclaw::Context context{devices}; });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_DEVICE);
        CHECK_THAT(error->what(), has("a context spans one platform"));
    }
}

TEST_CASE("a queue knows its context, device and options") {
    const openclaw::Queue queue{env().context, env().device};
    CHECK(queue.context() == env().context);
    CHECK(queue.device() == env().device);
    CHECK(queue.options() == openclaw::QueueOptions{});
    queue.flush();
    queue.finish();

    const openclaw::Queue profiled{env().context, env().device, {.profiling = true}};
    CHECK(profiled.options().profiling);
    CHECK_FALSE(profiled.options().out_of_order);

    const auto supported = env().device.info<0x102A /* CL_DEVICE_QUEUE_PROPERTIES */>();
    if ((supported & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0) {
        const openclaw::Queue unordered{env().context, env().device, {.out_of_order = true}};
        CHECK(unordered.options().out_of_order);
    }
}

TEST_CASE("a queue on a device outside the context is refused with the device named") {
    const openclaw::Device other = device_of_another_platform();
    if (!other) {
        WARN("only one platform here: the foreign-device queue is not tried");
        return;
    }
    const auto error = thrown<openclaw::Error>([&] {
        openclaw::Queue queue{env().context, other};
    });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_DEVICE);
    CHECK_THAT(error->what(), has("is not one of the context's devices"));
    CHECK_THAT(error->what(), has(other.name()));
}

TEST_CASE("NDRange holds 1 to 3 sizes") {
    constexpr openclaw::NDRange none;
    static_assert(none.empty() && none.dimensions() == 0 && none.data() == nullptr);
    static_assert(none.total() == 0);
    constexpr openclaw::NDRange line{1024};
    static_assert(line.dimensions() == 1 && line[0] == 1024 && line.total() == 1024);
    constexpr openclaw::NDRange cube{4, 8u, std::size_t{2}};
    static_assert(cube.dimensions() == 3 && cube.total() == 64);
    CHECK(cube.to_string() == "4x8x2");
    CHECK(none.to_string() == "(none)");
    const int n = 100;  // an int variable: accepted without a narrowing error
    CHECK(openclaw::NDRange{n}[0] == 100);

    // A constructor has no OnError: a negative size makes the range invalid, and the launch given
    // it refuses it (kernel/"a negative or overflowing NDRange is refused by the launch").
    const int negative = -3;
    const openclaw::NDRange invalid{16, negative};
    CHECK_FALSE(invalid.valid());
    CHECK(invalid.negative_dimension() == 1);
    CHECK(invalid.negative_size() == -3);
    CHECK(invalid.to_string() == "16x-3");
    CHECK(cube.valid());
    // The product of the sizes does not wrap: total() says 0 when it does not fit.
    constexpr openclaw::NDRange huge{std::size_t{1} << 32, std::size_t{1} << 32};
    static_assert(huge.total() == 0);
}

TEST_CASE("a queue on a sub-device the context does not hold is refused with both named") {
    // A sub-device is a device of its own: a context made from its parent does not contain it.
    const openclaw::Device& root = env().device;
    const auto properties = root.info<CL_DEVICE_PARTITION_PROPERTIES>();
    if (std::find(properties.begin(), properties.end(), CL_DEVICE_PARTITION_EQUALLY) ==
            properties.end() ||
        root.max_compute_units() < 2) {
        WARN("\"" << root.name()
                  << "\" cannot be partitioned: the foreign-device queue is not "
                     "tried");
        return;
    }
    const cl_device_partition_property partition[] = {
        CL_DEVICE_PARTITION_EQUALLY,
        static_cast<cl_device_partition_property>(root.max_compute_units() / 2), 0};
    cl_uint made = 0;
    REQUIRE(clCreateSubDevices(root.get(), partition, 0, nullptr, &made) == CL_SUCCESS);
    std::vector<cl_device_id> subs(made);
    REQUIRE(clCreateSubDevices(root.get(), partition, made, subs.data(), nullptr) == CL_SUCCESS);
    std::vector<openclaw::Device> parts;
    for (cl_device_id sub : subs) {
        parts.push_back(openclaw::Device::adopt(sub));
    }
    const openclaw::Device& part = parts.front();
    const auto error = thrown<openclaw::Error>([&] { openclaw::Queue queue{env().context, part}; });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_DEVICE);
    // The sub-device has its parent's name: the message says which is which.
    CHECK_THAT(
        error->what(),
        has("clCreateCommandQueue: CL_INVALID_DEVICE (-33): device sub-device \"" + part.name() +
            "\" (" + std::to_string(part.max_compute_units()) + " compute units) of \"" +
            root.name() + "\" is not one of the context's devices (\"" + root.name() +
            "\"): a context of the parent device does not hold its sub-devices"));
}
