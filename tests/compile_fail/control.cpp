// Must compile: every correct use the compile-fail snippets get wrong.
#include <span>
#include <utility>
#include <vector>

#include <openclaw/graph.hpp>
#include <openclaw/pool.hpp>

#include "common.hpp"

void control(cf::VectorAdd& add, cf::Reduce& reduce, cf::Scale& scale, cf::Lookup& lookup,
             cf::Many& many, cf::Args& a) {
    add.set_args(a.in, a.in, a.out, a.n);
    add.set_args(a.both, a.in, a.both, static_cast<cl_uint>(a.size));  // ReadWrite fits In, Out
    add.set_args(a.in, a.in, a.out, 16u);
    reduce.set_args(a.in, a.out, cf::LocalMem<float>{64}, a.n);
    scale.set_args(a.both, cf::Pair{2.0f, 1}, a.weights);
    lookup.set_args(a.ints, a.ints, a.int_out);
    many.set_args(a.in, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, a.out);
    add.set_arg<2>(a.both).set_arg<3>(cl_uint{3});
    cf::Device device;
    (void)device.info<CL_DEVICE_NAME>();
}

void control_memory(cf::VectorAdd& add, cf::Args& a, cf::Queue& q, float* p, const float* cp) {
    add.set_args(cf::svm(cp), cf::svm(p), cf::svm(p), a.n);  // SVM pointers where buffers go
    (void)a.both.sub<cf::ReadOnly>(0, 4);                    // narrower access
    (void)a.in.sub(0, 4);                                    // same access
    auto view = q.map_read_write(a.both);
    view[0] = 1.0f;  // a writable view
    const auto read = q.map_read(a.in);
    (void)read[0];
    std::vector<float> host(4);
    q.fill(cf::svm(std::span<float>(p, 4)), 1.0f);  // writable SVM
    q.copy(cf::svm(std::span<float>(p, 4)), host);  // the same element type
}

void control_images(cf::Invert& invert, cf::Shift& shift, cf::Images& i, cf::Args& a) {
    invert.set_args(i.in, i.out);
    invert.set_args(i.both, i.both);  // ReadWrite fits read_only and write_only
    shift.set_args(i.in, i.sampler, i.out, cl_int{1});
    (void)a;
}

// Buffers held in variables (sub-buffers too) are what set_args takes.
void control_kept_alive(cf::VectorAdd& add, cf::DynamicKernel& kernel, cf::Args& a) {
    const cf::ReadOnlyBuffer<float> part = a.in.sub(0, 16);
    add.set_args(part, a.in, a.out, a.n);
    kernel.set_arg(0, part);
}

// Kernels typed from their source: non-const pointers the body only reads take ReadOnly
// buffers, those it only writes WriteOnly ones, those it does both with ReadWrite ones.
namespace {
constexpr char ported_source[] = R"CLC(
__kernel void saxpy(const float alpha, __global float* x, __global float* y,
                    __global float* out, const uint n) {
    const size_t i = get_global_id(0);
    if (i < n) {
        out[i] = alpha * x[i] + y[i];
        y[i] += 1.0f;
    }
}
)CLC";
}  // namespace

void control_ported(cf::Program& program, cf::Args& a) {
    auto saxpy = program.kernel<ported_source, "saxpy">();
    saxpy.set_args(2.0f, a.in, a.both, a.out, a.n);
}

// The queue's commands: whole buffers and slices, events on request, nonblocking transfers of
// memory that cannot go away under them.
void control_commands(cf::Queue& q, cf::Args& a, cf::PinnedBuffer<float>& pinned) {
    std::vector<float> host(16);
    q.read(a.both, host);
    q.write(a.both.slice(4, 4), std::span<const float>(host).first(4));
    (void)q.read(a.both.slice(0, 16), host, cf::with_event);
    (void)q.read(a.both, pinned, cf::nonblocking);
    auto pending = q.read(a.both.slice(2), cf::nonblocking);
    auto sent = q.write(a.both, std::move(host), cf::nonblocking);
    q.copy(a.in, a.both);
    q.copy(a.in.slice(0, 4), a.out.slice(4, 4));
    (void)q.fill(a.both.slice(1, 2), 0.5f, cf::with_event);
    (void)q.map_read(a.in.slice(0, 4));
    (void)q.map_discard(a.out);
}

// The calls whose mistakes get a sentence: launch sizes, host memory of the right element type,
// kernels for enqueue, Events for after(), a buffer of plain values.
void control_calls(cf::VectorAdd& add, cf::Args& a, cf::Queue& q, cf::Images& i, cl_event raw) {
    const cf::NDRange range{std::size_t{4}, 2, 1u};
    q.enqueue(add, range);
    std::vector<float> host(4);
    q.read(a.both, host);
    const std::vector<float> source(4);
    q.write(a.both, source);
    (void)q.read(a.both, host, cf::with_event);
    std::vector<cl_uchar4> pixels(16);
    q.read(i.in, pixels);
    q.write(i.both, std::span<const cl_uchar4>(pixels));
    const cf::Event event = cf::Event::retain(raw);
    (void)cf::after(event, std::vector<cf::Event>{event});
    cf::ReadWriteBuffer<cl_ulong> addresses;  // device addresses as integers are fine
    (void)addresses;
}

void control_graph(cf::CommandGraph& graph, cf::GraphKernel<cf::VectorAdd>& step,
                   cf::VectorAdd& add, cf::MemoryPool& pool, cf::Args& a) {
    step.set_args(a.in, a.in, a.out, a.n);
    step.set_arg<3>(cl_uint{4});
    (void)graph.enqueue(add, cf::NDRange{16});
    graph.copy(a.both, a.out);
    (void)pool.allocate<float>(16);
}

std::chrono::nanoseconds control_profile(const cf::Event& event) {
    return event.profile().duration() + event.duration();  // with <openclaw/profile.hpp>
}
