__kernel void scale(__global float* data, const float factor) {
    data[get_global_id(0)] *= factor;
}
