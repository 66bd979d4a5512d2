// Must not compile: an SVM pointer to const for an Out<float> parameter.
#include "common.hpp"

void snippet(cf::VectorAdd& add, cf::Args& a, const float* p) {
    add.set_args(a.in, a.in, cf::svm(p), a.n);
}
