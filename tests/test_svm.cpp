// Shared virtual memory: the capability query, SvmAllocator with std::vector, the map guard
// coarse-grain SVM needs, SVM pointers as kernel arguments, and the error on devices without SVM.
#include <openclaw/all.hpp>

#include <numeric>
#include <span>
#include <type_traits>
#include <utility>
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
__kernel void scale(__global const float* in, __global float* out, const float factor) {
    out[get_global_id(0)] = in[get_global_id(0)] * factor;
}
)CLC";

}  // namespace

TEST_CASE("the SVM level agrees with CL_DEVICE_SVM_CAPABILITIES") {
    const openclaw::SvmLevel level = openclaw::svm_level(env().device);
    INFO("\"" << env().device.name() << "\": " << openclaw::to_string(level));
    if (env().device.version() < openclaw::Version{2, 0}) {
        CHECK(level == openclaw::SvmLevel::none);
        return;
    }
    const auto caps = env().device.info<CL_DEVICE_SVM_CAPABILITIES>();
    CHECK(((caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER) != 0) ==
          (level >= openclaw::SvmLevel::coarse_grain));
    CHECK(((caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) != 0) ==
          (level >= openclaw::SvmLevel::fine_grain_buffer));
}

TEST_CASE("coarse-grain SVM: a std::vector, a map guard and kernel arguments") {
    if (openclaw::svm_level(env().device) < openclaw::SvmLevel::coarse_grain) {
        const auto error =
            thrown<openclaw::Error>([] { openclaw::SvmAllocator<float> allocator{env().context}; });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_OPERATION);
        CHECK_THAT(error->what(), has("supports none SVM"));
        return;
    }
    const std::size_t n = 4096;
    const openclaw::SvmAllocator<float> allocator{env().context};
    std::vector<float, openclaw::SvmAllocator<float>> in(n, allocator);
    std::vector<float, openclaw::SvmAllocator<float>> out(n, allocator);
    {
        auto host = env().queue.map_discard(openclaw::svm(std::span<float>(in)));
        std::iota(host.begin(), host.end(), 0.0f);
    }
    const auto program = openclaw::Program::build(env().context, source);
    auto scale = program.kernel<In<float>, Out<float>, cl_float>("scale");
    const float* read_only = in.data();
    env().queue.enqueue(scale.set_args(openclaw::svm(read_only), openclaw::svm(out.data()), 3.0f),
                        NDRange{n});
    env().queue.finish();
    {
        const auto host = env().queue.map_read(openclaw::svm(std::span<float>(out)));
        REQUIRE(host.size() == n);
        for (std::size_t i = 0; i < n; ++i) {
            if (host[i] != 3.0f * static_cast<float>(i)) {
                FAIL_CHECK("element " << i << " is " << host[i]);
            }
        }
    }
    // Allocators of one context compare equal (and rebind).
    const openclaw::SvmAllocator<int> ints = allocator;
    CHECK(ints == allocator);

    // The queue's SVM commands: fill (enqueued), copy (blocking), migrate (2.1 platforms).
    const openclaw::Event filled =
        env().queue.fill(openclaw::svm(std::span<float>(in)), 2.5f, openclaw::with_event);
    env().queue.copy(openclaw::svm(std::span<const float>(in).first(16)),
                     openclaw::svm(std::span<float>(out).first(16)), openclaw::after(filled));
    std::vector<float> host(16);
    env().queue.copy(openclaw::svm(std::span<const float>(out).first(16)), host);
    CHECK(host == std::vector<float>(16, 2.5f));
    // Host memory into SVM: the destination's commands take the copy.
    const std::vector<float> sevens(16, 7.0f);
    std::vector<float, openclaw::SvmAllocator<float>> spare(16, allocator);
    env().queue.copy(sevens, openclaw::svm(spare));
    env().queue.copy(openclaw::svm(spare), host);
    CHECK(host == sevens);
    const auto small = thrown<openclaw::Error>(
        [&] { env().queue.copy(openclaw::svm(out), std::span<float>(host).first(4)); });
    REQUIRE(small);
    CHECK_THAT(small->what(), has("clEnqueueSVMMemcpy: CL_INVALID_VALUE (-30): the destination "
                                  "holds 16 bytes, the source 16384"));
    // A fill whose destination is not aligned to its element (16 bytes, aligned to 4 in C++).
    struct Quad {
        float v[4];
    };
    const std::span<Quad> shifted(reinterpret_cast<Quad*>(in.data() + 1), 4);
    const auto misaligned = thrown<openclaw::Error>([&] {
        env().queue.fill(openclaw::svm(shifted), Quad{{1, 2, 3, 4}});
    });
    REQUIRE(misaligned);
    CHECK(misaligned->cl_code() == CL_INVALID_VALUE);
    CHECK_THAT(misaligned->what(), has("clEnqueueSVMMemFill: CL_INVALID_VALUE (-30): the "
                                       "destination is 4 bytes past a multiple of the pattern's "
                                       "16 bytes"));
    const openclaw::Version platform = env().device.platform().version();
    std::error_code ec;
    env().queue.migrate(openclaw::svm(std::span<float>(in)), {}, ec);
    if (platform >= openclaw::Version{2, 1}) {
        CHECK_FALSE(ec);
    } else {
        CHECK(ec == openclaw::make_error_code(CL_INVALID_OPERATION));
    }
    env().queue.finish();

    // The queue's SVM maps, each with its event on request; views move and unmap themselves.
    {
        auto [view, mapped] = env().queue.map_write(openclaw::svm(std::span<float>(out).first(4)),
                                                    openclaw::with_event);
        REQUIRE(view);
        REQUIRE(mapped);
        CHECK(mapped.info<CL_EVENT_COMMAND_TYPE>() == CL_COMMAND_SVM_MAP);
        view[0] = 7.0f;  // CL_MAP_WRITE: the other three keep 2.5
        openclaw::SvmMapping<float> moved = std::move(view);
        CHECK_FALSE(view);
        CHECK(moved.size() == 4);
        moved.unmap();
        CHECK_FALSE(moved);
        CHECK(moved.empty());
    }
    {
        auto [view, mapped] = env().queue.map_read_write(
            openclaw::svm(std::span<float>(out).first(4)), openclaw::with_event);
        REQUIRE(mapped);
        CHECK(view[0] == 7.0f);
        CHECK(view[1] == 2.5f);
        view[1] = 8.0f;
    }
    {
        auto [view, mapped] = env().queue.map_read(openclaw::svm(std::span<float>(out).first(2)),
                                                   openclaw::with_event);
        REQUIRE(mapped);
        static_assert(std::is_same_v<decltype(view[0]), const float&>);
        CHECK(view[1] == 8.0f);
    }
    {
        auto [view, mapped] = env().queue.map_discard(openclaw::svm(std::span<float>(out).first(2)),
                                                      openclaw::with_event);
        REQUIRE(mapped);
        CHECK(view.size() == 2);
    }
    const openclaw::Event migrated =
        env().queue.migrate(openclaw::svm(std::span<float>(in)), {}, openclaw::with_event, ec);
    CHECK(static_cast<bool>(migrated) == (platform >= openclaw::Version{2, 1}));
    // An unmap gives its event on request.
    {
        auto view = env().queue.map_write(openclaw::svm(std::span<float>(out).first(4)));
        view[0] = 7.0f;
        const openclaw::Event unmapped = view.unmap(openclaw::with_event);
        REQUIRE(unmapped);
        unmapped.wait();
        CHECK(view.empty());
    }
    // Nothing to map is an empty view, as for a buffer's empty range (the event asked for is a
    // marker's); a null pointer with elements is refused.
    const auto empty = env().queue.map_read(openclaw::svm(std::span<float>()));
    CHECK(empty.empty());
    const auto none = env().queue.map_read(openclaw::svm(std::span<float>(out).first(0)));
    CHECK(none.empty());
    auto [nothing, marker] = env().queue.map_write(
        openclaw::svm(std::span<float>(out).subspan(4, 0)), openclaw::with_event);
    CHECK(nothing.empty());
    REQUIRE(marker);
    marker.wait();
    const auto null = thrown<openclaw::Error>([&] {
        (void)env().queue.map_read(
            openclaw::svm(std::span<float>(static_cast<float*>(nullptr), 4)));
    });
    REQUIRE(null);
    CHECK(null->cl_code() == CL_INVALID_VALUE);
    CHECK_THAT(null->what(), has("clEnqueueSVMMap: CL_INVALID_VALUE (-30): the region is a null "
                                 "pointer"));
    env().queue.finish();
}

TEST_CASE("fine-grain SVM is touched by the host without mapping") {
    if (openclaw::svm_level(env().device) < openclaw::SvmLevel::fine_grain_buffer) {
        const auto error = thrown<openclaw::Error>([] {
            openclaw::SvmAllocator<float> allocator{env().context, true};
        });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_OPERATION);
        CHECK_THAT(error->what(), has("this allocator needs fine-grain buffer"));
        return;
    }
    const openclaw::SvmAllocator<float> allocator{env().context, true};
    std::vector<float, openclaw::SvmAllocator<float>> data(256, 2.0f, allocator);
    const auto program = openclaw::Program::build(env().context, source);
    auto scale = program.kernel<In<float>, Out<float>, cl_float>("scale");
    env().queue.enqueue(
        scale.set_args(openclaw::svm(data.data()), openclaw::svm(data.data()), 0.5f), NDRange{256});
    env().queue.finish();
    CHECK(data[0] == 1.0f);
    CHECK(data[255] == 1.0f);
}
