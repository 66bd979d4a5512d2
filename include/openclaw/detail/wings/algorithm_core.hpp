// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// The algorithms' engine, written once for bytes (algorithms wing): the OpenCL C of every
// algorithm, the programs built from it per queue and reused, the queue's scratch memory, and the
// launch sequences. <openclaw/algorithm.hpp> checks types and operators at compile time and then
// describes each call to this core with a static AlgorithmSpec (whose address is the key of the
// built kernels) and the regions it works on.

#include <openclaw/buffer.hpp>
#include <openclaw/queue.hpp>
#include <openclaw/wait_list.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>

OPENCLAW_BEGIN_NAMESPACE

/// Which implementation an algorithm runs: the portable multi-pass one (correct on every OpenCL
/// 1.2 device) or the single-pass one (decoupled look-back), which needs work-groups to make
/// progress while another one waits for them.
enum class AlgorithmPath : unsigned char {
    automatic,    ///< the library's choice: portable (single-pass measured slower where it is safe)
    portable,     ///< reduce-then-scan: a few passes over the data, no waiting between work-groups
    single_pass,  ///< decoupled look-back: one pass; forced here, on any device
};

namespace detail::algo {

/// The algorithm families the engine has kernels for.
enum class Family : unsigned char {
    reduce,     // transform_reduce, reduce, count_if
    extremum,   // min_element / max_element: (value, index) pairs
    scan,       // inclusive and exclusive scans
    copy_if,    // stream compaction
    transform,  // unary and binary transforms
    iota,
    radix_sort,   // keys (and values)
    histogram,    // counts per bin
    scan_by_key,  // segmented scans: runs of equal keys
};

/// What a compaction keeps (Family::copy_if).
enum class Select : unsigned char {
    copy_if,    // the elements whose predicate holds
    partition,  // those, then the others (both in order)
    unique,     // the first of each run of equal elements (OP the equality)
};

/// What one algorithm call needs built: its family, the OpenCL C type names it works on and the
/// operators' text. Made once per instantiation (a static constant of the calling template), so
/// its address identifies the kernels built for it.
struct AlgorithmSpec {
    Family family = Family::reduce;
    std::string_view in_type;      // the input's OpenCL C type (keys for sorts)
    std::string_view acc_type;     // the accumulator, the output (transform), the values' carrier
    std::string_view in2_type;     // the second input of a binary transform
    std::string_view definitions;  // user snippets (structs, functions), each once
    std::string_view op;           // OP(a, b): the binary operator's expression in a and b
    std::string_view unary;        // TR(x): the transform or predicate in x ("x" for none)
    std::size_t in_size = 0;       // bytes of an input element
    std::size_t acc_size = 0;      // bytes of an accumulator (or value) element
    std::size_t in2_size = 0;
    unsigned key_bits = 0;            // radix sort: 32 or 64
    unsigned char key_kind = 0;       // radix sort: 0 unsigned, 1 signed, 2 floating
    bool values = false;              // radix sort: keys carry values
    Select select = Select::copy_if;  // copy_if family: what it keeps
};

/// A region of a buffer as the engine sees it: the memory object, the first element and the count.
struct Span {
    const MemObject* mem = nullptr;
    std::size_t offset = 0;   // elements
    std::size_t count = 0;    // elements
    std::size_t element = 1;  // bytes per element
};

/// A call's common arguments: the queue, its wait list, where its event goes, its error target.
struct Call {
    const Queue& queue;
    const char* name;  // "openclaw::reduce", for messages
    const WaitList& wait;
    cl_event* event;  // null unless the caller asked for the last command's event
    OnError on_error;
    AlgorithmPath path = AlgorithmPath::automatic;
    MemoryPool* pool = nullptr;  // the source of this call's scratch memory, else the queue's
};

/// A value passed to a kernel as bytes (an init, an iota start): at most 128 bytes.
struct Bytes {
    const void* data = nullptr;
    std::size_t size = 0;
};

/// Checks a region for `call` (queue and context, range, size limit, a mapping it conflicts
/// with: the algorithm reads it, or `writes`): false after reporting.
bool check_span(const Call& call, const Span& span, const char* what, bool writes);
/// Refuses an output region that overlaps `in` unless it is the same region (`same_ok`).
bool check_overlap(const Call& call, const Span& in, const Span& out, const char* in_name,
                   const char* out_name, bool same_ok);

/// transform_reduce / reduce / count_if: the reduction of `in` (through TR, then OP, with
/// `init` first) written to `out` (one element), or read back into `host` when `host` is not
/// null (then the call blocks).
bool reduce(const Call& call, const AlgorithmSpec& spec, const Span& in, Bytes init,
            const Span* out, void* host);
/// min_element / max_element: the index of the first extreme element (spec.op is `less`).
bool extremum(const Call& call, const AlgorithmSpec& spec, const Span& in, std::size_t& index);
/// inclusive_scan (init null) / exclusive_scan.
bool scan(const Call& call, const AlgorithmSpec& spec, const Span& in, const Span& out,
          const Bytes* init);
/// inclusive_scan_by_key (init null) / exclusive_scan_by_key: a scan of `values` that starts
/// again at each run of equal `keys` (spec.acc_size: the bytes of a (value, head) pair).
bool scan_by_key(const Call& call, const AlgorithmSpec& spec, const Span& keys, const Span& values,
                 const Span& out, const Bytes* init);
/// copy_if: the elements of `in` whose predicate holds, in order, into `out`; their count.
bool copy_if(const Call& call, const AlgorithmSpec& spec, const Span& in, const Span& out,
             std::size_t& count);
/// transform: out = TR(in) (unary) or OP(in, in2) (binary: `in2` not null).
bool transform(const Call& call, const AlgorithmSpec& spec, const Span& in, const Span* in2,
               const Span& out);
/// histogram: bins[b] = the number of elements x of `in` whose bin TR(x) is b (bins of type
/// uint, zeroed first; a bin outside the buffer is not counted).
bool histogram(const Call& call, const AlgorithmSpec& spec, const Span& in, const Span& bins);
/// iota: out[i] = start + i.
bool iota(const Call& call, const AlgorithmSpec& spec, const Span& out, Bytes start);
/// sort / sort_by_key (values null for keys only), ascending or descending, stable.
bool radix_sort(const Call& call, const AlgorithmSpec& spec, const Span& keys, const Span* values,
                bool descending);

/// What a queue's engine has done, for tests and tuning: programs built, kernels made, scratch
/// allocations.
struct EngineCounts {
    std::size_t programs = 0;
    std::size_t kernels = 0;
    std::size_t scratch_allocations = 0;
    std::size_t scratch_bytes = 0;
};
EngineCounts engine_counts(const Queue& queue);

/// For tests: queues whose engine is made while this is on run the GPU's tiled kernels on CPU
/// devices too (work-groups of 256 sharing tiles through local memory), so that PoCL checks them.
inline constinit std::atomic<bool> gpu_kernels_for_new_engines{false};
void use_gpu_kernels_on_cpus(bool on) noexcept;

}  // namespace detail::algo

OPENCLAW_END_NAMESPACE

#if OPENCLAW_HEADER_ONLY
#include <openclaw/impl/detail/wings/algorithm_core.ipp>
#endif

#include <openclaw/detail/base/macros_pop.hpp>
