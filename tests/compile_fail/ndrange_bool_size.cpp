// Must not compile: a bool launch size (a condition, not a count).
#include "common.hpp"

void snippet(bool b) {
    const cf::NDRange range{b};
    (void)range;
}
