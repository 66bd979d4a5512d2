// Must not compile: an SVM copy into memory marked as const elements.
#include "common.hpp"

void snippet(const openclaw::Queue& queue, std::span<const float> from, std::span<const float> to) {
    queue.copy(openclaw::svm(from), openclaw::svm(to));
}
