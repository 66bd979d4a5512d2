// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-template bodies declared in <openclaw/split.hpp>: compiled once into the openclaw
// library (src/wings.cpp), or included by that header itself when openclaw is header-only.

#include <openclaw/split.hpp>

OPENCLAW_BEGIN_NAMESPACE

OPENCLAW_INLINE std::vector<Slice> split(std::size_t n, std::span<const double> weights,
                                         std::size_t granularity, OnError on_error) {
    if (weights.empty() || granularity == 0) {
        detail::fail(on_error, CL_INVALID_VALUE, "split",
                     weights.empty() ? "no weights given" : "granularity 0");
        return {};
    }
    double total = 0;
    for (std::size_t i = 0; i < weights.size(); ++i) {
        if (!(weights[i] >= 0) || weights[i] == std::numeric_limits<double>::infinity()) {
            detail::fail(on_error, CL_INVALID_VALUE, "split",
                         detail::concat("weight ", i, " is ", weights[i],
                                        ": weights must be finite and not negative"));
            return {};
        }
        total += weights[i];
    }
    if (total <= 0) {
        detail::fail(on_error, CL_INVALID_VALUE, "split", "every weight is 0");
        return {};
    }
    // Whole units of `granularity`, shared by largest remainder; the partial unit at the end of
    // the range goes to the last slice with a nonzero weight.
    const std::size_t units = n / granularity;
    std::vector<std::size_t> share(weights.size());
    std::vector<std::pair<double, std::size_t>> remainders;
    std::size_t given = 0;
    for (std::size_t i = 0; i < weights.size(); ++i) {
        const double exact = static_cast<double>(units) * (weights[i] / total);  // <= units
        // Not negative, at most units: the cast rounds down (and never sees 2^64 for huge units).
        share[i] = exact < static_cast<double>(units) ? static_cast<std::size_t>(exact) : units;
        given += share[i];
        remainders.emplace_back(exact - static_cast<double>(share[i]), i);
    }
    // Largest remainder first, ties in weight order (a stable insertion sort: a few weights).
    for (std::size_t i = 1; i < remainders.size(); ++i) {
        for (std::size_t j = i; j > 0 && remainders[j - 1].first < remainders[j].first; --j) {
            std::swap(remainders[j - 1], remainders[j]);
        }
    }
    for (std::size_t k = 0; given < units; ++k, ++given) {
        ++share[remainders[k % remainders.size()].second];
    }
    std::vector<Slice> slices(weights.size());
    std::size_t offset = 0;
    for (std::size_t i = 0; i < weights.size(); ++i) {
        slices[i] = {offset, share[i] * granularity};
        offset += slices[i].count;
    }
    const std::size_t tail = n - offset;
    std::size_t last = weights.size() - 1;
    while (weights[last] == 0) {
        --last;
    }
    slices[last].count += tail;
    for (std::size_t i = last + 1; i < slices.size(); ++i) {
        slices[i].offset += tail;
    }
    return slices;
}

OPENCLAW_INLINE std::vector<Slice> split(std::size_t n, std::span<const Device> devices,
                                         std::size_t granularity, OnError on_error) {
    detail::Relay step(on_error);
    std::vector<double> weights;
    weights.reserve(devices.size());
    for (const Device& device : devices) {
        weights.push_back(static_cast<double>(device.max_compute_units(step)));
    }
    if (step.failed()) {
        return {};
    }
    return split(n, weights, granularity, on_error);
}

OPENCLAW_END_NAMESPACE
