// Must compile under the warnings some users build with (-Wshadow -Wconversion -Wsign-conversion
// -Wold-style-cast, with -Werror; tests/compile_fail/CMakeLists.txt adds them to this target):
// every correct use of control.cpp, and the side headers (coroutines, splitting, SVM, the
// signature parser) instantiated.
#include <openclaw/async.hpp>
#include <openclaw/signature.hpp>
#include <openclaw/split.hpp>
#include <openclaw/svm.hpp>

#include <coroutine>
#include <exception>

#include "control.cpp"  // NOLINT(bugprone-suspicious-include): the same uses, stricter flags

namespace {

// The smallest coroutine type a co_await needs.
struct Fire {
    struct promise_type {
        Fire get_return_object() noexcept { return {}; }
        std::suspend_never initial_suspend() noexcept { return {}; }
        std::suspend_never final_suspend() noexcept { return {}; }
        void return_void() noexcept {}
        void unhandled_exception() noexcept { std::terminate(); }
    };
};

Fire awaits(cf::Event event, std::vector<cf::Event> events) {
    co_await event;
    co_await cf::when_all(events);
}

constexpr char strict_source[] = R"CLC(
__kernel void axpy(const float a, __global const float* x, __global float* y, const uint n) {
    const size_t i = get_global_id(0);
    if (i < n) { y[i] += a * x[i]; }
}
)CLC";

}  // namespace

void strict(cf::Queue& q, cf::Program& program, cf::Args& a, std::span<const cf::Device> devices) {
    auto axpy = program.kernel<strict_source, "axpy">();
    q.enqueue(axpy.set_args(2.0f, a.in, a.both, a.n), cf::NDRange{a.size});
    const auto slices = cf::split(a.size, devices);
    (void)slices;
    std::vector<float, cf::SvmAllocator<float>> shared(cf::SvmAllocator<float>{q.context()});
    (void)shared;
    (void)awaits(cf::Event{}, {});
}
