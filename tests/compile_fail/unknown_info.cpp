// Must not compile: an info parameter missing from the table.
#include "common.hpp"

void snippet(cf::Device& device) {
    (void)device.info<0x7777>();
}
