// libFuzzer target for the signature parser (built with -DOPENCLAW_BUILD_FUZZERS=ON and clang++).
// An input is a kernel name on its first line and an OpenCL C source after it; the whole input
// is also parsed as a driver type name. The parser must not crash, hang or hit undefined
// behaviour, and what it returns must stay inside the text it was given.
#include <openclaw/signature.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

namespace detail = openclaw::detail;

void require(bool condition) {
    if (!condition) {
        std::abort();
    }
}

void check_decl(const detail::ParamDecl& decl, std::size_t size) {
    require(decl.begin <= size);
    require(decl.type_begin <= size && decl.type_size <= size - decl.type_begin);
    require(decl.name_begin <= size && decl.name_size <= size - decl.name_begin);
    require(decl.pointers <= 1);
    const unsigned width = decl.width;
    require(width == 1 || width == 2 || width == 3 || width == 4 || width == 8 || width == 16);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const std::size_t newline = input.find('\n');
    const std::string_view name = input.substr(0, newline);
    const std::string_view source =
        newline == std::string_view::npos ? std::string_view() : input.substr(newline + 1);

    const detail::Signature sig = detail::parse_kernel_signature(source, name);
    require(sig.count <= detail::max_kernel_params);
    for (std::size_t i = 0; i < sig.count; ++i) {
        check_decl(sig.params[i], source.size());
        (void)sig.name_of(i);
        (void)sig.type_of(i);
    }
    if (!sig.ok()) {
        require(sig.error_at.begin <= source.size());
        require(sig.error_at.size <= source.size() - sig.error_at.begin);
        const detail::LineColumn at = detail::line_column(source, sig.error_at.begin);
        require(at.line >= 1 && at.column >= 1);
    } else {
        require(sig.error_param == static_cast<std::size_t>(-1));
    }
    (void)detail::defines_macro(source, name);

    const detail::ParamResult type = detail::parse_type_name(input);
    check_decl(type.decl, input.size());
    return 0;
}
