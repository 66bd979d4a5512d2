// Must not compile: an SVM pointer to int for an In<float> parameter.
#include "common.hpp"

void snippet(cf::VectorAdd& add, cf::Args& a, int* p) {
    add.set_args(cf::svm(p), a.in, a.out, a.n);
}
