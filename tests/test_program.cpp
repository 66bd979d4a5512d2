// Programs: builds with options, build failures that carry the compiler's log, and the logs of
// successful builds.
#include <openclaw/openclaw.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "support/catch.hpp"
#include "support/fixture.hpp"

using openclaw_test::env;
using openclaw_test::has;
using openclaw_test::thrown;

namespace {

constexpr const char* with_define = R"CLC(
__kernel void add_constant(__global int* data) {
    data[get_global_id(0)] += ADDEND;
}
__kernel void unused(__global int* data) { data[0] = 0; }
)CLC";

}  // namespace

TEST_CASE("build options reach the compiler") {
    const auto program = openclaw::Program::build(env().context, with_define, {"-DADDEND=42"});
    auto names = program.kernel_names();
    std::sort(names.begin(), names.end());
    CHECK(names == std::vector<std::string>{"add_constant", "unused"});
    CHECK(program.devices() == std::vector<openclaw::Device>{env().device});
    CHECK(program.context() == env().context);
    CHECK_THAT(program.build_info<CL_PROGRAM_BUILD_OPTIONS>(env().device), has("-DADDEND=42"));
    CHECK(program.build_info<CL_PROGRAM_BUILD_STATUS>(env().device) == CL_BUILD_SUCCESS);

    const openclaw::ReadWriteBuffer<cl_int> data{env().context, std::vector<cl_int>(16, 1)};
    auto add = program.kernel<openclaw::InOut<cl_int>>("add_constant");
    env().queue.enqueue(add.set_args(data), openclaw::NDRange{16});
    std::vector<cl_int> back(16);
    data.read(env().queue, back);
    CHECK(back == std::vector<cl_int>(16, 43));
}

TEST_CASE("BuildOptions joins options and finds them") {
    openclaw::BuildOptions options{"-cl-fast-relaxed-math", "-DN=4"};
    options.add("-Werror");
    CHECK(options.str() == "-cl-fast-relaxed-math -DN=4 -Werror");
    CHECK(options.contains("-DN=4"));
    CHECK(options.contains("-Werror"));
    CHECK_FALSE(options.contains("-DN=5"));
    CHECK_FALSE(options.contains("relaxed-math"));  // only whole options count
    const openclaw::BuildOptions single = "-cl-mad-enable";
    CHECK(single.str() == "-cl-mad-enable");
    const std::string text = "-DX=1";
    CHECK(openclaw::BuildOptions(text).str() == "-DX=1");
    CHECK(openclaw::BuildOptions{}.str().empty());
    CHECK(openclaw::detail::allows_non_uniform_groups({"-cl-std=CL2.0"}));
    CHECK(openclaw::detail::allows_non_uniform_groups({"-O2", "-cl-std=CL3.0"}));
    CHECK_FALSE(openclaw::detail::allows_non_uniform_groups({"-cl-std=CL1.2"}));
    CHECK_FALSE(openclaw::detail::allows_non_uniform_groups(
        {"-cl-std=CL2.0", "-cl-uniform-work-group-size"}));
}

TEST_CASE("a failed build throws BuildError with the compiler's log") {
    const char* broken = R"CLC(
__kernel void broken(__global float* out) {
    out[0] = undefined_thing_here;
}
)CLC";
    const auto error = thrown<openclaw::BuildError>(
        [&] { (void)openclaw::Program::build(env().context, broken, {"-DUNUSED=1"}); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_BUILD_PROGRAM_FAILURE);
    CHECK(error->call() == "clBuildProgram");
    REQUIRE(error->logs().size() == 1);
    CHECK(error->logs()[0].device_name == env().device.name());
    CHECK(error->logs()[0].status == CL_BUILD_ERROR);
    CHECK_THAT(error->logs()[0].log, has("undefined_thing_here"));
    const std::string what = error->what();
    CHECK_THAT(what, has("clBuildProgram: CL_BUILD_PROGRAM_FAILURE (-11): the build failed for 1 "
                         "of 1 device(s), options \"-DUNUSED=1\""));
    CHECK_THAT(what, has("build log of device \"" + env().device.name() + "\" (failed)"));
    CHECK_THAT(what, has("undefined_thing_here"));
    // A BuildError is caught as an Error too.
    CHECK(thrown<openclaw::Error>([&] { (void)openclaw::Program::build(env().context, broken); }));
}

TEST_CASE("an invalid build option is reported as such") {
    const auto error = thrown<openclaw::Error>([] {
        (void)openclaw::Program::build(env().context, with_define,
                                       {"-DADDEND=1", "--no-such-option-openclaw"});
    });
    REQUIRE(error);
    // The spec says CL_INVALID_BUILD_OPTIONS; some compilers report a failed build instead.
    CHECK((error->cl_code() == CL_INVALID_BUILD_OPTIONS ||
           error->cl_code() == CL_BUILD_PROGRAM_FAILURE));
    CHECK_THAT(error->what(), has("--no-such-option-openclaw"));
}

TEST_CASE("an empty source is refused before the driver sees it") {
    const auto error =
        thrown<openclaw::Error>([] { (void)openclaw::Program::build(env().context, ""); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_VALUE);
    CHECK_THAT(error->what(), has("clCreateProgramWithSource: CL_INVALID_VALUE (-30): the source "
                                  "is empty"));
}

TEST_CASE("a successful build keeps every device's log readable") {
    const auto program = openclaw::Program::build(env().context, with_define, {"-DADDEND=1"});
    const auto logs = program.build_logs();
    REQUIRE(logs.size() == 1);
    CHECK(logs[0].device_name == env().device.name());
    CHECK(logs[0].status == CL_BUILD_SUCCESS);
    CHECK(logs[0].log == program.build_log(env().device));
}

TEST_CASE("a kernel of a program that was never built is refused with the reason") {
    const char* text = with_define;
    cl_int code = CL_SUCCESS;
    cl_program raw = clCreateProgramWithSource(env().context.get(), 1, &text, nullptr, &code);
    REQUIRE(code == CL_SUCCESS);
    const auto unbuilt = openclaw::Program::adopt(raw);  // created, not built
    const auto error = thrown<openclaw::Error>(
        [&] { (void)unbuilt.kernel<openclaw::InOut<cl_int>>("add_constant"); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_PROGRAM_EXECUTABLE);
    CHECK(std::string(error->what()) ==
          "clCreateKernel: CL_INVALID_PROGRAM_EXECUTABLE (-45): kernel \"add_constant\": the "
          "program is not built");
}
