// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-template bodies declared in <openclaw/async.hpp>: compiled once into the openclaw
// library (src/), or included by that header itself when openclaw is header-only.

#include <openclaw/async.hpp>

OPENCLAW_BEGIN_NAMESPACE
namespace detail {

OPENCLAW_INLINE Resumer& Resumer::instance() {
    static Resumer* const resumer = [] {
        auto* made = new Resumer;  // intentionally immortal
        add_service_client(*made);
        return made;
    }();
    return *resumer;
}

OPENCLAW_INLINE AwaitCallbacks& AwaitCallbacks::instance() {
    static AwaitCallbacks* const table = new AwaitCallbacks;  // intentionally immortal
    return *table;
}

}  // namespace detail
OPENCLAW_END_NAMESPACE
