// Must not compile: after() given something that is not an Event or a range of them.
#include "common.hpp"

void snippet(int marker) {
    (void)cf::after(marker);
}
