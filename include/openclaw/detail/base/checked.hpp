// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// Checked arithmetic on sizes, counts, offsets and pitches (detail core layer): every product and
// sum openclaw computes from a caller's numbers goes through these, so a value near SIZE_MAX is
// refused instead of wrapping into a small, valid-looking one.

#include <openclaw/config.hpp>

#include <cstddef>

OPENCLAW_BEGIN_NAMESPACE
namespace detail {

/// a * b into `out`; false (and `out` unspecified) when it does not fit in size_t.
constexpr bool checked_mul(std::size_t a, std::size_t b, std::size_t& out) noexcept {
#if defined(__GNUC__) || defined(__clang__)
    return !__builtin_mul_overflow(a, b, &out);
#else
    if (a != 0 && b > static_cast<std::size_t>(-1) / a) {
        return false;
    }
    out = a * b;
    return true;
#endif
}

/// a + b into `out`; false when it does not fit in size_t.
constexpr bool checked_add(std::size_t a, std::size_t b, std::size_t& out) noexcept {
#if defined(__GNUC__) || defined(__clang__)
    return !__builtin_add_overflow(a, b, &out);
#else
    if (b > static_cast<std::size_t>(-1) - a) {
        return false;
    }
    out = a + b;
    return true;
#endif
}

/// a + b, or SIZE_MAX when that does not fit: for totals compared with a limit (any sum past
/// size_t exceeds every limit).
constexpr std::size_t saturating_add(std::size_t a, std::size_t b) noexcept {
    std::size_t sum = 0;
    return checked_add(a, b, sum) ? sum : static_cast<std::size_t>(-1);
}

/// True when [offset, offset + count) lies inside [0, size): the overflow-proof range test.
constexpr bool range_fits(std::size_t offset, std::size_t count, std::size_t size) noexcept {
    return offset <= size && count <= size - offset;
}

}  // namespace detail
OPENCLAW_END_NAMESPACE

#include <openclaw/detail/base/macros_pop.hpp>
