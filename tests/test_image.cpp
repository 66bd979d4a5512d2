// Images: creation checked against the device's limits and the context's formats, region
// transfers and mapped views, round trips with each pixel type, kernels that read one image and
// write another through a sampler, samplers, raw-handle interop and moved-from objects. A device
// without images (or without a format) is WARNed about and its error path checked instead.
#include <openclaw/all.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <span>
#include <type_traits>
#include <vector>

#include "support/catch.hpp"
#include "support/fixture.hpp"

using openclaw::Image2D;
using openclaw::Image2DArray;
using openclaw::Image3D;
using openclaw::ImageRegion;
using openclaw::NDRange;
using openclaw::ReadOnly;
using openclaw::ReadWrite;
using openclaw::WriteOnly;
using openclaw_test::env;
using openclaw_test::has;
using openclaw_test::thrown;
namespace pixel = openclaw::pixel;

namespace {

bool device_has_images() {
    return env().device.info<CL_DEVICE_IMAGE_SUPPORT>();
}

template <class Pixel, class Access = ReadWrite>
bool format_available(cl_mem_object_type type = CL_MEM_OBJECT_IMAGE2D) {
    return openclaw::detail::format_supported(env().context.get(), Access::flags, type,
                                              cl_image_format{Pixel::order, Pixel::type},
                                              openclaw::OnError{});
}

// Without image support every test checks the refusal instead and says so once.
bool images_or_refusal() {
    if (device_has_images()) {
        return true;
    }
    WARN("device has no image support (CL_DEVICE_IMAGE_SUPPORT is false): checking the refusal");
    const auto error =
        thrown<openclaw::Error>([] { Image2D<pixel::rgba8> image(env().context, 4, 4); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_OPERATION);
    CHECK_THAT(error->what(), has("no device of the context supports images"));
    return false;
}

// A pixel format no driver offers: CL_RGB goes with packed types only.
struct rgb_f32 {
    static constexpr cl_channel_order order = CL_RGB;
    static constexpr cl_channel_type type = CL_FLOAT;
    struct host_type {
        float r, g, b;
    };
    static constexpr const char* name = "rgb_f32 (CL_RGB, CL_FLOAT)";
};

template <class T>
bool same_bytes(const T& a, const T& b) {
    return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class Host>
Host pattern(std::size_t i);
template <>
cl_uchar4 pattern<cl_uchar4>(std::size_t i) {
    return {{static_cast<cl_uchar>(i), static_cast<cl_uchar>(i * 3), static_cast<cl_uchar>(i * 7),
             static_cast<cl_uchar>(255 - i)}};
}
template <>
cl_float4 pattern<cl_float4>(std::size_t i) {
    const auto f = static_cast<float>(i);
    return {{f, f * 0.5f, -f, f + 0.25f}};
}
template <>
cl_float pattern<cl_float>(std::size_t i) {
    return static_cast<float>(i) * 1.5f - 3.0f;
}
template <>
cl_uchar pattern<cl_uchar>(std::size_t i) {
    return static_cast<cl_uchar>(i * 5 + 1);
}

template <class Host>
std::vector<Host> patterned(std::size_t n) {
    std::vector<Host> values(n);
    for (std::size_t i = 0; i < n; ++i) {
        values[i] = pattern<Host>(i);
    }
    return values;
}

template <class Pixel>
void round_trip() {
    using Host = typename Pixel::host_type;
    INFO(Pixel::name);
    if (!format_available<Pixel>()) {
        WARN("the device does not offer " << Pixel::name << ": checking the refusal");
        const auto error =
            thrown<openclaw::Error>([] { Image2D<Pixel> image(env().context, 8, 4); });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_IMAGE_FORMAT_NOT_SUPPORTED);
        CHECK_THAT(error->what(), has(Pixel::name));
        return;
    }
    const std::vector<Host> source = patterned<Host>(8 * 4);
    const Image2D<Pixel> image(env().context, 8, 4, source);
    CHECK(image.width() == 8);
    CHECK(image.height() == 4);
    CHECK(image.pixel_count() == 32);
    CHECK(image.template image_info<CL_IMAGE_ELEMENT_SIZE>() == sizeof(Host));
    std::vector<Host> back(32);
    env().queue.read(image, back);
    for (std::size_t i = 0; i < back.size(); ++i) {
        if (!same_bytes(back[i], source[i])) {
            FAIL_CHECK("pixel " << i << " differs after the round trip");
        }
    }
    // A region written and read back: only it changes.
    const std::vector<Host> more = patterned<Host>(106);
    const std::vector<Host> patch(more.begin() + 100, more.end());
    env().queue.write(image, ImageRegion::rect(2, 1, 3, 2), patch);
    env().queue.read(image, back);
    for (std::size_t y = 0; y < 4; ++y) {
        for (std::size_t x = 0; x < 8; ++x) {
            const bool inside = x >= 2 && x < 5 && y >= 1 && y < 3;
            const Host& expected = inside ? patch[(y - 1) * 3 + (x - 2)] : source[y * 8 + x];
            if (!same_bytes(back[y * 8 + x], expected)) {
                FAIL_CHECK("pixel (" << x << ", " << y << ") is wrong after a region write");
            }
        }
    }
}

constexpr const char* source = R"CLC(
__constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                               CLK_FILTER_NEAREST;
__kernel void invert(read_only image2d_t in, write_only image2d_t out) {
    const int2 p = (int2)(get_global_id(0), get_global_id(1));
    const float4 v = read_imagef(in, nearest, p);
    write_imagef(out, p, (float4)(1.0f) - v);
}
__kernel void shift(read_only image2d_t in, sampler_t sampler, write_only image2d_t out, int dx) {
    const int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(out, p, read_imagef(in, sampler, p + (int2)(dx, 0)));
}
__kernel void layer_sum(read_only image2d_array_t in, write_only image2d_t out) {
    const int x = get_global_id(0), y = get_global_id(1);
    const float4 a = read_imagef(in, nearest, (int4)(x, y, 0, 0));
    const float4 b = read_imagef(in, nearest, (int4)(x, y, 1, 0));
    write_imagef(out, (int2)(x, y), a + b);
}
)CLC";

// Typed from its declaration: the source gives the shape and access, any pixel format fits.
constexpr char typed_source[] = R"CLC(
__kernel void brighten(read_only image2d_t in, sampler_t s, write_only image2d_t out, float by) {
    const int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(out, p, read_imagef(in, s, p) + (float4)(by));
}
)CLC";

const openclaw::Program& program() {
    static const openclaw::Program built = openclaw::Program::build(env().context, source);
    return built;
}

}  // namespace

TEST_CASE("images: round trips and region writes with each pixel type") {
    if (!images_or_refusal()) {
        return;
    }
    round_trip<pixel::rgba8>();
    round_trip<pixel::rgba_u8>();
    round_trip<pixel::rgba_f32>();
    round_trip<pixel::r_f32>();
    round_trip<pixel::r8>();
}

TEST_CASE("images: region reads honour the host row pitch") {
    if (!images_or_refusal()) {
        return;
    }
    const std::vector<cl_float4> source = patterned<cl_float4>(6 * 5);
    const Image2D<pixel::rgba_f32, ReadOnly> image(env().context, 6, 5, source);
    // 2 x 3 pixels from (3, 1) into rows of 4 pixels.
    ImageRegion region = ImageRegion::rect(3, 1, 2, 3);
    region.row_pitch = 4;
    CHECK(region.host_pixels() == 2 * 4 + 2);
    CHECK(ImageRegion{}.host_pixels() == 0);
    std::vector<cl_float4> dst(region.host_pixels(), cl_float4{{-1, -1, -1, -1}});
    env().queue.read(image, region, dst);
    for (std::size_t y = 0; y < 3; ++y) {
        for (std::size_t x = 0; x < 2; ++x) {
            CHECK(same_bytes(dst[y * 4 + x], source[(y + 1) * 6 + (x + 3)]));
        }
        if (y < 2) {
            CHECK(dst[y * 4 + 2].s[0] == -1.0f);  // the gap between rows is untouched
        }
    }
}

TEST_CASE("images: 3D images and 2D arrays round trip by slice and layer") {
    if (!images_or_refusal()) {
        return;
    }
    const std::vector<cl_float4> source = patterned<cl_float4>(4 * 3 * 2);
    SECTION("3D") {
        if (!format_available<pixel::rgba_f32>(CL_MEM_OBJECT_IMAGE3D)) {
            WARN("no rgba_f32 3D images on this device");
            return;
        }
        const Image3D<pixel::rgba_f32> volume(env().context, 4, 3, 2, source);
        CHECK(volume.depth() == 2);
        std::vector<cl_float4> slice(12);
        env().queue.read(volume, ImageRegion::box(0, 0, 1, 4, 3, 1), slice);
        for (std::size_t i = 0; i < 12; ++i) {
            CHECK(same_bytes(slice[i], source[12 + i]));
        }
        // A mapped box spans both slices: rows and slices are the driver's pitches apart.
        const auto view = env().queue.map_read(volume, ImageRegion::box(1, 1, 0, 2, 2, 2));
        REQUIRE(view);
        CHECK(view.slice_pitch() >= view.row_pitch() * 2);
        for (std::size_t z = 0; z < 2; ++z) {
            for (std::size_t y = 0; y < 2; ++y) {
                for (std::size_t x = 0; x < 2; ++x) {
                    CHECK(same_bytes(view.at(x, y, z), source[z * 12 + (y + 1) * 4 + x + 1]));
                }
            }
        }
    }
    SECTION("2D array") {
        if (!format_available<pixel::rgba_f32>(CL_MEM_OBJECT_IMAGE2D_ARRAY)) {
            WARN("no rgba_f32 2D array images on this device");
            return;
        }
        const Image2DArray<pixel::rgba_f32> layers(env().context, 4, 3, 2, source);
        CHECK(layers.layers() == 2);
        CHECK(layers.image_info<CL_IMAGE_ARRAY_SIZE>() == 2);
        std::vector<cl_float4> all(24);
        env().queue.read(layers, all);
        for (std::size_t i = 0; i < 24; ++i) {
            CHECK(same_bytes(all[i], source[i]));
        }
    }
}

TEST_CASE("images: mapped regions expose the driver's row pitch") {
    if (!images_or_refusal()) {
        return;
    }
    const std::vector<cl_uchar4> source = patterned<cl_uchar4>(16 * 8);
    const Image2D<pixel::rgba8> image(env().context, 16, 8, source);
    {
        const auto view = env().queue.map_read(image, ImageRegion::rect(4, 2, 5, 3));
        REQUIRE(view);
        CHECK(view.size()[0] == 5);
        CHECK(view.row_pitch() >= 5 * sizeof(cl_uchar4));
        CHECK(view.slice_pitch() == 0);
        for (std::size_t y = 0; y < 3; ++y) {
            for (std::size_t x = 0; x < 5; ++x) {
                CHECK(same_bytes(view.at(x, y), source[(y + 2) * 16 + x + 4]));
            }
        }
        // A write of the image is refused while a view of it lives.
        const auto error = thrown<openclaw::Error>([&] { env().queue.write(image, source); });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_OPERATION);
        CHECK_THAT(error->what(), has("clEnqueueWriteImage"));
    }
    {
        auto view = env().queue.map_write(image, ImageRegion::rect(0, 7, 16, 1));
        REQUIRE(view);
        for (cl_uchar4& p : view.row(0)) {
            p = cl_uchar4{{9, 8, 7, 6}};
        }
        view.unmap();
        CHECK_FALSE(view);
    }
    std::vector<cl_uchar4> back(16 * 8);
    env().queue.read(image, back);
    for (std::size_t i = 0; i < back.size(); ++i) {
        const cl_uchar4 expected = i >= 7 * 16 ? cl_uchar4{{9, 8, 7, 6}} : source[i];
        if (!same_bytes(back[i], expected)) {
            FAIL_CHECK("pixel " << i << " is wrong after map_write");
        }
    }
}

TEST_CASE("images: a kernel reads one image and writes another") {
    if (!images_or_refusal()) {
        return;
    }
    const std::size_t w = 13, h = 7;
    const std::vector<cl_float4> source = [&] {
        std::vector<cl_float4> v(w * h);
        for (std::size_t i = 0; i < v.size(); ++i) {
            const float f = static_cast<float>(i % 17) / 16.0f;
            v[i] = cl_float4{{f, 1.0f - f, 0.25f, 0.5f * f}};
        }
        return v;
    }();
    const Image2D<pixel::rgba_f32, ReadOnly> in(env().context, w, h, source);
    const Image2D<pixel::rgba_f32, WriteOnly> out(env().context, w, h);
    auto invert = program()
                      .kernel<openclaw::ReadImage2D<pixel::rgba_f32>,
                              openclaw::WriteImage2D<pixel::rgba_f32>>("invert");
    env().queue.enqueue(invert.set_args(in, out), NDRange{w, h});
    std::vector<cl_float4> result(w * h);
    env().queue.read(out, result);
    for (std::size_t i = 0; i < result.size(); ++i) {
        for (int c = 0; c < 4; ++c) {
            if (result[i].s[c] != 1.0f - source[i].s[c]) {
                FAIL_CHECK("pixel " << i << " channel " << c << " is " << result[i].s[c]);
            }
        }
    }

    SECTION("with a sampler argument: clamp to edge") {
        const openclaw::Sampler clamp(env().context, false, openclaw::AddressMode::clamp_to_edge,
                                      openclaw::FilterMode::nearest);
        auto shift = program()
                         .kernel<openclaw::ReadImage2D<pixel::rgba_f32>, openclaw::SamplerParam,
                                 openclaw::WriteImage2D<pixel::rgba_f32>, cl_int>("shift");
        env().queue.enqueue(shift.set_args(in, clamp, out, cl_int{3}), NDRange{w, h});
        env().queue.read(out, result);
        for (std::size_t y = 0; y < h; ++y) {
            for (std::size_t x = 0; x < w; ++x) {
                const std::size_t from = std::min(x + 3, w - 1);
                CHECK(same_bytes(result[y * w + x], source[y * w + from]));
            }
        }
    }

    SECTION("a launch is refused while the output is mapped") {
        const auto view = env().queue.map_read(out);
        const auto error = thrown<openclaw::Error>([&] {
            env().queue.enqueue(invert.set_args(in, out), NDRange{w, h});
        });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_OPERATION);
    }

    SECTION("the C++ signature is checked against the kernel's declaration") {
        // invert's first parameter is read_only: declaring it written is refused when arg info
        // is available (it is by default).
        openclaw::Status status;
        auto wrong = program()
                         .kernel<openclaw::WriteImage2D<pixel::rgba_f32>,
                                 openclaw::WriteImage2D<pixel::rgba_f32>>("invert", status);
        if (program().kernel_arg_info()) {
            CHECK_FALSE(wrong);
            CHECK(status.cl_code() == CL_INVALID_KERNEL_ARGS);
            CHECK_THAT(status.detail(), has("the kernel's image is read_only"));
        } else {
            WARN("no kernel arg info: the declaration check is skipped");
        }
    }
}

TEST_CASE("images: a 2D array read in a kernel") {
    if (!images_or_refusal()) {
        return;
    }
    if (!format_available<pixel::rgba_f32, ReadOnly>(CL_MEM_OBJECT_IMAGE2D_ARRAY)) {
        WARN("no rgba_f32 2D array images on this device");
        return;
    }
    const std::vector<cl_float4> source = patterned<cl_float4>(5 * 4 * 2);
    const Image2DArray<pixel::rgba_f32, ReadOnly> layers(env().context, 5, 4, 2, source);
    const Image2D<pixel::rgba_f32, WriteOnly> out(env().context, 5, 4);
    auto sum = program()
                   .kernel<openclaw::ReadImage2DArray<pixel::rgba_f32>,
                           openclaw::WriteImage2D<pixel::rgba_f32>>("layer_sum");
    env().queue.enqueue(sum.set_args(layers, out), NDRange{5, 4});
    std::vector<cl_float4> result(20);
    env().queue.read(out, result);
    for (std::size_t i = 0; i < 20; ++i) {
        for (int c = 0; c < 4; ++c) {
            CHECK(result[i].s[c] == source[i].s[c] + source[20 + i].s[c]);
        }
    }
}

TEST_CASE("samplers report their properties") {
    if (!images_or_refusal()) {
        return;
    }
    const openclaw::Sampler a(env().context, true, openclaw::AddressMode::repeat,
                              openclaw::FilterMode::linear);
    CHECK(a.normalized_coords());
    CHECK(a.addressing() == openclaw::AddressMode::repeat);
    CHECK(a.filter() == openclaw::FilterMode::linear);
    CHECK(a.context_handle() == env().context.get());
    const openclaw::Sampler b(env().context, false, openclaw::AddressMode::clamp,
                              openclaw::FilterMode::nearest);
    CHECK_FALSE(b.normalized_coords());
    CHECK(b.addressing() == openclaw::AddressMode::clamp);
    CHECK(b.filter() == openclaw::FilterMode::nearest);

    const auto error = thrown<openclaw::Error>([] {
        openclaw::Sampler s(env().context, false, openclaw::AddressMode::mirrored_repeat,
                            openclaw::FilterMode::nearest);
    });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_VALUE);
    CHECK_THAT(error->what(), has("CL_ADDRESS_MIRRORED_REPEAT needs normalized coordinates"));
}

TEST_CASE("images: bad input is refused with the call, the code and the value") {
    if (!images_or_refusal()) {
        return;
    }
    SECTION("an unsupported pixel format") {
        const auto error =
            thrown<openclaw::Error>([] { Image2D<rgb_f32> image(env().context, 4, 4); });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_IMAGE_FORMAT_NOT_SUPPORTED);
        CHECK(error->call() == "clCreateImage");
        CHECK_THAT(error->what(), has("rgb_f32 (CL_RGB, CL_FLOAT) is not supported"));
    }
    SECTION("extents past the device's limits") {
        const std::size_t max_width = env().device.info<CL_DEVICE_IMAGE2D_MAX_WIDTH>();
        const auto error = thrown<openclaw::Error>(
            [&] { Image2D<pixel::rgba8> image(env().context, max_width + 1, 1); });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_IMAGE_SIZE);
        CHECK_THAT(error->what(),
                   has(openclaw::detail::concat("width ", max_width + 1,
                                                " exceeds CL_DEVICE_IMAGE2D_MAX_WIDTH")));
        const auto zero =
            thrown<openclaw::Error>([] { Image2D<pixel::rgba8> image(env().context, 0, 4); });
        REQUIRE(zero);
        CHECK(zero->cl_code() == CL_INVALID_IMAGE_SIZE);
    }
    SECTION("host spans and regions that do not fit") {
        const std::vector<cl_uchar4> three(3);
        const auto init = thrown<openclaw::Error>(
            [&] { Image2D<pixel::rgba8> image(env().context, 2, 2, three); });
        REQUIRE(init);
        CHECK(init->cl_code() == CL_INVALID_VALUE);
        CHECK_THAT(init->what(), has("the host span holds 3 pixels"));

        const Image2D<pixel::rgba8> image(env().context, 8, 8);
        std::vector<cl_uchar4> small(63);
        const auto read = thrown<openclaw::Error>([&] { env().queue.read(image, small); });
        REQUIRE(read);
        CHECK(read->call() == "clEnqueueReadImage");
        CHECK_THAT(read->what(), has("the host span holds 63 pixels"));
        CHECK_THAT(read->what(), has("needs 64"));

        const auto outside = thrown<openclaw::Error>(
            [&] { env().queue.write(image, ImageRegion::rect(6, 0, 3, 1), small); });
        REQUIRE(outside);
        CHECK(outside->cl_code() == CL_INVALID_VALUE);
        CHECK_THAT(outside->what(), has("is outside the image of 8 x 8 x 1 pixels"));

        const auto flat = thrown<openclaw::Error>([&] {
            env().queue.read(image, ImageRegion{{0, 0, 0}, {2, 2, 0}}, small);
        });
        REQUIRE(flat);
        CHECK_THAT(flat->what(), has("use ImageRegion::rect"));

        std::error_code code;
        const auto view = env().queue.map_read(image, ImageRegion::rect(0, 8, 1, 1), code);
        CHECK_FALSE(view);
        CHECK(code.value() == CL_INVALID_VALUE);
    }
    SECTION("an image of another context") {
        const openclaw::Context other{env().device};
        const Image2D<pixel::rgba8> foreign(other, 4, 4);
        std::vector<cl_uchar4> dst(16);
        const auto error = thrown<openclaw::Error>([&] { env().queue.read(foreign, dst); });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_CONTEXT);
        CHECK_THAT(error->what(), has("the queue and the image belong to different contexts"));

        const Image2D<pixel::rgba8> out(env().context, 4, 4);
        auto invert =
            program()
                .kernel<openclaw::ReadImage2D<pixel::rgba8>, openclaw::WriteImage2D<pixel::rgba8>>(
                    "invert");
        const auto set = thrown<openclaw::Error>([&] { invert.set_args(foreign, out); });
        REQUIRE(set);
        CHECK(set->cl_code() == CL_INVALID_CONTEXT);
        CHECK_THAT(set->what(), has("is an image of another context"));
    }
    SECTION("adopting a memory object of another shape or format") {
        const Image2D<pixel::rgba8> image(env().context, 4, 4);
        const auto shape =
            thrown<openclaw::Error>([&] { (void)Image3D<pixel::rgba8>::retain(image.get()); });
        REQUIRE(shape);
        CHECK(shape->cl_code() == CL_INVALID_MEM_OBJECT);
        CHECK_THAT(shape->what(), has("not a image3d_t image"));
        const auto format =
            thrown<openclaw::Error>([&] { (void)Image2D<pixel::rgba_u8>::retain(image.get()); });
        REQUIRE(format);
        CHECK(format->cl_code() == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
        CHECK_THAT(format->what(), has("the image's format is (CL_RGBA, CL_UNORM_INT8)"));
        CHECK(image.info<CL_MEM_REFERENCE_COUNT>() == 1);  // the failed retains released theirs
    }
}

TEST_CASE("images: empty and moved-from images, adopt and retain") {
    if (!images_or_refusal()) {
        return;
    }
    Image2D<pixel::rgba8> image(env().context, 4, 2);
    const cl_mem raw = image.get();
    CHECK(image.info<CL_MEM_REFERENCE_COUNT>() == 1);
    {
        const auto shared = Image2D<pixel::rgba8>::retain(raw);
        CHECK(shared.width() == 4);
        CHECK(shared.height() == 2);
        CHECK(shared.context_handle() == env().context.get());
        CHECK(image.info<CL_MEM_REFERENCE_COUNT>() == 2);
        const Image2D<pixel::rgba8> copy = shared;  // NOLINT: copying shares
        CHECK(image.info<CL_MEM_REFERENCE_COUNT>() == 3);
    }
    CHECK(image.info<CL_MEM_REFERENCE_COUNT>() == 1);

    Image2D<pixel::rgba8> moved = std::move(image);
    CHECK(moved.get() == raw);
    CHECK_FALSE(image);  // NOLINT(bugprone-use-after-move): moved-from is empty
    CHECK(image.empty());
    CHECK(image.width() == 0);
    CHECK(image.context_handle() == nullptr);
    std::vector<cl_uchar4> dst(8);
    const auto error = thrown<openclaw::Error>([&] { env().queue.read(image, dst); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_MEM_OBJECT);
    CHECK_THAT(error->what(), has("the image is empty"));

    const Image2D<pixel::rgba8> out(env().context, 4, 2);
    auto invert =
        program().kernel<openclaw::ReadImage2D<pixel::rgba8>, openclaw::WriteImage2D<pixel::rgba8>>(
            "invert");
    const auto set = thrown<openclaw::Error>([&] { invert.set_args(image, out); });
    REQUIRE(set);
    CHECK(set->cl_code() == CL_INVALID_ARG_VALUE);
    CHECK_THAT(set->what(), has("an empty (default-constructed or moved-from) image"));

    // adopt takes over the caller's reference.
    cl_int code = CL_SUCCESS;
    const cl_image_format format{CL_RGBA, CL_UNORM_INT8};
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = 3;
    desc.image_height = 5;
    cl_mem fresh =
        clCreateImage(env().context.get(), CL_MEM_READ_WRITE, &format, &desc, nullptr, &code);
    REQUIRE(code == CL_SUCCESS);
    {
        const auto adopted = Image2D<pixel::rgba8>::adopt(fresh);
        CHECK(adopted.width() == 3);
        CHECK(adopted.height() == 5);
        REQUIRE(clRetainMemObject(fresh) == CL_SUCCESS);
        CHECK(adopted.info<CL_MEM_REFERENCE_COUNT>() == 2);
    }
    cl_uint count = 0;
    REQUIRE(clGetMemObjectInfo(fresh, CL_MEM_REFERENCE_COUNT, sizeof(count), &count, nullptr) ==
            CL_SUCCESS);
    CHECK(count == 1);  // the adopted reference was released
    REQUIRE(clReleaseMemObject(fresh) == CL_SUCCESS);

    // Samplers: retain and moved-from.
    openclaw::Sampler sampler(env().context, false, openclaw::AddressMode::none,
                              openclaw::FilterMode::nearest);
    {
        const auto shared = openclaw::Sampler::retain(sampler.get());
        CHECK(shared.info<CL_SAMPLER_REFERENCE_COUNT>() == 2);
        CHECK(shared.context_handle() == env().context.get());
    }
    CHECK(sampler.info<CL_SAMPLER_REFERENCE_COUNT>() == 1);
    const openclaw::Sampler taken = std::move(sampler);
    CHECK(taken);
    CHECK_FALSE(sampler);  // NOLINT(bugprone-use-after-move)
    CHECK(sampler.context_handle() == nullptr);
}

TEST_CASE("images: a kernel typed from its source takes images of any pixel format") {
    if (!images_or_refusal()) {
        return;
    }
    if (!format_available<pixel::r_f32, ReadOnly>() ||
        !format_available<pixel::r_f32, WriteOnly>()) {
        WARN("no r_f32 images on this device");
        return;
    }
    const openclaw::Program typed = openclaw::Program::build(env().context, typed_source);
    auto brighten = typed.kernel<typed_source, "brighten">();
    static_assert(
        std::is_same_v<decltype(brighten),
                       openclaw::Kernel<openclaw::ReadImage2D<pixel::any>, openclaw::SamplerParam,
                                        openclaw::WriteImage2D<pixel::any>, float>>);
    const openclaw::Sampler sampler(env().context, false, openclaw::AddressMode::none,
                                    openclaw::FilterMode::nearest);
    const std::vector<cl_float> values = patterned<cl_float>(6 * 3);
    const Image2D<pixel::r_f32, ReadOnly> in(env().context, 6, 3, values);
    const Image2D<pixel::r_f32, WriteOnly> out(env().context, 6, 3);
    env().queue.enqueue(brighten.set_args(in, sampler, out, 0.5f), NDRange{6, 3});
    std::vector<cl_float> result(18);
    env().queue.read(out, result);
    for (std::size_t i = 0; i < result.size(); ++i) {
        CHECK(result[i] == values[i] + 0.5f);
    }
}

TEST_CASE("images: fill, copies to and from buffers, and between images") {
    if (!images_or_refusal()) {
        return;
    }
    const openclaw::Queue& queue = env().queue;
    Image2D<pixel::rgba8> image{env().context, 8, 4};
    queue.fill(image, ImageRegion::rect(0, 0, 8, 4), cl_float4{{1.0f, 0.0f, 0.5f, 1.0f}});
    const openclaw::Event filled =
        queue.fill(image, ImageRegion::rect(2, 1, 2, 2), cl_float4{{0.0f, 1.0f, 0.0f, 1.0f}},
                   openclaw::with_event);
    filled.wait();
    // Image to buffer: packed pixels of the image's host type.
    const openclaw::ReadWriteBuffer<cl_uchar4> pixels{env().context, 40};
    queue.fill(pixels, cl_uchar4{{9, 9, 9, 9}});
    queue.copy(image, ImageRegion::rect(0, 0, 8, 4), pixels.slice(8));
    std::vector<cl_uchar4> host(40);
    queue.read(pixels, host);
    CHECK(host[7].s[0] == 9);  // before the slice: untouched
    CHECK(host[8].s[0] == 255);
    CHECK(host[8].s[1] == 0);
    CHECK((host[8].s[2] == 127 || host[8].s[2] == 128));  // 0.5 rounds either way
    CHECK(host[8 + 1 * 8 + 2].s[1] == 255);               // (2, 1): the second fill
    CHECK(host[8 + 1 * 8 + 2].s[0] == 0);
    // Buffer to image, and image to image at another origin.
    Image2D<pixel::rgba8> copy{env().context, 8, 4};
    queue.copy(pixels.slice(8, 32), copy, ImageRegion::rect(0, 0, 8, 4));
    Image2D<pixel::rgba8> shifted{env().context, 8, 4};
    queue.fill(shifted, ImageRegion::rect(0, 0, 8, 4), cl_float4{{0.0f, 0.0f, 0.0f, 0.0f}});
    queue.copy(copy, ImageRegion::rect(2, 1, 2, 2), shifted, {5, 2, 0});
    std::vector<cl_uchar4> one(1);
    queue.read(shifted, ImageRegion::rect(5, 2, 1, 1), std::span<cl_uchar4>(one));
    CHECK(one[0].s[1] == 255);
    queue.read(shifted, ImageRegion::rect(0, 0, 1, 1), std::span<cl_uchar4>(one));
    CHECK(one[0].s[3] == 0);

    // What the driver would refuse or misread is refused first, with the reason.
    // (A colour of the wrong kind does not compile: compile-fail test image_fill_colour.)
    const auto small = thrown<openclaw::Error>(
        [&] { queue.copy(image, ImageRegion::rect(0, 0, 8, 4), pixels.slice(0, 16)); });
    REQUIRE(small);
    CHECK_THAT(small->what(), has("clEnqueueCopyImageToBuffer: CL_INVALID_VALUE (-30): the buffer "
                                  "region holds 16 elements (64 bytes), the image region 32 "
                                  "pixels of 4 bytes"));
    const auto outside = thrown<openclaw::Error>([&] {
        queue.copy(copy, ImageRegion::rect(0, 0, 4, 4), shifted, {6, 0, 0});
    });
    REQUIRE(outside);
    CHECK_THAT(outside->what(), has("is outside the image of 8 x 4 x 1 pixels"));
    // (Images of different formats do not compile: compile-fail test image_copy_format.)
    // A fill, like a write, is refused while a view of the image is mapped.
    {
        const auto view = queue.map_read(image);
        std::error_code ec;
        queue.fill(image, ImageRegion::rect(0, 0, 1, 1), cl_float4{}, ec);
        CHECK(ec == openclaw::make_error_code(CL_INVALID_OPERATION));
    }
}

TEST_CASE("images: every image command gives its event on request") {
    if (!images_or_refusal()) {
        return;
    }
    const openclaw::Queue& queue = env().queue;
    const std::vector<cl_uchar4> source = patterned<cl_uchar4>(8 * 4);
    Image2D<pixel::rgba8> image{env().context, 8, 4};
    const openclaw::Event written = queue.write(image, image.whole(), source, openclaw::with_event);
    REQUIRE(written);
    CHECK(written.status() == CL_COMPLETE);  // a blocking command: done when it returns
    CHECK(written.info<CL_EVENT_COMMAND_TYPE>() == CL_COMMAND_WRITE_IMAGE);
    std::vector<cl_uchar4> back(8 * 4);
    const openclaw::Event read = queue.read(image, image.whole(), back, openclaw::with_event);
    REQUIRE(read);
    CHECK(read.info<CL_EVENT_COMMAND_TYPE>() == CL_COMMAND_READ_IMAGE);
    for (std::size_t i = 0; i < back.size(); ++i) {
        if (!same_bytes(back[i], source[i])) {
            FAIL_CHECK("pixel " << i << " differs after the evented round trip");
        }
    }
    {
        auto [view, mapped] =
            queue.map_read(image, ImageRegion::rect(1, 1, 2, 2), openclaw::with_event);
        REQUIRE(view);
        REQUIRE(mapped);
        CHECK(mapped.info<CL_EVENT_COMMAND_TYPE>() == CL_COMMAND_MAP_IMAGE);
        CHECK(same_bytes(view.at(1, 1), source[2 * 8 + 2]));
    }
    {
        auto [view, mapped] =
            queue.map_discard(image, ImageRegion::rect(0, 3, 8, 1), openclaw::with_event);
        REQUIRE(view);
        CHECK(mapped.info<CL_EVENT_COMMAND_TYPE>() == CL_COMMAND_MAP_IMAGE);
        for (cl_uchar4& p : view.row(0)) {
            p = cl_uchar4{{1, 2, 3, 4}};
        }
    }
    {
        auto [view, mapped] =
            queue.map_write(image, ImageRegion::rect(0, 0, 1, 1), openclaw::with_event);
        REQUIRE(mapped);
        view.at(0, 0) = cl_uchar4{{5, 6, 7, 8}};
    }
    {
        auto [view, mapped] =
            queue.map_read_write(image, ImageRegion::rect(0, 0, 1, 1), openclaw::with_event);
        REQUIRE(mapped);
        CHECK(view.at(0, 0).s[0] == 5);
    }
    Image2D<pixel::rgba8> other{env().context, 8, 4};
    const openclaw::Event copied =
        queue.copy(image, image.whole(), other, {0, 0, 0}, openclaw::with_event);
    REQUIRE(copied);
    CHECK(copied.info<CL_EVENT_COMMAND_TYPE>() == CL_COMMAND_COPY_IMAGE);
    copied.wait();
    queue.read(other, back);
    CHECK(back[0].s[0] == 5);
    CHECK(back[3 * 8 + 5].s[2] == 3);
    // An image is a memory object: the queue migrates it as it migrates a buffer.
    const openclaw::Event migrated = queue.migrate(other, {.to_host = true}, openclaw::with_event);
    REQUIRE(migrated);
    CHECK(migrated.info<CL_EVENT_COMMAND_TYPE>() == CL_COMMAND_MIGRATE_MEM_OBJECTS);
    migrated.wait();
    // A refused command gives no event and reports why.
    std::error_code ec;
    const openclaw::Event refused =
        queue.read(image, ImageRegion::rect(7, 0, 2, 1), back, openclaw::with_event, ec);
    CHECK(ec == openclaw::make_error_code(CL_INVALID_VALUE));
    CHECK_FALSE(refused);
}

TEST_CASE("images: pitches near SIZE_MAX are refused, never wrapped") {
    if (!images_or_refusal()) {
        return;
    }
    Image2D<pixel::rgba8> image{env().context, 1024, 2};
    std::vector<cl_uchar4> host(1024 * 2);
    constexpr std::size_t huge = std::numeric_limits<std::size_t>::max();
    for (const std::size_t row_pitch : {huge - 1023, huge / 4 + 1, huge / 2, huge}) {
        INFO("row pitch " << row_pitch);
        ImageRegion region = ImageRegion::rect(0, 0, 1024, 2);
        region.row_pitch = row_pitch;
        std::error_code ec;
        env().queue.read(image, region, host, ec);
        CHECK(ec == openclaw::make_error_code(CL_INVALID_VALUE));
        env().queue.write(image, region, host, ec);
        CHECK(ec == openclaw::make_error_code(CL_INVALID_VALUE));
    }
    ImageRegion slices = ImageRegion::rect(0, 0, 1024, 2);
    slices.slice_pitch = huge;
    const auto error = thrown<openclaw::Error>([&] { env().queue.read(image, slices, host); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_VALUE);
    CHECK_THAT(error->what(), has("clEnqueueReadImage"));
}
