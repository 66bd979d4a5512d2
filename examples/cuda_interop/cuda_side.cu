// SPDX-License-Identifier: Apache-2.0
// The CUDA half of the example: a kernel that writes the shared memory, launched with the runtime
// API on the device's primary context (the one main.cpp maps the memory in).
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_side.hpp"

namespace {
__global__ void write_pattern(float* data, std::size_t n) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) {
        data[i] = 0.5f * static_cast<float>(i % 1000) + 1.0f;
    }
}
}  // namespace

int cuda_devices() {
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

const char* cuda_write_pattern(void* data, std::size_t n) {
    const unsigned threads = 256;
    const auto blocks = static_cast<unsigned>((n + threads - 1) / threads);
    write_pattern<<<blocks, threads>>>(static_cast<float*>(data), n);
    cudaError_t status = cudaGetLastError();
    if (status == cudaSuccess) {
        status = cudaDeviceSynchronize();  // CUDA is done with the memory before OpenCL starts
    }
    return status == cudaSuccess ? nullptr : cudaGetErrorString(status);
}
