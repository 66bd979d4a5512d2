// Prints the parameter count of kernel "tricky" as read at compile time from the embedded
// source, then the embedded source itself, byte for byte.
#include <openclaw/kernel.hpp>

#include <cstdio>

#include "kernels/tricky.cl.hpp"

int main() {
    std::printf("arity=%zu\n", openclaw::kernel_t<embed::test::tricky, "tricky">::arity);
    std::fwrite(embed::test::tricky, 1, sizeof(embed::test::tricky) - 1, stdout);
    return 0;
}
