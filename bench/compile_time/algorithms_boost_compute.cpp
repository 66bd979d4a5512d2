// SPDX-License-Identifier: Apache-2.0
// Reduce, scan and sort of uints with Boost.Compute's algorithms: the default device, a vector of
// 2^20 values summed, scanned (inclusive) and sorted, the results checked on the host.
// compile_time/peers.sh measures what compiling it costs, beside algorithms_openclaw.cpp (the same
// program with <openclaw/algorithm.hpp>).
#define CL_TARGET_OPENCL_VERSION 300
#include <boost/compute/algorithm/copy.hpp>
#include <boost/compute/algorithm/inclusive_scan.hpp>
#include <boost/compute/algorithm/reduce.hpp>
#include <boost/compute/algorithm/sort.hpp>
#include <boost/compute/container/vector.hpp>
#include <boost/compute/core.hpp>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>

namespace compute = boost::compute;

int main() {
    const compute::device device = compute::system::default_device();
    const compute::context context(device);
    compute::command_queue queue(context, device);
    std::vector<cl_uint> host(std::size_t{1} << 20);
    for (std::size_t i = 0; i < host.size(); ++i) {
        host[i] = static_cast<cl_uint>((i * 2654435761u) % 1000003u);
    }
    compute::vector<cl_uint> values(host.begin(), host.end(), queue);
    cl_uint sum = 0;
    compute::reduce(values.begin(), values.end(), &sum, queue);
    compute::vector<cl_uint> sums(values.size(), context);
    compute::inclusive_scan(values.begin(), values.end(), sums.begin(), queue);
    compute::sort(values.begin(), values.end(), queue);
    std::vector<cl_uint> scanned(host.size());
    compute::copy(sums.begin(), sums.end(), scanned.begin(), queue);
    std::vector<cl_uint> sorted(host.size());
    compute::copy(values.begin(), values.end(), sorted.begin(), queue);
    std::vector<cl_uint> expected(host.size());
    std::inclusive_scan(host.begin(), host.end(), expected.begin());
    const bool ok = sum == std::accumulate(host.begin(), host.end(), cl_uint{0}) &&
                    scanned == expected && std::is_sorted(sorted.begin(), sorted.end());
    std::printf("algorithms (Boost.Compute): %s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
