// Must not compile: a source constant that is not text.
#include "common.hpp"

namespace {
constexpr int source = 42;
}  // namespace

void snippet(cf::Program& program) {
    (void)program.kernel<source, "k">();
}
