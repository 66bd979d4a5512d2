// SPDX-License-Identifier: Apache-2.0
#pragma once
// Image2D / Image3D / Image2DArray<Pixel, Access>: OpenCL images whose pixel format is part of
// the type (pixel::rgba8, pixel::r_f32, ...), so the host element type of every transfer and the
// kernel parameters they may be passed to are checked at compile time. Also the region
// transfers and mapped views of images, and Sampler.

#include <openclaw/buffer.hpp>
#include <openclaw/context.hpp>
#include <openclaw/detail/handle.hpp>
#include <openclaw/detail/info.hpp>
#include <openclaw/device.hpp>
#include <openclaw/event.hpp>
#include <openclaw/mapping.hpp>
#include <openclaw/queue.hpp>

#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace openclaw {

/// Pixel formats: each names an OpenCL channel order and data type and the host type of one
/// pixel. Any struct with the same four members is a pixel format too.
namespace pixel {

/// Four 8-bit channels read as floats in [0, 1] (read_imagef).
struct rgba8 {
    /// The OpenCL channel order (image_channel_order of cl_image_format).
    static constexpr cl_channel_order order = CL_RGBA;
    /// The OpenCL channel data type (image_channel_data_type of cl_image_format).
    static constexpr cl_channel_type type = CL_UNORM_INT8;
    /// The host type of one pixel in transfers and mapped views.
    using host_type = cl_uchar4;
    /// The format's name, for error messages.
    static constexpr const char* name = "rgba8 (CL_RGBA, CL_UNORM_INT8)";
};
/// Four 8-bit channels read as unsigned integers (read_imageui).
struct rgba_u8 {
    /// The OpenCL channel order.
    static constexpr cl_channel_order order = CL_RGBA;
    /// The OpenCL channel data type.
    static constexpr cl_channel_type type = CL_UNSIGNED_INT8;
    /// The host type of one pixel.
    using host_type = cl_uchar4;
    /// The format's name, for error messages.
    static constexpr const char* name = "rgba_u8 (CL_RGBA, CL_UNSIGNED_INT8)";
};
/// Four 32-bit float channels (read_imagef).
struct rgba_f32 {
    /// The OpenCL channel order.
    static constexpr cl_channel_order order = CL_RGBA;
    /// The OpenCL channel data type.
    static constexpr cl_channel_type type = CL_FLOAT;
    /// The host type of one pixel.
    using host_type = cl_float4;
    /// The format's name, for error messages.
    static constexpr const char* name = "rgba_f32 (CL_RGBA, CL_FLOAT)";
};
/// One 32-bit float channel (read_imagef(...).x).
struct r_f32 {
    /// The OpenCL channel order.
    static constexpr cl_channel_order order = CL_R;
    /// The OpenCL channel data type.
    static constexpr cl_channel_type type = CL_FLOAT;
    /// The host type of one pixel.
    using host_type = cl_float;
    /// The format's name, for error messages.
    static constexpr const char* name = "r_f32 (CL_R, CL_FLOAT)";
};
/// One 8-bit channel read as a float in [0, 1].
struct r8 {
    /// The OpenCL channel order.
    static constexpr cl_channel_order order = CL_R;
    /// The OpenCL channel data type.
    static constexpr cl_channel_type type = CL_UNORM_INT8;
    /// The host type of one pixel.
    using host_type = cl_uchar;
    /// The format's name, for error messages.
    static constexpr const char* name = "r8 (CL_R, CL_UNORM_INT8)";
};

/// Not a format: in a kernel parameter (ReadImage2D<pixel::any>), any pixel format fits. Kernels
/// typed from their source get it, since OpenCL C does not say an image's format.
struct any {
    /// Shown in error messages.
    static constexpr const char* name = "any pixel format";
};

}  // namespace pixel

template <class P>
concept PixelFormat = requires {
    { P::order } -> std::convertible_to<cl_channel_order>;
    { P::type } -> std::convertible_to<cl_channel_type>;
    { P::name } -> std::convertible_to<const char*>;
    typename P::host_type;
}
&&std::is_trivially_copyable_v<typename P::host_type>;

/// The shape of an image, which is part of its type and of the kernel parameters it fits.
enum class ImageShape { image2d, image3d, image2d_array };

template <ImageShape Shape, class Pixel, class Access>
class Image;

/// A 2D image (`image2d_t` in a kernel).
template <class Pixel, class Access = ReadWrite>
using Image2D = Image<ImageShape::image2d, Pixel, Access>;
/// A 3D image (`image3d_t`).
template <class Pixel, class Access = ReadWrite>
using Image3D = Image<ImageShape::image3d, Pixel, Access>;
/// An array of 2D images of one size (`image2d_array_t`).
template <class Pixel, class Access = ReadWrite>
using Image2DArray = Image<ImageShape::image2d_array, Pixel, Access>;

/// A box of pixels of an image: `origin` (x, y, and the slice of a 3D image or the layer of an
/// array) and `size` in pixels (the third is 1 for a 2D image). For transfers, `row_pitch` and
/// `slice_pitch` say how the host memory is laid out, in pixels (0: tightly packed).
struct ImageRegion {
    /// The first pixel: x, y, and the slice (3D) or layer (array); 0 for a 2D image.
    std::array<std::size_t, 3> origin{0, 0, 0};
    /// Width, height and depth (or layers) in pixels; the third is 1 for a 2D image.
    std::array<std::size_t, 3> size{0, 0, 0};
    /// Host pixels from one row to the next in transfers (0: size[0], tightly packed).
    std::size_t row_pitch = 0;
    /// Host pixels from one slice (or layer) to the next in transfers (0: row pitch * size[1]).
    std::size_t slice_pitch = 0;

    /// A rectangle of a 2D image (or of the first layer of an array).
    static constexpr ImageRegion rect(std::size_t x, std::size_t y, std::size_t width,
                                      std::size_t height) noexcept {
        return {{x, y, 0}, {width, height, 1}};
    }
    /// A box of a 3D image, or `depth` layers of an array from layer `z`.
    static constexpr ImageRegion box(std::size_t x, std::size_t y, std::size_t z, std::size_t width,
                                     std::size_t height, std::size_t depth) noexcept {
        return {{x, y, z}, {width, height, depth}};
    }
    /// The pixels a host span must hold for this region in its layout.
    constexpr std::size_t host_pixels() const noexcept {
        if (size[0] == 0 || size[1] == 0 || size[2] == 0) {
            return 0;
        }
        const std::size_t row = row_pitch != 0 ? row_pitch : size[0];
        const std::size_t slice = slice_pitch != 0 ? slice_pitch : row * size[1];
        return (size[2] - 1) * slice + (size[1] - 1) * row + size[0];
    }
};

namespace detail {

template <ImageShape Shape>
struct ShapeTraits;
template <>
struct ShapeTraits<ImageShape::image2d> {
    static constexpr cl_mem_object_type mem_type = CL_MEM_OBJECT_IMAGE2D;
    static constexpr const char* kernel_type = "image2d_t";
    static constexpr const char* name = "Image2D";
    static constexpr const char* third = "depth";
};
template <>
struct ShapeTraits<ImageShape::image3d> {
    static constexpr cl_mem_object_type mem_type = CL_MEM_OBJECT_IMAGE3D;
    static constexpr const char* kernel_type = "image3d_t";
    static constexpr const char* name = "Image3D";
    static constexpr const char* third = "depth";
};
template <>
struct ShapeTraits<ImageShape::image2d_array> {
    static constexpr cl_mem_object_type mem_type = CL_MEM_OBJECT_IMAGE2D_ARRAY;
    static constexpr const char* kernel_type = "image2d_array_t";
    static constexpr const char* name = "Image2DArray";
    static constexpr const char* third = "layers";
};

template <class I>
inline constexpr bool is_image = false;
template <ImageShape S, class P, class A>
inline constexpr bool is_image<Image<S, P, A>> = true;

inline const char* channel_order_name(cl_channel_order order) noexcept {
    switch (order) {
        case CL_R:
            return "CL_R";
        case CL_A:
            return "CL_A";
        case CL_RG:
            return "CL_RG";
        case CL_RA:
            return "CL_RA";
        case CL_RGB:
            return "CL_RGB";
        case CL_RGBA:
            return "CL_RGBA";
        case CL_BGRA:
            return "CL_BGRA";
        case CL_ARGB:
            return "CL_ARGB";
        case CL_INTENSITY:
            return "CL_INTENSITY";
        case CL_LUMINANCE:
            return "CL_LUMINANCE";
        default:
            return "another channel order";
    }
}

inline const char* channel_type_name(cl_channel_type type) noexcept {
    switch (type) {
        case CL_SNORM_INT8:
            return "CL_SNORM_INT8";
        case CL_SNORM_INT16:
            return "CL_SNORM_INT16";
        case CL_UNORM_INT8:
            return "CL_UNORM_INT8";
        case CL_UNORM_INT16:
            return "CL_UNORM_INT16";
        case CL_SIGNED_INT8:
            return "CL_SIGNED_INT8";
        case CL_SIGNED_INT16:
            return "CL_SIGNED_INT16";
        case CL_SIGNED_INT32:
            return "CL_SIGNED_INT32";
        case CL_UNSIGNED_INT8:
            return "CL_UNSIGNED_INT8";
        case CL_UNSIGNED_INT16:
            return "CL_UNSIGNED_INT16";
        case CL_UNSIGNED_INT32:
            return "CL_UNSIGNED_INT32";
        case CL_HALF_FLOAT:
            return "CL_HALF_FLOAT";
        case CL_FLOAT:
            return "CL_FLOAT";
        default:
            return "another channel type";
    }
}

/// The context's devices that support images; fails (CL_INVALID_OPERATION) when none does.
inline std::vector<Device> image_devices(cl_context context, const char* call) {
    const FailureWatch watch;
    std::vector<Device> devices;
    std::string names;
    for (cl_device_id id : get_info<cl_context, CL_CONTEXT_DEVICES>(context)) {
        Device device = Device::retain(id);
        if (device.info<CL_DEVICE_IMAGE_SUPPORT>()) {
            devices.push_back(std::move(device));
        } else {
            names += concat(names.empty() ? "\"" : ", \"", device.name(), "\"");
        }
    }
    if (watch.failed()) {
        return {};
    }
    if (devices.empty()) {
        fail(CL_INVALID_OPERATION, call,
             concat("no device of the context supports images (CL_DEVICE_IMAGE_SUPPORT is "
                    "false for ",
                    names, ")"));
    }
    return devices;
}

/// True when the context supports `format` for images of `type` created with `flags`
/// (clGetSupportedImageFormats).
inline bool format_supported(cl_context context, cl_mem_flags flags, cl_mem_object_type type,
                             cl_image_format format) {
    cl_uint count = 0;
    if (!check(clGetSupportedImageFormats(context, flags, type, 0, nullptr, &count),
               "clGetSupportedImageFormats")) {
        return false;
    }
    std::vector<cl_image_format> formats(count);
    if (count != 0 &&
        !check(clGetSupportedImageFormats(context, flags, type, count, formats.data(), nullptr),
               "clGetSupportedImageFormats")) {
        return false;
    }
    return std::any_of(formats.begin(), formats.end(), [&](const cl_image_format& f) {
        return f.image_channel_order == format.image_channel_order &&
               f.image_channel_data_type == format.image_channel_data_type;
    });
}

/// Refuses an extent past what a device allows, naming the device, the limit and the value.
inline bool check_image_limit(const Device& device, const char* limit_name, std::size_t limit,
                              const char* what, std::size_t value) {
    if (value > limit) {
        fail(CL_INVALID_IMAGE_SIZE, "clCreateImage",
             concat(what, " ", value, " exceeds ", limit_name, " = ", limit, " of device \"",
                    device.name(), "\""));
        return false;
    }
    return true;
}

/// Refuses a region that is empty or not inside an image of `extent` pixels.
inline bool check_region(const char* call, const ImageRegion& region,
                         const std::array<std::size_t, 3>& extent, bool two_d) {
    const auto triple = [](const std::array<std::size_t, 3>& v) {
        return concat("(", v[0], ", ", v[1], ", ", v[2], ")");
    };
    for (std::size_t i = 0; i < 3; ++i) {
        if (region.size[i] == 0) {
            fail(CL_INVALID_VALUE, call,
                 concat("region size ", triple(region.size),
                        " is empty: every dimension needs at least one pixel",
                        two_d ? " (the third is 1 for a 2D image: use ImageRegion::rect)" : ""));
            return false;
        }
        if (region.origin[i] > extent[i] || region.size[i] > extent[i] - region.origin[i]) {
            fail(CL_INVALID_VALUE, call,
                 concat("region origin ", triple(region.origin), " + size ", triple(region.size),
                        " is outside the image of ", extent[0], " x ", extent[1], " x ", extent[2],
                        " pixels"));
            return false;
        }
    }
    return true;
}

/// Refuses a host layout whose pitches are too small, or a span too small for it.
inline bool check_host_layout(const char* call, const ImageRegion& region, std::size_t pixels) {
    const std::size_t row = region.row_pitch != 0 ? region.row_pitch : region.size[0];
    const std::size_t slice = region.slice_pitch != 0 ? region.slice_pitch : row * region.size[1];
    if (row < region.size[0] || slice < row * region.size[1]) {
        fail(CL_INVALID_VALUE, call,
             concat("host row pitch ", row, " pixels and slice pitch ", slice,
                    " pixels are too small for a region of ", region.size[0], " x ", region.size[1],
                    " pixels"));
        return false;
    }
    if (pixels < region.host_pixels()) {
        fail(CL_INVALID_VALUE, call,
             concat("the host span holds ", pixels, " pixels, the region of ", region.size[0],
                    " x ", region.size[1], " x ", region.size[2], " pixels (row pitch ", row,
                    ", slice pitch ", slice, ") needs ", region.host_pixels()));
        return false;
    }
    return true;
}

}  // namespace detail

/// A mapped region of an image, readable (MappedImage<const T>) or writable (MappedImage<T>)
/// from the host, where T is the pixel's host type. Rows are `row_pitch()` bytes apart, which
/// the driver chooses: address pixels with at(x, y, z) or row(y, z), not as one flat array.
/// Move-only; unmaps when destroyed or by unmap(); conflicting transfers and launches are
/// refused while it lives (the whole image counts as mapped).
template <class T>
class MappedImage {
  public:
    /// The pixel's host type without const.
    using value_type = std::remove_cv_t<T>;

    /// An empty view (nothing mapped).
    MappedImage() = default;

    /// The pixel at (x, y, z) of the region (z: slice or layer, 0 for a 2D image).
    T& at(std::size_t x, std::size_t y, std::size_t z = 0) const noexcept {
        return *reinterpret_cast<T*>(bytes() + z * slice_pitch_ + y * row_pitch_ + x * sizeof(T));
    }
    /// Row y of slice z of the region: size()[0] pixels.
    std::span<T> row(std::size_t y, std::size_t z = 0) const noexcept {
        return {&at(0, y, z), size_[0]};
    }
    /// Bytes from one row of the mapping to the next (at least size()[0] * sizeof(T)).
    std::size_t row_pitch() const noexcept { return row_pitch_; }
    /// Bytes from one slice (or layer) to the next; 0 for a 2D image.
    std::size_t slice_pitch() const noexcept { return slice_pitch_; }
    /// The region's size in pixels.
    const std::array<std::size_t, 3>& size() const noexcept { return size_; }
    /// The first mapped pixel (the region's origin); rows follow row_pitch(), not size()[0].
    T* data() const noexcept { return view_.data(); }
    /// True for an empty (default-constructed, moved-from or unmapped) view.
    bool empty() const noexcept { return view_.empty(); }
    /// True while the view holds a mapping.
    explicit operator bool() const noexcept { return !view_.empty(); }

    /// Unmaps now, reporting a failure (see OnError); the view is empty afterwards.
    void unmap(OnError = {}) {
        view_.unmap();
        size_ = {0, 0, 0};
    }

  private:
    template <ImageShape S, class P, class A>
    friend class Image;

    using Byte = std::conditional_t<std::is_const_v<T>, const unsigned char, unsigned char>;
    Byte* bytes() const noexcept { return reinterpret_cast<Byte*>(view_.data()); }

    MappedSpan<T> view_;  // owns the mapping: unmaps it and leaves the registry
    std::array<std::size_t, 3> size_{0, 0, 0};
    std::size_t row_pitch_ = 0;
    std::size_t slice_pitch_ = 0;
};

/// An OpenCL image (a cl_mem from clCreateImage) of shape `Shape` whose pixel format (Pixel:
/// pixel::rgba8, ...) and kernel access (ReadOnly, WriteOnly or ReadWrite) are part of the type,
/// so transfers take spans of Pixel::host_type and set_args checks the kernel parameter it is
/// passed to. Creation checks that a device of the context supports images, that the format is
/// supported (clGetSupportedImageFormats) and the devices' size limits. Copying shares the memory
/// object (clRetainMemObject), destruction releases it. Use the aliases Image2D, Image3D and
/// Image2DArray.
template <ImageShape Shape, class Pixel, class Access>
class Image {
    static_assert(PixelFormat<Pixel>,
                  "Image<Pixel>: Pixel must be a pixel format (openclaw::pixel::rgba8, ...: a "
                  "struct with order, type, name and a trivially copyable host_type)");
    static_assert(AccessTag<Access>,
                  "Image<Pixel, Access>: Access must be ReadOnly, WriteOnly or ReadWrite");
    using ShapeInfo = detail::ShapeTraits<Shape>;
    static constexpr bool two_d = Shape == ImageShape::image2d;

  public:
    /// The pixel format (pixel::rgba8, ...).
    using pixel_type = Pixel;
    /// The kernels' access: ReadOnly, WriteOnly or ReadWrite.
    using access_type = Access;
    /// The host type of one pixel (cl_uchar4 for rgba8, float for r_f32, ...).
    using host_type = typename Pixel::host_type;
    /// The image's shape: 2D, 3D or 2D array.
    static constexpr ImageShape shape = Shape;

    /// An empty image (no memory object); assign a real one before use.
    Image() = default;

    /// An uninitialized 2D image of width x height pixels.
    Image(const Context& context, std::size_t width, std::size_t height,
          OnError = {}) requires(Shape == ImageShape::image2d)
        : Image(context, {width, height, 1}, nullptr, 0) {}
    /// A 2D image initialized from `pixels` (width * height of them, rows packed).
    Image(const Context& context, std::size_t width, std::size_t height,
          std::span<const host_type> pixels, OnError = {}) requires(Shape == ImageShape::image2d)
        : Image(context, {width, height, 1}, pixels.data(), pixels.size()) {}
    /// An uninitialized 3D image, or an array of `depth` layers of 2D images.
    Image(const Context& context, std::size_t width, std::size_t height, std::size_t depth,
          OnError = {}) requires(Shape != ImageShape::image2d)
        : Image(context, {width, height, depth}, nullptr, 0) {}
    /// A 3D image or array initialized from `pixels` (width * height * depth, packed).
    Image(const Context& context, std::size_t width, std::size_t height, std::size_t depth,
          std::span<const host_type> pixels, OnError = {}) requires(Shape != ImageShape::image2d)
        : Image(context, {width, height, depth}, pixels.data(), pixels.size()) {}

    /// Takes ownership of `raw` (also if this fails); it must be an image of this shape and
    /// pixel format.
    [[nodiscard]] static Image adopt(cl_mem raw, OnError = {}) {
        return Image(detail::Handle<cl_mem>::adopt(raw));
    }
    /// Shares `raw` (retains it); it must be an image of this shape and pixel format.
    [[nodiscard]] static Image retain(cl_mem raw, OnError = {}) {
        return Image(detail::Handle<cl_mem>::retain(raw));
    }

    /// Width in pixels (0 when empty).
    std::size_t width() const noexcept { return extent_[0]; }
    /// Height in pixels (0 when empty).
    std::size_t height() const noexcept { return extent_[1]; }
    /// Slices of a 3D image (1 for a 2D image).
    std::size_t depth() const noexcept requires(Shape != ImageShape::image2d_array) {
        return extent_[2];
    }
    /// Layers of an image array.
    std::size_t layers() const noexcept requires(Shape == ImageShape::image2d_array) {
        return extent_[2];
    }
    /// Width, height and depth (or layers; 1 for a 2D image).
    std::array<std::size_t, 3> extent() const noexcept {
        return {extent_[0], extent_[1], extent_[2]};
    }
    /// Pixels in the whole image: width * height * depth (or layers).
    std::size_t pixel_count() const noexcept { return extent_[0] * extent_[1] * extent_[2]; }
    /// True for an empty (default-constructed or moved-from) image.
    bool empty() const noexcept { return pixel_count() == 0; }
    /// The region covering the whole image.
    ImageRegion whole() const noexcept { return {{0, 0, 0}, extent()}; }

    // ---- blocking transfers --------------------------------------------------------------

    /// Blocking read of the whole image into `dst` (pixel_count() pixels, rows packed).
    void read(const Queue& queue, std::span<host_type> dst, const WaitList& wait = {},
              OnError = {}) const {
        read(queue, whole(), dst, wait);
    }
    /// Blocking read of `region` into `dst`, laid out by region.row_pitch / slice_pitch.
    void read(const Queue& queue, const ImageRegion& region, std::span<host_type> dst,
              const WaitList& wait = {}, OnError = {}) const {
        transfer<true>(queue, region, dst.data(), dst.size(), wait);
    }
    /// Blocking write of the whole image from `src` (pixel_count() pixels, rows packed).
    void write(const Queue& queue, std::span<const host_type> src, const WaitList& wait = {},
               OnError = {}) const {
        write(queue, whole(), src, wait);
    }
    /// Blocking write of `region` from `src`, laid out by region.row_pitch / slice_pitch.
    void write(const Queue& queue, const ImageRegion& region, std::span<const host_type> src,
               const WaitList& wait = {}, OnError = {}) const {
        transfer<false>(queue, region, const_cast<host_type*>(src.data()), src.size(), wait);
    }

    // ---- mapped views --------------------------------------------------------------------

    /// Maps the whole image for reading (blocking).
    [[nodiscard]] MappedImage<const host_type> map_read(const Queue& queue,
                                                        const WaitList& wait = {},
                                                        OnError = {}) const {
        return map<const host_type>(queue, CL_MAP_READ, whole(), wait);
    }
    /// Maps `region` for reading (blocking).
    [[nodiscard]] MappedImage<const host_type> map_read(const Queue& queue,
                                                        const ImageRegion& region,
                                                        const WaitList& wait = {},
                                                        OnError = {}) const {
        return map<const host_type>(queue, CL_MAP_READ, region, wait);
    }
    /// Maps the whole image for writing only (CL_MAP_WRITE_INVALIDATE_REGION: the view starts
    /// undefined; blocking).
    [[nodiscard]] MappedImage<host_type> map_write(const Queue& queue, const WaitList& wait = {},
                                                   OnError = {}) const {
        return map<host_type>(queue, CL_MAP_WRITE_INVALIDATE_REGION, whole(), wait);
    }
    /// Maps `region` for writing only (CL_MAP_WRITE_INVALIDATE_REGION; blocking).
    [[nodiscard]] MappedImage<host_type> map_write(const Queue& queue, const ImageRegion& region,
                                                   const WaitList& wait = {}, OnError = {}) const {
        return map<host_type>(queue, CL_MAP_WRITE_INVALIDATE_REGION, region, wait);
    }
    /// Maps the whole image for reading and writing (blocking).
    [[nodiscard]] MappedImage<host_type> map_read_write(const Queue& queue,
                                                        const WaitList& wait = {},
                                                        OnError = {}) const {
        return map<host_type>(queue, CL_MAP_READ | CL_MAP_WRITE, whole(), wait);
    }
    /// Maps `region` for reading and writing (blocking).
    [[nodiscard]] MappedImage<host_type> map_read_write(const Queue& queue,
                                                        const ImageRegion& region,
                                                        const WaitList& wait = {},
                                                        OnError = {}) const {
        return map<host_type>(queue, CL_MAP_READ | CL_MAP_WRITE, region, wait);
    }

    /// Any clGetMemObjectInfo parameter, with its C++ type from openclaw's info table.
    template <cl_mem_info Param>
    detail::info_t<cl_mem, Param> info(OnError = {}) const {
        return detail::get_info<cl_mem, Param>(get());
    }
    /// Any clGetImageInfo parameter, with its C++ type from openclaw's info table.
    template <cl_image_info Param>
    detail::info_t<detail::ImageInfo, Param> image_info(OnError = {}) const {
        return detail::get_info<detail::ImageInfo, Param>(get());
    }

    /// The raw cl_mem (not retained; null when empty).
    cl_mem get() const noexcept { return handle_.get(); }
    /// The raw context the image belongs to (not retained: the image keeps it alive).
    cl_context context_handle() const noexcept { return context_; }
    /// True when the image holds a memory object.
    explicit operator bool() const noexcept { return static_cast<bool>(handle_); }

  private:
    Image(const Context& context, std::array<std::size_t, 3> extent, const host_type* init,
          std::size_t init_pixels)
        : handle_(create(context, extent, init, init_pixels)) {
        if (handle_) {
            context_ = context.get();
            extent_ = {extent[0], extent[1], extent[2]};
        }
    }

    explicit Image(detail::Handle<cl_mem> handle) : handle_(std::move(handle)) {
        if (!handle_) {
            return;
        }
        const detail::FailureWatch watch;
        const cl_mem raw = handle_.get();
        const cl_mem_object_type type = detail::get_info<cl_mem, CL_MEM_TYPE>(raw);
        const cl_image_format format =
            type == ShapeInfo::mem_type ? detail::get_info<detail::ImageInfo, CL_IMAGE_FORMAT>(raw)
                                        : cl_image_format{};
        if (watch.failed()) {
            *this = Image();
            return;
        }
        if (type != ShapeInfo::mem_type) {
            detail::fail(CL_INVALID_MEM_OBJECT, "Image::adopt",
                         detail::concat("the memory object is not a ", ShapeInfo::kernel_type,
                                        " image (CL_MEM_TYPE = ", type, ")"));
            *this = Image();
            return;
        }
        if (format.image_channel_order != Pixel::order ||
            format.image_channel_data_type != Pixel::type) {
            detail::fail(
                CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "Image::adopt",
                detail::concat("the image's format is (",
                               detail::channel_order_name(format.image_channel_order), ", ",
                               detail::channel_type_name(format.image_channel_data_type),
                               "), the type's pixel is ", Pixel::name));
            *this = Image();
            return;
        }
        const std::size_t width = detail::get_info<detail::ImageInfo, CL_IMAGE_WIDTH>(raw);
        const std::size_t height = detail::get_info<detail::ImageInfo, CL_IMAGE_HEIGHT>(raw);
        std::size_t third = 1;
        if constexpr (Shape == ImageShape::image3d) {
            third = detail::get_info<detail::ImageInfo, CL_IMAGE_DEPTH>(raw);
        } else if constexpr (Shape == ImageShape::image2d_array) {
            third = detail::get_info<detail::ImageInfo, CL_IMAGE_ARRAY_SIZE>(raw);
        }
        context_ = detail::get_info<cl_mem, CL_MEM_CONTEXT>(raw);
        if (watch.failed()) {
            *this = Image();
            return;
        }
        extent_ = {width, height, third};
    }

    static detail::Handle<cl_mem> create(const Context& context, std::array<std::size_t, 3> extent,
                                         const host_type* init, std::size_t init_pixels) {
        if (!context) {
            detail::fail(CL_INVALID_CONTEXT, "clCreateImage",
                         "the context is empty (default-constructed or moved-from)");
            return {};
        }
        if (extent[0] == 0 || extent[1] == 0 || extent[2] == 0) {
            detail::fail(CL_INVALID_IMAGE_SIZE, "clCreateImage",
                         detail::concat(ShapeInfo::name, " of ", extent[0], " x ", extent[1],
                                        two_d ? "" : " x ",
                                        two_d ? std::string() : detail::concat(extent[2]),
                                        " pixels: every extent must be at least 1"));
            return {};
        }
        const std::size_t pixels = extent[0] * extent[1] * extent[2];
        if (init != nullptr && init_pixels != pixels) {
            detail::fail(CL_INVALID_VALUE, "clCreateImage",
                         detail::concat("the host span holds ", init_pixels, " pixels, the ",
                                        ShapeInfo::name, " of ", extent[0], " x ", extent[1], " x ",
                                        extent[2], " pixels needs ", pixels));
            return {};
        }
        const detail::FailureWatch watch;
        const std::vector<Device> devices = detail::image_devices(context.get(), "clCreateImage");
        if (devices.empty() || watch.failed() || !check_limits(devices, extent)) {
            return {};
        }
        const cl_image_format format{Pixel::order, Pixel::type};
        const bool supported =
            detail::format_supported(context.get(), Access::flags, ShapeInfo::mem_type, format);
        if (watch.failed()) {
            return {};
        }
        if (!supported) {
            detail::fail(CL_IMAGE_FORMAT_NOT_SUPPORTED, "clCreateImage",
                         detail::concat("pixel format ", Pixel::name, " is not supported for ",
                                        ShapeInfo::kernel_type, " images with ", Access::name,
                                        " access by the context (clGetSupportedImageFormats)"));
            return {};
        }
        cl_image_desc desc{};
        desc.image_type = ShapeInfo::mem_type;
        desc.image_width = extent[0];
        desc.image_height = extent[1];
        if constexpr (Shape == ImageShape::image3d) {
            desc.image_depth = extent[2];
        } else if constexpr (Shape == ImageShape::image2d_array) {
            desc.image_array_size = extent[2];
        }
        cl_mem_flags flags = Access::flags;
        if (init != nullptr) {
            flags |= CL_MEM_COPY_HOST_PTR;
        }
        cl_int code = CL_SUCCESS;
        // CL_MEM_COPY_HOST_PTR only reads host_ptr; the C API merely lacks the const.
        cl_mem raw = clCreateImage(context.get(), flags, &format, &desc,
                                   const_cast<host_type*>(init), &code);
        if (!detail::check(code, "clCreateImage", [&] {
                return detail::concat(ShapeInfo::name, " of ", extent[0], " x ", extent[1], " x ",
                                      extent[2], " pixels, ", Pixel::name, ", ", Access::name);
            })) {
            return {};
        }
        return detail::Handle<cl_mem>::adopt(raw);
    }

    static bool check_limits(const std::vector<Device>& devices,
                             const std::array<std::size_t, 3>& extent) {
        for (const Device& device : devices) {
            const detail::FailureWatch watch;
            bool ok = true;
            if constexpr (Shape == ImageShape::image3d) {
                ok = detail::check_image_limit(device, "CL_DEVICE_IMAGE3D_MAX_WIDTH",
                                               device.info<CL_DEVICE_IMAGE3D_MAX_WIDTH>(), "width",
                                               extent[0]) &&
                     detail::check_image_limit(device, "CL_DEVICE_IMAGE3D_MAX_HEIGHT",
                                               device.info<CL_DEVICE_IMAGE3D_MAX_HEIGHT>(),
                                               "height", extent[1]) &&
                     detail::check_image_limit(device, "CL_DEVICE_IMAGE3D_MAX_DEPTH",
                                               device.info<CL_DEVICE_IMAGE3D_MAX_DEPTH>(), "depth",
                                               extent[2]);
            } else {
                ok = detail::check_image_limit(device, "CL_DEVICE_IMAGE2D_MAX_WIDTH",
                                               device.info<CL_DEVICE_IMAGE2D_MAX_WIDTH>(), "width",
                                               extent[0]) &&
                     detail::check_image_limit(device, "CL_DEVICE_IMAGE2D_MAX_HEIGHT",
                                               device.info<CL_DEVICE_IMAGE2D_MAX_HEIGHT>(),
                                               "height", extent[1]);
                if constexpr (Shape == ImageShape::image2d_array) {
                    ok = ok &&
                         detail::check_image_limit(device, "CL_DEVICE_IMAGE_MAX_ARRAY_SIZE",
                                                   device.info<CL_DEVICE_IMAGE_MAX_ARRAY_SIZE>(),
                                                   "layers", extent[2]);
                }
            }
            if (!ok || watch.failed()) {
                return false;
            }
        }
        return true;
    }

    // A queue of another context (or platform) can crash the driver that receives the image.
    bool check_queue(const Queue& queue, const char* call) const {
        if (queue.context_handle() != context_) [[unlikely]] {
            if (!queue) {
                detail::fail(CL_INVALID_COMMAND_QUEUE, call,
                             "the queue is empty (default-constructed or moved-from)");
                return false;
            }
            detail::fail(CL_INVALID_CONTEXT, call,
                         context_ == nullptr
                             ? "the image is empty (default-constructed or moved-from)"
                             : "the queue and the image belong to different contexts");
            return false;
        }
        return true;
    }

    template <bool Read>
    void transfer(const Queue& queue, const ImageRegion& region, host_type* host,
                  std::size_t pixels, const WaitList& wait) const {
        constexpr const char* call = Read ? "clEnqueueReadImage" : "clEnqueueWriteImage";
        if (!check_queue(queue, call) || !detail::check_region(call, region, extent(), two_d) ||
            !detail::check_host_layout(call, region, pixels) ||
            !detail::map_registry.check(get(), Read ? detail::Use::read : detail::Use::write,
                                        call)) {
            return;
        }
        const std::size_t row =
            (region.row_pitch != 0 ? region.row_pitch : region.size[0]) * sizeof(host_type);
        // A 2D image's slice pitch must be 0.
        const std::size_t slice =
            two_d ? 0
                  : (region.slice_pitch != 0 ? region.slice_pitch * sizeof(host_type)
                                             : row * region.size[1]);
        cl_int code = CL_SUCCESS;
        if constexpr (Read) {
            code = clEnqueueReadImage(queue.get(), get(), CL_TRUE, region.origin.data(),
                                      region.size.data(), row, slice, host, wait.size(),
                                      wait.data(), nullptr);
        } else {
            code = clEnqueueWriteImage(queue.get(), get(), CL_TRUE, region.origin.data(),
                                       region.size.data(), row, slice, host, wait.size(),
                                       wait.data(), nullptr);
        }
        (void)detail::check(code, call, [&] { return describe(region); });
    }

    template <class View>
    MappedImage<View> map(const Queue& queue, cl_map_flags flags, const ImageRegion& region,
                          const WaitList& wait) const {
        constexpr const char* call = "clEnqueueMapImage";
        if (!check_queue(queue, call) || !detail::check_region(call, region, extent(), two_d)) {
            return {};
        }
        const detail::FailureWatch watch;
        const std::size_t bytes = info<CL_MEM_SIZE>();
        if (watch.failed()) {
            return {};
        }
        // Rows of an image region are not one byte range: the whole image counts as mapped.
        const bool writable = (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) != 0;
        const std::uint64_t ticket = detail::map_registry.add(get(), 0, bytes, writable, call);
        if (ticket == 0) {
            return {};
        }
        std::size_t row_pitch = 0;
        std::size_t slice_pitch = 0;
        cl_int code = CL_SUCCESS;
        void* host = clEnqueueMapImage(queue.get(), get(), CL_TRUE, flags, region.origin.data(),
                                       region.size.data(), &row_pitch, &slice_pitch, wait.size(),
                                       wait.data(), nullptr, &code);
        if (code != CL_SUCCESS) {
            detail::map_registry.remove(ticket);
            detail::fail(code, call, describe(region));
            return {};
        }
        MappedImage<View> view;
        const std::size_t span_bytes = (region.size[2] - 1) * slice_pitch +
                                       (region.size[1] - 1) * row_pitch +
                                       region.size[0] * sizeof(host_type);
        view.view_ = MappedSpan<View>::adopt_mapping(queue.get(), get(), static_cast<View*>(host),
                                                     span_bytes / sizeof(host_type), ticket);
        view.size_ = region.size;
        view.row_pitch_ = row_pitch;
        view.slice_pitch_ = two_d ? 0 : slice_pitch;
        return view;
    }

    std::string describe(const ImageRegion& region) const {
        return detail::concat("region origin (", region.origin[0], ", ", region.origin[1], ", ",
                              region.origin[2], ") size (", region.size[0], ", ", region.size[1],
                              ", ", region.size[2], ") of a ", ShapeInfo::name, " of ", extent_[0],
                              " x ", extent_[1], " x ", extent_[2], " ", Pixel::name, " pixels");
    }

    detail::Handle<cl_mem> handle_;
    detail::ResetOnMove<cl_context> context_;
    std::array<detail::ResetOnMove<std::size_t>, 3> extent_{};
};

/// How a sampler treats coordinates outside the image.
enum class AddressMode : cl_addressing_mode {
    none = CL_ADDRESS_NONE,
    clamp_to_edge = CL_ADDRESS_CLAMP_TO_EDGE,
    clamp = CL_ADDRESS_CLAMP,                      // outside: the border colour
    repeat = CL_ADDRESS_REPEAT,                    // needs normalized coordinates
    mirrored_repeat = CL_ADDRESS_MIRRORED_REPEAT,  // needs normalized coordinates
};
/// How a sampler picks the value between pixel centres.
enum class FilterMode : cl_filter_mode {
    nearest = CL_FILTER_NEAREST,
    linear = CL_FILTER_LINEAR,
};

/// A sampler object (`sampler_t` kernel parameter): coordinate normalization, addressing and
/// filtering, for read_imagef(image, sampler, coord).
class Sampler {
  public:
    /// An empty sampler; assign a real one before use.
    Sampler() = default;

    /// A sampler of `context`: normalized coordinates in [0, 1) or pixel coordinates, what
    /// coordinates outside the image read, and the filter.
    Sampler(const Context& context, bool normalized_coords, AddressMode addressing,
            FilterMode filter, OnError = {})
        : handle_(create(context, normalized_coords, addressing, filter)) {
        if (handle_) {
            context_ = context.get();
        }
    }

    /// Takes ownership of `raw` (also if this fails).
    [[nodiscard]] static Sampler adopt(cl_sampler raw, OnError = {}) {
        return Sampler(detail::Handle<cl_sampler>::adopt(raw));
    }
    /// Shares `raw` (retains it).
    [[nodiscard]] static Sampler retain(cl_sampler raw, OnError = {}) {
        return Sampler(detail::Handle<cl_sampler>::retain(raw));
    }

    /// Whether the sampler takes normalized coordinates (CL_SAMPLER_NORMALIZED_COORDS), as the
    /// driver reports it.
    bool normalized_coords(OnError = {}) const { return info<CL_SAMPLER_NORMALIZED_COORDS>(); }
    /// The addressing mode (CL_SAMPLER_ADDRESSING_MODE), as the driver reports it.
    AddressMode addressing(OnError = {}) const {
        return static_cast<AddressMode>(info<CL_SAMPLER_ADDRESSING_MODE>());
    }
    /// The filter mode (CL_SAMPLER_FILTER_MODE), as the driver reports it.
    FilterMode filter(OnError = {}) const {
        return static_cast<FilterMode>(info<CL_SAMPLER_FILTER_MODE>());
    }

    /// Any clGetSamplerInfo parameter, with its C++ type from openclaw's info table.
    template <cl_sampler_info Param>
    detail::info_t<cl_sampler, Param> info(OnError = {}) const {
        return detail::get_info<cl_sampler, Param>(get());
    }

    /// The raw cl_sampler (not retained; null when empty).
    cl_sampler get() const noexcept { return handle_.get(); }
    /// The raw context the sampler belongs to (not retained: the sampler keeps it alive).
    cl_context context_handle() const noexcept { return context_; }
    /// True when the sampler holds a sampler object.
    explicit operator bool() const noexcept { return static_cast<bool>(handle_); }

  private:
    explicit Sampler(detail::Handle<cl_sampler> handle) : handle_(std::move(handle)) {
        if (handle_) {
            const detail::FailureWatch watch;
            context_ = detail::get_info<cl_sampler, CL_SAMPLER_CONTEXT>(handle_.get());
            if (watch.failed()) {
                *this = Sampler();
            }
        }
    }

    static detail::Handle<cl_sampler> create(const Context& context, bool normalized,
                                             AddressMode addressing, FilterMode filter) {
        const char* call = "clCreateSampler";
        if (!context) {
            detail::fail(CL_INVALID_CONTEXT, call,
                         "the context is empty (default-constructed or moved-from)");
            return {};
        }
        if (!normalized &&
            (addressing == AddressMode::repeat || addressing == AddressMode::mirrored_repeat)) {
            detail::fail(
                CL_INVALID_VALUE, call,
                detail::concat(addressing == AddressMode::repeat ? "CL_ADDRESS_REPEAT"
                                                                 : "CL_ADDRESS_MIRRORED_REPEAT",
                               " needs normalized coordinates (normalized_coords = "
                               "false given)"));
            return {};
        }
        const detail::FailureWatch watch;
        const std::vector<Device> devices = detail::image_devices(context.get(), call);
        if (devices.empty() || watch.failed()) {
            return {};
        }
        const cl_bool norm = normalized ? CL_TRUE : CL_FALSE;
        const auto mode = static_cast<cl_addressing_mode>(addressing);
        const auto filtering = static_cast<cl_filter_mode>(filter);
        cl_int code = CL_SUCCESS;
        cl_sampler raw = nullptr;
#if CL_TARGET_OPENCL_VERSION >= 200
        if (devices.front().platform().version() >= Version{2, 0}) {
            const cl_sampler_properties properties[] = {CL_SAMPLER_NORMALIZED_COORDS,
                                                        norm,
                                                        CL_SAMPLER_ADDRESSING_MODE,
                                                        mode,
                                                        CL_SAMPLER_FILTER_MODE,
                                                        filtering,
                                                        0};
            call = "clCreateSamplerWithProperties";
            raw = clCreateSamplerWithProperties(context.get(), properties, &code);
        } else {
            // The platform predates clCreateSamplerWithProperties: use the 1.x entry point.
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
            raw = clCreateSampler(context.get(), norm, mode, filtering, &code);
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
        }
#else
        raw = clCreateSampler(context.get(), norm, mode, filtering, &code);
#endif
        if (!detail::check(code, call, [&] {
                return detail::concat("normalized_coords = ", normalized ? "true" : "false",
                                      ", addressing mode ", mode, ", filter mode ", filtering);
            })) {
            return {};
        }
        return detail::Handle<cl_sampler>::adopt(raw);
    }

    detail::Handle<cl_sampler> handle_;
    detail::ResetOnMove<cl_context> context_;
};

}  // namespace openclaw
