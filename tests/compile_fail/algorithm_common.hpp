// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the algorithm_* snippets share: the buffers each one passes wrong, or (algorithm_control)
// right.
#include <openclaw/algorithm.hpp>

#include "common.hpp"

namespace cf {

struct AlgorithmArgs {
    Queue& queue;
    ReadWriteBuffer<cl_int>& ints;
    ReadWriteBuffer<cl_float>& floats;
    WriteOnlyBuffer<cl_int>& write_only;
    ReadWriteBuffer<cl_short>& shorts;
    ReadWriteBuffer<cl_uint>& bins;
};

}  // namespace cf
