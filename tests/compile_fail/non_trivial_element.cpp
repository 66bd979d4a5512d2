// Must not compile: a buffer of std::string.
#include <string>

#include "common.hpp"

void snippet(cf::Context& context) {
    cf::ReadOnlyBuffer<std::string> strings{context, 4};
}
