// Must not compile: a predicate that returns a vector.
#include "algorithm_common.hpp"

void snippet(cf::AlgorithmArgs& args) {
    auto& queue = args.queue;
    auto& ints = args.ints;
    (void)openclaw::count_if(queue, ints,
                             openclaw::op<"int4 spread(int x) { return (int4)(x); }">{});
}
