// Must not compile: a const-qualified kernel parameter type.
#include "common.hpp"

void snippet(cf::Program& program) {
    (void)program.kernel<cf::In<float>, const cl_uint>("k");
}
