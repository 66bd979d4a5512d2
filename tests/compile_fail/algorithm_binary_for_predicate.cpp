// Must not compile: a binary operator where count_if needs a predicate.
#include "algorithm_common.hpp"

void snippet(cf::AlgorithmArgs& args) {
    auto& queue = args.queue;
    auto& ints = args.ints;
    (void)openclaw::count_if(queue, ints,
                             openclaw::op<"int both(int a, int b) { return a && b; }">{});
}
