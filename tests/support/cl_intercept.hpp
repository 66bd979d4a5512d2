// SPDX-License-Identifier: Apache-2.0
#pragma once
// Counts the OpenCL entry points openclaw calls (support/cl_intercept.cpp defines them in the test
// program, which the header-only library's calls then reach first) and can make the platform
// look like OpenCL 1.2, to show that no newer entry point or query is used on such a platform.

#include <atomic>
#include <string>
#include <vector>

namespace openclaw_test {

struct ClCalls {
    std::atomic<int> create_kernel{0};
    std::atomic<int> build_program{0};  // clBuildProgram
    std::atomic<int> create_buffer{0};  // clCreateBuffer
    std::atomic<int> clone_kernel{0};
    std::atomic<int> create_queue_1x{0};
    // Entry points and queries newer than OpenCL 1.2, called while pretending to be 1.2.
    std::atomic<int> newer{0};
    std::vector<std::string> newer_names;  // written only by the calling test's thread
};

ClCalls& cl_calls();

/// While alive, completion callbacks set with clSetEventCallback are not handed to the driver but
/// held, as a driver that delivers them late does (NVIDIA's, on a 20 ms tick); release() (or the
/// destructor) calls the held ones, as the driver would have, and frees their references.
class HoldEventCallbacks {
  public:
    HoldEventCallbacks();
    ~HoldEventCallbacks();
    HoldEventCallbacks(const HoldEventCallbacks&) = delete;
    HoldEventCallbacks& operator=(const HoldEventCallbacks&) = delete;

    /// The number of callbacks held so far.
    int held() const;
    /// Stops holding and calls every held callback with its event's execution status.
    void release();
};

/// Calls the notification callback `context` was made with (clCreateContext's pfn_notify), as a
/// driver reporting `text` would, on the calling thread; false if it was made without one.
bool report_as_driver(cl_context context, const char* text);

/// While alive, platforms and devices report OpenCL 1.2 (and OpenCL C 1.2).
class PretendOpenCL12 {
  public:
    PretendOpenCL12();
    ~PretendOpenCL12();
    PretendOpenCL12(const PretendOpenCL12&) = delete;
    PretendOpenCL12& operator=(const PretendOpenCL12&) = delete;
};

}  // namespace openclaw_test
