// Kernels without parameters, in both spellings, beside one with parameters. NVIDIA's OpenCL
// compiler (driver 580, H200) emits PTX its assembler rejects ("ptxas ... Parsing error near '}'")
// for a kernel without parameters when -cl-kernel-arg-info is given; Program::build then builds
// without the option it added itself (test_signature.cpp checks both outcomes).

__kernel void nothing(void) {}

__kernel void empty() {}

__kernel void mark(__global int* flags, const int value) {
    flags[get_global_id(0)] = value;
}
