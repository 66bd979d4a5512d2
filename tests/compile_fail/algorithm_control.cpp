// Must compile: the correct form of every call the algorithm_* snippets get wrong.
#include "algorithm_common.hpp"

void snippet(cf::AlgorithmArgs& args) {
    auto& queue = args.queue;
    auto& ints = args.ints;
    auto& floats = args.floats;
    auto& write_only = args.write_only;
    (void)openclaw::reduce(queue, ints, cl_int{0},
                           openclaw::op<"int bigger(int a, int b) { return a > b ? a : b; }">{});
    (void)openclaw::reduce(queue, ints, cl_int{0}, openclaw::plus<>{});
    (void)openclaw::reduce(queue, floats, 0.0f, openclaw::plus<>{});
    (void)openclaw::count_if(queue, ints, openclaw::op<"int positive(int x) { return x > 0; }">{});
    (void)openclaw::reduce(queue, ints);
    openclaw::Event e = openclaw::reduce_into(queue, ints, ints.slice(0, 1), openclaw::with_event);
    (void)e;
    openclaw::sort(queue, ints);
    openclaw::inclusive_scan(queue, ints, write_only);
    openclaw::transform(queue, ints, floats,
                        openclaw::op<"float half(int x) { return x * 0.5f; }">{});
    (void)openclaw::partition(queue, ints, write_only,
                              openclaw::op<"int positive(int x) { return x > 0; }">{});
    (void)openclaw::unique(queue, ints, write_only);
    openclaw::histogram(queue, ints, args.bins);
    openclaw::inclusive_scan_by_key(queue, ints, floats, floats, openclaw::maximum<>{});
    openclaw::exclusive_scan_by_key(queue, ints, ints, write_only, cl_int{0});
    openclaw::histogram(queue, floats, args.bins,
                        openclaw::op<"uint where(float x) { return (uint)(x * 2.0f); }">{});
}
