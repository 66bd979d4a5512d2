// Must not compile: svm_level() called in a unit that includes only the main header; the first
// error must name <openclaw/svm.hpp>.
#include <openclaw/openclaw.hpp>

bool snippet(const openclaw::Device& device) {
    return openclaw::svm_level(device) != openclaw::SvmLevel::none;
}
