// Must not compile: with_event on a call that returns its result on the host.
#include "algorithm_common.hpp"

void snippet(cf::AlgorithmArgs& args) {
    auto& queue = args.queue;
    auto& ints = args.ints;
    (void)openclaw::reduce(queue, ints, openclaw::with_event);
}
