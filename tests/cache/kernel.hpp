// SPDX-License-Identifier: Apache-2.0
#pragma once
// The program the binary cache tests and their worker processes build: one kernel whose result
// tells a correct build from a wrong one.

#include <openclaw/all.hpp>
#include <openclaw/cache.hpp>

#include <string>
#include <vector>

namespace openclaw_test {

inline constexpr const char* cached_source = R"CLC(
__kernel void scale(__global int* data, int factor) {
    data[get_global_id(0)] *= factor + OFFSET;
}
)CLC";

/// Builds cached_source with -DOFFSET=`offset` through `cache`, runs it on 16 ones with factor 3
/// and returns whether every element became 3 + offset.
inline bool build_and_check(const openclaw::Context& context, const openclaw::Queue& queue,
                            const openclaw::BinaryCache& cache, int offset,
                            openclaw::Program* built = nullptr) {
    openclaw::BuildOptions options;
    options.define("OFFSET", offset).cache(cache);
    const auto program = openclaw::Program::build(context, cached_source, options);
    const openclaw::ReadWriteBuffer<cl_int> data{context, std::vector<cl_int>(16, 1)};
    auto scale = program.kernel<openclaw::InOut<cl_int>, cl_int>("scale");
    queue.enqueue(scale.set_args(data, 3), openclaw::NDRange{16});
    std::vector<cl_int> back(16);
    queue.read(data, back);
    if (built != nullptr) {
        *built = program;
    }
    return back == std::vector<cl_int>(16, 3 + offset);
}

}  // namespace openclaw_test
