// A program built outside the openclaw tree, as a user would: vector add, checked, with its
// kernel embedded by openclaw_embed_kernels() and typed from the kernel's declaration.
#include <openclaw/openclaw.hpp>

#include <cstdio>
#include <type_traits>
#include <vector>

#include "add.cl.hpp"  // generated from ../add.cl: kernels::add

int main() {
    openclaw::Device device;
    for (const auto& platform : openclaw::Platform::list()) {
        for (const auto& candidate : platform.devices()) {
            if (!device || (candidate.is_gpu() && !device.is_gpu())) {
                device = candidate;
            }
        }
    }
    if (!device) {
        std::puts("consumer: no OpenCL device");
        return 1;
    }
    openclaw::Context context{device};
    openclaw::Queue queue{context, device};
    const std::vector<int> a = {1, 2, 3, 4}, b = {10, 20, 30, 40};
    std::vector<int> c(4);
    openclaw::ReadOnlyBuffer<int> da{context, a}, db{context, b};
    openclaw::WriteOnlyBuffer<int> dc{context, 4};
    auto program = openclaw::Program::build(context, kernels::add);
    auto add = program.kernel<kernels::add, "add">();
    static_assert(
        std::is_same_v<decltype(add),
                       openclaw::Kernel<openclaw::In<int>, openclaw::In<int>, openclaw::Out<int>>>);
    queue.enqueue(add.set_args(da, db, dc), openclaw::NDRange{4});
    queue.read(dc, c);
    if (c != std::vector<int>{11, 22, 33, 44}) {
        std::puts("consumer: wrong result");
        return 1;
    }
    std::printf("consumer: ok on %s (%s)\n", device.name().c_str(),
                openclaw::separately_compiled ? "compiled library" : "header-only");
    return 0;
}
