// SPDX-License-Identifier: Apache-2.0
#pragma once
// BinaryCache: built program binaries kept on disk between runs, so that the next run of a program
// loads its binary instead of compiling the source (a side header: including it in any unit of a
// program plugs the cache into Program::build; the umbrella <openclaw/openclaw.hpp> leaves it out).
// Opt-in: on PoCL 3.1 it saves most of a cold start (268 ms instead of 1293 ms for a 300-line
// source) but nothing once PoCL's own cache is warm (55 ms against 44 ms; bench/build_cache.cpp).
// Entries are keyed by everything that decides the binary, written atomically, and checked when
// read.

#include <openclaw/detail/wings/cache.hpp>

OPENCLAW_BEGIN_NAMESPACE

namespace detail {
inline constexpr BuildCache binary_cache_hooks{&load_cached_build, &store_build};
// Plugs the cache into Program::build when the program starts (static initialization of every
// unit that includes this header; the hooks are one object, so any unit's store is the same). The
// compiled library holds the cache's bodies (impl/detail/wings/cache.ipp) but never this line: a
// program turns the cache on by including this header, in either build mode.
inline const bool binary_cache_plugged_in = (build_cache.store(&binary_cache_hooks), true);
}  // namespace detail

OPENCLAW_END_NAMESPACE
