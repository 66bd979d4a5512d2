// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// Everything public in openclaw: the main header and every side wing (images, SVM, pinned memory,
// profiling times, coroutines, kernel signatures from source, splitting ranges across devices,
// command graphs, pools, external memory, algorithms). One side header is left out:
// <openclaw/cache.hpp>, the on-disk binary cache's type (BinaryCache): its <filesystem> and
// SHA-256 code cost a unit more than the rest of this header's wings, and only a program that
// names BinaryCache needs it (the environment turns the cache on without it wherever the compiled
// library is linked).

#include <openclaw/algorithm.hpp>
#include <openclaw/async.hpp>
#include <openclaw/external.hpp>
#include <openclaw/graph.hpp>
#include <openclaw/image.hpp>
#include <openclaw/openclaw.hpp>
#include <openclaw/pinned.hpp>
#include <openclaw/pool.hpp>
#include <openclaw/profile.hpp>
#include <openclaw/signature.hpp>
#include <openclaw/split.hpp>
#include <openclaw/svm.hpp>

#include <openclaw/detail/base/macros_pop.hpp>
