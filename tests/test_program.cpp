// Programs: builds with options (raw and named), build failures that carry the compiler's log,
// the logs of successful builds, binaries, SPIR-V, and kernels made once per program and name.
#include <openclaw/all.hpp>
#include <openclaw/cache.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#if defined(__unix__)
#include <unistd.h>
#endif

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
    env().queue.read(data, back);
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

// Program::build builds again without the -cl-kernel-arg-info it added only when a build failed
// in the driver's assembler; a source error is reported as it is (and compiled once). The log is
// the one NVIDIA's driver 580 gave on the H200 for a kernel without parameters.
TEST_CASE("only an assembler failure makes Program::build try again without arg info") {
    using openclaw::BuildLog;
    const BuildLog assembler{"NVIDIA H200", CL_BUILD_ERROR,
                             "ptxas application ptx input, line 27; fatal   : Parsing error near "
                             "'}': syntax error\nptxas fatal   : Ptx assembly aborted due to "
                             "errors\n"};
    const BuildLog source_error{"NVIDIA H200", CL_BUILD_ERROR,
                                "<kernel>:3:14: error: use of undeclared identifier 'x'\n"};
    const BuildLog built{"NVIDIA H200", CL_BUILD_SUCCESS, "ptxas info: 0 bytes stack frame\n"};
    CHECK(openclaw::detail::assembler_failed({assembler}));
    CHECK(openclaw::detail::assembler_failed({built, assembler}));
    CHECK_FALSE(openclaw::detail::assembler_failed({source_error}));
    CHECK_FALSE(openclaw::detail::assembler_failed({built}));  // a log of a build that succeeded
    CHECK_FALSE(openclaw::detail::assembler_failed({}));

    // A real source error on this device is the error of the build with the option (a second
    // build without it would have reported its own options).
    const auto error = thrown<openclaw::BuildError>([] {
        (void)openclaw::Program::build(env().context,
                                       "__kernel void k(int a) { undefined_here = a; }",
                                       openclaw::BuildOptions{}.kernel_arg_info(true));
    });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_BUILD_PROGRAM_FAILURE);
    CHECK_THAT(error->what(), has("added by openclaw: "));
    CHECK_THAT(error->what(), has("-cl-kernel-arg-info)"));
    CHECK_THAT(error->what(), has("undefined_here"));
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

TEST_CASE("a kernel name with a null character is refused") {
    const auto program = openclaw::Program::build(env().context, with_define, {"-DADDEND=1"});
    using namespace std::string_view_literals;
    const auto error = thrown<openclaw::Error>(
        [&] { (void)program.kernel<openclaw::InOut<cl_int>>("add_constant\0x"sv); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_KERNEL_NAME);
    CHECK_THAT(error->what(), has("kernel name \"add_constant\\0x\" holds a null character"));
    // Not cut at the null: the kernel before it is not returned either.
    std::error_code ec;
    CHECK_FALSE(program.kernel("add_constant\0"sv, ec));
    CHECK(ec == openclaw::make_error_code(CL_INVALID_KERNEL_NAME));
}

// ---- build options as a value type ---------------------------------------------------------

TEST_CASE("BuildOptions writes defines, include directories and flags as drivers read them") {
    openclaw::BuildOptions options;
    options.define("FAST")
        .define("N", 4)
        .define("NEG", -12)
        .define("BIG", std::uint64_t{1} << 40)
        .define("ON", true)
        .define("HALF", 0.5f)
        .define("THIRD", 1.0 / 3.0)
        .define("ONE", 1.0f)
        .define("TYPE", "unsigned int")
        .define("EXPR", "(a+b)")
        .include_directory("/opt/kernels")
        .include_directory("/tmp/with space/inc")
        .language(openclaw::Version{2, 0})
        .fast_math()
        .warnings_as_errors();
    CHECK(options.str() ==
          "-DFAST -DN=4 -DNEG=-12 -DBIG=1099511627776 -DON=1 -DHALF=0.5f "
          "-DTHIRD=0.3333333333333333 -DONE=1.0f -DTYPE=\"unsigned int\" -DEXPR=(a+b) "
          "-I /opt/kernels -I \"/tmp/with space/inc\" -cl-std=CL2.0 -cl-fast-relaxed-math "
          "-Werror");
    // Drivers split at spaces outside quotes; include_directories() reads them the same way.
    CHECK(options.include_directories() ==
          std::vector<std::string>{"/opt/kernels", "/tmp/with space/inc"});
    CHECK(openclaw::BuildOptions("-I/a -I b -Ic").include_directories() ==
          std::vector<std::string>{"/a", "b", "c"});
    const auto tokens = options.tokens();
    CHECK(std::find(tokens.begin(), tokens.end(), "TYPE=unsigned int") == tokens.end());
    CHECK(std::find(tokens.begin(), tokens.end(), "-DTYPE=unsigned int") != tokens.end());
    // Raw strings still work, and mix with the named parts.
    openclaw::BuildOptions mixed{"-cl-mad-enable"};
    mixed.define("X", 1);
    CHECK(mixed.str() == "-cl-mad-enable -DX=1");
}

TEST_CASE("BuildOptions refuses what no driver can be handed") {
    using openclaw::BuildOptions;
    const auto refused = [](auto&& make) {
        const auto error = thrown<openclaw::Error>(make);
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_BUILD_OPTIONS);
        return std::string(error->what());
    };
    CHECK_THAT(refused([] { BuildOptions().define("1X"); }), has("\"1X\" is not a macro name"));
    CHECK_THAT(refused([] { BuildOptions().define("A B", 1); }), has("\"A B\""));
    CHECK_THAT(refused([] { BuildOptions().define("S", "\"quoted\""); }), has("double quote"));
    CHECK_THAT(refused([] { BuildOptions().define("NAN_VALUE", std::nan("")); }),
               has("has no OpenCL C literal"));
    CHECK_THAT(refused([] { BuildOptions().include_directory(""); }), has("is empty"));
    CHECK_THAT(refused([] {
                   BuildOptions().language(openclaw::Version{2, 1});
               }),
               has("OpenCL C 2.1 is not 1.1, 1.2, 2.0 or 3.0"));
    // Recorded instead of thrown: the options are left as they were.
    std::error_code ec;
    BuildOptions options{"-DOK"};
    options.define("9", 1, ec);
    CHECK(ec == openclaw::make_error_code(CL_INVALID_BUILD_OPTIONS));
    CHECK(options.str() == "-DOK");
}

namespace {

constexpr const char* report_source = R"CLC(
#include "openclaw_test_header.h"
__kernel void report(__global int* out) {
    out[0] = N;
#ifdef FAST
    out[1] = 1;
#else
    out[1] = 0;
#endif
    out[2] = (int)(HALF * 100.0f);
    TYPE t = (TYPE)-1;
    out[3] = t > 0 ? 1 : 0;
    out[4] = __OPENCL_C_VERSION__;
#ifdef __FAST_RELAXED_MATH__
    out[5] = 1;
#else
    out[5] = 0;
#endif
    out[6] = FROM_HEADER;
    out[7] = NEG;
}
)CLC";

std::vector<cl_int> run_report(const openclaw::Program& program) {
    const openclaw::WriteOnlyBuffer<cl_int> out{env().context, 8};
    auto report = program.kernel<openclaw::Out<cl_int>>("report");
    env().queue.enqueue(report.set_args(out), openclaw::NDRange{1});
    std::vector<cl_int> back(8);
    env().queue.read(out, back);
    return back;
}

// A directory with a header the report kernel includes; `spaced` puts a space in its path. One
// per process: ctest runs this program's variants (compiled, header-only, cl120) at once, and a
// header another process is rewriting reads as empty.
std::string header_directory(bool spaced) {
#if defined(__unix__)
    const std::string process = std::to_string(getpid());
#else
    const std::string process = "0";
#endif
    const auto dir = std::filesystem::temp_directory_path() /
                     ((spaced ? "openclaw test headers " : "openclaw_test_headers_") + process);
    std::filesystem::create_directories(dir);
    std::FILE* file = std::fopen((dir / "openclaw_test_header.h").string().c_str(), "w");
    REQUIRE(file != nullptr);
    std::fputs("#define FROM_HEADER 77\n", file);
    std::fclose(file);
    return dir.string();
}

}  // namespace

TEST_CASE("defines, include directories and fast math reach the compiler") {
    openclaw::BuildOptions options;
    options.define("N", 42)
        .define("FAST")
        .define("HALF", 0.25f)
        .define("TYPE", "unsigned int")
        .define("NEG", -7)
        .include_directory(header_directory(false))
        .fast_math()
        .cache(openclaw::BinaryCache{});
    const auto program = openclaw::Program::build(env().context, report_source, options);
    const auto back = run_report(program);
    CHECK(back[0] == 42);
    CHECK(back[1] == 1);
    CHECK(back[2] == 25);
    CHECK(back[3] == 1);  // "unsigned int" arrived whole: (unsigned int)-1 > 0
    CHECK(back[5] == 1);  // -cl-fast-relaxed-math defines __FAST_RELAXED_MATH__
    CHECK(back[6] == 77);
    CHECK(back[7] == -7);
}

TEST_CASE("an include directory with a space in its path") {
    openclaw::BuildOptions options;
    options.define("N", 1)
        .define("HALF", 0.5f)
        .define("TYPE", "int")
        .define("NEG", -1)
        .include_directory(header_directory(true))
        .cache(openclaw::BinaryCache{});
    openclaw::Status status;
    const auto program = openclaw::Program::build(env().context, report_source, options, status);
    const std::string platform = env().device.platform().version_string();
    if (status.failed() && platform.find("PoCL 3.") != std::string::npos) {
        // PoCL before 4.0 turns the quotes of an option into spaces, so no spelling of such a
        // path reaches its compiler (see docs/programs.md).
        WARN("PoCL 3.x cannot take an include path with spaces: " << status.what());
        CHECK(status.cl_code() == CL_BUILD_PROGRAM_FAILURE);
        CHECK_THAT(status.what(), has("openclaw_test_header.h"));
        return;
    }
    REQUIRE(status.ok());
    CHECK(run_report(program)[6] == 77);
}

TEST_CASE("the language version is the highest every device accepts unless one is given") {
    const std::vector<openclaw::Device> devices{env().device};
    const openclaw::Version highest = openclaw::BuildOptions::highest_common_language(devices);
    const auto accepted = env().device.opencl_c_versions();
    REQUIRE_FALSE(accepted.empty());
    CHECK(highest == accepted.back());
    INFO("highest OpenCL C version: " << highest.major << '.' << highest.minor);

    openclaw::BuildOptions options;
    options.define("N", 0).define("HALF", 0.0f).define("TYPE", "int").define("NEG", 0);
    options.include_directory(header_directory(false)).cache(openclaw::BinaryCache{});
    const auto effective = options.for_devices(devices);
    CHECK(effective.contains(
        openclaw::detail::concat("-cl-std=CL", highest.major, '.', highest.minor)));

    const auto automatic = openclaw::Program::build(env().context, report_source, options);
    CHECK(run_report(automatic)[4] == highest.major * 100 + highest.minor * 10);
    CHECK_THAT(automatic.build_info<CL_PROGRAM_BUILD_OPTIONS>(env().device),
               has(openclaw::detail::concat("-cl-std=CL", highest.major, '.', highest.minor)));
    // Non-uniform work-groups follow the language and the device.
    CHECK(automatic.non_uniform_groups() ==
          (highest >= openclaw::Version{2, 0} && env().device.non_uniform_work_groups()));

    // A version in the options wins, named or raw; compiler_default adds none.
    auto named = options;
    named.language(openclaw::Version{1, 2});
    CHECK(run_report(openclaw::Program::build(env().context, report_source, named))[4] == 120);
    openclaw::BuildOptions raw{"-cl-std=CL1.1"};
    raw.define("N", 0).define("HALF", 0.0f).define("TYPE", "int").define("NEG", 0);
    raw.include_directory(header_directory(false)).cache(openclaw::BinaryCache{});
    CHECK_FALSE(raw.for_devices(devices).contains("-cl-std=CL1.2"));
    CHECK(run_report(openclaw::Program::build(env().context, report_source, raw))[4] == 110);
    auto plain = options;
    plain.language(openclaw::LanguageVersion::compiler_default);
    CHECK_FALSE(plain.for_devices(devices).contains("-cl-std"));
    const auto compiler_default = openclaw::Program::build(env().context, report_source, plain);
    CHECK_THAT(compiler_default.build_info<CL_PROGRAM_BUILD_OPTIONS>(env().device),
               !has("-cl-std"));
    // What the compiler then chooses is its own (PoCL 3.1: OpenCL C 3.0, NVIDIA: 1.2); without a
    // version in the options openclaw assumes uniform work-groups.
    CHECK(run_report(compiler_default)[4] >= 100);
    CHECK_FALSE(compiler_default.non_uniform_groups());
}

TEST_CASE("warnings as errors turn a warning into a failed build") {
    const char* warns = R"CLC(
__kernel void narrowing(__global int* out) {
    int truncated = 3.75f;
    out[0] = truncated;
}
)CLC";
    openclaw::BuildOptions options;
    options.cache(openclaw::BinaryCache{});
    const auto lenient = openclaw::Program::build(env().context, warns, options);
    const std::string log = lenient.build_log(env().device);
    if (log.find("warning") == std::string::npos) {
        WARN("the compiler of \"" << env().device.name() << "\" gives no warning here");
        return;
    }
    options.warnings_as_errors();
    const auto error = thrown<openclaw::BuildError>(
        [&] { (void)openclaw::Program::build(env().context, warns, options); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_BUILD_PROGRAM_FAILURE);
    CHECK_THAT(error->what(), has("-Werror"));
    REQUIRE(error->logs().size() == 1);
    CHECK_THAT(error->logs()[0].log, has("error"));
}

// ---- binaries and intermediate language -----------------------------------------------------

TEST_CASE("a program's binaries build it again") {
    openclaw::BuildOptions options{"-DADDEND=5"};
    options.cache(openclaw::BinaryCache{});
    const auto original = openclaw::Program::build(env().context, with_define, options);
    const auto binaries = original.binaries();
    REQUIRE(binaries.size() == 1);
    CHECK_FALSE(binaries[0].empty());
    CHECK_FALSE(original.loaded_from_cache());

    const auto again = openclaw::Program::from_binaries(env().context, binaries);
    REQUIRE(again);
    const openclaw::ReadWriteBuffer<cl_int> data{env().context, std::vector<cl_int>(8, 1)};
    auto add = again.kernel<openclaw::InOut<cl_int>>("add_constant");
    env().queue.enqueue(add.set_args(data), openclaw::NDRange{8});
    std::vector<cl_int> back(8);
    env().queue.read(data, back);
    CHECK(back == std::vector<cl_int>(8, 6));
}

TEST_CASE("bad binaries are refused with the device they were for") {
    SECTION("the wrong number") {
        const auto error = thrown<openclaw::Error>([] {
            (void)openclaw::Program::from_binaries(env().context, std::vector<openclaw::Binary>{});
        });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_VALUE);
        CHECK_THAT(error->what(), has("0 binaries for a context of 1 device(s)"));
    }
    SECTION("an empty one") {
        const auto error = thrown<openclaw::Error>([] {
            (void)openclaw::Program::from_binaries(env().context, std::vector<openclaw::Binary>(1));
        });
        REQUIRE(error);
        CHECK_THAT(error->what(),
                   has("binary 0 (for device \"" + env().device.name() + "\") is empty"));
    }
    SECTION("garbage") {
        const std::vector<openclaw::Binary> garbage{openclaw::Binary(64, 0x5a)};
        openclaw::Status status;
        const auto program = openclaw::Program::from_binaries(env().context, garbage, {}, status);
        CHECK_FALSE(program);
        REQUIRE(status.failed());
        // Drivers refuse it when it is handed over or when it is built.
        CHECK((status.cl_code() == CL_INVALID_BINARY ||
               status.cl_code() == CL_BUILD_PROGRAM_FAILURE));
        CHECK_THAT(status.what(), has(env().device.name()));
    }
}

namespace {

// A SPIR-V 1.0 module with one empty kernel "empty", assembled by hand (words of the module:
// header, OpCapability Addresses and Kernel, OpMemoryModel Physical64 OpenCL, OpEntryPoint,
// void, a void function type, the function).
std::vector<unsigned char> empty_kernel_spirv() {
    const std::uint32_t words[] = {
        0x07230203,
        0x00010000,
        0,
        5,
        0,  // magic, version 1.0, generator, bound, schema
        (2u << 16) | 17,
        4,  // OpCapability Addresses
        (2u << 16) | 17,
        6,  // OpCapability Kernel
        (3u << 16) | 14,
        2,
        2,  // OpMemoryModel Physical64 OpenCL
        (5u << 16) | 15,
        6,
        3,
        0x74706d65,
        0x79,  // OpEntryPoint Kernel %3 "empty"
        (2u << 16) | 19,
        1,  // %1 = OpTypeVoid
        (3u << 16) | 33,
        2,
        1,  // %2 = OpTypeFunction %1
        (5u << 16) | 54,
        1,
        3,
        0,
        2,  // %3 = OpFunction %1 None %2
        (2u << 16) | 248,
        4,                 // %4 = OpLabel
        (1u << 16) | 253,  // OpReturn
        (1u << 16) | 56,   // OpFunctionEnd
    };
    std::vector<unsigned char> bytes;
    for (std::uint32_t word : words) {
        for (int i = 0; i < 4; ++i) {
            bytes.push_back(static_cast<unsigned char>(word >> (8 * i)));
        }
    }
    return bytes;
}

}  // namespace

TEST_CASE("programs from SPIR-V where the devices take it, a clear error where they do not") {
    const auto il = empty_kernel_spirv();
    const std::string versions = env().device.il_version();
    if (versions.find("SPIR-V") == std::string::npos) {
        WARN("\"" << env().device.name() << "\" accepts no SPIR-V (CL_DEVICE_IL_VERSION \""
                  << versions << "\"): checking the error path");
        const auto error =
            thrown<openclaw::Error>([&] { (void)openclaw::Program::from_il(env().context, il); });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_OPERATION);
        CHECK(error->call() == "clCreateProgramWithIL");
        CHECK_THAT(error->what(), has("device \"" + env().device.name() + "\" (platform \"" +
                                      env().device.platform().name()));
        CHECK_THAT(error->what(), has("accepts no intermediate language"));
    } else {
        const auto program = openclaw::Program::from_il(env().context, il);
        auto empty = program.kernel<>("empty");
        env().queue.enqueue(empty, openclaw::NDRange{1});
        env().queue.finish();
    }
    // Not SPIR-V at all: refused before any entry point is called.
    const auto error = thrown<openclaw::Error>(
        [] { (void)openclaw::Program::from_il(env().context, std::vector<unsigned char>(6, 1)); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_VALUE);
    CHECK_THAT(error->what(), has("an IL module of 6 bytes"));
}

// ---- kernels made once per program and name -------------------------------------------------

TEST_CASE("kernels from one program have their own argument values") {
    openclaw::BuildOptions options{"-DADDEND=1"};
    options.cache(openclaw::BinaryCache{});
    const auto program = openclaw::Program::build(env().context, with_define, options);
    const auto copy = program;  // copies share the kernels made so far
    auto first = program.kernel<openclaw::InOut<cl_int>>("add_constant");
    auto second = copy.kernel<openclaw::InOut<cl_int>>("add_constant");
    auto dynamic = program.kernel("add_constant");
    CHECK(first.get() != second.get());
    CHECK(first.get() != dynamic.get());
    CHECK(first.name() == "add_constant");
    CHECK(dynamic.arity() == 1);

    const openclaw::ReadWriteBuffer<cl_int> a{env().context, std::vector<cl_int>(4, 10)};
    const openclaw::ReadWriteBuffer<cl_int> b{env().context, std::vector<cl_int>(4, 20)};
    first.set_args(a);
    second.set_args(b);
    env().queue.enqueue(first, openclaw::NDRange{4});
    env().queue.enqueue(first, openclaw::NDRange{4});
    env().queue.enqueue(second, openclaw::NDRange{4});
    std::vector<cl_int> back(4);
    env().queue.read(a, back);
    CHECK(back == std::vector<cl_int>(4, 12));
    env().queue.read(b, back);
    CHECK(back == std::vector<cl_int>(4, 21));

    // A kernel that is never given arguments is still refused at launch.
    auto unset = program.kernel<openclaw::InOut<cl_int>>("add_constant");
    const auto error =
        thrown<openclaw::Error>([&] { env().queue.enqueue(unset, openclaw::NDRange{4}); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_KERNEL_ARGS);
}

TEST_CASE("an empty program makes no kernel") {
    const openclaw::Program empty;
    std::error_code ec;
    const auto kernel = empty.kernel<openclaw::InOut<cl_int>>("any", ec);
    CHECK_FALSE(kernel);
    CHECK(ec == openclaw::make_error_code(CL_INVALID_PROGRAM));
}

TEST_CASE("compile with embedded headers, then link programs and libraries") {
    // A Header keeps its own copy of the text: the string it was made from may go.
    openclaw::Header util;
    {
        std::string text = "#define SCALE 3\nint scaled(int x);\n";
        util = openclaw::Header{"util/scale.h", text};
        text.assign(text.size(), '#');
    }
    CHECK(util.source == "#define SCALE 3\nint scaled(int x);\n");
    const char* library_source = R"CLC(
#include "util/scale.h"
int scaled(int x) { return SCALE * x; }
)CLC";
    const char* main_source = R"CLC(
#include "util/scale.h"
__kernel void apply(__global int* data) {
    const size_t i = get_global_id(0);
    data[i] = scaled(data[i]) + SCALE;
}
)CLC";
    const auto helpers = openclaw::Program::compile(env().context, library_source, {util});
    CHECK(helpers.is_link_input());
    // A compiled program makes no kernels: it is an input of link().
    const auto not_linked = thrown<openclaw::Error>([&] { (void)helpers.kernel("apply"); });
    REQUIRE(not_linked);
    CHECK(not_linked->cl_code() == CL_INVALID_PROGRAM_EXECUTABLE);
    CHECK_THAT(not_linked->what(), has("the program is compiled, not linked"));

    const auto main = openclaw::Program::compile(env().context, main_source, {util});
    const auto library = openclaw::Program::link(env().context, {helpers},
                                                 openclaw::BuildOptions{"-create-library"});
    CHECK(library.is_link_input());
    const auto linked = openclaw::Program::link(env().context, {main, library});
    CHECK_FALSE(linked.is_link_input());
    CHECK(linked.kernel_arg_info() == main.kernel_arg_info());
    std::vector<cl_int> host = {1, 2, 3, 4};
    const openclaw::ReadWriteBuffer<cl_int> data{env().context, host};
    auto apply = linked.kernel<openclaw::InOut<cl_int>>("apply");
    env().queue.enqueue(apply.set_args(data), openclaw::NDRange{4});
    env().queue.read(data, host);
    CHECK(host == std::vector<cl_int>{6, 9, 12, 15});

    // A header the source names but compile() was not given: the compiler's log says so.
    const auto missing = thrown<openclaw::BuildError>(
        [&] { (void)openclaw::Program::compile(env().context, main_source); });
    REQUIRE(missing);
    CHECK(missing->call() == "clCompileProgram");
    CHECK_FALSE(missing->logs().empty());
    // An unresolved function is the linker's failure, with its log.
    const auto unresolved =
        thrown<openclaw::Error>([&] { (void)openclaw::Program::link(env().context, {main}); });
    REQUIRE(unresolved);
    CHECK(unresolved->call() == "clLinkProgram");
    // What link() refuses before the driver: nothing, an executable, a header without text.
    const auto nothing = thrown<openclaw::Error>(
        [&] { (void)openclaw::Program::link(env().context, std::vector<openclaw::Program>{}); });
    REQUIRE(nothing);
    CHECK_THAT(nothing->what(), has("clLinkProgram: CL_INVALID_VALUE (-30): no programs to link"));
    const auto executable =
        thrown<openclaw::Error>([&] { (void)openclaw::Program::link(env().context, {linked}); });
    REQUIRE(executable);
    CHECK(executable->cl_code() == CL_INVALID_OPERATION);
    CHECK_THAT(executable->what(), has("program 0 is an executable"));
    const auto no_text = thrown<openclaw::Error>([&] {
        (void)openclaw::Program::compile(env().context, main_source, {{"util/scale.h", ""}});
    });
    REQUIRE(no_text);
    CHECK_THAT(no_text->what(), has("header 0 (\"util/scale.h\") has no text"));
}
