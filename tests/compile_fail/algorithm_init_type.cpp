// Must not compile: an int init for a float reduction.
#include "algorithm_common.hpp"

void snippet(cf::AlgorithmArgs& args) {
    auto& queue = args.queue;
    auto& floats = args.floats;
    (void)openclaw::reduce(queue, floats, 0, openclaw::plus<>{});
}
