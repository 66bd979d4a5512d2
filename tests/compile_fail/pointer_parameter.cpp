// Must not compile: a raw pointer as a kernel parameter type.
#include "common.hpp"

void snippet(cf::Program& program) {
    (void)program.kernel<float*, cl_uint>("k");
}
