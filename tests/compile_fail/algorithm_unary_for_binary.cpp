// Must not compile: a unary operator where reduce needs a binary one.
#include "algorithm_common.hpp"

void snippet(cf::AlgorithmArgs& args) {
    auto& queue = args.queue;
    auto& ints = args.ints;
    (void)openclaw::reduce(queue, ints, cl_int{0}, openclaw::op<"int neg(int x) { return -x; }">{});
}
