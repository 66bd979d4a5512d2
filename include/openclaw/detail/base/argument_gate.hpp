// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// The gate of a kernel's argument values (detail core): Kernel and DynamicKernel hold one, set_args
// takes it alone and Queue::enqueue shares it while it enqueues, so that neither runs beside the
// other on one cl_kernel.

#include <openclaw/config.hpp>

#include <atomic>

OPENCLAW_BEGIN_NAMESPACE
namespace detail {

/// Who uses a kernel's argument values now: one thread setting them, or any number of launches
/// reading them. clSetKernelArg may not run beside another clSetKernelArg or a launch of the same
/// cl_kernel (the driver reads the values while it enqueues; a race crashes drivers), so each
/// refuses the other, while launches from several threads share it. One compare-exchange each.
class ArgumentGate {
  public:
    /// Takes the gate for setting arguments; false when a launch or another setter holds it.
    bool enter_setting() noexcept {
        int idle = 0;
        return state_.compare_exchange_strong(idle, -1, std::memory_order_acquire,
                                              std::memory_order_relaxed);
    }
    void leave_setting() noexcept { state_.store(0, std::memory_order_release); }
    /// Joins the launches reading the arguments; false while a thread sets them.
    bool enter_launch() noexcept {
        int now = state_.load(std::memory_order_relaxed);
        while (now >= 0) {
            if (state_.compare_exchange_weak(now, now + 1, std::memory_order_acquire,
                                             std::memory_order_relaxed)) {
                return true;
            }
        }
        return false;
    }
    void leave_launch() noexcept { state_.fetch_sub(1, std::memory_order_release); }

  private:
    std::atomic<int> state_{0};  // -1: arguments being set; n >= 0: launches reading them
};

/// The gate held while one thread sets arguments (Kernel and DynamicKernel), released however
/// setting ends (a failure may throw).
class SettingArguments {
  public:
    explicit SettingArguments(ArgumentGate& gate) noexcept
        : gate_(gate), claimed_(gate.enter_setting()) {}
    SettingArguments(const SettingArguments&) = delete;
    SettingArguments& operator=(const SettingArguments&) = delete;
    ~SettingArguments() {
        if (claimed_) {
            gate_.leave_setting();
        }
    }
    /// False when another thread sets arguments or launches the kernel.
    explicit operator bool() const noexcept { return claimed_; }

  private:
    ArgumentGate& gate_;
    bool claimed_;
};

/// The gate held by a launch while it enqueues (none for a kernel without one: raw kernels).
class LaunchingKernel {
  public:
    explicit LaunchingKernel(ArgumentGate* gate) noexcept
        : gate_(gate), claimed_(gate == nullptr || gate->enter_launch()) {}
    LaunchingKernel(const LaunchingKernel&) = delete;
    LaunchingKernel& operator=(const LaunchingKernel&) = delete;
    ~LaunchingKernel() {
        if (claimed_ && gate_ != nullptr) {
            gate_->leave_launch();
        }
    }
    /// False when another thread is setting the kernel's arguments.
    explicit operator bool() const noexcept { return claimed_; }

  private:
    ArgumentGate* gate_;
    bool claimed_;
};

}  // namespace detail
OPENCLAW_END_NAMESPACE

#include <openclaw/detail/base/macros_pop.hpp>
