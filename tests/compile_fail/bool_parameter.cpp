// Must not compile: a bool kernel parameter.
#include "common.hpp"

void snippet(cf::Program& program) {
    (void)program.kernel<cf::In<float>, bool>("k");
}
