// A failed command thrown at its co_await. Kept apart from test_async because PoCL (3.1 and
// 5.0) never calls the completion callback of a command that terminated abnormally, so the
// callback's state is never freed (memory only: it holds no OpenCL object; the asan run
// suppresses it for this program, tests/support/lsan-pocl-failed-command.supp). openclaw's
// resume thread notices the failure by polling and resumes the coroutine; only the driver-held
// callback state stays behind.
#include <openclaw/openclaw.hpp>

#include "support/catch.hpp"
#include "support/fixture.hpp"
#include "task.hpp"  // examples/async_pipeline/task.hpp

using example::Task;
using openclaw_test::env;
using openclaw_test::has;

namespace {

Task<int> await_failure(const openclaw::UserEvent& gate, const openclaw::Queue& queue,
                        const openclaw::ReadWriteBuffer<int>& data) {
    co_await data.fill(queue, 1, 0, data.size(), openclaw::with_event, openclaw::after(gate));
    co_return 0;
}

}  // namespace

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
        CHECK(error.cl_code() < 0);
        CHECK_THAT(error.what(), has("the awaited command terminated abnormally"));
    }
}
