// Must not compile: a pooled buffer of std::string.
#include <openclaw/pool.hpp>

#include <string>

#include "common.hpp"

void snippet(cf::MemoryPool& pool) {
    (void)pool.allocate<std::string>(4);
}
