// algorithms: particles binned by grid cell with openclaw's algorithms, no kernel written by hand.
// Each particle's cell comes from a transform (an OpenCL C operator the C++ compiler types
// against the buffers), sort_by_key orders the particles' indices by cell (stable), a histogram
// counts the particles per cell and an exclusive scan of the counts gives each cell's first
// particle in that order (a cell list), unique finds the occupied cells, an exclusive scan of the
// masses gives each particle the mass before it, copy_if keeps the heavy particles, count_if and
// max_element answer questions, and reduce adds the masses. Every result is checked against the
// host's std:: algorithms.
// Usage: algorithms [particles]  (default 1000000)
#include <openclaw/algorithm.hpp>
#include <openclaw/openclaw.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr cl_uint grid = 64;  // cells per side of the unit square

// A particle's cell: row-major in a 64 x 64 grid over [0, 1)^2.
using CellOf = openclaw::op<R"CLC(
uint cell_of(float2 p) {
    const uint x = min((uint)(p.x * 64.0f), 63u);
    const uint y = min((uint)(p.y * 64.0f), 63u);
    return y * 64u + x;
}
)CLC">;

cl_uint host_cell(cl_float2 p) {
    const auto x = std::min(static_cast<cl_uint>(p.s[0] * 64.0f), grid - 1);
    const auto y = std::min(static_cast<cl_uint>(p.s[1] * 64.0f), grid - 1);
    return y * grid + x;
}

int fail(const char* what) {
    std::printf("algorithms: FAILED: %s\n", what);
    return 1;
}

}  // namespace

int main(int argc, char** argv) try {
    const std::size_t n = argc > 1 ? std::stoul(argv[1]) : 1000000;
    const openclaw::Device device = openclaw::select_device();
    std::printf("device: %s (%s)\n", device.name().c_str(), device.platform().name().c_str());
    const openclaw::Context context{device};
    const openclaw::Queue queue{context, device};

    std::mt19937 rng(7);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    std::vector<cl_float2> positions(n);
    std::vector<cl_uint> masses(n);
    for (std::size_t i = 0; i < n; ++i) {
        positions[i] = {{unit(rng), unit(rng)}};
        masses[i] = 1 + static_cast<cl_uint>(rng() % 100);
    }
    const openclaw::ReadOnlyBuffer<cl_float2> position_buffer(
        queue, std::span<const cl_float2>(positions));
    const openclaw::ReadOnlyBuffer<cl_uint> mass_buffer(queue, std::span<const cl_uint>(masses));

    // Each particle's cell, and the particles' indices sorted by cell (stable).
    openclaw::ReadWriteBuffer<cl_uint> cells(context, n);
    openclaw::ReadWriteBuffer<cl_uint> order(context, n);
    openclaw::transform(queue, position_buffer, cells, CellOf{});
    openclaw::iota(queue, order, cl_uint{0});
    openclaw::sort_by_key(queue, cells, order);

    // The cell list: particles per cell, and each cell's first particle in the sorted order.
    openclaw::ReadWriteBuffer<cl_uint> per_cell(context, grid * grid);
    openclaw::ReadWriteBuffer<cl_uint> cell_start(context, grid * grid);
    openclaw::histogram(queue, cells, per_cell);
    openclaw::exclusive_scan(queue, per_cell, cell_start, cl_uint{0});
    // The occupied cells: the first of each run of equal cells in the sorted order.
    openclaw::WriteOnlyBuffer<cl_uint> occupied(context, grid * grid);
    const std::size_t occupied_count = openclaw::unique(queue, cells, occupied);

    // How many particles fall in cell 0, the heaviest particle, the total mass.
    const std::size_t in_corner =
        openclaw::count_if(queue, position_buffer,
                           openclaw::op<"int corner(float2 p) { return p.x < 1.0f / 64.0f && "
                                        "p.y < 1.0f / 64.0f; }">{});
    const std::size_t heaviest = openclaw::max_element(queue, mass_buffer);
    const cl_uint total = openclaw::reduce(queue, mass_buffer);

    // The mass before each particle, running over the particles as they were given.
    openclaw::ReadWriteBuffer<cl_uint> mass_before(context, n);
    openclaw::exclusive_scan(queue, mass_buffer, mass_before, cl_uint{0});

    // The heavy particles, in order.
    openclaw::WriteOnlyBuffer<cl_uint> heavy(context, n);
    const std::size_t heavy_count = openclaw::copy_if(
        queue, mass_buffer, heavy, openclaw::op<"int heavy(uint m) { return m > 90u; }">{});

    // The host's answers.
    std::vector<cl_uint> host_cells(n);
    std::transform(positions.begin(), positions.end(), host_cells.begin(), host_cell);
    std::vector<cl_uint> host_order(n);
    std::iota(host_order.begin(), host_order.end(), cl_uint{0});
    std::stable_sort(host_order.begin(), host_order.end(),
                     [&](cl_uint a, cl_uint b) { return host_cells[a] < host_cells[b]; });
    std::vector<cl_uint> got(n);
    queue.read(order, got);
    if (got != host_order) {
        return fail("particles sorted by cell");
    }
    queue.read(cells, got);
    for (std::size_t i = 0; i < n; ++i) {
        if (got[i] != host_cells[host_order[i]]) {
            return fail("cells sorted");
        }
    }
    std::vector<cl_uint> host_per_cell(grid * grid, 0);
    for (const cl_uint c : host_cells) {
        ++host_per_cell[c];
    }
    std::vector<cl_uint> host_start(grid * grid);
    std::exclusive_scan(host_per_cell.begin(), host_per_cell.end(), host_start.begin(), cl_uint{0});
    std::vector<cl_uint> cell_list(grid * grid);
    queue.read(per_cell, cell_list);
    if (cell_list != host_per_cell) {
        return fail("histogram");
    }
    queue.read(cell_start, cell_list);
    if (cell_list != host_start) {
        return fail("cell starts");
    }
    if (occupied_count !=
        static_cast<std::size_t>(std::count_if(host_per_cell.begin(), host_per_cell.end(),
                                               [](cl_uint count) { return count != 0; }))) {
        return fail("unique");
    }
    const auto corner = static_cast<std::size_t>(
        std::count_if(host_cells.begin(), host_cells.end(), [](cl_uint c) { return c == 0; }));
    if (in_corner != corner) {
        return fail("count_if");
    }
    if (heaviest !=
        static_cast<std::size_t>(std::max_element(masses.begin(), masses.end()) - masses.begin())) {
        return fail("max_element");
    }
    if (total != std::accumulate(masses.begin(), masses.end(), cl_uint{0})) {
        return fail("reduce");
    }
    std::vector<cl_uint> host_before(n);
    std::exclusive_scan(masses.begin(), masses.end(), host_before.begin(), cl_uint{0});
    queue.read(mass_before, got);
    if (got != host_before) {
        return fail("exclusive_scan");
    }
    std::vector<cl_uint> host_heavy;
    std::copy_if(masses.begin(), masses.end(), std::back_inserter(host_heavy),
                 [](cl_uint m) { return m > 90; });
    queue.read(heavy, got);
    got.resize(heavy_count);
    if (got != host_heavy) {
        return fail("copy_if");
    }
    const openclaw::AlgorithmStats stats = openclaw::algorithm_stats(queue);
    std::printf(
        "algorithms: %zu particles in %u cells (%zu occupied), %zu in cell 0, %zu heavy, total "
        "mass %u; %zu programs built; results verified\n",
        n, grid * grid, occupied_count, in_corner, heavy_count, total, stats.programs);
    return 0;
} catch (const std::exception& e) {
    std::printf("algorithms: FAILED: %s\n", e.what());
    return 1;
}
