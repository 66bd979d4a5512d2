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
    std::atomic<int> clone_kernel{0};
    std::atomic<int> create_queue_1x{0};
    // Entry points and queries newer than OpenCL 1.2, called while pretending to be 1.2.
    std::atomic<int> newer{0};
    std::vector<std::string> newer_names;  // written only by the calling test's thread
};

ClCalls& cl_calls();

/// While alive, platforms and devices report OpenCL 1.2 (and OpenCL C 1.2).
class PretendOpenCL12 {
  public:
    PretendOpenCL12();
    ~PretendOpenCL12();
    PretendOpenCL12(const PretendOpenCL12&) = delete;
    PretendOpenCL12& operator=(const PretendOpenCL12&) = delete;
};

}  // namespace openclaw_test
