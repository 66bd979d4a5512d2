// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-template bodies declared in <openclaw/image.hpp>: compiled once into the openclaw
// library (src/), or included by that header itself when openclaw is header-only.

#include <openclaw/image.hpp>

OPENCLAW_BEGIN_NAMESPACE

namespace detail {

namespace images {

inline std::string triple(const std::array<std::size_t, 3>& v) {
    return concat("(", v[0], ", ", v[1], ", ", v[2], ")");
}

// Refuses an extent past what a device allows, naming the device, the limit and the value.
inline bool check_limit(const Device& device, const char* limit_name, std::size_t limit,
                        const char* what, std::size_t value, OnError on_error) {
    if (value > limit) {
        fail(on_error, CL_INVALID_IMAGE_SIZE, "clCreateImage", describe_safely([&](OnError quiet) {
                 return concat(what, " ", value, " exceeds ", limit_name, " = ", limit,
                               " of device \"", device.name(quiet), "\"");
             }));
        return false;
    }
    return true;
}

inline bool check_limits(const std::vector<Device>& devices, ImageKind kind,
                         const std::array<std::size_t, 3>& extent, OnError on_error) {
    for (const Device& device : devices) {
        Relay step(on_error);
        bool ok = true;
        if (kind.shape == ImageShape::image3d) {
            ok = check_limit(device, "CL_DEVICE_IMAGE3D_MAX_WIDTH",
                             device.info<CL_DEVICE_IMAGE3D_MAX_WIDTH>(step), "width", extent[0],
                             step) &&
                 check_limit(device, "CL_DEVICE_IMAGE3D_MAX_HEIGHT",
                             device.info<CL_DEVICE_IMAGE3D_MAX_HEIGHT>(step), "height", extent[1],
                             step) &&
                 check_limit(device, "CL_DEVICE_IMAGE3D_MAX_DEPTH",
                             device.info<CL_DEVICE_IMAGE3D_MAX_DEPTH>(step), "depth", extent[2],
                             step);
        } else {
            ok = check_limit(device, "CL_DEVICE_IMAGE2D_MAX_WIDTH",
                             device.info<CL_DEVICE_IMAGE2D_MAX_WIDTH>(step), "width", extent[0],
                             step) &&
                 check_limit(device, "CL_DEVICE_IMAGE2D_MAX_HEIGHT",
                             device.info<CL_DEVICE_IMAGE2D_MAX_HEIGHT>(step), "height", extent[1],
                             step);
            if (kind.shape == ImageShape::image2d_array) {
                ok = ok && check_limit(device, "CL_DEVICE_IMAGE_MAX_ARRAY_SIZE",
                                       device.info<CL_DEVICE_IMAGE_MAX_ARRAY_SIZE>(step), "layers",
                                       extent[2], step);
            }
        }
        if (!ok || step.failed()) {
            return false;
        }
    }
    return true;
}

// Refuses a region that is empty or not inside an image of `extent` pixels.
inline bool check_region(const char* call, const ImageRegion& region,
                         const std::array<std::size_t, 3>& extent, bool two_d, OnError on_error) {
    for (std::size_t i = 0; i < 3; ++i) {
        if (region.size[i] == 0) {
            fail(on_error, CL_INVALID_VALUE, call,
                 concat("region size ", triple(region.size),
                        " is empty: every dimension needs at least one pixel",
                        two_d ? " (the third is 1 for a 2D image: use ImageRegion::rect)" : ""));
            return false;
        }
        if (!range_fits(region.origin[i], region.size[i], extent[i])) {
            fail(on_error, CL_INVALID_VALUE, call,
                 concat("region origin ", triple(region.origin), " + size ", triple(region.size),
                        " is outside the image of ", extent[0], " x ", extent[1], " x ", extent[2],
                        " pixels"));
            return false;
        }
    }
    return true;
}

// The host layout of a transfer in bytes: the row and slice pitches, after checking that they
// hold the region, that the span holds the layout and that nothing overflows. False (after
// reporting why) otherwise.
inline bool host_layout(const char* call, const ImageRegion& region, std::size_t pixels,
                        std::size_t pixel_size, bool two_d, std::size_t& row_bytes,
                        std::size_t& slice_bytes, OnError on_error) {
    const std::size_t row = region.row_pitch != 0 ? region.row_pitch : region.size[0];
    std::size_t packed_slice = 0;  // a slice of rows at the row pitch
    const bool row_fits = checked_mul(row, region.size[1], packed_slice);
    const std::size_t slice = region.slice_pitch != 0 ? region.slice_pitch : packed_slice;
    const std::size_t needed = region.host_pixels();
    std::size_t layout_bytes = 0;
    if (!row_fits || needed == static_cast<std::size_t>(-1) ||
        !checked_mul(row, pixel_size, row_bytes) || !checked_mul(slice, pixel_size, slice_bytes) ||
        !checked_mul(needed, pixel_size, layout_bytes)) {
        fail(on_error, CL_INVALID_VALUE, call,
             concat("host row pitch ", row, " pixels and slice pitch ", slice,
                    " pixels for a region of ", region.size[0], " x ", region.size[1], " x ",
                    region.size[2], " pixels of ", pixel_size,
                    " bytes: the layout's size does not fit in size_t"));
        return false;
    }
    if (row < region.size[0] || slice < packed_slice) {
        fail(on_error, CL_INVALID_VALUE, call,
             concat("host row pitch ", row, " pixels and slice pitch ", slice,
                    " pixels are too small for a region of ", region.size[0], " x ", region.size[1],
                    " pixels"));
        return false;
    }
    if (pixels < needed) {
        fail(on_error, CL_INVALID_VALUE, call,
             concat("the host span holds ", pixels, " pixels, the region of ", region.size[0],
                    " x ", region.size[1], " x ", region.size[2], " pixels (row pitch ", row,
                    ", slice pitch ", slice, ") needs ", needed));
        return false;
    }
    slice_bytes = two_d ? 0 : slice * pixel_size;  // a 2D image's slice pitch must be 0
    return true;
}

inline std::string describe(ImageKind kind, ImageFormat format, const ImageRegion& region,
                            const std::array<std::size_t, 3>& extent) {
    return concat("region origin ", triple(region.origin), " size ", triple(region.size), " of a ",
                  kind.name, " of ", extent[0], " x ", extent[1], " x ", extent[2], " ",
                  format.name, " pixels");
}

}  // namespace images

OPENCLAW_INLINE bool format_supported(cl_context context, cl_mem_flags flags,
                                      cl_mem_object_type type, cl_image_format format,
                                      OnError on_error) {
    cl_uint count = 0;
    if (!check(clGetSupportedImageFormats(context, flags, type, 0, nullptr, &count),
               "clGetSupportedImageFormats", on_error)) {
        return false;
    }
    std::vector<cl_image_format> formats(count);
    if (count != 0 &&
        !check(clGetSupportedImageFormats(context, flags, type, count, formats.data(), nullptr),
               "clGetSupportedImageFormats", on_error)) {
        return false;
    }
    for (const cl_image_format& f : formats) {
        if (f.image_channel_order == format.image_channel_order &&
            f.image_channel_data_type == format.image_channel_data_type) {
            return true;
        }
    }
    return false;
}

[[gnu::noinline]] OPENCLAW_INLINE ImageObject create_image(
    const Context& context, ImageKind kind, ImageFormat format, std::array<std::size_t, 3> extent,
    const void* init, std::size_t init_pixels, OnError on_error) {
    constexpr const char* call = "clCreateImage";
    if (!context) {
        refuse_empty(on_error, CL_INVALID_CONTEXT, call, "context");
        return {};
    }
    if (extent[0] == 0 || extent[1] == 0 || extent[2] == 0) {
        fail(on_error, CL_INVALID_IMAGE_SIZE, call,
             concat(kind.name, " of ", extent[0], " x ", extent[1], kind.two_d() ? "" : " x ",
                    kind.two_d() ? std::string() : concat(extent[2]),
                    " pixels: every extent must be at least 1"));
        return {};
    }
    std::size_t pixels = 0;
    std::size_t bytes = 0;
    if (!checked_mul(extent[0], extent[1], pixels) || !checked_mul(pixels, extent[2], pixels) ||
        !checked_mul(pixels, format.pixel_size, bytes)) {
        fail(on_error, CL_INVALID_IMAGE_SIZE, call,
             concat(kind.name, " of ", extent[0], " x ", extent[1], " x ", extent[2],
                    " pixels: its size does not fit in size_t"));
        return {};
    }
    if (init != nullptr && init_pixels != pixels) {
        fail(on_error, CL_INVALID_VALUE, call,
             concat("the host span holds ", init_pixels, " pixels, the ", kind.name, " of ",
                    extent[0], " x ", extent[1], " x ", extent[2], " pixels needs ", pixels));
        return {};
    }
    Relay step(on_error);
    const std::vector<Device> devices = image_devices(context.get(), call, step);
    if (devices.empty() || step.failed() ||
        !images::check_limits(devices, kind, extent, on_error)) {
        return {};
    }
    const bool supported =
        format_supported(context.get(), format.flags, kind.mem_type, format.format, step);
    if (step.failed()) {
        return {};
    }
    if (!supported) {
        fail(on_error, CL_IMAGE_FORMAT_NOT_SUPPORTED, call,
             concat("pixel format ", format.name, " is not supported for ", kind.kernel_type,
                    " images with ", format.access,
                    " access by the context (clGetSupportedImageFormats)"));
        return {};
    }
    cl_image_desc desc{};
    desc.image_type = kind.mem_type;
    desc.image_width = extent[0];
    desc.image_height = extent[1];
    if (kind.shape == ImageShape::image3d) {
        desc.image_depth = extent[2];
    } else if (kind.shape == ImageShape::image2d_array) {
        desc.image_array_size = extent[2];
    }
    cl_mem_flags flags = format.flags;
    if (init != nullptr) {
        flags |= CL_MEM_COPY_HOST_PTR;
    }
    cl_int code = CL_SUCCESS;
    // CL_MEM_COPY_HOST_PTR only reads host_ptr; the C API merely lacks the const.
    cl_mem raw =
        clCreateImage(context.get(), flags, &format.format, &desc, const_cast<void*>(init), &code);
    raw = created_or_null(raw, code);
    if (!check(code, call, on_error, [&] {
            return concat(kind.name, " of ", extent[0], " x ", extent[1], " x ", extent[2],
                          " pixels, ", format.name, ", ", format.access);
        })) {
        return {};
    }
    ImageObject image;
    image.mem.handle = Handle<cl_mem>::adopt(raw);
    image.mem.context = context.get();
    image.mem.bytes = bytes;
    image.extent = {extent[0], extent[1], extent[2]};
    return image;
}

[[gnu::noinline]] OPENCLAW_INLINE ImageObject describe_image(Handle<cl_mem> handle, ImageKind kind,
                                                             ImageFormat format, OnError on_error) {
    if (!handle) {
        return {};
    }
    Relay step(on_error);
    const cl_mem raw = handle.get();
    const cl_mem_object_type type = get_info<cl_mem, CL_MEM_TYPE>(step, raw);
    const cl_image_format actual =
        type == kind.mem_type ? get_info<ImageInfo, CL_IMAGE_FORMAT>(step, raw) : cl_image_format{};
    if (step.failed()) {
        return {};
    }
    if (type != kind.mem_type) {
        fail(on_error, CL_INVALID_MEM_OBJECT, "Image::adopt",
             concat("the memory object is not a ", kind.kernel_type, " image (CL_MEM_TYPE = ", type,
                    ")"));
        return {};
    }
    if (actual.image_channel_order != format.format.image_channel_order ||
        actual.image_channel_data_type != format.format.image_channel_data_type) {
        fail(on_error, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "Image::adopt",
             concat("the image's format is (", channel_order_name(actual.image_channel_order), ", ",
                    channel_type_name(actual.image_channel_data_type), "), the type's pixel is ",
                    format.name));
        return {};
    }
    const std::size_t width = get_info<ImageInfo, CL_IMAGE_WIDTH>(step, raw);
    const std::size_t height = get_info<ImageInfo, CL_IMAGE_HEIGHT>(step, raw);
    std::size_t third = 1;
    if (kind.shape == ImageShape::image3d) {
        third = get_info<ImageInfo, CL_IMAGE_DEPTH>(step, raw);
    } else if (kind.shape == ImageShape::image2d_array) {
        third = get_info<ImageInfo, CL_IMAGE_ARRAY_SIZE>(step, raw);
    }
    ImageObject image;
    image.mem.context = get_info<cl_mem, CL_MEM_CONTEXT>(step, raw);
    image.mem.bytes = get_info<cl_mem, CL_MEM_SIZE>(step, raw);
    if (step.failed()) {
        return {};
    }
    image.mem.handle = std::move(handle);
    image.extent = {width, height, third};
    return image;
}

[[gnu::noinline]] OPENCLAW_INLINE void image_transfer(const ImageObject& image, ImageKind kind,
                                                      ImageFormat format, bool read,
                                                      const Queue& queue, const ImageRegion& region,
                                                      void* host, std::size_t pixels,
                                                      const WaitList& wait, cl_event* event,
                                                      OnError on_error) {
    const ReportScope reports_about(queue.context_handle());
    const char* call = read ? "clEnqueueReadImage" : "clEnqueueWriteImage";
    std::size_t row = 0;
    std::size_t slice = 0;
    if (!check_queue(image.mem, queue, call, "image", on_error) ||
        !images::check_region(call, region, image.size(), kind.two_d(), on_error) ||
        !images::host_layout(call, region, pixels, format.pixel_size, kind.two_d(), row, slice,
                             on_error) ||
        !wait.check(call, queue.context_handle(), on_error) ||
        !map_registry.check(image.mem.get(), read ? Use::read : Use::write, call, on_error)) {
        return;
    }
    if (!BlockingWait::before(wait, call, on_error)) [[unlikely]] {
        return;
    }
    const BlockingWait guard(wait, event);
    const cl_int code =
        enqueued(read ? clEnqueueReadImage(queue.get(), image.mem.get(), CL_TRUE,
                                           region.origin.data(), region.size.data(), row, slice,
                                           host, wait.size(), wait.data(), guard.event())
                      : clEnqueueWriteImage(queue.get(), image.mem.get(), CL_TRUE,
                                            region.origin.data(), region.size.data(), row, slice,
                                            host, wait.size(), wait.data(), guard.event()),
                 guard.event());
    if (guard.wait_failed(code, wait, call, on_error)) [[unlikely]] {
        return;
    }
    if (check(code, call, on_error,
              [&] { return images::describe(kind, format, region, image.size()); })) {
        (void)guard.after(call, on_error);
    }
}

[[gnu::noinline]] OPENCLAW_INLINE void fill_image(const ImageObject& image, ImageKind kind,
                                                  ImageFormat format, const Queue& queue,
                                                  const ImageRegion& region, const void* color,
                                                  FillColor color_kind, const WaitList& wait,
                                                  cl_event* event, OnError on_error) {
    const ReportScope reports_about(queue.context_handle());
    constexpr const char* call = "clEnqueueFillImage";
    const cl_channel_type type = format.format.image_channel_data_type;
    const FillColor wanted = fill_color_for(type);  // also a compile-time check of Queue::fill
    const auto name = [](FillColor c) {
        return c == FillColor::ints ? "cl_int4" : c == FillColor::uints ? "cl_uint4" : "cl_float4";
    };
    if (!check_queue(image.mem, queue, call, "image", on_error) ||
        !images::check_region(call, region, image.size(), kind.two_d(), on_error) ||
        !wait.check(call, queue.context_handle(), on_error) ||
        !map_registry.check(image.mem.get(), Use::write, call, on_error)) {
        return;
    }
    if (color_kind != wanted) {
        fail(on_error, CL_INVALID_VALUE, call,
             concat("a ", format.name, " image is filled with a ", name(wanted), " colour, not a ",
                    name(color_kind)));
        return;
    }
    (void)check(
        enqueued(clEnqueueFillImage(queue.get(), image.mem.get(), color, region.origin.data(),
                                    region.size.data(), wait.size(), wait.data(), event),
                 event),
        call, on_error, [&] { return images::describe(kind, format, region, image.size()); });
}

[[gnu::noinline]] OPENCLAW_INLINE void copy_image_buffer(
    const ImageObject& image, ImageKind kind, ImageFormat format, const MemObject& buffer,
    std::size_t offset, std::size_t count, std::size_t element_size, bool to_buffer,
    const Queue& queue, const ImageRegion& region, const WaitList& wait, cl_event* event,
    OnError on_error) {
    const ReportScope reports_about(queue.context_handle());
    const char* call = to_buffer ? "clEnqueueCopyImageToBuffer" : "clEnqueueCopyBufferToImage";
    if (!buffer.get()) {
        refuse_empty(on_error, CL_INVALID_MEM_OBJECT, call, "buffer");
        return;
    }
    if (!check_queue(image.mem, queue, call, "image", on_error) ||
        !images::check_region(call, region, image.size(), kind.two_d(), on_error) ||
        !check_range(call, to_buffer ? "destination" : "source", offset, count,
                     buffer.bytes / element_size, on_error) ||
        !wait.check(call, queue.context_handle(), on_error)) {
        return;
    }
    if (buffer.context != image.mem.context) {
        fail(on_error, CL_INVALID_CONTEXT, call,
             "the image and the buffer belong to different contexts");
        return;
    }
    // The region's pixels, packed: checked products (check_region bounds each by the image).
    std::size_t pixels = 0;
    std::size_t bytes = 0;
    if (!checked_mul(region.size[0], region.size[1], pixels) ||
        !checked_mul(pixels, region.size[2], pixels) ||
        !checked_mul(pixels, format.pixel_size, bytes) || count * element_size < bytes) {
        fail(on_error, CL_INVALID_VALUE, call,
             concat("the buffer region holds ", count, " elements (", count * element_size,
                    " bytes), the image region ", pixels, " pixels of ", format.pixel_size,
                    " bytes"));
        return;
    }
    if (!map_registry.check(image.mem.get(), to_buffer ? Use::read : Use::write, call, on_error) ||
        !map_registry.check(buffer.get(), to_buffer ? Use::write : Use::read, call, on_error)) {
        return;
    }
    const std::size_t at = offset * element_size;
    const cl_int code = enqueued(
        to_buffer ? clEnqueueCopyImageToBuffer(queue.get(), image.mem.get(), buffer.get(),
                                               region.origin.data(), region.size.data(), at,
                                               wait.size(), wait.data(), event)
                  : clEnqueueCopyBufferToImage(queue.get(), buffer.get(), image.mem.get(), at,
                                               region.origin.data(), region.size.data(),
                                               wait.size(), wait.data(), event),
        event);
    (void)check(code, call, on_error,
                [&] { return images::describe(kind, format, region, image.size()); });
}

[[gnu::noinline]] OPENCLAW_INLINE void copy_images(
    const ImageObject& source, ImageKind source_kind, ImageFormat source_format,
    const ImageObject& destination, ImageKind destination_kind, ImageFormat destination_format,
    const ImageRegion& region, const std::array<std::size_t, 3>& to, const Queue& queue,
    const WaitList& wait, cl_event* event, OnError on_error) {
    const ReportScope reports_about(queue.context_handle());
    constexpr const char* call = "clEnqueueCopyImage";
    if (!destination.mem.get()) {
        refuse_empty(on_error, CL_INVALID_MEM_OBJECT, call, "destination image");
        return;
    }
    const ImageRegion target{to, region.size};
    if (!check_queue(source.mem, queue, call, "image", on_error) ||
        !images::check_region(call, region, source.size(), source_kind.two_d(), on_error) ||
        !images::check_region(call, target, destination.size(), destination_kind.two_d(),
                              on_error) ||
        !wait.check(call, queue.context_handle(), on_error)) {
        return;
    }
    if (destination.mem.context != source.mem.context) {
        fail(on_error, CL_INVALID_CONTEXT, call,
             "the source and destination images belong to different contexts");
        return;
    }
    if (source_format.format.image_channel_order != destination_format.format.image_channel_order ||
        source_format.format.image_channel_data_type !=
            destination_format.format.image_channel_data_type) {
        fail(on_error, CL_IMAGE_FORMAT_MISMATCH, call,
             concat("the source is ", source_format.name, ", the destination ",
                    destination_format.name, ": images copy only to images of their format"));
        return;
    }
    if (!map_registry.check(source.mem.get(), Use::read, call, on_error) ||
        !map_registry.check(destination.mem.get(), Use::write, call, on_error)) {
        return;
    }
    (void)check(enqueued(clEnqueueCopyImage(queue.get(), source.mem.get(), destination.mem.get(),
                                            region.origin.data(), to.data(), region.size.data(),
                                            wait.size(), wait.data(), event),
                         event),
                call, on_error, [&] {
                    return images::describe(source_kind, source_format, region, source.size());
                });
}

[[gnu::noinline]] OPENCLAW_INLINE ImageMapping map_image(const ImageObject& image, ImageKind kind,
                                                         ImageFormat format, const Queue& queue,
                                                         cl_map_flags flags,
                                                         const ImageRegion& region,
                                                         const WaitList& wait, cl_event* event,
                                                         OnError on_error) {
    const ReportScope reports_about(queue.context_handle());
    constexpr const char* call = "clEnqueueMapImage";
    if (!check_queue(image.mem, queue, call, "image", on_error) ||
        !images::check_region(call, region, image.size(), kind.two_d(), on_error) ||
        !wait.check(call, queue.context_handle(), on_error)) {
        return {};
    }
    if (!BlockingWait::before(wait, call, on_error)) [[unlikely]] {
        return {};
    }
    // Rows of an image region are not one byte range: the whole image counts as mapped.
    const bool writable = (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) != 0;
    const std::uint64_t ticket =
        map_registry.add(image.mem.get(), 0, image.mem.bytes, writable, call, on_error);
    if (ticket == 0) {
        return {};
    }
    std::size_t row_pitch = 0;
    std::size_t slice_pitch = 0;
    cl_int code = CL_SUCCESS;
    const BlockingWait guard(wait, event);
    void* host = clEnqueueMapImage(queue.get(), image.mem.get(), CL_TRUE, flags,
                                   region.origin.data(), region.size.data(), &row_pitch,
                                   &slice_pitch, wait.size(), wait.data(), guard.event(), &code);
    if (enqueued(code, guard.event()) != CL_SUCCESS) {
        map_registry.remove(ticket);
        if (!guard.wait_failed(code, wait, call, on_error)) {
            fail(on_error, code, call, images::describe(kind, format, region, image.size()));
        }
        return {};
    }
    if (!guard.ran()) [[unlikely]] {  // mapped, but the map never ran
        (void)clEnqueueUnmapMemObject(queue.get(), image.mem.get(), host, 0, nullptr, nullptr);
        map_registry.remove(ticket);
        guard.report(call, on_error);
        return {};
    }
    ImageMapping view;
    const std::size_t span_bytes = (region.size[2] - 1) * slice_pitch +
                                   (region.size[1] - 1) * row_pitch +
                                   region.size[0] * format.pixel_size;  // inside the image
    view.mapping = Mapping::adopt(queue.get(), image.mem.get(), host, span_bytes, ticket);
    view.size = region.size;
    view.row_pitch = row_pitch;
    view.slice_pitch = kind.two_d() ? 0 : slice_pitch;
    return view;
}

}  // namespace detail

OPENCLAW_END_NAMESPACE
