// Mapped views: round trips through the host, views that outlive their Buffer and Queue
// variables, and launches or transfers refused while a conflicting view is alive.
#include <openclaw/all.hpp>

#include <algorithm>
#include <numeric>
#include <span>
#include <vector>

#include "support/catch.hpp"
#include "support/fixture.hpp"

using openclaw::In;
using openclaw::InOut;
using openclaw::NDRange;
using openclaw::Out;
using openclaw_test::env;
using openclaw_test::has;
using openclaw_test::thrown;

namespace {

constexpr const char* source = R"CLC(
__kernel void twice(__global int* data) { data[get_global_id(0)] *= 2; }
__kernel void copy(__global const int* in, __global int* out) {
    out[get_global_id(0)] = in[get_global_id(0)];
}
)CLC";

const openclaw::Program& program() {
    static const openclaw::Program built = openclaw::Program::build(env().context, source);
    return built;
}

}  // namespace

TEST_CASE("map_write, a kernel, then map_read: a round trip through the host") {
    const openclaw::ReadWriteBuffer<cl_int> buffer{env().context, 1000};
    {
        const openclaw::MappedSpan<cl_int> view = env().queue.map_write(buffer);
        REQUIRE(view.size() == 1000);
        std::iota(view.begin(), view.end(), 0);
    }  // unmapped here
    auto twice = program().kernel<InOut<cl_int>>("twice");
    env().queue.enqueue(twice.set_args(buffer), NDRange{1000});
    const openclaw::MappedSpan<const cl_int> result = env().queue.map_read(buffer);
    const std::span<const cl_int> values = result;  // usable as a span
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (values[i] != static_cast<cl_int>(2 * i)) {
            FAIL_CHECK("element " << i << " is " << values[i]);
        }
    }
    CHECK(std::accumulate(result.begin(), result.end(), 0L) == 999L * 1000L);
}

TEST_CASE("views of a range read and write only that range") {
    std::vector<cl_int> host(64);
    std::iota(host.begin(), host.end(), 0);
    const openclaw::ReadWriteBuffer<cl_int> buffer{env().context, host};
    {
        auto view = env().queue.map_read_write(buffer.slice(10, 4));
        REQUIRE(view.size() == 4);
        CHECK(view[0] == 10);
        CHECK(view[3] == 13);
        view[1] = -1;
    }
    std::vector<cl_int> back(64);
    env().queue.read(buffer, back);
    CHECK(back[10] == 10);
    CHECK(back[11] == -1);
    CHECK(back[12] == 12);

    const auto error =
        thrown<openclaw::Error>([&] { (void)env().queue.map_read(buffer.slice(60, 5)); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_VALUE);
    CHECK_THAT(error->what(), has("map [60, 60 + 5) is out of range: the buffer holds 64"));
    // An empty range maps nothing.
    const auto empty = env().queue.map_read(buffer.slice(64, 0));
    CHECK(empty.empty());
}

TEST_CASE("a view outlives the Buffer and Queue variables it came from") {
    openclaw::MappedSpan<const float> view;
    {
        const openclaw::Queue queue{env().context, env().device};
        const openclaw::ReadOnlyBuffer<float> buffer{env().context, std::vector<float>(8, 1.5f)};
        view = queue.map_read(buffer);
    }
    REQUIRE(view.size() == 8);
    CHECK(view[0] == 1.5f);
    CHECK(view[7] == 1.5f);
    view.unmap();
    CHECK(view.empty());
    CHECK(view.data() == nullptr);
    view.unmap();  // a second unmap does nothing
}

TEST_CASE("views move, and a moved-to view unmaps what it held") {
    const openclaw::ReadWriteBuffer<int> a{env().context, 16};
    const openclaw::ReadWriteBuffer<int> b{env().context, 16};
    auto first = env().queue.map_write(a);
    auto second = std::move(first);
    CHECK(first.empty());  // NOLINT(bugprone-use-after-move): checking the moved-from view
    CHECK(second.size() == 16);
    CHECK(a.info<CL_MEM_MAP_COUNT>() == 1);
    second = env().queue.map_write(b);  // unmaps a
    env().queue.finish();
    CHECK(a.info<CL_MEM_MAP_COUNT>() == 0);
    CHECK(b.info<CL_MEM_MAP_COUNT>() == 1);
}

TEST_CASE("a buffer mapped for writing cannot reach a kernel or a transfer") {
    const openclaw::ReadWriteBuffer<cl_int> buffer{env().context, 64};
    const openclaw::ReadWriteBuffer<cl_int> other{env().context, 64};
    auto copy = program().kernel<In<cl_int>, Out<cl_int>>("copy");
    auto view = env().queue.map_write(buffer);

    const auto as_argument = thrown<openclaw::Error>([&] { copy.set_args(buffer, other); });
    REQUIRE(as_argument);
    CHECK(as_argument->cl_code() == CL_INVALID_OPERATION);
    CHECK(as_argument->call() == "clSetKernelArg");
    CHECK_THAT(as_argument->what(), has("would be read while bytes [0, 256) are mapped for writing "
                                        "by a live MappedSpan"));
    std::vector<cl_int> host(64);
    const auto read = thrown<openclaw::Error>([&] { env().queue.read(buffer, host); });
    REQUIRE(read);
    CHECK(read->call() == "clEnqueueReadBuffer");
    CHECK(thrown<openclaw::Error>([&] { env().queue.write(buffer, host); }));
    CHECK(thrown<openclaw::Error>([&] { env().queue.copy(other, buffer); }));
    CHECK(thrown<openclaw::Error>([&] { env().queue.fill(buffer, 0); }));
    CHECK(thrown<openclaw::Error>([&] { (void)env().queue.map_read(buffer); }));

    view.unmap();
    copy.set_args(buffer, other);  // fine once unmapped
    env().queue.read(buffer, host);
}

TEST_CASE("a buffer mapped for reading may still be read, not written") {
    const openclaw::ReadWriteBuffer<cl_int> buffer{env().context, std::vector<cl_int>(64, 7)};
    const openclaw::ReadWriteBuffer<cl_int> other{env().context, 64};
    auto copy = program().kernel<In<cl_int>, Out<cl_int>>("copy");
    const auto view = env().queue.map_read(buffer);
    copy.set_args(buffer, other);  // the kernel only reads it
    std::vector<cl_int> host(64);
    env().queue.read(buffer, host);
    CHECK(host[0] == 7);
    const auto second = env().queue.map_read(buffer.slice(0, 8));  // two read mappings may overlap
    CHECK(second[0] == 7);

    const auto as_output = thrown<openclaw::Error>([&] { copy.set_args(other, buffer); });
    REQUIRE(as_output);
    CHECK_THAT(as_output->what(), has("would be written while bytes [0, 256) are mapped for "
                                      "reading"));
    CHECK(thrown<openclaw::Error>([&] { env().queue.write(buffer, host); }));
}

TEST_CASE("a mapping made after set_args is caught at launch") {
    const openclaw::ReadWriteBuffer<cl_int> buffer{env().context, 64};
    auto twice = program().kernel<InOut<cl_int>>("twice");
    twice.set_args(buffer);
    const auto view = env().queue.map_read(buffer);
    const auto error = thrown<openclaw::Error>([&] { env().queue.enqueue(twice, NDRange{64}); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_OPERATION);
    CHECK(error->call() == "clEnqueueNDRangeKernel");
}

TEST_CASE("mappings of a sub-buffer conflict only with overlapping uses of its root") {
    const std::size_t step = openclaw::ReadWriteBuffer<cl_int>{env().context, 1}.sub_alignment();
    const openclaw::ReadWriteBuffer<cl_int> root{env().context, 4 * step};
    const auto first = root.sub(0, step);
    const auto last = root.sub(3 * step, step);
    auto view = env().queue.map_write(first);
    std::vector<cl_int> host(step, 1);
    env().queue.write(last, host);  // no overlap: allowed
    const std::vector<cl_int> whole(4 * step, 2);
    const auto error = thrown<openclaw::Error>([&] { env().queue.write(root, whole); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_OPERATION);
}

TEST_CASE("map_write keeps what the host does not overwrite, map_discard need not") {
    std::vector<cl_int> host(256);
    std::iota(host.begin(), host.end(), 0);
    const openclaw::ReadWriteBuffer<cl_int> buffer{env().context, host};
    {
        auto view = env().queue.map_write(buffer.slice(16, 32));
        CHECK(view.size() == 32);
        view[0] = -1;  // one element of the 32; the other 31 keep their values
    }
    std::vector<cl_int> back(256);
    env().queue.read(buffer, back);
    CHECK(back[16] == -1);
    CHECK(back[17] == 17);
    CHECK(back[47] == 47);
    CHECK(back[48] == 48);
    {
        auto view = env().queue.map_discard(buffer);
        std::fill(view.begin(), view.end(), 5);
    }
    env().queue.read(buffer, back);
    CHECK(back == std::vector<cl_int>(256, 5));
}

TEST_CASE("maps give their command's event on request") {
    std::vector<cl_int> host(64);
    std::iota(host.begin(), host.end(), 0);
    const openclaw::ReadWriteBuffer<cl_int> buffer{env().context, host};
    {
        auto [view, event] = env().queue.map_read(buffer.slice(8, 8), openclaw::with_event);
        REQUIRE(event);
        CHECK(event.is_complete());  // blocking: mapped when the call returns
        CHECK(event.info<CL_EVENT_COMMAND_TYPE>() ==
              static_cast<cl_command_type>(CL_COMMAND_MAP_BUFFER));
        CHECK(view[0] == 8);
    }
    {
        auto [view, event] = env().queue.map_discard(buffer.slice(0, 4), openclaw::with_event);
        CHECK(event.is_complete());
        std::fill(view.begin(), view.end(), -2);
    }
    std::vector<cl_int> back(64);
    env().queue.read(buffer, back);
    CHECK(back[3] == -2);
    CHECK(back[4] == 4);
    // A refused map gives an empty view and no event.
    std::error_code ec;
    auto [none, no_event] = env().queue.map_write(buffer.slice(60, 8), openclaw::with_event, ec);
    CHECK(ec == openclaw::make_error_code(CL_INVALID_VALUE));
    CHECK_FALSE(no_event);
    CHECK(none.empty());
}

TEST_CASE("an unmap gives its event on request, for other queues to wait for") {
    const openclaw::ReadWriteBuffer<float> buffer{env().context, 64};
    auto view = env().queue.map_discard(buffer);
    for (std::size_t i = 0; i < view.size(); ++i) {
        view[i] = static_cast<float>(i) * 0.5f;
    }
    const openclaw::Event unmapped = view.unmap(openclaw::with_event);
    REQUIRE(unmapped);
    CHECK(view.empty());
    CHECK(unmapped.info<CL_EVENT_COMMAND_TYPE>() ==
          static_cast<cl_command_type>(CL_COMMAND_UNMAP_MEM_OBJECT));
    // Another queue reads after the unmap, by its event alone.
    const openclaw::Queue other{env().context, env().device};
    std::vector<float> back(64);
    other.read(buffer, back, openclaw::after(unmapped));
    CHECK(back[63] == 31.5f);
    // Nothing mapped: no command, no event.
    const openclaw::Event none = view.unmap(openclaw::with_event);
    CHECK_FALSE(none);
}
