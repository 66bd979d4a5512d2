// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// Splitting an index range across devices in proportion to a weight (compute units by default),
// in steps that keep every slice's start aligned, so the matching sub-buffers can be cut (a side
// header of the multi-device wing).

#include <openclaw/device.hpp>
#include <openclaw/error.hpp>

#include <cstddef>
#include <limits>
#include <span>
#include <utility>
#include <vector>

OPENCLAW_BEGIN_NAMESPACE

namespace detail {
// split() is declared here: the stubs of fwd.hpp step aside.
template <class... A>
inline constexpr bool side_header_included<split_header, A...> = true;
}  // namespace detail

/// A part of an index range: elements [offset, offset + count).
template <>
struct BasicSlice<0> {
    /// The first index of the slice.
    std::size_t offset = 0;
    /// The number of indices in the slice.
    std::size_t count = 0;
    friend constexpr bool operator==(const Slice&, const Slice&) = default;
};

/// Splits [0, n) into one slice per weight, in proportion to the weights. Every slice starts at
/// a multiple of `granularity` (pass Buffer::sub_alignment() to cut sub-buffers from the slices);
/// the last slice takes the remainder. A zero weight yields an empty slice.
std::vector<Slice> split(std::size_t n, std::span<const double> weights,
                         std::size_t granularity = 1, OnError on_error = {});

/// Splits [0, n) across `devices` in proportion to their compute units.
std::vector<Slice> split(std::size_t n, std::span<const Device> devices,
                         std::size_t granularity = 1, OnError on_error = {});

OPENCLAW_END_NAMESPACE

#if OPENCLAW_HEADER_ONLY
#include <openclaw/impl/split.ipp>
#endif

#include <openclaw/detail/base/macros_pop.hpp>
