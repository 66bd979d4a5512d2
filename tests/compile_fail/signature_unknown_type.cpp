// Must not compile: a struct with no opencl_type specialisation.
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
typedef struct { float x, y; } Point;
__kernel void move(__global Point* points, const float dx) {}
)CLC";
}  // namespace

void snippet(cf::Program& program) {
    (void)program.kernel<source, "move">();
}
