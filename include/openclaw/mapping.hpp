// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// MappedSpan<T>: host access to a mapped region of a buffer that unmaps itself (typed memory
// layer). The mapping itself, and the registry that makes launches and transfers refuse a buffer
// while a conflicting view of it is alive, are the memory core's (detail/memory/memory.hpp).

#include <openclaw/detail/memory/memory.hpp>

#include <cstddef>
#include <span>
#include <type_traits>
#include <utility>

OPENCLAW_BEGIN_NAMESPACE

/// A mapped region of a buffer, readable (MappedSpan<const T>) or writable (MappedSpan<T>) from
/// the host. Move-only; unmaps when destroyed or by unmap(). Holds its buffer and queue, so it
/// stays valid when the Buffer and Queue variables it came from are gone. While it is alive,
/// launches and transfers that would conflict with it throw CL_INVALID_OPERATION.
template <class T>
class MappedSpan {
  public:
    /// T (const T for a read-only view).
    using element_type = T;
    /// T without const.
    using value_type = std::remove_cv_t<T>;
    /// std::size_t.
    using size_type = std::size_t;
    /// A pointer into the mapped region.
    using iterator = T*;
    /// A reference to an element of the mapped region.
    using reference = T&;

    MappedSpan() = default;

    /// \private Takes charge of a mapping made by the memory core (Buffer::map_read, ...).
    explicit MappedSpan(detail::Mapping mapping) noexcept
        : mapping_(std::move(mapping)),
          data_(static_cast<T*>(mapping_.data())),
          size_(mapping_.bytes() / sizeof(T)) {}

    MappedSpan(const MappedSpan&) = delete;
    MappedSpan& operator=(const MappedSpan&) = delete;
    /// Takes over `other`'s mapping; `other` becomes empty.
    MappedSpan(MappedSpan&& other) noexcept
        : mapping_(std::move(other.mapping_)),
          data_(std::exchange(other.data_, nullptr)),
          size_(std::exchange(other.size_, 0)) {}
    /// Unmaps this view's region (if any), then takes over `other`'s mapping.
    MappedSpan& operator=(MappedSpan&& other) noexcept {
        if (this != &other) {
            mapping_ = std::move(other.mapping_);
            data_ = std::exchange(other.data_, nullptr);
            size_ = std::exchange(other.size_, 0);
        }
        return *this;
    }
    ~MappedSpan() = default;

    /// Unmaps now, reporting a failure (see OnError); the view is empty afterwards.
    void unmap(OnError on_error = {}) {
        data_ = nullptr;
        size_ = 0;
        mapping_.unmap(on_error);
    }
    /// As unmap(), and returns the unmap command's Event (`view.unmap(openclaw::with_event)`):
    /// the device's copy is current when it completes, so later commands on other queues can
    /// wait for it. Empty when nothing was mapped or the unmap failed.
    [[nodiscard]] Event unmap(WithEvent, OnError on_error = {}) {
        data_ = nullptr;
        size_ = 0;
        cl_event raw = nullptr;
        mapping_.unmap(on_error, &raw);
        return Event::adopt(raw);
    }

    /// The first mapped element.
    T* data() const noexcept { return data_; }
    /// The number of mapped elements.
    std::size_t size() const noexcept { return size_; }
    /// size() * sizeof(T).
    std::size_t size_bytes() const noexcept { return size_ * sizeof(T); }
    /// True for an empty (default-constructed, moved-from or unmapped) view.
    bool empty() const noexcept { return size_ == 0; }
    /// Iterator to the first element.
    T* begin() const noexcept { return data_; }
    /// Iterator past the last element.
    T* end() const noexcept { return data_ + size_; }
    /// Element `i` (unchecked, as std::span).
    T& operator[](std::size_t i) const noexcept { return data_[i]; }
    /// The region as a std::span.
    std::span<T> span() const noexcept { return {data_, size_}; }
    operator std::span<T>() const noexcept { return span(); }  // NOLINT: a view converts freely
    operator std::span<const T>() const noexcept requires(!std::is_const_v<T>) { return span(); }

  private:
    detail::Mapping mapping_;
    T* data_ = nullptr;
    std::size_t size_ = 0;
};

OPENCLAW_END_NAMESPACE

#include <openclaw/detail/base/macros_pop.hpp>
