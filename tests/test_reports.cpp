// Context error reports: what a driver says through clCreateContext's notification callback
// reaches the user, appended to the next error openclaw raises or given to an installed handler.
// support/cl_intercept.cpp plays the driver: it keeps the callback each context was made with and
// calls it on request (PoCL itself reports nothing there; NVIDIA's driver does, tests/cuda/ and
// scripts/gpu-verify.sh show its words).
#include <openclaw/all.hpp>

#include <atomic>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "support/catch.hpp"
#include "support/cl_intercept.hpp"
#include "support/fixture.hpp"

using openclaw_test::env;
using openclaw_test::has;
using openclaw_test::report_as_driver;
using openclaw_test::thrown;

namespace {

/// An error openclaw raises by itself (a zero-sized buffer), with whatever reports are pending.
std::string next_error(const openclaw::Context& context) {
    const auto error =
        thrown<openclaw::Error>([&] { openclaw::ReadWriteBuffer<int> b(context, 0); });
    REQUIRE(error);
    return error->what();
}

struct Received {
    std::mutex mutex;
    std::vector<std::pair<cl_context, std::string>> reports;
};
Received received;

void keep(cl_context context, const char* report) noexcept {
    const std::lock_guard lock(received.mutex);
    received.reports.emplace_back(context, report);
}

/// Installs `keep` while alive.
struct Handler {
    Handler() {
        const std::lock_guard lock(received.mutex);
        received.reports.clear();
        previous = openclaw::set_context_report_handler(&keep);
    }
    ~Handler() { openclaw::set_context_report_handler(previous); }
    Handler(const Handler&) = delete;
    Handler& operator=(const Handler&) = delete;
    openclaw::ContextReportHandler previous = nullptr;
};

}  // namespace

TEST_CASE("a driver's report reaches the next error, once", "[reports]") {
    const openclaw::Context context(env().device);
    (void)next_error(context);  // nothing pending from earlier cases
    REQUIRE(report_as_driver(context.get(),
                             "CL_OUT_OF_RESOURCES error executing clFinish on the test device"));
    const std::string first = next_error(context);
    CHECK_THAT(first, has("clCreateBuffer"));
    CHECK_THAT(first, has("; the driver reported about this context (cl_context "));
    CHECK_THAT(first, has("): \"CL_OUT_OF_RESOURCES error executing clFinish on the test "
                          "device\""));
    const std::string second = next_error(context);
    CHECK_THAT(second, !has("the driver reported"));
}

TEST_CASE("a report made on another thread says so", "[reports]") {
    const openclaw::Context context(env().device);
    (void)next_error(context);
    std::thread driver([&] { REQUIRE(report_as_driver(context.get(), "launch failure")); });
    driver.join();
    CHECK_THAT(next_error(context), has(", on another thread): \"launch failure\""));
}

TEST_CASE("reports past the last 16 are counted, not kept", "[reports]") {
    const openclaw::Context context(env().device);
    (void)next_error(context);
    for (int i = 0; i < 20; ++i) {
        REQUIRE(report_as_driver(context.get(), ("report " + std::to_string(i)).c_str()));
    }
    const std::string text = next_error(context);
    CHECK_THAT(text, !has("\"report 3\""));
    CHECK_THAT(text, has("\"report 4\""));
    CHECK_THAT(text, has("\"report 19\""));
    CHECK_THAT(text, has("(and 4 earlier report(s) of any context, dropped)"));
}

TEST_CASE("an installed handler receives each report with its context, and errors stay plain",
          "[reports]") {
    const openclaw::Context a(env().device);
    const openclaw::Context b(env().device);
    (void)next_error(a);
    {
        const Handler handler;
        REQUIRE(report_as_driver(a.get(), "from a"));
        REQUIRE(report_as_driver(b.get(), "from b"));
        CHECK_THAT(next_error(a), !has("the driver reported"));
        const std::lock_guard lock(received.mutex);
        REQUIRE(received.reports.size() == 2);
        CHECK(received.reports[0] == std::pair<cl_context, std::string>(a.get(), "from a"));
        CHECK(received.reports[1] == std::pair<cl_context, std::string>(b.get(), "from b"));
    }
    // The default again: kept for the next error.
    REQUIRE(report_as_driver(a.get(), "after the handler"));
    CHECK_THAT(next_error(a), has("\"after the handler\""));
}

TEST_CASE("a report about a context openclaw no longer knows names no context", "[reports]") {
    cl_context raw = nullptr;
    {
        const openclaw::Context context(env().device);
        raw = context.get();
    }
    const Handler handler;
    REQUIRE(report_as_driver(raw, "late"));  // a driver reporting after the context is gone
    const std::lock_guard lock(received.mutex);
    REQUIRE(received.reports.size() == 1);
    CHECK(received.reports[0].first == nullptr);
    CHECK(received.reports[0].second == "late");
}

TEST_CASE("a report reaches only failures on its own context, thrown or given to a Status",
          "[reports]") {
    const openclaw::Context a(env().device);
    const openclaw::Context b(env().device);
    (void)next_error(a);
    (void)next_error(b);
    REQUIRE(report_as_driver(a.get(), "about a"));
    // An error on b's objects does not carry what the driver said about a.
    CHECK_THAT(next_error(b), !has("the driver reported"));
    // Nor does a failure that is about no context (an empty queue).
    const auto unrelated = thrown<openclaw::Error>([] { openclaw::Queue().finish(); });
    REQUIRE(unrelated);
    CHECK_THAT(unrelated->what(), !has("about a"));
    // A Status of a failure on a's objects gets it, named for its context.
    openclaw::Status status;
    openclaw::ReadWriteBuffer<int> empty(a, 0, status);
    CHECK_FALSE(status.ok());
    char handle[2 * sizeof(void*) + 8];
    std::snprintf(handle, sizeof handle, "%p", static_cast<void*>(a.get()));
    CHECK_THAT(std::string(status.what()),
               has(std::string("; the driver reported about this context (cl_context ") + handle +
                   "): \"about a\""));
    CHECK_THAT(next_error(a), !has("about a"));  // carried once
    // An error_code cannot carry text: the report waits for the next failure that can.
    REQUIRE(report_as_driver(b.get(), "about b"));
    std::error_code code;
    openclaw::ReadWriteBuffer<int> none(b, 0, code);
    CHECK(code);
    CHECK_THAT(next_error(b), has("\"about b\""));
}
