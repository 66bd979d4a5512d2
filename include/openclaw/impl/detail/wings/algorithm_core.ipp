// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-template bodies declared in <openclaw/detail/wings/algorithm_core.hpp>: the OpenCL C of
// the algorithms, the per-queue engine that builds it once per AlgorithmSpec and keeps scratch
// memory, and the launch sequences. Compiled once into the openclaw library (src/), or included by
// that header itself when openclaw is header-only.

#include <openclaw/detail/wings/algorithm_core.hpp>
#include <openclaw/pool.hpp>
#include <openclaw/program.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

OPENCLAW_BEGIN_NAMESPACE

namespace detail::algo {

namespace kernels {

// Every program starts with the tuning macros (WG: work-group size, a power of two; ITEMS:
// elements per work-item of a scan tile; RITEMS: keys per work-item of a radix tile, at most 15
// so that 16 four-bit counters fit in a ulong), the types (T, IN_T, IN2_T; K and V for sorts),
// the user's definitions, OP(a, b) and TR(x). Counts and indices are uint: the host refuses
// larger ranges, and every bound below is computed as `n - begin`, never `begin + size`.
constexpr std::string_view common = R"CLC(
#define OC_TILE (WG * ITEMS)
#define OC_KERNEL __kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
inline uint oc_min(uint a, uint b) { return a < b ? a : b; }

// Exclusive scan of a[0, count) (uint, local) by the work-group, blocked per work-item; returns
// the total. sums holds WG entries.
inline uint oc_uscan_local(__local uint* a, uint count, __local uint* sums) {
    const uint lid = get_local_id(0);
    const uint per = (count + WG - 1) / WG;
    const uint first = lid * per;
    const uint last = first < count ? oc_min(first + per, count) : first;
    uint s = 0;
    for (uint k = first; k < last; ++k) {
        const uint v = a[k];
        a[k] = s;
        s += v;
    }
    sums[lid] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = 1; d < WG; d <<= 1) {
        const uint v = lid >= d ? sums[lid - d] : 0u;
        barrier(CLK_LOCAL_MEM_FENCE);
        sums[lid] += v;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const uint pre = lid > 0 ? sums[lid - 1] : 0u;
    for (uint k = first; k < last; ++k) {
        a[k] += pre;
    }
    const uint total = sums[WG - 1];
    barrier(CLK_LOCAL_MEM_FENCE);
    return total;
}
)CLC";

// transform_reduce: group g reduces [g * chunk, min(n, g * chunk + chunk)) striding by WG (the
// operator is associative and commutative, as std::reduce requires), then a tree in local memory
// over the work-items that had an element (always a prefix of the group).
constexpr std::string_view reduce = R"CLC(
inline void oc_reduce_range(__global const IN_T* in, uint begin, uint len, __local T* part,
                            uint use_init, T init, __global T* dst) {
    const uint lid = get_local_id(0);
#if defined(OC_SERIAL)
    // One work-item: eight running values, so that the operator's latency overlaps (and the
    // compiler may keep them in one vector register).
    if (len >= 16) {
        __global const IN_T* p = in + begin;
        T a0 = TR(p[0]);
        T a1 = TR(p[1]);
        T a2 = TR(p[2]);
        T a3 = TR(p[3]);
        T a4 = TR(p[4]);
        T a5 = TR(p[5]);
        T a6 = TR(p[6]);
        T a7 = TR(p[7]);
        uint i = 8;
        for (; i + 8 <= len; i += 8) {
            a0 = OP(a0, TR(p[i]));
            a1 = OP(a1, TR(p[i + 1]));
            a2 = OP(a2, TR(p[i + 2]));
            a3 = OP(a3, TR(p[i + 3]));
            a4 = OP(a4, TR(p[i + 4]));
            a5 = OP(a5, TR(p[i + 5]));
            a6 = OP(a6, TR(p[i + 6]));
            a7 = OP(a7, TR(p[i + 7]));
        }
        for (; i < len; ++i) {
            a0 = OP(a0, TR(p[i]));
        }
        part[0] = OP(OP(OP(a0, a1), OP(a2, a3)), OP(OP(a4, a5), OP(a6, a7)));
        len = 1;
    } else
#endif
    if (lid < len) {
        T acc = TR(in[begin + lid]);
        for (uint i = lid + WG; i < len; i += WG) {
            acc = OP(acc, TR(in[begin + i]));
        }
        part[lid] = acc;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    uint live = oc_min(len, WG);
    for (uint s = WG / 2; s > 0; s >>= 1) {
        if (lid < s && lid + s < live) {
            part[lid] = OP(part[lid], part[lid + s]);
        }
        live = oc_min(live, s);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        T r = part[0];
        if (use_init) {
            r = OP(init, r);
        }
        *dst = r;
    }
}

OC_KERNEL void oc_reduce_first(__global const IN_T* in, ulong in_off, uint n, uint chunk,
                               __global T* out, ulong out_off, uint use_init, T init) {
    __local T part[WG];
    const uint begin = get_group_id(0) * chunk;
    oc_reduce_range(in + in_off, begin, oc_min(chunk, n - begin), part, use_init, init,
                    out + out_off + get_group_id(0));
}

inline void oc_reduce_range_acc(__global const T* in, uint begin, uint len, __local T* part,
                                uint use_init, T init, __global T* dst) {
    const uint lid = get_local_id(0);
    if (lid < len) {
        T acc = in[begin + lid];
        for (uint i = lid + WG; i < len; i += WG) {
            acc = OP(acc, in[begin + i]);
        }
        part[lid] = acc;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    uint live = oc_min(len, WG);
    for (uint s = WG / 2; s > 0; s >>= 1) {
        if (lid < s && lid + s < live) {
            part[lid] = OP(part[lid], part[lid + s]);
        }
        live = oc_min(live, s);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        T r = part[0];
        if (use_init) {
            r = OP(init, r);
        }
        *dst = r;
    }
}

OC_KERNEL void oc_reduce_final(__global const T* partial, ulong p_off, uint groups,
                               __global T* out, ulong out_off, uint use_init, T init) {
    __local T part[WG];
    oc_reduce_range_acc(partial + p_off, 0, groups, part, use_init, init, out + out_off);
}
)CLC";

// min_element / max_element: (value, index) pairs; BETTER(a, b) is true when b is strictly
// better than a (less for the minimum, greater for the maximum); ties go to the lower index.
constexpr std::string_view extremum = R"CLC(
inline int oc_replaces(T a, uint ia, T b, uint ib) {
    return BETTER(a, b) || (!BETTER(b, a) && ib < ia);
}

inline void oc_extremum_tree(__local T* vals, __local uint* idx, uint live) {
    const uint lid = get_local_id(0);
    for (uint s = WG / 2; s > 0; s >>= 1) {
        if (lid < s && lid + s < live && oc_replaces(vals[lid], idx[lid], vals[lid + s],
                                                     idx[lid + s])) {
            vals[lid] = vals[lid + s];
            idx[lid] = idx[lid + s];
        }
        live = oc_min(live, s);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

OC_KERNEL void oc_extremum_first(__global const T* in, ulong in_off, uint n, uint chunk,
                                 __global T* out_vals, ulong v_off, __global uint* out_idx,
                                 ulong i_off) {
    __local T vals[WG];
    __local uint idx[WG];
    in += in_off;
    const uint lid = get_local_id(0);
    const uint begin = get_group_id(0) * chunk;
    const uint len = oc_min(chunk, n - begin);
    if (lid < len) {
        T best = in[begin + lid];
        uint at = begin + lid;
        for (uint i = lid + WG; i < len; i += WG) {
            const T v = in[begin + i];
            if (BETTER(best, v)) {
                best = v;
                at = begin + i;
            }
        }
        vals[lid] = best;
        idx[lid] = at;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    oc_extremum_tree(vals, idx, oc_min(len, WG));
    if (lid == 0) {
        out_vals[v_off + get_group_id(0)] = vals[0];
        out_idx[i_off + get_group_id(0)] = idx[0];
    }
}

OC_KERNEL void oc_extremum_final(__global const T* in_vals, ulong v_off,
                                 __global const uint* in_idx, ulong i_off, uint groups,
                                 __global uint* result, ulong r_off) {
    __local T vals[WG];
    __local uint idx[WG];
    const uint lid = get_local_id(0);
    if (lid < groups) {
        T best = in_vals[v_off + lid];
        uint at = in_idx[i_off + lid];
        for (uint i = lid + WG; i < groups; i += WG) {
            const T v = in_vals[v_off + i];
            const uint vi = in_idx[i_off + i];
            if (oc_replaces(best, at, v, vi)) {
                best = v;
                at = vi;
            }
        }
        vals[lid] = best;
        idx[lid] = at;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    oc_extremum_tree(vals, idx, oc_min(groups, WG));
    if (lid == 0) {
        result[r_off] = idx[0];
    }
}
)CLC";

// Scans. A tile is OC_TILE consecutive elements, loaded into local memory with consecutive
// work-items reading consecutive elements, then scanned blocked: work-item t owns elements
// [t * ITEMS, t * ITEMS + ITEMS) of the tile, in order, so the operator need not commute. Element
// i of a tile sits at OC_AT(i), one slot of padding after every 32: the blocked reads of a warp
// (stride ITEMS) then fall in distinct banks instead of ITEMS-way conflicts.
constexpr std::string_view scan = R"CLC(
#define OC_AT(i) ((i) + ((i) >> 5))
#define OC_TILE_MEM (OC_TILE + OC_TILE / 32 + 1)
#define OC_WINDOW (WG < 32 ? WG : 32)
#if !defined(OC_SERIAL)
// A full tile through the work-items' registers (all its loads in flight at once): `oc_fetch`
// loads a full tile into the work-items' registers, `oc_put` stores them to local memory.
inline void oc_fetch(__global const T* in, T* r) {
    const uint lid = get_local_id(0);
    for (uint j = 0; j < ITEMS; ++j) {
        r[j] = in[lid + j * WG];
    }
}

inline void oc_put(const T* r, __local T* tile) {
    const uint lid = get_local_id(0);
    for (uint j = 0; j < ITEMS; ++j) {
        tile[OC_AT(lid + j * WG)] = r[j];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

#endif

inline void oc_load_tile(__global const T* in, uint count, __local T* tile) {
    const uint lid = get_local_id(0);
#if !defined(OC_SERIAL)
    if (count == OC_TILE) {
        // A full tile: every load issued before the first store to local memory, so that a
        // work-item has ITEMS loads in flight rather than one (H100, 2^28 uint: a loop of
        // load-then-store held both scan paths near 0.42x the copy rate).
        T r[ITEMS];
        oc_fetch(in, r);
        oc_put(r, tile);
        return;
    }
#endif
    for (uint k = lid; k < count; k += WG) {
        tile[OC_AT(k)] = in[k];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

#if !defined(OC_SERIAL)
// Tile t of [t0, t1) into local memory: from the registers if they hold it (`have`), else
// loaded; then the next tile's loads are issued when it is full. Returns whether they were.
inline uint oc_next_tile(__global const T* in, uint n, uint t, uint t1, uint have, T* r,
                         __local T* tile) {
    const uint base = t * OC_TILE;
    if (have) {
        oc_put(r, tile);
    } else {
        oc_load_tile(in + base, oc_min(OC_TILE, n - base), tile);
    }
    if (t + 1 < t1 && n - base - OC_TILE >= OC_TILE) {
        oc_fetch(in + base + OC_TILE, r);
        return 1;
    }
    return 0;
}
#endif

inline void oc_store_tile(__global T* out, uint count, __local const T* tile) {
    for (uint k = get_local_id(0); k < count; k += WG) {
        out[k] = tile[OC_AT(k)];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

// The work-items' inclusive scan of sums[0, live) (sums holds 2 * WG entries: two halves read
// and written in turn, one barrier a step); returns the half that holds the result.
inline __local T* oc_scan_sums(__local T* sums, uint live) {
    const uint lid = get_local_id(0);
    __local T* from = sums;
    __local T* to = sums + WG;
    for (uint s = 1; s < live; s <<= 1) {
        if (lid < live) {
            to[lid] = lid >= s ? OP(from[lid - s], from[lid]) : from[lid];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        __local T* swap = from;
        from = to;
        to = swap;
    }
    return from;
}

// The ordered reduction of tile[0, count) (count > 0); sums holds 2 * WG entries.
inline T oc_reduce_tile(__local const T* tile, __local T* sums, uint count) {
    const uint lid = get_local_id(0);
    const uint first = lid * ITEMS;
    const uint live = (count + ITEMS - 1) / ITEMS;
    if (first < count) {
        const uint last = oc_min(first + ITEMS, count);
        T run = tile[OC_AT(first)];
        for (uint k = first + 1; k < last; ++k) {
            run = OP(run, tile[OC_AT(k)]);
        }
        sums[lid] = run;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // A tree in the work-items' order: pairs (2k, 2k + 1), then (4k, 4k + 2), ...
    for (uint s = 1; s < live; s <<= 1) {
        if ((lid & (2 * s - 1)) == 0 && lid + s < live) {
            sums[lid] = OP(sums[lid], sums[lid + s]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const T total = sums[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return total;
}

// Scans tile[0, count) in place (count > 0) after `carry` (when has_carry): inclusive, or
// exclusive (then has_carry is set: an exclusive scan always starts from its init). Returns the
// carry for the next tile. A work-item's ITEMS elements are read once and written once.
inline T oc_scan_tile(__local T* tile, __local T* sums, uint count, uint has_carry, T carry,
                      uint exclusive) {
    const uint lid = get_local_id(0);
    const uint first = lid * ITEMS;
    const uint live = (count + ITEMS - 1) / ITEMS;
    const uint mine = first < count ? oc_min(ITEMS, count - first) : 0;
#if !defined(OC_SERIAL)
    T v[ITEMS];
    if (mine == ITEMS) {
        for (uint k = 0; k < ITEMS; ++k) {
            v[k] = tile[OC_AT(first + k)];
        }
    } else {
        for (uint k = 0; k < mine; ++k) {
            v[k] = tile[OC_AT(first + k)];
        }
    }
    if (mine > 0) {
        T run = v[0];
        for (uint k = 1; k < mine; ++k) {
            run = OP(run, v[k]);
        }
        sums[lid] = run;
    }
#else
    if (mine > 0) {
        T run = tile[OC_AT(first)];
        for (uint k = 1; k < mine; ++k) {
            run = OP(run, tile[OC_AT(first + k)]);
        }
        sums[lid] = run;
    }
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    __local T* scanned = oc_scan_sums(sums, live);
    if (mine > 0) {
        uint has = has_carry;
        T pre = carry;
        if (lid > 0) {
            pre = has ? OP(pre, scanned[lid - 1]) : scanned[lid - 1];
            has = 1;
        }
#if !defined(OC_SERIAL)
        // Exclusive: element k takes pre op v[0] op ... op v[k - 1]; inclusive: up to v[k].
        T run = pre;
        for (uint k = 0; k < mine; ++k) {
            const T x = v[k];
            if (exclusive) {
                tile[OC_AT(first + k)] = run;
                run = OP(run, x);
            } else {
                run = has || k > 0 ? OP(run, x) : x;
                tile[OC_AT(first + k)] = run;
            }
        }
#else
        T run = pre;
        for (uint k = first; k < first + mine; ++k) {
            const T x = tile[OC_AT(k)];
            if (exclusive) {
                tile[OC_AT(k)] = run;
                run = OP(run, x);
            } else {
                run = has || k > first ? OP(run, x) : x;
                tile[OC_AT(k)] = run;
            }
        }
#endif
    }
    const T total = has_carry ? OP(carry, scanned[live - 1]) : scanned[live - 1];
    barrier(CLK_LOCAL_MEM_FENCE);
    return total;
}

// Pass 1 of the portable scan: the ordered total of each group's tiles.
OC_KERNEL void oc_scan_up(__global const T* in, ulong in_off, uint n, uint tiles_per_group,
                          __global T* partial, ulong p_off) {
    __local T tile[OC_TILE_MEM];
    __local T sums[2 * WG];
    in += in_off;
    const uint tiles = (n + OC_TILE - 1) / OC_TILE;
    const uint t0 = get_group_id(0) * tiles_per_group;
    const uint t1 = t0 + oc_min(tiles_per_group, tiles - t0);
    T carry = in[t0 * OC_TILE];  // replaced by the first tile's total
#if defined(OC_SERIAL)
    // One work-item: its tiles are one contiguous block, reduced in order straight from memory.
    {
        const uint end = t0 * OC_TILE + oc_min(n - t0 * OC_TILE, (t1 - t0) * OC_TILE);
        for (uint i = t0 * OC_TILE + 1; i < end; ++i) {
            carry = OP(carry, in[i]);
        }
        partial[p_off + get_group_id(0)] = carry;
        return;
    }
#endif
#if !defined(OC_SERIAL)
    T r[ITEMS];
    uint have = 0;
#endif
    for (uint t = t0; t < t1; ++t) {
        const uint base = t * OC_TILE;
        const uint count = oc_min(OC_TILE, n - base);
#if !defined(OC_SERIAL)
        have = oc_next_tile(in, n, t, t1, have, r, tile);
#else
        oc_load_tile(in + base, count, tile);
#endif
        const T total = oc_reduce_tile(tile, sums, count);
        carry = t == t0 ? total : OP(carry, total);
    }
    if (get_local_id(0) == 0) {
        partial[p_off + get_group_id(0)] = carry;
    }
}

// Pass 2: one work-group scans the groups' totals: partial[g] becomes the total of groups
// [0, g) for g >= 1, and partial[groups] the total of all (groups <= OC_TILE).
OC_KERNEL void oc_scan_spine(__global T* partial, ulong p_off, uint groups) {
    __local T tile[OC_TILE_MEM];
    __local T sums[2 * WG];
    partial += p_off;
    oc_load_tile(partial, groups, tile);
    oc_scan_tile(tile, sums, groups, 0, tile[0], 0);
    for (uint k = get_local_id(0); k < groups; k += WG) {
        partial[k + 1] = tile[OC_AT(k)];
    }
}

// Pass 3: each group scans its tiles again, after the total of the groups before it.
OC_KERNEL void oc_scan_down(__global const T* in, ulong in_off, __global T* out, ulong out_off,
                            uint n, uint tiles_per_group, __global const T* partial, ulong p_off,
                            uint exclusive, uint use_init, T init) {
    __local T tile[OC_TILE_MEM];
    __local T sums[2 * WG];
    in += in_off;
    out += out_off;
    const uint g = get_group_id(0);
    const uint tiles = (n + OC_TILE - 1) / OC_TILE;
    const uint t0 = g * tiles_per_group;
    const uint t1 = t0 + oc_min(tiles_per_group, tiles - t0);
    uint has_carry = g > 0;
    T carry = has_carry ? partial[p_off + g] : init;
    if (use_init) {
        carry = has_carry ? OP(init, carry) : init;
        has_carry = 1;
    }
#if defined(OC_SERIAL)
    // One work-item: a running value over its contiguous block, straight from memory.
    {
        const uint begin = t0 * OC_TILE;
        const uint end = begin + oc_min(n - begin, (t1 - t0) * OC_TILE);
        uint i = begin;
        if (!has_carry) {
            carry = in[i];
            out[i] = carry;
            ++i;
        }
        if (exclusive) {
            for (; i < end; ++i) {
                const T v = in[i];
                out[i] = carry;
                carry = OP(carry, v);
            }
        } else {
            for (; i < end; ++i) {
                carry = OP(carry, in[i]);
                out[i] = carry;
            }
        }
        return;
    }
#endif
#if !defined(OC_SERIAL)
    T r[ITEMS];
    uint have = 0;
#endif
    for (uint t = t0; t < t1; ++t) {
        const uint base = t * OC_TILE;
        const uint count = oc_min(OC_TILE, n - base);
#if !defined(OC_SERIAL)
        have = oc_next_tile(in, n, t, t1, have, r, tile);
#else
        oc_load_tile(in + base, count, tile);
#endif
        carry = oc_scan_tile(tile, sums, count, has_carry, carry, exclusive);
        has_carry = 1;
        oc_store_tile(out + base, count, tile);
    }
}

// The single-pass scan (decoupled look-back): each work-group takes the next tile id, publishes
// its tile's total (flag 1), then the inclusive prefix (flag 2) once it has looked back through
// its predecessors' flags. A group waits only for groups that took an earlier id, so it needs
// those to progress while it spins: the host runs it only where work-groups are known to.
// state[0] is the tile counter, state[1 + t] tile t's flag; all zero at the start.
OC_KERNEL void oc_scan_single(__global const T* in, ulong in_off, __global T* out, ulong out_off,
                              uint n, __global volatile uint* state, ulong s_off,
                              __global T* aggregates, ulong a_off, __global T* inclusives,
                              ulong i_off, uint exclusive, uint use_init, T init) {
    __local T tile[OC_TILE_MEM];
    __local T sums[2 * WG];
    __local uint tile_id;
    __local T prefix;
    __local uint window[OC_WINDOW];
    __local uint looking;
    __local uint window_end;
    const uint lid = get_local_id(0);
    state += s_off;
    aggregates += a_off;
    inclusives += i_off;
    if (lid == 0) {
        tile_id = atomic_inc(&state[0]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint t = tile_id;
    const uint base = t * OC_TILE;
    const uint count = oc_min(OC_TILE, n - base);
    oc_load_tile(in + in_off + base, count, tile);
    const T aggregate = oc_reduce_tile(tile, sums, count);
    // Publish: tile 0 its inclusive prefix (flag 2), every other tile its aggregate (flag 1).
    if (lid == 0) {
        if (t == 0) {
            inclusives[0] = use_init ? OP(init, aggregate) : aggregate;
            write_mem_fence(CLK_GLOBAL_MEM_FENCE);
            atomic_xchg(&state[1], 2u);
            prefix = init;
        } else {
            aggregates[t] = aggregate;
            write_mem_fence(CLK_GLOBAL_MEM_FENCE);
            atomic_xchg(&state[1 + t], 1u);
        }
    }
    // Look back, OC_WINDOW predecessors at a time: work-item k reads the flag (and value) of tile
    // end - 1 - k; work-item 0 folds them nearest first until a flag 2 (an inclusive prefix), or
    // stops at a flag 0 (not yet published) and the window starts again from there.
    if (t > 0) {
        T before = init;  // read only once `has` is set
        uint has = 0;
        uint end = t;
        for (;;) {
            if (lid < OC_WINDOW) {
                uint flag = 0;
                if (lid < end) {
                    const uint j = end - 1 - lid;
                    flag = atomic_or(&state[1 + j], 0u);
                    read_mem_fence(CLK_GLOBAL_MEM_FENCE);
                    if (flag != 0) {
                        sums[lid] = flag == 2 ? ((volatile __global T*)inclusives)[j]
                                              : ((volatile __global T*)aggregates)[j];
                    }
                }
                window[lid] = flag;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lid == 0) {
                uint k = 0;
                uint done = 0;
                for (; k < OC_WINDOW; ++k) {
                    const uint flag = window[k];
                    if (flag == 0) {
                        break;
                    }
                    before = has ? OP(sums[k], before) : sums[k];
                    has = 1;
                    if (flag == 2) {
                        done = 1;
                        break;
                    }
                }
                end -= done ? 0 : k;
                looking = !done;
                if (done) {
                    inclusives[t] = OP(before, aggregate);
                    write_mem_fence(CLK_GLOBAL_MEM_FENCE);
                    atomic_xchg(&state[1 + t], 2u);
                    prefix = before;
                }
                window_end = end;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            if (!looking) {
                break;
            }
            end = window_end;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint has_carry = t > 0 || use_init;
    oc_scan_tile(tile, sums, count, has_carry, has_carry ? prefix : init, exclusive);
    oc_store_tile(out + out_off + base, count, tile);
}
)CLC";

// scans by key: the values become (value, head flag) pairs (oc_seg_move, stage 0), the pairs are
// scanned with the segmented operator by the scan kernels above (T = oc_pair), and the values
// come back out (stage 1). A head is the first element of a run of equal keys; an exclusive scan
// starts each run from init, folded into the head's value so that the element after it reads
// init op head.
constexpr std::string_view scan_by_key = R"CLC(
OC_KERNEL void oc_seg_move(__global const IN2_T* keys, ulong k_off, __global const IN_T* values,
                           ulong v_off, __global oc_pair* pairs, ulong p_off, __global IN_T* out,
                           ulong o_off, uint n, uint stage, uint exclusive, IN_T init) {
    keys += k_off;
    values += v_off;
    pairs += p_off;
    out += o_off;
#if defined(OC_SERIAL)
    // One work-item per contiguous block.
    const uint per = (n + get_global_size(0) - 1) / get_global_size(0);
    const uint begin = get_global_id(0) * per;
    if (begin >= n) {
        return;
    }
    const uint end = begin + oc_min(per, n - begin);
    const uint step = 1;
#else
    const uint begin = get_global_id(0);
    const uint end = n;
    const uint step = get_global_size(0);
#endif
    for (uint i = begin; i < end; i += step) {
        const uint head = i == 0 || keys[i - 1] != keys[i];
        if (stage == 0) {
            oc_pair p;
            p.f = head;
            p.v = values[i];
            if (exclusive && head) {
                p.v = OC_VOP(init, p.v);
            }
            pairs[i] = p;
        } else if (!exclusive) {
            out[i] = pairs[i].v;
        } else if (head) {
            out[i] = init;
        } else {
            out[i] = pairs[i - 1].v;
        }
    }
}
)CLC";

// copy_if, partition and unique: counts per group, the groups' offsets (one work-group), then
// each group writes its selected elements in order. OC_SEL(p, i) selects element i of p: the
// predicate TR (copy_if, partition) or a head of a run of equal elements (unique, OP the
// equality); a partition writes the others after them, in order too.
constexpr std::string_view copy_if = R"CLC(
OC_KERNEL void oc_copy_if_count(__global const T* in, ulong in_off, uint n, uint chunk,
                                __global uint* counts, ulong c_off) {
    __local uint part[WG];
    in += in_off;
    const uint lid = get_local_id(0);
    const uint begin = get_group_id(0) * chunk;
    const uint len = oc_min(chunk, n - begin);
    uint c = 0;
    for (uint i = lid; i < len; i += WG) {
        c += OC_SEL(in, begin + i);
    }
    part[lid] = c;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = WG / 2; s > 0; s >>= 1) {
        if (lid < s) {
            part[lid] += part[lid + s];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        counts[c_off + get_group_id(0)] = part[0];
    }
}

// counts[g] becomes the count of groups [0, g); counts[groups] the total (groups <= OC_TILE).
OC_KERNEL void oc_copy_if_spine(__global uint* counts, ulong c_off, uint groups) {
    __local uint a[OC_TILE + 1];
    __local uint sums[WG];
    counts += c_off;
    for (uint k = get_local_id(0); k < groups; k += WG) {
        a[k] = counts[k];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint total = oc_uscan_local(a, groups, sums);
    for (uint k = get_local_id(0); k < groups; k += WG) {
        counts[k] = a[k];
    }
    if (get_local_id(0) == 0) {
        counts[groups] = total;
    }
}

OC_KERNEL void oc_copy_if_write(__global const T* in, ulong in_off, __global T* out,
                                ulong out_off, uint n, uint out_n, uint chunk,
                                __global const uint* offsets, ulong o_off) {
    __local uint flags[OC_TILE];
    __local uint sums[WG];
    in += in_off;
    out += out_off;
    const uint lid = get_local_id(0);
    const uint begin = get_group_id(0) * chunk;
    const uint len = oc_min(chunk, n - begin);
    uint written = offsets[o_off + get_group_id(0)];
    for (uint base = 0; base < len; base += OC_TILE) {
        const uint count = oc_min(OC_TILE, len - base);
        for (uint k = lid; k < count; k += WG) {
            flags[k] = OC_SEL(in, begin + base + k);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint selected = oc_uscan_local(flags, count, sums);
        for (uint k = lid; k < count; k += WG) {
            const uint next = k + 1 < count ? flags[k + 1] : selected;
            const uint at = written + flags[k];
            if (next != flags[k]) {
                if (at < out_n) {
                    out[at] = in[begin + base + k];
                }
            }
#if defined(OC_PARTITION)
            else {
                // After every selected element: the total, then the unselected ones before it.
                out[offsets[o_off + get_num_groups(0)] + begin + base + k - at] =
                    in[begin + base + k];
            }
#endif
        }
        written += selected;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
)CLC";

// histogram: each group counts its chunk into bins of local memory where they fit (then adds
// the nonzero ones to the global bins), else straight into the global bins. OC_BIN(x) is the bin
// of x; a bin outside [0, nbins) is not counted (a negative one converts to a large unsigned).
constexpr std::string_view histogram = R"CLC(
OC_KERNEL void oc_histogram(__global const T* in, ulong in_off, uint n, uint chunk,
                            __global uint* bins, ulong b_off, uint nbins, uint in_local,
                            __local uint* local_bins) {
    in += in_off;
    bins += b_off;
    const uint lid = get_local_id(0);
    const uint begin = get_group_id(0) * chunk;
    const uint len = oc_min(chunk, n - begin);
    if (in_local) {
        for (uint b = lid; b < nbins; b += WG) {
            local_bins[b] = 0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint i = lid; i < len; i += WG) {
            const OC_BIN_T b = OC_BIN(in[begin + i]);
            if (b < nbins) {
#if WG == 1
                local_bins[b] += 1u;
#else
                atomic_inc(&local_bins[b]);
#endif
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint b = lid; b < nbins; b += WG) {
            if (local_bins[b] != 0) {
                atomic_add(&bins[b], local_bins[b]);
            }
        }
    } else {
        for (uint i = lid; i < len; i += WG) {
            const OC_BIN_T b = OC_BIN(in[begin + i]);
            if (b < nbins) {
                atomic_inc(&bins[b]);
            }
        }
    }
}
)CLC";

constexpr std::string_view transform = R"CLC(
OC_KERNEL void oc_transform(__global const IN_T* in, ulong in_off, __global T* out, ulong out_off,
                            uint n) {
    in += in_off;
    out += out_off;
    const uint step = get_global_size(0);
    for (uint i = get_global_id(0); i < n; i += step) {
        out[i] = TR(in[i]);
    }
}
)CLC";

constexpr std::string_view transform2 = R"CLC(
OC_KERNEL void oc_transform2(__global const IN_T* a, ulong a_off, __global const IN2_T* b,
                             ulong b_off, __global T* out, ulong out_off, uint n) {
    a += a_off;
    b += b_off;
    out += out_off;
    const uint step = get_global_size(0);
    for (uint i = get_global_id(0); i < n; i += step) {
        out[i] = OP(a[i], b[i]);
    }
}
)CLC";

constexpr std::string_view iota = R"CLC(
OC_KERNEL void oc_iota(__global T* out, ulong out_off, uint n, T start) {
    out += out_off;
    const uint step = get_global_size(0);
    for (uint i = get_global_id(0); i < n; i += step) {
        out[i] = start + (T)i;
    }
}
)CLC";

// LSD radix sort. K holds a key's bits, OC_ENC maps them to an unsigned order (flip inverts it
// for descending), V carries a value. On a CPU (OC_SERIAL) eight bits a pass: one work-item per
// group counts, then scatters, one contiguous block of the keys (each block's offsets read from
// every block's counts, so no scan runs between them). Elsewhere four bits a pass over tiles of
// RITEMS keys per work-item, with a scan of the digit counts between count and scatter.
constexpr std::string_view radix = R"CLC(
#if defined(OC_SERIAL)
#define OC_DIGIT(key) ((uint)(((OC_ENC(key)) ^ flip) >> shift) & 255u)

OC_KERNEL void oc_radix_count(__global const K* keys, ulong k_off, uint n, uint shift, K flip,
                              __global uint* counts, ulong c_off, uint tiles) {
    keys += k_off;
    const uint t = get_group_id(0);
    const uint per = n / tiles + (n % tiles != 0 ? 1u : 0u);
    const uint begin = oc_min(t * per, n);
    const uint end = begin + oc_min(per, n - begin);
    // Two sets of counters, so that equal digits in a row do not wait for each other.
    uint c0[256];
    uint c1[256];
    for (uint d = 0; d < 256; ++d) {
        c0[d] = 0;
        c1[d] = 0;
    }
    uint i = begin;
    for (; i + 1 < end; i += 2) {
        ++c0[OC_DIGIT(keys[i])];
        ++c1[OC_DIGIT(keys[i + 1])];
    }
    if (i < end) {
        ++c0[OC_DIGIT(keys[i])];
    }
    for (uint d = 0; d < 256; ++d) {
        counts[c_off + d * tiles + t] = c0[d] + c1[d];
    }
}

OC_KERNEL void oc_radix_scatter(__global const K* kin, ulong kin_off, __global K* kout,
                                ulong kout_off, __global const V* vin, ulong vin_off,
                                __global V* vout, ulong vout_off, uint n, uint shift, K flip,
                                __global const uint* counts, ulong c_off, uint tiles) {
    kin += kin_off;
    kout += kout_off;
#if HAS_VALUES
    vin += vin_off;
    vout += vout_off;
#endif
    const uint t = get_group_id(0);
    const uint per = n / tiles + (n % tiles != 0 ? 1u : 0u);
    const uint begin = oc_min(t * per, n);
    const uint end = begin + oc_min(per, n - begin);
    // Block t's first position for digit d: every key of a smaller digit, then those of digit d
    // in the blocks before t (counts are digit-major: counts[d * tiles + block]).
    uint at[256];
    uint run = 0;
    __global const uint* c = counts + c_off;
    for (uint d = 0; d < 256; ++d) {
        for (uint b = 0; b < t; ++b) {
            run += c[d * tiles + b];
        }
        at[d] = run;
        for (uint b = t; b < tiles; ++b) {
            run += c[d * tiles + b];
        }
    }
#if OC_WC
    // Write combining: OC_WC keys (and values) of a digit gather in local memory and go out
    // together, so that the 256 streams write whole runs instead of one element at a time.
    __local K wk[256 * OC_WC];
#if HAS_VALUES
    __local V wv[256 * OC_WC];
#endif
    uint fill[256];
    for (uint d = 0; d < 256; ++d) {
        fill[d] = 0;
    }
    for (uint i = begin; i < end; ++i) {
        const K key = kin[i];
        const uint d = OC_DIGIT(key);
        uint f = fill[d];
        wk[d * OC_WC + f] = key;
#if HAS_VALUES
        wv[d * OC_WC + f] = vin[i];
#endif
        if (++f == OC_WC) {
            const uint p = at[d];
            for (uint j = 0; j < OC_WC; ++j) {
                kout[p + j] = wk[d * OC_WC + j];
#if HAS_VALUES
                vout[p + j] = wv[d * OC_WC + j];
#endif
            }
            at[d] = p + OC_WC;
            f = 0;
        }
        fill[d] = f;
    }
    for (uint d = 0; d < 256; ++d) {
        const uint p = at[d];
        for (uint j = 0; j < fill[d]; ++j) {
            kout[p + j] = wk[d * OC_WC + j];
#if HAS_VALUES
            vout[p + j] = wv[d * OC_WC + j];
#endif
        }
    }
#else
    for (uint i = begin; i < end; ++i) {
        const K key = kin[i];
        const uint pos = at[OC_DIGIT(key)]++;
        kout[pos] = key;
#if HAS_VALUES
        vout[pos] = vin[i];
#endif
    }
#endif
}
#else
#define OC_RTILE (WG * RITEMS)
#define OC_DIGIT(key) ((uint)(((OC_ENC(key)) ^ flip) >> shift) & 15u)
#if HAS_VALUES
#define OC_VTILE vtile
#else
#define OC_VTILE 0
#endif

OC_KERNEL void oc_radix_count(__global const K* keys, ulong k_off, uint n, uint shift, K flip,
                              __global uint* counts, ulong c_off, uint tiles) {
    __local uint lc[16 * WG];
    __local uint part[WG];
    keys += k_off;
    const uint lid = get_local_id(0);
    const uint t = get_group_id(0);
    const uint base = t * OC_RTILE;
    const uint count = oc_min(OC_RTILE, n - base);
    ulong packed = 0;
    if (count == OC_RTILE) {
        K rk[RITEMS];  // all the loads in flight at once
        for (uint j = 0; j < RITEMS; ++j) {
            rk[j] = keys[base + lid + j * WG];
        }
        for (uint j = 0; j < RITEMS; ++j) {
            packed += 1ul << (OC_DIGIT(rk[j]) * 4);
        }
    } else {
        for (uint k = lid; k < count; k += WG) {
            packed += 1ul << (OC_DIGIT(keys[base + k]) * 4);
        }
    }
    for (uint d = 0; d < 16; ++d) {
        lc[d * WG + lid] = (uint)(packed >> (d * 4)) & 15u;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Work-item lid sums digit lid % 16 over the work-items of segment lid / 16, then the first
    // 16 sum the segments (WG >= 16).
    const uint d = lid % 16;
    const uint segment = lid / 16;
    const uint width = WG / 16;
    uint s = 0;
    for (uint j = 0; j < 16 && segment * 16 + j < WG; ++j) {
        s += lc[d * WG + segment * 16 + j];
    }
    part[lid] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 16) {
        uint total = 0;
        for (uint j = 0; j < width; ++j) {
            total += part[j * 16 + lid];
        }
        counts[c_off + lid * tiles + t] = total;
    }
}

// Loads the `count` keys (and values) at `base` into the tile and sorts them there by their digit
// (stable); dstart[d] is then the tile position of digit d's first key (dstart[16] = count).
inline void oc_radix_rank(__global const K* kin, __global const V* vin, uint base, uint count,
                          uint shift, K flip, __local K* ktile, __local V* vtile, __local uint* lc,
                          __local uint* sums, __local uint* dstart) {
    const uint lid = get_local_id(0);
    if (count == OC_RTILE) {
        // A full tile: all its loads in flight before the stores to local memory.
        K rk[RITEMS];
        for (uint j = 0; j < RITEMS; ++j) {
            rk[j] = kin[base + lid + j * WG];
        }
#if HAS_VALUES
        V rv[RITEMS];
        for (uint j = 0; j < RITEMS; ++j) {
            rv[j] = vin[base + lid + j * WG];
        }
#endif
        for (uint j = 0; j < RITEMS; ++j) {
            ktile[lid + j * WG] = rk[j];
#if HAS_VALUES
            vtile[lid + j * WG] = rv[j];
#endif
        }
    } else {
        for (uint k = lid; k < count; k += WG) {
            ktile[k] = kin[base + k];
#if HAS_VALUES
            vtile[k] = vin[base + k];
#endif
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    K my[RITEMS];
#if HAS_VALUES
    V myv[RITEMS];
#endif
    const uint first = lid * RITEMS;
    ulong packed = 0;
    for (uint k = 0; k < RITEMS; ++k) {
        if (first + k < count) {
            my[k] = ktile[first + k];
#if HAS_VALUES
            myv[k] = vtile[first + k];
#endif
            packed += 1ul << (OC_DIGIT(my[k]) * 4);
        }
    }
    for (uint d = 0; d < 16; ++d) {
        lc[d * WG + lid] = (uint)(packed >> (d * 4)) & 15u;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    oc_uscan_local(lc, 16 * WG, sums);
    if (lid < 16) {
        dstart[lid] = lc[lid * WG];
    }
    if (lid == 0) {
        dstart[16] = count;
    }
    ulong seen = 0;
    for (uint k = 0; k < RITEMS; ++k) {
        if (first + k < count) {
            const uint d = OC_DIGIT(my[k]);
            const uint pos = lc[d * WG + lid] + ((uint)(seen >> (d * 4)) & 15u);
            seen += 1ul << (d * 4);
            ktile[pos] = my[k];
#if HAS_VALUES
            vtile[pos] = myv[k];
#endif
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

// Writes a ranked tile: its key at position k, of digit d, to gbase[d] + (k - dstart[d]).
inline void oc_radix_write(__local const K* ktile, __local const V* vtile, uint count, uint shift,
                           K flip, __local const uint* dstart, __local const uint* gbase,
                           __global K* kout, __global V* vout) {
    for (uint k = get_local_id(0); k < count; k += WG) {
        const K key = ktile[k];
        const uint d = OC_DIGIT(key);
        const uint at = gbase[d] + (k - dstart[d]);
        kout[at] = key;
#if HAS_VALUES
        vout[at] = vtile[k];
#endif
    }
}

OC_KERNEL void oc_radix_scatter(__global const K* kin, ulong kin_off, __global K* kout,
                                ulong kout_off, __global const V* vin, ulong vin_off,
                                __global V* vout, ulong vout_off, uint n, uint shift, K flip,
                                __global const uint* offsets, ulong o_off, uint tiles) {
    __local K ktile[OC_RTILE];
#if HAS_VALUES
    __local V vtile[OC_RTILE];
#endif
    __local uint lc[16 * WG];
    __local uint sums[WG];
    __local uint dstart[17];
    __local uint gbase[16];
    const uint lid = get_local_id(0);
    const uint t = get_group_id(0);
    const uint base = t * OC_RTILE;
    const uint count = oc_min(OC_RTILE, n - base);
    if (lid < 16) {
        gbase[lid] = offsets[o_off + lid * tiles + t];
    }
    oc_radix_rank(kin + kin_off, vin + vin_off, base, count, shift, flip, ktile, OC_VTILE, lc, sums,
                  dstart);
    oc_radix_write(ktile, OC_VTILE, count, shift, flip, dstart, gbase, kout + kout_off,
                   vout + vout_off);
}

// Onesweep (Adinets & Merrill): the digit counts of every pass at once, from the keys as they
// are (a pass moves keys, it does not change how many have each digit).
OC_KERNEL void oc_radix_histogram(__global const K* keys, ulong k_off, uint n, uint chunk,
                                  K flip, __global uint* hist, ulong h_off) {
    __local uint lh[OC_PASSES * 16];
    const uint lid = get_local_id(0);
    for (uint i = lid; i < OC_PASSES * 16; i += WG) {
        lh[i] = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    keys += k_off;
    const uint begin = get_group_id(0) * chunk;
    const uint len = oc_min(chunk, n - begin);
    for (uint i = lid; i < len; i += WG) {
        const K e = (OC_ENC(keys[begin + i])) ^ flip;
        for (uint p = 0; p < OC_PASSES; ++p) {
            atomic_inc(&lh[p * 16 + ((uint)(e >> (4 * p)) & 15u)]);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = lid; i < OC_PASSES * 16; i += WG) {
        if (lh[i] != 0) {
            atomic_add(&hist[h_off + i], lh[i]);
        }
    }
}

// One pass in one kernel: tiles in the order groups start (an atomic counter), each ranks its
// keys, publishes its 16 digit counts and finds its offsets by decoupled look-back over the
// tiles before it (per digit: state 1, the tile's count is in agg; 2, the inclusive count of the
// tiles up to it is in inc), then scatters. Waits for earlier tiles: needs forward progress.
OC_KERNEL void oc_radix_onesweep(__global const K* kin, ulong kin_off, __global K* kout,
                                 ulong kout_off, __global const V* vin, ulong vin_off,
                                 __global V* vout, ulong vout_off, uint n, uint shift, K flip,
                                 __global const uint* hist, ulong h_off,
                                 __global volatile uint* state, ulong s_off, __global uint* agg,
                                 ulong a_off) {
    __local K ktile[OC_RTILE];
#if HAS_VALUES
    __local V vtile[OC_RTILE];
#endif
    __local uint lc[16 * WG];
    __local uint sums[WG];
    __local uint dstart[17];
    __local uint gbase[16];
    __local uint tile_id;
    const uint lid = get_local_id(0);
    state += s_off;
    agg += a_off;
    __global uint* inc = agg + 16 * get_num_groups(0);  // one group per tile
    if (lid == 0) {
        tile_id = atomic_inc(&state[0]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint t = tile_id;
    const uint base = t * OC_RTILE;
    const uint count = oc_min(OC_RTILE, n - base);
    oc_radix_rank(kin + kin_off, vin + vin_off, base, count, shift, flip, ktile, OC_VTILE, lc, sums,
                  dstart);
    if (lid < 16) {
        const uint d = lid;
        const uint mine = dstart[d + 1] - dstart[d];
        uint before = 0;
        for (uint e = 0; e < d; ++e) {
            before += hist[h_off + e];  // the keys of smaller digits, in every tile
        }
        __global volatile uint* flags = state + 1 + d;
        if (t == 0) {
            inc[d] = mine;
            write_mem_fence(CLK_GLOBAL_MEM_FENCE);
            atomic_xchg(&flags[0], 2u);
        } else {
            agg[t * 16 + d] = mine;
            write_mem_fence(CLK_GLOBAL_MEM_FENCE);
            atomic_xchg(&flags[t * 16], 1u);
            uint prefix = 0;
            uint j = t;
            while (j > 0) {
                --j;
                uint flag;
                do {
                    flag = atomic_or(&flags[j * 16], 0u);
                } while (flag == 0);
                read_mem_fence(CLK_GLOBAL_MEM_FENCE);
                prefix += flag == 2 ? ((volatile __global uint*)inc)[j * 16 + d]
                                    : ((volatile __global uint*)agg)[j * 16 + d];
                if (flag == 2) {
                    break;
                }
            }
            inc[t * 16 + d] = prefix + mine;
            write_mem_fence(CLK_GLOBAL_MEM_FENCE);
            atomic_xchg(&flags[t * 16], 2u);
            before += prefix;
        }
        gbase[d] = before;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    oc_radix_write(ktile, OC_VTILE, count, shift, flip, dstart, gbase, kout + kout_off,
                   vout + vout_off);
}
#endif
)CLC";

}  // namespace kernels

OPENCLAW_INLINE void use_gpu_kernels_on_cpus(bool on) noexcept {
    gpu_kernels_for_new_engines.store(on, std::memory_order_relaxed);
}

namespace {

/// The most elements one call handles: indices are uint on the device, and a work-item's stride
/// (at most 2^20) must not carry an index past 2^32.
constexpr std::size_t max_count = 0xFFE00000u;
constexpr std::size_t max_groups_spine = 1024;  // groups of a multi-pass scan: one spine tile

/// The most groups a multi-pass scan with tiles of `tile` elements may take: the spine scans
/// their totals in one tile (a device with little local memory gets tiles under 1024).
std::size_t spine_groups(std::size_t tile) {
    return std::min(max_groups_spine, tile);
}

/// What the engine reads of its device once.
struct DeviceTraits {
    bool gpu = false;
    bool cpu = false;    // serial blocks per work-item suit it better than tiles
    bool tiles = false;  // the GPU's tiled kernels all the same (tests: gpu_kernels)
    cl_uint units = 1;
    std::size_t wg = 256;
    cl_ulong local_mem = 32768;
};

/// One program built for one AlgorithmSpec on the engine's device, and its kernels.
struct Built {
    Program program;
    std::array<Handle<cl_kernel>, 7> kernels;
    std::size_t wg = 1;   // the work-group size it was built for (WG)
    unsigned items = 1;   // ITEMS (scan tile) or RITEMS (radix tile)
    unsigned sitems = 1;  // ITEMS of a radix program's counts scan
    bool serial = false;  // one work-item per group over a contiguous block (CPUs)
};

struct Engine {
    std::mutex mutex;
    cl_context context = nullptr;  // the queue keeps it alive
    Context context_object;
    Device device;
    DeviceTraits traits;
    bool out_of_order = false;
    std::vector<std::pair<const AlgorithmSpec*, Built*>> by_spec;
    std::vector<std::pair<std::string, std::unique_ptr<Built>>> by_source;
    Handle<cl_mem> scratch;
    std::size_t scratch_size = 0;
    // The scratch memory of the call in progress: `scratch`, or `pooled`, taken from the call's
    // MemoryPool and given back when the call has enqueued its commands.
    cl_mem active = nullptr;
    ReadWriteBuffer<cl_uchar> pooled;
    Handle<cl_event> last;  // out-of-order queues: the previous call's last command
    EngineCounts counts;
};

// The kernels of each family, in Built::kernels order (a tiled radix program also holds the uint
// scan of its digit counts and the single-pass sort's two kernels).
const char* const kernel_names[][7] = {
    {"oc_reduce_first", "oc_reduce_final", nullptr, nullptr, nullptr, nullptr, nullptr},
    {"oc_extremum_first", "oc_extremum_final", nullptr, nullptr, nullptr, nullptr, nullptr},
    {"oc_scan_up", "oc_scan_spine", "oc_scan_down", "oc_scan_single", nullptr, nullptr, nullptr},
    {"oc_copy_if_count", "oc_copy_if_spine", "oc_copy_if_write", nullptr, nullptr, nullptr,
     nullptr},
    {"oc_transform", "oc_transform2", nullptr, nullptr, nullptr, nullptr, nullptr},
    {"oc_iota", nullptr, nullptr, nullptr, nullptr, nullptr, nullptr},
    {"oc_radix_count", "oc_radix_scatter", "oc_scan_up", "oc_scan_spine", "oc_scan_down",
     "oc_radix_histogram", "oc_radix_onesweep"},
    {"oc_histogram", nullptr, nullptr, nullptr, nullptr, nullptr, nullptr},
    {"oc_scan_up", "oc_scan_spine", "oc_scan_down", "oc_scan_single", "oc_seg_move", nullptr,
     nullptr},
};

unsigned clamp_items(cl_ulong budget, std::size_t per_item, unsigned most) {
    const cl_ulong items = per_item == 0 ? most : budget / per_item;
    return static_cast<unsigned>(std::clamp<cl_ulong>(items, 1, most));
}

std::string number(std::size_t value) {
    return std::to_string(value);
}

/// The OpenCL C of `spec` for `engine`'s device, and the tile sizes it was made with.
std::string source_for(const Engine& engine, const AlgorithmSpec& spec, Built& built) {
    // On a CPU a work-group is one thread's loop over its work-items: tiles shared through local
    // memory and barriers cost more than they save there, so the reductions, scans and sorts run
    // one work-item per group over a contiguous block (PoCL 3.1, sort of 2^22 uint keys: the
    // tiled 4-bit sort with 64 work-items made 41 Mkeys/s, the serial 8-bit one 107).
    const bool serial = engine.traits.cpu && !engine.traits.tiles &&
                        spec.family != Family::transform && spec.family != Family::iota;
    const std::size_t wg = serial                                      ? 1
                           : engine.traits.cpu && !engine.traits.tiles ? 64
                                                                       : engine.traits.wg;
    built.wg = wg;
    built.serial = serial;
    // Local memory the scan tiles may take: at most 32 KiB (NVIDIA's 48 KiB leaves room for two
    // groups a multiprocessor's worth of other state), and no more than the device has.
    const cl_ulong budget = std::min<cl_ulong>(
        engine.traits.local_mem > 4096 ? engine.traits.local_mem - 4096 : 2048, 32768);
    std::string s;
    s.reserve(16384);
    const auto define = [&s](std::string_view name, std::string_view value) {
        s += "#define ";
        s += name;
        s += ' ';
        s += value;
        s += '\n';
    };
    define("WG", number(wg));
    if (spec.family == Family::radix_sort) {
        const std::size_t key_bytes = spec.key_bits / 8;
        const std::size_t per_key = key_bytes + (spec.values ? spec.acc_size : 0);
        const cl_ulong fixed = 16 * wg * 4 + wg * 4 + 256;
        built.items = clamp_items(budget > fixed ? budget - fixed : 0, wg * per_key, 15);
        built.sitems = clamp_items(budget / 2, wg * 4, 8);
        define("ITEMS", number(built.sitems));
        define("RITEMS", number(built.items));
        define("T", "uint");
        define("K", spec.key_bits == 64 ? "ulong" : "uint");
        define("OC_SIGN", spec.key_bits == 64 ? "0x8000000000000000ul" : "0x80000000u");
        define("OC_ENC(k)", spec.key_kind == 0   ? "(k)"
                            : spec.key_kind == 1 ? "((k) ^ OC_SIGN)"
                                                 : "(((k) & OC_SIGN) ? ~(k) : ((k) | OC_SIGN))");
        define("HAS_VALUES", spec.values ? "1" : "0");
        define("OC_PASSES", number(spec.key_bits / 4));
        if (spec.values) {
            switch (spec.acc_size) {
                case 1:
                    define("V", "uchar");
                    break;
                case 2:
                    define("V", "ushort");
                    break;
                case 4:
                    define("V", "uint");
                    break;
                case 8:
                    define("V", "uint2");
                    break;
                case 16:
                    define("V", "uint4");
                    break;
                default:
                    s += "typedef struct { uchar b[" + number(spec.acc_size) + "]; } oc_value;\n";
                    define("V", "oc_value");
            }
        } else {
            define("V", "uint");
        }
        define("OP(a, b)", "((a) + (b))");
        if (serial) {
            define("OC_SERIAL", "1");
            // Write combining through local memory: runs of 32 keys (and values) per digit where
            // 256 of them fit (PoCL 3.1, 2^22 uint keys: 82 Mkeys/s without, 64 with runs of 16,
            // 107 with 32, 108 with 64, 98 with 128; pairs 51, 43, 67-75, 69, 67).
            const std::size_t run = 256 * 32 * per_key + 4096 <= engine.traits.local_mem ? 32 : 0;
            define("OC_WC", number(run));
        }
        s += kernels::common;
        if (!serial) {
            s += kernels::scan;  // the digit counts' scan
        }
        s += kernels::radix;
        return s;
    }
    const std::size_t tile_element = std::max(spec.acc_size, spec.in_size);
    // A serial program's tile is one work-item's block: at least max_groups_spine elements, so
    // that the spine scans the groups' totals in one tile.
    // A GPU's scan tile: up to 16 elements per work-item (fewer barriers per element), within the
    // budget less the tile's padding (1 in 32) and the work-items' sums (2 * WG).
    const bool scans = spec.family == Family::scan || spec.family == Family::scan_by_key;
    const unsigned most_items = serial ? 1024 : scans ? 16 : 8;
    const std::size_t element = std::max<std::size_t>(tile_element, 1);
    const cl_ulong sums_bytes = 2 * wg * element + 64;
    const cl_ulong tile_budget = budget * 31 / 32 > sums_bytes ? budget * 31 / 32 - sums_bytes : 0;
    built.items = clamp_items(tile_budget, wg * element, most_items);
    if (spec.family == Family::copy_if) {
        // Flags (uint) and their scan take the tile: ITEMS * WG + 1 of them.
        built.items = clamp_items(budget, wg * 4, most_items);
        define("OC_SEL(p, i)", spec.select == Select::unique
                                   ? "(((i) == 0 || !(OC_EQ((p)[(i) - 1], (p)[i]))) ? 1u : 0u)"
                                   : "(TR((p)[i]) ? 1u : 0u)");
        if (spec.select == Select::partition) {
            define("OC_PARTITION", "1");
        }
    }
    if (serial) {
        built.items = most_items;
        define("OC_SERIAL", "1");
    }
    define("ITEMS", number(built.items));
    define("T", spec.acc_type);
    define("IN_T", spec.in_type.empty() ? spec.acc_type : spec.in_type);
    define("IN2_T", !spec.in2_type.empty()  ? spec.in2_type
                    : !spec.in_type.empty() ? spec.in_type
                                            : spec.acc_type);
    s += spec.definitions;
    s += '\n';
    define("OP(a, b)", spec.op.empty() ? std::string_view("((a) + (b))") : spec.op);
    define("BETTER(a, b)", spec.op.empty() ? std::string_view("((b) < (a))") : spec.op);
    define("TR(x)", spec.unary.empty() ? std::string_view("(x)") : spec.unary);
    if (spec.family == Family::copy_if) {
        define("OC_EQ(a, b)", spec.op.empty() ? std::string_view("((a) == (b))") : spec.op);
    }
    s += kernels::common;
    switch (spec.family) {
        case Family::reduce:
            s += kernels::reduce;
            break;
        case Family::extremum:
            s += kernels::extremum;
            break;
        case Family::scan:
            s += kernels::scan;
            break;
        case Family::copy_if:
            s += kernels::copy_if;
            break;
        case Family::transform:
            // One of the two: the other's operator is not defined for these types.
            s += spec.in2_type.empty() ? kernels::transform : kernels::transform2;
            break;
        case Family::iota:
            s += kernels::iota;
            break;
        case Family::scan_by_key:
            // The scan kernels on (value, head) pairs: OP becomes the segmented operator.
            define("OC_VOP(a, b)", spec.op.empty() ? std::string_view("((a) + (b))") : spec.op);
            s += "#undef OP\n";
            define("OP(a, b)", "oc_seg((a), (b))");
            s += "typedef struct { IN_T v; uint f; } oc_pair;\n"
                 "inline oc_pair oc_seg(oc_pair a, oc_pair b) {\n"
                 "    oc_pair r;\n"
                 "    r.f = a.f | b.f;\n"
                 "    if (b.f) {\n"
                 "        r.v = b.v;\n"
                 "    } else {\n"
                 "        r.v = OC_VOP(a.v, b.v);\n"
                 "    }\n"
                 "    return r;\n"
                 "}\n";
            s += kernels::scan;
            s += kernels::scan_by_key;
            break;
        case Family::histogram:
            define("OC_BIN(x)", spec.unary.empty() ? std::string_view("(x)") : spec.unary);
            define("OC_BIN_T", spec.acc_type);
            s += kernels::histogram;
            break;
        case Family::radix_sort:
            break;
    }
    return s;
}

/// The queue's engine, made at its first algorithm call (nullptr after a failed query, reported
/// to `on_error` as the call that failed: each query is checked before the next is made).
Engine* engine_of(const Queue& queue, OnError on_error) {
    QueueState* state = QueueAccess::state(queue);
    if (state == nullptr) {
        return nullptr;
    }
    const std::lock_guard<std::mutex> lock(state->mutex);
    if (state->algorithms) {
        return static_cast<Engine*>(state->algorithms.get());
    }
    auto engine = std::make_shared<Engine>();
    Status failed;
    const auto ok = [&] {
        if (failed.failed()) {
            fail(on_error, failed.cl_code(), failed.call().c_str(), failed.detail());
            return false;
        }
        return true;
    };
    DeviceTraits& traits = engine->traits;
    engine->context = queue.context_handle();
    engine->context_object = queue.context(failed);
    if (!ok()) {
        return nullptr;
    }
    engine->device = queue.device(failed);
    if (!ok()) {
        return nullptr;
    }
    engine->out_of_order = queue.options(failed).out_of_order;
    if (!ok()) {
        return nullptr;
    }
    const Device& device = engine->device;
    traits.gpu = device.is_gpu(failed);
    if (!ok()) {
        return nullptr;
    }
    traits.cpu = device.is_cpu(failed);
    if (!ok()) {
        return nullptr;
    }
    traits.units = std::max<cl_uint>(device.max_compute_units(failed), 1);
    if (!ok()) {
        return nullptr;
    }
    traits.local_mem = device.local_mem_size(failed);
    if (!ok()) {
        return nullptr;
    }
    const std::size_t most = device.max_work_group_size(failed);
    if (!ok()) {
        return nullptr;
    }
    traits.wg = 256;
    while (traits.wg > most && traits.wg > 1) {
        traits.wg /= 2;
    }
    traits.tiles = gpu_kernels_for_new_engines.load(std::memory_order_relaxed);
    state->algorithms = engine;
    return engine.get();
}

/// The kernels of `spec` on the engine's device: built at the first call, then found by the
/// spec's address (or, for another copy of an equal spec, by the generated source).
Built* built_for(Engine& engine, const AlgorithmSpec& spec, OnError on_error) {
    for (const auto& [key, built] : engine.by_spec) {
        if (key == &spec) {
            return built;
        }
    }
    auto made = std::make_unique<Built>();
    std::string source = source_for(engine, spec, *made);
    for (const auto& [text, built] : engine.by_source) {
        if (text == source) {
            engine.by_spec.emplace_back(&spec, built.get());
            return built.get();
        }
    }
    made->program = Program::build(engine.context_object, {engine.device}, source,
                                   BuildOptions{}.kernel_arg_info(false), on_error);
    if (!made->program) {
        return nullptr;
    }
    ++engine.counts.programs;
    const auto family = static_cast<std::size_t>(spec.family);
    for (std::size_t k = 0; k < made->kernels.size(); ++k) {
        const char* name = kernel_names[family][k];
        if (name == nullptr ||
            (spec.family == Family::transform && (k == 1) != !spec.in2_type.empty()) ||
            (spec.family == Family::radix_sort && made->serial && k >= 2)) {  // tiled only
            continue;
        }
        cl_int code = CL_SUCCESS;
        cl_kernel raw = clCreateKernel(made->program.get(), name, &code);
        made->kernels[k] = Handle<cl_kernel>::adopt(created_or_null(raw, code));
        if (!check(code, "clCreateKernel", on_error)) {
            return nullptr;
        }
        ++engine.counts.kernels;
    }
    Built* result = made.get();
    engine.by_source.emplace_back(std::move(source), std::move(made));
    engine.by_spec.emplace_back(&spec, result);
    return result;
}

/// Scratch memory of at least `bytes`, kept by the engine and grown (never shrunk) as needed.
bool reserve_scratch(Engine& engine, const Call& call, std::size_t bytes) {
    const OnError on_error = call.on_error;
    if (call.pool != nullptr) {
        MemoryPool& pool = *call.pool;
        if (!pool || pool.queue().get() != call.queue.get()) {
            fail(on_error, CL_INVALID_COMMAND_QUEUE, call.name,
                 !pool ? std::string("the MemoryPool for scratch memory is empty")
                       : std::string("the MemoryPool for scratch memory belongs to another "
                                     "queue (its buffers are reused in that queue's order)"));
            return false;
        }
        engine.pooled =
            pool.allocate<cl_uchar, ReadWrite>(std::max<std::size_t>(bytes, 1), on_error);
        if (!engine.pooled) {
            return false;
        }
        engine.active = engine.pooled.get();
        return true;
    }
    engine.active = engine.scratch.get();
    if (bytes <= engine.scratch_size) {
        return true;
    }
    // Grow by at least half again, so that slowly growing calls do not allocate each time.
    std::size_t size = std::max(bytes, engine.scratch_size + engine.scratch_size / 2);
    size = (size + 4095) / 4096 * 4096;
    cl_int code = CL_SUCCESS;
    cl_mem raw = clCreateBuffer(engine.context, CL_MEM_READ_WRITE, size, nullptr, &code);
    Handle<cl_mem> made = Handle<cl_mem>::adopt(created_or_null(raw, code));
    if (!check(code, "clCreateBuffer", on_error, [&] {
            return concat(size, " bytes of scratch memory for the queue's algorithms");
        })) {
        return false;
    }
    engine.scratch = std::move(made);  // the old one is released when its commands are done
    engine.scratch_size = size;
    engine.active = engine.scratch.get();
    ++engine.counts.scratch_allocations;
    engine.counts.scratch_bytes = size;
    return true;
}

/// Carves aligned pieces out of the scratch memory: offsets in bytes, 256-aligned.
struct ScratchPlan {
    std::size_t used = 0;
    std::size_t take(std::size_t bytes) {
        const std::size_t at = used;
        used += (bytes + 255) / 256 * 256;
        return at;
    }
};

/// A kernel argument.
struct Arg {
    std::size_t size;
    const void* value;
};
inline Arg mem_arg(const cl_mem& mem) {
    return {sizeof(cl_mem), &mem};
}

/// Runs one call's commands: the first waits for the caller's wait list (and, on an
/// out-of-order queue, for the previous call's last command), each later one for the one before
/// it on an out-of-order queue; the last gives the caller's event.
class Sequence {
  public:
    Sequence(Engine& engine, const Call& call, std::size_t wg)
        : engine_(engine), call_(call), wg_(wg) {}
    Sequence(const Sequence&) = delete;
    Sequence& operator=(const Sequence&) = delete;
    ~Sequence() {
        if (previous_ != nullptr) {
            clReleaseEvent(previous_);
        }
    }

    bool launch(cl_kernel kernel, std::initializer_list<Arg> args, std::size_t groups, bool last) {
        cl_uint index = 0;
        for (const Arg& arg : args) {
            const cl_int code = clSetKernelArg(kernel, index, arg.size, arg.value);
            if (code != CL_SUCCESS) {
                fail(call_.on_error, code, "clSetKernelArg",
                     concat(call_.name, ": argument ", index, " of an algorithm kernel (", arg.size,
                            " bytes)"));
                return false;
            }
            ++index;
        }
        const std::size_t global = groups * wg_;
        const std::size_t local = wg_;
        return enqueue(
            [&](cl_uint waits, const cl_event* list, cl_event* event) {
                return clEnqueueNDRangeKernel(call_.queue.get(), kernel, 1, nullptr, &global,
                                              &local, waits, list, event);
            },
            "clEnqueueNDRangeKernel", last);
    }

    /// Fills `bytes` at `offset` of `mem` with `pattern` (a power of two of at most 128 bytes).
    bool fill(cl_mem mem, std::size_t offset, std::size_t bytes, Bytes pattern, bool last) {
        return enqueue(
            [&](cl_uint waits, const cl_event* list, cl_event* event) {
                return clEnqueueFillBuffer(call_.queue.get(), mem, pattern.data, pattern.size,
                                           offset, bytes, waits, list, event);
            },
            "clEnqueueFillBuffer", last);
    }

    /// Writes `bytes` from `host` at `offset` of `mem`, blocking.
    bool write(cl_mem mem, std::size_t offset, std::size_t bytes, const void* host, bool last) {
        return enqueue(
            [&](cl_uint waits, const cl_event* list, cl_event* event) {
                return clEnqueueWriteBuffer(call_.queue.get(), mem, CL_TRUE, offset, bytes, host,
                                            waits, list, event);
            },
            "clEnqueueWriteBuffer", last);
    }

    /// Reads `bytes` at `offset` of `mem` into `host` (the last command of a call that returns
    /// a host value), reporting a command of the call that failed. The read blocks: a read left
    /// in flight by a wait that failed would write into `host` after the caller's frame is gone.
    bool read(cl_mem mem, std::size_t offset, std::size_t bytes, void* host) {
        cl_event done = nullptr;
        if (!enqueue(
                [&](cl_uint waits, const cl_event* list, cl_event* event) {
                    return clEnqueueReadBuffer(call_.queue.get(), mem, CL_TRUE, offset, bytes, host,
                                               waits, list, event);
                },
                "clEnqueueReadBuffer", true, &done)) {
            return false;
        }
        const Handle<cl_event> held = Handle<cl_event>::adopt(done);
        cl_int status = CL_COMPLETE;
        if (!check(clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status,
                                  nullptr),
                   "clGetEventInfo", call_.on_error)) {
            return false;
        }
        if (status < 0) [[unlikely]] {
            fail(call_.on_error, status, "clEnqueueReadBuffer",
                 concat(call_.name,
                        ": the algorithm's commands did not complete (a command of it failed)"));
            return false;
        }
        return true;
    }

  private:
    /// Enqueues one command of the call; `own` (for read()) receives its event, else the event
    /// goes to the caller when it asked for one and this is the last command.
    template <class Enqueue>
    bool enqueue(const Enqueue& command, const char* what, bool last, cl_event* own = nullptr) {
        const bool chain = engine_.out_of_order;
        std::array<cl_event, 1> previous{};
        const cl_event* list = nullptr;
        cl_uint waits = 0;
        std::vector<cl_event> merged;
        if (first_) {
            if (chain && engine_.last) {
                merged.assign(call_.wait.data(), call_.wait.data() + call_.wait.size());
                merged.push_back(engine_.last.get());
                list = merged.data();
                waits = static_cast<cl_uint>(merged.size());
            } else {
                list = call_.wait.data();
                waits = call_.wait.size();
            }
        } else if (chain && previous_ != nullptr) {
            previous[0] = previous_;
            list = previous.data();
            waits = 1;
        }
        const bool to_caller = own == nullptr && last && call_.event != nullptr;
        cl_event made = nullptr;
        const bool wants = chain || to_caller || own != nullptr;
        const cl_int code =
            enqueued(command(waits, list, wants ? &made : nullptr), wants ? &made : nullptr);
        if (code != CL_SUCCESS) {
            fail(call_.on_error, code, what,
                 concat(call_.name, code == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
                                        ? ": a command that one of the algorithm's commands "
                                          "waited for failed"
                                        : ": enqueueing one of the algorithm's commands"));
            return false;
        }
        first_ = false;
        if (previous_ != nullptr) {
            clReleaseEvent(previous_);
            previous_ = nullptr;
        }
        if (made == nullptr) {
            return true;
        }
        // Owned first (by the caller, the read, or this sequence), then retained as the queue's
        // last command: a failed retain then leaks nothing.
        if (own != nullptr) {
            *own = made;
        } else if (to_caller) {
            *call_.event = made;  // the caller adopts it
        } else {
            previous_ = made;
        }
        if (chain) {
            engine_.last = Handle<cl_event>::retain(made, call_.on_error);
            return static_cast<bool>(engine_.last);
        }
        return true;
    }

    Engine& engine_;
    const Call& call_;
    std::size_t wg_;
    bool first_ = true;
    cl_event previous_ = nullptr;
};

/// Locks the engine of `call`'s queue and finds the kernels of `spec`; the work happens in `run`.
template <class Run>
bool with_engine(const Call& call, const AlgorithmSpec& spec, const Run& run) {
    const ReportScope reports_about(call.queue.context_handle());
    Engine* engine = engine_of(call.queue, call.on_error);
    if (engine == nullptr) {
        return false;
    }
    const std::lock_guard<std::mutex> lock(engine->mutex);
    // A pool's scratch goes back when the call has enqueued everything (or failed, or thrown).
    struct GiveBack {
        Engine& engine;
        ~GiveBack() {
            engine.pooled = {};
            engine.active = nullptr;
        }
    } give_back{*engine};
    Built* built = built_for(*engine, spec, call.on_error);
    if (built == nullptr) {
        return false;
    }
    return run(*engine, *built);
}

std::size_t div_up(std::size_t a, std::size_t b) {
    return (a + b - 1) / b;
}

/// How many work-groups a pass over `count` elements uses, and the elements each covers (a
/// multiple of `quantum`): a few per compute unit, so that a pass is one wave.
std::pair<std::size_t, std::size_t> split(const Engine& engine, std::size_t count,
                                          std::size_t quantum, std::size_t most) {
    const std::size_t wanted =
        engine.traits.gpu ? engine.traits.units * 8 : engine.traits.units * 4;
    std::size_t groups = std::clamp<std::size_t>(div_up(count, quantum), 1, std::min(wanted, most));
    const std::size_t chunk = div_up(div_up(count, groups), quantum) * quantum;
    groups = div_up(count, chunk);
    return {groups, chunk};
}

/// Nothing to compute: the caller's event (if asked for) completes after its wait list.
bool nothing(const Call& call) {
    nothing_to_do(call.queue, call.wait, call.event, call.on_error);
    return true;
}

cl_ulong as_ulong(std::size_t v) {
    return static_cast<cl_ulong>(v);
}
cl_uint as_uint(std::size_t v) {
    return static_cast<cl_uint>(v);
}

}  // namespace

OPENCLAW_INLINE bool check_span(const Call& call, const Span& span, const char* what, bool writes) {
    if (!check_queue(*span.mem, call.queue, call.name, what, call.on_error)) {
        return false;
    }
    const std::size_t size = span.mem->bytes / span.element;
    if (!check_range(call.name, what, span.offset, span.count, size, call.on_error)) {
        return false;
    }
    if (span.count > max_count) {
        fail(call.on_error, CL_INVALID_VALUE, call.name,
             concat(what, " holds ", span.count, " elements: an algorithm handles at most ",
                    max_count, " (2^32 - 2^21) in one call"));
        return false;
    }
    return map_registry.check(span.mem->get(), writes ? Use::write : Use::read, call.name,
                              call.on_error);
}

OPENCLAW_INLINE bool check_overlap(const Call& call, const Span& in, const Span& out,
                                   const char* in_name, const char* out_name, bool same_ok) {
    const MemRange a = MapRegistry::range_of(in.mem->get(), call.on_error);
    const MemRange b = MapRegistry::range_of(out.mem->get(), call.on_error);
    if (a.root != b.root) {
        return true;
    }
    const std::size_t a0 = a.begin + in.offset * in.element;
    const std::size_t a1 = a0 + in.count * in.element;
    const std::size_t b0 = b.begin + out.offset * out.element;
    const std::size_t b1 = b0 + out.count * out.element;
    if (a1 <= b0 || b1 <= a0 || in.count == 0 || out.count == 0) {
        return true;
    }
    if (same_ok && a0 == b0 && in.element == out.element) {
        return true;
    }
    fail(call.on_error, CL_MEM_COPY_OVERLAP, call.name,
         concat(in_name, " (bytes [", a0, ", ", a1, ") of its buffer) and ", out_name, " (bytes [",
                b0, ", ", b1, ")) overlap",
                same_ok ? ": only the very same region may be both" : ": they must not"));
    return false;
}

OPENCLAW_INLINE bool reduce(const Call& call, const AlgorithmSpec& spec, const Span& in, Bytes init,
                            const Span* out, void* host) {
    return with_engine(call, spec, [&](Engine& engine, Built& built) {
        Sequence run(engine, call, built.wg);
        if (in.count == 0) {
            // The init alone: filled where it is a pattern the driver takes, else written.
            const cl_mem dst = out->mem->get();
            const std::size_t at = out->offset * spec.acc_size;
            const bool pattern = (init.size & (init.size - 1)) == 0 && init.size <= 128;
            return pattern ? run.fill(dst, at, init.size, init, true)
                           : run.write(dst, at, init.size, init.data, true);
        }
        const std::size_t wg = built.wg;
        const auto [groups, chunk] = split(engine, in.count, wg, wg * 4);
        ScratchPlan plan;
        const std::size_t partial_at = groups > 1 ? plan.take(groups * spec.acc_size) : 0;
        const std::size_t result_at = host != nullptr ? plan.take(spec.acc_size) : 0;
        if (!reserve_scratch(engine, call, plan.used)) {
            return false;
        }
        const cl_mem in_mem = in.mem->get();
        const cl_mem scratch = engine.active;
        const cl_mem dst = out != nullptr ? out->mem->get() : scratch;
        const cl_ulong dst_off =
            out != nullptr ? as_ulong(out->offset) : as_ulong(result_at / spec.acc_size);
        const cl_ulong in_off = as_ulong(in.offset);
        const cl_uint n = as_uint(in.count);
        const cl_uint chunk_u = as_uint(chunk);
        const cl_uint one = 1;
        const cl_uint zero = 0;
        const bool last_kernel = host == nullptr;
        if (groups == 1) {
            if (!run.launch(built.kernels[0].get(),
                            {mem_arg(in_mem),
                             {8, &in_off},
                             {4, &n},
                             {4, &chunk_u},
                             mem_arg(dst),
                             {8, &dst_off},
                             {4, &one},
                             {init.size, init.data}},
                            1, last_kernel)) {
                return false;
            }
        } else {
            const cl_ulong p_off = as_ulong(partial_at / spec.acc_size);
            const cl_uint g = as_uint(groups);
            if (!run.launch(built.kernels[0].get(),
                            {mem_arg(in_mem),
                             {8, &in_off},
                             {4, &n},
                             {4, &chunk_u},
                             mem_arg(scratch),
                             {8, &p_off},
                             {4, &zero},
                             {init.size, init.data}},
                            groups, false) ||
                !run.launch(built.kernels[1].get(),
                            {mem_arg(scratch),
                             {8, &p_off},
                             {4, &g},
                             mem_arg(dst),
                             {8, &dst_off},
                             {4, &one},
                             {init.size, init.data}},
                            1, last_kernel)) {
                return false;
            }
        }
        return host == nullptr || run.read(scratch, result_at, spec.acc_size, host);
    });
}

OPENCLAW_INLINE bool extremum(const Call& call, const AlgorithmSpec& spec, const Span& in,
                              std::size_t& index) {
    return with_engine(call, spec, [&](Engine& engine, Built& built) {
        Sequence run(engine, call, built.wg);
        const std::size_t wg = built.wg;
        const auto [groups, chunk] = split(engine, in.count, wg, wg * 4);
        ScratchPlan plan;
        const std::size_t vals_at = plan.take(groups * spec.acc_size);
        const std::size_t idx_at = plan.take(groups * 4);
        const std::size_t result_at = plan.take(4);
        if (!reserve_scratch(engine, call, plan.used)) {
            return false;
        }
        const cl_mem in_mem = in.mem->get();
        const cl_mem scratch = engine.active;
        const cl_ulong in_off = as_ulong(in.offset);
        const cl_ulong v_off = as_ulong(vals_at / spec.acc_size);
        const cl_ulong i_off = as_ulong(idx_at / 4);
        const cl_ulong r_off = as_ulong(result_at / 4);
        const cl_uint n = as_uint(in.count);
        const cl_uint chunk_u = as_uint(chunk);
        const cl_uint g = as_uint(groups);
        cl_uint found = 0;
        if (!run.launch(built.kernels[0].get(),
                        {mem_arg(in_mem),
                         {8, &in_off},
                         {4, &n},
                         {4, &chunk_u},
                         mem_arg(scratch),
                         {8, &v_off},
                         mem_arg(scratch),
                         {8, &i_off}},
                        groups, false) ||
            !run.launch(built.kernels[1].get(),
                        {mem_arg(scratch),
                         {8, &v_off},
                         mem_arg(scratch),
                         {8, &i_off},
                         {4, &g},
                         mem_arg(scratch),
                         {8, &r_off}},
                        1, false) ||
            !run.read(scratch, result_at, 4, &found)) {
            return false;
        }
        index = found;
        return true;
    });
}

namespace {

/// The portable scan of `n` elements of `t_size` bytes from (in_mem, in_off) to (out_mem,
/// out_off), with the partials at `partial_at` of the scratch; the kernels up, spine, down.
bool portable_scan(Engine& engine, Sequence& run, cl_kernel up, cl_kernel spine, cl_kernel down,
                   std::size_t wg, unsigned items, std::size_t t_size, cl_mem in_mem,
                   cl_ulong in_off, cl_mem out_mem, cl_ulong out_off, std::size_t count,
                   std::size_t partial_at, cl_uint exclusive, const Bytes* init, bool last) {
    const std::size_t tile = wg * items;
    const std::size_t tiles = div_up(count, tile);
    const auto [groups, tiles_per_group] = split(engine, tiles, 1, spine_groups(tile));
    const cl_mem scratch = engine.active;
    const cl_ulong p_off = as_ulong(partial_at / t_size);
    const cl_uint n = as_uint(count);
    const cl_uint tpg = as_uint(tiles_per_group);
    const cl_uint g = as_uint(groups);
    const cl_uint use_init = init != nullptr ? 1 : 0;
    const std::array<unsigned char, 128> no_init{};
    const Bytes init_value = init != nullptr ? *init : Bytes{no_init.data(), t_size};
    if (groups > 1 &&
        (!run.launch(
             up, {mem_arg(in_mem), {8, &in_off}, {4, &n}, {4, &tpg}, mem_arg(scratch), {8, &p_off}},
             groups, false) ||
         !run.launch(spine, {mem_arg(scratch), {8, &p_off}, {4, &g}}, 1, false))) {
        return false;
    }
    return run.launch(down,
                      {mem_arg(in_mem),
                       {8, &in_off},
                       mem_arg(out_mem),
                       {8, &out_off},
                       {4, &n},
                       {4, &tpg},
                       mem_arg(scratch),
                       {8, &p_off},
                       {4, &exclusive},
                       {4, &use_init},
                       {init_value.size, init_value.data}},
                      groups, last);
}

/// Whether a scan takes the single-pass path: only when the call asks. The portable path is the
/// default everywhere: where work-groups are not known to progress the single-pass one could hang,
/// and where they are (the H100) it measured slower (2^28 uint: 1212 GB/s against 1821).
bool single_pass_for(const Engine& /*engine*/, AlgorithmPath path) {
    return path == AlgorithmPath::single_pass;
}

/// Where one scan's scratch goes: the portable path's partial totals, or the single-pass path's
/// flags (and tile counter), tile aggregates and inclusive prefixes.
struct ScanScratch {
    bool single = false;
    std::size_t partial_at = 0;
    std::size_t state_at = 0;
    std::size_t aggregates_at = 0;
    std::size_t inclusives_at = 0;
};

ScanScratch plan_scan(const Engine& engine, const Built& built, AlgorithmPath path,
                      std::size_t count, std::size_t t_size, ScratchPlan& plan) {
    ScanScratch at;
    const std::size_t tiles = div_up(count, built.wg * built.items);
    at.single = single_pass_for(engine, path);
    if (!at.single) {
        const std::size_t groups =
            split(engine, tiles, 1, spine_groups(built.wg * built.items)).first;
        at.partial_at = plan.take((groups + 1) * t_size);
    } else {
        at.state_at = plan.take((tiles + 1) * 4);
        at.aggregates_at = plan.take(tiles * t_size);
        at.inclusives_at = plan.take(tiles * t_size);
    }
    return at;
}

/// The scan of `count` elements of T (`t_size` bytes) on the path `at` was planned for, with the
/// kernels of `built` (oc_scan_up, _spine, _down, _single first).
bool run_scan(Engine& engine, Sequence& run, const Built& built, const ScanScratch& at,
              std::size_t t_size, cl_mem in_mem, cl_ulong in_off, cl_mem out_mem, cl_ulong out_off,
              std::size_t count, const Bytes* init, bool last) {
    const cl_uint exclusive = init != nullptr ? 1 : 0;
    if (!at.single) {
        return portable_scan(engine, run, built.kernels[0].get(), built.kernels[1].get(),
                             built.kernels[2].get(), built.wg, built.items, t_size, in_mem, in_off,
                             out_mem, out_off, count, at.partial_at, exclusive, init, last);
    }
    const std::size_t tiles = div_up(count, built.wg * built.items);
    const cl_mem scratch = engine.active;
    const cl_ulong s_off = as_ulong(at.state_at / 4);
    const cl_ulong a_off = as_ulong(at.aggregates_at / t_size);
    const cl_ulong i_off = as_ulong(at.inclusives_at / t_size);
    const cl_uint n = as_uint(count);
    const cl_uint use_init = exclusive;
    const std::vector<unsigned char> zeros(t_size, 0);
    const Bytes init_value = init != nullptr ? *init : Bytes{zeros.data(), t_size};
    const cl_uint zero = 0;
    return run.fill(scratch, at.state_at, (tiles + 1) * 4, {&zero, 4}, false) &&
           run.launch(built.kernels[3].get(),
                      {mem_arg(in_mem),
                       {8, &in_off},
                       mem_arg(out_mem),
                       {8, &out_off},
                       {4, &n},
                       mem_arg(scratch),
                       {8, &s_off},
                       mem_arg(scratch),
                       {8, &a_off},
                       mem_arg(scratch),
                       {8, &i_off},
                       {4, &exclusive},
                       {4, &use_init},
                       {init_value.size, init_value.data}},
                      tiles, last);
}

}  // namespace

OPENCLAW_INLINE bool scan(const Call& call, const AlgorithmSpec& spec, const Span& in,
                          const Span& out, const Bytes* init) {
    if (in.count == 0) {
        return nothing(call);
    }
    return with_engine(call, spec, [&](Engine& engine, Built& built) {
        Sequence run(engine, call, built.wg);
        ScratchPlan plan;
        const ScanScratch at = plan_scan(engine, built, call.path, in.count, spec.acc_size, plan);
        return reserve_scratch(engine, call, plan.used) &&
               run_scan(engine, run, built, at, spec.acc_size, in.mem->get(), as_ulong(in.offset),
                        out.mem->get(), as_ulong(out.offset), in.count, init, true);
    });
}

OPENCLAW_INLINE bool scan_by_key(const Call& call, const AlgorithmSpec& spec, const Span& keys,
                                 const Span& values, const Span& out, const Bytes* init) {
    if (values.count == 0) {
        return nothing(call);
    }
    return with_engine(call, spec, [&](Engine& engine, Built& built) {
        Sequence run(engine, call, built.wg);
        const std::size_t pair = spec.acc_size;
        ScratchPlan plan;
        const std::size_t pairs_at = plan.take(values.count * pair);
        const ScanScratch at = plan_scan(engine, built, call.path, values.count, pair, plan);
        if (!reserve_scratch(engine, call, plan.used)) {
            return false;
        }
        const cl_mem scratch = engine.active;
        const cl_ulong k_off = as_ulong(keys.offset);
        const cl_ulong v_off = as_ulong(values.offset);
        const cl_ulong p_off = as_ulong(pairs_at / pair);
        const cl_ulong o_off = as_ulong(out.offset);
        const cl_uint n = as_uint(values.count);
        const cl_uint exclusive = init != nullptr ? 1 : 0;
        const std::array<unsigned char, 128> no_init{};
        const Bytes init_value = init != nullptr ? *init : Bytes{no_init.data(), spec.in_size};
        const std::size_t groups = std::clamp<std::size_t>(
            div_up(values.count, built.wg), 1, std::max<std::size_t>(engine.traits.units * 16, 1));
        const auto move = [&](cl_uint stage, bool last) {
            return run.launch(built.kernels[4].get(),
                              {mem_arg(keys.mem->get()),
                               {8, &k_off},
                               mem_arg(values.mem->get()),
                               {8, &v_off},
                               mem_arg(scratch),
                               {8, &p_off},
                               mem_arg(out.mem->get()),
                               {8, &o_off},
                               {4, &n},
                               {4, &stage},
                               {4, &exclusive},
                               {init_value.size, init_value.data}},
                              groups, last);
        };
        return move(0, false) &&
               run_scan(engine, run, built, at, pair, scratch, p_off, scratch, p_off, values.count,
                        nullptr, false) &&
               move(1, true);
    });
}

OPENCLAW_INLINE bool copy_if(const Call& call, const AlgorithmSpec& spec, const Span& in,
                             const Span& out, std::size_t& count) {
    count = 0;
    return with_engine(call, spec, [&](Engine& engine, Built& built) {
        Sequence run(engine, call, built.wg);
        const std::size_t wg = built.wg;
        const std::size_t tile = wg * built.items;
        const auto [groups, chunk] = split(engine, in.count, tile, tile);
        ScratchPlan plan;
        const std::size_t counts_at = plan.take((groups + 1) * 4);
        if (!reserve_scratch(engine, call, plan.used)) {
            return false;
        }
        const cl_mem scratch = engine.active;
        const cl_ulong in_off = as_ulong(in.offset);
        const cl_ulong out_off = as_ulong(out.offset);
        const cl_ulong c_off = as_ulong(counts_at / 4);
        const cl_uint n = as_uint(in.count);
        const cl_uint out_n = as_uint(out.count);
        const cl_uint chunk_u = as_uint(chunk);
        const cl_uint g = as_uint(groups);
        cl_uint selected = 0;
        if (!run.launch(built.kernels[0].get(),
                        {mem_arg(in.mem->get()),
                         {8, &in_off},
                         {4, &n},
                         {4, &chunk_u},
                         mem_arg(scratch),
                         {8, &c_off}},
                        groups, false) ||
            !run.launch(built.kernels[1].get(), {mem_arg(scratch), {8, &c_off}, {4, &g}}, 1,
                        false) ||
            !run.launch(built.kernels[2].get(),
                        {mem_arg(in.mem->get()),
                         {8, &in_off},
                         mem_arg(out.mem->get()),
                         {8, &out_off},
                         {4, &n},
                         {4, &out_n},
                         {4, &chunk_u},
                         mem_arg(scratch),
                         {8, &c_off}},
                        groups, false) ||
            !run.read(scratch, counts_at + groups * 4, 4, &selected)) {
            return false;
        }
        count = selected;
        if (selected > out.count) {
            fail(call.on_error, CL_INVALID_VALUE, call.name,
                 concat(selected, " elements were selected, the output holds ", out.count,
                        ": the first ", out.count, " were written"));
            return false;
        }
        return true;
    });
}

OPENCLAW_INLINE bool transform(const Call& call, const AlgorithmSpec& spec, const Span& in,
                               const Span* in2, const Span& out) {
    if (in.count == 0) {
        return nothing(call);
    }
    return with_engine(call, spec, [&](Engine& engine, Built& built) {
        Sequence run(engine, call, built.wg);
        const std::size_t groups = std::clamp<std::size_t>(
            div_up(in.count, built.wg), 1, std::max<std::size_t>(engine.traits.units * 16, 1));
        const cl_ulong in_off = as_ulong(in.offset);
        const cl_ulong out_off = as_ulong(out.offset);
        const cl_uint n = as_uint(in.count);
        if (in2 == nullptr) {
            return run.launch(built.kernels[0].get(),
                              {mem_arg(in.mem->get()),
                               {8, &in_off},
                               mem_arg(out.mem->get()),
                               {8, &out_off},
                               {4, &n}},
                              groups, true);
        }
        const cl_ulong in2_off = as_ulong(in2->offset);
        return run.launch(built.kernels[1].get(),
                          {mem_arg(in.mem->get()),
                           {8, &in_off},
                           mem_arg(in2->mem->get()),
                           {8, &in2_off},
                           mem_arg(out.mem->get()),
                           {8, &out_off},
                           {4, &n}},
                          groups, true);
    });
}

OPENCLAW_INLINE bool histogram(const Call& call, const AlgorithmSpec& spec, const Span& in,
                               const Span& bins) {
    if (bins.count == 0) {
        return nothing(call);
    }
    return with_engine(call, spec, [&](Engine& engine, Built& built) {
        Sequence run(engine, call, built.wg);
        const cl_uint zero = 0;
        if (!run.fill(bins.mem->get(), bins.offset * 4, bins.count * 4, Bytes{&zero, 4},
                      in.count == 0)) {
            return false;
        }
        if (in.count == 0) {
            return true;
        }
        // Bins in local memory while they fit the group's budget (as the scan tiles': at most
        // 32 KiB); a local argument is never of size 0.
        const cl_ulong budget = std::min<cl_ulong>(
            engine.traits.local_mem > 4096 ? engine.traits.local_mem - 4096 : 2048, 32768);
        const bool in_local = bins.count * 4 <= budget;
        const auto [groups, chunk] = split(engine, in.count, built.wg * 8, in.count);
        const cl_ulong in_off = as_ulong(in.offset);
        const cl_ulong b_off = as_ulong(bins.offset);
        const cl_uint n = as_uint(in.count);
        const cl_uint chunk_u = as_uint(chunk);
        const cl_uint nbins = as_uint(bins.count);
        const cl_uint local_flag = in_local ? 1 : 0;
        return run.launch(built.kernels[0].get(),
                          {mem_arg(in.mem->get()),
                           {8, &in_off},
                           {4, &n},
                           {4, &chunk_u},
                           mem_arg(bins.mem->get()),
                           {8, &b_off},
                           {4, &nbins},
                           {4, &local_flag},
                           {in_local ? bins.count * 4 : 4, nullptr}},
                          groups, true);
    });
}

OPENCLAW_INLINE bool iota(const Call& call, const AlgorithmSpec& spec, const Span& out,
                          Bytes start) {
    if (out.count == 0) {
        return nothing(call);
    }
    return with_engine(call, spec, [&](Engine& engine, Built& built) {
        Sequence run(engine, call, built.wg);
        const std::size_t groups = std::clamp<std::size_t>(
            div_up(out.count, built.wg), 1, std::max<std::size_t>(engine.traits.units * 16, 1));
        const cl_ulong out_off = as_ulong(out.offset);
        const cl_uint n = as_uint(out.count);
        return run.launch(
            built.kernels[0].get(),
            {mem_arg(out.mem->get()), {8, &out_off}, {4, &n}, {start.size, start.data}}, groups,
            true);
    });
}

OPENCLAW_INLINE bool radix_sort(const Call& call, const AlgorithmSpec& spec, const Span& keys,
                                const Span* values, bool descending) {
    if (keys.count <= 1) {
        return nothing(call);
    }
    return with_engine(call, spec, [&](Engine& engine, Built& built) {
        Sequence run(engine, call, built.wg);
        const std::size_t wg = built.wg;
        const std::size_t key_bytes = spec.key_bits / 8;
        const std::size_t value_bytes = spec.values ? spec.acc_size : 0;
        const std::size_t n = keys.count;
        // Serial (CPUs): 8-bit digits over a few blocks per compute unit, at least 16 Ki keys
        // each; tiled: 4-bit digits over tiles of WG * RITEMS keys.
        const unsigned bits = built.serial ? 8 : 4;
        const unsigned passes = spec.key_bits / bits;  // even: the last pass writes the user's
        // Single pass (Onesweep) on the tiled kernels only (a CPU's serial sort never waits), and
        // only when asked for: the multi-pass sort stays the default until the single pass has
        // been measured where work-groups are known to progress (NVIDIA GPUs).
        const bool one_sweep = !built.serial && call.path == AlgorithmPath::single_pass;
        const std::size_t tiles =
            built.serial ? std::clamp<std::size_t>(div_up(n, std::size_t{1} << 14), 1,
                                                   std::size_t{engine.traits.units} * 4)
                         : div_up(n, wg * built.items);
        const std::size_t digit_counts = (std::size_t{1} << bits) * tiles;
        const std::size_t count_tiles = div_up(digit_counts, wg * built.sitems);
        const std::size_t count_groups =
            split(engine, count_tiles, 1, spine_groups(wg * built.sitems)).first;
        ScratchPlan plan;
        const std::size_t keys_at = plan.take(n * key_bytes);
        const std::size_t values_at = spec.values ? plan.take(n * value_bytes) : 0;
        const std::size_t counts_at = one_sweep ? 0 : plan.take(digit_counts * 4);
        const std::size_t partial_at =
            built.serial || one_sweep ? 0 : plan.take((count_groups + 1) * 4);
        // Onesweep: every pass's digit counts, then per pass a tile counter and a flag per tile
        // and digit (zeroed together), and the tiles' counts and inclusive counts.
        const std::size_t pass_state = 1 + 16 * tiles;
        const std::size_t hist_at = one_sweep ? plan.take(passes * 16 * 4) : 0;
        const std::size_t state_at = one_sweep ? plan.take(passes * pass_state * 4) : 0;
        const std::size_t agg_at = one_sweep ? plan.take(2 * 16 * tiles * 4) : 0;
        if (!reserve_scratch(engine, call, plan.used)) {
            return false;
        }
        const cl_mem scratch = engine.active;
        const cl_mem user_keys = keys.mem->get();
        const cl_mem user_values = values != nullptr ? values->mem->get() : scratch;
        const cl_ulong c_off = as_ulong(counts_at / 4);
        const cl_uint n_u = as_uint(n);
        const cl_uint tiles_u = as_uint(tiles);
        const cl_ulong flip64 = descending ? ~cl_ulong{0} : 0;
        const cl_uint flip32 = descending ? ~cl_uint{0} : 0;
        const Arg flip = key_bytes == 8 ? Arg{8, &flip64} : Arg{4, &flip32};
        const cl_uint zero_count = 0;
        const Bytes zero{&zero_count, 4};
        if (one_sweep) {
            const auto [groups, chunk] = split(engine, n, wg, max_groups_spine);
            const cl_uint chunk_u = as_uint(chunk);
            const cl_ulong k_off = as_ulong(keys.offset);
            const cl_ulong h_off = hist_at / 4;
            if (!run.fill(scratch, hist_at, state_at + passes * pass_state * 4 - hist_at, zero,
                          false) ||
                !run.launch(built.kernels[5].get(),
                            {mem_arg(user_keys),
                             {8, &k_off},
                             {4, &n_u},
                             {4, &chunk_u},
                             flip,
                             mem_arg(scratch),
                             {8, &h_off}},
                            groups, false)) {
                return false;
            }
        }  // Pass p reads from `from` and writes to `to`; even passes read the user's memory.
        for (unsigned p = 0; p < passes; ++p) {
            const bool from_user = p % 2 == 0;
            const cl_mem kin = from_user ? user_keys : scratch;
            const cl_mem kout = from_user ? scratch : user_keys;
            const cl_ulong kin_off = from_user ? as_ulong(keys.offset) : keys_at / key_bytes;
            const cl_ulong kout_off = from_user ? keys_at / key_bytes : as_ulong(keys.offset);
            const cl_mem vin = from_user ? user_values : scratch;
            const cl_mem vout = from_user ? scratch : user_values;
            const cl_ulong user_voff = values != nullptr ? as_ulong(values->offset) : 0;
            const cl_ulong scratch_voff = value_bytes != 0 ? values_at / value_bytes : 0;
            const cl_ulong vin_off = from_user ? user_voff : scratch_voff;
            const cl_ulong vout_off = from_user ? scratch_voff : user_voff;
            const cl_uint shift = bits * p;
            const bool last = p + 1 == passes;
            if (one_sweep) {
                const cl_ulong h_off = hist_at / 4 + 16 * p;
                const cl_ulong s_off = state_at / 4 + p * pass_state;
                const cl_ulong a_off = agg_at / 4;
                if (!run.launch(built.kernels[6].get(),
                                {mem_arg(kin),
                                 {8, &kin_off},
                                 mem_arg(kout),
                                 {8, &kout_off},
                                 mem_arg(vin),
                                 {8, &vin_off},
                                 mem_arg(vout),
                                 {8, &vout_off},
                                 {4, &n_u},
                                 {4, &shift},
                                 flip,
                                 mem_arg(scratch),
                                 {8, &h_off},
                                 mem_arg(scratch),
                                 {8, &s_off},
                                 mem_arg(scratch),
                                 {8, &a_off}},
                                tiles, last)) {
                    return false;
                }
                continue;
            }
            if (!run.launch(built.kernels[0].get(),
                            {mem_arg(kin),
                             {8, &kin_off},
                             {4, &n_u},
                             {4, &shift},
                             flip,
                             mem_arg(scratch),
                             {8, &c_off},
                             {4, &tiles_u}},
                            tiles, false) ||
                (!built.serial &&
                 !portable_scan(engine, run, built.kernels[2].get(), built.kernels[3].get(),
                                built.kernels[4].get(), built.wg, built.sitems, 4, scratch, c_off,
                                scratch, c_off, digit_counts, partial_at, 1, &zero, false)) ||
                !run.launch(built.kernels[1].get(),
                            {mem_arg(kin),
                             {8, &kin_off},
                             mem_arg(kout),
                             {8, &kout_off},
                             mem_arg(vin),
                             {8, &vin_off},
                             mem_arg(vout),
                             {8, &vout_off},
                             {4, &n_u},
                             {4, &shift},
                             flip,
                             mem_arg(scratch),
                             {8, &c_off},
                             {4, &tiles_u}},
                            tiles, last)) {
                return false;
            }
        }
        return true;
    });
}

OPENCLAW_INLINE EngineCounts engine_counts(const Queue& queue) {
    QueueState* state = QueueAccess::state(queue);
    if (state == nullptr) {
        return {};
    }
    std::shared_ptr<void> held;
    {
        const std::lock_guard<std::mutex> lock(state->mutex);
        held = state->algorithms;
    }
    if (!held) {
        return {};
    }
    Engine& engine = *static_cast<Engine*>(held.get());
    const std::lock_guard<std::mutex> lock(engine.mutex);
    return engine.counts;
}

}  // namespace detail::algo

OPENCLAW_END_NAMESPACE
