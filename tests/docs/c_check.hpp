// SPDX-License-Identifier: Apache-2.0
#pragma once
// The C API programs of the docs' tests check every status this way: print the call and exit.
#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                  \
    do {                                                             \
        const cl_int status_ = (call);                               \
        if (status_ != CL_SUCCESS) {                                 \
            std::fprintf(stderr, "%s failed: %d\n", #call, status_); \
            std::exit(EXIT_FAILURE);                                 \
        }                                                            \
    } while (0)
