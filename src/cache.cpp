// SPDX-License-Identifier: Apache-2.0
// The on-disk binary cache (linked only into programs that include <openclaw/cache.hpp>);
// part of the openclaw library (openclaw::openclaw), compiled once: cmake/openclawLibrary.cmake.

#include <openclaw/impl/detail/wings/cache.ipp>
