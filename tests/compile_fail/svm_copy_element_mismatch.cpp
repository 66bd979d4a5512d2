// Must not compile: an SVM copy into host memory of another element type.
#include "common.hpp"

#include <vector>

void snippet(const openclaw::Queue& queue, std::span<float> memory, std::vector<cl_int>& host) {
    queue.copy(openclaw::svm(memory), host);
}
