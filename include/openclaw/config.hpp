// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// The configuration layer: the OpenCL API version openclaw compiles against (and <CL/cl.h>),
// openclaw's version, the build mode (header-only or the compiled library), and the ABI namespace
// that names all three, so that units built differently cannot be linked into one program.

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

/// \file
/// Chooses the OpenCL API version (CL_TARGET_OPENCL_VERSION, default 300), includes <CL/cl.h>,
/// defines openclaw's version macros, the build-mode macros and the ABI namespace.

/// openclaw's major version (0 while the API may change between minor versions).
#define OPENCLAW_VERSION_MAJOR 0
/// openclaw's minor version.
#define OPENCLAW_VERSION_MINOR 2
/// openclaw's patch version.
#define OPENCLAW_VERSION_PATCH 0

// Build modes (docs/guide.md, "Build modes"). Every non-template body is written once, in
// <openclaw/impl/...ipp>. Compiled (the CMake target openclaw::openclaw): the library compiles
// those files once, and it defines OPENCLAW_SEPARATE_COMPILATION for itself and every unit that
// links it, so users' units only declare the functions. Header-only (no macro: including the
// headers is all it takes; the CMake target openclaw::header_only): each header includes its
// bodies at its end, marked inline.
#if defined(OPENCLAW_SEPARATE_COMPILATION)
/// 1 when every unit compiles openclaw's non-template bodies itself (no library to link), else 0.
#define OPENCLAW_HEADER_ONLY 0
/// Internal: what the definitions in <openclaw/impl/...ipp> are marked with: `inline` when
/// header-only, nothing when compiled into the library.
#define OPENCLAW_INLINE
#define OPENCLAW_ABI_MODE_ s
#else
/// 1: this unit compiles openclaw's non-template bodies itself (no library to link).
#define OPENCLAW_HEADER_ONLY 1
/// Internal: `inline`, for the definitions in <openclaw/impl/...ipp> that every unit compiles.
#define OPENCLAW_INLINE inline
#define OPENCLAW_ABI_MODE_ h
#endif

#if defined(__cpp_exceptions) || defined(_CPPUNWIND)
#define OPENCLAW_ABI_EXCEPTIONS_ e
#else
#define OPENCLAW_ABI_EXCEPTIONS_ n
#endif

#define OPENCLAW_ABI_JOIN2_(major, minor, api, mode, exceptions) \
    v##major##_##minor##_cl##api##_##mode##exceptions
#define OPENCLAW_ABI_JOIN_(major, minor, api, mode, exceptions) \
    OPENCLAW_ABI_JOIN2_(major, minor, api, mode, exceptions)
/// The inline namespace every openclaw entity lives in, e.g. `v0_2_cl300_he`: openclaw's version,
/// CL_TARGET_OPENCL_VERSION, header-only (h) or the compiled library (s), with exceptions (e) or
/// without (n). Units that disagree name different entities, so passing an openclaw object from
/// one to the other, or calling a compiled library of another configuration, fails
/// to link (an undefined reference naming both namespaces) instead of mixing two definitions.
#define OPENCLAW_ABI                                                                             \
    OPENCLAW_ABI_JOIN_(OPENCLAW_VERSION_MAJOR, OPENCLAW_VERSION_MINOR, CL_TARGET_OPENCL_VERSION, \
                       OPENCLAW_ABI_MODE_, OPENCLAW_ABI_EXCEPTIONS_)

/// Opens namespace openclaw and its ABI namespace (OPENCLAW_ABI), where every header puts its code.
#define OPENCLAW_BEGIN_NAMESPACE \
    namespace openclaw {         \
    inline namespace OPENCLAW_ABI {
/// Closes what OPENCLAW_BEGIN_NAMESPACE opened.
#define OPENCLAW_END_NAMESPACE \
    }                          \
    }

/// Everything public in openclaw: RAII wrappers of the OpenCL objects (Platform, Device, Context,
/// Queue, Program, Kernel, Buffer, Event...), the kernel parameter descriptors (In, Out, InOut,
/// Constant, Local) and the error types. Names in openclaw::detail are internal.
OPENCLAW_BEGIN_NAMESPACE

/// The OpenCL API version openclaw was compiled against, e.g. 300 for OpenCL 3.0.
inline constexpr int target_opencl_version = CL_TARGET_OPENCL_VERSION;

/// True when this unit uses the compiled openclaw library (OPENCLAW_SEPARATE_COMPILATION), false
/// when it is header-only.
inline constexpr bool separately_compiled = !OPENCLAW_HEADER_ONLY;

OPENCLAW_END_NAMESPACE

#include <openclaw/detail/base/macros_pop.hpp>
