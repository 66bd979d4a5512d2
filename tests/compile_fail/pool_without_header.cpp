// Must not compile: a memory pool made in a unit that includes only the main header; the first
// error must name <openclaw/pool.hpp> (PoolOptions is read first by clang).
#include <openclaw/openclaw.hpp>

void snippet(const openclaw::Queue& queue) {
    openclaw::MemoryPool pool(queue, openclaw::PoolOptions{.max_bytes = 1 << 20});
    (void)pool;
}
