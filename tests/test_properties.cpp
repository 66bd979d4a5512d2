// Property tests of the checks that guard the driver from the caller's numbers: ranges, the
// rectangular transfers' footprints, image host layouts and launch geometry, each fed random and
// near-SIZE_MAX values and compared with an exact model in 128-bit arithmetic (no wrap is
// possible there). A verdict that differs from the model is a wrapped product or sum, a missed
// limit or a refused valid case.
#include <openclaw/all.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <system_error>
#include <vector>

#include "support/catch.hpp"
#include "support/fixture.hpp"

using openclaw_test::env;

namespace {

__extension__ typedef unsigned __int128 u128;  // exact: products of two size_t values fit

constexpr std::size_t size_max = std::numeric_limits<std::size_t>::max();
constexpr int cases = 20000;

/// Numbers a caller can get wrong: small ones, powers of two and their neighbours, values near
/// SIZE_MAX and its square root, and uniform ones.
class Numbers {
  public:
    explicit Numbers(std::uint64_t seed) : engine_(seed) {}

    std::size_t next() {
        switch (pick(8)) {
            case 0:
                return pick(4);  // 0 .. 3
            case 1:
                return 1 + pick(64);
            case 2: {
                const std::size_t bit = std::size_t{1} << pick(64);
                return bit + pick(3) - 1;  // a power of two, or one either side
            }
            case 3:
                return size_max - pick(4096);
            case 4:
                return (std::size_t{1} << 32) - 2 + pick(4);  // the square root of SIZE_MAX + 1
            case 5:
                return size_max / (1 + pick(16));
            case 6:
                return pick(1u << 20);
            default:
                return static_cast<std::size_t>(engine_());
        }
    }
    /// A number small enough that the model's verdict is often "fits".
    std::size_t small() { return pick(2) == 0 ? 1 + pick(16) : next(); }
    /// As small(), never 0: a box's or region's size (zero sizes are refused before the
    /// footprint is computed: rect_extent, images::check_region).
    std::size_t extent() {
        const std::size_t n = small();
        return n == 0 ? 1 : n;
    }
    std::size_t pick(std::size_t n) { return static_cast<std::size_t>(engine_() % n); }

  private:
    std::mt19937_64 engine_;
};

bool fits(u128 value) {
    return value <= size_max;
}

}  // namespace

TEST_CASE("range checks agree with exact arithmetic near SIZE_MAX") {
    Numbers numbers(0x5eed0001);
    for (int i = 0; i < cases; ++i) {
        const std::size_t offset = numbers.next();
        const std::size_t count = numbers.next();
        const std::size_t size = numbers.next();
        const bool model = u128{offset} + count <= size;
        openclaw::Status status;
        const bool verdict =
            openclaw::detail::check_range("property", "range", offset, count, size, status);
        if (verdict != model || verdict == status.failed()) {
            FAIL_CHECK("offset " << offset << " count " << count << " size " << size << ": model "
                                 << model << ", check " << verdict);
        }
        std::size_t product = 0;
        std::size_t sum = 0;
        const bool mul = openclaw::detail::checked_mul(offset, count, product);
        const bool add = openclaw::detail::checked_add(offset, count, sum);
        const u128 exact_product = u128{offset} * count;
        if (mul != fits(exact_product) || (mul && product != exact_product) ||
            add != fits(u128{offset} + count) || (add && sum != u128{offset} + count)) {
            FAIL_CHECK("checked arithmetic of " << offset << " and " << count);
        }
    }
}

TEST_CASE("rectangular transfer footprints agree with exact arithmetic") {
    Numbers numbers(0x5eed0002);
    int accepted = 0;
    for (int i = 0; i < cases; ++i) {
        const std::array<std::size_t, 3> extent{numbers.extent(), numbers.extent(),
                                                numbers.extent()};
        openclaw::RectSide side;
        side.origin = {numbers.small(), numbers.small(), numbers.small()};
        side.row_pitch = numbers.pick(3) == 0 ? 0 : numbers.next();
        side.slice_pitch = numbers.pick(3) == 0 ? 0 : numbers.next();
        const std::size_t elements = numbers.pick(2) == 0 ? numbers.next() : size_max;
        const std::size_t element_size = std::size_t{1} << numbers.pick(5);
        // The model: pitches that hold the box, its last element inside the array, every byte
        // figure the driver is given representable.
        const u128 row = side.row_pitch == 0 ? extent[0] : side.row_pitch;
        const u128 rows = row * extent[1];
        const u128 slice = side.slice_pitch == 0 ? rows : side.slice_pitch;
        bool model = row >= extent[0] && slice >= rows && fits(rows);
        if (model) {
            // Each product is checked in size_t, so each must fit; then their sum (below 2^67
            // here) and the byte figures.
            const u128 terms[] = {side.origin[1] * row, (extent[1] - 1) * row,
                                  side.origin[2] * slice, (extent[2] - 1) * slice};
            u128 last = u128{side.origin[0]} + (extent[0] - 1);
            for (const u128 term : terms) {
                model = model && fits(term);
                last += model ? term : 0;
            }
            model = model && fits(last) && fits(row * element_size) && fits(slice * element_size) &&
                    fits(u128{side.origin[0]} * element_size) && fits(last * element_size) &&
                    last < elements;
        }
        openclaw::Status status;
        openclaw::detail::memory::RectBytes out{};
        const bool verdict = openclaw::detail::memory::rect_side(
            "property", "buffer", side, extent, elements, element_size, out, status);
        accepted += verdict ? 1 : 0;
        if (verdict != model || verdict == status.failed()) {
            FAIL_CHECK("extent " << extent[0] << "x" << extent[1] << "x" << extent[2] << " origin "
                                 << side.origin[0] << "," << side.origin[1] << "," << side.origin[2]
                                 << " pitches " << side.row_pitch << "/" << side.slice_pitch
                                 << " of " << elements << " x " << element_size << ": model "
                                 << model << ", check " << verdict);
        } else if (verdict && (out.row_pitch != row * element_size ||
                               out.slice_pitch != slice * element_size ||
                               out.origin[0] != side.origin[0] * element_size)) {
            FAIL_CHECK("the byte geometry of an accepted box is not the model's");
        }
    }
    INFO("accepted " << accepted << " of " << cases);
    CHECK(accepted > cases / 50);  // the valid side is exercised too
}

TEST_CASE("image host layouts agree with exact arithmetic") {
    Numbers numbers(0x5eed0003);
    int accepted = 0;
    for (int i = 0; i < cases; ++i) {
        openclaw::ImageRegion region;
        region.size = {numbers.extent(), numbers.extent(), numbers.extent()};
        region.row_pitch = numbers.pick(3) == 0 ? 0 : numbers.next();
        region.slice_pitch = numbers.pick(3) == 0 ? 0 : numbers.next();
        const std::size_t pixels = numbers.pick(2) == 0 ? numbers.next() : size_max - 1;
        const std::size_t pixel_size = std::size_t{1} << numbers.pick(5);
        const bool two_d = numbers.pick(2) == 0;
        const u128 row = region.row_pitch != 0 ? region.row_pitch : region.size[0];
        const u128 packed = row * region.size[1];
        const u128 slice = region.slice_pitch != 0 ? region.slice_pitch : packed;
        // The two products are checked in size_t one by one, then their sum.
        const bool products = fits(packed) && fits(slice) && fits((region.size[2] - 1) * slice) &&
                              fits((region.size[1] - 1) * row);
        const u128 needed =
            products ? (region.size[2] - 1) * slice + (region.size[1] - 1) * row + region.size[0]
                     : 0;
        // SIZE_MAX itself stands for "does not fit" in host_pixels(): no span is that large.
        const bool model = products && needed < size_max && fits(row * pixel_size) &&
                           fits(slice * pixel_size) && fits(needed * pixel_size) &&
                           row >= region.size[0] && slice >= packed && pixels >= needed;
        openclaw::Status status;
        std::size_t row_bytes = 0;
        std::size_t slice_bytes = 0;
        const bool verdict = openclaw::detail::images::host_layout(
            "property", region, pixels, pixel_size, two_d, row_bytes, slice_bytes, status);
        accepted += verdict ? 1 : 0;
        if (verdict != model || verdict == status.failed()) {
            FAIL_CHECK("region " << region.size[0] << "x" << region.size[1] << "x" << region.size[2]
                                 << " pitches " << region.row_pitch << "/" << region.slice_pitch
                                 << " span " << pixels << " x " << pixel_size << ": model " << model
                                 << ", check " << verdict);
        } else if (verdict && (row_bytes != row * pixel_size ||
                               slice_bytes != (two_d ? 0 : slice * pixel_size))) {
            FAIL_CHECK("the pitches of an accepted layout are not the model's");
        }
    }
    INFO("accepted " << accepted << " of " << cases);
    CHECK(accepted > cases / 50);
}

TEST_CASE("launch geometry verdicts agree with an exact model of the device's limits") {
    const auto program = openclaw::Program::build(env().context, "__kernel void nothing() {}");
    auto kernel = program.kernel<>("nothing");
    const std::vector<std::size_t> item_sizes = env().device.max_work_item_sizes();
    const std::size_t group_limit = env().device.max_work_group_size();
    Numbers numbers(0x5eed0004);
    int launched = 0;
    int refused = 0;
    for (int i = 0; i < 4000; ++i) {
        const cl_uint dims = static_cast<cl_uint>(1 + numbers.pick(3));
        std::array<std::size_t, 3> global{};
        std::array<std::size_t, 3> local{};
        const bool with_local = numbers.pick(2) == 0;
        for (cl_uint d = 0; d < dims; ++d) {
            global[d] = numbers.pick(2) == 0 ? numbers.pick(9) * 4 : numbers.next();
            local[d] = numbers.pick(2) == 0 ? std::size_t{1} << numbers.pick(4) : numbers.next();
        }
        // The model, in the order the launch checks (the first failure gives the code).
        cl_int model = CL_SUCCESS;
        u128 items = 1;
        u128 group = 1;
        for (cl_uint d = 0; d < dims && model == CL_SUCCESS; ++d) {
            items *= global[d];  // at most 2^192: kept exact by stopping at the first overflow
            if (global[d] == 0 || !fits(items)) {
                model = CL_INVALID_GLOBAL_WORK_SIZE;
            } else if (with_local && (local[d] == 0 || local[d] > item_sizes[d])) {
                model = CL_INVALID_WORK_ITEM_SIZE;
            } else if (with_local && global[d] % local[d] != 0) {
                model = CL_INVALID_WORK_GROUP_SIZE;
            }
            group *= with_local ? local[d] : 1;
        }
        if (model == CL_SUCCESS && with_local && group > group_limit) {
            model = CL_INVALID_WORK_GROUP_SIZE;
        }
        const auto range = [&](const std::array<std::size_t, 3>& v) {
            return dims == 1   ? openclaw::NDRange{v[0]}
                   : dims == 2 ? openclaw::NDRange{v[0], v[1]}
                               : openclaw::NDRange{v[0], v[1], v[2]};
        };
        if (model == CL_SUCCESS && items > (1u << 16)) {
            continue;  // valid, but too many work-items to run here
        }
        std::error_code ec;
        if (with_local) {
            env().queue.enqueue(kernel, range(global), range(local), openclaw::detail::no_wait, ec);
        } else {
            env().queue.enqueue(kernel, range(global), openclaw::detail::no_range,
                                openclaw::detail::no_wait, ec);
        }
        (model == CL_SUCCESS ? launched : refused) += 1;
        if (model == CL_SUCCESS ? static_cast<bool>(ec) : ec != openclaw::make_error_code(model)) {
            FAIL_CHECK("global " << global[0] << "x" << global[1] << "x" << global[2] << " ("
                                 << dims << " dimensions), local " << (with_local ? "" : "(none) ")
                                 << local[0] << "x" << local[1] << "x" << local[2] << ": model "
                                 << model << ", launch " << ec.value());
        }
    }
    env().queue.finish();
    INFO("launched " << launched << ", refused " << refused);
    CHECK(launched > 100);
    CHECK(refused > 100);
}
