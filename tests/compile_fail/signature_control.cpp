// Must compile: the corrected form of every signature the signature_* snippets get wrong, and
// correct calls on kernels typed from their source.
#include <type_traits>

#include "common.hpp"

struct Point {
    float x, y;
};
template <>
struct openclaw::opencl_type<"Point"> {
    using type = Point;
};
// A type macro can be mapped like a typedef.
template <>
struct openclaw::opencl_type<"REAL"> {
    using type = cl_float;
};

namespace {
constexpr char source[] = R"CLC(
#define REAL float
typedef struct { float x, y; } Point;
__kernel void vector_add(__global const float* a, __global const float* b,
                         __global float* c, const uint n) {
    c[get_global_id(0)] = a[get_global_id(0)] + b[get_global_id(0)];
}
__kernel void scale(__global float* data, const uint n) {}
__kernel void select(__global int* out, int flag) {}
__kernel void offsets(__global const long* deltas) {}
__kernel void address(__global int* out, ulong where) {}
__kernel void scale_real(__global REAL* values, const REAL factor) {
    values[get_global_id(0)] = factor;
}
__kernel void move(__global Point* points, const float dx) { points[get_global_id(0)].x = dx; }
__kernel void fill(__global float* out) {}
__kernel void weights(__global float* out, float4 w) {}
__kernel void tile(__global float* out, __local float* scratch) {}
__kernel void wide(long x) {}
__kernel void blur(read_only image2d_t in, sampler_t s, __write_only image2d_t out) {}
__kernel void slices(image3d_t in, write_only image2d_array_t out) {}
__kernel void sum(__global float* data, uint n);
__kernel void sum(__global float* data, uint n) {}
__kernel void huge(
    int p0,
    int p1,
    int p2,
    int p3,
    int p4,
    int p5,
    int p6,
    int p7,
    int p8,
    int p9,
    int p10,
    int p11,
    int p12,
    int p13,
    int p14,
    int p15,
    int p16,
    int p17,
    int p18,
    int p19,
    int p20,
    int p21,
    int p22,
    int p23,
    int p24,
    int p25,
    int p26,
    int p27,
    int p28,
    int p29,
    int p30,
    int p31,
    int p32,
    int p33,
    int p34,
    int p35,
    int p36,
    int p37,
    int p38,
    int p39,
    int p40,
    int p41,
    int p42,
    int p43,
    int p44,
    int p45,
    int p46,
    int p47,
    int p48,
    int p49,
    int p50,
    int p51,
    int p52,
    int p53,
    int p54,
    int p55,
    int p56,
    int p57,
    int p58,
    int p59,
    int p60,
    int p61,
    int p62,
    int p63,
    int p64,
    int p65,
    int p66,
    int p67,
    int p68,
    int p69,
    int p70,
    int p71,
    int p72,
    int p73,
    int p74,
    int p75,
    int p76,
    int p77,
    int p78,
    int p79,
    int p80,
    int p81,
    int p82,
    int p83,
    int p84,
    int p85,
    int p86,
    int p87,
    int p88,
    int p89,
    int p90,
    int p91,
    int p92,
    int p93,
    int p94,
    int p95,
    int p96,
    int p97,
    int p98,
    int p99,
    int p100,
    int p101,
    int p102,
    int p103,
    int p104,
    int p105,
    int p106,
    int p107,
    int p108,
    int p109,
    int p110,
    int p111,
    int p112,
    int p113,
    int p114,
    int p115,
    int p116,
    int p117,
    int p118,
    int p119,
    int p120,
    int p121,
    int p122,
    int p123,
    int p124,
    int p125,
    int p126,
    int p127) {}
)CLC";
}  // namespace

void control(cf::Program& program, cf::Args& a, cf::Images& i) {
    auto add = program.kernel<source, "vector_add">();
    static_assert(std::is_same_v<decltype(add), cf::VectorAdd>);
    add.set_args(a.in, a.in, a.out, a.n);
    add.set_args(a.both, a.in, a.both, static_cast<cl_uint>(a.size));
    static_assert(std::is_same_v<decltype(program.kernel<source, "scale_real">()),
                                 cf::Kernel<cf::Out<float>, float>>);
    static_assert(std::is_same_v<decltype(program.kernel<source, "move">()),
                                 cf::Kernel<cf::Out<Point>, float>>);
    (void)program.kernel<source, "scale">();
    (void)program.kernel<source, "select">();
    (void)program.kernel<source, "offsets">();
    (void)program.kernel<source, "address">();
    (void)program.kernel<source, "fill">();
    (void)program.kernel<source, "weights">();
    (void)program.kernel<source, "tile">();
    (void)program.kernel<source, "wide">();
    (void)program.kernel<source, "sum">();
    static_assert(decltype(program.kernel<source, "huge">())::arity == 128);
    // Images: the source says shape and access, not the pixel format, so any format fits.
    auto blur = program.kernel<source, "blur">();
    static_assert(
        std::is_same_v<decltype(blur), cf::Kernel<cf::ReadImage2D<cf::px::any>, cf::SamplerParam,
                                                  cf::WriteImage2D<cf::px::any>>>);
    blur.set_args(i.in, i.sampler, i.out);
    blur.set_args(i.gray, i.sampler, i.both);
    static_assert(std::is_same_v<
                  decltype(program.kernel<source, "slices">()),
                  cf::Kernel<cf::ReadImage3D<cf::px::any>, cf::WriteImage2DArray<cf::px::any>>>);
    auto dynamic = program.kernel("vector_add");
    dynamic.set_args(a.in, a.in, a.out, a.n).set_arg(3, a.n);
}

namespace {
constexpr char typed_by_build[] = R"CLC(
__kernel void scale_by(__global T* data, const T factor) { data[0] *= factor; }
)CLC";
}  // namespace

// One source typed per element type: T is what the build defines (-D T=...).
void typed_per_build(cf::Program& program) {
    static_assert(std::is_same_v<decltype(program.kernel<typed_by_build, "scale_by",
                                                         openclaw::type_as<"T", cl_float>>()),
                                 cf::Kernel<openclaw::Global<cl_float>, cl_float>>);
    static_assert(std::is_same_v<
                  openclaw::kernel_t<typed_by_build, "scale_by", openclaw::type_as<"T", cl_double>>,
                  cf::Kernel<openclaw::Global<cl_double>, cl_double>>);
}
