// Must not compile: an operator snippet that defines no function.
#include "algorithm_common.hpp"

void snippet(cf::AlgorithmArgs& args) {
    auto& queue = args.queue;
    auto& ints = args.ints;
    (void)openclaw::reduce(queue, ints, cl_int{0}, openclaw::op<"int bigger;">{});
}
