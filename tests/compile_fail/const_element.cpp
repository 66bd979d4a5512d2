// Must not compile: a buffer of const elements (access is said with ReadOnly instead).
#include "common.hpp"

void snippet(cf::Context& context) {
    cf::Buffer<const float, cf::ReadOnly> constants{context, 4};
}
