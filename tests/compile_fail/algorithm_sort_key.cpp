// Must not compile: a key type radix sort does not order.
#include "algorithm_common.hpp"

void snippet(cf::AlgorithmArgs& args) {
    auto& queue = args.queue;
    auto& shorts = args.shorts;
    openclaw::sort(queue, shorts);
}
