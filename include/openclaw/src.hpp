// SPDX-License-Identifier: Apache-2.0
#pragma once
// The definitions behind openclaw's separate compilation mode. Include this header in exactly one
// translation unit of a program (or library), first and alone:
//
//     // openclaw.cpp
//     #include <openclaw/src.hpp>
//
// and define OPENCLAW_SEPARATE_COMPILATION in every unit of that program, this one included,
// together with every other macro that configures openclaw (CL_TARGET_OPENCL_VERSION,
// OPENCLAW_NO_EXCEPTIONS...), with the same values everywhere. See docs/guide.md, "Compile time".

/// \file
/// Defines, once, the functions that OPENCLAW_SEPARATE_COMPILATION leaves out of the other units.

#if !defined(OPENCLAW_SEPARATE_COMPILATION)
#error "<openclaw/src.hpp> is for OPENCLAW_SEPARATE_COMPILATION builds: define it in every unit"
#endif
#if defined(OPENCLAW_INLINE)
#error "<openclaw/src.hpp> must come before every other openclaw header in its unit"
#endif

/// Internal: marks the unit that defines the functions separate compilation moves.
#define OPENCLAW_SOURCE 1
// Everything, the binary cache included (which the umbrella leaves out): its functions are defined
// here for the units that include <openclaw/cache.hpp>, and plugged in by those units only.
#include <openclaw/cache.hpp>
#include <openclaw/openclaw.hpp>
