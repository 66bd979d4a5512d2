// SPDX-License-Identifier: Apache-2.0
#pragma once
// One include for Catch2 v2 (Debian 12) and v3 (Ubuntu 24.04), plus the helpers the tests share.

#if defined(OPENCLAW_CATCH2_V3)
#include <catch2/catch_all.hpp>
#else
#include <catch2/catch.hpp>
#endif

#include <optional>
#include <string>

namespace openclaw_test {

/// Matcher: the string contains `text`.
inline auto has(const std::string& text) {
#if defined(OPENCLAW_CATCH2_V3)
    return Catch::Matchers::ContainsSubstring(text);
#else
    return Catch::Matchers::Contains(text);
#endif
}

/// Runs `f` and returns the exception of type E it threw, or nothing if it threw none.
template <class E, class F>
std::optional<E> thrown(F&& f) {
    try {
        f();
    } catch (const E& e) {
        return e;
    }
    return std::nullopt;
}

}  // namespace openclaw_test
