// Buffers: creation, blocking transfers in element units, device-side copy and fill, and the
// errors for sizes and ranges that do not fit.
#include <openclaw/openclaw.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <span>
#include <vector>

#include "support/catch.hpp"
#include "support/fixture.hpp"

using openclaw_test::env;
using openclaw_test::has;
using openclaw_test::thrown;

namespace {

struct Particle {  // 12 bytes: not a fill pattern size the driver accepts
    float x, y, z;
    friend bool operator==(const Particle&, const Particle&) = default;
};

std::vector<int> iota(std::size_t n, int start = 0) {
    std::vector<int> values(n);
    std::iota(values.begin(), values.end(), start);
    return values;
}

}  // namespace

TEST_CASE("a buffer made from host data reads back the same elements") {
    const auto host = iota(1000);
    const openclaw::ReadOnlyBuffer<int> buffer{env().context, host};
    CHECK(buffer.size() == 1000);
    CHECK(buffer.size_bytes() == 4000);
    CHECK(buffer.info<CL_MEM_SIZE>() == 4000);
    CHECK((buffer.info<CL_MEM_FLAGS>() & CL_MEM_READ_ONLY) != 0);
    std::vector<int> back(1000, -1);
    buffer.read(env().queue, back);  // the host may read a buffer kernels only read
    CHECK(back == host);
}

TEST_CASE("access tags become the memory flags kernels see") {
    const openclaw::WriteOnlyBuffer<float> w{env().context, 4};
    const openclaw::ReadWriteBuffer<float> rw{env().context, 4};
    CHECK((w.info<CL_MEM_FLAGS>() & CL_MEM_WRITE_ONLY) != 0);
    CHECK((rw.info<CL_MEM_FLAGS>() & CL_MEM_READ_WRITE) != 0);
    // The host writes a write-only buffer and reads it back: access is about kernels.
    const std::vector<float> values = {1.5f, 2.5f, 3.5f, 4.5f};
    w.write(env().queue, values);
    std::vector<float> back(4);
    w.read(env().queue, back);
    CHECK(back == values);
}

TEST_CASE("partial reads and writes use element offsets") {
    const openclaw::ReadWriteBuffer<int> buffer{env().context, iota(100)};
    buffer.write_at(env().queue, 10, iota(5, 1000));
    std::vector<int> part(7);
    buffer.read_at(env().queue, 8, part);
    CHECK(part == std::vector<int>{8, 9, 1000, 1001, 1002, 1003, 1004});
    // The last element, and zero-sized transfers at the end, are in range.
    std::vector<int> last(1);
    buffer.read_at(env().queue, 99, last);
    CHECK(last[0] == 99);
    buffer.read_at(env().queue, 100, std::span<int>{});
    buffer.write_at(env().queue, 100, std::span<const int>{});
}

TEST_CASE("reading into a span smaller than the buffer is refused") {
    const openclaw::ReadWriteBuffer<float> buffer{env().context, 16};
    std::vector<float> small(10);
    const auto error = thrown<openclaw::Error>([&] { buffer.read(env().queue, small); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_VALUE);
    CHECK(error->call() == "clEnqueueReadBuffer");
    CHECK_THAT(error->what(), has("destination holds 10 elements, the buffer 16"));
}

TEST_CASE("out-of-range transfers are refused with the range and the size") {
    const openclaw::ReadWriteBuffer<int> buffer{env().context, 8};
    SECTION("a write larger than the buffer") {
        const auto error = thrown<openclaw::Error>([&] { buffer.write(env().queue, iota(9)); });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_VALUE);
        CHECK_THAT(error->what(), has("clEnqueueWriteBuffer: CL_INVALID_VALUE (-30): write [0, "
                                      "0 + 9) is out of range: the buffer holds 8 elements"));
    }
    SECTION("a read past the end") {
        std::vector<int> dst(4);
        const auto error = thrown<openclaw::Error>([&] { buffer.read_at(env().queue, 6, dst); });
        REQUIRE(error);
        CHECK_THAT(error->what(), has("read [6, 6 + 4) is out of range"));
    }
    SECTION("an offset so large that offset + count overflows") {
        std::vector<int> dst(2);
        const auto error = thrown<openclaw::Error>(
            [&] { buffer.read_at(env().queue, std::numeric_limits<std::size_t>::max(), dst); });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_VALUE);
    }
}

TEST_CASE("buffers of zero or too many elements are refused") {
    const auto empty = thrown<openclaw::Error>([] {
        openclaw::ReadWriteBuffer<float> buffer{env().context, 0};
    });
    REQUIRE(empty);
    CHECK(empty->cl_code() == CL_INVALID_BUFFER_SIZE);
    CHECK_THAT(empty->what(), has("count 0 elements of 4 bytes: a buffer needs at least one"));

    const auto huge = thrown<openclaw::Error>([] {
        openclaw::ReadWriteBuffer<double> buffer{env().context,
                                                 std::numeric_limits<std::size_t>::max() / 4};
    });
    REQUIRE(huge);
    CHECK(huge->cl_code() == CL_INVALID_BUFFER_SIZE);
    CHECK_THAT(huge->what(), has("overflows size_t"));
}

TEST_CASE("device-side copies move whole buffers and ranges") {
    const openclaw::ReadOnlyBuffer<int> src{env().context, iota(64)};
    const openclaw::ReadWriteBuffer<int> dst{env().context, 128};
    dst.fill(env().queue, -1);
    src.copy_to(env().queue, dst);
    src.copy_to(env().queue, dst, 10, 100, 5);
    std::vector<int> back(128);
    dst.read(env().queue, back);
    for (int i = 0; i < 64; ++i) {
        CHECK(back[static_cast<std::size_t>(i)] == i);
    }
    CHECK(back[64] == -1);
    CHECK(back[99] == -1);
    CHECK(std::vector<int>(back.begin() + 100, back.begin() + 105) == iota(5, 10));
    CHECK(back[105] == -1);

    const openclaw::WriteOnlyBuffer<int> small{env().context, 32};
    const auto error = thrown<openclaw::Error>([&] { src.copy_to(env().queue, small); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_VALUE);
    CHECK_THAT(error->what(), has("destination [0, 0 + 64) is out of range: the buffer holds 32"));
}

TEST_CASE("fill sets elements of any trivially copyable type") {
    SECTION("a power-of-two element size goes to clEnqueueFillBuffer") {
        const openclaw::ReadWriteBuffer<float> buffer{env().context, 1000};
        buffer.fill(env().queue, 2.5f);
        buffer.fill(env().queue, -1.0f, 10, 5);
        std::vector<float> back(1000);
        buffer.read(env().queue, back);
        CHECK(back[0] == 2.5f);
        CHECK(back[9] == 2.5f);
        CHECK(back[10] == -1.0f);
        CHECK(back[14] == -1.0f);
        CHECK(back[15] == 2.5f);
        CHECK(back[999] == 2.5f);
    }
    SECTION("a 12-byte struct is written from a host pattern") {
        const openclaw::ReadWriteBuffer<Particle> buffer{env().context, 33};
        const Particle p{1.0f, 2.0f, 3.0f};
        buffer.fill(env().queue, p);
        std::vector<Particle> back(33);
        buffer.read(env().queue, back);
        for (const Particle& q : back) {
            CHECK(q == p);
        }
    }
    SECTION("cl_float4 elements") {
        const openclaw::ReadWriteBuffer<cl_float4> buffer{env().context, 8};
        cl_float4 v;
        v.s[0] = 1.0f;
        v.s[1] = 2.0f;
        v.s[2] = 3.0f;
        v.s[3] = 4.0f;
        const openclaw::Event done = buffer.fill(env().queue, v, 0, 8, openclaw::with_event);
        done.wait();
        CHECK(done.is_complete());
        std::vector<cl_float4> back(8);
        buffer.read(env().queue, back);
        CHECK(back[7].s[3] == 4.0f);
    }
    SECTION("an out-of-range fill is refused") {
        const openclaw::ReadWriteBuffer<float> buffer{env().context, 10};
        const auto error = thrown<openclaw::Error>([&] { buffer.fill(env().queue, 0.f, 5, 6); });
        REQUIRE(error);
        CHECK(error->call() == "clEnqueueFillBuffer");
        CHECK_THAT(error->what(), has("fill [5, 5 + 6) is out of range"));
    }
}

TEST_CASE("events of copies complete and report their command") {
    const openclaw::ReadOnlyBuffer<int> src{env().context, iota(16)};
    const openclaw::ReadWriteBuffer<int> dst{env().context, 16};
    const openclaw::Event event = src.copy_to(env().queue, dst, 0, 0, 16, openclaw::with_event);
    REQUIRE(event);
    event.wait();
    CHECK(event.status() == CL_COMPLETE);
    CHECK(event.info<CL_EVENT_COMMAND_TYPE>() ==
          static_cast<cl_command_type>(CL_COMMAND_COPY_BUFFER));
    CHECK(event.info<CL_EVENT_COMMAND_QUEUE>() == env().queue.get());
}

TEST_CASE("a default-constructed or moved-from buffer holds no elements to transfer") {
    openclaw::ReadWriteBuffer<int> buffer{env().context, 4};
    const openclaw::ReadWriteBuffer<int> taken = std::move(buffer);
    CHECK(taken.size() == 4);
    CHECK(buffer.size() == 0);  // NOLINT(bugprone-use-after-move): checking the moved-from state
    CHECK_FALSE(static_cast<bool>(buffer));
    const auto error = thrown<openclaw::Error>([&] { buffer.write(env().queue, iota(4)); });
    REQUIRE(error);
    CHECK(std::string(error->what()) ==
          "clEnqueueWriteBuffer: CL_INVALID_VALUE (-30): write [0, 0 + 4) is out of range: the "
          "buffer holds 0 elements");
    const openclaw::ReadWriteBuffer<int> empty;
    const auto copy = thrown<openclaw::Error>([&] { taken.copy_to(env().queue, empty); });
    REQUIRE(copy);
    CHECK_THAT(copy->what(), has("destination [0, 0 + 4) is out of range: the buffer holds 0"));
}

TEST_CASE("an OnError governs its own call, never a sibling call of the same statement") {
    const std::vector<int> values = iota(16);
    const openclaw::ReadWriteBuffer<int> buffer{env().context, values};
    std::vector<int> host(16, -1);
    const openclaw::Queue no_queue;
    // Platform::list(ec) succeeds; the read beside it in the same expression gets the default
    // OnError and throws, whatever the order in which the arguments are evaluated and destroyed.
    std::error_code ec;
    const auto error = thrown<openclaw::Error>([&] {
        buffer.read_at(no_queue, openclaw::Platform::list(ec).size() * 0, std::span(host));
    });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_COMMAND_QUEUE);
    CHECK_FALSE(ec);
    // And the other way round: the recording call records, the sibling still throws.
    const auto sibling = thrown<openclaw::Error>([&] {
        buffer.read_at(no_queue, 0, std::span(host), {}, ec);
        buffer.read_at(no_queue, 0, std::span(host));
    });
    REQUIRE(sibling);
    CHECK(ec == openclaw::make_error_code(CL_INVALID_COMMAND_QUEUE));
    // A named OnError is a value: it records what it is given to, and only that.
    openclaw::Status status;
    const openclaw::OnError sink(status);
    CHECK_FALSE(
        thrown<openclaw::Error>([&] { buffer.read_at(no_queue, 0, std::span(host), {}, sink); }));
    CHECK(status.cl_code() == CL_INVALID_COMMAND_QUEUE);
    CHECK(thrown<openclaw::Error>([&] { buffer.read_at(no_queue, 0, std::span(host)); }));
    // The calls made on a call's behalf report to its OnError: an out-of-range read's message.
    openclaw::Status inner;
    buffer.read_at(env().queue, 10, std::span(host), {}, inner);
    CHECK(inner.cl_code() == CL_INVALID_VALUE);
    CHECK_THAT(inner.what(),
               has("read [10, 10 + 16) is out of range: the buffer holds 16 elements"));
    CHECK(host == std::vector<int>(16, -1));
}

TEST_CASE("host access options become CL_MEM_HOST_* flags, checked before the driver") {
    const auto host = iota(64);
    using openclaw::HostAccess;
    const openclaw::ReadOnlyBuffer<int> upload{
        env().context, host, {.host = HostAccess::write_only}};
    CHECK((upload.info<CL_MEM_FLAGS>() & CL_MEM_HOST_WRITE_ONLY) != 0);
    CHECK(upload.host_access() == HostAccess::write_only);
    upload.write(env().queue, std::span<const int>(host).first(8));  // the host may write it
    std::vector<int> back(64);
    const auto read = thrown<openclaw::Error>([&] { upload.read(env().queue, back); });
    REQUIRE(read);
    CHECK(read->cl_code() == CL_INVALID_OPERATION);
    CHECK_THAT(read->what(), has("clEnqueueReadBuffer: CL_INVALID_OPERATION (-59): the buffer "
                                 "was made with CL_MEM_HOST_WRITE_ONLY (HostAccess::write_only): "
                                 "the host may not read it"));
    const auto map = thrown<openclaw::Error>([&] { (void)upload.map_read(env().queue); });
    REQUIRE(map);
    CHECK_THAT(map->what(), has("clEnqueueMapBuffer: CL_INVALID_OPERATION"));

    const openclaw::WriteOnlyBuffer<int> result{env().context, 64, {.host = HostAccess::read_only}};
    CHECK(result.host_access() == HostAccess::read_only);
    result.read(env().queue, back);
    const auto write = thrown<openclaw::Error>([&] { result.write(env().queue, host); });
    REQUIRE(write);
    CHECK_THAT(write->what(), has("CL_MEM_HOST_READ_ONLY (HostAccess::read_only): the host may "
                                  "not write it"));
    const auto map_write = thrown<openclaw::Error>([&] { (void)result.map_write(env().queue); });
    REQUIRE(map_write);
    CHECK(map_write->cl_code() == CL_INVALID_OPERATION);

    // Device-only memory: copies and fills, no host transfer; sub-buffers inherit the flags.
    const openclaw::ReadWriteBuffer<int> scratch{env().context, 64, {.host = HostAccess::none}};
    scratch.fill(env().queue, 7);
    scratch.copy_to(env().queue, result);
    result.read(env().queue, back);
    CHECK(back == std::vector<int>(64, 7));
    const std::size_t step = scratch.sub_alignment();
    if (step <= 32) {
        const auto part = scratch.sub(step, step);
        CHECK(part.host_access() == HostAccess::none);
        std::vector<int> some(step);
        std::error_code ec;
        part.read(env().queue, std::span<int>(some), {}, ec);
        CHECK(ec == openclaw::make_error_code(CL_INVALID_OPERATION));
    }
    // A buffer adopted from a raw handle reads its flags from the driver.
    const auto shared = openclaw::ReadWriteBuffer<int>::retain(scratch.get());
    CHECK(shared.host_access() == HostAccess::none);
}

TEST_CASE("host-visible memory and buffers over host memory the buffer owns") {
    const auto host = iota(4096, 3);
    const openclaw::ReadWriteBuffer<int> pinned{env().context, host, {.host_memory = true}};
    CHECK((pinned.info<CL_MEM_FLAGS>() & CL_MEM_ALLOC_HOST_PTR) != 0);
    {
        const auto view = pinned.map_read(env().queue);
        CHECK(std::equal(view.begin(), view.end(), host.begin()));
    }
    // over(): the vector moves into the buffer, which frees it after the driver is done.
    std::vector<int> values = iota(4096, 100);
    const int* memory = values.data();
    auto over = openclaw::ReadWriteBuffer<int>::over(env().context, std::move(values));
    CHECK(over.size() == 4096);
    CHECK((over.info<CL_MEM_FLAGS>() & CL_MEM_USE_HOST_PTR) != 0);
    CHECK(over.info<CL_MEM_HOST_PTR>() == memory);  // the vector's own memory, not a copy
    {
        auto view = over.map_read_write(env().queue);
        CHECK(view[0] == 100);
        CHECK(view[4095] == 4195);
        view[1] = -1;
    }
    std::vector<int> back(4096);
    over.read(env().queue, back);
    CHECK(back[1] == -1);
    CHECK(back[2] == 102);
    // Nothing to own: refused, and the vector it was given is freed (the leak checks see it).
    const auto empty = thrown<openclaw::Error>(
        [&] { (void)openclaw::ReadWriteBuffer<int>::over(env().context, std::vector<int>{}); });
    REQUIRE(empty);
    CHECK(empty->cl_code() == CL_INVALID_BUFFER_SIZE);
    CHECK_THAT(empty->what(), has("a buffer over host memory needs at least one element"));
    const auto no_context = thrown<openclaw::Error>(
        [&] { (void)openclaw::ReadWriteBuffer<int>::over(openclaw::Context{}, iota(8)); });
    REQUIRE(no_context);
    CHECK(no_context->cl_code() == CL_INVALID_CONTEXT);
}

TEST_CASE("as<U>() views the same memory as another element type, sizes checked") {
    std::vector<float> host(64);
    std::iota(host.begin(), host.end(), 0.0f);
    const openclaw::ReadWriteBuffer<float> floats{env().context, host};
    const openclaw::ReadWriteBuffer<cl_float4> quads = floats.as<cl_float4>();
    CHECK(quads.size() == 16);
    CHECK(quads.get() == floats.get());
    std::vector<cl_float4> back(16);
    quads.read(env().queue, back);
    CHECK(back[3].s[0] == 12.0f);
    CHECK(back[3].s[3] == 15.0f);
    quads.fill(env().queue, cl_float4{{1.0f, 2.0f, 3.0f, 4.0f}}, 1, 1);
    std::vector<float> again(64);
    floats.read(env().queue, again);
    CHECK(again[4] == 1.0f);
    CHECK(again[7] == 4.0f);
    CHECK(again[8] == 8.0f);
    // A view shares mappings: mapping it for writing guards the other.
    {
        auto view = quads.map_write(env().queue);
        std::error_code ec;
        floats.read(env().queue, std::span<float>(again), {}, ec);
        CHECK(ec == openclaw::make_error_code(CL_INVALID_OPERATION));
    }
    const openclaw::ReadWriteBuffer<float> odd{env().context, 6};
    const auto error = thrown<openclaw::Error>([&] { (void)odd.as<cl_float4>(); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_BUFFER_SIZE);
    CHECK_THAT(error->what(), has("Buffer::as: CL_INVALID_BUFFER_SIZE (-61): a buffer of 6 4-byte "
                                  "elements (24 bytes) is not a whole number of 16-byte elements"));
    const auto empty =
        thrown<openclaw::Error>([&] { (void)openclaw::ReadWriteBuffer<float>{}.as<cl_uchar>(); });
    REQUIRE(empty);
    CHECK(empty->cl_code() == CL_INVALID_MEM_OBJECT);
}
