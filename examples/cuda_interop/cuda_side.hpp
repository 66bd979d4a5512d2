// SPDX-License-Identifier: Apache-2.0
#pragma once
// What main.cpp calls of the CUDA half (cuda_side.cu), in plain C++.
#include <cstddef>

/// The number of CUDA devices (0 where the runtime finds no driver or no device).
int cuda_devices();
/// Runs the CUDA kernel that writes data[i] = 0.5 * (i % 1000) + 1 over `n` floats at the device
/// address `data`, and waits for it; nullptr on success, else CUDA's error text.
const char* cuda_write_pattern(void* data, std::size_t n);
