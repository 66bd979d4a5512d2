// SPDX-License-Identifier: Apache-2.0
// Defined in one unit and called from another (user.cpp): an openclaw type in the signature puts
// openclaw's ABI namespace into the function's name, so units configured differently disagree on
// it and the program does not link (check_link.cmake).
#include <openclaw/context.hpp>

#include <cstddef>

std::size_t device_count(const openclaw::Context& context) {
    return context ? context.devices().size() : 0;
}
