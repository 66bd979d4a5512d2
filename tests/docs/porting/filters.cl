// The kernels of docs/porting.md: a file the host program reads at run time.

// Each work-group adds its share of `input` in __local memory and writes one partial sum.
__kernel void partial_sums(__global const float* input, __global float* partials,
                           __local float* scratch, const uint n) {
    const uint lid = get_local_id(0);
    float sum = 0.0f;
    for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
        sum += input[i];
    }
    scratch[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint active = get_local_size(0) / 2; active > 0; active /= 2) {
        if (lid < active) {
            scratch[lid] += scratch[lid + active];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        partials[get_group_id(0)] = scratch[0];
    }
}

// The negative of an image (samplerless reads: OpenCL C 1.2).
__kernel void invert(read_only image2d_t input, write_only image2d_t output) {
    const int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(output, p, (float4)(1.0f) - read_imagef(input, p));
}
