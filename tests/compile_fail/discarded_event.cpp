// Must not compile (-Werror): the Event a command was asked for with with_event, thrown away.
#include "common.hpp"

void snippet(cf::Queue& q, cf::Args& a) {
    q.fill(a.both, 1.0f, cf::with_event);
}
