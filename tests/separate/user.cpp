// SPDX-License-Identifier: Apache-2.0
// A user's unit, compiled twice: header-only, and with OPENCLAW_SEPARATE_COMPILATION.
// check_symbols.cmake reads both objects: the functions separate compilation moves out of the
// users' units must be defined in the header-only object and only referenced in the other.
#include <openclaw/all.hpp>

#include <vector>

float user_vector_add() {
    const openclaw::Device device = openclaw::Platform::list().front().devices().front();
    const openclaw::Context context{device};
    const openclaw::Queue queue{context, device};
    const auto program = openclaw::Program::build(context, R"CLC(
__kernel void add(__global const float* a, __global float* b) {
    b[get_global_id(0)] += a[get_global_id(0)];
})CLC");
    auto add = program.kernel<openclaw::In<float>, openclaw::InOut<float>>("add");
    const std::vector<float> ones(64, 1.0f);
    const openclaw::ReadOnlyBuffer<float> a{context, ones};
    openclaw::ReadWriteBuffer<float> b{context, ones};
    queue.enqueue(add.set_args(a, b), openclaw::NDRange{64});
    std::vector<float> out(64);
    queue.read(b, out);
    return out[63];
}
