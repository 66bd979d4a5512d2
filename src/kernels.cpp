// SPDX-License-Identifier: Apache-2.0
// Kernels and programs: argument checks against the driver's description, kernels, builds;
// part of the openclaw library (openclaw::openclaw), compiled once: cmake/openclawLibrary.cmake.

#include <openclaw/impl/detail/kernels/kernel_args.ipp>
#include <openclaw/impl/dynamic_kernel.ipp>
#include <openclaw/impl/kernel.ipp>
#include <openclaw/impl/program.ipp>
