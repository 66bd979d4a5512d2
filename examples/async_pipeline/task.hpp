// SPDX-License-Identifier: Apache-2.0
#pragma once
// A minimal coroutine task: it starts at once, and get() blocks until it finished, returning its
// value or rethrowing its exception. openclaw supplies awaitables (co_await on an Event), not a
// task type: this one is enough for the example and the tests; bring your own for real code.

#include <condition_variable>
#include <coroutine>
#include <exception>
#include <mutex>
#include <optional>
#include <utility>

namespace example {

template <class T>
class Task {
  public:
    struct promise_type {
        std::mutex mutex;
        std::condition_variable done_signal;
        bool done = false;
        std::optional<T> value;
        std::exception_ptr error;

        Task get_return_object() {
            return Task(std::coroutine_handle<promise_type>::from_promise(*this));
        }
        std::suspend_never initial_suspend() noexcept { return {}; }
        // Signals completion only once the coroutine is suspended for good, so that a waiter
        // may destroy it as soon as it sees `done`.
        struct Finished {
            bool await_ready() const noexcept { return false; }
            void await_suspend(std::coroutine_handle<promise_type> handle) const noexcept {
                promise_type& promise = handle.promise();
                const std::lock_guard lock(promise.mutex);
                promise.done = true;
                promise.done_signal.notify_all();
            }
            void await_resume() const noexcept {}
        };
        Finished final_suspend() noexcept { return {}; }
        void return_value(T v) { value = std::move(v); }
        void unhandled_exception() { error = std::current_exception(); }
    };

    Task(const Task&) = delete;
    Task& operator=(const Task&) = delete;
    Task(Task&& other) noexcept : handle_(std::exchange(other.handle_, {})) {}
    ~Task() {
        if (handle_) {
            wait();
            handle_.destroy();
        }
    }

    /// Blocks until the coroutine finished; returns its value or rethrows its exception.
    T get() {
        wait();
        auto& promise = handle_.promise();
        if (promise.error) {
            std::rethrow_exception(promise.error);
        }
        return std::move(*promise.value);
    }

  private:
    explicit Task(std::coroutine_handle<promise_type> handle) : handle_(handle) {}
    void wait() {
        auto& promise = handle_.promise();
        std::unique_lock lock(promise.mutex);
        promise.done_signal.wait(lock, [&] { return promise.done; });
    }
    std::coroutine_handle<promise_type> handle_;
};

}  // namespace example
