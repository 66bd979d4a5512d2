// SPDX-License-Identifier: Apache-2.0
// Reduce, scan and sort of uints with <openclaw/algorithm.hpp>: the default device, a buffer of
// 2^20 values summed, scanned (inclusive) and sorted, the results checked on the host.
// compile_time/peers.sh measures what compiling it costs, beside algorithms_boost_compute.cpp (the
// same program with Boost.Compute's algorithms).
#include <openclaw/algorithm.hpp>
#include <openclaw/openclaw.hpp>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>

int main() {
    const openclaw::Device device = openclaw::select_device();
    const openclaw::Context context{device};
    const openclaw::Queue queue{context, device};
    std::vector<cl_uint> host(std::size_t{1} << 20);
    for (std::size_t i = 0; i < host.size(); ++i) {
        host[i] = static_cast<cl_uint>((i * 2654435761u) % 1000003u);
    }
    const openclaw::ReadWriteBuffer<cl_uint> values(queue, std::span<const cl_uint>(host));
    const cl_uint sum = openclaw::reduce(queue, values);
    const openclaw::ReadWriteBuffer<cl_uint> sums(context, host.size());
    openclaw::inclusive_scan(queue, values, sums);
    openclaw::sort(queue, values);
    std::vector<cl_uint> scanned(host.size());
    queue.read(sums, scanned);
    std::vector<cl_uint> sorted(host.size());
    queue.read(values, sorted);
    std::vector<cl_uint> expected(host.size());
    std::inclusive_scan(host.begin(), host.end(), expected.begin());
    const bool ok = sum == std::accumulate(host.begin(), host.end(), cl_uint{0}) &&
                    scanned == expected && std::is_sorted(sorted.begin(), sorted.end());
    std::printf("algorithms (openclaw): %s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
