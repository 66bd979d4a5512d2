// Must not compile: an SVM fill of memory marked as const elements.
#include "common.hpp"

void snippet(const openclaw::Queue& queue, std::span<const float> memory) {
    queue.fill(openclaw::svm(memory), 1.0f);
}
