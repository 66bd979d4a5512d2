// Kernel signatures: the Kernel<...> types read at compile time from a corpus of real-world
// declarations (tests/corpus/*.cl, embedded by openclaw_embed_kernels), the same parser at run
// time, the driver's arg info compared with it, typed kernels declared wrong, DynamicKernel's
// run-time checks, and what remains of the checks without arg info.
#include <openclaw/all.hpp>

#include <algorithm>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "corpus/large.cl.hpp"
#include "corpus/no_parameters.cl.hpp"
#include "corpus/signatures.cl.hpp"
#include "corpus/signatures_fp64.cl.hpp"
#include "support/allocations.hpp"
#include "support/catch.hpp"
#include "support/fixture.hpp"

using openclaw::Constant;
using openclaw::Global;
using openclaw::In;
using openclaw::InOut;
using openclaw::Kernel;
using openclaw::Local;
using openclaw::LocalMem;
using openclaw::NDRange;
using openclaw::Out;
using openclaw_test::env;
using openclaw_test::has;
using openclaw_test::thrown;
namespace detail = openclaw::detail;

// Host twins of the corpus's user types, and their mappings.
struct Body {
    cl_float x, y, z, mass;
};
struct Range {
    cl_int begin, end;
};
enum class Mode : cl_int { add, multiply };

template <>
struct openclaw::opencl_type<"Body"> {
    using type = Body;
};
template <>
struct openclaw::opencl_type<"Range"> {
    using type = Range;
};
template <>
struct openclaw::opencl_type<"Mode"> {
    using type = Mode;
};
template <>
struct openclaw::opencl_type<"real"> {
    using type = cl_float;
};

namespace {

template <openclaw::FixedString Name>
using corpus_kernel = openclaw::kernel_t<corpus::signatures, Name>;

// The corpus, declaration by declaration: what openclaw reads must be what a careful person
// would write by hand.
static_assert(std::is_same_v<corpus_kernel<"saxpy">,
                             Kernel<cl_float, In<cl_float>, Global<cl_float>, cl_int>>);
static_assert(
    std::is_same_v<corpus_kernel<"copy_restrict">, Kernel<In<cl_float4>, Out<cl_float4>>>);
static_assert(std::is_same_v<corpus_kernel<"reduce_sum">,
                             Kernel<In<float>, Out<float>, Local<float>, cl_uint>>);
static_assert(std::is_same_v<corpus_kernel<"matmul_tiled">,
                             Kernel<In<float>, In<float>, Out<float>, cl_int, cl_int, cl_int,
                                    Local<float>, Local<float>>>);
static_assert(
    std::is_same_v<corpus_kernel<"convolve">,
                   Kernel<Constant<float>, In<cl_uchar4>, Out<cl_uchar4>, cl_int2, cl_uint>>);
static_assert(
    std::is_same_v<corpus_kernel<"nbody_step">, Kernel<Global<Body>, Body, Range, cl_float>>);
static_assert(std::is_same_v<corpus_kernel<"vectors">,
                             Kernel<Out<float>, cl_char2, cl_uchar3, cl_short4, cl_ushort8,
                                    cl_int16, cl_uint2, cl_long3, cl_ulong4, cl_float8>>);
static_assert(std::is_same_v<corpus_kernel<"words">,
                             Kernel<Out<cl_long>, cl_uint, cl_uchar, cl_char, cl_ushort, cl_short,
                                    cl_long, cl_ulong, cl_uint, cl_int, cl_char>>);
static_assert(std::is_same_v<corpus_kernel<"odd_spacing">,
                             Kernel<Global<cl_int>, In<cl_half>, Out<float>, Local<cl_int>>>);
static_assert(std::is_same_v<openclaw::kernel_t<corpus::no_parameters, "nothing">, Kernel<>>);
static_assert(std::is_same_v<openclaw::kernel_t<corpus::no_parameters, "empty">, Kernel<>>);
static_assert(
    std::is_same_v<openclaw::kernel_t<corpus::no_parameters, "mark">, Kernel<Out<cl_int>, cl_int>>);
static_assert(std::is_same_v<corpus_kernel<"declared_twice">, Kernel<Global<cl_int>, cl_int>>);
static_assert(std::is_same_v<corpus_kernel<"scale">, Kernel<Global<float>, float>>);
static_assert(std::is_same_v<corpus_kernel<"scale2">, Kernel<Global<cl_float2>, cl_float2>>);
static_assert(std::is_same_v<corpus_kernel<"scale_in_place">, Kernel<Global<float>, float>>);
static_assert(
    std::is_same_v<corpus_kernel<"apply_mode">, Kernel<Out<cl_int>, Mode, Global<cl_float>>>);
static_assert(
    std::is_same_v<openclaw::kernel_t<corpus::signatures_fp64, "dot_double">,
                   Kernel<In<cl_double>, In<cl_double2>, Out<cl_double>, cl_double16, cl_double>>);

// A source of 1,015 lines (tests/corpus/make_large.py) with 15-parameter kernels, typed with the
// compilers' default constexpr budgets (CI sets no -fconstexpr-steps / -fconstexpr-ops-limit):
// the last kernel, whose pointers it reads and writes, and the first, which only stores; the
// pointer a directive names is Global<T> in both.
static_assert(std::is_same_v<openclaw::kernel_t<corpus::large, "k21">,
                             Kernel<In<float>, Global<float>, cl_uint, In<float>, Global<float>,
                                    cl_uint, In<float>, Global<float>, cl_uint, In<float>,
                                    Global<float>, cl_uint, In<float>, Global<float>, cl_uint>>);
static_assert(std::is_same_v<openclaw::kernel_t<corpus::large, "k0">,
                             Kernel<In<float>, Out<float>, cl_uint, In<float>, Out<float>, cl_uint,
                                    In<float>, Out<float>, cl_uint, In<float>, Out<float>, cl_uint,
                                    In<float>, Global<float>, cl_uint>>);

// Inline sources work too: a char array, a const char* and a std::string_view constant.
constexpr char array_source[] = "__kernel void k(__global const int* a, __local int* b) {}";
constexpr const char* pointer_source = "kernel void k(constant uint4* t, ulong n) {}";
constexpr std::string_view view_source = "__kernel void k(__global short8* restrict o) {}";
constexpr openclaw::FixedString fixed_source = "__kernel void k(const ushort2 v) {}";
static_assert(std::is_same_v<openclaw::kernel_t<array_source, "k">, Kernel<In<int>, Local<int>>>);
static_assert(
    std::is_same_v<openclaw::kernel_t<pointer_source, "k">, Kernel<Constant<cl_uint4>, cl_ulong>>);
static_assert(std::is_same_v<openclaw::kernel_t<view_source, "k">, Kernel<In<cl_short8>>>);
static_assert(std::is_same_v<openclaw::kernel_t<fixed_source, "k">, Kernel<cl_ushort2>>);

// A non-const `__global T*` allows reading and writing; the body says which the kernel does.
// Every form below that the scan cannot prove read-only or write-only is Global<T> (both).
constexpr char uses_source[] = R"CLC(
#define STORE(i, v) hidden[i] = (v)
float twice(__global float* p) { return 2.0f * p[0]; }
__kernel void uses(__global float* read, __global float* written, __global float* both,
                   __global float* passed, __global float* address, __global float* compared,
                   __global float2* member, __global float* hidden, __global float* offset,
                   __global float* stepped, __global float* shifted, __global int* unused,
                   __global float4* swizzled, __global float* nested, __global int* index) {
    const size_t i = get_global_id(0);
    written[i] = read[i] + (compared[i] == 0.0f ? 1.0f : 2.0f) + twice(passed);
    both[i] += 1.0f;
    __global float* p = &address[i];
    *p = 1.0f;
    member[i].x = 3.0f;
    STORE(i, 1.0f);
    offset += 1;
    ++stepped[i];
    shifted[i] = shifted[i] * 2.0f;
    swizzled[i].xy = (float2)(1.0f, 2.0f);
    nested[index[i]] = 0.0f; /* index read inside another's subscript */
    const float s = read[i] /* comment */ ;
    (void)s;
    // written[i] in a comment is no use.
}
)CLC";
static_assert(
    std::is_same_v<openclaw::kernel_t<uses_source, "uses">,
                   Kernel<In<float>, Out<float>, Global<float>, Global<float>, Global<float>,
                          In<float>, Out<cl_float2>, Global<float>, Global<float>, Global<float>,
                          Global<float>, In<cl_int>, Out<cl_float4>, Out<float>, In<cl_int>>>);
// A prototype alone does not say; under #if, every definition counts.
constexpr char prototype_source[] = "__kernel void k(__global float* a);";
static_assert(std::is_same_v<openclaw::kernel_t<prototype_source, "k">, Kernel<Global<float>>>);
constexpr char variants_source[] = R"CLC(
#ifdef FAST
__kernel void k(__global float* a, __global float* b) { b[0] = a[0]; }
#else
__kernel void k(__global float* a, __global float* b) { b[0] = a[0]; a[0] = 0.0f; }
#endif
)CLC";
static_assert(
    std::is_same_v<openclaw::kernel_t<variants_source, "k">, Kernel<Global<float>, Out<float>>>);

// The parser is constexpr code that also runs at run time: both must agree.
template <std::size_t A, std::size_t B>
bool same_signature(const detail::BasicSignature<A>& a, const detail::BasicSignature<B>& b) {
    if (a.error != b.error || a.count != b.count || a.error_at.begin != b.error_at.begin ||
        a.error_param != b.error_param) {
        return false;
    }
    for (std::size_t i = 0; i < a.count; ++i) {
        if (!a.params[i].same_declaration(b.params[i], a.text, b.text) ||
            a.name_of(i) != b.name_of(i)) {
            return false;
        }
    }
    return true;
}

template <openclaw::FixedString Name>
bool compile_time_equals_run_time() {
    constexpr const auto& at_compile_time = detail::signature_of<corpus::signatures, Name>;
    const detail::Signature at_run_time =
        detail::parse_kernel_signature(corpus::signatures, Name.view());
    return at_compile_time.ok() && same_signature(at_compile_time, at_run_time);
}

const openclaw::Program& corpus_program() {
    static const openclaw::Program program = openclaw::Program::build(
        env().context, corpus::signatures, openclaw::BuildOptions{}.kernel_arg_info(true));
    return program;
}

bool reports_names(const openclaw::DynamicKernel& kernel) {
    return kernel.has_arg_info() && !detail::query_arg_info(kernel.get(), 0).name.empty();
}

}  // namespace

TEST_CASE("the parser gives the same signatures at compile time and at run time") {
    CHECK(compile_time_equals_run_time<"saxpy">());
    CHECK(compile_time_equals_run_time<"copy_restrict">());
    CHECK(compile_time_equals_run_time<"reduce_sum">());
    CHECK(compile_time_equals_run_time<"matmul_tiled">());
    CHECK(compile_time_equals_run_time<"convolve">());
    CHECK(compile_time_equals_run_time<"nbody_step">());
    CHECK(compile_time_equals_run_time<"vectors">());
    CHECK(compile_time_equals_run_time<"words">());
    CHECK(compile_time_equals_run_time<"odd_spacing">());
    CHECK(compile_time_equals_run_time<"declared_twice">());
    CHECK(compile_time_equals_run_time<"apply_mode">());

    const detail::Signature saxpy = detail::parse_kernel_signature(corpus::signatures, "saxpy");
    REQUIRE(saxpy.ok());
    REQUIRE(saxpy.count == 4);
    CHECK(saxpy.name_of(0) == "alpha");
    CHECK(saxpy.name_of(3) == "n");
    CHECK(saxpy.type_of(1) == "float");
    CHECK(saxpy.params[1].space == detail::AddressSpace::global);
    CHECK(saxpy.params[1].is_const);
    CHECK_FALSE(saxpy.params[2].is_const);
    const detail::Signature twice =
        detail::parse_kernel_signature(corpus::signatures, "declared_twice");
    REQUIRE(twice.ok());
    CHECK(twice.name_of(0) == "data");  // the first declaration's names
    const detail::Signature odd = detail::parse_kernel_signature(corpus::signatures, "odd_spacing");
    REQUIRE(odd.ok());
    CHECK(odd.params[0].is_volatile);
    CHECK(odd.params[2].pointers == 1);
    CHECK_FALSE(
        odd.params[2].is_const);  // `float * const out`: the pointer is const, not the floats
    CHECK(odd.name_of(3) == "flags");
}

TEST_CASE("run-time parse errors say what and where") {
    const auto parse = [](std::string_view source, std::string_view name) {
        return detail::parse_kernel_signature(source, name);
    };
    const auto where = [](const detail::Signature& sig) {
        const detail::LineColumn at = detail::line_column(sig.text, sig.error_at.begin);
        return std::to_string(at.line) + ":" + std::to_string(at.column);
    };
    SECTION("a macro call in the parameter list") {
        const auto sig = parse("__kernel void k(__global float* a,\n  ARG(b)) {}", "k");
        CHECK(sig.error == detail::SignatureError::unexpected_token);
        CHECK(sig.error_param == 1);
        CHECK(where(sig) == "2:6");
    }
    SECTION("forbidden and unsupported types") {
        CHECK(parse("kernel void k(size_t n) {}", "k").error ==
              detail::SignatureError::forbidden_type);
        CHECK(parse("kernel void k(global bool* b) {}", "k").error ==
              detail::SignatureError::forbidden_type);
        CHECK(parse("kernel void k(read_write image2d_t i) {}", "k").error ==
              detail::SignatureError::image_type);
        CHECK(parse("kernel void k(read_only image1d_t i) {}", "k").error ==
              detail::SignatureError::image_type);
        CHECK(parse("kernel void k(read_only image2d_t* i) {}", "k").error ==
              detail::SignatureError::image_type);
        CHECK(parse("kernel void k(long long x) {}", "k").error ==
              detail::SignatureError::unsupported_type);
        CHECK(parse("kernel void k(global void* p) {}", "k").error ==
              detail::SignatureError::void_pointer);
    }
    SECTION("images and samplers with a descriptor") {
        const auto sig = parse(
            "kernel void k(read_only image2d_t a, __write_only image3d_t b,\n"
            "  image2d_array_t c, const sampler_t s) {}",
            "k");
        REQUIRE(sig.ok());
        REQUIRE(sig.count == 4);
        CHECK(sig.params[0].image == detail::SourceImage::image2d);
        CHECK(sig.params[0].image_access == detail::ImageAccess::read_only);
        CHECK(sig.params[1].image == detail::SourceImage::image3d);
        CHECK(sig.params[1].image_access == detail::ImageAccess::write_only);
        CHECK(sig.params[2].image == detail::SourceImage::image2d_array);
        CHECK(sig.params[2].image_access == detail::ImageAccess::read_only);  // the default
        CHECK(sig.params[3].scalar == detail::Scalar::sampler);
    }
    SECTION("address-space rules") {
        CHECK(parse("kernel void k(float* p) {}", "k").error ==
              detail::SignatureError::pointer_address_space);
        CHECK(parse("kernel void k(generic float* p) {}", "k").error ==
              detail::SignatureError::pointer_address_space);
        CHECK(parse("kernel void k(local float x) {}", "k").error ==
              detail::SignatureError::value_address_space);
        CHECK(parse("kernel void k(global float** p) {}", "k").error ==
              detail::SignatureError::pointer_to_pointer);
        CHECK(parse("kernel void k(float a[4]) {}", "k").error ==
              detail::SignatureError::array_parameter);
    }
    SECTION("kernels that are not there, twice, or unfinished") {
        CHECK(parse("void k(global float* p) {}", "k").error ==
              detail::SignatureError::kernel_not_found);
        CHECK(parse("kernel void k2(int a) {}", "k").error ==
              detail::SignatureError::kernel_not_found);
        const auto twice = parse("kernel void k(int a);\n#ifdef X\nkernel void k(uint a) {}", "k");
        CHECK(twice.error == detail::SignatureError::conflicting_declarations);
        CHECK(where(twice) == "3:13");
        CHECK(parse("kernel void k(int a, global float* b", "k").error ==
              detail::SignatureError::unterminated);
        CHECK(parse("kernel void k(const, int b) {}", "k").error ==
              detail::SignatureError::missing_type);
        std::string many = "kernel void k(";
        for (int i = 0; i < 129; ++i) {
            many += (i == 0 ? "int a" : ", int a") + std::to_string(i);
        }
        CHECK(parse(many + ") {}", "k").error == detail::SignatureError::too_many_parameters);
        CHECK(parse(many.substr(0, many.rfind(',')) + ") {}", "k").count == 128);
    }
    SECTION("macros are told from typedefs") {
        constexpr std::string_view source = "#define REAL float\n  # define  VEC float4\n";
        CHECK(detail::defines_macro(source, "REAL"));
        CHECK(detail::defines_macro(source, "VEC"));
        CHECK_FALSE(detail::defines_macro(source, "float"));
        CHECK_FALSE(detail::defines_macro(source, "RE"));
    }
}

TEST_CASE("sources with more kernels than one index holds are read in parts") {
    std::string source;
    for (int i = 0; i < 300; ++i) {
        source +=
            "__kernel void k" + std::to_string(i) + "(__global int* a, uint n) { a[0] = n; }\n";
    }
    const detail::KernelIndex first = detail::index_kernels(source);
    CHECK(first.count == detail::max_indexed_kernels);
    CHECK_FALSE(first.complete);
    for (const char* name : {"k0", "k255", "k256", "k299"}) {
        CAPTURE(name);
        const auto sig = detail::parse_kernel_signature(source, name, first);
        REQUIRE(sig.ok());
        CHECK(sig.count == 2);
        CHECK(sig.name_of(1) == "n");
    }
    CHECK(detail::parse_kernel_signature(source, "k300", first).error ==
          detail::SignatureError::kernel_not_found);
    // A second declaration past the first part must still agree with the first.
    source += "__kernel void k3(__global int* a, int n);\n";
    CHECK(detail::parse_kernel_signature(source, "k3", detail::index_kernels(source)).error ==
          detail::SignatureError::conflicting_declarations);
    CHECK(detail::parse_kernel_signature(source, "k3").error ==
          detail::SignatureError::conflicting_declarations);
}

TEST_CASE("driver type names are read as the parser reads declarations") {
    const auto read = [](std::string_view name) { return detail::read_type_name(name); };
    CHECK(read("float4*").scalar == detail::Scalar::float_);
    CHECK(read("float4*").width == 4);
    CHECK(read("float4*").pointers == 1);
    CHECK(read("uint").scalar == detail::Scalar::uint);
    CHECK(read("unsigned int").scalar == detail::Scalar::uint);
    CHECK(read("unsigned").scalar == detail::Scalar::uint);
    CHECK(read("unsigned char*").scalar == detail::Scalar::uchar);
    CHECK(read("long int").scalar == detail::Scalar::long_);
    CHECK(read("unsigned long").scalar == detail::Scalar::ulong);
    CHECK(read("char").scalar == detail::Scalar::char_);
    CHECK(read("half*").scalar == detail::Scalar::half);
    CHECK(read("double16").width == 16);
    CHECK(read("float3").width == 3);
    CHECK(read("image2d_t").scalar == detail::Scalar::image);
    CHECK(read("sampler_t").scalar == detail::Scalar::sampler);
    CHECK(read("__global const float*").is_const);
    CHECK(read("__global const float*").scalar == detail::Scalar::float_);
    const auto tagged = read("struct Tagged*");
    CHECK(tagged.scalar == detail::Scalar::user);
    CHECK(std::string_view("struct Tagged*").substr(tagged.type_begin, tagged.type_size) ==
          "Tagged");
    CHECK(read("Pair").scalar == detail::Scalar::user);
    CHECK(read("float5").scalar == detail::Scalar::user);  // no such vector: a typedef's name
    // Not understood, so never compared: never a false error.
    CHECK(read("float (*)(int)").scalar == detail::Scalar::none);
    CHECK(read("float x y").scalar == detail::Scalar::none);
    CHECK(read("long long").scalar == detail::Scalar::none);
    CHECK(read("float __attribute__((ext_vector_type(4)))").scalar == detail::Scalar::none);
    CHECK(read("unsigned float").scalar == detail::Scalar::none);
    CHECK(read("").scalar == detail::Scalar::none);
}

TEST_CASE("the driver describes every corpus kernel as the parser does") {
    const openclaw::Program& program = corpus_program();
    REQUIRE(program.kernel_arg_info());
    for (const std::string& name : program.kernel_names()) {
        CAPTURE(name);
        const openclaw::DynamicKernel kernel = program.kernel(name);
        const detail::Signature sig = detail::parse_kernel_signature(corpus::signatures, name);
        REQUIRE(sig.ok());
        REQUIRE(kernel.arity() == sig.count);
        if (sig.count == 0) {
            continue;
        }
        if (!kernel.has_arg_info()) {
            WARN("\"" << env().device.name() << "\" gives no arg info for \"" << name << "\"");
            continue;
        }
        for (std::size_t i = 0; i < sig.count; ++i) {
            CAPTURE(i);
            const detail::ArgInfo info =
                detail::query_arg_info(kernel.get(), static_cast<cl_uint>(i));
            const detail::ParamDecl& decl = sig.params[i];
            CAPTURE(info.declaration());
            REQUIRE(info.known_space);
            const detail::AddressSpace expected_space =
                decl.pointers == 0 ? detail::AddressSpace::private_ : decl.space;
            CHECK(info.space == expected_space);
            if (decl.pointers > 0 && decl.space == detail::AddressSpace::global &&
                info.known_const) {
                CHECK(info.is_const == decl.is_const);
            }
            REQUIRE(info.known_type);
            CHECK(info.type.pointers == decl.pointers);
            CHECK(info.type.scalar == decl.scalar);
            CHECK(info.type.width == decl.width);
            if (decl.scalar == detail::Scalar::user) {
                CHECK(std::string_view(info.type_name)
                          .substr(info.type.type_begin, info.type.type_size) == sig.type_of(i));
            }
            if (!info.name.empty() && name != "declared_twice") {  // its prototype's names differ
                CHECK(info.name == sig.name_of(i));
            }
        }
    }
}

TEST_CASE("every source-typed corpus kernel passes the driver's check") {
    const openclaw::Program& program = corpus_program();
    // Each creation compares the parsed declaration with the driver's arg info, and throws on a
    // difference.
    CHECK(program.kernel<corpus::signatures, "saxpy">().arity == 4);
    CHECK(program.kernel<corpus::signatures, "copy_restrict">().arity == 2);
    CHECK(program.kernel<corpus::signatures, "reduce_sum">().arity == 4);
    CHECK(program.kernel<corpus::signatures, "matmul_tiled">().arity == 8);
    CHECK(program.kernel<corpus::signatures, "convolve">().arity == 5);
    CHECK(program.kernel<corpus::signatures, "nbody_step">().arity == 4);
    CHECK(program.kernel<corpus::signatures, "vectors">().arity == 10);
    CHECK(program.kernel<corpus::signatures, "words">().arity == 11);
    CHECK(program.kernel<corpus::signatures, "odd_spacing">().arity == 4);
    CHECK(program.kernel<corpus::signatures, "declared_twice">().arity == 2);
    CHECK(program.kernel<corpus::signatures, "scale">().arity == 2);
    CHECK(program.kernel<corpus::signatures, "scale2">().arity == 2);
    CHECK(program.kernel<corpus::signatures, "scale_in_place">().arity == 2);
    CHECK(program.kernel<corpus::signatures, "apply_mode">().arity == 3);

    if (!env().device.supports_extension("cl_khr_fp64")) {
        WARN("\"" << env().device.name() << "\" has no cl_khr_fp64: the double corpus is skipped");
        return;
    }
    const auto fp64 = openclaw::Program::build(env().context, corpus::signatures_fp64,
                                               openclaw::BuildOptions{}.kernel_arg_info(true));
    CHECK(fp64.kernel<corpus::signatures_fp64, "dot_double">().arity == 5);
}

// NVIDIA's compiler fails on kernels without parameters when -cl-kernel-arg-info is given (its
// assembler rejects the PTX: driver 580 on the H200). Program::build added that option itself, so
// it builds again without it there; everywhere else the program keeps the driver's description.
TEST_CASE("kernels without parameters build with the arg info openclaw adds, on every driver") {
    const bool nvidia = env().device.platform().name().find("NVIDIA") != std::string::npos;
    const auto program = openclaw::Program::build(env().context, corpus::no_parameters,
                                                  openclaw::BuildOptions{}.kernel_arg_info(true));
    REQUIRE(program);
    CHECK((program.kernel_arg_info() || nvidia));  // dropped only where the driver needs it
    auto nothing = program.kernel<corpus::no_parameters, "nothing">();
    auto empty = program.kernel<corpus::no_parameters, "empty">();
    auto mark = program.kernel<corpus::no_parameters, "mark">();
    CHECK(nothing.arity == 0);
    CHECK(empty.arity == 0);
    const openclaw::ReadWriteBuffer<cl_int> flags{env().context, std::vector<cl_int>(64, 0)};
    env().queue.enqueue(nothing.set_args(), NDRange{64});
    env().queue.enqueue(empty.set_args(), NDRange{64});
    env().queue.enqueue(mark.set_args(flags, 7), NDRange{64});
    std::vector<cl_int> back(64);
    env().queue.read(flags, back);
    CHECK(std::count(back.begin(), back.end(), 7) == 64);

    // Asked for in the caller's own words, the option stays: there the driver's failure is
    // the caller's to see (on NVIDIA a BuildError with the assembler's log).
    openclaw::Status status;
    const auto explicit_option =
        openclaw::Program::build(env().context, corpus::no_parameters,
                                 openclaw::BuildOptions{"-cl-kernel-arg-info"}, status);
    if (status.failed()) {
        CHECK(nvidia);
        CHECK(status.cl_code() == CL_BUILD_PROGRAM_FAILURE);
        CHECK_THAT(status.what(), has("ptxas"));
    } else {
        CHECK(explicit_option.kernel_arg_info());
    }
}

TEST_CASE("source-typed kernels run: saxpy and a local-memory reduction") {
    const cl_int n = 1000;
    std::vector<float> x(n), y(n);
    for (cl_int i = 0; i < n; ++i) {
        x[static_cast<std::size_t>(i)] = static_cast<float>(i);
        y[static_cast<std::size_t>(i)] = 1.0f;
    }
    const openclaw::ReadOnlyBuffer<float> dx{env().context, x};
    const openclaw::ReadWriteBuffer<float> dy{env().context, y};
    auto saxpy = corpus_program().kernel<corpus::signatures, "saxpy">();
    env().queue.enqueue(saxpy.set_args(2.0f, dx, dy, n), NDRange{1024});
    env().queue.read(dy, y);
    for (cl_int i = 0; i < n; i += 111) {
        CHECK(y[static_cast<std::size_t>(i)] == 2.0f * static_cast<float>(i) + 1.0f);
    }

    auto reduce = corpus_program().kernel<corpus::signatures, "reduce_sum">();
    const openclaw::WriteOnlyBuffer<float> partial{env().context, 16};
    env().queue.enqueue(reduce.set_args(dx, partial, LocalMem<float>{64}, cl_uint{n}),
                        NDRange{1024}, NDRange{64});
    std::vector<float> sums(16);
    env().queue.read(partial, sums);
    float total = 0;
    for (float s : sums) {
        total += s;
    }
    CHECK(total == static_cast<float>(n * (n - 1) / 2));
}

TEST_CASE("a typed kernel declared wrong is refused with the argument, its name and both types") {
    const openclaw::Program& program = corpus_program();
    const bool names = reports_names(program.kernel("saxpy"));
    if (!names) {
        WARN("\"" << env().device.name() << "\" reports no argument names");
    }
    const auto refused = [&](auto create) {
        const auto error = thrown<openclaw::Error>(create);
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_KERNEL_ARGS);
        CHECK(error->call() == "clCreateKernel");
        return std::string(error->what());
    };
    SECTION("In<T> is the program's word for a non-const pointer; Out<T> for a const one is not") {
        // A non-const pointer may be only read (ported kernels often read inputs through one):
        // the driver's description cannot refute In<T>, so it is accepted. The body can: saxpy
        // writes y, so In<T> for y is refused, in Debug and Release alike.
        CHECK(program.kernel<float, In<float>, Global<float>, cl_int>("saxpy").arity == 4);
        const std::string written =
            refused([&] { (void)program.kernel<float, In<float>, In<float>, cl_int>("saxpy"); });
        CHECK_THAT(written, has("kernel \"saxpy\", argument 2 (\"y\"): the C++ signature declares "
                                "In<cl_float>, but the kernel writes through the pointer"));
        const std::string global = refused(
            [&] { (void)program.kernel<float, Global<float>, Global<float>, cl_int>("saxpy"); });
        CHECK_THAT(global,
                   has(names ? "kernel \"saxpy\", argument 1 (\"x\"): the C++ signature "
                               "declares Global<cl_float>, the kernel declares __global "
                               "const float* x"
                             : "kernel \"saxpy\", argument 1: the C++ signature declares "
                               "Global<cl_float>, the kernel declares __global const float*"));
        CHECK_THAT(global, has("the kernel's pointer is const"));
    }
    SECTION("Out<T> for a const pointer") {
        const std::string what =
            refused([&] { (void)program.kernel<float, Out<float>, Out<float>, cl_int>("saxpy"); });
        CHECK_THAT(what, has("argument 1"));
        CHECK_THAT(what, has("declares Out<cl_float>, the kernel declares __global const float*"));
        CHECK_THAT(what, has("declare In<T>"));
    }
    SECTION("the wrong element type") {
        const std::string what =
            refused([&] { (void)program.kernel<float, In<cl_int>, Out<float>, cl_int>("saxpy"); });
        CHECK_THAT(what, has("argument 1"));
        CHECK_THAT(what, has("declares In<cl_int>"));
        CHECK_THAT(what, has("the element types differ"));
    }
    SECTION("the wrong scalar type") {
        const std::string what =
            refused([&] { (void)program.kernel<float, In<float>, Out<float>, cl_uint>("saxpy"); });
        CHECK_THAT(what, has("argument 3"));
        CHECK_THAT(what, has("declares cl_uint, the kernel declares int"));
        CHECK_THAT(what, has("the types differ"));
    }
    SECTION("a buffer for a value, __global for __local, __global for __constant") {
        CHECK_THAT(refused([&] {
                       (void)program.kernel<In<float>, In<float>, Out<float>, cl_int>("saxpy");
                   }),
                   has("argument 0"));
        CHECK_THAT(
            refused([&] {
                (void)program.kernel<In<float>, Out<float>, Out<float>, cl_uint>("reduce_sum");
            }),
            has("argument 2"));
        CHECK_THAT(
            refused([&] {
                (void)program.kernel<In<float>, In<cl_uchar4>, Out<cl_uchar4>, cl_int2, cl_uint>(
                    "convolve");
            }),
            has("the address spaces differ"));
    }
    SECTION("a host struct for a built-in type of another size") {
        const std::string what = refused([&] { (void)program.kernel<Out<float>, Range>("scale"); });
        CHECK_THAT(what, has("declares T (a 8-byte class or enum)"));
    }
    SECTION("adopting a raw kernel checks it too") {
        cl_int code = CL_SUCCESS;
        cl_kernel raw = clCreateKernel(program.get(), "scale", &code);
        REQUIRE(code == CL_SUCCESS);
        CHECK_THAT(refused([&] { (void)Kernel<In<cl_int>, float>::adopt(raw); }),
                   has("argument 0"));
    }
}

TEST_CASE("typed kernels that fit the driver's description are accepted, names or not") {
    const openclaw::Program& program = corpus_program();
    // Typedefs and structs cannot be told apart from the host's types by name: they fit.
    CHECK(program.kernel<Out<cl_int>, Mode, Out<float>>("apply_mode").arity == 3);
    // A host struct of the same size stands for a built-in vector.
    struct Float2 {
        float x, y;
    };
    CHECK(program.kernel<Out<cl_float2>, Float2>("scale2").arity == 2);
    // ReadWrite semantics: InOut<T> for a pointer the kernel writes.
    CHECK(program.kernel<InOut<float>, float>("scale").arity == 2);
    // cl_half is cl_ushort: both spellings fit a `half*`.
    CHECK(program.kernel<Out<cl_int>, In<cl_ushort>, Out<float>, Local<cl_int>>("odd_spacing")
              .arity == 4);
}

TEST_CASE("with partial arg info the checks that remain run, and never a false error") {
    const detail::HostParam in_float = detail::host_param<In<float>>();
    const detail::HostParam by_value = detail::host_param<cl_uint>();
    detail::ArgInfo nothing;
    CHECK(detail::param_mismatch(in_float, nothing).empty());
    CHECK(nothing.declaration() == "parameter");

    detail::ArgInfo space_only;
    space_only.known_space = true;
    space_only.space = detail::AddressSpace::global;
    CHECK(detail::param_mismatch(in_float, space_only).empty());
    CHECK_THAT(detail::param_mismatch(by_value, space_only), has("address spaces differ"));
    CHECK(space_only.declaration() == "__global pointer");

    detail::ArgInfo typedef_name;  // "real*": a typedef the host cannot see
    typedef_name.known_space = true;
    typedef_name.space = detail::AddressSpace::global;
    typedef_name.known_const = true;
    typedef_name.is_const = true;
    typedef_name.known_type = true;
    typedef_name.type_name = "real*";
    typedef_name.type = detail::read_type_name("real*");
    CHECK(detail::param_mismatch(in_float, typedef_name).empty());
    CHECK(detail::param_mismatch(detail::host_param<In<cl_int4>>(), typedef_name).empty());
    CHECK(typedef_name.declaration() == "__global const real*");

    detail::ArgInfo unnamed = typedef_name;
    unnamed.type_name = "int*";
    unnamed.type = detail::read_type_name("int*");
    CHECK_THAT(detail::param_mismatch(in_float, unnamed), has("element types differ"));
    unnamed.name = "data";
    CHECK(unnamed.declaration() == "__global const int* data");

    cl_int code = CL_SUCCESS;
    const detail::HostArg int_value = detail::host_arg<cl_int>();
    CHECK(detail::argument_mismatch(int_value, nothing, code).empty());
    detail::ArgInfo type_only;  // a type name without an address qualifier
    type_only.known_type = true;
    type_only.type = detail::read_type_name("float*");
    CHECK_THAT(detail::argument_mismatch(int_value, type_only, code), has("is a pointer"));
}

TEST_CASE("without arg info typed kernels keep the count check") {
    const auto program = openclaw::Program::build(env().context, corpus::signatures,
                                                  openclaw::BuildOptions{}.kernel_arg_info(false));
    CHECK_FALSE(program.kernel_arg_info());
    CHECK_THAT(program.build_info<CL_PROGRAM_BUILD_OPTIONS>(env().device),
               !has("-cl-kernel-arg-info"));
    // The driver has nothing to compare a wrong element type with: it is not caught here (the
    // body scan, which needs no arg info, still refuses In<T> for the written y)...
    const auto wrong = program.kernel<float, In<cl_int>, InOut<float>, cl_int>("saxpy");
    CHECK(wrong.arity == 4);
    // ...but the parameter count still is.
    const auto error = thrown<openclaw::Error>(
        [&] { (void)program.kernel<float, In<float>, In<float>>("saxpy"); });
    REQUIRE(error);
    CHECK_THAT(error->what(), has("has 4 parameters, the C++ signature declares 3"));
    // An explicit option stays even when openclaw is told not to add it.
    const auto explicit_option = openclaw::Program::build(
        env().context, corpus::signatures,
        openclaw::BuildOptions{"-cl-kernel-arg-info"}.kernel_arg_info(false));
    CHECK(explicit_option.kernel_arg_info());
}

TEST_CASE("Program::build adds -cl-kernel-arg-info by default, in every build type") {
    // The default is not keyed on NDEBUG (or anything else outside the call): a Debug and a
    // Release unit build the same program the same way.
    const auto program = openclaw::Program::build(env().context, corpus::signatures);
    CHECK(openclaw::BuildOptions{}.adds_kernel_arg_info());
    CHECK(program.kernel_arg_info());
    const std::string options = program.build_info<CL_PROGRAM_BUILD_OPTIONS>(env().device);
    CHECK(options.find("-cl-kernel-arg-info") != std::string::npos);
    // A program adopted from the C API reads the flag back from its build options.
    CHECK(openclaw::Program::retain(program.get()).kernel_arg_info());
}

TEST_CASE("DynamicKernel: set_args checked at run time against the driver's description") {
    const openclaw::Program& program = corpus_program();
    openclaw::DynamicKernel saxpy = program.kernel("saxpy");
    REQUIRE(saxpy.arity() == 4);
    const bool info = saxpy.has_arg_info();
    if (!info) {
        WARN("\"" << env().device.name() << "\" gives no arg info: only counts are checked");
    }
    const bool names = reports_names(saxpy);
    std::vector<float> x(64, 2.0f), y(64, 1.0f);
    const openclaw::ReadOnlyBuffer<float> dx{env().context, x};
    const openclaw::ReadWriteBuffer<float> dy{env().context, y};
    const openclaw::ReadOnlyBuffer<float> read_only{env().context, 64};
    const openclaw::WriteOnlyBuffer<float> write_only{env().context, 64};
    const openclaw::ReadOnlyBuffer<cl_int> ints{env().context, 64};

    SECTION("correct arguments run") {
        if (names) {
            CHECK(saxpy.signature() ==
                  "(float alpha, __global const float* x, __global float* y, "
                  "int n)");
        }
        env().queue.enqueue(saxpy.set_args(3.0f, dx, dy, cl_int{64}), NDRange{64});
        env().queue.read(dy, y);
        CHECK(y[0] == 7.0f);
        CHECK(y[63] == 7.0f);
        // ReadWrite buffers fit const and non-const pointers alike; set_arg sets one.
        saxpy.set_args(3.0f, dy, dy, cl_int{64}).set_arg(3, cl_int{32});
    }
    SECTION("the wrong count, with or without arg info") {
        const auto error = thrown<openclaw::Error>([&] { saxpy.set_args(3.0f, dx, dy); });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_KERNEL_ARGS);
        CHECK_THAT(error->what(), has("set_args: kernel \"saxpy\" takes 4 arguments, 3 given"));
        const auto index = thrown<openclaw::Error>([&] { saxpy.set_arg(4, 1.0f); });
        REQUIRE(index);
        CHECK(index->cl_code() == CL_INVALID_ARG_INDEX);
    }
    if (!info) {
        return;
    }
    const auto refused = [&](auto call) {
        const auto error = thrown<openclaw::Error>(call);
        REQUIRE(error);
        CHECK(error->call() == "clSetKernelArg");
        return *error;
    };
    SECTION("a non-const pointer takes any access; a const one refuses WriteOnly") {
        // The driver's description cannot see the body: a non-const pointer may be only read
        // (a ReadOnly buffer is what the program means) or only written (WriteOnly).
        std::error_code ec;
        saxpy.set_args(3.0f, dx, read_only, cl_int{64}, ec);
        CHECK_FALSE(ec);
        saxpy.set_args(3.0f, dx, write_only, cl_int{64}, ec);
        CHECK_FALSE(ec);
        const auto error = refused([&] { saxpy.set_args(3.0f, write_only, dy, cl_int{64}); });
        CHECK(error.cl_code() == CL_INVALID_ARG_VALUE);
        CHECK_THAT(error.what(), has(names ? "argument 1 (\"x\") of kernel \"saxpy\": the kernel "
                                             "declares __global const float* x, the argument is "
                                             "Buffer<cl_float, WriteOnly>"
                                           : "argument 1 of kernel \"saxpy\""));
    }
    SECTION("a WriteOnly buffer where the kernel reads") {
        const auto error = refused([&] { saxpy.set_args(3.0f, write_only, dy, cl_int{64}); });
        CHECK_THAT(error.what(), has("a WriteOnly buffer cannot be passed"));
    }
    SECTION("a buffer of the wrong element type") {
        const auto error = refused([&] { saxpy.set_args(3.0f, ints, dy, cl_int{64}); });
        CHECK_THAT(error.what(), has("Buffer<cl_int, ReadOnly>: the element types differ"));
    }
    SECTION("a value of the wrong type or size") {
        const auto sign = refused([&] { saxpy.set_args(3.0f, dx, dy, 64u); });
        CHECK(sign.cl_code() == CL_INVALID_ARG_VALUE);
        CHECK_THAT(sign.what(), has("the argument is cl_uint: the types differ"));
        const auto size = refused([&] { saxpy.set_args(3.0, dx, dy, cl_int{64}); });
        CHECK(size.cl_code() == CL_INVALID_ARG_SIZE);
        CHECK_THAT(size.what(), has("argument 0"));
        CHECK_THAT(size.what(), has("takes 4 bytes, the argument 8"));
    }
    SECTION("buffers, values and LocalMem in each other's places") {
        CHECK_THAT(refused([&] { saxpy.set_args(dx, dx, dy, cl_int{64}); }).what(),
                   has("the parameter is a value: a buffer cannot be passed"));
        CHECK_THAT(refused([&] { saxpy.set_args(3.0f, 1.0f, dy, cl_int{64}); }).what(),
                   has("pass a Buffer"));
        CHECK_THAT(
            refused([&] { saxpy.set_args(3.0f, LocalMem<float>{4}, dy, cl_int{64}); }).what(),
            has("LocalMem cannot be passed"));
        auto reduce = program.kernel("reduce_sum");
        CHECK_THAT(refused([&] { reduce.set_args(dx, dy, dy, 64u); }).what(),
                   has("the parameter is __local: pass LocalMem<T>{count}"));
        CHECK_THAT(refused([&] { reduce.set_args(dx, dy, LocalMem<int>{64}, 64u); }).what(),
                   has("LocalMem<cl_int>: the element types differ"));
    }
    SECTION("nothing is set when one argument is refused") {
        auto fresh = program.kernel("saxpy");
        CHECK(thrown<openclaw::Error>([&] { fresh.set_args(3.0f, dx, ints, cl_int{64}); }));
        const auto launch =
            thrown<openclaw::Error>([&] { env().queue.enqueue(fresh, NDRange{64}); });
        REQUIRE(launch);
        CHECK(launch->cl_code() == CL_INVALID_KERNEL_ARGS);
    }
}

TEST_CASE("DynamicKernel adopts and retains raw kernels, and reads their description") {
    cl_int code = CL_SUCCESS;
    cl_kernel raw = clCreateKernel(corpus_program().get(), "reduce_sum", &code);
    REQUIRE(code == CL_SUCCESS);
    const openclaw::DynamicKernel adopted = openclaw::DynamicKernel::adopt(raw);
    CHECK(adopted.get() == raw);
    CHECK(adopted.arity() == 4);
    CHECK(adopted.name() == "reduce_sum");
    const openclaw::DynamicKernel shared = openclaw::DynamicKernel::retain(raw);
    CHECK(shared.get() == raw);
    CHECK(shared.info<CL_KERNEL_REFERENCE_COUNT>() == 2);
    CHECK(shared.has_arg_info() == adopted.has_arg_info());
    if (adopted.has_arg_info() && reports_names(adopted)) {
        CHECK(adopted.signature() ==
              "(__global const float* in, __global float* partial, __local "
              "float* scratch, uint n)");
    }
    const openclaw::DynamicKernel empty;
    CHECK_FALSE(empty);
    CHECK(empty.arity() == 0);
}

TEST_CASE("DynamicKernel: buffers mapped on the host are checked as for typed kernels") {
    openclaw::DynamicKernel saxpy = corpus_program().kernel("saxpy");
    const openclaw::ReadOnlyBuffer<float> x{env().context, std::vector<float>(64, 1.0f)};
    const openclaw::ReadWriteBuffer<float> y{env().context, std::vector<float>(64, 2.0f)};
    {
        // Mapped for reading: the kernel may read x ...
        const auto view = env().queue.map_read(x);
        saxpy.set_args(1.0f, x, y, cl_int{64});
        // ... but not write y while the host reads it.
        const auto read_view = env().queue.map_read(y);
        const auto error = thrown<openclaw::Error>([&] { saxpy.set_args(1.0f, x, y, cl_int{64}); });
        REQUIRE(error);
        CHECK(error->cl_code() == CL_INVALID_OPERATION);
        CHECK(error->call() == "clSetKernelArg");
        // Bound before the mapping: the launch is refused instead.
        const auto launch =
            thrown<openclaw::Error>([&] { env().queue.enqueue(saxpy, NDRange{64}); });
        REQUIRE(launch);
        CHECK(launch->cl_code() == CL_INVALID_OPERATION);
        CHECK(launch->call() == "clEnqueueNDRangeKernel");
    }
    env().queue.enqueue(saxpy, NDRange{64});
    std::vector<float> back(64);
    env().queue.read(y, back);
    CHECK(back[5] == 3.0f);
}

TEST_CASE("DynamicKernel: SVM pointers and clones") {
    openclaw::DynamicKernel saxpy = corpus_program().kernel("saxpy");
#if CL_TARGET_OPENCL_VERSION >= 200
    if (openclaw::svm_level(env().device) >= openclaw::SvmLevel::coarse_grain) {
        const std::size_t n = 256;
        const openclaw::SvmAllocator<float> allocator{env().context};
        std::vector<float, openclaw::SvmAllocator<float>> x(n, allocator), y(n, allocator);
        {
            auto hx = env().queue.map_discard(openclaw::svm(std::span<float>(x)));
            auto hy = env().queue.map_discard(openclaw::svm(std::span<float>(y)));
            std::fill(hx.begin(), hx.end(), 2.0f);
            std::fill(hy.begin(), hy.end(), 1.0f);
        }
        const float* read_only = x.data();
        env().queue.enqueue(saxpy.set_args(4.0f, openclaw::svm(read_only), openclaw::svm(y.data()),
                                           static_cast<cl_int>(n)),
                            NDRange{n});
        env().queue.finish();
        {
            const auto hy = env().queue.map_read(openclaw::svm(std::span<float>(y)));
            CHECK(hy[0] == 9.0f);
            CHECK(hy[n - 1] == 9.0f);
        }
        if (saxpy.has_arg_info()) {
            const auto error = thrown<openclaw::Error>([&] {
                saxpy.set_args(4.0f, openclaw::svm(read_only), openclaw::svm(read_only),
                               static_cast<cl_int>(n));
            });
            REQUIRE(error);
            CHECK_THAT(error->what(),
                       has("svm(const cl_float*): the kernel's pointer is not const"));
        }
    } else {
        WARN("\"" << env().device.name() << "\" has no SVM: DynamicKernel's SVM path is not run");
    }
#endif

    // A kernel of its own for the clones: NVIDIA's driver (580) refuses the launch of a kernel
    // whose pointer arguments were SVM pointers and then buffers (CL_INVALID_KERNEL_ARGS).
    saxpy = corpus_program().kernel("saxpy");
    const openclaw::ReadOnlyBuffer<float> x{env().context, std::vector<float>(64, 1.0f)};
    const openclaw::ReadWriteBuffer<float> y{env().context, std::vector<float>(64, 0.0f)};
    saxpy.set_args(5.0f, x, y, cl_int{64});
    openclaw::DynamicKernel copy = saxpy.clone();
    CHECK(copy.get() != saxpy.get());
    CHECK(copy.arity() == 4);
    CHECK(copy.signature() == saxpy.signature());
    if (env().device.platform().version() < openclaw::Version{2, 1} ||
        openclaw::target_opencl_version < 210) {
        copy.set_args(5.0f, x, y, cl_int{64});  // a fresh kernel: its arguments are set again
    }
    env().queue.enqueue(copy, NDRange{64});
    std::vector<float> back(64);
    env().queue.read(y, back);
    CHECK(back[63] == 5.0f);
}

TEST_CASE("DynamicKernel without arg info: the count here, sizes by the driver") {
    const auto program = openclaw::Program::build(env().context, corpus::signatures,
                                                  openclaw::BuildOptions{}.kernel_arg_info(false));
    openclaw::DynamicKernel saxpy = program.kernel("saxpy");
    CHECK_FALSE(saxpy.has_arg_info());
    CHECK(saxpy.signature() == "(4 parameters; no arg info: build with -cl-kernel-arg-info)");
    const openclaw::ReadOnlyBuffer<float> dx{env().context, std::vector<float>(64, 1.0f)};
    const openclaw::ReadWriteBuffer<float> dy{env().context, std::vector<float>(64, 1.0f)};
    const auto count = thrown<openclaw::Error>([&] { saxpy.set_args(1.0f, dx, dy); });
    REQUIRE(count);
    CHECK(count->cl_code() == CL_INVALID_KERNEL_ARGS);
    const auto size = thrown<openclaw::Error>([&] { saxpy.set_args(1.0f, dx, dy, 64.0); });
    REQUIRE(size);
    CHECK(size->cl_code() == CL_INVALID_ARG_SIZE);
    CHECK_THAT(size->what(), has("argument 3 of kernel \"saxpy\": the kernel's parameter is not 8 "
                                 "bytes"));
    env().queue.enqueue(saxpy.set_args(2.0f, dx, dy, cl_int{64}), NDRange{64});
    std::vector<float> y(64);
    env().queue.read(dy, y);
    CHECK(y[10] == 3.0f);
}

TEST_CASE("DynamicKernel set_args and enqueue allocate no more than the raw C API does") {
    const std::size_t n = 1024;
    const openclaw::ReadOnlyBuffer<float> x{env().context, n};
    const openclaw::ReadWriteBuffer<float> y{env().context, n};
    openclaw::DynamicKernel saxpy = corpus_program().kernel("saxpy");
    const cl_command_queue queue = env().queue.get();
    const cl_kernel raw = saxpy.get();
    const cl_mem mems[2] = {x.get(), y.get()};
    const float alpha = 1.0f;
    const cl_int count = static_cast<cl_int>(n);
    const std::size_t global = n;
    const auto raw_loop = [&](int iterations) {
        for (int i = 0; i < iterations; ++i) {
            clSetKernelArg(raw, 0, sizeof(alpha), &alpha);
            clSetKernelArg(raw, 1, sizeof(cl_mem), &mems[0]);
            clSetKernelArg(raw, 2, sizeof(cl_mem), &mems[1]);
            clSetKernelArg(raw, 3, sizeof(count), &count);
            clEnqueueNDRangeKernel(queue, raw, 1, nullptr, &global, nullptr, 0, nullptr, nullptr);
        }
    };
    const auto openclaw_loop = [&](int iterations) {
        for (int i = 0; i < iterations; ++i) {
            env().queue.enqueue(saxpy.set_args(alpha, x, y, count), NDRange{n});
        }
    };
    raw_loop(10);
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
}
