// SPDX-License-Identifier: Apache-2.0
// The base, the objects and the memory core: errors, info queries, the map registry, platforms,
// devices, contexts, wait lists, events, queues, the non-template memory core, staging, buffers,
// pinned memory. Every program reaches all of them, so they are one unit (one parse of the common
// headers instead of two); part of the openclaw library (openclaw::openclaw), compiled once:
// cmake/openclawLibrary.cmake.

#include <openclaw/impl/buffer.ipp>
#include <openclaw/impl/context.ipp>
#include <openclaw/impl/detail/base/info.ipp>
#include <openclaw/impl/detail/base/map_registry.ipp>
#include <openclaw/impl/detail/memory/memory.ipp>
#include <openclaw/impl/detail/memory/staging.ipp>
#include <openclaw/impl/device.ipp>
#include <openclaw/impl/error.ipp>
#include <openclaw/impl/event.ipp>
#include <openclaw/impl/pinned.ipp>
#include <openclaw/impl/platform.ipp>
#include <openclaw/impl/queue.ipp>
#include <openclaw/impl/select.ipp>
#include <openclaw/impl/wait_list.ipp>
