// Kernel signatures with double, built only on devices with cl_khr_fp64.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void dot_double(__global const double* a, __global const double2* b,
                         __global double* out, double16 weights, const double bias) {
    out[0] = a[0] * b[0].x + weights.sf + bias;
}
