// Typed kernels: vector add and a local-memory reduction checked against the CPU, scalars of
// every kind, the launch forms, geometry checks before the driver, and the launch path's
// allocations compared with the raw C API's.
#include <openclaw/all.hpp>

#include <algorithm>
#include <atomic>
#include <functional>
#include <numeric>
#include <thread>
#include <type_traits>
#include <vector>

#include "support/allocations.hpp"
#include "support/catch.hpp"
#include "support/fixture.hpp"

using openclaw::In;
using openclaw::InOut;
using openclaw::Local;
using openclaw::LocalMem;
using openclaw::NDRange;
using openclaw::Out;
using openclaw_test::env;
using openclaw_test::has;
using openclaw_test::thrown;

namespace {

constexpr const char* source = R"CLC(
__kernel void vector_add(__global const float* a, __global const float* b, __global float* c) {
    const size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}

__kernel void group_sum(__global const float* in, __global float* partial,
                        __local float* scratch, const uint n) {
    const uint lid = get_local_id(0);
    const uint gid = get_global_id(0);
    scratch[lid] = gid < n ? in[gid] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s) {
            scratch[lid] += scratch[lid + s];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        partial[get_group_id(0)] = scratch[0];
    }
}

typedef struct {
    float scale;
    int offset;
} Transform;

__kernel void transform(__global int* data, const Transform t, const float4 weights,
                        __global float* dot) {
    const size_t i = get_global_id(0);
    data[i] = (int)(data[i] * t.scale) + t.offset;
    if (i == 0) {
        dot[0] = weights.x + 2.0f * weights.y + 3.0f * weights.z + 4.0f * weights.w;
    }
}

__kernel void lookup(__constant int* table, __global const int* index, __global int* out) {
    const size_t i = get_global_id(0);
    out[i] = table[index[i]];
}

__kernel void fill_index(__global uint* out, const ulong base) {
    out[get_global_id(0)] = (uint)(base + get_global_id(0));
}

__kernel __attribute__((reqd_work_group_size(16, 1, 1)))
void sixteen(__global int* data) {
    data[get_global_id(0)] = (int)get_local_size(0);
}

__kernel void offset_by(__global int* data, const int2 by) {
    data[get_global_id(0)] += by.x + by.y;
}

// Ported code often reads its inputs through non-const pointers.
__kernel void ported_add(__global float* a, __global float* b, __global float* c) {
    const size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}

__kernel void global_ids(__global uint* out, const uint base) {
    const size_t i = get_global_id(0) - get_global_offset(0);
    out[i] = (uint)get_global_id(0) + base;
}
)CLC";

struct Transform {  // the OpenCL C struct's host twin: 8 bytes on both sides
    float scale;
    cl_int offset;
};

const openclaw::Program& program() {
    static const openclaw::Program built = openclaw::Program::build(env().context, source);
    return built;
}

}  // namespace

TEST_CASE("vector add of 1M floats matches the CPU") {
    const std::size_t n = std::size_t{1} << 20;
    std::vector<float> a(n), b(n), c(n, -1.0f);
    for (std::size_t i = 0; i < n; ++i) {
        a[i] = static_cast<float>(i % 1024) * 0.25f;
        b[i] = 1.0f - static_cast<float>(i % 77);
    }
    const openclaw::ReadOnlyBuffer<float> da{env().context, a};
    const openclaw::ReadOnlyBuffer<float> db{env().context, b};
    const openclaw::WriteOnlyBuffer<float> dc{env().context, n};
    auto vadd = program().kernel<In<float>, In<float>, Out<float>>("vector_add");
    vadd.set_args(da, db, dc);
    env().queue.enqueue(vadd, NDRange{n}, NDRange{64});
    env().queue.read(dc, c);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i) {
        wrong += c[i] == a[i] + b[i] ? 0 : 1;  // exact: both sides add two floats once
    }
    CHECK(wrong == 0);
}

TEST_CASE("a work-group reduction in Local<float> memory matches the CPU") {
    const cl_uint n = (1u << 20) + 37;  // not a multiple of the group size
    const std::size_t local = 64;
    const std::size_t groups = (n + local - 1) / local;
    std::vector<float> in(n);
    for (cl_uint i = 0; i < n; ++i) {
        in[i] = static_cast<float>(i % 7);  // small integers: every partial sum is exact
    }
    const openclaw::ReadOnlyBuffer<float> din{env().context, in};
    const openclaw::WriteOnlyBuffer<float> dpartial{env().context, groups};
    auto sum = program().kernel<In<float>, Out<float>, Local<float>, cl_uint>("group_sum");
    env().queue.enqueue(sum.set_args(din, dpartial, LocalMem<float>{local}, n),
                        NDRange{groups * local}, NDRange{local});
    std::vector<float> partial(groups);
    env().queue.read(dpartial, partial);

    double device_total = 0;
    for (std::size_t g = 0; g < groups; ++g) {
        double expected = 0;
        for (std::size_t i = g * local; i < std::min<std::size_t>(n, (g + 1) * local); ++i) {
            expected += in[i];
        }
        if (partial[g] != static_cast<float>(expected)) {
            FAIL_CHECK("group " << g << ": " << partial[g] << " != " << expected);
        }
        device_total += partial[g];
    }
    CHECK(device_total == std::accumulate(in.begin(), in.end(), 0.0));
}

TEST_CASE("struct and vector scalars are passed by value") {
    std::vector<cl_int> data(256);
    std::iota(data.begin(), data.end(), 0);
    const openclaw::ReadWriteBuffer<cl_int> ddata{env().context, data};
    const openclaw::WriteOnlyBuffer<float> ddot{env().context, 1};
    cl_float4 weights;
    weights.s[0] = 1.0f;
    weights.s[1] = 10.0f;
    weights.s[2] = 100.0f;
    weights.s[3] = 1000.0f;
    auto transform = program().kernel<InOut<cl_int>, Transform, cl_float4, Out<float>>("transform");
    transform.set_args(ddata, Transform{2.0f, -5}, weights, ddot);
    env().queue.enqueue(transform, NDRange{256});
    std::vector<cl_int> out(256);
    env().queue.read(ddata, out);
    for (cl_int i = 0; i < 256; ++i) {
        CHECK(out[static_cast<std::size_t>(i)] == 2 * i - 5);
    }
    std::vector<float> dot(1);
    env().queue.read(ddot, dot);
    CHECK(dot[0] == 1.0f + 20.0f + 300.0f + 4000.0f);
}

TEST_CASE("Constant<T> takes a readable buffer and set_arg sets one argument") {
    const std::vector<cl_int> table = {10, 20, 30, 40};
    const std::vector<cl_int> index = {3, 2, 1, 0, 0, 1, 2, 3};
    const openclaw::ReadOnlyBuffer<cl_int> dtable{env().context, table};
    const openclaw::ReadWriteBuffer<cl_int> dindex{env().context, index};  // ReadWrite fits In
    const openclaw::ReadWriteBuffer<cl_int> dout{env().context, 8};        // ReadWrite fits Out
    auto lookup = program().kernel<openclaw::Constant<cl_int>, In<cl_int>, Out<cl_int>>("lookup");
    lookup.set_arg<0>(dtable).set_arg<1>(dindex).set_arg<2>(dout);
    env().queue.enqueue(lookup, NDRange{8});
    std::vector<cl_int> out(8);
    env().queue.read(dout, out);
    CHECK(out == std::vector<cl_int>{40, 30, 20, 10, 10, 20, 30, 40});
}

TEST_CASE("scalars convert without narrowing: cl_uint and int literals into cl_ulong") {
    const openclaw::WriteOnlyBuffer<cl_uint> out{env().context, 4};
    auto fill = program().kernel<Out<cl_uint>, cl_ulong>("fill_index");
    fill.set_args(out, 7u);  // unsigned int -> cl_ulong widens: accepted
    env().queue.enqueue(fill, NDRange{4});
    std::vector<cl_uint> back(4);
    env().queue.read(out, back);
    CHECK(back == std::vector<cl_uint>{7, 8, 9, 10});
}

TEST_CASE("a launch can return its event") {
    const openclaw::WriteOnlyBuffer<cl_uint> out{env().context, 64};
    auto fill = program().kernel<Out<cl_uint>, cl_ulong>("fill_index");
    const openclaw::Event event =
        env().queue.enqueue(fill.set_args(out, cl_ulong{100}), NDRange{64}, openclaw::with_event);
    event.wait();
    CHECK(event.is_complete());
    CHECK(event.info<CL_EVENT_COMMAND_TYPE>() ==
          static_cast<cl_command_type>(CL_COMMAND_NDRANGE_KERNEL));
    const openclaw::Event grouped =
        env().queue.enqueue(fill, NDRange{64}, NDRange{16}, openclaw::with_event);
    grouped.wait();
    std::vector<cl_uint> back(64);
    env().queue.read(out, back);
    CHECK(back[63] == 163);
}

TEST_CASE("kernels reading through non-const pointers take ReadOnly buffers, typed either way") {
    const std::size_t n = 1024;
    std::vector<float> a(n), b(n);
    for (std::size_t i = 0; i < n; ++i) {
        a[i] = static_cast<float>(i);
        b[i] = 0.5f * static_cast<float>(i % 13);
    }
    const openclaw::ReadOnlyBuffer<float> da{env().context, a};
    const openclaw::ReadOnlyBuffer<float> db{env().context, b};
    const auto expect_sum = [&](const openclaw::WriteOnlyBuffer<float>& dc) {
        std::vector<float> c(n);
        env().queue.read(dc, c);
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < n; ++i) {
            wrong += c[i] == a[i] + b[i] ? 0 : 1;
        }
        CHECK(wrong == 0);
    };
    // By hand: In<T> says the kernel only reads. Debug builds (the program has the driver's
    // argument description) accept it as release builds do.
    INFO("program built with arg info: " << program().kernel_arg_info());
    {
        const openclaw::WriteOnlyBuffer<float> dc{env().context, n};
        auto add = program().kernel<In<float>, In<float>, Out<float>>("ported_add");
        env().queue.enqueue(add.set_args(da, db, dc), NDRange{n});
        expect_sum(dc);
    }
    // From the source: the body reads a and b and only writes c.
    {
        static constexpr char ported[] = R"CLC(
__kernel void ported_add(__global float* a, __global float* b, __global float* c) {
    const size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}
)CLC";
        static_assert(std::is_same_v<openclaw::kernel_t<ported, "ported_add">,
                                     openclaw::Kernel<In<float>, In<float>, Out<float>>>);
        const openclaw::WriteOnlyBuffer<float> dc{env().context, n};
        auto add = program().kernel<ported, "ported_add">();
        env().queue.enqueue(add.set_args(da, db, dc), NDRange{n});
        expect_sum(dc);
    }
    // A descriptor the kernel contradicts is still refused where the description is known: the
    // kernel reads a, which Out<T> would let a WriteOnly buffer reach.
    if (program().kernel_arg_info()) {
        const auto error = thrown<openclaw::Error>(
            [&] { (void)program().kernel<Out<float>, In<float>, Out<float>>("vector_add"); });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_KERNEL_ARGS);
        CHECK_THAT(error->what(), has("the kernel's pointer is const (the kernel only reads "
                                      "through it): declare In<T>"));
    }
}

TEST_CASE("a launch with a global offset starts the global IDs there") {
    const openclaw::WriteOnlyBuffer<cl_uint> out{env().context, 64};
    auto ids = program().kernel<Out<cl_uint>, cl_uint>("global_ids");
    ids.set_args(out, 1000u);
    env().queue.enqueue(ids, openclaw::GlobalOffset{100}, NDRange{64}, NDRange{16});
    std::vector<cl_uint> back(64);
    env().queue.read(out, back);
    for (cl_uint i = 0; i < 64; ++i) {
        CHECK(back[i] == 1100 + i);
    }
    const openclaw::Event event = env().queue.enqueue(
        ids.set_args(out, 0u), openclaw::GlobalOffset{7}, NDRange{64}, openclaw::with_event);
    event.wait();
    env().queue.read(out, back);
    CHECK(back[0] == 7);
    CHECK(back[63] == 70);

    // Offsets the driver would refuse (or wrap) are refused first, with the numbers.
    const auto dims = thrown<openclaw::Error>([&] {
        env().queue.enqueue(ids, openclaw::GlobalOffset{1, 2}, NDRange{64});
    });
    REQUIRE(dims);
    CHECK(dims->cl_code() == CL_INVALID_GLOBAL_OFFSET);
    CHECK_THAT(dims->what(), has("clEnqueueNDRangeKernel: CL_INVALID_GLOBAL_OFFSET (-56): global "
                                 "offset 1x2 has 2 dimension(s), global range 64 has 1"));
    const auto wraps = thrown<openclaw::Error>([&] {
        env().queue.enqueue(ids, openclaw::GlobalOffset{static_cast<std::size_t>(-8)}, NDRange{64});
    });
    REQUIRE(wraps);
    CHECK_THAT(wraps->what(), has("+ global range 64 overflows size_t in dimension 0"));
    std::error_code ec;
    env().queue.enqueue(ids, openclaw::GlobalOffset{-1}, NDRange{64}, NDRange{}, ec);
    CHECK(ec == openclaw::make_error_code(CL_INVALID_GLOBAL_OFFSET));
    const openclaw::Event none =
        env().queue.enqueue(ids, openclaw::GlobalOffset{-1}, NDRange{64}, openclaw::with_event, ec);
    CHECK_FALSE(none);
}

TEST_CASE("a negative or overflowing NDRange is refused by the launch") {
    const openclaw::WriteOnlyBuffer<cl_uint> out{env().context, 64};
    auto fill = program().kernel<Out<cl_uint>, cl_ulong>("fill_index");
    fill.set_args(out, cl_ulong{0});
    const int negative = -5;
    const auto error = thrown<openclaw::Error>([&] {
        env().queue.enqueue(fill, NDRange{8, negative});
    });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_VALUE);
    CHECK_THAT(error->what(),
               has("clEnqueueNDRangeKernel: CL_INVALID_VALUE (-30): global size -5 in dimension 1 "
                   "is negative"));
    const auto local_error =
        thrown<openclaw::Error>([&] { env().queue.enqueue(fill, NDRange{64}, NDRange{negative}); });
    REQUIRE(local_error);
    CHECK_THAT(local_error->what(), has("local size -5 in dimension 0 is negative"));
    // 2^32 x 2^32 work-items wrap to 0 in size_t: refused, not run as nothing.
    const auto huge = thrown<openclaw::Error>([&] {
        env().queue.enqueue(fill, NDRange{std::size_t{1} << 32, std::size_t{1} << 32});
    });
    REQUIRE(huge);
    CHECK(huge->cl_code() == CL_INVALID_GLOBAL_WORK_SIZE);
    CHECK_THAT(huge->what(), has("the number of work-items does not fit in size_t"));
    // The launch's OnError gets it, as for any other launch failure.
    std::error_code ec;
    env().queue.enqueue(fill, NDRange{negative}, NDRange{}, ec);
    CHECK(ec == openclaw::make_error_code(CL_INVALID_VALUE));
}

TEST_CASE("launch geometry is checked against the device before the driver sees it") {
    const openclaw::WriteOnlyBuffer<cl_uint> out{env().context, 4096};
    auto fill = program().kernel<Out<cl_uint>, cl_ulong>("fill_index");
    fill.set_args(out, cl_ulong{0});
    const std::size_t max_group = env().device.max_work_group_size();

    SECTION("a local size above the device's maximum work-group size") {
        const auto error = thrown<openclaw::Error>(
            [&] { env().queue.enqueue(fill, NDRange{max_group * 4}, NDRange{max_group * 2}); });
        REQUIRE(error);
        CHECK(error->call() == "clEnqueueNDRangeKernel");
        const bool item_limit = error->cl_code() == CL_INVALID_WORK_ITEM_SIZE;
        CHECK((error->cl_code() == CL_INVALID_WORK_GROUP_SIZE || item_limit));
        CHECK_THAT(error->what(), has(std::to_string(max_group * 2)));
        CHECK_THAT(error->what(), has("exceeds the device's maximum"));
        CHECK_THAT(error->what(), has(env().device.name()));
    }
    SECTION("a 2-D local size whose product exceeds the maximum") {
        const auto error = thrown<openclaw::Error>([&] {
            env().queue.enqueue(fill, NDRange{max_group * 2, 2}, NDRange{max_group, 2});
        });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_WORK_GROUP_SIZE);
        CHECK_THAT(error->what(), has("maximum work-group size " + std::to_string(max_group)));
    }
    SECTION("a global size that is not a multiple of the local size (OpenCL C 1.x)") {
        const auto error =
            thrown<openclaw::Error>([&] { env().queue.enqueue(fill, NDRange{100}, NDRange{64}); });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_WORK_GROUP_SIZE);
        CHECK_THAT(error->what(), has("global size 100 in dimension 0 is not a multiple of "
                                      "local size 64"));
    }
    SECTION("local and global ranges of different dimensions") {
        const auto error = thrown<openclaw::Error>([&] {
            env().queue.enqueue(fill, NDRange{64}, NDRange{8, 8});
        });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_WORK_DIMENSION);
        CHECK_THAT(error->what(), has("local range 8x8 has 2 dimension(s), global range 64 has 1"));
    }
    SECTION("an empty or zero global range") {
        const auto empty = thrown<openclaw::Error>([&] { env().queue.enqueue(fill, NDRange{}); });
        REQUIRE(empty);
        CHECK(empty->cl_code() == CL_INVALID_WORK_DIMENSION);
        const auto zero = thrown<openclaw::Error>([&] {
            env().queue.enqueue(fill, NDRange{16, 0});
        });
        REQUIRE(zero);
        CHECK(zero->cl_code() == CL_INVALID_GLOBAL_WORK_SIZE);
        CHECK_THAT(zero->what(), has("global size is 0 in dimension 1"));
    }
    SECTION("a zero local size") {
        const auto error =
            thrown<openclaw::Error>([&] { env().queue.enqueue(fill, NDRange{64}, NDRange{0}); });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_WORK_ITEM_SIZE);
    }
}

TEST_CASE("programs built as OpenCL C 2.0+ may launch non-uniform work-groups") {
    const openclaw::Device& device = env().device;
#if CL_TARGET_OPENCL_VERSION >= 300
    bool has_c3 = false;
    if (device.version() >= openclaw::Version{3, 0}) {
        for (const cl_name_version& v : device.info<CL_DEVICE_OPENCL_C_ALL_VERSIONS>()) {
            has_c3 = has_c3 || CL_VERSION_MAJOR(v.version) >= 3;
        }
    }
    const bool non_uniform = has_c3 && device.info<CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT>();
#else
    const bool non_uniform = false;
#endif
    if (!non_uniform) {
        WARN("\"" << device.name() << "\" has no OpenCL C 3.0 with non-uniform work-groups");
        CHECK_FALSE(program().non_uniform_groups());
        return;
    }
    const auto cl3 = openclaw::Program::build(env().context, source, {"-cl-std=CL3.0"});
    CHECK(cl3.non_uniform_groups());
    const openclaw::WriteOnlyBuffer<cl_uint> out{env().context, 100};
    auto fill = cl3.kernel<Out<cl_uint>, cl_ulong>("fill_index");
    env().queue.enqueue(fill.set_args(out, cl_ulong{0}), NDRange{100}, NDRange{64});
    std::vector<cl_uint> back(100);
    env().queue.read(out, back);
    CHECK(back[99] == 99);
    // -cl-uniform-work-group-size takes the permission back.
    const auto uniform = openclaw::Program::build(env().context, source,
                                                  {"-cl-std=CL3.0", "-cl-uniform-work-group-size"});
    CHECK_FALSE(uniform.non_uniform_groups());
}

TEST_CASE("kernel creation errors name the kernel") {
    SECTION("an unknown name lists the kernels that exist") {
        const auto error = thrown<openclaw::Error>(
            [] { (void)program().kernel<In<float>, In<float>, Out<float>>("vectoradd"); });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_KERNEL_NAME);
        CHECK(error->call() == "clCreateKernel");
        CHECK_THAT(error->what(), has("kernel \"vectoradd\": no kernel of that name"));
        CHECK_THAT(error->what(), has("\"vector_add\""));
        CHECK_THAT(error->what(), has("\"group_sum\""));
    }
    SECTION("a C++ signature with the wrong number of parameters") {
        const auto error = thrown<openclaw::Error>(
            [] { (void)program().kernel<In<float>, Out<float>>("vector_add"); });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_KERNEL_ARGS);
        CHECK_THAT(error->what(), has("kernel \"vector_add\" has 3 parameters, the C++ signature "
                                      "declares 2"));
    }
}

TEST_CASE("arguments the compiler cannot see are checked at run time") {
    auto vadd = program().kernel<In<float>, In<float>, Out<float>>("vector_add");
    const openclaw::ReadOnlyBuffer<float> a{env().context, 64};
    const openclaw::WriteOnlyBuffer<float> c{env().context, 64};
    SECTION("an empty buffer") {
        const openclaw::ReadOnlyBuffer<float> empty;
        const auto error = thrown<openclaw::Error>([&] { vadd.set_args(a, empty, c); });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_ARG_VALUE);
        CHECK_THAT(error->what(), has("argument 1 of kernel \"vector_add\" is an empty"));
    }
    SECTION("LocalMem of zero elements") {
        auto sum = program().kernel<In<float>, Out<float>, Local<float>, cl_uint>("group_sum");
        const auto error =
            thrown<openclaw::Error>([&] { sum.set_args(a, c, LocalMem<float>{0}, 64u); });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_ARG_VALUE);
        CHECK_THAT(error->what(), has("argument 2 of kernel \"group_sum\" is LocalMem of 0"));
    }
    SECTION("a launch before the arguments are set") {
        auto fresh = program().kernel<In<float>, In<float>, Out<float>>("vector_add");
        const auto error =
            thrown<openclaw::Error>([&] { env().queue.enqueue(fresh, NDRange{64}); });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_KERNEL_ARGS);
        // A typed kernel knows which argument is missing, before the driver is asked.
        CHECK_THAT(error->what(), has("kernel \"vector_add\": argument 0 (of 3) is not set"));
        // So does a DynamicKernel, after setting some of them.
        auto dynamic = program().kernel("vector_add");
        dynamic.set_arg(0, a);
        const auto named =
            thrown<openclaw::Error>([&] { env().queue.enqueue(dynamic, NDRange{64}); });
        REQUIRE(named);
        CHECK(named->cl_code() == CL_INVALID_KERNEL_ARGS);
        CHECK_THAT(named->what(), has("kernel \"vector_add\": argument 1 (of 3) is not set"));
        // A kernel adopted from a raw handle may have arguments set behind openclaw's back: the
        // driver decides, and its refusal is worded.
        cl_int code = CL_SUCCESS;
        auto adopted =
            openclaw::DynamicKernel::adopt(clCreateKernel(program().get(), "vector_add", &code));
        REQUIRE(code == CL_SUCCESS);
        const auto driver =
            thrown<openclaw::Error>([&] { env().queue.enqueue(adopted, NDRange{64}); });
        REQUIRE(driver);
        CHECK(driver->cl_code() == CL_INVALID_KERNEL_ARGS);
        CHECK_THAT(driver->what(), has("not every argument is set (the kernel takes 3)"));
        CHECK_THAT(driver->what(), has("set as an SVM pointer and then as a buffer"));
    }
}

TEST_CASE("set_args and enqueue allocate no more than the raw C API does") {
#if defined(OPENCLAW_TEST_NO_ALLOCATION_COUNT)
    WARN("operator new is not counted in this build (ThreadSanitizer): allocations not compared");
#else
    const std::size_t n = 1024;
    const openclaw::ReadOnlyBuffer<float> a{env().context, n};
    const openclaw::ReadOnlyBuffer<float> b{env().context, n};
    const openclaw::WriteOnlyBuffer<float> c{env().context, n};
    auto vadd = program().kernel<In<float>, In<float>, Out<float>>("vector_add");
    const cl_command_queue queue = env().queue.get();
    const cl_kernel raw = vadd.get();
    const cl_mem mems[3] = {a.get(), b.get(), c.get()};
    const std::size_t global = n;
    const std::size_t local = 64;
    const auto raw_loop = [&](int iterations) {
        for (int i = 0; i < iterations; ++i) {
            for (cl_uint k = 0; k < 3; ++k) {
                clSetKernelArg(raw, k, sizeof(cl_mem), &mems[k]);
            }
            clEnqueueNDRangeKernel(queue, raw, 1, nullptr, &global, &local, 0, nullptr, nullptr);
        }
    };
    const auto openclaw_loop = [&](int iterations) {
        for (int i = 0; i < iterations; ++i) {
            env().queue.enqueue(vadd.set_args(a, b, c), NDRange{n}, NDRange{64});
        }
    };
    raw_loop(10);  // warm-up: first launches may allocate inside the driver
    openclaw_loop(10);
    env().queue.finish();

    const std::size_t before_raw = openclaw_test::allocations_on_this_thread();
    raw_loop(200);
    const std::size_t raw_allocations = openclaw_test::allocations_on_this_thread() - before_raw;
    env().queue.finish();
    const std::size_t before = openclaw_test::allocations_on_this_thread();
    openclaw_loop(200);
    const std::size_t openclaw_allocations = openclaw_test::allocations_on_this_thread() - before;
    env().queue.finish();
    CHECK(openclaw_allocations <= raw_allocations);
#endif
}

TEST_CASE("objects of different contexts are refused before a driver sees them") {
    // A second context on the same device: handing its objects to the first context's queue or
    // kernels is undefined in OpenCL (a driver of another platform may crash on them).
    const openclaw::Context other{env().device};
    const openclaw::Queue other_queue{other, env().device};
    const openclaw::ReadOnlyBuffer<float> mine{env().context, 64};
    const openclaw::ReadOnlyBuffer<float> theirs{other, 64};
    const openclaw::WriteOnlyBuffer<float> out{env().context, 64};
    auto vadd = program().kernel<In<float>, In<float>, Out<float>>("vector_add");

    SECTION("a buffer of another context as a kernel argument") {
        const auto error = thrown<openclaw::Error>([&] { vadd.set_args(mine, theirs, out); });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_CONTEXT);
        CHECK_THAT(error->what(),
                   has("argument 1 of kernel \"vector_add\" is a buffer of another context"));
    }
    SECTION("a kernel launched on a queue of another context") {
        vadd.set_args(mine, mine, out);
        const auto error = thrown<openclaw::Error>([&] { other_queue.enqueue(vadd, NDRange{64}); });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_CONTEXT);
        CHECK_THAT(error->what(), has("kernel \"vector_add\" belongs to another context"));
    }
    SECTION("an empty kernel") {
        const openclaw::Kernel<In<float>, In<float>, Out<float>> empty;
        const auto error =
            thrown<openclaw::Error>([&] { env().queue.enqueue(empty, NDRange{64}); });
        REQUIRE(error);
        CHECK_THAT(error->what(), has("the kernel is empty"));
    }
    SECTION("transfers through a queue of another context") {
        std::vector<float> host(64);
        const auto read = thrown<openclaw::Error>([&] { other_queue.read(mine, host); });
        REQUIRE(read);
        CHECK(read->cl_code() == CL_INVALID_CONTEXT);
        CHECK_THAT(read->what(), has("clEnqueueReadBuffer: CL_INVALID_CONTEXT (-34): the queue "
                                     "and the buffer belong to different contexts"));
        const auto fill = thrown<openclaw::Error>([&] { other_queue.fill(out, 1.0f); });
        REQUIRE(fill);
        CHECK(fill->call() == "clEnqueueFillBuffer");
        const auto copy = thrown<openclaw::Error>([&] { env().queue.copy(mine, theirs); });
        REQUIRE(copy);
        CHECK_THAT(copy->what(), has("source and destination buffers belong to different"));
    }
}

TEST_CASE("errors the driver reports are worded with what openclaw knows") {
    SECTION("a launch the kernel's own work-group limit refuses") {
        // reqd_work_group_size(16): any other local size is the driver's to refuse.
        const openclaw::ReadWriteBuffer<cl_int> data{env().context, 64};
        auto sixteen = program().kernel<InOut<cl_int>>("sixteen");
        sixteen.set_args(data);
        if (env().device.max_work_group_size() < 32) {
            WARN(
                "work-groups of 32 exceed the device's maximum: the driver's refusal is not tried");
            return;
        }
        const auto error = thrown<openclaw::Error>(
            [&] { env().queue.enqueue(sixteen, NDRange{64}, NDRange{32}); });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_WORK_GROUP_SIZE);
        CHECK_THAT(error->what(), has("clEnqueueNDRangeKernel: CL_INVALID_WORK_GROUP_SIZE (-54): "
                                      "kernel \"sixteen\", global 64, local 32: this kernel "
                                      "allows at most"));
        env().queue.enqueue(sixteen, NDRange{64}, NDRange{16});  // its own size is fine
        std::vector<cl_int> back(64);
        env().queue.read(data, back);
        CHECK(back[63] == 16);
    }
    SECTION("a scalar whose C++ type has another size than the kernel's parameter") {
        // The kernel takes int2 (8 bytes); the C++ signature says cl_int4 (16 bytes). Built
        // without arg info, so the mismatch gets past kernel creation to the driver.
        const openclaw::ReadWriteBuffer<cl_int> data{env().context, 16};
        const auto blind = openclaw::Program::build(
            env().context, source, openclaw::BuildOptions{}.kernel_arg_info(false));
        auto offset = blind.kernel<InOut<cl_int>, cl_int4>("offset_by");
        const auto error = thrown<openclaw::Error>([&] { offset.set_args(data, cl_int4{}); });
        REQUIRE(error);
        CHECK(std::string(error->what()) ==
              "clSetKernelArg: CL_INVALID_ARG_SIZE (-51): argument 1 of kernel \"offset_by\": the "
              "kernel's parameter is not 16 bytes (the C++ type's size)");
    }
}

TEST_CASE("moved-from kernels and queues are refused as empty, before the driver sees them") {
    const openclaw::WriteOnlyBuffer<cl_uint> out{env().context, 64};
    auto fill = program().kernel<Out<cl_uint>, cl_ulong>("fill_index");
    fill.set_args(out, cl_ulong{0});
    const auto taken = std::move(fill);
    CHECK(taken.context_handle() == env().context.get());
    CHECK(fill.context_handle() == nullptr);  // NOLINT(bugprone-use-after-move): checking it
    for (const auto& attempt : {std::function<void()>([&] { fill.set_args(out, cl_ulong{1}); }),
                                std::function<void()>([&] { fill.set_arg<1>(cl_ulong{1}); })}) {
        const auto error = thrown<openclaw::Error>(attempt);
        REQUIRE(error);
        CHECK(std::string(error->what()) ==
              "clSetKernelArg: CL_INVALID_KERNEL (-48): the kernel is empty (default-constructed "
              "or moved-from)");
    }
    const auto kernel_error =
        thrown<openclaw::Error>([&] { env().queue.enqueue(fill, NDRange{64}); });
    REQUIRE(kernel_error);
    CHECK(std::string(kernel_error->what()) ==
          "clEnqueueNDRangeKernel: CL_INVALID_KERNEL (-48): the kernel is empty "
          "(default-constructed or moved-from)");

    openclaw::Queue queue{env().context, env().device};
    const openclaw::Queue other = std::move(queue);
    CHECK(queue.context_handle() == nullptr);  // NOLINT(bugprone-use-after-move): checking it
    const auto launch_error = thrown<openclaw::Error>([&] { queue.enqueue(taken, NDRange{64}); });
    REQUIRE(launch_error);
    CHECK(std::string(launch_error->what()) ==
          "clEnqueueNDRangeKernel: CL_INVALID_COMMAND_QUEUE (-36): the queue is empty "
          "(default-constructed or moved-from)");
    std::vector<cl_uint> back(64);
    const auto read_error = thrown<openclaw::Error>([&] { queue.read(out, back); });
    REQUIRE(read_error);
    CHECK(std::string(read_error->what()) ==
          "clEnqueueReadBuffer: CL_INVALID_COMMAND_QUEUE (-36): the queue is empty "
          "(default-constructed or moved-from)");
    other.enqueue(taken, NDRange{64});  // the objects moved to work
    other.read(out, back);
    CHECK(back[63] == 63);
}

namespace {

constexpr const char* scale_source = R"CLC(
__kernel void scale(__global const float* in, __global float* out, const float factor) {
    out[get_global_id(0)] = in[get_global_id(0)] * factor;
}
)CLC";

using ScaleKernel = openclaw::Kernel<In<float>, Out<float>, cl_float>;

ScaleKernel scale_kernel() {
    return openclaw::Program::build(env().context, scale_source)
        .kernel<In<float>, Out<float>, cl_float>("scale");
}

/// The scale kernel typed (ScaleKernel) or not (DynamicKernel): the argument record's
/// guarantees hold for both.
template <class K>
K make_scale() {
    const auto program = openclaw::Program::build(env().context, scale_source);
    if constexpr (std::is_same_v<K, openclaw::DynamicKernel>) {
        return program.kernel("scale");
    } else {
        return program.kernel<In<float>, Out<float>, cl_float>("scale");
    }
}

std::vector<float> read_all(const openclaw::WriteOnlyBuffer<float>& buffer) {
    std::vector<float> host(buffer.size());
    env().queue.read(buffer, host);
    return host;
}

}  // namespace

TEST_CASE("unchanged arguments are not set again, changed ones always are") {
    const std::size_t n = 64;
    const openclaw::ReadOnlyBuffer<float> ones{env().queue, std::vector<float>(n, 1.0f)};
    const openclaw::ReadOnlyBuffer<float> twos{env().queue, std::vector<float>(n, 2.0f)};
    const openclaw::WriteOnlyBuffer<float> out{env().context, n};
    ScaleKernel kernel = scale_kernel();
    const auto run = [&](const openclaw::ReadOnlyBuffer<float>& in, float factor) {
        env().queue.enqueue(kernel.set_args(in, out, factor), NDRange{n});
        return read_all(out);
    };
    CHECK(run(ones, 3.0f) == std::vector<float>(n, 3.0f));
    CHECK(run(ones, 3.0f) == std::vector<float>(n, 3.0f));  // nothing changed
    CHECK(run(twos, 3.0f) == std::vector<float>(n, 6.0f));  // another buffer
    CHECK(run(twos, 0.5f) == std::vector<float>(n, 1.0f));  // another value
    CHECK(run(ones, 0.5f) == std::vector<float>(n, 0.5f));  // back to the first buffer
    // A copy shares the cl_kernel and what is set on it: its own set_args is seen by both.
    ScaleKernel copy = kernel;
    env().queue.enqueue(copy.set_args(twos, out, 4.0f), NDRange{n});
    CHECK(read_all(out) == std::vector<float>(n, 8.0f));
    CHECK(run(ones, 0.5f) == std::vector<float>(n, 0.5f));  // set again: the copy changed them
    // Set behind openclaw's back through the raw handle, then forgotten: set again.
    const cl_float raw_factor = 10.0f;
    REQUIRE(clSetKernelArg(kernel.get(), 2, sizeof raw_factor, &raw_factor) == CL_SUCCESS);
    kernel.forget_arguments();
    CHECK(run(ones, 0.5f) == std::vector<float>(n, 0.5f));
    // A clone has arguments of its own.
    ScaleKernel clone = kernel.clone();
    env().queue.enqueue(clone.set_args(twos, out, 1.5f), NDRange{n});
    CHECK(read_all(out) == std::vector<float>(n, 3.0f));
    CHECK(run(ones, 0.5f) == std::vector<float>(n, 0.5f));
}

TEMPLATE_TEST_CASE("a kernel keeps the buffers bound to it alive until they are replaced", "",
                   ScaleKernel, openclaw::DynamicKernel) {
    const std::size_t n = 256;
    const openclaw::WriteOnlyBuffer<float> out{env().context, n};
    TestType kernel = make_scale<TestType>();
    {
        std::vector<float> host(n);
        std::iota(host.begin(), host.end(), 0.0f);
        const openclaw::ReadOnlyBuffer<float> in{env().queue, host};
        kernel.set_args(in, out, 2.0f);
    }  // the buffer object is gone; its memory is the kernel's until replaced
    env().queue.enqueue(kernel, NDRange{n});
    const std::vector<float> back = read_all(out);
    for (std::size_t i = 0; i < n; ++i) {
        if (back[i] != 2.0f * static_cast<float>(i)) {
            FAIL_CHECK("element " << i << " is " << back[i]);
        }
    }
}

TEMPLATE_TEST_CASE("a copy of a kernel made before set_args keeps the mapping guard", "",
                   ScaleKernel, openclaw::DynamicKernel) {
    const std::size_t n = 32;
    const openclaw::ReadOnlyBuffer<float> in{env().queue, std::vector<float>(n, 1.0f)};
    const openclaw::WriteOnlyBuffer<float> out{env().context, n};
    TestType kernel = make_scale<TestType>();
    TestType copy = kernel;  // before any argument is set
    kernel.set_args(in, out, 2.0f);
    {
        const auto view = env().queue.map_read(out);  // the kernel would write under the reader
        const auto refused =
            thrown<openclaw::Error>([&] { env().queue.enqueue(copy, NDRange{n}); });
        REQUIRE(refused);
        CHECK(refused->cl_code() == CL_INVALID_OPERATION);
        CHECK_THAT(refused->what(), has("clEnqueueNDRangeKernel"));
    }
    env().queue.enqueue(copy, NDRange{n});
    CHECK(read_all(out) == std::vector<float>(n, 2.0f));
}

TEMPLATE_TEST_CASE("LocalMem beyond the device's local memory is refused before the driver", "",
                   ScaleKernel, openclaw::DynamicKernel) {
    const auto program = openclaw::Program::build(env().context, source);
    auto sum = [&] {
        if constexpr (std::is_same_v<TestType, openclaw::DynamicKernel>) {
            return program.kernel("group_sum");
        } else {
            return program.kernel<In<float>, Out<float>, Local<float>, cl_uint>("group_sum");
        }
    }();
    const openclaw::ReadOnlyBuffer<float> in{env().queue, std::vector<float>(64, 1.0f)};
    const openclaw::WriteOnlyBuffer<float> partial{env().context, 1};
    const cl_ulong local = env().device.local_mem_size();
    const std::size_t too_many = static_cast<std::size_t>(local / sizeof(float)) + 1;
    sum.set_args(in, partial, LocalMem<float>{too_many}, 64u);
    CHECK(sum.local_bytes() == too_many * sizeof(float));
    const auto error =
        thrown<openclaw::Error>([&] { env().queue.enqueue(sum, NDRange{64}, NDRange{64}); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_OUT_OF_RESOURCES);
    CHECK_THAT(error->what(), has("clEnqueueNDRangeKernel") && has("group_sum") &&
                                  has(std::to_string(too_many * sizeof(float)) + " bytes") &&
                                  has("CL_DEVICE_LOCAL_MEM_SIZE"));
    // Set to what fits: the launch runs and sums.
    sum.set_args(in, partial, LocalMem<float>{64}, 64u);
    CHECK(sum.local_bytes() == 64 * sizeof(float));
    env().queue.enqueue(sum, NDRange{64}, NDRange{64});
    std::vector<float> back(1);
    env().queue.read(partial, back);
    CHECK(back[0] == 64.0f);
}

TEMPLATE_TEST_CASE("the kernel's own __local variables count with its LocalMem arguments", "",
                   ScaleKernel, openclaw::DynamicKernel) {
    // A kernel with 4 KiB of __local variables of its own: LocalMem arguments that fit the
    // device alone but not together with those are refused, naming both parts.
    const auto program = openclaw::Program::build(env().context, R"CLC(
__kernel void own_tile(__global const float* in, __global float* out, __local float* scratch) {
    __local float tile[1024];
    const size_t i = get_local_id(0);
    tile[i] = in[i];
    scratch[i] = 2.0f * tile[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[i] = scratch[i] + tile[i];
}
)CLC");
    auto kernel = [&] {
        if constexpr (std::is_same_v<TestType, openclaw::DynamicKernel>) {
            return program.kernel("own_tile");
        } else {
            return program.kernel<In<float>, Out<float>, Local<float>>("own_tile");
        }
    }();
    const cl_ulong own = kernel.template work_group_info<CL_KERNEL_LOCAL_MEM_SIZE>(env().device);
    INFO("CL_KERNEL_LOCAL_MEM_SIZE before any argument: " << own);
    REQUIRE(own >= 1024 * sizeof(float));  // the driver counts the kernel's own tile
    const std::size_t local = static_cast<std::size_t>(env().device.local_mem_size());
    const openclaw::ReadOnlyBuffer<float> in{env().queue, std::vector<float>(64, 1.5f)};
    const openclaw::WriteOnlyBuffer<float> out{env().context, 64};
    // The arguments alone fit the device; with the kernel's own they do not.
    const std::size_t fits_alone = (local - static_cast<std::size_t>(own)) / sizeof(float) + 1;
    REQUIRE(fits_alone * sizeof(float) <= local);
    kernel.set_args(in, out, LocalMem<float>{fits_alone});
    CHECK(kernel.local_bytes() == fits_alone * sizeof(float));
    CHECK(kernel.local_needed() == fits_alone * sizeof(float) + own);
    const auto error =
        thrown<openclaw::Error>([&] { env().queue.enqueue(kernel, NDRange{64}, NDRange{64}); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_OUT_OF_RESOURCES);
    CHECK_THAT(error->what(),
               has("own_tile") && has(std::to_string(fits_alone * sizeof(float)) + " bytes") &&
                   has("the kernel's own __local variables " + std::to_string(own)) &&
                   has("CL_KERNEL_LOCAL_MEM_SIZE") && has("CL_DEVICE_LOCAL_MEM_SIZE"));
    // Arguments that fit with the kernel's own: it runs.
    kernel.set_args(in, out, LocalMem<float>{64});
    env().queue.enqueue(kernel, NDRange{64}, NDRange{64});
    std::vector<float> back(64);
    env().queue.read(out, back);
    CHECK(back == std::vector<float>(64, 4.5f));
}

TEMPLATE_TEST_CASE("a kernel's arguments set from two threads at once are refused, not corrupted",
                   "", ScaleKernel, openclaw::DynamicKernel) {
    const std::size_t n = 64;
    const openclaw::ReadOnlyBuffer<float> a{env().queue, std::vector<float>(n, 1.0f)};
    const openclaw::ReadOnlyBuffer<float> b{env().queue, std::vector<float>(n, 2.0f)};
    const openclaw::WriteOnlyBuffer<float> out{env().context, n};
    TestType kernel = make_scale<TestType>();
    std::atomic<int> refused{0};
    std::atomic<int> other{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            for (int round = 0; round < 2000; ++round) {
                std::error_code ec;
                kernel.set_args(t % 2 == 0 ? a : b, out, static_cast<float>(round % 3), ec);
                if (ec == openclaw::make_error_code(CL_INVALID_OPERATION)) {
                    ++refused;
                } else if (ec) {
                    ++other;
                }
            }
        });
    }
    for (std::thread& thread : threads) {
        thread.join();
    }
    CHECK(other == 0);
    INFO("refused " << refused << " of 8000 concurrent set_args");
    // Whatever overlapped, the kernel is intact: set from one thread, it launches correctly.
    env().queue.enqueue(kernel.set_args(b, out, 4.0f), NDRange{n});
    CHECK(read_all(out) == std::vector<float>(n, 8.0f));
    // And the refusal says what to do.
    std::error_code ec;
    kernel.set_args(a, out, 1.0f, ec);
    CHECK_FALSE(ec);
}

TEST_CASE("program.kernel takes a kernel type as well as its parameters") {
    const auto program = openclaw::Program::build(env().context, scale_source);
    // The alias a port of a CLHPP program writes first.
    const ScaleKernel typed = program.kernel<ScaleKernel>("scale");
    static_assert(std::is_same_v<decltype(program.kernel<ScaleKernel>("scale")), ScaleKernel>);
    CHECK(typed.name() == "scale");
    const openclaw::DynamicKernel dynamic = program.kernel<openclaw::DynamicKernel>("scale");
    CHECK(dynamic.arity() == 3);
    const auto missing =
        thrown<openclaw::Error>([&] { (void)program.kernel<ScaleKernel>("no_such_kernel"); });
    REQUIRE(missing);
    CHECK_THAT(missing->what(), has("no_such_kernel"));
}

TEST_CASE("a launch with an argument not set yet names it") {
    const std::size_t n = 16;
    const openclaw::ReadOnlyBuffer<float> in{env().queue, std::vector<float>(n, 1.0f)};
    const openclaw::WriteOnlyBuffer<float> out{env().context, n};
    ScaleKernel kernel = scale_kernel();
    kernel.set_arg<0>(in);
    kernel.set_arg<2>(2.0f);
    const auto error = thrown<openclaw::Error>([&] { env().queue.enqueue(kernel, NDRange{n}); });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_KERNEL_ARGS);
    CHECK_THAT(error->what(), has("kernel \"scale\": argument 1 (of 3) is not set"));
    kernel.set_arg<1>(out);
    env().queue.enqueue(kernel, NDRange{n});
    CHECK(read_all(out) == std::vector<float>(n, 2.0f));
    // A kernel wrapped from a raw handle may have its arguments set already: not refused here.
    cl_kernel raw = kernel.get();
    REQUIRE(clRetainKernel(raw) == CL_SUCCESS);
    auto wrapped = ScaleKernel::adopt(raw);
    env().queue.enqueue(wrapped, NDRange{n});
    CHECK(read_all(out) == std::vector<float>(n, 2.0f));
}

namespace {

// A user's own type made a kernel argument kind: one specialisation of ArgumentTraits beside the
// type, as image.hpp and svm.hpp add theirs; Kernel and DynamicKernel need no change.
struct Field {
    const openclaw::ReadWriteBuffer<float>* data = nullptr;
};

}  // namespace

OPENCLAW_BEGIN_NAMESPACE
namespace detail {
template <>
struct ArgumentTraits<Field> {
    static constexpr ArgForm form = ArgForm::memory;
    static constexpr const char* name = "field";
    using element_type = float;
    static constexpr bool kernel_reads = true;
    static constexpr bool kernel_writes = true;
    static constexpr const char* access_name = "ReadWrite";
    static constexpr bool dynamic = true;
    static cl_mem handle(const Field& field) noexcept {
        return field.data == nullptr ? nullptr : field.data->get();
    }
    static cl_context context(const Field& field) noexcept {
        return field.data == nullptr ? nullptr : field.data->context_handle();
    }
    template <class P>
    static consteval Verdict verdict() {
        if constexpr (ParamTraits<P>::kind == ParamKind::scalar) {
            return Verdict::scalar_got_buffer;
        } else if constexpr (!is_pointer_param<P>) {
            return wanted_by<P>();
        } else {
            return std::is_same_v<typename ParamTraits<P>::element_type, float>
                       ? Verdict::ok
                       : Verdict::element_mismatch;
        }
    }
};
}  // namespace detail
OPENCLAW_END_NAMESPACE

static_assert(openclaw::detail::verdict<Out<float>, Field>() == openclaw::detail::Verdict::ok);
static_assert(openclaw::detail::verdict<Out<cl_int>, Field>() ==
              openclaw::detail::Verdict::element_mismatch);
static_assert(openclaw::detail::verdict<cl_float, Field>() ==
              openclaw::detail::Verdict::scalar_got_buffer);
static_assert(openclaw::detail::verdict<Local<float>, Field>() ==
              openclaw::detail::Verdict::needs_local_mem);

TEST_CASE("an argument kind of the user's own is one ArgumentTraits specialisation") {
    const std::size_t n = 64;
    std::vector<float> values(n);
    std::iota(values.begin(), values.end(), 1.0f);
    const openclaw::ReadOnlyBuffer<float> in{env().queue, values};
    const openclaw::ReadWriteBuffer<float> storage{env().context, n};
    const Field field{&storage};
    std::vector<float> expected(n);
    std::vector<float> got(n);

    SECTION("a typed kernel sets it as the memory object it names and holds it") {
        ScaleKernel kernel = scale_kernel();
        env().queue.enqueue(kernel.set_args(in, field, 3.0f), NDRange{n});
        env().queue.read(storage, got);
        std::transform(values.begin(), values.end(), expected.begin(),
                       [](float v) { return v * 3.0f; });
        CHECK(got == expected);
    }
    SECTION("DynamicKernel compares it with the driver's description and sets it") {
        openclaw::DynamicKernel kernel = make_scale<openclaw::DynamicKernel>();
        env().queue.enqueue(kernel.set_args(in, field, 0.5f), NDRange{n});
        env().queue.read(storage, got);
        std::transform(values.begin(), values.end(), expected.begin(),
                       [](float v) { return v * 0.5f; });
        CHECK(got == expected);
        if (kernel.has_arg_info()) {
            // The kind's element type meets the driver's: a float field for a float* is right,
            // a field for the value parameter is not.
            const auto error = thrown<openclaw::Error>([&] { kernel.set_args(in, field, field); });
            REQUIRE(error);
            CHECK_THAT(error->what(), has("argument 2"));
            CHECK_THAT(error->what(), has("a buffer cannot be passed"));
        }
    }
    SECTION("it takes part in the mapping check of memory objects") {
        ScaleKernel kernel = scale_kernel();
        const auto view = env().queue.map_read_write(storage);
        const auto error = thrown<openclaw::Error>([&] { kernel.set_args(in, field, 1.0f); });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_OPERATION);
    }
    SECTION("an empty one is refused by name before the driver sees it") {
        ScaleKernel kernel = scale_kernel();
        const Field empty{};
        const auto error = thrown<openclaw::Error>([&] { kernel.set_args(in, empty, 1.0f); });
        REQUIRE(error);
        CHECK_THAT(error->what(), has("field"));
    }
}

namespace {
constexpr const char* writes_source = R"CLC(
__kernel void scale_in_place(__global float* data, const float factor) {
    const size_t i = get_global_id(0);
    data[i] = data[i] * factor;
}
__kernel void doubled(__global float* data, __global float* out) {
    const size_t i = get_global_id(0);
    out[i] = data[i] * 2.0f;
}
__kernel void bump(__global int* counts) { ++counts[get_global_id(0)]; }
)CLC";
}  // namespace

TEST_CASE("In<T> for a pointer the kernel writes is refused with the parameter and the line") {
    // With and without the driver's arg info: the source says what the body does.
    for (const bool arg_info : {true, false}) {
        INFO("kernel arg info " << arg_info);
        const openclaw::Program program = openclaw::Program::build(
            env().context, writes_source, openclaw::BuildOptions{}.kernel_arg_info(arg_info));
        const auto error = thrown<openclaw::Error>(
            [&] { (void)program.kernel<In<float>, float>("scale_in_place"); });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_KERNEL_ARGS);
        CHECK_THAT(error->what(),
                   has("clCreateKernel: CL_INVALID_KERNEL_ARGS (-52): kernel \"scale_in_place\", "
                       "argument 0 (\"data\"): the C++ signature declares In<cl_float>, but the "
                       "kernel writes through the pointer (line 4 of the program's source): "
                       "declare InOut<cl_float> (Out<cl_float> if it never reads the old "
                       "values)"));
        const auto bumped =
            thrown<openclaw::Error>([&] { (void)program.kernel<In<cl_int>>("bump"); });
        REQUIRE(bumped);
        CHECK_THAT(bumped->what(), has("argument 0 (\"counts\")"));
        CHECK_THAT(bumped->what(), has("(line 10 of the program's source)"));
        // A status target gets the same refusal and an empty kernel.
        openclaw::Status status;
        const auto refused = program.kernel<In<float>, float>("scale_in_place", status);
        CHECK(!refused);
        CHECK(status.cl_code() == CL_INVALID_KERNEL_ARGS);

        // The descriptors the body allows are accepted, and the kernels run.
        const openclaw::ReadWriteBuffer<float> data{env().context, std::vector<float>(64, 3.0f)};
        const openclaw::WriteOnlyBuffer<float> out{env().context, 64};
        auto scale = program.kernel<InOut<float>, float>("scale_in_place");
        env().queue.enqueue(scale.set_args(data, 2.0f), NDRange{64});
        auto twice = program.kernel<In<float>, Out<float>>("doubled");  // data is only read
        env().queue.enqueue(twice.set_args(data, out), NDRange{64});
        std::vector<float> back(64);
        env().queue.read(out, back);
        CHECK(back == std::vector<float>(64, 12.0f));
    }
}

TEST_CASE("set_args and a launch of one kernel on two threads refuse each other") {
    constexpr std::size_t n = 256;
    const openclaw::ReadOnlyBuffer<float> a{env().context, std::vector<float>(n, 1.0f)};
    const openclaw::ReadOnlyBuffer<float> b{env().context, std::vector<float>(n, 2.0f)};
    const openclaw::WriteOnlyBuffer<float> c{env().context, n};
    auto add = program().kernel<In<float>, In<float>, Out<float>>("vector_add");
    add.set_args(a, b, c);
    // Deterministically: while a launch holds the kernel's argument gate, set_args is refused;
    // while set_args holds it, a launch is.
    {
        const openclaw::detail::LaunchingKernel launching(add.argument_gate());
        REQUIRE(launching);
        const auto error = thrown<openclaw::Error>([&] { add.set_args(a, b, c); });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_OPERATION);
        CHECK_THAT(error->what(), has("clSetKernelArg: CL_INVALID_OPERATION (-59): kernel "
                                      "\"vector_add\": another thread is setting its arguments "
                                      "or launching it at the same time"));
    }
    {
        const openclaw::detail::SettingArguments setting(*add.argument_gate());
        REQUIRE(setting);
        openclaw::Status status;
        env().queue.enqueue(add, NDRange{n}, status);
        CHECK(status.cl_code() == CL_INVALID_OPERATION);
        CHECK_THAT(status.what(), has("clEnqueueNDRangeKernel: CL_INVALID_OPERATION (-59): kernel "
                                      "\"vector_add\": another thread is setting its arguments "
                                      "while this launch reads them"));
    }
    // Launches share the gate: two at once are fine.
    {
        const openclaw::detail::LaunchingKernel other(add.argument_gate());
        REQUIRE(other);
        env().queue.enqueue(add, NDRange{n});
    }
    // A real race: no crash; every refusal is one of the two above; what ran is right.
    std::atomic<int> refused{0};
    std::atomic<int> wrong{0};
    std::thread setter([&] {
        for (int i = 0; i < 2000; ++i) {
            openclaw::Status status;
            add.set_args(a, i % 2 == 0 ? b : a, c, status);
            if (!status.ok()) {
                const bool expected = status.cl_code() == CL_INVALID_OPERATION &&
                                      std::string_view(status.what()).find("at the same time") !=
                                          std::string_view::npos;
                (expected ? refused : wrong)++;
            }
        }
    });
    for (int i = 0; i < 2000; ++i) {
        openclaw::Status status;
        env().queue.enqueue(add, NDRange{n}, status);
        if (!status.ok()) {
            const bool expected =
                status.cl_code() == CL_INVALID_OPERATION &&
                std::string_view(status.what()).find("while this launch reads them") !=
                    std::string_view::npos;
            (expected ? refused : wrong)++;
        }
    }
    setter.join();
    env().queue.finish();
    CHECK(wrong == 0);
    add.set_args(a, b, c);
    env().queue.enqueue(add, NDRange{n});
    std::vector<float> back(n);
    env().queue.read(c, back);
    CHECK(back == std::vector<float>(n, 3.0f));
}

namespace {
// One source for every element type: T is left to the build (-D T=...), as SHOC builds one .cl
// as float and as double.
constexpr char typed_by_build[] = R"CLC(
__kernel void scale_by(__global const T* in, __global T* out, const T factor) {
    const size_t i = get_global_id(0);
    out[i] = in[i] * factor;
}
)CLC";
}  // namespace

TEST_CASE("one source typed per element type with type_as and checked against the build") {
    using openclaw::type_as;
    static_assert(
        std::is_same_v<openclaw::kernel_t<typed_by_build, "scale_by", type_as<"T", cl_float>>,
                       openclaw::Kernel<In<cl_float>, Out<cl_float>, cl_float>>);
    static_assert(
        std::is_same_v<openclaw::kernel_t<typed_by_build, "scale_by", type_as<"T", cl_int>>,
                       openclaw::Kernel<In<cl_int>, Out<cl_int>, cl_int>>);
    const std::size_t n = 1000;
    const auto run = [&]<class T>(std::type_identity<T>, const char* define) {
        const auto program = openclaw::Program::build(env().context, typed_by_build, {define});
        std::vector<T> values(n);
        std::iota(values.begin(), values.end(), T{1});
        const openclaw::ReadOnlyBuffer<T> in{env().context, values};
        const openclaw::WriteOnlyBuffer<T> out{env().context, n};
        auto scale = program.template kernel<typed_by_build, "scale_by", type_as<"T", T>>();
        env().queue.enqueue(scale.set_args(in, out, T{3}), NDRange{n});
        std::vector<T> got(n);
        env().queue.read(out, got);
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < n; ++i) {
            wrong += got[i] == values[i] * T{3} ? 0 : 1;
        }
        CHECK(wrong == 0);
        return program;
    };
    run(std::type_identity<cl_float>{}, "-DT=float");
    const auto ints = run(std::type_identity<cl_int>{}, "-DT=int");
    // Typed as another type than the build's: the driver's description says otherwise.
    if (ints.kernel_arg_info()) {
        const auto error = thrown<openclaw::Error>(
            [&] { (void)ints.kernel<typed_by_build, "scale_by", type_as<"T", cl_float>>(); });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_KERNEL_ARGS);
        CHECK_THAT(error->what(), has("scale_by"));
    }
}
