// Must not compile: a kernel typed from its source in a unit that includes only the main header
// (the signature wing, <openclaw/signature.hpp>, is not in it): the error says which header to add.
#include <openclaw/openclaw.hpp>

namespace {
constexpr char source[] = "__kernel void k(__global float* p) { p[0] = 1.0f; }";
}  // namespace

void snippet(const openclaw::Program& program) {
    (void)program.kernel<source, "k">();
}
