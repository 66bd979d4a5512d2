// Must not compile: a reduction operator that returns another type.
#include "algorithm_common.hpp"

void snippet(cf::AlgorithmArgs& args) {
    auto& queue = args.queue;
    auto& ints = args.ints;
    (void)openclaw::reduce(queue, ints, cl_int{0},
                           openclaw::op<"long add(int a, int b) { return a + b; }">{});
}
