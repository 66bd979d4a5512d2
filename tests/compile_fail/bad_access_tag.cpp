// Must not compile: a buffer whose access is not ReadOnly, WriteOnly or ReadWrite.
#include "common.hpp"

struct Sideways {};

void snippet(cf::Context& context) {
    cf::Buffer<float, Sideways> buffer{context, 4};
}
