// SPDX-License-Identifier: Apache-2.0
// Queues and memory: the queue, the non-template memory core, staging, buffers, pinned memory;
// part of the openclaw library (openclaw::openclaw), compiled once: cmake/openclawLibrary.cmake.

#include <openclaw/impl/buffer.ipp>
#include <openclaw/impl/detail/memory.ipp>
#include <openclaw/impl/detail/staging.ipp>
#include <openclaw/impl/pinned.ipp>
#include <openclaw/impl/queue.ipp>
