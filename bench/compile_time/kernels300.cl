// A 300-line OpenCL C source for the compile-time benchmark: kernels, helpers, structs,
// comments and attributes in the proportions of a real image/physics/linear-algebra code base.
// bench/compile_time/run.sh parses it with program.kernel<source, "name">() at compile time.

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define WG 64
#define CLAMP01(x) clamp((x), 0.0f, 1.0f)

typedef struct {
    float4 position;
    float4 velocity;
} Particle;

typedef struct {
    int width;
    int height;
    int stride;
    int channels;
} ImageInfo;

typedef struct {
    float scale;
    float bias;
} Affine;

/* ---- helpers ---------------------------------------------------------------------------- */

inline float luminance(float4 c) { return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z; }

inline int index2d(int x, int y, const ImageInfo info) { return y * info.stride + x; }

float4 sample_clamped(__global const float4* img, int x, int y, const ImageInfo info) {
    x = clamp(x, 0, info.width - 1);
    y = clamp(y, 0, info.height - 1);
    return img[index2d(x, y, info)];
}

// Element-wise a*x + y.
__kernel void saxpy(const float alpha, __global const float* x, __global float* y,
                    const uint n) {
    const uint i = get_global_id(0);
    if (i < n) {
        y[i] = alpha * x[i] + y[i];
    }
}

// Affine transform of a buffer, parameters by value as a struct.
__kernel void affine(__global const float* restrict in, __global float* restrict out,
                     const Affine t, const uint n) {
    const uint i = get_global_id(0);
    if (i < n) {
        out[i] = in[i] * t.scale + t.bias;
    }
}

// Work-group sum reduction in local memory.
__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void reduce_sum(__global const float* in, __global float* partial,
                         __local float* scratch, const uint n) {
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

// Inclusive prefix sum within a work-group (Hillis-Steele).
__kernel void scan_group(__global const int* in, __global int* out, __local int* tmp,
                         const uint n) {
    const uint lid = get_local_id(0);
    const uint gid = get_global_id(0);
    tmp[lid] = gid < n ? in[gid] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint offset = 1; offset < get_local_size(0); offset <<= 1) {
        const int add = lid >= offset ? tmp[lid - offset] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        tmp[lid] += add;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (gid < n) {
        out[gid] = tmp[lid];
    }
}

// 256-bin histogram of bytes with local atomics.
__kernel void histogram(__global const uchar* data, __global volatile uint* bins,
                        __local uint* local_bins, const uint n) {
    for (uint b = get_local_id(0); b < 256; b += get_local_size(0)) {
        local_bins[b] = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
        atomic_inc(&local_bins[data[i]]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = get_local_id(0); b < 256; b += get_local_size(0)) {
        atomic_add(&bins[b], local_bins[b]);
    }
}

// Tiled matrix multiply C = A * B.
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void matmul(const __global float* A, const __global float* B, __global float* C,
            const int M, const int N, const int K,
            __local float* tileA, __local float* tileB) {
    const int tx = get_local_id(0), ty = get_local_id(1);
    const int row = get_global_id(1), col = get_global_id(0);
    float acc = 0.0f;
    for (int t = 0; t < K; t += 16) {
        tileA[ty * 16 + tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.0f;
        tileB[ty * 16 + tx] = (col < N && t + ty < K) ? B[(t + ty) * N + col] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < 16; ++k) {
            acc += tileA[ty * 16 + k] * tileB[k * 16 + tx];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < M && col < N) {
        C[row * N + col] = acc;
    }
}

// Matrix transpose through local memory.
kernel void transpose(global const float* restrict in, global float* restrict out,
                      const uint width, const uint height, local float* tile) {
    const uint x = get_global_id(0), y = get_global_id(1);
    const uint lx = get_local_id(0), ly = get_local_id(1);
    if (x < width && y < height) {
        tile[ly * 17 + lx] = in[y * width + x];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (x < width && y < height) {
        out[x * height + y] = tile[ly * 17 + lx];
    }
}

// 1-D convolution with the filter in constant memory.
__kernel void convolve(__constant float* filter, const uint radius,
                       __global const float* in, __global float* out, const uint n) {
    const int i = get_global_id(0);
    if (i >= (int)n) {
        return;
    }
    float acc = 0.0f;
    for (int r = -(int)radius; r <= (int)radius; ++r) {
        const int j = clamp(i + r, 0, (int)n - 1);
        acc += filter[r + (int)radius] * in[j];
    }
    out[i] = acc;
}

/* 3x3 box blur on an RGBA float image stored in a buffer. */
__kernel void box_blur(__global const float4* src, __global float4* dst, const ImageInfo info) {
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= info.width || y >= info.height) {
        return;
    }
    float4 sum = (float4)(0.0f);
    for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
            sum += sample_clamped(src, x + dx, y + dy, info);
        }
    }
    dst[index2d(x, y, info)] = sum / 9.0f;
}

// RGBA8 to greyscale, with a gain given as a vector.
__kernel void to_grey(__global const uchar4* rgba, __global uchar* grey, const float4 gain,
                      const int2 size) {
    const int x = get_global_id(0), y = get_global_id(1);
    if (x < size.x && y < size.y) {
        const float4 c = convert_float4(rgba[y * size.x + x]) * gain / 255.0f;
        grey[y * size.x + x] = convert_uchar_sat(CLAMP01(luminance(c)) * 255.0f);
    }
}

// One explicit Euler step of a particle system in a box.
__kernel void integrate(__global Particle* particles, const float dt, const float4 gravity,
                        const float bound, const uint n) {
    const uint i = get_global_id(0);
    if (i >= n) {
        return;
    }
    Particle p = particles[i];
    p.velocity += dt * gravity;
    p.position += dt * p.velocity;
    if (fabs(p.position.x) > bound) p.velocity.x = -p.velocity.x;
    if (fabs(p.position.y) > bound) p.velocity.y = -p.velocity.y;
    if (fabs(p.position.z) > bound) p.velocity.z = -p.velocity.z;
    particles[i] = p;
}

// Double-precision dot product partials.
__kernel void dot_double(__global const double* a, __global const double* b,
                         __global double* partial, __local double* scratch, const ulong n) {
    const size_t lid = get_local_id(0);
    double acc = 0.0;
    for (size_t i = get_global_id(0); i < n; i += get_global_size(0)) {
        acc += a[i] * b[i];
    }
    scratch[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s) {
            scratch[lid] += scratch[lid + s];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        partial[get_group_id(0)] = scratch[0];
    }
}

// Gather through an index buffer, with a bounds flag per element.
__kernel void gather(__global const float8* restrict table, __global const uint* restrict index,
                     __global float8* restrict out, __global int* restrict out_of_range,
                     const uint table_size, const uint n) {
    const uint i = get_global_id(0);
    if (i >= n) {
        return;
    }
    const uint k = index[i];
    out_of_range[i] = k >= table_size;
    out[i] = k < table_size ? table[k] : (float8)(0.0f);
}

// One step of a bitonic sorting network over key/value pairs.
__kernel void bitonic_step(__global uint* keys, __global uint* values, const uint stage,
                           const uint pass, const uint direction) {
    const uint i = get_global_id(0);
    const uint distance = 1u << (stage - pass);
    const uint left = (i / distance) * distance * 2 + i % distance;
    const uint right = left + distance;
    const bool up = ((i >> stage) & 1u) == direction;
    const uint a = keys[left], b = keys[right];
    if ((a > b) == up) {
        keys[left] = b;
        keys[right] = a;
        const uint v = values[left];
        values[left] = values[right];
        values[right] = v;
    }
}

// N-body accelerations, all pairs, bodies staged through local memory.
__kernel void nbody_forces(__global const float4* positions, __global float4* accelerations,
                           __local float4* cache, const float softening, const uint n) {
    const uint i = get_global_id(0);
    const float4 me = i < n ? positions[i] : (float4)(0.0f);
    float4 acc = (float4)(0.0f);
    for (uint tile = 0; tile < n; tile += get_local_size(0)) {
        const uint j = tile + get_local_id(0);
        cache[get_local_id(0)] = j < n ? positions[j] : (float4)(0.0f);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = 0; k < get_local_size(0); ++k) {
            const float4 d = cache[k] - me;
            const float inv = rsqrt(d.x * d.x + d.y * d.y + d.z * d.z + softening);
            acc += d * (cache[k].w * inv * inv * inv);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (i < n) {
        accelerations[i] = acc;
    }
}

// Sobel edge magnitude on a greyscale image.
__kernel void sobel(__global const uchar* in, __global float* magnitude, const int width,
                    const int height) {
    const int x = get_global_id(0), y = get_global_id(1);
    if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1) {
        return;
    }
    const float gx = -in[(y - 1) * width + x - 1] + in[(y - 1) * width + x + 1]
                     - 2 * in[y * width + x - 1] + 2 * in[y * width + x + 1]
                     - in[(y + 1) * width + x - 1] + in[(y + 1) * width + x + 1];
    const float gy = -in[(y - 1) * width + x - 1] - 2 * in[(y - 1) * width + x]
                     - in[(y - 1) * width + x + 1] + in[(y + 1) * width + x - 1]
                     + 2 * in[(y + 1) * width + x] + in[(y + 1) * width + x + 1];
    magnitude[y * width + x] = sqrt(gx * gx + gy * gy);
}

// Fill with a constant: the kernel the benchmark types last (worst case: the whole file is read).
__kernel void fill(__global float* out, const float value, const uint n) {
    const uint i = get_global_id(0);
    if (i < n) {
        out[i] = value;
    }
}

// End of the benchmark source: 300 lines, 17 kernels, 4 helpers, 3 structs, comments and
// attributes, as a mid-sized real OpenCL file has.
