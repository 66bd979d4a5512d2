// Must not compile: a launch of four dimensions (OpenCL has at most three).
#include "common.hpp"

void snippet() {
    const cf::NDRange range{4, 4, 4, 4};
    (void)range;
}
