// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// NDRange: a 1-, 2- or 3-dimensional launch size (objects layer). It sits below queue.hpp
// because the launch signature needs it; it depends on nothing but the error types.

#include <openclaw/error.hpp>

#include <array>
#include <concepts>
#include <cstddef>
#include <string>
#include <type_traits>

OPENCLAW_BEGIN_NAMESPACE

/// A global or local work size of 1 to 3 dimensions, as passed to clEnqueueNDRangeKernel.
class NDRange {
  public:
    /// No range: as a local size it lets the driver choose the work-group size.
    constexpr NDRange() noexcept = default;

    /// NDRange{n}, NDRange{x, y}, NDRange{x, y, z}. Any integer type is accepted (no narrowing
    /// surprise for `int n`). A negative size makes the range invalid: the launch given it fails
    /// with CL_INVALID_VALUE naming the dimension and the value (reported to the launch's
    /// OnError: a constructor has none of its own).
    template <std::integral... Sizes>
    requires(sizeof...(Sizes) >= 1 && sizeof...(Sizes) <= 3 &&
             (!std::same_as<Sizes, bool> && ...)) constexpr NDRange(Sizes... sizes) noexcept
        : dims_(sizeof...(Sizes)) {
        cl_uint d = 0;
        ((sizes_[d] = to_size(sizes, d), ++d), ...);
    }
    /// Refused at compile time: anything but one to three integer sizes.
    template <class... Sizes>
    requires(sizeof...(Sizes) >= 1 &&
             !(sizeof...(Sizes) == 1 &&
               (std::is_same_v<std::remove_cvref_t<Sizes>, NDRange> && ...)) &&
             !(sizeof...(Sizes) <= 3 && (std::integral<Sizes> && ...) &&
               (!std::same_as<Sizes, bool> && ...))) constexpr NDRange(Sizes...) noexcept {
        static_assert(
            sizeof...(Sizes) <= 3,
            "NDRange: a launch has one to three dimensions (OpenCL's "
            "CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS is 3 at least, and clEnqueueNDRangeKernel "
            "takes no more here); fold the extra dimensions into one");
        static_assert((std::integral<Sizes> && ...),
                      "NDRange: sizes are integers (work-items per dimension); a floating-point "
                      "size must be rounded by the caller first, e.g. NDRange{std::size_t(n)}");
        static_assert((!std::same_as<Sizes, bool> && ...), "NDRange: a size cannot be a bool");
    }

    /// The number of dimensions (work_dim); 0 for an empty range.
    constexpr cl_uint dimensions() const noexcept { return dims_; }
    /// True for NDRange{}: as a local size, the driver chooses.
    constexpr bool empty() const noexcept { return dims_ == 0; }
    /// False when a size given to the constructor was negative (that size is stored as 0).
    constexpr bool valid() const noexcept { return negative_dim_ == no_negative; }
    /// The size in dimension `d` (unchecked).
    constexpr std::size_t operator[](std::size_t d) const noexcept { return sizes_[d]; }
    /// The number of work-items (the product of the sizes); 0 for an empty range, and 0 when the
    /// product does not fit in size_t (a launch refuses such a range).
    constexpr std::size_t total() const noexcept {
        if (dims_ == 0) {
            return 0;
        }
        std::size_t n = 1;
        for (cl_uint d = 0; d < dims_; ++d) {
            if (sizes_[d] != 0 && n > static_cast<std::size_t>(-1) / sizes_[d]) {
                return 0;
            }
            n *= sizes_[d];
        }
        return n;
    }
    /// \private The sizes, even when empty (data() gives null then).
    constexpr const std::size_t* sizes() const noexcept { return sizes_.data(); }
    /// The sizes as the C API takes them; nullptr for an empty range.
    constexpr const std::size_t* data() const noexcept {
        return dims_ == 0 ? nullptr : sizes_.data();
    }

    /// "1024" or "32x32x4"; a negative size as given.
    std::string to_string() const {
        if (dims_ == 0) {
            return "(none)";
        }
        const auto size = [this](cl_uint d) {
            return d == negative_dim_ ? detail::MessagePart(negative_)
                                      : detail::MessagePart(sizes_[d]);
        };
        const detail::MessagePart parts[] = {size(0), 'x', size(1), 'x', size(2)};
        return detail::join_message(parts, 2 * std::size_t{dims_} - 1);
    }

    /// \private For the launch's message: the dimension of the negative size, and the size.
    constexpr cl_uint negative_dimension() const noexcept { return negative_dim_; }
    /// \private The negative size given for negative_dimension().
    constexpr long long negative_size() const noexcept { return negative_; }

    friend constexpr bool operator==(const NDRange&, const NDRange&) = default;

  private:
    static constexpr cl_uint no_negative = 3;

    template <std::integral I>
    constexpr std::size_t to_size(I size, cl_uint dimension) noexcept {
        if constexpr (std::is_signed_v<I>) {
            if (size < 0) {
                if (negative_dim_ == no_negative) {
                    negative_dim_ = dimension;
                    negative_ = static_cast<long long>(size);
                }
                return 0;
            }
        }
        return static_cast<std::size_t>(size);
    }

    std::array<std::size_t, 3> sizes_{0, 0, 0};
    cl_uint dims_ = 0;
    cl_uint negative_dim_ = no_negative;
    long long negative_ = 0;
};

/// The global work offset of a launch: the global ID of the first work-item in each dimension
/// (`get_global_id(d)` runs from offset[d] to offset[d] + global[d] - 1; `get_global_offset(d)`
/// returns it). As many values as the launch's NDRange has dimensions. A separate type, so that
/// an offset can never be taken for a size.
class GlobalOffset {
  public:
    /// One to three offsets, one per dimension.
    template <std::integral... Values>
    requires(sizeof...(Values) >= 1 && sizeof...(Values) <= 3 &&
             (!std::same_as<Values, bool> &&
              ...)) constexpr explicit GlobalOffset(Values... values) noexcept
        : values_(values...) {}

    /// The offsets as an NDRange (a negative one is recorded as NDRange records it).
    constexpr const NDRange& values() const noexcept { return values_; }

  private:
    NDRange values_;
};

namespace detail {
/// The empty NDRange a launch's local size defaults to: referred to, not made at each call.
inline constexpr NDRange no_range{};
}  // namespace detail

OPENCLAW_END_NAMESPACE

#include <openclaw/detail/base/macros_pop.hpp>
