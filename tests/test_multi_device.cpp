// Several devices in one context: split() in proportion to weights with aligned slices, and a
// vector add split across sub-devices of one CPU (PoCL) matching the single-device result.
#include <openclaw/all.hpp>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "support/catch.hpp"
#include "support/fixture.hpp"

using openclaw::In;
using openclaw::NDRange;
using openclaw::Out;
using openclaw_test::env;
using openclaw_test::has;
using openclaw_test::thrown;

TEST_CASE("split shares a range by weight in aligned slices") {
    using openclaw::Slice;
    const std::vector<double> equal = {1, 1, 1, 1};
    CHECK(openclaw::split(100, equal) == std::vector<Slice>{{0, 25}, {25, 25}, {50, 25}, {75, 25}});
    const std::vector<double> uneven = {3, 1};
    CHECK(openclaw::split(1000, uneven, 32) == std::vector<Slice>{{0, 736}, {736, 264}});
    for (const Slice& s : openclaw::split(1000, uneven, 32)) {
        CHECK(s.offset % 32 == 0);
    }
    const std::vector<double> with_zero = {1, 0, 1};
    const auto slices = openclaw::split(10, with_zero);
    CHECK(slices[1].count == 0);
    CHECK(slices[0].count + slices[2].count == 10);
    CHECK(slices[2].offset + slices[2].count == 10);
    // Fewer elements than one granule: the last weighted slice takes everything.
    CHECK(openclaw::split(5, equal, 32).back() == Slice{0, 5});

    const std::vector<double> negative = {1, -1};
    const auto error = thrown<openclaw::Error>([&] { (void)openclaw::split(10, negative); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_VALUE);
    CHECK_THAT(error->what(), has("weight 1 is -1"));
    const std::vector<double> zeros = {0, 0};
    CHECK(thrown<openclaw::Error>([&] { (void)openclaw::split(10, zeros); }));
}

TEST_CASE("partition_by_counts takes a braced list of counts") {
    const openclaw::Device& root = env().device;
    const auto properties = root.info<CL_DEVICE_PARTITION_PROPERTIES>();
    const bool by_counts = std::find(properties.begin(), properties.end(),
                                     CL_DEVICE_PARTITION_BY_COUNTS) != properties.end();
    if (!by_counts || root.max_compute_units() < 2) {
        const auto error = thrown<openclaw::Error>([&] { (void)root.partition_by_counts({1, 1}); });
        REQUIRE(error);
        CHECK(error->call() == "clCreateSubDevices");
        CHECK_THAT(error->what(), has("by counts 1 1"));
        return;
    }
    const std::vector<openclaw::Device> parts = root.partition_by_counts({1, 1});
    REQUIRE(parts.size() == 2);
    for (const openclaw::Device& part : parts) {
        CHECK(part.max_compute_units() == 1);
    }
    // The same from a container.
    const std::vector<cl_uint> counts = {1, 1};
    CHECK(root.partition_by_counts(counts).size() == 2);
}

TEST_CASE("a vector add split across sub-devices matches the single-device result") {
    const openclaw::Device& root = env().device;
    const auto properties = root.info<CL_DEVICE_PARTITION_PROPERTIES>();
    const bool equally = std::find(properties.begin(), properties.end(),
                                   CL_DEVICE_PARTITION_EQUALLY) != properties.end();
    if (!equally || root.max_compute_units() < 2) {
        const auto error = thrown<openclaw::Error>([&] { (void)root.partition_equally(1); });
        REQUIRE(error);
        CHECK(error->call() == "clCreateSubDevices");
        CHECK_THAT(error->what(), has("partitioning \"" + root.name() + "\" equally"));
        WARN("\"" << root.name() << "\" cannot be partitioned: multi-device run not tried");
        return;
    }
    const std::vector<openclaw::Device> devices =
        root.partition_equally(root.max_compute_units() / 2);
    REQUIRE(devices.size() >= 2);
    const openclaw::Context context{devices};
    // The context lists the devices it was made of (PoCL's own answer would be the root device).
    const auto listed = context.devices();
    CHECK(listed == devices);
    const char* source = R"CLC(
__kernel void add(__global const float* a, __global const float* b, __global float* c) {
    const size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
})CLC";
    const auto program = openclaw::Program::build(context, source);
    CHECK_FALSE(program.build_logs().empty());  // a log per device the driver lists

    const std::size_t n = 1 << 20;
    std::vector<float> a(n), b(n);
    std::iota(a.begin(), a.end(), 0.0f);
    std::iota(b.begin(), b.end(), 1.0f);
    const openclaw::ReadOnlyBuffer<float> da{context, a};
    const openclaw::ReadOnlyBuffer<float> db{context, b};
    const openclaw::WriteOnlyBuffer<float> dc{context, n};
    const auto slices = openclaw::split(n, devices, dc.sub_alignment());
    std::vector<openclaw::Queue> queues;
    std::vector<openclaw::Event> done;
    // The sub-buffers stay alive until the launches finish: a kernel holds raw handles only.
    std::vector<openclaw::ReadOnlyBuffer<float>> inputs;
    std::vector<openclaw::WriteOnlyBuffer<float>> outputs;
    for (std::size_t d = 0; d < devices.size(); ++d) {
        queues.emplace_back(context, devices[d]);
        if (slices[d].count == 0) {
            continue;
        }
        auto add = program.kernel<In<float>, In<float>, Out<float>>("add");
        inputs.push_back(da.sub(slices[d].offset, slices[d].count));
        inputs.push_back(db.sub(slices[d].offset, slices[d].count));
        outputs.push_back(dc.sub(slices[d].offset, slices[d].count));
        add.set_args(inputs[inputs.size() - 2], inputs.back(), outputs.back());
        done.push_back(queues[d].enqueue(add, NDRange{slices[d].count}, openclaw::with_event));
    }
    openclaw::Event::wait_all(done);
    std::vector<float> split_result(n);
    queues.front().read(dc, split_result);

    // The same on the root device alone.
    const openclaw::ReadOnlyBuffer<float> ra{env().context, a};
    const openclaw::ReadOnlyBuffer<float> rb{env().context, b};
    const openclaw::WriteOnlyBuffer<float> rc{env().context, n};
    const auto single = openclaw::Program::build(env().context, source);
    auto add = single.kernel<In<float>, In<float>, Out<float>>("add");
    env().queue.enqueue(add.set_args(ra, rb, rc), NDRange{n});
    std::vector<float> single_result(n);
    env().queue.read(rc, single_result);
    CHECK(split_result == single_result);
}

TEST_CASE("a program built for some of the context's devices runs on those") {
    const char* source = R"CLC(
__kernel void mark(__global int* out, const int value) { out[get_global_id(0)] = value; }
)CLC";
    // The list is checked against the context first: empty, foreign, twice.
    const auto empty = thrown<openclaw::Error>([&] {
        (void)openclaw::Program::build(env().context, std::vector<openclaw::Device>{}, source);
    });
    REQUIRE(empty);
    CHECK(empty->cl_code() == CL_INVALID_VALUE);
    const auto twice = thrown<openclaw::Error>([&] {
        (void)openclaw::Program::build(env().context, {env().device, env().device}, source);
    });
    REQUIRE(twice);
    CHECK(twice->cl_code() == CL_INVALID_DEVICE);
    CHECK_THAT(twice->what(), has("clBuildProgram: CL_INVALID_DEVICE (-33): device 1 (\"" +
                                  env().device.name() + "\") is listed twice"));
    const auto none = thrown<openclaw::Error>(
        [&] { (void)openclaw::Program::build(env().context, {openclaw::Device{}}, source); });
    REQUIRE(none);
    CHECK(none->cl_code() == CL_INVALID_DEVICE);

    // One device of a one-device context: the same program as build(context, source).
    const auto one = openclaw::Program::build(env().context, {env().device}, source);
    CHECK(one.devices() == std::vector<openclaw::Device>{env().device});
    const openclaw::WriteOnlyBuffer<cl_int> out{env().context, 16};
    auto mark = one.kernel<openclaw::Out<cl_int>, cl_int>("mark");
    env().queue.enqueue(mark.set_args(out, 9), NDRange{16});
    std::vector<cl_int> back(16);
    env().queue.read(out, back);
    CHECK(back == std::vector<cl_int>(16, 9));

    const openclaw::Device& root = env().device;
    const auto properties = root.info<CL_DEVICE_PARTITION_PROPERTIES>();
    const bool equally = std::find(properties.begin(), properties.end(),
                                   CL_DEVICE_PARTITION_EQUALLY) != properties.end();
    if (!equally || root.max_compute_units() < 2) {
        // A device outside the context is refused, naming the context's devices.
        WARN("\"" << root.name() << "\" cannot be partitioned: subset of two devices not tried");
        return;
    }
    const std::vector<openclaw::Device> devices =
        root.partition_equally(root.max_compute_units() / 2);
    REQUIRE(devices.size() >= 2);
    const openclaw::Context context{devices};
    const auto foreign = thrown<openclaw::Error>(
        [&] { (void)openclaw::Program::build(context, {env().device}, source); });
    REQUIRE(foreign);
    CHECK(foreign->cl_code() == CL_INVALID_DEVICE);
    CHECK_THAT(foreign->what(), has("is not one of the context's devices"));

    // A failed build names every device it was for, with a log each (PoCL reports one device,
    // the root, for a program of its sub-devices: the build's own list is what counts).
    const auto broken = thrown<openclaw::BuildError>(
        [&] { (void)openclaw::Program::build(context, "__kernel void k() { undefined_x = 1; }"); });
    REQUIRE(broken);
    const std::string count = std::to_string(devices.size());
    CHECK_THAT(broken->what(),
               has("the build failed for " + count + " of " + count + " device(s)"));
    CHECK(broken->logs().size() == devices.size());
    for (const auto& log : broken->logs()) {
        CHECK(log.status == CL_BUILD_ERROR);
        CHECK_THAT(log.log, has("undefined_x"));
    }
    const auto first_only = openclaw::Program::build(context, {devices[0]}, source);
    // The device it was built for (PoCL itself names the root device for it).
    CHECK(first_only.devices() == std::vector<openclaw::Device>{devices[0]});
    CHECK(openclaw::Program::build(context, source).devices() == devices);
    const openclaw::WriteOnlyBuffer<cl_int> shared{context, 16};
    auto on_first = first_only.kernel<openclaw::Out<cl_int>, cl_int>("mark");
    on_first.set_args(shared, 4);
    const openclaw::Queue first{context, devices[0]};
    first.enqueue(on_first, NDRange{16});
    first.read(shared, back);
    CHECK(back == std::vector<cl_int>(16, 4));
    // The other device has no executable for it where the driver builds per device: it refuses
    // the launch, and openclaw says why. (PoCL builds a sub-device's program for the root
    // device, so every sub-device runs it.)
    const openclaw::Queue second{context, devices[1]};
    std::error_code ec;
    second.enqueue(on_first, NDRange{16}, NDRange{}, ec);
    if (ec) {
        const auto missing =
            thrown<openclaw::Error>([&] { second.enqueue(on_first, NDRange{16}); });
        REQUIRE(missing);
        CHECK(missing->cl_code() == CL_INVALID_PROGRAM_EXECUTABLE);
        CHECK_THAT(missing->what(),
                   has("the kernel's program is not built for the queue's device"));
    } else {
        second.finish();
        WARN("the driver runs a program built for one sub-device on its sibling too");
    }
}
