// Must not compile: mapping SVM memory marked as const elements for writing.
#include "common.hpp"

void snippet(const openclaw::Queue& queue, std::span<const float> memory) {
    auto view = queue.map_write(openclaw::svm(memory));
    (void)view;
}
