// SPDX-License-Identifier: Apache-2.0
// The side wings: coroutines and host callbacks, images, shared virtual memory, external memory,
// command graphs, memory pools, splitting ranges across devices,
// the algorithms' engine;
// part of the openclaw library (openclaw::openclaw), compiled once: cmake/openclawLibrary.cmake.

#include <openclaw/impl/async.ipp>
#include <openclaw/impl/detail/wings/algorithm_core.ipp>
#include <openclaw/impl/external.ipp>
#include <openclaw/impl/graph.ipp>
#include <openclaw/impl/image.ipp>
#include <openclaw/impl/pool.ipp>
#include <openclaw/impl/sampler.ipp>
#include <openclaw/impl/split.ipp>
#include <openclaw/impl/svm.ipp>
