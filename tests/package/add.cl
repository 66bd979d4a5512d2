// The consumer projects' kernel, embedded with openclaw_embed_kernels().
__kernel void add(__global const int* a, __global const int* b, __global int* c) {
    const size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}
