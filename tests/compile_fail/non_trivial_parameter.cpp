// Must not compile: a kernel parameter passed by value that is not trivially copyable.
#include <string>

#include "common.hpp"

void snippet(cf::Program& program) {
    (void)program.kernel<cf::In<float>, std::string>("k");
}
