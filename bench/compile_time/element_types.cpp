// SPDX-License-Identifier: Apache-2.0
// What an extra buffer element type costs to compile: the same round trip (create, write, fill,
// copy, map, read) for OPENCLAW_BENCH_TYPES element types (1 to 5), each with two access tags.
// compile_time/peers.sh compiles it with 1 and 5 and reports the difference per extra type.
#include <openclaw/buffer.hpp>
#include <openclaw/platform.hpp>

#include <cstdio>
#include <vector>

#ifndef OPENCLAW_BENCH_TYPES
#define OPENCLAW_BENCH_TYPES 1
#endif

namespace {

struct Particle {  // 12 bytes: a user struct (filled from a host copy of the pattern)
    float x, y, z;
};

template <class T>
bool round_trip(const openclaw::Context& context, const openclaw::Queue& queue, std::size_t n) {
    std::vector<T> host(n);
    const openclaw::ReadWriteBuffer<T> data{context, n};
    const openclaw::WriteOnlyBuffer<T> out{context, n};
    data.write(queue, host);
    data.fill(queue, T{}, 0, n / 2);
    data.copy_to(queue, out);
    out.read(queue, host);
    {
        const auto view = data.map_read(queue);
        host.assign(view.begin(), view.end());
    }
    data.read_at(queue, n / 2, std::span<T>(host).first(n / 2));
    return host.size() == n;
}

}  // namespace

int main() {
    const openclaw::Device device = openclaw::Platform::list().front().devices().front();
    const openclaw::Context context{device};
    const openclaw::Queue queue{context, device};
    bool ok = round_trip<float>(context, queue, 1024);
#if OPENCLAW_BENCH_TYPES >= 2
    ok = ok && round_trip<cl_int>(context, queue, 1024);
#endif
#if OPENCLAW_BENCH_TYPES >= 3
    ok = ok && round_trip<cl_float4>(context, queue, 1024);
#endif
#if OPENCLAW_BENCH_TYPES >= 4
    ok = ok && round_trip<cl_ulong>(context, queue, 1024);
#endif
#if OPENCLAW_BENCH_TYPES >= 5
    ok = ok && round_trip<Particle>(context, queue, 1024);
#endif
    std::printf("element_types: %d type(s), %s\n", OPENCLAW_BENCH_TYPES, ok ? "ok" : "failed");
    return ok ? 0 : 1;
}
