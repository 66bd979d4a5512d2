// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one place that chooses the OpenCL API version openclaw compiles against and includes
// the C headers. Define CL_TARGET_OPENCL_VERSION (120, 200, 210, 220 or 300) before the first
// openclaw include to target an older API; newer entry points are then never referenced.

// openclaw.pc cannot carry the language standard (docs/packaging.md), so a build without
// -std=c++20 gets this line first instead of pages of errors about concepts. 201709 is C++2a as
// g++ 10 reports it.
#if (defined(_MSVC_LANG) ? _MSVC_LANG : __cplusplus) < 201709L
#error "openclaw needs C++20: compile with -std=c++20 (or newer)"
#endif

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif

#if CL_TARGET_OPENCL_VERSION < 120
#error "openclaw needs CL_TARGET_OPENCL_VERSION 120 or newer"
#endif

#include <CL/cl.h>

// Separate compilation (docs/guide.md, "Compile time"): by default openclaw is header-only and
// every unit that uses it compiles all it calls. With OPENCLAW_SEPARATE_COMPILATION defined in
// every unit, the largest non-template functions (building programs and the binary cache, making
// and checking kernels, creating contexts and queues, composing error messages, staged transfers)
// are only declared there and defined once, in the one unit that includes <openclaw/src.hpp>.
#if defined(OPENCLAW_SEPARATE_COMPILATION)
#define OPENCLAW_INLINE
#if defined(OPENCLAW_SOURCE)
#define OPENCLAW_OUT_OF_LINE_DEFINITIONS 1
#else
#define OPENCLAW_OUT_OF_LINE_DEFINITIONS 0
#endif
#else
/// Internal: `inline` for the functions separate compilation moves (header-only), else nothing.
#define OPENCLAW_INLINE inline
/// Internal: 1 where this unit defines the functions separate compilation moves (every unit when
/// header-only, the <openclaw/src.hpp> unit otherwise), else 0.
#define OPENCLAW_OUT_OF_LINE_DEFINITIONS 1
#endif

/// \file
/// Chooses the OpenCL API version (CL_TARGET_OPENCL_VERSION, default 300), includes <CL/cl.h>
/// and defines openclaw's version macros.

/// openclaw's major version (0 while the API may change between minor versions).
#define OPENCLAW_VERSION_MAJOR 0
/// openclaw's minor version.
#define OPENCLAW_VERSION_MINOR 1
/// openclaw's patch version.
#define OPENCLAW_VERSION_PATCH 0

/// Everything public in openclaw: RAII wrappers of the OpenCL objects (Platform, Device, Context,
/// Queue, Program, Kernel, Buffer, Event...), the kernel parameter descriptors (In, Out, InOut,
/// Constant, Local) and the error types. Names in openclaw::detail are internal.
namespace openclaw {

/// The OpenCL API version openclaw was compiled against, e.g. 300 for OpenCL 3.0.
inline constexpr int target_opencl_version = CL_TARGET_OPENCL_VERSION;

}  // namespace openclaw
