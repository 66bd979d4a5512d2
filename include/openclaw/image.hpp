// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// Image2D / Image3D / Image2DArray<Pixel, Access>: OpenCL images whose pixel format is part of
// the type (pixel::rgba8, pixel::r_f32, ...), so the host element type of every transfer and the
// kernel parameters they may be passed to are checked at compile time (a side header: the images
// wing). Also the region transfers and mapped views of images and the image kernel parameters;
// this header includes the wing's two others, pixel.hpp (the pixel formats) and sampler.hpp
// (Sampler, sampler_t parameters). The typed classes forward to a non-template image core
// written once for bytes, as buffers forward to the memory core.

#include <openclaw/buffer.hpp>
#include <openclaw/context.hpp>
#include <openclaw/detail/base/checked.hpp>
#include <openclaw/detail/base/handle.hpp>
#include <openclaw/detail/base/info.hpp>
#include <openclaw/detail/memory/memory.hpp>
#include <openclaw/device.hpp>
#include <openclaw/event.hpp>
#include <openclaw/params.hpp>
#include <openclaw/pixel.hpp>
#include <openclaw/queue.hpp>
#include <openclaw/sampler.hpp>

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

OPENCLAW_BEGIN_NAMESPACE

namespace detail {
// Images are declared here: the stubs of fwd.hpp step aside.
template <class... A>
inline constexpr bool side_header_included<image_header, A...> = true;
}  // namespace detail

/// A box of pixels of an image: `origin` (x, y, and the slice of a 3D image or the layer of an
/// array) and `size` in pixels (the third is 1 for a 2D image). For transfers, `row_pitch` and
/// `slice_pitch` say how the host memory is laid out, in pixels (0: tightly packed).
template <>
struct BasicImageRegion<0> {
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
    /// The pixels a host span must hold for this region in its layout; SIZE_MAX when that number
    /// does not fit in size_t (no span is that large).
    constexpr std::size_t host_pixels() const noexcept {
        if (size[0] == 0 || size[1] == 0 || size[2] == 0) {
            return 0;
        }
        std::size_t row = row_pitch != 0 ? row_pitch : size[0];
        std::size_t slice = slice_pitch;
        std::size_t rows = 0;
        std::size_t slices = 0;
        std::size_t total = 0;
        if ((slice == 0 && !detail::checked_mul(row, size[1], slice)) ||
            !detail::checked_mul(size[2] - 1, slice, slices) ||
            !detail::checked_mul(size[1] - 1, row, rows) ||
            !detail::checked_add(slices, rows, total) ||
            !detail::checked_add(total, size[0], total)) {
            return static_cast<std::size_t>(-1);
        }
        return total;
    }
};

/// `read_only image2d_t` / `image3d_t` / `image2d_array_t` (Shape) of Pixel: accepts images of
/// that shape and pixel format (any format for pixel::any) that kernels may read (ReadOnly or
/// ReadWrite).
template <ImageShape Shape, class Pixel>
struct ReadImageOf {};
/// `write_only image...`: accepts images of that shape and pixel format that kernels may write
/// (WriteOnly or ReadWrite).
template <ImageShape Shape, class Pixel>
struct WriteImageOf {};
/// `read_only image2d_t` of Pixel: accepts ReadOnly or ReadWrite Image2Ds of that format (any
/// format for pixel::any).
template <class Pixel>
using ReadImage2D = ReadImageOf<ImageShape::image2d, Pixel>;
/// `write_only image2d_t` of Pixel: accepts WriteOnly or ReadWrite Image2Ds of that format (any
/// format for pixel::any).
template <class Pixel>
using WriteImage2D = WriteImageOf<ImageShape::image2d, Pixel>;
/// `read_only image3d_t` of Pixel: accepts ReadOnly or ReadWrite Image3Ds of that format (any
/// format for pixel::any).
template <class Pixel>
using ReadImage3D = ReadImageOf<ImageShape::image3d, Pixel>;
/// `write_only image3d_t` of Pixel: accepts WriteOnly or ReadWrite Image3Ds of that format (any
/// format for pixel::any).
template <class Pixel>
using WriteImage3D = WriteImageOf<ImageShape::image3d, Pixel>;
/// `read_only image2d_array_t` of Pixel: accepts ReadOnly or ReadWrite Image2DArrays of that format
/// (any format for pixel::any).
template <class Pixel>
using ReadImage2DArray = ReadImageOf<ImageShape::image2d_array, Pixel>;
/// `write_only image2d_array_t` of Pixel: accepts WriteOnly or ReadWrite Image2DArrays of that
/// format (any format for pixel::any).
template <class Pixel>
using WriteImage2DArray = WriteImageOf<ImageShape::image2d_array, Pixel>;
namespace detail {

/// What the image core needs to know of a shape: its memory object type and names.
struct ImageKind {
    cl_mem_object_type mem_type;
    const char* kernel_type;
    const char* name;
    ImageShape shape;
    bool two_d() const noexcept { return shape == ImageShape::image2d; }
};

template <ImageShape Shape>
inline constexpr ImageKind image_kind =
    Shape == ImageShape::image2d ? ImageKind{CL_MEM_OBJECT_IMAGE2D, "image2d_t", "Image2D", Shape}
    : Shape == ImageShape::image3d
        ? ImageKind{CL_MEM_OBJECT_IMAGE3D, "image3d_t", "Image3D", Shape}
        : ImageKind{CL_MEM_OBJECT_IMAGE2D_ARRAY, "image2d_array_t", "Image2DArray", Shape};

/// What the image core needs to know of a pixel format and an access.
struct ImageFormat {
    cl_image_format format;
    const char* name;
    std::size_t pixel_size;
    const char* access;
    cl_mem_flags flags;
};

template <ImageShape S, class Pixel>
struct ParamTraits<ReadImageOf<S, Pixel>> {
    static constexpr ParamKind kind = ParamKind::image_read;
    using element_type = Pixel;  // not an element: images are opaque to the host
    static constexpr ImageShape shape = S;
    using pixel_type = Pixel;
    static constexpr bool any_pixel = std::is_same_v<Pixel, pixel::any>;
    static constexpr const char* kernel_type = image_kind<S>.kernel_type;
    static constexpr const char* pixel_name = Pixel::name;
};
template <ImageShape S, class Pixel>
struct ParamTraits<WriteImageOf<S, Pixel>> {
    static constexpr ParamKind kind = ParamKind::image_write;
    using element_type = Pixel;
    static constexpr ImageShape shape = S;
    using pixel_type = Pixel;
    static constexpr bool any_pixel = std::is_same_v<Pixel, pixel::any>;
    static constexpr const char* kernel_type = image_kind<S>.kernel_type;
    static constexpr const char* pixel_name = Pixel::name;
};
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

/// An image: its memory object and its extent (width, height, depth or layers), reset by a move.
struct ImageObject {
    MemObject mem;
    std::array<ResetOnMove<std::size_t>, 3> extent{};

    std::array<std::size_t, 3> size() const noexcept { return {extent[0], extent[1], extent[2]}; }
};

/// clCreateImage after the checks: a device supporting images, the devices' extent limits, the
/// format supported for this access (clGetSupportedImageFormats), `init` of the right size.
ImageObject create_image(const Context& context, ImageKind kind, ImageFormat format,
                         std::array<std::size_t, 3> extent, const void* init,
                         std::size_t init_pixels, OnError on_error);
/// An image of a raw handle (adopted or retained by the caller), checked to be of `kind` and
/// `format`.
ImageObject describe_image(Handle<cl_mem> handle, ImageKind kind, ImageFormat format,
                           OnError on_error);
/// Blocking read or write of `region` from or to `host` (`pixels` of them), laid out by the
/// region's pitches.
void image_transfer(const ImageObject& image, ImageKind kind, ImageFormat format, bool read,
                    const Queue& queue, const ImageRegion& region, void* host, std::size_t pixels,
                    const WaitList& wait, cl_event* event, OnError on_error);
/// What a fill colour holds: floats, signed or unsigned integers.
enum class FillColor : unsigned char { floats, ints, uints };
/// clEnqueueFillImage of `region` with `color`, whose kind must suit the format's channel type.
void fill_image(const ImageObject& image, ImageKind kind, ImageFormat format, const Queue& queue,
                const ImageRegion& region, const void* color, FillColor color_kind,
                const WaitList& wait, cl_event* event, OnError on_error);
/// clEnqueueCopyImageToBuffer (`to_buffer`) or clEnqueueCopyBufferToImage between `region` of
/// the image and `count` elements from element `offset` of `buffer`.
void copy_image_buffer(const ImageObject& image, ImageKind kind, ImageFormat format,
                       const MemObject& buffer, std::size_t offset, std::size_t count,
                       std::size_t element_size, bool to_buffer, const Queue& queue,
                       const ImageRegion& region, const WaitList& wait, cl_event* event,
                       OnError on_error);
/// clEnqueueCopyImage of `region` of `source` to `to` in `destination` (the same format).
void copy_images(const ImageObject& source, ImageKind source_kind, ImageFormat source_format,
                 const ImageObject& destination, ImageKind destination_kind,
                 ImageFormat destination_format, const ImageRegion& region,
                 const std::array<std::size_t, 3>& to, const Queue& queue, const WaitList& wait,
                 cl_event* event, OnError on_error);

/// A mapped region of an image: the mapping, the region's size and the driver's pitches.
struct ImageMapping {
    Mapping mapping;
    std::array<std::size_t, 3> size{0, 0, 0};
    std::size_t row_pitch = 0;
    std::size_t slice_pitch = 0;
};
/// Maps `region` of `image` (blocking) and registers it; the whole image counts as mapped.
ImageMapping map_image(const ImageObject& image, ImageKind kind, ImageFormat format,
                       const Queue& queue, cl_map_flags flags, const ImageRegion& region,
                       const WaitList& wait, cl_event* event, OnError on_error);

/// True when the context supports `format` for images of `type` created with `flags`
/// (clGetSupportedImageFormats).
bool format_supported(cl_context context, cl_mem_flags flags, cl_mem_object_type type,
                      cl_image_format format, OnError on_error);

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
    /// \private Takes charge of a mapping made by the image core (Image::map_read, ...).
    explicit MappedImage(detail::ImageMapping mapping) noexcept : view_(std::move(mapping)) {}

    /// The pixel at (x, y, z) of the region (z: slice or layer, 0 for a 2D image).
    T& at(std::size_t x, std::size_t y, std::size_t z = 0) const noexcept {
        return *reinterpret_cast<T*>(bytes() + z * view_.slice_pitch + y * view_.row_pitch +
                                     x * sizeof(T));
    }
    /// Row y of slice z of the region: size()[0] pixels.
    std::span<T> row(std::size_t y, std::size_t z = 0) const noexcept {
        return {&at(0, y, z), view_.size[0]};
    }
    /// Bytes from one row of the mapping to the next (at least size()[0] * sizeof(T)).
    std::size_t row_pitch() const noexcept { return view_.row_pitch; }
    /// Bytes from one slice (or layer) to the next; 0 for a 2D image.
    std::size_t slice_pitch() const noexcept { return view_.slice_pitch; }
    /// The region's size in pixels.
    const std::array<std::size_t, 3>& size() const noexcept { return view_.size; }
    /// The first mapped pixel (the region's origin); rows follow row_pitch(), not size()[0].
    T* data() const noexcept { return static_cast<T*>(view_.mapping.data()); }
    /// True for an empty (default-constructed, moved-from or unmapped) view.
    bool empty() const noexcept { return view_.mapping.data() == nullptr; }
    /// True while the view holds a mapping.
    explicit operator bool() const noexcept { return !empty(); }

    /// Unmaps now, reporting a failure (see OnError); the view is empty afterwards.
    void unmap(OnError on_error = {}) {
        view_.mapping.unmap(on_error);
        view_.size = {0, 0, 0};
    }
    /// As unmap(), and returns the unmap command's Event (empty when nothing was mapped or the
    /// unmap failed).
    [[nodiscard]] Event unmap(WithEvent, OnError on_error = {}) {
        cl_event raw = nullptr;
        view_.mapping.unmap(on_error, &raw);
        view_.size = {0, 0, 0};
        return Event::adopt(raw);
    }

  private:
    using Byte = std::conditional_t<std::is_const_v<T>, const unsigned char, unsigned char>;
    Byte* bytes() const noexcept { return static_cast<Byte*>(view_.mapping.data()); }

    detail::ImageMapping view_;  // owns the mapping: unmaps it and leaves the registry
};

/// An OpenCL image (a cl_mem from clCreateImage) of shape `Shape` whose pixel format (Pixel:
/// pixel::rgba8, ...) and kernel access (ReadOnly, WriteOnly or ReadWrite) are part of the type,
/// so transfers take spans of Pixel::host_type and set_args checks the kernel parameter it is
/// passed to. Creation checks that a device of the context supports images, that the format is
/// supported (clGetSupportedImageFormats) and the devices' size limits. Copying shares the memory
/// object (clRetainMemObject), destruction releases it. Use the aliases Image2D, Image3D and
/// Image2DArray.
template <ImageShape Shape, class Pixel, class Access>
requires detail::side_header_included<detail::image_header, Pixel>
class Image<Shape, Pixel, Access> {
    static_assert(PixelFormat<Pixel>,
                  "Image<Pixel>: Pixel must be a pixel format (openclaw::pixel::rgba8, ...: a "
                  "struct with order, type, name and a trivially copyable host_type)");
    static_assert(AccessTag<Access>,
                  "Image<Pixel, Access>: Access must be ReadOnly, WriteOnly or ReadWrite");
    static constexpr detail::ImageKind kind = detail::image_kind<Shape>;
    static constexpr detail::ImageFormat format{{Pixel::order, Pixel::type},
                                                Pixel::name,
                                                sizeof(typename Pixel::host_type),
                                                Access::name,
                                                Access::flags};

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
          OnError on_error = {}) requires(Shape == ImageShape::image2d)
        : image_(detail::create_image(context, kind, format, {width, height, 1}, nullptr, 0,
                                      on_error)) {}
    /// A 2D image initialized from `pixels` (width * height of them, rows packed).
    Image(const Context& context, std::size_t width, std::size_t height,
          std::span<const host_type> pixels,
          OnError on_error = {}) requires(Shape == ImageShape::image2d)
        : image_(detail::create_image(context, kind, format, {width, height, 1}, pixels.data(),
                                      pixels.size(), on_error)) {}
    /// An uninitialized 3D image, or an array of `depth` layers of 2D images.
    Image(const Context& context, std::size_t width, std::size_t height, std::size_t depth,
          OnError on_error = {}) requires(Shape != ImageShape::image2d)
        : image_(detail::create_image(context, kind, format, {width, height, depth}, nullptr, 0,
                                      on_error)) {}
    /// A 3D image or array initialized from `pixels` (width * height * depth, packed).
    Image(const Context& context, std::size_t width, std::size_t height, std::size_t depth,
          std::span<const host_type> pixels,
          OnError on_error = {}) requires(Shape != ImageShape::image2d)
        : image_(detail::create_image(context, kind, format, {width, height, depth}, pixels.data(),
                                      pixels.size(), on_error)) {}

    /// Takes ownership of `raw` (also if this fails); it must be an image of this shape and
    /// pixel format.
    [[nodiscard]] static Image adopt(cl_mem raw, OnError on_error = {}) {
        return Image(
            detail::describe_image(detail::Handle<cl_mem>::adopt(raw), kind, format, on_error));
    }
    /// Shares `raw` (retains it); it must be an image of this shape and pixel format.
    [[nodiscard]] static Image retain(cl_mem raw, OnError on_error = {}) {
        return Image(detail::describe_image(detail::Handle<cl_mem>::retain(raw, on_error), kind,
                                            format, on_error));
    }

    /// Width in pixels (0 when empty).
    std::size_t width() const noexcept { return image_.extent[0]; }
    /// Height in pixels (0 when empty).
    std::size_t height() const noexcept { return image_.extent[1]; }
    /// Slices of a 3D image (1 for a 2D image).
    std::size_t depth() const noexcept requires(Shape != ImageShape::image2d_array) {
        return image_.extent[2];
    }
    /// Layers of an image array.
    std::size_t layers() const noexcept requires(Shape == ImageShape::image2d_array) {
        return image_.extent[2];
    }
    /// Width, height and depth (or layers; 1 for a 2D image).
    std::array<std::size_t, 3> extent() const noexcept { return image_.size(); }
    /// Pixels in the whole image: width * height * depth (or layers).
    std::size_t pixel_count() const noexcept {
        return image_.extent[0] * image_.extent[1] * image_.extent[2];  // checked at creation
    }
    /// True for an empty (default-constructed or moved-from) image.
    bool empty() const noexcept { return pixel_count() == 0; }
    /// The region covering the whole image.
    ImageRegion whole() const noexcept { return {{0, 0, 0}, extent()}; }

    /// Any clGetMemObjectInfo parameter, with its C++ type from openclaw's info table.
    template <cl_mem_info Param>
    detail::info_t<cl_mem, Param> info(OnError on_error = {}) const {
        return detail::get_info<cl_mem, Param>(on_error, get());
    }
    /// Any clGetImageInfo parameter, with its C++ type from openclaw's info table.
    template <cl_image_info Param>
    detail::info_t<detail::ImageInfo, Param> image_info(OnError on_error = {}) const {
        return detail::get_info<detail::ImageInfo, Param>(on_error, get());
    }

    /// The raw cl_mem (not retained; null when empty).
    cl_mem get() const noexcept { return image_.mem.get(); }
    /// The raw context the image belongs to (not retained: the image keeps it alive).
    cl_context context_handle() const noexcept { return image_.mem.context; }
    /// True when the image holds a memory object.
    explicit operator bool() const noexcept { return static_cast<bool>(image_.mem.handle); }

  private:
    template <class, class>
    friend struct detail::CommandTraits;
    explicit Image(detail::ImageObject image) noexcept : image_(std::move(image)) {}

    // ---- the commands queue.read / write / map_* forward to (the queue is their subject) ----

    /// Blocking read (`read`) or write of `region` from or to `host` (`pixels` pixels), laid
    /// out by region.row_pitch / slice_pitch; `event` receives the command's event when given.
    void transfer(bool read, const Queue& queue, const ImageRegion& region, const host_type* host,
                  std::size_t pixels, const WaitList& wait, cl_event* event,
                  OnError on_error) const {
        detail::image_transfer(image_, kind, format, read, queue, region,
                               const_cast<host_type*>(host), pixels, wait, event, on_error);
    }
    /// Blocking map of `region` with `flags`; the view's pixels are const for a read-only map.
    template <class View>
    MappedImage<View> map(const Queue& queue, const ImageRegion& region, cl_map_flags flags,
                          const WaitList& wait, cl_event* event, OnError on_error) const {
        return MappedImage<View>(
            detail::map_image(image_, kind, format, queue, flags, region, wait, event, on_error));
    }

    detail::ImageObject image_;
};

namespace detail {

/// The kernel-argument rule of an image (params.hpp): its cl_mem, for a read_only or write_only
/// image parameter of the same shape and pixel format that its access allows.
template <ImageShape Shape, class Pixel, class Access>
struct ArgumentTraits<Image<Shape, Pixel, Access>> {
    static constexpr ArgForm form = ArgForm::memory;
    static constexpr const char* name = "image";
    static constexpr bool dynamic = false;  // DynamicKernel takes no images
    static cl_mem handle(const Image<Shape, Pixel, Access>& image) noexcept { return image.get(); }
    static cl_context context(const Image<Shape, Pixel, Access>& image) noexcept {
        return image.context_handle();
    }

    template <class P>
    static consteval Verdict verdict() {
        using Traits = ParamTraits<P>;
        if constexpr (Traits::kind == ParamKind::scalar) {
            return Verdict::scalar_got_object;
        } else if constexpr (Traits::kind != ParamKind::image_read &&
                             Traits::kind != ParamKind::image_write) {
            return wanted_by<P>();
        } else if constexpr (Shape != Traits::shape) {
            return Verdict::image_shape;
        } else if constexpr (!Traits::any_pixel &&
                             !std::is_same_v<Pixel, typename Traits::pixel_type>) {
            return Verdict::image_pixel;
        } else if constexpr (Traits::kind == ParamKind::image_read) {
            return Access::kernel_reads ? Verdict::ok : Verdict::image_needs_readable;
        } else {
            return Access::kernel_writes ? Verdict::ok : Verdict::image_needs_writable;
        }
    }
};

}  // namespace detail

// ---- the queue's image commands (detail::CommandTraits, queue.hpp's open commands) ------------

namespace detail {
template <class Color>
constexpr FillColor fill_color_of() noexcept {
    return std::is_same_v<Color, cl_int4>    ? FillColor::ints
           : std::is_same_v<Color, cl_uint4> ? FillColor::uints
                                             : FillColor::floats;
}
/// The fill colour a channel data type takes (clEnqueueFillImage's rule).
constexpr FillColor fill_color_for(cl_channel_type type) noexcept {
    return type == CL_SIGNED_INT8 || type == CL_SIGNED_INT16 || type == CL_SIGNED_INT32
               ? FillColor::ints
           : type == CL_UNSIGNED_INT8 || type == CL_UNSIGNED_INT16 || type == CL_UNSIGNED_INT32
               ? FillColor::uints
               : FillColor::floats;
}

template <class Image, class T, class A>
void copy_image_region(const Queue& queue, const ImageObject& image, ImageKind kind,
                       ImageFormat format, const BufferSlice<T, A>& slice, bool to_buffer,
                       const ImageRegion& region, const WaitList& wait, cl_event* event,
                       OnError on_error) {
    static_assert(std::is_same_v<T, typename Image::host_type>,
                  "queue.copy between an image and a buffer: the buffer's elements must be the "
                  "image's pixel host type (cl_uchar4 for pixel::rgba8, float for r_f32, ...)");
    copy_image_buffer(image, kind, format, SliceAccess::mem(slice), slice.offset(), slice.size(),
                      sizeof(T), to_buffer, queue, region, wait, event, on_error);
}

/// What a map of an image returns: the view, with `with_event` the map command's Event beside it.
template <class Pixel, class... O>
using ImageMapResult =
    std::conditional_t<asks_event<O...>, std::pair<MappedImage<Pixel>, Event>, MappedImage<Pixel>>;

/// The queue's image commands (queue.hpp, "the open commands"): the image, an optional
/// ImageRegion (the whole image without one), host memory. Host memory is a contiguous range of
/// the image's pixel host type (a vector, array, span); rows are packed unless the region gives
/// row_pitch / slice_pitch. Transfers and maps block; fills and copies are enqueued. Options as
/// the buffer commands': `with_event` (the command's Event, beside the view for a map), a wait
/// list, an error target, in any order.
template <class Image, class Verb>
requires is_image<Image>
struct CommandTraits<Image, Verb> {
    using Pixel = typename Image::host_type;

    /// queue.read(image, [region,] dst): reads pixels into host memory (blocking).
    template <class Host, CommandOption... O>
    static EventIfAsked<O...> command(verb::Read, const Queue& queue, const Image& image,
                                      Host&& dst, O&&... options) {
        return command(verb::Read{}, queue, image, image.whole(), std::forward<Host>(dst),
                       std::forward<O>(options)...);
    }
    template <class Host, CommandOption... O>
    static EventIfAsked<O...> command(verb::Read, const Queue& queue, const Image& image,
                                      const ImageRegion& region, Host&& dst, O&&... options) {
        static_assert(!asks_nonblocking<O...>, "queue.read(image, ...): an image read blocks");
        if constexpr (!asks_nonblocking<O...>) {
            return run_command(
                [&](const WaitList& wait, cl_event* event, OnError on_error) {
                    transfer<true>(queue, image, region, std::forward<Host>(dst), wait, event,
                                   on_error);
                },
                options...);
        }
    }
    /// queue.write(image, [region,] src): writes host pixels over the image (blocking).
    template <class Host, CommandOption... O>
    static EventIfAsked<O...> command(verb::Write, const Queue& queue, const Image& image,
                                      Host&& src, O&&... options) {
        return command(verb::Write{}, queue, image, image.whole(), std::forward<Host>(src),
                       std::forward<O>(options)...);
    }
    template <class Host, CommandOption... O>
    static EventIfAsked<O...> command(verb::Write, const Queue& queue, const Image& image,
                                      const ImageRegion& region, Host&& src, O&&... options) {
        static_assert(!asks_nonblocking<O...>, "queue.write(image, ...): an image write blocks");
        if constexpr (!asks_nonblocking<O...>) {
            return run_command(
                [&](const WaitList& wait, cl_event* event, OnError on_error) {
                    transfer<false>(queue, image, region, std::forward<Host>(src), wait, event,
                                    on_error);
                },
                options...);
        }
    }

    /// queue.map_read(image, [region]): a MappedImage of const pixels (blocking); with
    /// `with_event`, `auto [view, event] = queue.map_read(image, openclaw::with_event)`.
    template <CommandOption... O>
    static ImageMapResult<const Pixel, O...> command(verb::MapRead, const Queue& queue,
                                                     const Image& image, O&&... options) {
        return map<const Pixel>(queue, image, image.whole(), CL_MAP_READ, options...);
    }
    template <CommandOption... O>
    static ImageMapResult<const Pixel, O...> command(verb::MapRead, const Queue& queue,
                                                     const Image& image, const ImageRegion& region,
                                                     O&&... options) {
        return map<const Pixel>(queue, image, region, CL_MAP_READ, options...);
    }
    /// queue.map_write(image, [region]): CL_MAP_WRITE.
    template <CommandOption... O>
    static ImageMapResult<Pixel, O...> command(verb::MapWrite, const Queue& queue,
                                               const Image& image, O&&... options) {
        return map<Pixel>(queue, image, image.whole(), CL_MAP_WRITE, options...);
    }
    template <CommandOption... O>
    static ImageMapResult<Pixel, O...> command(verb::MapWrite, const Queue& queue,
                                               const Image& image, const ImageRegion& region,
                                               O&&... options) {
        return map<Pixel>(queue, image, region, CL_MAP_WRITE, options...);
    }
    /// queue.map_discard(image, [region]): CL_MAP_WRITE_INVALIDATE_REGION.
    template <CommandOption... O>
    static ImageMapResult<Pixel, O...> command(verb::MapDiscard, const Queue& queue,
                                               const Image& image, O&&... options) {
        return map<Pixel>(queue, image, image.whole(), CL_MAP_WRITE_INVALIDATE_REGION, options...);
    }
    template <CommandOption... O>
    static ImageMapResult<Pixel, O...> command(verb::MapDiscard, const Queue& queue,
                                               const Image& image, const ImageRegion& region,
                                               O&&... options) {
        return map<Pixel>(queue, image, region, CL_MAP_WRITE_INVALIDATE_REGION, options...);
    }
    /// queue.map_read_write(image, [region]).
    template <CommandOption... O>
    static ImageMapResult<Pixel, O...> command(verb::MapReadWrite, const Queue& queue,
                                               const Image& image, O&&... options) {
        return map<Pixel>(queue, image, image.whole(), CL_MAP_READ | CL_MAP_WRITE, options...);
    }
    template <CommandOption... O>
    static ImageMapResult<Pixel, O...> command(verb::MapReadWrite, const Queue& queue,
                                               const Image& image, const ImageRegion& region,
                                               O&&... options) {
        return map<Pixel>(queue, image, region, CL_MAP_READ | CL_MAP_WRITE, options...);
    }

    /// queue.fill(image, region, colour) (clEnqueueFillImage; enqueued): a cl_float4 for
    /// normalized and float formats, a cl_int4 or cl_uint4 for signed or unsigned integer ones
    /// (checked against the image's format).
    template <class Color, CommandOption... O>
    requires is_fill_color<Color>
    static EventIfAsked<O...> command(verb::Fill, const Queue& queue, const Image& image,
                                      const ImageRegion& region, const Color& color,
                                      O&&... options) {
        static_assert(fill_color_of<Color>() == fill_color_for(Image::pixel_type::type),
                      "queue.fill(image, region, colour): the colour does not fit the image's "
                      "pixel format: cl_float4 for normalized and floating-point formats (RGBA8, "
                      "R32F), cl_int4 for signed integer formats, cl_uint4 for unsigned integer "
                      "formats");
        return run_command(
            [&](const WaitList& wait, cl_event* event, OnError on_error) {
                fill_image(image.image_, Image::kind, Image::format, queue, region, &color,
                           fill_color_of<Color>(), wait, event, on_error);
            },
            options...);
    }

    /// queue.copy(image, region, buffer_region): the pixels of `region` into the buffer region,
    /// packed (clEnqueueCopyImageToBuffer; enqueued). The buffer region must hold them.
    template <BufferRegion Region, CommandOption... O>
    static EventIfAsked<O...> command(verb::Copy, const Queue& queue, const Image& src,
                                      const ImageRegion& region, const Region& dst,
                                      O&&... options) {
        return run_command(
            [&](const WaitList& wait, cl_event* event, OnError on_error) {
                copy_image_region<Image>(queue, src.image_, Image::kind, Image::format,
                                         region_of(dst), true, region, wait, event, on_error);
            },
            options...);
    }
    /// queue.copy(buffer_region, image, region): packed pixels into `region` of the image
    /// (clEnqueueCopyBufferToImage; enqueued).
    template <BufferRegion Region, CommandOption... O>
    static EventIfAsked<O...> command(verb::Copy, const Queue& queue, const Region& src,
                                      const Image& dst, const ImageRegion& region, O&&... options) {
        return run_command(
            [&](const WaitList& wait, cl_event* event, OnError on_error) {
                copy_image_region<Image>(queue, dst.image_, Image::kind, Image::format,
                                         region_of(src), false, region, wait, event, on_error);
            },
            options...);
    }
    /// queue.copy(image, region, other, to): `region` to `to` (its first pixel) in an image of the
    /// same pixel format (clEnqueueCopyImage; enqueued).
    template <class Destination, CommandOption... O>
    requires is_image<Destination>
    static EventIfAsked<O...> command(verb::Copy, const Queue& queue, const Image& src,
                                      const ImageRegion& region, const Destination& dst,
                                      const std::array<std::size_t, 3>& to, O&&... options) {
        static_assert(Image::format.format.image_channel_order ==
                              Destination::format.format.image_channel_order &&
                          Image::format.format.image_channel_data_type ==
                              Destination::format.format.image_channel_data_type,
                      "queue.copy(image, region, image, to): images copy only to images of their "
                      "pixel format (copy through a buffer, or convert in a kernel)");
        return run_command(
            [&](const WaitList& wait, cl_event* event, OnError on_error) {
                copy_images(src.image_, Image::kind, Image::format, dst.image_, Destination::kind,
                            Destination::format, region, to, queue, wait, event, on_error);
            },
            options...);
    }

  private:
    template <class View, class... O>
    static ImageMapResult<View, O...> map(const Queue& queue, const Image& image,
                                          const ImageRegion& region, cl_map_flags flags,
                                          O&... options) {
        return run_map(
            [&](const WaitList& wait, cl_event* event, OnError on_error) {
                return image.template map<View>(queue, region, flags, wait, event, on_error);
            },
            options...);
    }

    // The transfers' one body: the host memory checked at compile time against the image's
    // pixel type (writable for a read), then the image's transfer.
    template <bool Read, class Host>
    static void transfer(const Queue& queue, const Image& image, const ImageRegion& region,
                         Host&& host, const WaitList& wait, cl_event* event, OnError on_error) {
        using Memory = std::conditional_t<Read, Pixel, const Pixel>;
        constexpr bool fits = std::is_convertible_v<Host&&, std::span<Memory>>;
        static_assert(fits || !Read,
                      "queue.read(image, ...): the host memory must be a writable vector, array "
                      "or span of the image's pixel type, Image::host_type (cl_uchar4 for an "
                      "RGBA8 image, float for R32F)");
        static_assert(fits || Read,
                      "queue.write(image, ...): the host memory must be a vector, array or span "
                      "of the image's pixel type, Image::host_type (cl_uchar4 for an RGBA8 image, "
                      "float for R32F)");
        const std::span<Memory> memory = host_span<Memory>(std::forward<Host>(host));
        image.transfer(Read, queue, region, memory.data(), memory.size(), wait, event, on_error);
    }
};
}  // namespace detail

OPENCLAW_END_NAMESPACE

#if OPENCLAW_HEADER_ONLY
#include <openclaw/impl/image.ipp>
#endif

#include <openclaw/detail/base/macros_pop.hpp>
