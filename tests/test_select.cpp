// Device selection: the OPENCLAW_DEVICE syntax, the GPU > accelerator > CPU preference,
// predicates, and errors that list what exists.
#include <openclaw/all.hpp>

#include <cstdlib>
#include <string>

#include "support/catch.hpp"
#include "support/fixture.hpp"

using openclaw::DeviceSpec;
using openclaw::DeviceType;
using openclaw_test::env;
using openclaw_test::has;
using openclaw_test::thrown;

TEST_CASE("device specs are parsed part by part") {
    const DeviceSpec full = DeviceSpec::parse("NVIDIA:gpu:1");
    CHECK(full.platform == "NVIDIA");
    CHECK(full.type == DeviceType::gpu);
    CHECK(full.index == 1u);
    const DeviceSpec empty = DeviceSpec::parse("");
    CHECK(empty.platform.empty());
    CHECK_FALSE(empty.type.has_value());
    CHECK_FALSE(empty.index.has_value());
    CHECK(DeviceSpec::parse(":CPU").type == DeviceType::cpu);
    CHECK(DeviceSpec::parse("::12").index == 12u);
    CHECK_FALSE(DeviceSpec::parse("pocl:all").type.has_value());

    const auto type = thrown<openclaw::Error>([] { (void)DeviceSpec::parse("x:gpx"); });
    REQUIRE(type);
    CHECK(type->cl_code() == CL_INVALID_VALUE);
    CHECK_THAT(type->what(), has("device type \"gpx\" in \"x:gpx\" is not gpu, cpu"));
    const auto index = thrown<openclaw::Error>([] { (void)DeviceSpec::parse("::one"); });
    REQUIRE(index);
    CHECK_THAT(index->what(), has("index \"one\" in \"::one\" is not a number"));
}

TEST_CASE("without a spec the most preferred type wins") {
    const auto all = openclaw::find_devices([](const openclaw::Device&) { return true; });
    REQUIRE_FALSE(all.empty());
    const auto rank = [](const openclaw::Device& d) {
        return d.is_gpu() ? 0 : d.is_accelerator() ? 1 : d.is_cpu() ? 2 : 3;
    };
    int best = 4;
    for (const auto& d : all) {
        best = std::min(best, rank(d));
    }
    const openclaw::DeviceChoice choice =
        openclaw::choose_device(DeviceSpec{}, [](const openclaw::Device&) { return true; });
    CHECK(rank(choice.device) == best);
    CHECK_THAT(choice.reason, has(choice.device.name()));
    CHECK_THAT(choice.reason, has(best == 0 ? "the first GPU" : "no GPU"));
}

TEST_CASE("a spec picks by platform, type and index") {
    const openclaw::Platform platform = env().device.platform();
    const std::string name = platform.name();
    const std::string part = name.substr(0, std::min<std::size_t>(name.size(), 6));
    const openclaw::Device by_platform = openclaw::select_device(part);
    CHECK(by_platform.platform() == platform);
    const std::string typed = part + ":" + std::string(to_string(env().device.type()));
    CHECK(openclaw::select_device(typed).type() == env().device.type());
    CHECK(openclaw::select_device(part + "::0") == platform.devices().front());
}

TEST_CASE("a spec that matches nothing lists the devices that exist") {
    const auto error =
        thrown<openclaw::Error>([] { (void)openclaw::select_device("no-such-platform:gpu"); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_DEVICE_NOT_FOUND);
    CHECK_THAT(error->what(), has("\"no-such-platform:gpu\" matches no device; the devices "
                                  "here are:"));
    CHECK_THAT(error->what(), has(env().device.name()));
    const auto index = thrown<openclaw::Error>([] { (void)openclaw::select_device("::999"); });
    REQUIRE(index);
    CHECK_THAT(index->what(), has("no index 999"));
}

TEST_CASE("predicates filter devices") {
    const std::string name = env().device.name();
    const openclaw::Device same =
        openclaw::select_device([&](const openclaw::Device& d) { return d.name() == name; });
    CHECK(same.name() == name);
    const auto none = thrown<openclaw::Error>(
        [] { (void)openclaw::select_device([](const openclaw::Device&) { return false; }); });
    REQUIRE(none);
    CHECK(none->cl_code() == CL_DEVICE_NOT_FOUND);
    CHECK_THAT(none->what(), has("the device filter matches no device"));
}

TEST_CASE("OPENCLAW_DEVICE steers select_device") {
    const std::string type(to_string(env().device.type()));
    REQUIRE(setenv("OPENCLAW_DEVICE", (":" + type).c_str(), 1) == 0);
    const openclaw::DeviceChoice choice = openclaw::choose_device();
    CHECK(choice.device.type() == env().device.type());
    CHECK_THAT(choice.reason, has("OPENCLAW_DEVICE=:" + type));
    REQUIRE(setenv("OPENCLAW_DEVICE", "bogus-platform", 1) == 0);
    const auto error = thrown<openclaw::Error>([] { (void)openclaw::select_device(); });
    unsetenv("OPENCLAW_DEVICE");
    REQUIRE(error);
    CHECK_THAT(error->what(), has("\"OPENCLAW_DEVICE=bogus-platform\" matches no device"));
}
