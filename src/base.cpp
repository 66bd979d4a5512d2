// SPDX-License-Identifier: Apache-2.0
// The base and the objects: errors, info queries, the map registry, platforms, devices, contexts,
// events; part of the openclaw library (openclaw::openclaw), compiled once:
// cmake/openclawLibrary.cmake.

#include <openclaw/impl/context.ipp>
#include <openclaw/impl/detail/info.ipp>
#include <openclaw/impl/detail/map_registry.ipp>
#include <openclaw/impl/device.ipp>
#include <openclaw/impl/error.ipp>
#include <openclaw/impl/event.ipp>
#include <openclaw/impl/platform.ipp>
