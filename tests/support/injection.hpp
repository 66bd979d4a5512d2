// SPDX-License-Identifier: Apache-2.0
#pragma once
// Failures injected at chosen points of a test, through the fault-injection interposer
// (tests/reliability/interposer.cpp) when the test program runs under it (LD_PRELOAD; ctest runs
// test_injected_failures that way). Without the interposer there is nothing to arm.

#include <openclaw/error.hpp>

#include <dlfcn.h>

namespace openclaw_test {

class Injection {
  public:
    /// The interposer's controls, if it is loaded.
    static Injection find() noexcept {
        Injection injection;
        injection.arm_ = reinterpret_cast<Arm>(dlsym(RTLD_DEFAULT, "openclaw_fi_arm"));
        injection.disarm_ = reinterpret_cast<Disarm>(dlsym(RTLD_DEFAULT, "openclaw_fi_disarm"));
        injection.count_ = reinterpret_cast<Count>(dlsym(RTLD_DEFAULT, "openclaw_fi_count"));
        return injection;
    }

    explicit operator bool() const noexcept {
        return arm_ != nullptr && disarm_ != nullptr && count_ != nullptr;
    }

    /// From now on, the `nth` call of `call` fails with `code`.
    void fail(const char* call, cl_int code, long nth = 1) const { arm_(call, nth, code, 0); }
    /// From the `nth` call of `call` on, every OpenCL call fails with `code` (a lost device).
    void fail_from(const char* call, cl_int code, long nth = 1) const { arm_(call, nth, code, 1); }
    /// Ends every injected failure.
    void clear() const { disarm_(); }
    /// How many times `call` has been called so far.
    long calls(const char* call) const { return count_(call); }

  private:
    using Arm = void (*)(const char*, long, cl_int, int);
    using Disarm = void (*)();
    using Count = long (*)(const char*);
    Arm arm_ = nullptr;
    Disarm disarm_ = nullptr;
    Count count_ = nullptr;
};

}  // namespace openclaw_test
