// Must not compile: a pipe parameter.
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
__kernel void produce(__write_only pipe int queue) {}
)CLC";
}  // namespace

void snippet(cf::Program& program) {
    (void)program.kernel<source, "produce">();
}
