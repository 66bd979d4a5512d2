// SPDX-License-Identifier: Apache-2.0
// The algorithms wing against the host's std:: algorithms: every size class (0, 1, 2^k - 1,
// 2^k + 1, large), every key type and order of the sort, stability, slices, in-place calls, user
// operators that do not commute, both scan paths, events and wait lists, out-of-order queues,
// warm calls that build and allocate nothing (counted at the OpenCL entry points), and the bad
// input each call refuses before anything is enqueued.
#include <openclaw/algorithm.hpp>
#include <openclaw/all.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <type_traits>
#include <vector>

#include "support/catch.hpp"
#include "support/cl_intercept.hpp"
#include "support/fixture.hpp"

using openclaw::AlgorithmPath;
using openclaw::op;
using openclaw::ReadOnlyBuffer;
using openclaw::ReadWriteBuffer;
using openclaw::SortOrder;
using openclaw::WriteOnlyBuffer;
using openclaw_test::env;
using openclaw_test::has;
using openclaw_test::thrown;

namespace {

const std::vector<std::size_t>& sizes() {
    static const std::vector<std::size_t> all = {
        1,    2,    3,    255,   256,   257,    1023,
        1025, 4095, 4097, 65535, 65537, 100003, (std::size_t{1} << 20) + 3};
    return all;
}

template <class T>
std::vector<T> random_values(std::size_t n, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::vector<T> v(n);
    for (auto& x : v) {
        if constexpr (std::is_floating_point_v<T>) {
            x = static_cast<T>(static_cast<double>(rng() % 2000001) / 1000.0 - 1000.0);
        } else if constexpr (sizeof(T) >= 4) {
            x = static_cast<T>(rng());
        } else {
            x = static_cast<T>(rng() % 1000);
        }
    }
    return v;
}

template <class T, class A = openclaw::ReadWrite>
openclaw::Buffer<T, A> upload(const std::vector<T>& host) {
    return openclaw::Buffer<T, A>(env().queue, std::span<const T>(host));
}

template <class T, class A>
std::vector<T> download(const openclaw::Buffer<T, A>& buffer) {
    std::vector<T> out(buffer.size());
    env().queue.read(buffer, out);
    return out;
}

/// The first index where `got` and `expected` differ (their common size when one is shorter, and
/// `matches` when they are equal): a check on it prints a number, not two large vectors.
constexpr std::size_t matches = static_cast<std::size_t>(-1);
template <class T>
std::size_t first_difference(const std::vector<T>& got, const std::vector<T>& expected) {
    const std::size_t n = std::min(got.size(), expected.size());
    for (std::size_t i = 0; i < n; ++i) {
        if (std::memcmp(&got[i], &expected[i], sizeof(T)) != 0) {
            return i;
        }
    }
    return got.size() == expected.size() ? matches : n;
}

bool has_fp64() {
    return env().device.supports_extension("cl_khr_fp64");
}

}  // namespace

/// A struct the operators below define in OpenCL C and name as Particle.
struct Particle {
    cl_float mass;
    cl_float speed;
};
template <>
struct openclaw::opencl_type<"Particle"> {
    using type = Particle;
};

TEST_CASE("reduce sums every size class of int, uint, long and float") {
    const auto& queue = env().queue;
    for (const std::size_t n : sizes()) {
        CAPTURE(n);
        const auto ints = random_values<cl_int>(n, 1);
        const auto buffer = upload(ints);
        // int arithmetic wraps on the device; the host sums in the same (unsigned) way
        std::uint32_t expected = 0;
        for (const cl_int x : ints) {
            expected += static_cast<std::uint32_t>(x);
        }
        CHECK(static_cast<std::uint32_t>(openclaw::reduce(queue, buffer)) == expected);

        const auto longs = random_values<cl_ulong>(n, 2);
        CHECK(openclaw::reduce(queue, upload(longs)) ==
              std::accumulate(longs.begin(), longs.end(), cl_ulong{0}));

        const auto floats = random_values<cl_float>(n, 3);
        double exact = 0;
        double magnitude = 0;
        for (const float x : floats) {
            exact += x;
            magnitude += std::fabs(x);
        }
        const float sum = openclaw::reduce(queue, upload(floats));
        CHECK(std::fabs(sum - exact) <= 1e-5 * magnitude + 1e-3);
    }
    // An empty range gives the init (a slice of nothing).
    const auto some = upload(std::vector<cl_int>{1, 2, 3});
    CHECK(openclaw::reduce(queue, some.slice(3, 0), cl_int{42}, openclaw::plus<>{}) == 42);
    CHECK(openclaw::reduce(queue, some.slice(1, 2)) == 5);
}

TEST_CASE("reduce with an init and an operator, transform_reduce and count_if") {
    const auto& queue = env().queue;
    const auto values = random_values<cl_int>(100003, 4);
    const auto buffer = upload<cl_int, openclaw::ReadOnly>(values);
    const cl_int biggest = *std::max_element(values.begin(), values.end());
    CHECK(openclaw::reduce(queue, buffer, std::numeric_limits<cl_int>::min(),
                           op<"int bigger(int a, int b) { return a > b ? a : b; }">{}) == biggest);
    CHECK(openclaw::reduce(queue, buffer, std::numeric_limits<cl_int>::max(),
                           openclaw::minimum<>{}) ==
          *std::min_element(values.begin(), values.end()));
    CHECK(openclaw::reduce(queue, buffer, cl_int{0}, openclaw::bit_xor<>{}) ==
          std::accumulate(values.begin(), values.end(), 0, std::bit_xor<>{}));
    // The init takes part once, even over many work-groups.
    CHECK(openclaw::reduce(queue, buffer, cl_int{biggest + 0}, openclaw::maximum<cl_int>{}) ==
          biggest);

    // transform_reduce: the number of odd values as a ulong sum of a transform to ulong.
    const std::size_t odd = static_cast<std::size_t>(
        std::count_if(values.begin(), values.end(), [](cl_int x) { return (x & 1) != 0; }));
    CHECK(openclaw::transform_reduce(queue, buffer, cl_ulong{10}, openclaw::plus<>{},
                                     op<"ulong odd(int x) { return (ulong)(x & 1); }">{}) ==
          odd + 10);
    CHECK(openclaw::count_if(queue, buffer, op<"int odd(int x) { return x & 1; }">{}) == odd);
    CHECK(openclaw::count_if(queue, buffer.slice(0, 0), op<"int odd(int x) { return x & 1; }">{}) ==
          0);

    // An operator that does not commute over a float4 (its components): the sum of squares.
    std::vector<cl_float4> vectors(1000);
    for (std::size_t i = 0; i < vectors.size(); ++i) {
        vectors[i] = {{static_cast<float>(i % 7), 1.0f, 0.5f, static_cast<float>(i % 3)}};
    }
    const cl_float4 total = openclaw::reduce(queue, upload(vectors));
    float x = 0;
    float w = 0;
    for (const auto& v : vectors) {
        x += v.s[0];
        w += v.s[3];
    }
    CHECK(total.s[0] == x);
    CHECK(total.s[1] == 1000.0f);
    CHECK(total.s[2] == 500.0f);
    CHECK(total.s[3] == w);
}

TEST_CASE("min_element and max_element return the first extreme index") {
    const auto& queue = env().queue;
    for (const std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{257},
                                std::size_t{65537}, std::size_t{300001}}) {
        CAPTURE(n);
        auto values = random_values<cl_int>(n, 5);
        for (auto& v : values) {
            v %= 50;  // many ties
        }
        const auto buffer = upload(values);
        CHECK(openclaw::min_element(queue, buffer) ==
              static_cast<std::size_t>(std::min_element(values.begin(), values.end()) -
                                       values.begin()));
        CHECK(openclaw::max_element(queue, buffer) ==
              static_cast<std::size_t>(std::max_element(values.begin(), values.end()) -
                                       values.begin()));
        CHECK(
            openclaw::min_element(queue, buffer, openclaw::greater<>{}) ==
            static_cast<std::size_t>(
                std::min_element(values.begin(), values.end(), std::greater<>{}) - values.begin()));
    }
    const auto empty = upload(std::vector<cl_int>{3});
    CHECK(openclaw::min_element(queue, empty.slice(1)) == 0);
    // A user comparator: by absolute value.
    const auto signed_values = upload(std::vector<cl_int>{-9, 4, -2, 2, 7, -2});
    CHECK(openclaw::min_element(queue, signed_values,
                                op<"int nearer(int a, int b) { return abs(a) < abs(b); }">{}) == 2);
    CHECK(openclaw::max_element(queue, signed_values,
                                op<"int nearer(int a, int b) { return abs(a) < abs(b); }">{}) == 0);
}

TEST_CASE("reduce_into leaves the result in a device buffer, with an event on request") {
    const auto& queue = env().queue;
    const auto values = random_values<cl_uint>(70001, 6);
    const auto buffer = upload(values);
    ReadWriteBuffer<cl_uint> results(env().context, 4);
    openclaw::fill(queue, results, cl_uint{0});
    openclaw::reduce_into(queue, buffer, results.slice(1, 1));
    openclaw::Event done =
        openclaw::reduce_into(queue, buffer.slice(0, 0), results.slice(2, 1), cl_uint{77},
                              openclaw::plus<>{}, openclaw::with_event);
    REQUIRE(done);
    done.wait();
    const auto got = download(results);
    CHECK(got[0] == 0);
    CHECK(got[1] == std::accumulate(values.begin(), values.end(), cl_uint{0}));
    CHECK(got[2] == 77);
    CHECK(got[3] == 0);
    // The result region is one element.
    const auto error =
        thrown<openclaw::Error>([&] { openclaw::reduce_into(queue, buffer, results.slice(0, 2)); });
    REQUIRE(error);
    CHECK_THAT(error->what(), has("openclaw::reduce_into") && has("2 elements"));
}

namespace {

template <class T>
void check_scans(AlgorithmPath path) {
    const auto& queue = env().queue;
    for (const std::size_t n : sizes()) {
        CAPTURE(n);
        const auto values = random_values<T>(n, 7);
        const auto in = upload(values);
        ReadWriteBuffer<T> out(env().context, n);
        std::vector<T> expected(n);
        // The device's sums wrap; the host's reference wraps too (in unsigned arithmetic, where
        // wrapping is defined).
        const auto plus = [](T a, T b) {
            using U = std::make_unsigned_t<T>;
            return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
        };

        openclaw::inclusive_scan(queue, in, out, path);
        std::inclusive_scan(values.begin(), values.end(), expected.begin(), plus);
        CHECK(first_difference(download(out), expected) == matches);

        openclaw::exclusive_scan(queue, in, out, T{5}, path);
        std::exclusive_scan(values.begin(), values.end(), expected.begin(), T{5}, plus);
        CHECK(first_difference(download(out), expected) == matches);

        // In place.
        auto inplace = upload(values);
        openclaw::inclusive_scan(queue, inplace, inplace, path);
        std::inclusive_scan(values.begin(), values.end(), expected.begin(), plus);
        CHECK(first_difference(download(inplace), expected) == matches);
    }
}

}  // namespace

TEST_CASE("inclusive and exclusive scans of int and ulong on the portable path") {
    check_scans<cl_int>(AlgorithmPath::portable);
    check_scans<cl_ulong>(AlgorithmPath::portable);
}

TEST_CASE("inclusive and exclusive scans of int and ulong on the single-pass path") {
    check_scans<cl_int>(AlgorithmPath::single_pass);
    check_scans<cl_ulong>(AlgorithmPath::single_pass);
}

TEST_CASE("scans keep the order of an operator that does not commute, on both paths") {
    // Composition of affine maps x -> a x + b (mod 2^32): associative, not commutative.
    constexpr openclaw::FixedString compose =
        "uint2 compose(uint2 f, uint2 g) { return (uint2)(g.x * f.x, g.x * f.y + g.y); }";
    const auto& queue = env().queue;
    for (const AlgorithmPath path : {AlgorithmPath::portable, AlgorithmPath::single_pass}) {
        for (const std::size_t n : {std::size_t{3}, std::size_t{2049}, std::size_t{100003}}) {
            CAPTURE(n, static_cast<int>(path));
            std::vector<cl_uint2> maps(n);
            std::mt19937 rng(8);
            for (auto& m : maps) {
                m = {{static_cast<cl_uint>(rng() | 1u), static_cast<cl_uint>(rng())}};
            }
            const auto in = upload(maps);
            ReadWriteBuffer<cl_uint2> out(env().context, n);
            openclaw::inclusive_scan(queue, in, out, op<compose>{}, path);
            std::vector<cl_uint2> expected(n);
            cl_uint2 run = maps[0];
            expected[0] = run;
            for (std::size_t i = 1; i < n; ++i) {
                run = {{maps[i].s[0] * run.s[0], maps[i].s[0] * run.s[1] + maps[i].s[1]}};
                expected[i] = run;
            }
            const auto got = download(out);
            bool same = true;
            for (std::size_t i = 0; i < n && same; ++i) {
                same = got[i].s[0] == expected[i].s[0] && got[i].s[1] == expected[i].s[1];
            }
            CHECK(same);
        }
    }
}

TEST_CASE("scans work on slices at any offset and leave the rest alone") {
    const auto& queue = env().queue;
    const std::vector<cl_int> values(5000, 1);
    const auto in = upload(values);
    ReadWriteBuffer<cl_int> out(queue, std::span<const cl_int>(std::vector<cl_int>(5000, -1)));
    openclaw::inclusive_scan(queue, in.slice(3, 4000), out.slice(7, 4000));
    const auto got = download(out);
    CHECK(got[6] == -1);
    CHECK(got[7] == 1);
    CHECK(got[4006] == 4000);
    CHECK(got[4007] == -1);
}

namespace {

/// A scan by key on the host: inclusive, or exclusive from `init` when it is given.
template <class K, class V, class F>
std::vector<V> host_scan_by_key(const std::vector<K>& keys, const std::vector<V>& values,
                                const V* init, const F& op) {
    std::vector<V> out(values.size());
    V run{};
    for (std::size_t i = 0; i < values.size(); ++i) {
        const bool head = i == 0 || keys[i - 1] != keys[i];
        if (init != nullptr) {
            run = head ? *init : op(run, values[i - 1]);
            out[i] = run;
        } else {
            run = head ? values[i] : op(run, values[i]);
            out[i] = run;
        }
    }
    return out;
}

/// Keys in runs of 1 to 40 equal values (some runs longer than a tile).
std::vector<cl_uint> run_keys(std::size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<cl_uint> keys(n);
    cl_uint key = 0;
    for (std::size_t i = 0; i < n;) {
        const std::size_t length = rng() % 13 == 0 ? 3000 : 1 + rng() % 40;
        for (std::size_t k = 0; k < length && i < n; ++k, ++i) {
            keys[i] = key;
        }
        key += 1 + rng() % 3;
    }
    return keys;
}

template <class Download>
void check_scans_by_key(const openclaw::Queue& queue, AlgorithmPath path,
                        const Download& download) {
    for (const std::size_t n : sizes()) {
        CAPTURE(n, path == AlgorithmPath::portable);
        const auto keys = run_keys(n, 21);
        const auto values = random_values<cl_int>(n, 22);
        const auto key_buffer = upload(keys);
        const auto value_buffer = upload(values);
        ReadWriteBuffer<cl_int> out(env().context, n);
        const auto add = [](cl_int a, cl_int b) {
            return static_cast<cl_int>(static_cast<cl_uint>(a) + static_cast<cl_uint>(b));
        };
        openclaw::inclusive_scan_by_key(queue, key_buffer, value_buffer, out, path);
        CHECK(first_difference(download(out),
                               host_scan_by_key(keys, values, static_cast<const cl_int*>(nullptr),
                                                add)) == matches);
        const cl_int init = 5;
        openclaw::exclusive_scan_by_key(queue, key_buffer, value_buffer, out, init, path);
        CHECK(first_difference(download(out), host_scan_by_key(keys, values, &init, add)) ==
              matches);
        // An operator that does not commute (composing affine maps), in place.
        std::vector<cl_uint2> maps(n);
        for (std::size_t i = 0; i < n; ++i) {
            maps[i] = {
                {static_cast<cl_uint>(values[i]) | 1u, static_cast<cl_uint>(values[i]) >> 5}};
        }
        auto map_buffer = upload(maps);
        openclaw::inclusive_scan_by_key(
            queue, key_buffer, map_buffer, map_buffer,
            op<"uint2 compose(uint2 f, uint2 g) { return (uint2)(g.x * f.x, g.x * f.y + g.y); }">{},
            path);
        const auto compose = [](cl_uint2 f, cl_uint2 g) {
            return cl_uint2{{g.s[0] * f.s[0], g.s[0] * f.s[1] + g.s[1]}};
        };
        const auto expected =
            host_scan_by_key(keys, maps, static_cast<const cl_uint2*>(nullptr), compose);
        CHECK(first_difference(download(map_buffer), expected) == matches);
    }
}

}  // namespace

TEST_CASE("scans by key restart at each run of equal keys, on both paths") {
    const auto& queue = env().queue;
    const auto read = [](const auto& buffer) { return download(buffer); };
    check_scans_by_key(queue, AlgorithmPath::portable, read);
    check_scans_by_key(queue, AlgorithmPath::single_pass, read);
    // Slices, a float max by key, and the refusals.
    const std::vector<cl_long> keys = {7, 7, 7, 1, 1, 9, 9, 9, 9};
    const std::vector<cl_float> values = {1, 5, 2, 3, 0, 4, 4, 8, 1};
    const auto key_buffer = upload(keys);
    const auto value_buffer = upload(values);
    ReadWriteBuffer<cl_float> out(env().context, 12);
    openclaw::fill(queue, out, -1.0f);
    openclaw::inclusive_scan_by_key(queue, key_buffer.slice(1, 7), value_buffer.slice(1, 7),
                                    out.slice(2, 7), openclaw::maximum<>{});
    CHECK(download(out) == std::vector<cl_float>{-1, -1, 5, 5, 3, 3, 4, 4, 8, -1, -1, -1});
    auto error = thrown<openclaw::Error>(
        [&] { openclaw::inclusive_scan_by_key(queue, key_buffer.slice(0, 5), value_buffer, out); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_VALUE);
    CHECK_THAT(error->what(), has("openclaw::inclusive_scan_by_key") &&
                                  has("the keys hold 5 elements, the values 9"));
    auto same = upload(std::vector<cl_int>(10, 1));
    error = thrown<openclaw::Error>(
        [&] { openclaw::exclusive_scan_by_key(queue, same, same, same, cl_int{0}); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_MEM_COPY_OVERLAP);
    CHECK_THAT(error->what(), has("openclaw::exclusive_scan_by_key") && has("the keys"));
}

TEST_CASE("the single-pass scan runs a thousand times in a row") {
    const auto& queue = env().queue;
    const std::vector<cl_uint> values(20000, 1);
    const auto in = upload(values);
    ReadWriteBuffer<cl_uint> out(env().context, values.size());
    for (int i = 0; i < 1000; ++i) {
        openclaw::inclusive_scan(queue, in, out, AlgorithmPath::single_pass);
    }
    const auto got = download(out);
    CHECK(got.front() == 1);
    CHECK(got.back() == 20000);
}

namespace {

/// The bits of a key, for comparing floats (NaNs, -0.0) exactly.
template <class K>
auto bits(K k) {
    if constexpr (sizeof(K) == 4) {
        return std::bit_cast<std::uint32_t>(k);
    } else {
        return std::bit_cast<std::uint64_t>(k);
    }
}

/// The order CUB's radix sort gives floats: by the sign-adjusted bits.
template <class K>
auto order_key(K k) {
    auto b = bits(k);
    if constexpr (std::is_floating_point_v<K>) {
        constexpr decltype(b) sign = decltype(b){1} << (sizeof(K) * 8 - 1);
        b = (b & sign) != 0 ? ~b : (b | sign);
    } else if constexpr (std::is_signed_v<K>) {
        b ^= decltype(b){1} << (sizeof(K) * 8 - 1);
    }
    return b;
}

template <class K>
std::vector<K> keys_for_sort(std::size_t n, unsigned seed) {
    auto keys = random_values<K>(n, seed);
    if constexpr (std::is_floating_point_v<K>) {
        const K specials[] = {K(-0.0),
                              K(0.0),
                              std::numeric_limits<K>::infinity(),
                              -std::numeric_limits<K>::infinity(),
                              std::numeric_limits<K>::quiet_NaN(),
                              -std::numeric_limits<K>::quiet_NaN(),
                              K(1e-40),
                              K(-1e-40)};
        for (std::size_t i = 0; i < std::size(specials) && i < n; ++i) {
            keys[(i * 7919) % n] = specials[i];
        }
    } else if constexpr (std::is_signed_v<K>) {
        for (std::size_t i = 0; i < n; i += 3) {
            keys[i] = -keys[i];
        }
        if (n > 2) {
            keys[1] = std::numeric_limits<K>::min();
            keys[2] = std::numeric_limits<K>::max();
        }
    }
    return keys;
}

/// Sorts n keys of type K (specials included) on `queue` by `path` and compares the bits with
/// std::stable_sort's order; `download` reads a buffer after the queue's commands.
template <class K, class Download>
bool sort_matches(const openclaw::Queue& queue, std::size_t n, SortOrder order, AlgorithmPath path,
                  const Download& download) {
    const auto keys = keys_for_sort<K>(n, 9);
    auto buffer = upload(keys);
    openclaw::sort(queue, buffer, order, path);
    auto expected = keys;
    std::stable_sort(expected.begin(), expected.end(), [order](K a, K b) {
        return order == SortOrder::ascending ? order_key(a) < order_key(b)
                                             : order_key(b) < order_key(a);
    });
    const auto got = download(buffer);
    bool same = got.size() == expected.size();
    for (std::size_t i = 0; i < n && same; ++i) {
        same = bits(got[i]) == bits(expected[i]);
    }
    return same;
}

template <class K>
void check_sort(SortOrder order) {
    for (const std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{1000},
                                std::size_t{4097}, std::size_t{100003}}) {
        CAPTURE(n, sizeof(K), static_cast<int>(order));
        CHECK(sort_matches<K>(env().queue, n, order, AlgorithmPath::automatic,
                              [](const auto& buffer) { return download(buffer); }));
    }
}

}  // namespace

TEST_CASE("sort orders 32-bit keys (uint, int, float) both ways") {
    for (const SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
        check_sort<cl_uint>(order);
        check_sort<cl_int>(order);
        check_sort<cl_float>(order);
    }
}

TEST_CASE("sort orders 64-bit keys (ulong, long, double) both ways") {
    for (const SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
        check_sort<cl_ulong>(order);
        check_sort<cl_long>(order);
        check_sort<cl_double>(order);  // bit patterns only: no fp64 needed on the device
    }
}

TEST_CASE("floats sort as CUB orders them: -NaN, -inf, ..., -0.0, +0.0, ..., +inf, +NaN") {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    auto buffer = upload(std::vector<cl_float>{nan, 1.0f, -0.0f, -inf, 0.0f, -nan, inf, -1.0f});
    openclaw::sort(env().queue, buffer);
    const auto got = download(buffer);
    REQUIRE(got.size() == 8);
    CHECK((std::isnan(got[0]) && std::signbit(got[0])));
    CHECK(got[1] == -inf);
    CHECK(got[2] == -1.0f);
    CHECK((got[3] == 0.0f && std::signbit(got[3])));
    CHECK((got[4] == 0.0f && !std::signbit(got[4])));
    CHECK(got[5] == 1.0f);
    CHECK(got[6] == inf);
    CHECK((std::isnan(got[7]) && !std::signbit(got[7])));
}

namespace {

struct Record12 {
    cl_uint a;
    cl_uint b;
    cl_uint c;
};

template <class V, class Make>
void check_sort_by_key(const Make& make) {
    const auto& queue = env().queue;
    for (const std::size_t n : {std::size_t{2}, std::size_t{4097}, std::size_t{100003}}) {
        CAPTURE(n, sizeof(V));
        auto keys = random_values<cl_uint>(n, 10);
        for (auto& k : keys) {
            k %= 97;  // many equal keys: stability shows
        }
        std::vector<V> values(n);
        for (std::size_t i = 0; i < n; ++i) {
            values[i] = make(i);
        }
        auto key_buffer = upload(keys);
        auto value_buffer = upload(values);
        openclaw::sort_by_key(queue, key_buffer, value_buffer);
        std::vector<std::size_t> order(n);
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
        const auto got_keys = download(key_buffer);
        const auto got_values = download(value_buffer);
        bool same = true;
        for (std::size_t i = 0; i < n && same; ++i) {
            const V expected = make(order[i]);
            same = got_keys[i] == keys[order[i]] &&
                   std::memcmp(&got_values[i], &expected, sizeof(V)) == 0;
        }
        CHECK(same);
    }
}

}  // namespace

TEST_CASE("sort_by_key is stable and carries values of 1, 2, 4, 8, 12 and 16 bytes") {
    check_sort_by_key<cl_uchar>([](std::size_t i) { return static_cast<cl_uchar>(i); });
    check_sort_by_key<cl_ushort>([](std::size_t i) { return static_cast<cl_ushort>(i); });
    check_sort_by_key<cl_uint>([](std::size_t i) { return static_cast<cl_uint>(i); });
    check_sort_by_key<cl_ulong>([](std::size_t i) { return cl_ulong{i} * 0x100000001ull; });
    check_sort_by_key<Record12>([](std::size_t i) {
        const auto v = static_cast<cl_uint>(i);
        return Record12{v, ~v, v * 3};
    });
    check_sort_by_key<cl_uint4>([](std::size_t i) {
        const auto v = static_cast<cl_uint>(i);
        return cl_uint4{{v, v + 1, v + 2, v + 3}};
    });
}

TEST_CASE("sort_by_key descending on a slice of the keys and values") {
    const auto& queue = env().queue;
    auto keys = upload(std::vector<cl_float>{9, 3, 1, 3, 2, 9, 7});
    auto values = upload(std::vector<cl_int>{0, 1, 2, 3, 4, 5, 6});
    openclaw::sort_by_key(queue, keys.slice(1, 5), values.slice(2, 5), SortOrder::descending);
    // Keys 3 1 3 2 9 with values 2 3 4 5 6: 9 first, the two 3s in their order, then 2 and 1.
    CHECK(download(keys) == std::vector<cl_float>{9, 9, 3, 3, 2, 1, 7});
    CHECK(download(values) == std::vector<cl_int>{0, 1, 6, 2, 4, 5, 3});
}

TEST_CASE("copy_if keeps the selected elements in order and returns their count") {
    const auto& queue = env().queue;
    for (const std::size_t n : sizes()) {
        CAPTURE(n);
        const auto values = random_values<cl_int>(n, 11);
        const auto in = upload(values);
        WriteOnlyBuffer<cl_int> out(env().context, n);
        const std::size_t count =
            openclaw::copy_if(queue, in, out, op<"int multiple(int x) { return x % 3 == 0; }">{});
        std::vector<cl_int> expected;
        std::copy_if(values.begin(), values.end(), std::back_inserter(expected),
                     [](cl_int x) { return x % 3 == 0; });
        REQUIRE(count == expected.size());
        auto got = download(out);
        got.resize(count);
        CHECK(got == expected);
    }
    // More selected than the output holds: the first ones are written, and the call fails.
    const auto ones = upload(std::vector<cl_int>(100, 1));
    ReadWriteBuffer<cl_int> small(env().context, 10);
    openclaw::Status status;
    const std::size_t count = openclaw::copy_if(
        queue, ones, small, op<"int multiple(int x) { return x % 3 == 0 || x == 1; }">{}, status);
    CHECK(count == 100);
    CHECK(status.failed());
    CHECK_THAT(status.what(), has("100 elements were selected, the output holds 10"));
    CHECK(download(small) == std::vector<cl_int>(10, 1));
}

namespace {

/// partition, unique and histogram on `queue` against std::stable_partition, std::unique_copy
/// and a host count, for every size class; `download` reads on that queue.
template <class Download>
void check_partition_unique_histogram(const openclaw::Queue& queue, const Download& download) {
    for (const std::size_t n : sizes()) {
        CAPTURE(n);
        // Runs of equal values (unique has something to drop), some negative (bins outside).
        auto values = random_values<cl_int>(n, 19);
        for (std::size_t i = 0; i < n; ++i) {
            values[i] = (values[i] % 600) / 7 - 5;
            if (i % 5 != 0 && i > 0) {
                values[i] = values[i - 1];
            }
        }
        const auto in = upload(values);
        ReadWriteBuffer<cl_int> out(env().context, n);

        const std::size_t point =
            openclaw::partition(queue, in, out, op<"int small(int x) { return x < 20; }">{});
        auto expected = values;
        const auto middle = std::stable_partition(expected.begin(), expected.end(),
                                                  [](cl_int x) { return x < 20; });
        CHECK(point == static_cast<std::size_t>(middle - expected.begin()));
        CHECK(first_difference(download(out), expected) == matches);

        const std::size_t kept = openclaw::unique(queue, in, out);
        std::vector<cl_int> heads;
        std::unique_copy(values.begin(), values.end(), std::back_inserter(heads));
        REQUIRE(kept == heads.size());
        auto got = download(out);
        got.resize(kept);
        CHECK(first_difference(got, heads) == matches);

        // Equality by a user operator: values in the same tens are equal.
        const std::size_t tens = openclaw::unique(
            queue, in, out, op<"int same_tens(int a, int b) { return a / 10 == b / 10; }">{});
        heads.clear();
        std::unique_copy(values.begin(), values.end(), std::back_inserter(heads),
                         [](cl_int a, cl_int b) { return a / 10 == b / 10; });
        REQUIRE(tens == heads.size());
        got = download(out);
        got.resize(tens);
        CHECK(first_difference(got, heads) == matches);

        // Bins are the values (negative and past-the-end ones uncounted), then a bin operator.
        ReadWriteBuffer<cl_uint> bins(env().context, 50);
        openclaw::fill(queue, bins, 7u);  // zeroed by the call
        openclaw::histogram(queue, in, bins);
        std::vector<cl_uint> counts(50, 0);
        for (const cl_int x : values) {
            if (x >= 0 && x < 50) {
                ++counts[static_cast<std::size_t>(x)];
            }
        }
        CHECK(download(bins) == counts);
        ReadWriteBuffer<cl_uint> halves(env().context, 3);
        openclaw::histogram(queue, in, halves,
                            op<"uint forties(int x) { return x < 0 ? 7u : (uint)(x / 40); }">{});
        std::vector<cl_uint> half_counts(3, 0);
        for (const cl_int x : values) {
            const cl_uint b = x < 0 ? 7u : static_cast<cl_uint>(x / 40);
            if (b < 3) {
                ++half_counts[b];
            }
        }
        CHECK(download(halves) == half_counts);
    }
}

}  // namespace

TEST_CASE("partition is stable, unique keeps the first of each run, histogram counts bins") {
    const auto& queue = env().queue;
    check_partition_unique_histogram(queue, [](const auto& buffer) { return download(buffer); });
}

TEST_CASE("histogram: bins in global memory past the local budget, 64-bit and small elements") {
    const auto& queue = env().queue;
    const std::size_t n = 300001;
    std::vector<cl_ulong> wide(n);
    std::vector<cl_uchar> narrow(n);
    std::mt19937_64 rng(20);
    for (std::size_t i = 0; i < n; ++i) {
        wide[i] = rng() % 40000;
        if (i % 97 == 0) {
            wide[i] += std::uint64_t{1} << 32;  // past every bin (not wrapped onto a small one)
        }
        narrow[i] = static_cast<cl_uchar>(rng());
    }
    ReadWriteBuffer<cl_uint> bins(env().context, 40000);  // 160 KB: more than local memory
    openclaw::histogram(queue, upload(wide), bins);
    std::vector<cl_uint> counts(40000, 0);
    for (const cl_ulong x : wide) {
        if (x < 40000) {
            ++counts[static_cast<std::size_t>(x)];
        }
    }
    CHECK(first_difference(download(bins), counts) == matches);
    ReadWriteBuffer<cl_uint> bytes(env().context, 256);
    const auto narrow_in = upload(narrow);
    openclaw::Event done =
        openclaw::histogram(queue, narrow_in, bytes.slice(0, 200), openclaw::with_event);
    done.wait();
    std::vector<cl_uint> byte_counts(256, 0);
    for (const cl_uchar x : narrow) {
        if (x < 200) {
            ++byte_counts[x];
        }
    }
    const auto got = download(bytes);
    CHECK(std::vector<cl_uint>(got.begin(), got.begin() + 200) ==
          std::vector<cl_uint>(byte_counts.begin(), byte_counts.begin() + 200));
    // An empty input zeroes the bins.
    openclaw::histogram(queue, narrow_in.slice(0, 0), bytes);
    CHECK(download(bytes) == std::vector<cl_uint>(256, 0));
}

TEST_CASE("transform (unary and binary), fill and iota") {
    const auto& queue = env().queue;
    const auto a = random_values<cl_float>(70001, 12);
    const auto b = random_values<cl_float>(70001, 13);
    const auto in_a = upload<cl_float, openclaw::ReadOnly>(a);
    const auto in_b = upload<cl_float, openclaw::ReadOnly>(b);
    ReadWriteBuffer<cl_float> out(env().context, a.size());
    openclaw::transform(queue, in_a, in_b, out, openclaw::plus<>{});
    auto got = download(out);
    bool same = true;
    for (std::size_t i = 0; i < a.size(); ++i) {
        same = same && got[i] == a[i] + b[i];
    }
    CHECK(same);

    ReadWriteBuffer<cl_int> rounded(env().context, a.size());
    openclaw::transform(queue, in_a, rounded,
                        op<"int round_down(float x) { return (int)floor(x); }">{});
    const auto ints = download(rounded);
    same = true;
    for (std::size_t i = 0; i < a.size(); ++i) {
        same = same && ints[i] == static_cast<cl_int>(std::floor(a[i]));
    }
    CHECK(same);

    // In place, on a slice.
    openclaw::transform(queue, out.slice(10, 5), out.slice(10, 5),
                        op<"float twice(float x) { return 2.0f * x; }">{});
    got = download(out);
    CHECK(got[10] == 2.0f * (a[10] + b[10]));
    CHECK(got[15] == a[15] + b[15]);

    // Vector elements to scalars: no implicit conversion between them in OpenCL C, so the
    // program of a unary transform must hold nothing that needs one.
    std::vector<cl_float2> points(1000);
    for (std::size_t i = 0; i < points.size(); ++i) {
        points[i] = {{static_cast<float>(i), 2.0f}};
    }
    ReadWriteBuffer<cl_uint> lengths(env().context, points.size());
    openclaw::transform(queue, upload(points), lengths,
                        op<"uint summed(float2 p) { return (uint)(p.x + p.y); }">{});
    const auto summed = download(lengths);
    CHECK(summed[0] == 2);
    CHECK(summed[999] == 1001);

    openclaw::fill(queue, rounded.slice(5, 3), cl_int{-4});
    openclaw::iota(queue, rounded.slice(100, 50000), cl_int{-10});
    const auto filled = download(rounded);
    CHECK(filled[4] == ints[4]);
    CHECK(filled[5] == -4);
    CHECK(filled[7] == -4);
    CHECK(filled[8] == ints[8]);
    CHECK(filled[100] == -10);
    CHECK(filled[50099] == 49989);
    CHECK(filled[50100] == ints[50100]);
}

TEST_CASE("user types: a struct named by opencl_type, defined in the operator's snippet") {
    std::vector<Particle> particles(3001);
    for (std::size_t i = 0; i < particles.size(); ++i) {
        particles[i] = {static_cast<float>(i % 10), static_cast<float>(i % 3)};
    }
    const auto buffer = upload(particles);
    const float energy = openclaw::transform_reduce(
        env().queue, buffer, 0.0f, openclaw::plus<>{},
        op<"typedef struct { float mass; float speed; } Particle;\n"
           "float energy(Particle p) { return 0.5f * p.mass * p.speed * p.speed; }">{});
    float expected = 0;
    for (const auto& p : particles) {
        expected += 0.5f * p.mass * p.speed * p.speed;
    }
    CHECK(std::fabs(energy - expected) <= 1e-4f * expected);

    ReadWriteBuffer<Particle> heavy(env().context, particles.size());
    const std::size_t count =
        openclaw::copy_if(env().queue, buffer, heavy,
                          op<"typedef struct { float mass; float speed; } Particle;\n"
                             "int heavy(Particle p) { return p.mass > 5.0f; }">{});
    const auto got = download(heavy);
    std::size_t expected_count = 0;
    bool same = true;
    for (const auto& p : particles) {
        if (p.mass > 5.0f) {
            same =
                same && got[expected_count].mass == p.mass && got[expected_count].speed == p.speed;
            ++expected_count;
        }
    }
    CHECK(count == expected_count);
    CHECK(same);

    // A struct operator of a scan: the running (sum, max) of a pair.
    std::vector<Particle> pairs(5000, Particle{1.0f, 0.0f});
    pairs[1234].speed = 9.0f;
    const auto pair_buffer = upload(pairs);
    ReadWriteBuffer<Particle> scanned(env().context, pairs.size());
    openclaw::inclusive_scan(env().queue, pair_buffer, scanned,
                             op<"typedef struct { float mass; float speed; } Particle;\n"
                                "Particle both(Particle a, Particle b) {\n"
                                "  Particle r; r.mass = a.mass + b.mass; r.speed = fmax(a.speed, "
                                "b.speed); return r; }">{});
    const auto sums = download(scanned);
    CHECK(sums[1233].speed == 0.0f);
    CHECK(sums[1234].speed == 9.0f);
    CHECK(sums.back().mass == 5000.0f);
    CHECK(sums.back().speed == 9.0f);
}

TEST_CASE("a warm call builds no program, makes no kernel and allocates nothing") {
    // A queue of its own: its engine starts empty.
    const openclaw::Queue queue(env().context, env().device);
    const auto values = random_values<cl_uint>(200000, 14);
    const auto in = upload(values);
    ReadWriteBuffer<cl_uint> out(env().context, values.size());
    const auto round = [&] {
        (void)openclaw::reduce(queue, in);
        openclaw::inclusive_scan(queue, in, out);
        openclaw::sort(queue, out);
        (void)openclaw::count_if(queue, in, op<"int big(uint x) { return x > 100u; }">{});
    };
    round();
    queue.finish();
    const auto cold = openclaw::algorithm_stats(queue);
    CHECK(cold.programs == 4);
    CHECK(cold.kernels >= 4);
    auto& calls = openclaw_test::cl_calls();
    const int builds = calls.build_program.load();
    const int kernels = calls.create_kernel.load();
    const int buffers = calls.create_buffer.load();
    for (int i = 0; i < 3; ++i) {
        round();
    }
    queue.finish();
    CHECK(calls.build_program.load() == builds);
    CHECK(calls.create_kernel.load() == kernels);
    CHECK(calls.create_buffer.load() == buffers);
    const auto warm = openclaw::algorithm_stats(queue);
    CHECK(warm.programs == cold.programs);
    CHECK(warm.kernels == cold.kernels);
    CHECK(warm.scratch_allocations == cold.scratch_allocations);
    CHECK(warm.scratch_bytes > 0);
    // Copies of the queue share its engine.
    const openclaw::Queue copy = queue;
    (void)openclaw::reduce(copy, in);
    CHECK(openclaw::algorithm_stats(copy).programs == cold.programs);
}

TEST_CASE("a MemoryPool among the options gives a call its scratch memory") {
    // A queue of its own: its engine keeps no scratch memory unless a call without a pool asks.
    // In queue order, a call's scratch is free again for the next call at once; a pool that
    // reuses after completion would make more while the earlier calls run.
    const openclaw::Queue queue(env().context, env().device);
    openclaw::MemoryPool pool(queue, {.reuse = openclaw::PoolReuse::queue_order});
    const auto values = random_values<cl_uint>(100003, 21);
    const auto in = upload(values);
    ReadWriteBuffer<cl_uint> out(env().context, values.size());
    auto keys = upload(values);
    auto payload = upload(values);
    const auto round = [&] {
        CHECK(openclaw::reduce(queue, in, pool) ==
              std::accumulate(values.begin(), values.end(), 0u));
        openclaw::inclusive_scan(queue, in, out, pool, AlgorithmPath::portable);
        openclaw::inclusive_scan(queue, in, out, AlgorithmPath::single_pass, pool);
        openclaw::sort_by_key(queue, keys, payload, pool);
        queue.finish();
    };
    round();
    std::vector<cl_uint> expected(values.size());
    std::inclusive_scan(values.begin(), values.end(), expected.begin());
    std::vector<cl_uint> got(values.size());
    queue.read(out, got);
    CHECK(got == expected);
    auto sorted = values;
    std::sort(sorted.begin(), sorted.end());
    queue.read(keys, got);
    CHECK(got == sorted);
    queue.read(payload, got);
    CHECK(got == sorted);  // the values were the keys
    const auto first = pool.stats();
    CHECK(first.allocations >= 4);
    CHECK(first.bytes_in_use == 0);  // every call gave its scratch back
    CHECK(openclaw::algorithm_stats(queue).scratch_bytes == 0);
    // Warm: the pool's memory comes round again; nothing new on the device.
    auto& calls = openclaw_test::cl_calls();
    const int buffers = calls.create_buffer.load();
    round();
    CHECK(calls.create_buffer.load() == buffers);
    CHECK(pool.stats().created == first.created);
    CHECK(openclaw::algorithm_stats(queue).scratch_allocations == 0);

    // A pool of another queue is refused before anything is enqueued.
    openclaw::MemoryPool other(env().queue);
    auto error = thrown<openclaw::Error>([&] { openclaw::sort(queue, keys, other); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_COMMAND_QUEUE);
    CHECK_THAT(error->what(), has("openclaw::sort") && has("another queue"));
    openclaw::MemoryPool empty;
    error = thrown<openclaw::Error>([&] { (void)openclaw::reduce(queue, in, empty); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_COMMAND_QUEUE);
    CHECK_THAT(error->what(), has("openclaw::reduce") && has("empty"));
    CHECK(other.stats().allocations == 0);
}

TEST_CASE("events and wait lists: a user event holds the algorithm back") {
    const auto& queue = env().queue;
    const auto values = random_values<cl_uint>(50000, 15);
    const auto in = upload(values);
    ReadWriteBuffer<cl_uint> out(env().context, values.size());
    const openclaw::UserEvent gate(env().context);
    openclaw::Event scanned =
        openclaw::inclusive_scan(queue, in, out, openclaw::after(gate), openclaw::with_event);
    REQUIRE(scanned);
    CHECK(scanned.status() != CL_COMPLETE);
    gate.complete();
    scanned.wait();
    std::vector<cl_uint> expected(values.size());
    std::inclusive_scan(values.begin(), values.end(), expected.begin());
    CHECK(first_difference(download(out), expected) == matches);

    // A failed event of the wait list fails a call that returns a host value.
    const openclaw::UserEvent failed(env().context);
    failed.fail(-5);
    const auto error = thrown<openclaw::Error>(
        [&] { (void)openclaw::reduce(queue, in, openclaw::after(failed)); });
    REQUIRE(error);
    CHECK_THAT(error->what(), has("openclaw::reduce"));
}

TEST_CASE("an out-of-order queue runs an algorithm's commands in order") {
    const openclaw::Queue queue(env().context, env().device, {.out_of_order = true});
    const auto keys = random_values<cl_uint>(100003, 16);
    auto buffer = upload(keys);
    openclaw::Event sorted = openclaw::sort(queue, buffer, openclaw::with_event);
    ReadWriteBuffer<cl_uint> sums(env().context, keys.size());
    openclaw::Event scanned = openclaw::inclusive_scan(queue, buffer, sums, openclaw::after(sorted),
                                                       openclaw::with_event);
    scanned.wait();
    auto expected = keys;
    std::sort(expected.begin(), expected.end());
    CHECK(first_difference(download(buffer), expected) == matches);
    std::inclusive_scan(expected.begin(), expected.end(), expected.begin());
    CHECK(first_difference(download(sums), expected) == matches);
    CHECK(openclaw::reduce(queue, buffer) == std::accumulate(keys.begin(), keys.end(), cl_uint{0}));
}

TEST_CASE("bad input is refused before anything is enqueued, naming the call and the values") {
    const auto& queue = env().queue;
    const auto in = upload(std::vector<cl_int>(100, 1));
    ReadWriteBuffer<cl_int> out(env().context, 50);

    auto error = thrown<openclaw::Error>([&] { openclaw::inclusive_scan(queue, in, out); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_VALUE);
    CHECK_THAT(error->what(), has("openclaw::inclusive_scan") &&
                                  has("the output holds 50 elements, the input 100"));

    error = thrown<openclaw::Error>([&] { (void)openclaw::reduce(queue, in.slice(90, 20)); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_VALUE);
    CHECK_THAT(error->what(), has("openclaw::reduce") && has("[90, 90 + 20)") && has("100"));

    auto same = upload(std::vector<cl_int>(100, 1));
    error = thrown<openclaw::Error>(
        [&] { openclaw::inclusive_scan(queue, same.slice(0, 50), same.slice(10, 50)); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_MEM_COPY_OVERLAP);
    CHECK_THAT(error->what(), has("overlap"));

    error = thrown<openclaw::Error>(
        [&] { (void)openclaw::copy_if(queue, same, same, op<"int any(int x) { return 1; }">{}); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_MEM_COPY_OVERLAP);

    error = thrown<openclaw::Error>(
        [&] { (void)openclaw::partition(queue, in, out, op<"int any(int x) { return 1; }">{}); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_VALUE);
    CHECK_THAT(error->what(),
               has("openclaw::partition") && has("the output holds 50 elements, the input 100"));

    ReadWriteBuffer<cl_int> few(env().context, 3);
    error = thrown<openclaw::Error>([&] { (void)openclaw::unique(queue, in.slice(0, 0), few); });
    CHECK_FALSE(error);  // nothing to do
    const auto steps = upload(std::vector<cl_int>{1, 2, 3, 4, 5});
    error = thrown<openclaw::Error>([&] { (void)openclaw::unique(queue, steps, few); });
    REQUIRE(error);
    CHECK_THAT(error->what(),
               has("openclaw::unique") && has("5 elements were selected, the output holds 3"));

    auto counters = upload(std::vector<cl_uint>(10, 1));
    error = thrown<openclaw::Error>(
        [&] { openclaw::histogram(queue, counters.slice(0, 5), counters.slice(3, 5)); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_MEM_COPY_OVERLAP);
    CHECK_THAT(error->what(), has("openclaw::histogram") && has("overlap"));

    auto keys = upload(std::vector<cl_uint>(10, 1));
    auto values = upload(std::vector<cl_uint>(5, 1));
    error = thrown<openclaw::Error>([&] { openclaw::sort_by_key(queue, keys, values); });
    REQUIRE(error);
    CHECK_THAT(error->what(),
               has("openclaw::sort_by_key") && has("the values hold 5 elements, the keys 10"));

    // A buffer of another context.
    const openclaw::Context other(env().device);
    const ReadWriteBuffer<cl_int> foreign(other, 10);
    error = thrown<openclaw::Error>([&] { (void)openclaw::reduce(queue, foreign); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_CONTEXT);

    // A buffer mapped for writing is not read behind the mapping's back.
    {
        auto mapped = queue.map_write(same);
        error = thrown<openclaw::Error>([&] { (void)openclaw::reduce(queue, same); });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_OPERATION);
    }

    // Error targets instead of exceptions: the call returns its init.
    openclaw::Status status;
    CHECK(openclaw::reduce(queue, in.slice(90, 20), cl_int{-1}, openclaw::plus<>{}, status) == -1);
    CHECK(status.failed());

    // A user operator that does not build: the build log comes with the error.
    const auto build = thrown<openclaw::BuildError>([&] {
        (void)openclaw::reduce(queue, in, cl_int{0},
                               op<"int broken(int a, int b) { return a +* b; }">{});
    });
    REQUIRE(build);
    CHECK_FALSE(build->logs().empty());
}

TEST_CASE("empty ranges do nothing, and give an event that completes") {
    const auto& queue = env().queue;
    auto buffer = upload(std::vector<cl_int>{3, 1, 2});
    openclaw::Event done = openclaw::sort(queue, buffer.slice(1, 0), openclaw::with_event);
    REQUIRE(done);
    done.wait();
    openclaw::inclusive_scan(queue, buffer.slice(0, 0), buffer.slice(0, 0));
    openclaw::sort(queue, buffer.slice(0, 1));
    CHECK(download(buffer) == std::vector<cl_int>{3, 1, 2});
    CHECK(openclaw::max_element(queue, buffer.slice(0, 0)) == 0);
}

TEST_CASE("double reductions and scans where the device has fp64") {
    if (!has_fp64()) {
        SUCCEED("the device has no cl_khr_fp64");
        return;
    }
    const auto values = random_values<cl_double>(100003, 17);
    const auto buffer = upload(values);
    double exact = 0;
    double magnitude = 0;
    for (const double x : values) {
        exact += x;
        magnitude += std::fabs(x);
    }
    CHECK(std::fabs(openclaw::reduce(env().queue, buffer) - exact) <= 1e-12 * magnitude);
    ReadWriteBuffer<cl_double> out(env().context, values.size());
    openclaw::inclusive_scan(env().queue, buffer, out);
    const auto got = download(out);
    CHECK(std::fabs(got.back() - exact) <= 1e-12 * magnitude);
}

namespace {

/// The single-pass sort of n keys of type K on `queue`, both orders, against std::stable_sort.
template <class K, class Download>
void check_sort_on(const openclaw::Queue& queue, std::size_t n, const Download& download) {
    for (const SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
        CAPTURE(sizeof(K), static_cast<int>(order));
        CHECK(sort_matches<K>(queue, n, order, AlgorithmPath::single_pass, download));
    }
}

}  // namespace

TEST_CASE("the GPU's tiled kernels give the same results where the device is a CPU") {
    // A CPU device runs serial blocks by default; this queue's engine takes the GPU's kernels
    // (work-groups of 256 sharing tiles in local memory), so that PoCL checks them too.
    openclaw::detail::algo::use_gpu_kernels_on_cpus(true);
    const openclaw::Queue queue(env().context, env().device);
    (void)openclaw::reduce(queue, upload(std::vector<cl_uint>{1}));  // makes the engine now
    openclaw::detail::algo::use_gpu_kernels_on_cpus(false);
    // Results are read on this queue, after its commands.
    const auto download = [&queue](const auto& buffer) {
        std::vector<typename std::remove_cvref_t<decltype(buffer)>::value_type> out(buffer.size());
        queue.read(buffer, out);
        return out;
    };
    constexpr openclaw::FixedString compose =
        "uint2 compose(uint2 f, uint2 g) { return (uint2)(g.x * f.x, g.x * f.y + g.y); }";
    for (const std::size_t n : sizes()) {
        CAPTURE(n);
        const auto values = random_values<cl_uint>(n, 18);
        const auto in = upload(values);
        CHECK(openclaw::reduce(queue, in) == std::accumulate(values.begin(), values.end(), 0u));
        CHECK(openclaw::max_element(queue, in) ==
              static_cast<std::size_t>(std::max_element(values.begin(), values.end()) -
                                       values.begin()));
        ReadWriteBuffer<cl_uint> out(env().context, n);
        std::vector<cl_uint> expected(n);
        for (const AlgorithmPath path : {AlgorithmPath::portable, AlgorithmPath::single_pass}) {
            openclaw::exclusive_scan(queue, in, out, 3u, path);
            std::exclusive_scan(values.begin(), values.end(), expected.begin(), 3u);
            CHECK(first_difference(download(out), expected) == matches);
            openclaw::inclusive_scan(queue, in, out, path);
            std::inclusive_scan(values.begin(), values.end(), expected.begin());
            CHECK(first_difference(download(out), expected) == matches);
        }
        std::vector<cl_uint2> maps(n);
        for (std::size_t i = 0; i < n; ++i) {
            maps[i] = {{values[i] | 1u, values[i] >> 3}};
        }
        const auto map_buffer = upload(maps);
        ReadWriteBuffer<cl_uint2> composed(env().context, n);
        // A non-commutative operator on both paths: any tile or look-back folded out of order
        // shows.
        for (const AlgorithmPath path : {AlgorithmPath::portable, AlgorithmPath::single_pass}) {
            CAPTURE(static_cast<int>(path));
            openclaw::inclusive_scan(queue, map_buffer, composed, op<compose>{}, path);
            cl_uint2 run = maps[0];
            bool same = true;
            const auto got = download(composed);
            for (std::size_t i = 0; i < n && same; ++i) {
                if (i > 0) {
                    run = {{maps[i].s[0] * run.s[0], maps[i].s[0] * run.s[1] + maps[i].s[1]}};
                }
                same = got[i].s[0] == run.s[0] && got[i].s[1] == run.s[1];
            }
            CHECK(same);
        }
        const std::size_t count =
            openclaw::copy_if(queue, in, out, op<"int odd(uint x) { return x & 1u; }">{});
        std::vector<cl_uint> odd;
        std::copy_if(values.begin(), values.end(), std::back_inserter(odd),
                     [](cl_uint x) { return (x & 1u) != 0; });
        REQUIRE(count == odd.size());
        auto selected = download(out);
        selected.resize(count);
        CHECK(selected == odd);
        auto sorted = values;
        std::sort(sorted.begin(), sorted.end(), std::greater<>());
        for (const AlgorithmPath path : {AlgorithmPath::portable, AlgorithmPath::single_pass}) {
            CAPTURE(static_cast<int>(path));
            auto keys = upload(values);
            auto payload = upload(std::vector<cl_ulong>(values.begin(), values.end()));
            openclaw::sort_by_key(queue, keys, payload, SortOrder::descending, path);
            CHECK(first_difference(download(keys), sorted) == matches);
            CHECK(first_difference(download(payload),
                                   std::vector<cl_ulong>(sorted.begin(), sorted.end())) == matches);
        }
    }
    // The single-pass (Onesweep) sort: every key type, both orders, stability with many equal
    // keys, a slice at an offset.
    for (const std::size_t n : {std::size_t{2}, std::size_t{1000}, std::size_t{100003}}) {
        CAPTURE(n);
        check_sort_on<cl_uint>(queue, n, download);
        check_sort_on<cl_int>(queue, n, download);
        check_sort_on<cl_float>(queue, n, download);
        check_sort_on<cl_ulong>(queue, n, download);
        check_sort_on<cl_double>(queue, n, download);
        auto keys = random_values<cl_uint>(n, 22);
        for (auto& k : keys) {
            k %= 61;
        }
        std::vector<cl_uint> index(n);
        std::iota(index.begin(), index.end(), 0u);
        auto key_buffer = upload(keys);
        auto index_buffer = upload(index);
        openclaw::sort_by_key(queue, key_buffer, index_buffer, AlgorithmPath::single_pass);
        std::stable_sort(index.begin(), index.end(),
                         [&](cl_uint a, cl_uint b) { return keys[a] < keys[b]; });
        CHECK(first_difference(download(index_buffer), index) == matches);
    }
    {
        auto keys = upload(std::vector<cl_uint>{9, 5, 7, 1, 3, 8});
        openclaw::sort(queue, keys.slice(1, 4), AlgorithmPath::single_pass);
        CHECK(download(keys) == std::vector<cl_uint>{9, 1, 3, 5, 7, 8});
    }
    // Many in a row: a look-back that waited for a tile never started would hang here.
    {
        const auto many = random_values<cl_uint>(50000, 23);
        auto sorted_many = many;
        std::sort(sorted_many.begin(), sorted_many.end());
        auto keys = upload(many);
        for (int i = 0; i < 200; ++i) {
            queue.write(keys, many);
            openclaw::sort(queue, keys, AlgorithmPath::single_pass);
        }
        CHECK(first_difference(download(keys), sorted_many) == matches);
    }
    check_partition_unique_histogram(queue, download);
    check_scans_by_key(queue, AlgorithmPath::portable, download);
    check_scans_by_key(queue, AlgorithmPath::single_pass, download);
}
