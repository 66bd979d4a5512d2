// Must not compile: a write-only buffer as an input.
#include "algorithm_common.hpp"

void snippet(cf::AlgorithmArgs& args) {
    auto& queue = args.queue;
    auto& write_only = args.write_only;
    (void)openclaw::reduce(queue, write_only);
}
