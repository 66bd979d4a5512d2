// Must not compile: a ReadOnly buffer passed to InOut<float>.
#include "common.hpp"

void snippet(cf::Scale& scale, cf::Args& a) {
    scale.set_args(a.in, cf::Pair{2.0f, 1}, a.weights);
}
