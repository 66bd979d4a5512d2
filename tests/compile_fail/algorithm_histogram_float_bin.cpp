// Must not compile: a histogram's bin operator that returns a float, not a bin index.
#include "algorithm_common.hpp"

void snippet(cf::AlgorithmArgs& args) {
    openclaw::histogram(args.queue, args.floats, args.bins,
                        openclaw::op<"float where(float x) { return x * 2.0f; }">{});
}
