// The translation unit bench/compile_time/run.sh compiles: the 17 kernels of kernels300.cl typed
// by hand (OPENCLAW_BENCH_PARSE=0) or read from the source at compile time
// (OPENCLAW_BENCH_PARSE=1); OPENCLAW_BENCH_ALL=0 types only the last kernel of the file.
#include <openclaw/openclaw.hpp>

#include <type_traits>

#include "kernels300.cl.hpp"

#ifndef OPENCLAW_BENCH_PARSE
#define OPENCLAW_BENCH_PARSE 1
#endif
#ifndef OPENCLAW_BENCH_ALL
#define OPENCLAW_BENCH_ALL 1
#endif

namespace bench {

struct Particle {
    cl_float4 position;
    cl_float4 velocity;
};
struct ImageInfo {
    cl_int width, height, stride, channels;
};
struct Affine {
    cl_float scale, bias;
};

}  // namespace bench

template <>
struct openclaw::opencl_type<"Particle"> {
    using type = bench::Particle;
};
template <>
struct openclaw::opencl_type<"ImageInfo"> {
    using type = bench::ImageInfo;
};
template <>
struct openclaw::opencl_type<"Affine"> {
    using type = bench::Affine;
};

namespace bench {

using namespace openclaw;

// What the hand-written form declares; the parsed form must produce the same types.
using Saxpy = Kernel<cl_float, In<cl_float>, Global<cl_float>, cl_uint>;
using AffineKernel = Kernel<In<cl_float>, Out<cl_float>, Affine, cl_uint>;
using ReduceSum = Kernel<In<cl_float>, Out<cl_float>, Local<cl_float>, cl_uint>;
using ScanGroup = Kernel<In<cl_int>, Out<cl_int>, Local<cl_int>, cl_uint>;
using Histogram = Kernel<In<cl_uchar>, Global<cl_uint>, Local<cl_uint>, cl_uint>;
using Matmul = Kernel<In<cl_float>, In<cl_float>, Out<cl_float>, cl_int, cl_int, cl_int,
                      Local<cl_float>, Local<cl_float>>;
using Transpose = Kernel<In<cl_float>, Out<cl_float>, cl_uint, cl_uint, Local<cl_float>>;
using Convolve = Kernel<Constant<cl_float>, cl_uint, In<cl_float>, Out<cl_float>, cl_uint>;
using BoxBlur = Kernel<In<cl_float4>, Out<cl_float4>, ImageInfo>;
using ToGrey = Kernel<In<cl_uchar4>, Out<cl_uchar>, cl_float4, cl_int2>;
using Integrate = Kernel<Global<Particle>, cl_float, cl_float4, cl_float, cl_uint>;
using DotDouble = Kernel<In<cl_double>, In<cl_double>, Out<cl_double>, Local<cl_double>, cl_ulong>;
using Gather = Kernel<In<cl_float8>, In<cl_uint>, Out<cl_float8>, Out<cl_int>, cl_uint, cl_uint>;
using BitonicStep = Kernel<Global<cl_uint>, Global<cl_uint>, cl_uint, cl_uint, cl_uint>;
using NbodyForces = Kernel<In<cl_float4>, Out<cl_float4>, Local<cl_float4>, cl_float, cl_uint>;
using Sobel = Kernel<In<cl_uchar>, Out<cl_float>, cl_int, cl_int>;
using Fill = Kernel<Out<cl_float>, cl_float, cl_uint>;

#if OPENCLAW_BENCH_PARSE
#define OPENCLAW_BENCH_KERNEL(Type, name)                                                       \
    static_assert(std::is_same_v<decltype(program.kernel<kernels::kernels300, name>()), Type>); \
    (void)program.kernel<kernels::kernels300, name>()
#else
#define OPENCLAW_BENCH_KERNEL(Type, name) (void)Type(program, name)
#endif

void make_kernels(const Program& program) {
#if OPENCLAW_BENCH_ALL
    OPENCLAW_BENCH_KERNEL(Saxpy, "saxpy");
    OPENCLAW_BENCH_KERNEL(AffineKernel, "affine");
    OPENCLAW_BENCH_KERNEL(ReduceSum, "reduce_sum");
    OPENCLAW_BENCH_KERNEL(ScanGroup, "scan_group");
    OPENCLAW_BENCH_KERNEL(Histogram, "histogram");
    OPENCLAW_BENCH_KERNEL(Matmul, "matmul");
    OPENCLAW_BENCH_KERNEL(Transpose, "transpose");
    OPENCLAW_BENCH_KERNEL(Convolve, "convolve");
    OPENCLAW_BENCH_KERNEL(BoxBlur, "box_blur");
    OPENCLAW_BENCH_KERNEL(ToGrey, "to_grey");
    OPENCLAW_BENCH_KERNEL(Integrate, "integrate");
    OPENCLAW_BENCH_KERNEL(DotDouble, "dot_double");
    OPENCLAW_BENCH_KERNEL(Gather, "gather");
    OPENCLAW_BENCH_KERNEL(BitonicStep, "bitonic_step");
    OPENCLAW_BENCH_KERNEL(NbodyForces, "nbody_forces");
    OPENCLAW_BENCH_KERNEL(Sobel, "sobel");
#endif
    OPENCLAW_BENCH_KERNEL(Fill, "fill");
}

}  // namespace bench
