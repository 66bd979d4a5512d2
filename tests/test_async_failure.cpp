// A failed command thrown at its co_await. PoCL (3.1 and 5.0) never calls the completion
// callback of a command that terminated abnormally: openclaw's resume thread notices the failure
// by polling, resumes the coroutine and drops the callback's state (detail::AwaitCallbacks), so
// nothing is left behind (the asan run has no suppression of openclaw's own for this program).
#include <openclaw/all.hpp>

#include <string>

#include "support/catch.hpp"
#include "support/fixture.hpp"
#include "task.hpp"  // examples/async_pipeline/task.hpp

using example::Task;
using openclaw_test::env;
using openclaw_test::has;

namespace {

Task<int> await_failure(const openclaw::UserEvent& gate, const openclaw::Queue& queue,
                        const openclaw::ReadWriteBuffer<int>& data) {
    co_await queue.fill(data.slice(0, data.size()), 1, openclaw::with_event, openclaw::after(gate));
    co_return 0;
}

// The same, recorded: a named OnError held across the suspension (its Status lives in the
// coroutine's frame), given to when_complete.
Task<std::string> record_failure(const openclaw::UserEvent& gate, const openclaw::Queue& queue,
                                 const openclaw::ReadWriteBuffer<int>& data) {
    openclaw::Status status;
    const openclaw::OnError sink(status);
    co_await openclaw::when_complete(
        queue.fill(data.slice(0, data.size()), 1, openclaw::with_event, openclaw::after(gate)),
        sink);
    co_return status.failed() ? std::string(status.what()) : std::string("no failure recorded");
}

}  // namespace

TEST_CASE("a failed command is recorded at a co_await given an OnError") {
    const openclaw::Queue queue{env().context, env().device};
    const openclaw::ReadWriteBuffer<int> data{env().context, 64};
    const openclaw::UserEvent gate{env().context};
    auto task = record_failure(gate, queue, data);
    gate.fail(-9);
    CHECK_THAT(task.get(), has("co_await: ") && has("the awaited command terminated abnormally"));
}

TEST_CASE("a failed command is thrown at its co_await") {
    const openclaw::Queue queue{env().context, env().device};
    const openclaw::ReadWriteBuffer<int> data{env().context, 64};
    const openclaw::UserEvent gate{env().context};
    auto task = await_failure(gate, queue, data);
    gate.fail(-7);
    try {
        (void)task.get();
        FAIL("the co_await did not throw");
    } catch (const openclaw::Error& error) {
        CHECK(error.cl_code() == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        CHECK_THAT(error.what(), has("the awaited command terminated abnormally: its execution "
                                     "status is "));
    }
}
