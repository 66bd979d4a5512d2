// Must not compile: a histogram of floats without a bin operator (the elements are no indices).
#include "algorithm_common.hpp"

void snippet(cf::AlgorithmArgs& args) {
    openclaw::histogram(args.queue, args.floats, args.bins);
}
