// SPDX-License-Identifier: Apache-2.0
#pragma once
// Everything public in openclaw: the main header and every side wing (images, SVM, pinned memory,
// profiling times, coroutines, kernel signatures from source, splitting ranges across devices,
// command graphs, pools, external memory, algorithms). One side header is left out on purpose:
// <openclaw/cache.hpp>, the on-disk binary cache, switches Program::build to consult the cache in
// the whole program, so a program that wants the cache includes it in one unit.

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
