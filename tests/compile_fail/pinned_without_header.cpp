// Must not compile: a PinnedBuffer made in a unit that includes only the main header; the first
// error must name <openclaw/pinned.hpp>.
#include <openclaw/openclaw.hpp>

void snippet(const openclaw::Queue& queue, const openclaw::ReadWriteBuffer<float>& data) {
    openclaw::PinnedBuffer<float> host(queue, data.size());
    queue.read(data, host).wait();
}
