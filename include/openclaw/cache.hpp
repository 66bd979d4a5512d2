// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// BinaryCache: built program binaries kept on disk between runs, so that the next run of a program
// loads its binary instead of compiling the source (a side header: it declares BinaryCache for a
// program that names it, e.g. `options.cache(BinaryCache{dir})`; the umbrella
// <openclaw/openclaw.hpp> leaves it out). Opt-in: the cache is on only where the environment
// (OPENCLAW_CACHE, OPENCLAW_CACHE_DIR) or a build's options ask, in every program that links the
// compiled library, whatever it includes. Header-only, the cache's code is compiled where this
// header is included, so the environment can turn it on only in a program one of whose units
// includes it (Program::build says so on stderr otherwise).
// On PoCL 3.1 it saves most of a cold start (268 ms instead of 1293 ms for a 300-line
// source) but nothing once PoCL's own cache is warm (55 ms against 44 ms; bench/build_cache.cpp).
// Entries are keyed by everything that decides the binary, written atomically, and checked when
// read.

#include <openclaw/detail/wings/cache.hpp>

OPENCLAW_BEGIN_NAMESPACE

#if OPENCLAW_HEADER_ONLY
namespace detail {
inline constexpr BuildCache binary_cache_hooks{&load_cached_build, &store_build};
// Header-only: the cache's code is in the units that include this header, and this line points
// Program::build at it when the program starts (the hooks are one object, so any unit's store is
// the same). The compiled library points at its own copy from the start (impl/program.ipp).
inline const bool binary_cache_plugged_in = (build_cache.store(&binary_cache_hooks), true);
}  // namespace detail
#endif

OPENCLAW_END_NAMESPACE

#include <openclaw/detail/base/macros_pop.hpp>
