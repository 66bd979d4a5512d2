__kernel void saxpy(const float a, __global const float* x, __global float* y) {
    const size_t i = get_global_id(0);
    y[i] += a * x[i];
}
