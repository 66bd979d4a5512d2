// Must not compile: an algorithm called in a unit that includes only the main header; the first
// error must name <openclaw/algorithm.hpp>.
#include <openclaw/openclaw.hpp>

void snippet(const openclaw::Queue& queue, const openclaw::ReadWriteBuffer<float>& data) {
    openclaw::sort(queue, data);
    const float sum = openclaw::reduce(queue, data);
    (void)sum;
}
