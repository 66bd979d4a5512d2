// A corpus of kernel signatures written in the styles real code bases use. test_signature.cpp
// checks the Kernel<...> type openclaw reads from each declaration at compile time, builds this
// file on the test device, and compares every parameter with the driver's own description.
// (A kernel named in a comment is not a kernel: __kernel void saxpy(int wrong);)

#define TILE 16  /* macros may be defined; they must only stay out of signatures */
#define SQUARE(x) \
    ((x) * (x))

typedef struct {
    float x, y, z;
    float mass;
} Body;

struct Range {
    int begin;
    int end;
};

typedef enum { MODE_ADD, MODE_MULTIPLY } Mode;
typedef float real;

/* Helpers are not kernels, even with __global pointer parameters. */
inline float sq(float x) { return SQUARE(x); }
void accumulate(__global float* out, float v) { *out += v; }
float3 twice(float3 v) { return v * 2.0f; }

// 1. The classic, with const by-value parameters.
__kernel void saxpy(const float alpha, __global const float* x, __global float* y, const int n) {
    const int i = get_global_id(0);
    if (i < n) {
        y[i] = alpha * x[i] + y[i];
    }
}

// 2. Unprefixed keywords and restrict.
kernel void copy_restrict(global const float4* restrict in, global float4* restrict out) {
    out[get_global_id(0)] = in[get_global_id(0)];
}

// 3. Attributes before `__kernel`, local memory.
__attribute__((reqd_work_group_size(64, 1, 1)))
__kernel void reduce_sum(__global const float* in, __global float* partial,
                         __local float* scratch, uint n) {
    const uint lid = get_local_id(0);
    const uint gid = get_global_id(0);
    scratch[lid] = gid < n ? in[gid] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s) {
            scratch[lid] += scratch[lid + s];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        partial[get_group_id(0)] = scratch[0];
    }
}

// 4. Attributes between `__kernel` and the name, `const` before the address space.
__kernel __attribute__((work_group_size_hint(TILE, TILE, 1))) __attribute__((vec_type_hint(float4)))
void matmul_tiled(const __global float* A, const __global float* B, __global float* C,
                  int M, int N, int K,
                  __local float* tileA, __local float* tileB) {
    const int row = get_global_id(1);
    const int col = get_global_id(0);
    if (row < M && col < N) {
        float sum = 0.0f;
        for (int k = 0; k < K; ++k) {
            sum += A[row * K + k] * B[k * N + col];
        }
        C[row * N + col] = sum;
    }
    tileA[get_local_id(0)] = 0.0f;
    tileB[get_local_id(0)] = 0.0f;
}

// 5. Constant memory, stars on either side, vector by value.
__kernel void convolve(__constant float * filter, const __global uchar4 *src,
                       __global uchar4 *dst, const int2 size, const uint radius) {
    const int i = get_global_id(0);
    if (i < size.x * size.y) {
        float4 acc = (float4)(0.0f);
        for (uint r = 0; r <= radius; ++r) {
            acc += filter[r] * convert_float4(src[i]);
        }
        dst[i] = convert_uchar4_sat(acc);
    }
}

// 6. Structs by pointer and by value, tagged and typedef'd.
__kernel void nbody_step(__global Body* bodies, const Body attractor, struct Range range,
                         const float dt) {
    const int i = get_global_id(0);
    if (i >= range.begin && i < range.end) {
        bodies[i].x += dt * (attractor.x - bodies[i].x) * attractor.mass;
    }
}

// 7. Vector types of every width.
__kernel void vectors(__global float* out, char2 a, uchar3 b, short4 c, ushort8 d, int16 e,
                      uint2 f, long3 g, ulong4 h, float8 i) {
    out[0] = a.x + b.y + c.z + d.s7 + e.sf + f.y + g.z + h.w + i.s7;
}

// 8. Multi-word integer types.
__kernel void words(__global long* out, unsigned int a, unsigned char b, signed char c,
                    unsigned short d, short int e, long int f, unsigned long g, unsigned h,
                    signed i, char j) {
    out[0] = a + b + c + d + e + f + g + h + i + j;
}

// 9. volatile, a const pointer, half elements, comments inside the parameter list.
__kernel void odd_spacing( __global volatile int *counter /* atomics */,
                           __global const half *h,  // stored halves
                           __global float * const out, local int* flags) {
    atomic_inc(counter);
    flags[get_local_id(0)] = 0;
    out[get_global_id(0)] = vload_half(get_global_id(0), h);
}

// 10. (Kernels without parameters are in no_parameters.cl: NVIDIA's compiler fails on them when
// -cl-kernel-arg-info is given, and this corpus is built with it everywhere.)

// 11. A prototype, then the definition (with other parameter names).
__kernel void declared_twice(__global int* data, int value);

// 12. Names that are prefixes of one another.
__kernel void scale(__global float* data, float factor) { data[get_global_id(0)] *= factor; }
__kernel void scale2(__global float2* data, float2 factor) { data[get_global_id(0)] *= factor; }
__kernel void scale_in_place(__global float* restrict data, const float factor) {
    data[get_global_id(0)] *= factor;
}

// 13. An enum and a typedef'd scalar, mapped through openclaw::opencl_type.
__kernel void apply_mode(__global int* out, Mode mode, __global real* values) {
    out[get_global_id(0)] = mode == MODE_ADD ? 1 : 2;
    values[get_global_id(0)] *= 2.0f;
}

#if 0
/* Code under a false #if is still scanned; it only must not disagree with the real kernel. */
__kernel void declared_twice(__global int* data, int value);
#endif

__kernel void declared_twice(__global int* values, int offset) {
    values[get_global_id(0)] += offset;
}
