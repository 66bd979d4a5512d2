// Must not compile: a bit operator on floats.
#include "algorithm_common.hpp"

void snippet(cf::AlgorithmArgs& args) {
    auto& queue = args.queue;
    auto& floats = args.floats;
    (void)openclaw::reduce(queue, floats, 0.0f, openclaw::bit_xor<>{});
}
