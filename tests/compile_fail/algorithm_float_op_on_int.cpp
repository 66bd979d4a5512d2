// Must not compile: a float operator on an int buffer.
#include "algorithm_common.hpp"

void snippet(cf::AlgorithmArgs& args) {
    auto& queue = args.queue;
    auto& ints = args.ints;
    (void)openclaw::reduce(queue, ints, cl_int{0},
                           openclaw::op<"float add(float a, float b) { return a + b; }">{});
}
