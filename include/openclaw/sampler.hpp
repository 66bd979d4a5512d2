// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// Sampler (the images wing): a sampler object for read_imagef(image, sampler, coord), its
// addressing and filter modes, and SamplerParam, the `sampler_t` kernel parameter it is passed
// to. image.hpp includes this header.

#include <openclaw/context.hpp>
#include <openclaw/detail/base/handle.hpp>
#include <openclaw/detail/base/info.hpp>
#include <openclaw/device.hpp>
#include <openclaw/error.hpp>
#include <openclaw/params.hpp>

#include <vector>

OPENCLAW_BEGIN_NAMESPACE

/// `sampler_t`: accepts a Sampler.
struct SamplerParam {};

/// A sampler object (`sampler_t` kernel parameter): coordinate normalization, addressing and
/// filtering, for read_imagef(image, sampler, coord).
template <>
class BasicSampler<0> {
  public:
    /// An empty sampler; assign a real one before use.
    BasicSampler() = default;

    /// A sampler of `context`: normalized coordinates in [0, 1) or pixel coordinates, what
    /// coordinates outside the image read, and the filter.
    BasicSampler(const Context& context, bool normalized_coords, AddressMode addressing,
                 FilterMode filter, OnError on_error = {})
        : handle_(create(context, normalized_coords, addressing, filter, on_error)) {
        if (handle_) {
            context_ = context.get();
        }
    }

    /// Takes ownership of `raw` (also if this fails).
    [[nodiscard]] static Sampler adopt(cl_sampler raw, OnError on_error = {}) {
        return Sampler(detail::Handle<cl_sampler>::adopt(raw), on_error);
    }
    /// Shares `raw` (retains it).
    [[nodiscard]] static Sampler retain(cl_sampler raw, OnError on_error = {}) {
        return Sampler(detail::Handle<cl_sampler>::retain(raw, on_error), on_error);
    }

    /// Whether the sampler takes normalized coordinates (CL_SAMPLER_NORMALIZED_COORDS), as the
    /// driver reports it.
    bool normalized_coords(OnError on_error = {}) const {
        return info<CL_SAMPLER_NORMALIZED_COORDS>(on_error);
    }
    /// The addressing mode (CL_SAMPLER_ADDRESSING_MODE), as the driver reports it.
    AddressMode addressing(OnError on_error = {}) const {
        return static_cast<AddressMode>(info<CL_SAMPLER_ADDRESSING_MODE>(on_error));
    }
    /// The filter mode (CL_SAMPLER_FILTER_MODE), as the driver reports it.
    FilterMode filter(OnError on_error = {}) const {
        return static_cast<FilterMode>(info<CL_SAMPLER_FILTER_MODE>(on_error));
    }

    /// Any clGetSamplerInfo parameter, with its C++ type from openclaw's info table.
    template <cl_sampler_info Param>
    detail::info_t<cl_sampler, Param> info(OnError on_error = {}) const {
        return detail::get_info<cl_sampler, Param>(on_error, get());
    }

    /// The raw cl_sampler (not retained; null when empty).
    cl_sampler get() const noexcept { return handle_.get(); }
    /// The raw context the sampler belongs to (not retained: the sampler keeps it alive).
    cl_context context_handle() const noexcept { return context_; }
    /// True when the sampler holds a sampler object.
    explicit operator bool() const noexcept { return static_cast<bool>(handle_); }

  private:
    BasicSampler(detail::Handle<cl_sampler> handle, OnError on_error);

    static detail::Handle<cl_sampler> create(const Context& context, bool normalized,
                                             AddressMode addressing, FilterMode filter,
                                             OnError on_error);

    detail::Handle<cl_sampler> handle_;
    detail::ResetOnMove<cl_context> context_;
};

namespace detail {

/// The context's devices that support images; fails (CL_INVALID_OPERATION) when none
/// does (what a sampler and an image are made for).
std::vector<Device> image_devices(cl_context context, const char* call, OnError on_error);

template <>
struct ParamTraits<SamplerParam> {
    static constexpr ParamKind kind = ParamKind::sampler;
    using element_type = cl_uint;
};

/// The kernel-argument rule of a sampler: its cl_sampler, for a sampler_t parameter.
template <>
struct ArgumentTraits<Sampler> {
    static constexpr ArgForm form = ArgForm::object;
    static constexpr const char* name = "sampler";
    static constexpr bool dynamic = false;  // DynamicKernel takes no samplers
    static cl_sampler handle(const Sampler& sampler) noexcept { return sampler.get(); }
    static cl_context context(const Sampler& sampler) noexcept { return sampler.context_handle(); }

    template <class P>
    static consteval Verdict verdict() {
        if constexpr (ParamTraits<P>::kind == ParamKind::scalar) {
            return Verdict::scalar_got_object;
        } else if constexpr (ParamTraits<P>::kind != ParamKind::sampler) {
            return wanted_by<P>();
        } else {
            return Verdict::ok;
        }
    }
};

}  // namespace detail

OPENCLAW_END_NAMESPACE

#if OPENCLAW_HEADER_ONLY
#include <openclaw/impl/sampler.ipp>
#endif

#include <openclaw/detail/base/macros_pop.hpp>
