// SPDX-License-Identifier: Apache-2.0
// openclaw built with -fno-exceptions: every failure is reported through an std::error_code, a
// Status given as the last argument, and one that nothing records goes to the failure handler.
// Catch2 is not used here (its v3 library is built with exceptions); each check prints its outcome.
//
//   no_exceptions             the non-throwing forms, success and failure paths
//   no_exceptions no-platform select_device() on a machine without a driver
//   no_exceptions unhandled   a failure nothing records: the installed handler is called
//   no_exceptions abort       the same with the default handler (prints and aborts)
#include <openclaw/all.hpp>

#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#if defined(__cpp_exceptions)
#error "this test must be compiled with -fno-exceptions"
#endif

namespace {

int failures = 0;

void check(bool ok, const char* what) {
    std::printf("%s: %s\n", ok ? "ok" : "FAILED", what);
    failures += ok ? 0 : 1;
}

bool contains(std::string_view text, std::string_view part) {
    return text.find(part) != std::string_view::npos;
}

constexpr const char* source = R"CLC(
__kernel void twice(__global int* data) { data[get_global_id(0)] *= 2; }
)CLC";

int run() {
    std::error_code ec;
    openclaw::Status status;

    // No device matches: an error code, then the message that lists the devices.
    const openclaw::Device none = openclaw::select_device("no-such-platform-anywhere", ec);
    check(!none && ec == openclaw::make_error_code(CL_DEVICE_NOT_FOUND),
          "select_device with no match sets CL_DEVICE_NOT_FOUND and returns an empty Device");
    (void)openclaw::select_device("no-such-platform-anywhere", status);
    check(status.failed() && contains(status.what(), "the devices here are"),
          "the Status names what exists");

    const openclaw::Device device = openclaw::select_device(ec);
    check(device && !ec, "select_device finds a device");
    const openclaw::Context context(device, ec);
    check(context && !ec, "a context");
    const openclaw::Queue queue(context, device, {}, ec);
    check(queue && !ec, "a queue");

    // A build failure carries every device's log.
    const auto broken =
        openclaw::Program::build(context, "__kernel void f() { nope(); }", {}, status);
    check(!broken && status.cl_code() == CL_BUILD_PROGRAM_FAILURE,
          "a failed build returns an empty Program and CL_BUILD_PROGRAM_FAILURE");
    check(status.build_logs().size() == 1 && contains(status.build_logs()[0].log, "nope"),
          "the Status holds the device's build log");
    check(contains(status.what(), "build log of device"), "what() shows the log");

    const auto program = openclaw::Program::build(context, source, {}, ec);
    check(program && !ec, "a good build");

    // An unknown kernel name.
    const auto missing = program.kernel<openclaw::InOut<cl_int>>("nope", status);
    check(!missing && status.cl_code() == CL_INVALID_KERNEL_NAME &&
              contains(status.what(), "\"twice\""),
          "an unknown kernel name lists the kernels that exist");

    // The success path.
    std::vector<cl_int> host(64, 21);
    const openclaw::ReadWriteBuffer<cl_int> data(context, std::span<const cl_int>(host), ec);
    auto twice = program.kernel<openclaw::InOut<cl_int>>("twice", ec);
    twice.set_args(data, ec);  // set_args takes its OnError target last, as every call does
    queue.enqueue(twice, openclaw::NDRange{64}, openclaw::NDRange{}, ec);
    queue.read(data, host, ec);
    check(!ec && host == std::vector<cl_int>(64, 42), "a kernel runs and its result reads back");

    // An out-of-range read: refused, nothing read.
    std::vector<cl_int> part(16, -1);
    queue.read(data.slice(60, part.size()), part, status);
    check(status.cl_code() == CL_INVALID_VALUE && contains(status.what(), "out of range") &&
              part == std::vector<cl_int>(16, -1),
          "an out-of-range read sets CL_INVALID_VALUE and reads nothing");

    // A named OnError passed to several calls keeps the first failure; constructors that have no
    // OnError (NDRange, after) leave their mistake to the call they are given to.
    {
        const openclaw::OnError sink(status);
        const openclaw::ReadWriteBuffer<cl_int> empty;
        twice.set_args(empty, sink);
        const openclaw::NDRange negative{-4};
        queue.enqueue(twice, negative, openclaw::NDRange{}, sink);
    }
    check(status.cl_code() == CL_INVALID_ARG_VALUE && contains(status.what(), "empty"),
          "a named OnError records the first failure (an empty buffer argument)");
    std::error_code negative_ec;
    queue.enqueue(twice, openclaw::NDRange{-4}, openclaw::NDRange{}, negative_ec);
    check(negative_ec == openclaw::make_error_code(CL_INVALID_VALUE),
          "a negative NDRange size is refused by the launch it is given to");

    // A bad launch geometry, and a Status that can be read again after success.
    queue.enqueue(twice, openclaw::NDRange{64}, openclaw::NDRange{3, 3}, status);
    check(status.cl_code() == CL_INVALID_WORK_DIMENSION, "a launch of mismatched dimensions");
    queue.finish(status);
    check(status.ok(), "the target is cleared by the next call");
    return failures;
}

[[noreturn]] void exit_handler(const openclaw::Status& failure) {
    std::printf("handler called: %s\n", failure.what());
    std::fflush(stdout);
    std::_Exit(failure.cl_code() == CL_INVALID_VALUE ? 0 : 1);
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "no-platform") {
        std::error_code ec;
        openclaw::Status status;
        const openclaw::Device device = openclaw::select_device(status);
        check(!device && status.cl_code() == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */,
              "no platform: select_device fails with CL_PLATFORM_NOT_FOUND_KHR");
        check(contains(status.what(), "pocl-opencl-icd"), "the message says how to get one");
        check(openclaw::Platform::list(ec).empty() && !ec, "Platform::list is empty, no error");
    } else if (mode == "unhandled" || mode == "abort") {
        if (mode == "unhandled") {
            openclaw::set_failure_handler(&exit_handler);
        }
        const openclaw::Device device = openclaw::select_device();
        const openclaw::Context context{device};
        const openclaw::Queue queue{context, device};
        const openclaw::ReadOnlyBuffer<int> buffer{context, 4};
        std::vector<int> too_many(8);
        queue.read(buffer.slice(2, too_many.size()), too_many);  // nothing records this failure
        std::printf("FAILED: the failure handler did not stop the program\n");
        return 1;
    } else {
        run();
    }
    std::printf("%d failure(s)\n", failures);
    return failures == 0 ? 0 : 1;
}
