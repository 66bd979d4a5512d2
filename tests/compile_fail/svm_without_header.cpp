// Must not compile: SVM used in a unit that includes only the main header; the first error must
// name <openclaw/svm.hpp>.
#include <openclaw/openclaw.hpp>

#include <vector>

void snippet(const openclaw::Context& context) {
    std::vector<float, openclaw::SvmAllocator<float>> data(1024,
                                                           openclaw::SvmAllocator<float>(context));
    (void)data;
}
