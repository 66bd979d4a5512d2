// SPDX-License-Identifier: Apache-2.0
// Calls device_count(), defined in provider.cpp (see there).
#include <openclaw/context.hpp>

#include <cstddef>

std::size_t device_count(const openclaw::Context& context);

int main() {
    const openclaw::Context none;
    return device_count(none) == 0 ? 0 : 1;
}
