// Must not compile: a struct of the same layout but another type.
#include "common.hpp"

void snippet(cf::Scale& scale, cf::Args& a) {
    scale.set_args(a.both, cf::Other{2.0f, 1}, a.weights);
}
