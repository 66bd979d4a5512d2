// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// Pixel formats (the images wing): pixel::rgba8, pixel::r_f32, ... name an OpenCL channel order
// and data type and the host type of one pixel; PixelFormat is what any such struct satisfies.
// image.hpp includes this header.

#include <openclaw/config.hpp>

#include <concepts>
#include <type_traits>

OPENCLAW_BEGIN_NAMESPACE

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

OPENCLAW_END_NAMESPACE

#include <openclaw/detail/base/macros_pop.hpp>
