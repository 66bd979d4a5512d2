// Must not compile: DynamicKernel::set_arg with a buffer that dies at the end of the statement.
#include "common.hpp"

void snippet(cf::DynamicKernel& kernel, cf::Args& a) {
    kernel.set_arg(2, cf::WriteOnlyBuffer<float>(std::move(a.out)));
}
