// SPDX-License-Identifier: Apache-2.0
#pragma once
// The libraries openclaw is measured against, included the same way by every benchmark:
// OpenCL-CLHPP always, Boost.Compute when CMake found its headers (OPENCLAW_BENCH_BOOST_COMPUTE),
// and a check for the benchmarks' own raw C calls. Each peer wraps the same cl_ objects, so the
// peers share one context, queue, program and buffers and differ only in the calls they make.

#include <openclaw/all.hpp>

#define CL_HPP_TARGET_OPENCL_VERSION 300
// 110: CLHPP 2.0.x fails to compile its queue constructors with a minimum of 120.
#define CL_HPP_MINIMUM_OPENCL_VERSION 110
#include <CL/opencl.hpp>

#ifndef OPENCLAW_BENCH_BOOST_COMPUTE
#define OPENCLAW_BENCH_BOOST_COMPUTE 0
#endif
#if OPENCLAW_BENCH_BOOST_COMPUTE
#include <boost/compute/core.hpp>
#include <boost/compute/utility/program_cache.hpp>
#endif

namespace bench {

/// Whether this build measures Boost.Compute (its headers were found at configure time).
inline constexpr bool has_boost_compute = OPENCLAW_BENCH_BOOST_COMPUTE != 0;

/// Throws for a failed raw C call of a benchmark, so that it stops instead of timing an error.
inline void check(cl_int code, const char* call) {
    if (code != CL_SUCCESS) {
        throw openclaw::Error(code, call, "in the benchmark's raw C code");
    }
}

}  // namespace bench
