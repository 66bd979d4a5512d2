// Must not compile: a command given two wait lists (its options come in any order, each once).
#include "common.hpp"

void snippet(cf::Queue& q, cf::Args& a, const cf::Event& e) {
    q.fill(a.both, 1.0f, cf::after(e), cf::with_event, cf::after(e));
}
