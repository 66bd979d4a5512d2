// Sub-buffers: aligned splits processed by separate launches, the alignment and range checks
// made before the driver sees them, nested sub-buffers, narrower access, and parents kept alive.
#include <openclaw/all.hpp>

#include <numeric>
#include <vector>

#include "support/catch.hpp"
#include "support/fixture.hpp"

using openclaw::InOut;
using openclaw::NDRange;
using openclaw_test::env;
using openclaw_test::has;
using openclaw_test::thrown;

namespace {

constexpr const char* source = R"CLC(
__kernel void add(__global float* data, const float amount) {
    data[get_global_id(0)] += amount;
}
)CLC";

std::size_t alignment_in_floats() {
    return env().device.mem_base_addr_align() / sizeof(float);
}

}  // namespace

TEST_CASE("sub_alignment converts the device's alignment from bits to elements") {
    const openclaw::ReadWriteBuffer<float> floats{env().context, 16};
    CHECK(floats.sub_alignment() == alignment_in_floats());
    CHECK(floats.sub_alignment() * sizeof(float) * 8 ==
          env().device.info<CL_DEVICE_MEM_BASE_ADDR_ALIGN>());
    struct Twelve {
        float x, y, z;
    };
    // 12-byte elements: the smallest offset that is a whole number of elements AND aligned.
    const openclaw::ReadWriteBuffer<Twelve> odd{env().context, 16};
    const std::size_t bytes = env().device.mem_base_addr_align();
    CHECK((odd.sub_alignment() * sizeof(Twelve)) % bytes == 0);
    CHECK(odd.sub_alignment() == std::lcm(bytes, sizeof(Twelve)) / sizeof(Twelve));
}

TEST_CASE("a buffer split four ways is processed by four launches, visible in the parent") {
    const std::size_t part = alignment_in_floats() * 64;
    const std::size_t n = 4 * part;
    std::vector<float> host(n);
    std::iota(host.begin(), host.end(), 0.0f);
    const openclaw::ReadWriteBuffer<float> whole{env().context, host};
    const auto program = openclaw::Program::build(env().context, source);
    auto add = program.kernel<InOut<float>, cl_float>("add");
    for (std::size_t k = 0; k < 4; ++k) {
        const auto quarter = whole.sub(k * part, part);
        CHECK(quarter.is_sub_buffer());
        CHECK(quarter.size() == part);
        env().queue.enqueue(add.set_args(quarter, 1000.0f * static_cast<float>(k + 1)),
                            NDRange{part});
    }
    std::vector<float> back(n);
    env().queue.read(whole, back);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const float expected = static_cast<float>(i) + 1000.0f * static_cast<float>(i / part + 1);
        wrong += back[i] == expected ? 0 : 1;
    }
    CHECK(wrong == 0);
}

TEST_CASE("a misaligned offset is refused with elements, bytes and the alignment") {
    const std::size_t align = alignment_in_floats();
    const openclaw::ReadWriteBuffer<float> whole{env().context, 4 * align};
    const auto error = thrown<openclaw::Error>([&] { (void)whole.sub(3, align); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_MISALIGNED_SUB_BUFFER_OFFSET);
    CHECK(error->call() == "clCreateSubBuffer");
    const std::size_t bytes = env().device.mem_base_addr_align();
    CHECK_THAT(error->what(), has("offset 3 elements (12 bytes; byte 12 of the root buffer) is "
                                  "not a multiple of the " +
                                  std::to_string(bytes) + "-byte base address alignment"));
    CHECK_THAT(error->what(), has(std::to_string(bytes * 8) + " bits"));
    CHECK_THAT(error->what(), has(env().device.name()));
    CHECK_THAT(error->what(), has("sub_alignment() = " + std::to_string(align) + " elements"));
}

TEST_CASE("sub-buffer ranges are checked before the driver sees them") {
    const std::size_t align = alignment_in_floats();
    const openclaw::ReadWriteBuffer<float> whole{env().context, 2 * align};
    const auto past = thrown<openclaw::Error>([&] { (void)whole.sub(align, align + 1); });
    REQUIRE(past);
    CHECK(past->cl_code() == CL_INVALID_VALUE);
    CHECK_THAT(past->what(),
               has("sub-buffer [" + std::to_string(align) + ", " + std::to_string(align) + " + " +
                   std::to_string(align + 1) + ") is out of range"));
    const auto empty = thrown<openclaw::Error>([&] { (void)whole.sub(0, 0); });
    REQUIRE(empty);
    CHECK(empty->cl_code() == CL_INVALID_BUFFER_SIZE);
}

TEST_CASE("a sub-buffer of a sub-buffer is cut from the root") {
    const std::size_t align = alignment_in_floats();
    std::vector<float> host(8 * align);
    std::iota(host.begin(), host.end(), 0.0f);
    const openclaw::ReadWriteBuffer<float> root{env().context, host};
    const auto middle = root.sub(2 * align, 4 * align);
    const auto inner = middle.sub(align, 2 * align);
    CHECK(inner.info<CL_MEM_ASSOCIATED_MEMOBJECT>() == root.get());
    CHECK(inner.info<CL_MEM_OFFSET>() == 3 * align * sizeof(float));
    std::vector<float> back(2 * align);
    env().queue.read(inner, back);
    CHECK(back.front() == static_cast<float>(3 * align));
    CHECK(back.back() == static_cast<float>(5 * align - 1));
    // Alignment is checked on the offset in the root.
    if (align > 1) {
        const auto error = thrown<openclaw::Error>([&] { (void)middle.sub(1, align); });
        REQUIRE(error);
        CHECK_THAT(error->what(), has("byte " + std::to_string((2 * align + 1) * sizeof(float)) +
                                      " of the root buffer"));
    }
}

TEST_CASE("a ReadWrite parent yields narrower sub-buffers") {
    const std::size_t align = alignment_in_floats();
    const openclaw::ReadWriteBuffer<float> root{env().context, 2 * align};
    const openclaw::ReadOnlyBuffer<float> readable = root.sub<openclaw::ReadOnly>(0, align);
    const openclaw::WriteOnlyBuffer<float> writable = root.sub<openclaw::WriteOnly>(align, align);
    CHECK((readable.info<CL_MEM_FLAGS>() & CL_MEM_READ_ONLY) != 0);
    CHECK((writable.info<CL_MEM_FLAGS>() & CL_MEM_WRITE_ONLY) != 0);
    const openclaw::ReadOnlyBuffer<float> same = readable.sub(0, align);  // keeps ReadOnly
    CHECK((same.info<CL_MEM_FLAGS>() & CL_MEM_READ_ONLY) != 0);
}

TEST_CASE("a sub-buffer keeps its root alive") {
    const std::size_t align = alignment_in_floats();
    openclaw::ReadWriteBuffer<float> part;
    cl_mem root_raw = nullptr;
    {
        const openclaw::ReadWriteBuffer<float> root{env().context,
                                                    std::vector<float>(2 * align, 4.0f)};
        root_raw = root.get();
        part = root.sub(align, align);
    }
    // The root variable is gone; the sub-buffer still holds a reference to the root.
    CHECK(openclaw::detail::get_info<cl_mem, CL_MEM_REFERENCE_COUNT>(openclaw::OnError{},
                                                                     root_raw) >= 1);
    std::vector<float> back(align);
    env().queue.read(part, back);
    CHECK(back[0] == 4.0f);
    // Wrapping a raw sub-buffer finds its root too.
    const auto wrapped = openclaw::ReadWriteBuffer<float>::retain(part.get());
    CHECK(wrapped.is_sub_buffer());
}
