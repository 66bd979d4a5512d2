// SPDX-License-Identifier: Apache-2.0
#pragma once
// NDRange: a 1-, 2- or 3-dimensional launch size. It sits below queue.hpp because the launch
// signature needs it; it depends on nothing but the error types.

#include <openclaw/error.hpp>

#include <array>
#include <concepts>
#include <cstddef>
#include <string>
#include <type_traits>

namespace openclaw {

/// A global or local work size of 1 to 3 dimensions, as passed to clEnqueueNDRangeKernel.
class NDRange {
  public:
    /// No range: as a local size it lets the driver choose the work-group size.
    constexpr NDRange() noexcept = default;

    /// NDRange{n}, NDRange{x, y}, NDRange{x, y, z}. Any integer type is accepted (no narrowing
    /// surprise for `int n`); a negative size fails with CL_INVALID_VALUE naming the dimension
    /// (recorded by an OnError scope, the size becomes 0, which a launch refuses).
    template <std::integral... Sizes>
    requires(sizeof...(Sizes) >= 1 && sizeof...(Sizes) <= 3 &&
             (!std::same_as<Sizes, bool> && ...)) constexpr NDRange(Sizes... sizes)
        : dims_(sizeof...(Sizes)) {
        std::size_t d = 0;
        ((sizes_[d] = to_size(sizes, d), ++d), ...);
    }

    /// The number of dimensions (work_dim); 0 for an empty range.
    constexpr cl_uint dimensions() const noexcept { return dims_; }
    /// True for NDRange{}: as a local size, the driver chooses.
    constexpr bool empty() const noexcept { return dims_ == 0; }
    /// The size in dimension `d` (unchecked).
    constexpr std::size_t operator[](std::size_t d) const noexcept { return sizes_[d]; }
    /// The number of work-items (the product of the sizes); 0 for an empty range.
    constexpr std::size_t total() const noexcept {
        if (dims_ == 0) {
            return 0;
        }
        std::size_t n = 1;
        for (cl_uint d = 0; d < dims_; ++d) {
            n *= sizes_[d];
        }
        return n;
    }
    /// The sizes as the C API takes them; nullptr for an empty range.
    constexpr const std::size_t* data() const noexcept {
        return dims_ == 0 ? nullptr : sizes_.data();
    }

    /// "1024" or "32x32x4".
    std::string to_string() const {
        std::string text;
        for (cl_uint d = 0; d < dims_; ++d) {
            if (d != 0) {
                text += 'x';
            }
            text += std::to_string(sizes_[d]);
        }
        return dims_ == 0 ? std::string("(none)") : text;
    }

    friend constexpr bool operator==(const NDRange&, const NDRange&) = default;

  private:
    template <std::integral I>
    static constexpr std::size_t to_size(I size, std::size_t dimension) {
        if constexpr (std::is_signed_v<I>) {
            if (size < 0) {
                detail::fail(CL_INVALID_VALUE, "NDRange",
                             detail::concat("size ", static_cast<long long>(size), " in dimension ",
                                            dimension, " is negative"));
                return 0;  // recorded (see OnError): the range is refused when launched
            }
        }
        return static_cast<std::size_t>(size);
    }

    std::array<std::size_t, 3> sizes_{0, 0, 0};
    cl_uint dims_ = 0;
};

}  // namespace openclaw
