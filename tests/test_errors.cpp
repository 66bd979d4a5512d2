// Errors: symbolic names for every OpenCL code, the category, Error/BuildError messages, and the
// hook that receives failures from destructors.
#include <openclaw/error.hpp>

#include <limits>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "support/catch.hpp"

using openclaw_test::has;

namespace {

// Every status code the OpenCL headers define at CL_TARGET_OPENCL_VERSION 300, with its macro's
// spelling: the name table must agree with the headers.
#define OPENCLAW_CODE(code) std::pair<cl_int, std::string>(code, #code)
const std::vector<std::pair<cl_int, std::string>> header_codes = {
    OPENCLAW_CODE(CL_SUCCESS),
    OPENCLAW_CODE(CL_DEVICE_NOT_FOUND),
    OPENCLAW_CODE(CL_DEVICE_NOT_AVAILABLE),
    OPENCLAW_CODE(CL_COMPILER_NOT_AVAILABLE),
    OPENCLAW_CODE(CL_MEM_OBJECT_ALLOCATION_FAILURE),
    OPENCLAW_CODE(CL_OUT_OF_RESOURCES),
    OPENCLAW_CODE(CL_OUT_OF_HOST_MEMORY),
    OPENCLAW_CODE(CL_PROFILING_INFO_NOT_AVAILABLE),
    OPENCLAW_CODE(CL_MEM_COPY_OVERLAP),
    OPENCLAW_CODE(CL_IMAGE_FORMAT_MISMATCH),
    OPENCLAW_CODE(CL_IMAGE_FORMAT_NOT_SUPPORTED),
    OPENCLAW_CODE(CL_BUILD_PROGRAM_FAILURE),
    OPENCLAW_CODE(CL_MAP_FAILURE),
    OPENCLAW_CODE(CL_MISALIGNED_SUB_BUFFER_OFFSET),
    OPENCLAW_CODE(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST),
    OPENCLAW_CODE(CL_COMPILE_PROGRAM_FAILURE),
    OPENCLAW_CODE(CL_LINKER_NOT_AVAILABLE),
    OPENCLAW_CODE(CL_LINK_PROGRAM_FAILURE),
    OPENCLAW_CODE(CL_DEVICE_PARTITION_FAILED),
    OPENCLAW_CODE(CL_KERNEL_ARG_INFO_NOT_AVAILABLE),
    OPENCLAW_CODE(CL_INVALID_VALUE),
    OPENCLAW_CODE(CL_INVALID_DEVICE_TYPE),
    OPENCLAW_CODE(CL_INVALID_PLATFORM),
    OPENCLAW_CODE(CL_INVALID_DEVICE),
    OPENCLAW_CODE(CL_INVALID_CONTEXT),
    OPENCLAW_CODE(CL_INVALID_QUEUE_PROPERTIES),
    OPENCLAW_CODE(CL_INVALID_COMMAND_QUEUE),
    OPENCLAW_CODE(CL_INVALID_HOST_PTR),
    OPENCLAW_CODE(CL_INVALID_MEM_OBJECT),
    OPENCLAW_CODE(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR),
    OPENCLAW_CODE(CL_INVALID_IMAGE_SIZE),
    OPENCLAW_CODE(CL_INVALID_SAMPLER),
    OPENCLAW_CODE(CL_INVALID_BINARY),
    OPENCLAW_CODE(CL_INVALID_BUILD_OPTIONS),
    OPENCLAW_CODE(CL_INVALID_PROGRAM),
    OPENCLAW_CODE(CL_INVALID_PROGRAM_EXECUTABLE),
    OPENCLAW_CODE(CL_INVALID_KERNEL_NAME),
    OPENCLAW_CODE(CL_INVALID_KERNEL_DEFINITION),
    OPENCLAW_CODE(CL_INVALID_KERNEL),
    OPENCLAW_CODE(CL_INVALID_ARG_INDEX),
    OPENCLAW_CODE(CL_INVALID_ARG_VALUE),
    OPENCLAW_CODE(CL_INVALID_ARG_SIZE),
    OPENCLAW_CODE(CL_INVALID_KERNEL_ARGS),
    OPENCLAW_CODE(CL_INVALID_WORK_DIMENSION),
    OPENCLAW_CODE(CL_INVALID_WORK_GROUP_SIZE),
    OPENCLAW_CODE(CL_INVALID_WORK_ITEM_SIZE),
    OPENCLAW_CODE(CL_INVALID_GLOBAL_OFFSET),
    OPENCLAW_CODE(CL_INVALID_EVENT_WAIT_LIST),
    OPENCLAW_CODE(CL_INVALID_EVENT),
    OPENCLAW_CODE(CL_INVALID_OPERATION),
    OPENCLAW_CODE(CL_INVALID_GL_OBJECT),
    OPENCLAW_CODE(CL_INVALID_BUFFER_SIZE),
    OPENCLAW_CODE(CL_INVALID_MIP_LEVEL),
    OPENCLAW_CODE(CL_INVALID_GLOBAL_WORK_SIZE),
    OPENCLAW_CODE(CL_INVALID_PROPERTY),
    OPENCLAW_CODE(CL_INVALID_IMAGE_DESCRIPTOR),
    OPENCLAW_CODE(CL_INVALID_COMPILER_OPTIONS),
    OPENCLAW_CODE(CL_INVALID_LINKER_OPTIONS),
    OPENCLAW_CODE(CL_INVALID_DEVICE_PARTITION_COUNT),
#if CL_TARGET_OPENCL_VERSION >= 300  // named by the newer headers only
    OPENCLAW_CODE(CL_INVALID_PIPE_SIZE),
    OPENCLAW_CODE(CL_INVALID_DEVICE_QUEUE),
    OPENCLAW_CODE(CL_INVALID_SPEC_ID),
    OPENCLAW_CODE(CL_MAX_SIZE_RESTRICTION_EXCEEDED),
#endif
};
#undef OPENCLAW_CODE

}  // namespace

TEST_CASE("every OpenCL status code has its symbolic name") {
    for (const auto& [code, name] : header_codes) {
        INFO("code " << code);
        CHECK(openclaw::code_name(code) == name);
        CHECK(openclaw::opencl_category().message(code) == name);
    }
    // Extension codes are named too, and unknown ones say so.
    CHECK(openclaw::code_name(-1001) == "CL_PLATFORM_NOT_FOUND_KHR");
    CHECK(openclaw::code_name(-1057) == "CL_DEVICE_PARTITION_FAILED_EXT");
    CHECK(openclaw::code_name(-9999) == "CL_UNKNOWN_ERROR");
    CHECK(openclaw::code_name(1) == "CL_UNKNOWN_ERROR");
    static_assert(openclaw::code_name(CL_INVALID_KERNEL_ARGS) == "CL_INVALID_KERNEL_ARGS");
}

TEST_CASE("the opencl error category makes comparable std::error_codes") {
    const std::error_code code = openclaw::make_error_code(CL_INVALID_VALUE);
    CHECK(std::string(code.category().name()) == "opencl");
    CHECK(code.value() == CL_INVALID_VALUE);
    CHECK(code.message() == "CL_INVALID_VALUE");
    CHECK(code == std::error_code(CL_INVALID_VALUE, openclaw::opencl_category()));
    CHECK(code != std::error_code(CL_INVALID_VALUE, std::generic_category()));
    CHECK(code != openclaw::make_error_code(CL_INVALID_CONTEXT));
}

TEST_CASE("Error names the call, the symbolic code, the number and the detail") {
    const openclaw::Error error(CL_MISALIGNED_SUB_BUFFER_OFFSET, "clCreateSubBuffer",
                                "offset 12 elements (48 bytes) is not a multiple of 128 bytes");
    CHECK(std::string(error.what()) ==
          "clCreateSubBuffer: CL_MISALIGNED_SUB_BUFFER_OFFSET (-13): offset 12 elements (48 "
          "bytes) is not a multiple of 128 bytes");
    CHECK(error.call() == "clCreateSubBuffer");
    CHECK(error.cl_code() == CL_MISALIGNED_SUB_BUFFER_OFFSET);
    CHECK(error.code() == openclaw::make_error_code(CL_MISALIGNED_SUB_BUFFER_OFFSET));
    CHECK(error.detail() == "offset 12 elements (48 bytes) is not a multiple of 128 bytes");

    const openclaw::Error bare(CL_OUT_OF_RESOURCES, "clFinish");
    CHECK(std::string(bare.what()) == "clFinish: CL_OUT_OF_RESOURCES (-5)");

    // Copies share the message and stay valid after the original is gone.
    std::optional<openclaw::Error> copy;
    {
        const openclaw::Error original(CL_INVALID_VALUE, "clEnqueueReadBuffer", "detail");
        copy.emplace(original);
    }
    CHECK(std::string(copy->what()) == "clEnqueueReadBuffer: CL_INVALID_VALUE (-30): detail");
}

TEST_CASE("Error is a std::system_error and can be caught as one") {
    try {
        (void)openclaw::detail::check(CL_INVALID_KERNEL, "clSetKernelArg", openclaw::OnError{});
        FAIL("check() did not throw");
    } catch (const std::system_error& caught) {
        CHECK(caught.code() == openclaw::make_error_code(CL_INVALID_KERNEL));
        CHECK(std::string(caught.what()) == "clSetKernelArg: CL_INVALID_KERNEL (-48)");
        // Even a copy sliced to the base class keeps the call and the code.
        const std::system_error sliced = caught;  // NOLINT(cppcoreguidelines-slicing)
        CHECK_THAT(sliced.what(), has("clSetKernelArg: CL_INVALID_KERNEL (-48)"));
    }
    // Success throws nothing and does not run the describing function.
    bool described = false;
    CHECK(openclaw::detail::check(CL_SUCCESS, "clFinish", openclaw::OnError{}, [&] {
        described = true;
        return std::string("never");
    }));
    CHECK_FALSE(described);
}

namespace {
// Converts to std::string_view but is not a string: concat() must still take it as text.
struct Name {
    std::string text;
    operator std::string_view() const noexcept { return text; }  // NOLINT: implicit by design
};
}  // namespace

TEST_CASE("concat writes text, characters and numbers as std::to_string does") {
    using openclaw::detail::concat;
    const std::string owned = "std::string";
    const std::string_view view = "view";
    const char* pointer = "pointer";
    char buffer[] = "array";
    CHECK(concat("literal ", owned, ' ', view, ' ', pointer, ' ', buffer, ' ', Name{"name"}) ==
          "literal std::string view pointer array name");
    CHECK(concat(std::string("temporary"), "|", std::string()) == "temporary|");
    CHECK(concat() == "");

    const signed char small = -5;
    const unsigned char byte = 200;
    const short negative = -32768;
    const unsigned short port = 65535;
    const cl_int code = CL_INVALID_VALUE;
    const cl_uint index = 4294967295u;
    const long long most_negative = std::numeric_limits<long long>::min();
    const std::size_t huge = std::numeric_limits<std::size_t>::max();
    const bool yes = true;
    CHECK(concat(small, ",", byte, ",", negative, ",", port, ",", code, ",", index) ==
          std::to_string(small) + "," + std::to_string(byte) + "," + std::to_string(negative) +
              "," + std::to_string(port) + "," + std::to_string(code) + "," +
              std::to_string(index));
    CHECK(concat(most_negative, " ", huge, " ", yes) ==
          std::to_string(most_negative) + " " + std::to_string(huge) + " " + std::to_string(yes));
    CHECK(concat(most_negative) == "-9223372036854775808");
    CHECK(concat(huge) == "18446744073709551615");

    const float half = 0.5f;
    const double third = 1.0 / 3.0;
    const double big = 1e300;
    const float negative_float = -2.25f;
    CHECK(concat(half, " ", third, " ", negative_float) == std::to_string(half) + " " +
                                                               std::to_string(third) + " " +
                                                               std::to_string(negative_float));
    CHECK(concat(big) == std::to_string(big));
    CHECK(concat(half) == "0.500000");
}

TEST_CASE("check() throws the described Error only on failure") {
    const auto thrown = openclaw_test::thrown<openclaw::Error>([] {
        (void)openclaw::detail::check(
            CL_INVALID_BUFFER_SIZE, "clCreateBuffer", openclaw::OnError{},
            [] { return openclaw::detail::concat("size ", std::size_t{0}, " bytes"); });
    });
    REQUIRE(thrown);
    CHECK(thrown->cl_code() == CL_INVALID_BUFFER_SIZE);
    CHECK(thrown->call() == "clCreateBuffer");
    CHECK(thrown->detail() == "size 0 bytes");
    CHECK(std::string(thrown->what()) ==
          "clCreateBuffer: CL_INVALID_BUFFER_SIZE (-61): size 0 bytes");
}

TEST_CASE("BuildError carries every device's log and shows them in what()") {
    std::vector<openclaw::BuildLog> logs = {
        {"Device A", CL_BUILD_ERROR, "<source>:3:5: error: use of undeclared identifier 'x'"},
        {"Device B", CL_BUILD_SUCCESS, ""},
    };
    const openclaw::BuildError error(CL_BUILD_PROGRAM_FAILURE, "clBuildProgram",
                                     "the build failed for 1 of 2 device(s)", logs);
    CHECK(error.cl_code() == CL_BUILD_PROGRAM_FAILURE);
    REQUIRE(error.logs().size() == 2);
    CHECK(error.logs()[0].device_name == "Device A");
    CHECK(error.logs()[0].status == CL_BUILD_ERROR);
    const std::string what = error.what();
    CHECK_THAT(what, has("clBuildProgram: CL_BUILD_PROGRAM_FAILURE (-11): the build failed"));
    CHECK_THAT(what, has("build log of device \"Device A\" (failed)"));
    CHECK_THAT(what, has("use of undeclared identifier 'x'"));
    CHECK_THAT(what, has("build log of device \"Device B\" (built)"));
    CHECK_THAT(what, has("(empty log)"));
    // A BuildError is an Error.
    const openclaw::Error& base = error;
    CHECK(base.call() == "clBuildProgram");
}

namespace {
std::vector<std::pair<std::string, cl_int>> hook_calls;
void recording_hook(const char* call, cl_int code) noexcept {
    hook_calls.emplace_back(call, code);
}
}  // namespace

TEST_CASE("cleanup failures reach the installed error hook") {
    hook_calls.clear();
    const openclaw::ErrorHook previous = openclaw::set_error_hook(&recording_hook);
    CHECK(previous == &openclaw::print_error_hook);
    openclaw::detail::report_cleanup_failure("clReleaseMemObject", CL_INVALID_MEM_OBJECT);
    REQUIRE(hook_calls.size() == 1);
    CHECK(hook_calls[0].first == "clReleaseMemObject");
    CHECK(hook_calls[0].second == CL_INVALID_MEM_OBJECT);
    // nullptr restores the default hook.
    CHECK(openclaw::set_error_hook(nullptr) == &recording_hook);
    CHECK(openclaw::set_error_hook(nullptr) == &openclaw::print_error_hook);
}

TEST_CASE("a failure while wording an error does not replace the error") {
    using openclaw::detail::describe_safely;
    CHECK(describe_safely([] { return std::string("device \"A\""); }) == "device \"A\"");
    const auto failing = []() -> std::string {
        throw openclaw::Error(CL_OUT_OF_RESOURCES, "clGetDeviceInfo", "query CL_DEVICE_NAME");
    };
    CHECK(describe_safely(failing) ==
          "(further detail unavailable: clGetDeviceInfo: CL_OUT_OF_RESOURCES (-5): query "
          "CL_DEVICE_NAME)");
    // A query that fails the library's way (recorded, with an empty result) is caught too.
    const auto recorded = [](openclaw::OnError quiet) -> std::string {
        openclaw::detail::fail(quiet, CL_OUT_OF_RESOURCES, "clGetDeviceInfo",
                               "query CL_DEVICE_NAME");
        return "device \"\"";
    };
    CHECK(describe_safely(recorded) ==
          "(further detail unavailable: clGetDeviceInfo: CL_OUT_OF_RESOURCES (-5): query "
          "CL_DEVICE_NAME)");
    // check() reports the failed call, whatever happens while describing it.
    try {
        (void)openclaw::detail::check(CL_OUT_OF_HOST_MEMORY, "clCreateContext", openclaw::OnError{},
                                      failing);
        FAIL("check() did not throw");
    } catch (const openclaw::Error& error) {
        CHECK(error.call() == "clCreateContext");
        CHECK(error.cl_code() == CL_OUT_OF_HOST_MEMORY);
        CHECK_THAT(error.what(), has("further detail unavailable: clGetDeviceInfo"));
    }
}
