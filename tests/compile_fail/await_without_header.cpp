// Must not compile: an event awaited (co_await) in a unit that includes only the main header; the
// first error must name <openclaw/async.hpp>.
#include <openclaw/openclaw.hpp>

#include <coroutine>
#include <exception>

struct Task {
    struct promise_type {
        Task get_return_object() { return {}; }
        std::suspend_never initial_suspend() noexcept { return {}; }
        std::suspend_never final_suspend() noexcept { return {}; }
        void return_void() {}
        void unhandled_exception() { std::terminate(); }
    };
};

Task snippet(openclaw::Event event) {
    co_await event;
}
