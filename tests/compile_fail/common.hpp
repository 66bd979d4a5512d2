// SPDX-License-Identifier: Apache-2.0
#pragma once
// Declarations shared by the compile-fail snippets and their control: each snippet changes one
// thing in a call that control.cpp makes correctly.

#include <openclaw/all.hpp>

namespace cf {

using namespace openclaw;

struct Pair {
    float x;
    cl_int y;
};
struct Other {
    float x;
    cl_int y;
};

using VectorAdd = Kernel<In<float>, In<float>, Out<float>, cl_uint>;
using Reduce = Kernel<In<float>, Out<float>, Local<float>, cl_uint>;
using Scale = Kernel<InOut<float>, Pair, cl_float4>;
using Lookup = Kernel<Constant<cl_int>, In<cl_int>, Out<cl_int>>;
using Many = Kernel<In<float>, cl_int, cl_int, cl_int, cl_int, cl_int, cl_int, cl_int, cl_int,
                    cl_int, cl_int, Out<float>>;

namespace px = openclaw::pixel;
using Invert = Kernel<ReadImage2D<px::rgba8>, WriteImage2D<px::rgba8>>;
using Shift = Kernel<ReadImage2D<px::rgba8>, SamplerParam, WriteImage2D<px::rgba8>, cl_int>;

struct Images {
    Image2D<px::rgba8, ReadOnly> in;
    Image2D<px::rgba8, WriteOnly> out;
    Image2D<px::rgba8, ReadWrite> both;
    Image3D<px::rgba8, ReadOnly> volume;
    Image2D<px::r_f32, ReadOnly> gray;
    Sampler sampler;
};

struct Args {
    ReadOnlyBuffer<float> in;
    WriteOnlyBuffer<float> out;
    ReadWriteBuffer<float> both;
    ReadOnlyBuffer<cl_int> ints;
    WriteOnlyBuffer<cl_int> int_out;
    cl_uint n = 0;
    std::size_t size = 0;
    cl_float4 weights{};
};

}  // namespace cf
