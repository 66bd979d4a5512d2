// Must not compile: a scan by key whose keys are vectors (runs are found with ==, on scalars).
#include "algorithm_common.hpp"

void snippet(cf::AlgorithmArgs& args, cf::ReadWriteBuffer<cl_int2>& pairs) {
    openclaw::inclusive_scan_by_key(args.queue, pairs, args.ints, args.ints);
}
