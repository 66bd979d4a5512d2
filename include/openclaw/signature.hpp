// SPDX-License-Identifier: Apache-2.0
#pragma once
// Kernel signatures read from OpenCL C source. One constexpr parser of kernel declarations serves
// both sides: at compile time program.kernel<source, "name">() turns a declaration into the
// Kernel<...> it describes; at run time the driver's arg-info type names go through the same code,
// so that a C++ signature is checked against what the driver actually compiled.

#include <openclaw/config.hpp>
#include <openclaw/detail/info.hpp>
#include <openclaw/error.hpp>
#include <openclaw/params.hpp>

#include <array>
#include <concepts>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace openclaw {

template <class... Params>
class Kernel;
class DynamicKernel;

/// A string usable as a template argument: the kernel name in program.kernel<source, "name">()
/// and the type name in opencl_type<"Particle">. Its characters are a public array, which makes
/// it a structural type (C++20 class-type template parameters).
template <std::size_t N>
struct FixedString {
    static_assert(N >= 1, "FixedString holds a string literal, terminator included");
    char chars[N]{};

    // Implicit on purpose: a string literal is the template argument.
    constexpr FixedString(const char (&text)[N]) noexcept {  // NOLINT(google-explicit-constructor)
        for (std::size_t i = 0; i < N; ++i) {
            chars[i] = text[i];
        }
    }
    /// The first N - 1 characters of `text` (used to name slices of a source at compile time).
    constexpr explicit FixedString(std::string_view text) noexcept {
        for (std::size_t i = 0; i + 1 < N && i < text.size(); ++i) {
            chars[i] = text[i];
        }
    }
    static constexpr std::size_t size() noexcept { return N - 1; }
    constexpr std::string_view view() const noexcept { return {chars, N - 1}; }
    constexpr operator std::string_view() const noexcept { return view(); }  // NOLINT
};

/// The host type of a user type that kernel signatures name (a struct, union, enum or typedef
/// name). Specialise it next to the host twin of the type, with the name the signature uses
/// (without `struct`):
///
///     template <> struct openclaw::opencl_type<"Particle"> { using type = Particle; };
///
/// A `typedef float real;` or a type macro such as `#define REAL float` can be mapped the same
/// way (`using type = cl_float;`).
template <FixedString Name>
struct opencl_type {};

namespace detail {

// ---------------------------------------------------------------------------------------------
// Lexer: the tokens of OpenCL C that matter to declarations. Comments, preprocessor directives
// and line splices are skipped; nothing is expanded.

enum class TokenKind : unsigned char { end, identifier, number, punctuation, literal, other };

struct Token {
    TokenKind kind = TokenKind::end;
    std::size_t begin = 0;
    std::size_t size = 0;
};

constexpr bool is_identifier_start(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
constexpr bool is_identifier_char(char c) noexcept {
    return is_identifier_start(c) || (c >= '0' && c <= '9');
}
constexpr bool is_digit(char c) noexcept {
    return c >= '0' && c <= '9';
}

class Lexer {
  public:
    constexpr explicit Lexer(std::string_view text) noexcept : text_(text) {}

    constexpr Token next() noexcept {
        skip_blanks();
        const std::size_t n = text_.size();
        if (pos_ >= n) {
            return {TokenKind::end, n, 0};
        }
        const std::size_t begin = pos_;
        const char c = text_[pos_];
        line_start_ = false;
        TokenKind kind = TokenKind::other;
        if (is_identifier_start(c)) {
            kind = TokenKind::identifier;
            while (pos_ < n && is_identifier_char(text_[pos_])) {
                ++pos_;
            }
        } else if (is_digit(c) || (c == '.' && pos_ + 1 < n && is_digit(text_[pos_ + 1]))) {
            kind = TokenKind::number;
            ++pos_;
            while (pos_ < n) {
                const char d = text_[pos_];
                const char before = text_[pos_ - 1];
                const bool exponent_sign =
                    (d == '+' || d == '-') &&
                    (before == 'e' || before == 'E' || before == 'p' || before == 'P');
                if (!is_identifier_char(d) && d != '.' && !exponent_sign) {
                    break;
                }
                ++pos_;
            }
        } else if (c == '"' || c == '\'') {
            kind = TokenKind::literal;
            ++pos_;
            while (pos_ < n && text_[pos_] != c && text_[pos_] != '\n') {
                pos_ += (text_[pos_] == '\\' && pos_ + 1 < n) ? 2 : 1;
            }
            if (pos_ < n && text_[pos_] == c) {
                ++pos_;
            }
        } else {
            kind = std::string_view("(){}[],;*<>=&|+-/%!~?:^.#").find(c) != std::string_view::npos
                       ? TokenKind::punctuation
                       : TokenKind::other;
            ++pos_;
        }
        return {kind, begin, pos_ - begin};
    }

    constexpr Token peek() const noexcept {
        Lexer copy = *this;
        return copy.next();
    }

    constexpr std::string_view text(Token token) const noexcept {
        return text_.substr(token.begin, token.size);
    }
    constexpr bool is(Token token, char punctuation) const noexcept {
        return token.kind == TokenKind::punctuation && text_[token.begin] == punctuation;
    }
    constexpr bool is(Token token, std::string_view identifier) const noexcept {
        return token.kind == TokenKind::identifier && text(token) == identifier;
    }

  private:
    constexpr bool splice_at(std::size_t at) const noexcept {
        return text_[at] == '\\' && at + 1 < text_.size() &&
               (text_[at + 1] == '\n' || text_[at + 1] == '\r');
    }
    constexpr void skip_splice() noexcept {
        pos_ += 2;
        if (text_[pos_ - 1] == '\r' && pos_ < text_.size() && text_[pos_] == '\n') {
            ++pos_;
        }
    }

    // Whitespace, comments, line splices and whole preprocessor directives.
    constexpr void skip_blanks() noexcept {
        const std::size_t n = text_.size();
        while (pos_ < n) {
            const char c = text_[pos_];
            if (c == '\n') {
                line_start_ = true;
                ++pos_;
            } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
                ++pos_;
            } else if (splice_at(pos_)) {
                skip_splice();
            } else if (c == '/' && pos_ + 1 < n && text_[pos_ + 1] == '/') {
                while (pos_ < n && text_[pos_] != '\n') {
                    if (splice_at(pos_)) {
                        skip_splice();
                    } else {
                        ++pos_;
                    }
                }
            } else if (c == '/' && pos_ + 1 < n && text_[pos_ + 1] == '*') {
                pos_ += 2;
                while (pos_ + 1 < n && !(text_[pos_] == '*' && text_[pos_ + 1] == '/')) {
                    ++pos_;
                }
                pos_ = pos_ + 2 <= n ? pos_ + 2 : n;
            } else if (c == '#' && line_start_) {
                while (pos_ < n && text_[pos_] != '\n') {
                    if (splice_at(pos_)) {
                        skip_splice();
                    } else {
                        ++pos_;
                    }
                }
            } else {
                return;
            }
        }
    }

    std::string_view text_;
    std::size_t pos_ = 0;
    bool line_start_ = true;
};

// ---------------------------------------------------------------------------------------------
// Declarations: what one kernel parameter (or one driver-reported type name) says.

enum class AddressSpace : unsigned char { unspecified, private_, global, constant, local, generic };

enum class Scalar : unsigned char {
    none,
    char_,
    uchar,
    short_,
    ushort,
    int_,
    uint,
    long_,
    ulong,
    half,
    float_,
    double_,
    void_,
    bool_,
    size_t_,
    ptrdiff_t_,
    intptr_t_,
    uintptr_t_,
    image,    // image*_t
    sampler,  // sampler_t
    pipe,     // pipe T
    opaque,   // event_t, queue_t, ...: not kernel parameters openclaw can pass
    user,     // a struct, union, enum or typedef name
};

/// Why a signature could not be turned into a Kernel<...>. The compile-time reports in
/// report_signature_error() have one message per value.
enum class SignatureError {
    none,
    kernel_not_found,
    unexpected_token,
    unterminated,
    too_many_parameters,
    missing_type,
    forbidden_type,
    image_type,
    void_pointer,
    unsupported_type,
    pointer_address_space,
    value_address_space,
    pointer_to_pointer,
    array_parameter,
    conflicting_declarations,
    unknown_type,
    macro_type,
};

struct ParamDecl {
    AddressSpace space = AddressSpace::unspecified;
    Scalar scalar = Scalar::none;
    unsigned char width = 1;     // vector components: 1, 2, 3, 4, 8 or 16
    unsigned char pointers = 0;  // levels of `*`
    bool is_const = false;       // the pointed-to (or by-value) object is const
    bool is_volatile = false;
    bool is_restrict = false;
    std::size_t begin = 0;  // offsets into the parsed text
    std::size_t type_begin = 0;
    std::size_t type_size = 0;  // the type's spelling; for user types the name alone
    std::size_t name_begin = 0;
    std::size_t name_size = 0;

    constexpr bool same_declaration(const ParamDecl& other, std::string_view text,
                                    std::string_view other_text) const noexcept {
        return space == other.space && scalar == other.scalar && width == other.width &&
               pointers == other.pointers && is_const == other.is_const &&
               (scalar != Scalar::user || text.substr(type_begin, type_size) ==
                                              other_text.substr(other.type_begin, other.type_size));
    }
};

struct ParamResult {
    ParamDecl decl;
    SignatureError error = SignatureError::none;
    Token at;  // where the error is
};

constexpr AddressSpace address_space_keyword(std::string_view word) noexcept {
    if (word == "__global" || word == "global") {
        return AddressSpace::global;
    }
    if (word == "__constant" || word == "constant") {
        return AddressSpace::constant;
    }
    if (word == "__local" || word == "local") {
        return AddressSpace::local;
    }
    if (word == "__private" || word == "private") {
        return AddressSpace::private_;
    }
    if (word == "__generic" || word == "generic") {
        return AddressSpace::generic;
    }
    return AddressSpace::unspecified;
}

constexpr bool is_access_qualifier(std::string_view word) noexcept {
    return word == "read_only" || word == "__read_only" || word == "write_only" ||
           word == "__write_only" || word == "read_write" || word == "__read_write";
}

struct BuiltinType {
    Scalar scalar = Scalar::none;
    unsigned char width = 1;
};

/// One-word type names that no `unsigned`/`short`/`long` may modify: uchar, float4, size_t, ...
constexpr BuiltinType builtin_type(std::string_view word) noexcept {
    struct Named {
        std::string_view name;
        Scalar scalar;
    };
    // Vector types are these names followed by 2, 3, 4, 8 or 16 (char, short, int and long
    // are vectors only in that form: alone they combine with signed/unsigned).
    constexpr Named vectorizable[] = {
        {"char", Scalar::char_},    {"uchar", Scalar::uchar},    {"short", Scalar::short_},
        {"ushort", Scalar::ushort}, {"int", Scalar::int_},       {"uint", Scalar::uint},
        {"long", Scalar::long_},    {"ulong", Scalar::ulong},    {"half", Scalar::half},
        {"float", Scalar::float_},  {"double", Scalar::double_},
    };
    constexpr Named single[] = {
        {"uchar", Scalar::uchar},
        {"ushort", Scalar::ushort},
        {"uint", Scalar::uint},
        {"ulong", Scalar::ulong},
        {"half", Scalar::half},
        {"float", Scalar::float_},
        {"double", Scalar::double_},
        {"void", Scalar::void_},
        {"bool", Scalar::bool_},
        {"size_t", Scalar::size_t_},
        {"ptrdiff_t", Scalar::ptrdiff_t_},
        {"intptr_t", Scalar::intptr_t_},
        {"uintptr_t", Scalar::uintptr_t_},
        {"sampler_t", Scalar::sampler},
        {"event_t", Scalar::opaque},
        {"clk_event_t", Scalar::opaque},
        {"queue_t", Scalar::opaque},
        {"reserve_id_t", Scalar::opaque},
        {"ndrange_t", Scalar::opaque},
    };
    for (const Named& entry : single) {
        if (word == entry.name) {
            return {entry.scalar, 1};
        }
    }
    if (word.size() > 8 && word.substr(0, 5) == "image" && word.substr(word.size() - 2) == "_t") {
        return {Scalar::image, 1};
    }
    std::size_t digits = 0;
    while (digits < word.size() && is_digit(word[word.size() - 1 - digits])) {
        ++digits;
    }
    if (digits == 0 || digits == word.size()) {
        return {};
    }
    const std::string_view suffix = word.substr(word.size() - digits);
    unsigned char width = 0;
    for (unsigned char candidate : {2, 3, 4, 8, 16}) {
        if ((candidate < 10 && suffix.size() == 1 && suffix[0] == '0' + candidate) ||
            (candidate == 16 && suffix == "16")) {
            width = candidate;
        }
    }
    if (width == 0) {
        return {};
    }
    const std::string_view stem = word.substr(0, word.size() - digits);
    for (const Named& entry : vectorizable) {
        if (stem == entry.name) {
            return {entry.scalar, width};
        }
    }
    return {};
}

/// Skips `( ... )` after __attribute__, nested parentheses included. False at the end of text.
constexpr bool skip_parenthesized(Lexer& lex) noexcept {
    Token token = lex.next();
    if (!lex.is(token, '(')) {
        return false;
    }
    std::size_t depth = 1;
    while (depth > 0) {
        token = lex.next();
        if (token.kind == TokenKind::end) {
            return false;
        }
        if (lex.is(token, '(')) {
            ++depth;
        } else if (lex.is(token, ')')) {
            --depth;
        }
    }
    return true;
}

/// Parses one parameter declaration up to (not including) the `,` or `)` that ends it, or the
/// end of the text. Checks the grammar only; validate_kernel_param() applies OpenCL's rules.
constexpr ParamResult parse_param(Lexer& lex) noexcept {
    ParamResult result;
    ParamDecl& decl = result.decl;
    const auto fail = [&result](SignatureError error, Token at) {
        result.error = error;
        result.at = at;
        return result;
    };
    enum : unsigned char { unsigned_ = 1, signed_ = 2 };
    unsigned char sign = 0;
    unsigned char longs = 0;
    bool short_word = false;
    bool int_word = false;
    bool char_word = false;
    bool modifiers = false;  // any of the words above: the type is being spelled
    bool pipe = false;
    bool named = false;
    Token access{};
    Token first_type{};
    Token last_type{};

    decl.begin = lex.peek().begin;
    for (;;) {
        const Token token = lex.peek();
        if (token.kind == TokenKind::end || lex.is(token, ',') || lex.is(token, ')')) {
            break;
        }
        lex.next();
        const std::string_view word = lex.text(token);
        if (token.kind == TokenKind::identifier && word == "__attribute__") {
            if (!skip_parenthesized(lex)) {
                return fail(SignatureError::unterminated, token);
            }
            continue;
        }
        if (named) {
            return fail(lex.is(token, '[') ? SignatureError::array_parameter
                                           : SignatureError::unexpected_token,
                        token);
        }
        if (token.kind == TokenKind::identifier) {
            const bool has_type = decl.scalar != Scalar::none || modifiers;
            if (const AddressSpace space = address_space_keyword(word);
                space != AddressSpace::unspecified) {
                if (decl.pointers > 0 ||
                    (decl.space != AddressSpace::unspecified && decl.space != space)) {
                    return fail(SignatureError::unexpected_token, token);
                }
                decl.space = space;
            } else if (word == "const") {
                decl.is_const = decl.is_const || decl.pointers == 0;
            } else if (word == "volatile") {
                decl.is_volatile = decl.is_volatile || decl.pointers == 0;
            } else if (word == "restrict" || word == "__restrict" || word == "__restrict__") {
                decl.is_restrict = true;
            } else if (is_access_qualifier(word)) {
                access = token;
            } else if (word == "pipe" && !has_type) {
                pipe = true;
            } else if (decl.pointers > 0) {
                // After `*` only qualifiers and the parameter's name may follow.
                decl.name_begin = token.begin;
                decl.name_size = token.size;
                named = true;
            } else if (word == "unsigned" || word == "signed" || word == "short" ||
                       word == "long" || word == "int" || word == "char") {
                if (decl.scalar != Scalar::none) {
                    return fail(SignatureError::unexpected_token, token);
                }
                if (word == "unsigned" || word == "signed") {
                    if (sign != 0) {
                        return fail(SignatureError::unexpected_token, token);
                    }
                    sign = word == "unsigned" ? unsigned_ : signed_;
                } else if (word == "short") {
                    short_word = true;
                } else if (word == "long") {
                    ++longs;
                } else if (word == "int") {
                    int_word = true;
                } else {
                    char_word = true;
                }
                first_type = modifiers ? first_type : token;
                last_type = token;
                modifiers = true;
            } else if (word == "struct" || word == "union" || word == "enum") {
                if (has_type) {
                    return fail(SignatureError::unexpected_token, token);
                }
                const Token tag = lex.next();
                if (tag.kind != TokenKind::identifier) {
                    return fail(SignatureError::unexpected_token, tag);
                }
                decl.scalar = Scalar::user;
                first_type = last_type = tag;
            } else if (has_type) {
                decl.name_begin = token.begin;
                decl.name_size = token.size;
                named = true;
            } else if (const BuiltinType builtin = builtin_type(word);
                       builtin.scalar != Scalar::none) {
                decl.scalar = builtin.scalar;
                decl.width = builtin.width;
                first_type = last_type = token;
            } else {
                // A typedef name, a struct's typedef, or a macro: the caller decides.
                decl.scalar = Scalar::user;
                first_type = last_type = token;
            }
        } else if (lex.is(token, '*')) {
            if (decl.scalar == Scalar::none && !modifiers) {
                return fail(SignatureError::missing_type, token);
            }
            if (++decl.pointers > 1) {
                return fail(SignatureError::pointer_to_pointer, token);
            }
        } else if (lex.is(token, '[')) {
            return fail(SignatureError::array_parameter, token);
        } else {
            return fail(SignatureError::unexpected_token, token);
        }
    }

    if (modifiers) {
        const bool is_unsigned = sign == unsigned_;
        if (char_word) {
            if (short_word || longs > 0 || int_word) {
                return fail(SignatureError::unexpected_token, last_type);
            }
            decl.scalar = is_unsigned ? Scalar::uchar : Scalar::char_;
        } else if (short_word) {
            if (longs > 0) {
                return fail(SignatureError::unexpected_token, last_type);
            }
            decl.scalar = is_unsigned ? Scalar::ushort : Scalar::short_;
        } else if (longs == 1) {
            decl.scalar = is_unsigned ? Scalar::ulong : Scalar::long_;
        } else if (longs > 1) {
            decl.scalar = Scalar::opaque;  // long long: no OpenCL C type
        } else {
            decl.scalar = is_unsigned ? Scalar::uint : Scalar::int_;
        }
    }
    if (pipe) {
        decl.scalar = Scalar::pipe;
    }
    if (access.size != 0 && decl.scalar != Scalar::image && decl.scalar != Scalar::pipe) {
        return fail(SignatureError::unexpected_token, access);
    }
    decl.type_begin = first_type.begin;
    decl.type_size = last_type.begin + last_type.size - first_type.begin;
    return result;
}

/// OpenCL's rules for kernel parameters (and openclaw's limits), applied to a parsed one.
constexpr ParamResult validate_kernel_param(ParamResult param, Token end) noexcept {
    ParamDecl& decl = param.decl;
    const Token type{TokenKind::identifier, decl.type_begin, decl.type_size};
    const auto fail = [&param](SignatureError error, Token at) {
        param.error = error;
        param.at = at;
        return param;
    };
    if (param.error != SignatureError::none) {
        return param;
    }
    switch (decl.scalar) {
        case Scalar::none:
            return fail(SignatureError::missing_type, end);
        case Scalar::bool_:
        case Scalar::size_t_:
        case Scalar::ptrdiff_t_:
        case Scalar::intptr_t_:
        case Scalar::uintptr_t_:
            return fail(SignatureError::forbidden_type, type);
        case Scalar::image:
        case Scalar::sampler:
        case Scalar::pipe:
            return fail(SignatureError::image_type, type);
        case Scalar::opaque:
            return fail(SignatureError::unsupported_type, type);
        case Scalar::void_:
            return fail(
                decl.pointers > 0 ? SignatureError::void_pointer : SignatureError::unexpected_token,
                type);
        default:
            break;
    }
    const bool buffer_space = decl.space == AddressSpace::global ||
                              decl.space == AddressSpace::constant ||
                              decl.space == AddressSpace::local;
    if (decl.pointers > 0 && !buffer_space) {
        return fail(SignatureError::pointer_address_space, type);
    }
    if (decl.pointers == 0 && buffer_space) {
        return fail(SignatureError::value_address_space, type);
    }
    return param;
}

/// The most parameters a parsed signature holds (OpenCL guarantees room for at least 128
/// pointers: CL_DEVICE_MAX_PARAMETER_SIZE is 1024 bytes or more).
inline constexpr std::size_t max_kernel_params = 128;

/// A kernel's parameters as its source declares them, or why they could not be read.
struct Signature {
    std::string_view text;
    SignatureError error = SignatureError::none;
    Token error_at;
    std::size_t error_param = static_cast<std::size_t>(-1);  // index, when a parameter is at fault
    std::size_t count = 0;
    std::array<ParamDecl, max_kernel_params> params{};

    constexpr bool ok() const noexcept { return error == SignatureError::none; }
    constexpr std::string_view name_of(std::size_t index) const noexcept {
        return text.substr(params[index].name_begin, params[index].name_size);
    }
    constexpr std::string_view type_of(std::size_t index) const noexcept {
        return text.substr(params[index].type_begin, params[index].type_size);
    }
};

/// Parses the parameter list after the kernel's `(` into `sig`; false (and sig.error) if it fails.
constexpr bool parse_param_list(Lexer& lex, Signature& sig) noexcept {
    const Token first = lex.peek();
    if (lex.is(first, ')')) {
        lex.next();
        return true;
    }
    if (lex.is(first, "void")) {
        Lexer after = lex;
        after.next();
        if (lex.is(after.peek(), ')')) {
            after.next();
            lex = after;
            return true;
        }
    }
    for (;;) {
        if (sig.count == max_kernel_params) {
            sig.error = SignatureError::too_many_parameters;
            sig.error_at = lex.peek();
            return false;
        }
        ParamResult param = parse_param(lex);
        const Token end = lex.next();
        param = validate_kernel_param(param, end);
        if (param.error == SignatureError::none && end.kind == TokenKind::end) {
            param.error = SignatureError::unterminated;
            param.at = end;
        }
        if (param.error != SignatureError::none) {
            sig.error = param.error;
            sig.error_at = param.at;
            sig.error_param = sig.count;
            sig.params[sig.count] = param.decl;
            return false;
        }
        sig.params[sig.count++] = param.decl;
        if (lex.is(end, ')')) {
            return true;
        }
    }
}

/// Finds kernel `name` in `text` and parses its parameters. Kernels are recognised by
/// `__kernel`/`kernel` at file scope; attributes may stand anywhere before the name. A kernel
/// declared more than once (a prototype, or variants under #if) must declare the same
/// parameters each time, since directives are not evaluated.
constexpr Signature parse_kernel_signature(std::string_view text, std::string_view name) noexcept {
    Signature result;
    result.text = text;
    bool found = false;
    Lexer lex(text);
    std::size_t braces = 0;
    std::size_t parentheses = 0;
    for (Token token = lex.next(); token.kind != TokenKind::end; token = lex.next()) {
        if (token.kind == TokenKind::punctuation) {
            const char c = text[token.begin];
            braces += c == '{' ? 1 : (c == '}' && braces > 0 ? static_cast<std::size_t>(-1) : 0);
            parentheses +=
                c == '(' ? 1 : (c == ')' && parentheses > 0 ? static_cast<std::size_t>(-1) : 0);
            continue;
        }
        if (braces != 0 || parentheses != 0 ||
            !(lex.is(token, "__kernel") || lex.is(token, "kernel"))) {
            continue;
        }
        // The kernel's name is the identifier just before the first `(` that does not open an
        // attribute's arguments.
        Token candidate{};
        bool header = false;
        for (Token next = lex.peek(); next.kind != TokenKind::end; next = lex.peek()) {
            if (lex.is(next, "__attribute__")) {
                lex.next();
                if (!skip_parenthesized(lex)) {
                    break;
                }
                candidate = {};
            } else if (next.kind == TokenKind::identifier) {
                lex.next();
                candidate = next;
            } else {
                header = lex.is(next, '(') && candidate.kind == TokenKind::identifier;
                break;
            }
        }
        if (!header || lex.text(candidate) != name) {
            continue;  // the `(` (or whatever stopped the header) is counted by the outer loop
        }
        lex.next();
        if (!found) {
            if (!parse_param_list(lex, result)) {
                return result;
            }
            found = true;
        } else {
            Signature again;
            again.text = text;
            if (!parse_param_list(lex, again)) {
                return again;
            }
            bool same = again.count == result.count;
            for (std::size_t i = 0; same && i < result.count; ++i) {
                same = result.params[i].same_declaration(again.params[i], text, text);
            }
            if (!same) {
                result.error = SignatureError::conflicting_declarations;
                result.error_at = candidate;
                return result;
            }
        }
    }
    if (!found) {
        result.error = SignatureError::kernel_not_found;
    }
    return result;
}

/// Parses a type name as clGetKernelArgInfo reports it ("float4*", "struct Particle*", "uint").
constexpr ParamResult parse_type_name(std::string_view type_name) noexcept {
    Lexer lex(type_name);
    ParamResult result = parse_param(lex);
    if (result.error == SignatureError::none && lex.next().kind != TokenKind::end) {
        result.error = SignatureError::unexpected_token;
    }
    return result;
}

struct LineColumn {
    int line = 1;
    int column = 1;
};

/// The 1-based line and column of `offset` in `text` (for compile-time error reports).
constexpr LineColumn line_column(std::string_view text, std::size_t offset) noexcept {
    LineColumn at;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++at.line;
            at.column = 1;
        } else {
            ++at.column;
        }
    }
    return at;
}

/// True if `text` has a `#define name` directive (to tell a type macro from a missing typedef).
constexpr bool defines_macro(std::string_view text, std::string_view name) noexcept {
    std::size_t at = 0;
    const auto skip_blanks = [&] {
        while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) {
            ++at;
        }
    };
    while (at < text.size()) {
        skip_blanks();
        if (at < text.size() && text[at] == '#') {
            ++at;
            skip_blanks();
            if (text.substr(at, 6) == "define") {
                at += 6;
                skip_blanks();
                std::size_t end = at;
                while (end < text.size() && is_identifier_char(text[end])) {
                    ++end;
                }
                if (text.substr(at, end - at) == name) {
                    return true;
                }
            }
        }
        while (at < text.size() && text[at] != '\n') {
            ++at;
        }
        ++at;
    }
    return false;
}

// ---------------------------------------------------------------------------------------------
// Host types: the cl_* type of each OpenCL C built-in type, and back.

template <Scalar S, unsigned Width>
struct HostTypeOf {
    using type = void;
};

#define OPENCLAW_HOST_TYPES(SCALAR, CL)     \
    template <>                             \
    struct HostTypeOf<Scalar::SCALAR, 1> {  \
        using type = CL;                    \
    };                                      \
    template <>                             \
    struct HostTypeOf<Scalar::SCALAR, 2> {  \
        using type = CL##2;                 \
    };                                      \
    template <>                             \
    struct HostTypeOf<Scalar::SCALAR, 3> {  \
        using type = CL##3;                 \
    };                                      \
    template <>                             \
    struct HostTypeOf<Scalar::SCALAR, 4> {  \
        using type = CL##4;                 \
    };                                      \
    template <>                             \
    struct HostTypeOf<Scalar::SCALAR, 8> {  \
        using type = CL##8;                 \
    };                                      \
    template <>                             \
    struct HostTypeOf<Scalar::SCALAR, 16> { \
        using type = CL##16;                \
    };

OPENCLAW_HOST_TYPES(char_, cl_char)
OPENCLAW_HOST_TYPES(uchar, cl_uchar)
OPENCLAW_HOST_TYPES(short_, cl_short)
OPENCLAW_HOST_TYPES(ushort, cl_ushort)
OPENCLAW_HOST_TYPES(int_, cl_int)
OPENCLAW_HOST_TYPES(uint, cl_uint)
OPENCLAW_HOST_TYPES(long_, cl_long)
OPENCLAW_HOST_TYPES(ulong, cl_ulong)
OPENCLAW_HOST_TYPES(half, cl_half)
OPENCLAW_HOST_TYPES(float_, cl_float)
OPENCLAW_HOST_TYPES(double_, cl_double)

#undef OPENCLAW_HOST_TYPES

template <Scalar S, unsigned Width>
using host_type_t = typename HostTypeOf<S, Width>::type;

/// An OpenCL C type as the host sees it: a built-in scalar or vector, or a user type.
struct TypeCode {
    Scalar scalar = Scalar::none;
    unsigned char width = 1;
};

template <class T, Scalar S>
consteval unsigned char vector_width_of() {
    // cl_float3 is cl_float4 (3-component vectors are 4 wide in memory): width 4 covers both.
    if constexpr (std::is_same_v<T, host_type_t<S, 1>>) {
        return 1;
    } else if constexpr (std::is_same_v<T, host_type_t<S, 2>>) {
        return 2;
    } else if constexpr (std::is_same_v<T, host_type_t<S, 4>>) {
        return 4;
    } else if constexpr (std::is_same_v<T, host_type_t<S, 8>>) {
        return 8;
    } else if constexpr (std::is_same_v<T, host_type_t<S, 16>>) {
        return 16;
    } else {
        return 0;
    }
}

/// The OpenCL C type whose host twin is T: cl_uint -> uint, cl_float4 -> float4; classes and
/// enums are user types. Plain `char` counts as OpenCL's char (signed, like cl_char), and the
/// other host spellings of the same integer (long long for cl_long) are accepted by size.
template <class T>
consteval TypeCode host_type_code() {
    if constexpr (std::is_same_v<T, char>) {
        return {Scalar::char_, 1};
    } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool> && sizeof(T) == 8 &&
                         !std::is_same_v<T, cl_long> && !std::is_same_v<T, cl_ulong>) {
        return {std::is_signed_v<T> ? Scalar::long_ : Scalar::ulong, 1};
    } else {
        constexpr Scalar candidates[] = {Scalar::char_,  Scalar::uchar,  Scalar::short_,
                                         Scalar::ushort, Scalar::int_,   Scalar::uint,
                                         Scalar::long_,  Scalar::ulong,  Scalar::half,
                                         Scalar::float_, Scalar::double_};
        constexpr unsigned char widths[] = {
            vector_width_of<T, Scalar::char_>(),  vector_width_of<T, Scalar::uchar>(),
            vector_width_of<T, Scalar::short_>(), vector_width_of<T, Scalar::ushort>(),
            vector_width_of<T, Scalar::int_>(),   vector_width_of<T, Scalar::uint>(),
            vector_width_of<T, Scalar::long_>(),  vector_width_of<T, Scalar::ulong>(),
            vector_width_of<T, Scalar::half>(),   vector_width_of<T, Scalar::float_>(),
            vector_width_of<T, Scalar::double_>()};
        for (std::size_t i = 0; i < std::size(candidates); ++i) {
            if (widths[i] != 0) {
                return {candidates[i], widths[i]};  // cl_half is cl_ushort: ushort comes first
            }
        }
        return {Scalar::user, 1};
    }
}

constexpr std::size_t scalar_size(Scalar scalar) noexcept {
    switch (scalar) {
        case Scalar::char_:
        case Scalar::uchar:
            return 1;
        case Scalar::short_:
        case Scalar::ushort:
        case Scalar::half:
            return 2;
        case Scalar::int_:
        case Scalar::uint:
        case Scalar::float_:
            return 4;
        case Scalar::long_:
        case Scalar::ulong:
        case Scalar::double_:
            return 8;
        default:
            return 0;
    }
}

/// Bytes of a built-in type on the device (3-component vectors take 4 components' room).
constexpr std::size_t builtin_size(Scalar scalar, unsigned width) noexcept {
    return scalar_size(scalar) * (width == 3 ? 4 : width);
}

constexpr std::string_view scalar_name(Scalar scalar) noexcept {
    switch (scalar) {
        case Scalar::char_:
            return "char";
        case Scalar::uchar:
            return "uchar";
        case Scalar::short_:
            return "short";
        case Scalar::ushort:
            return "ushort";
        case Scalar::int_:
            return "int";
        case Scalar::uint:
            return "uint";
        case Scalar::long_:
            return "long";
        case Scalar::ulong:
            return "ulong";
        case Scalar::half:
            return "half";
        case Scalar::float_:
            return "float";
        case Scalar::double_:
            return "double";
        default:
            return "";
    }
}

/// Whether a host element of `host` type (`host_size` bytes) fits a kernel's `kernel` type.
/// Names the driver reports that are not built-in types (typedefs, structs) cannot be compared
/// with a host type, so they fit: only a provable difference is a mismatch.
constexpr bool element_fits(TypeCode host, std::size_t host_size,
                            const ParamDecl& kernel) noexcept {
    switch (kernel.scalar) {
        case Scalar::user:
        case Scalar::void_:
        case Scalar::none:
            return true;
        case Scalar::image:
        case Scalar::sampler:
        case Scalar::pipe:
        case Scalar::opaque:
            return false;
        default:
            break;
    }
    if (scalar_size(kernel.scalar) == 0) {
        return true;  // bool, size_t...: the driver's compiler already refused the kernel
    }
    if (host.scalar == Scalar::user) {
        // A host struct standing for a built-in type (struct Vec4 for float4) must match in size.
        return host_size == builtin_size(kernel.scalar, kernel.width);
    }
    const bool same_scalar = host.scalar == kernel.scalar ||
                             (kernel.width == 1 && host.width == 1 &&
                              ((host.scalar == Scalar::ushort && kernel.scalar == Scalar::half) ||
                               (host.scalar == Scalar::half && kernel.scalar == Scalar::ushort)));
    const bool same_width = host.width == kernel.width || (host.width == 4 && kernel.width == 3);
    return same_scalar && same_width;
}

/// "cl_float4", or "a 12-byte user type" for classes.
inline std::string host_type_name(TypeCode code, std::size_t size) {
    if (code.scalar == Scalar::user || scalar_name(code.scalar).empty()) {
        return concat("T (a ", size, "-byte class or enum)");
    }
    return code.width == 1 ? concat("cl_", scalar_name(code.scalar))
                           : concat("cl_", scalar_name(code.scalar), static_cast<int>(code.width));
}

// ---------------------------------------------------------------------------------------------
// Run time: the driver's view of each argument (clGetKernelArgInfo), compared with the C++ side.

/// What the driver reports about one kernel argument. Parts it does not report stay unknown:
/// everything for programs built without -cl-kernel-arg-info, names on some drivers.
struct ArgInfo {
    bool known_space = false;
    AddressSpace space = AddressSpace::unspecified;
    bool known_const = false;
    bool is_const = false;
    bool known_type = false;
    ParamDecl type;         // parsed from type_name by the signature parser
    std::string type_name;  // as reported, e.g. "float4*"
    std::string name;       // empty when not reported

    bool known() const noexcept { return known_space || known_type; }

    /// The declaration as far as it is known, e.g. "__global const float* a".
    std::string declaration() const {
        std::string text;
        if (known_space) {
            text += space == AddressSpace::global     ? "__global "
                    : space == AddressSpace::constant ? "__constant "
                    : space == AddressSpace::local    ? "__local "
                                                      : "";
        }
        if (known_const && is_const && (space == AddressSpace::global || !known_space)) {
            text += "const ";
        }
        text += known_type
                    ? type_name
                    : std::string(known_space && space != AddressSpace::private_ ? "pointer"
                                                                                 : "parameter");
        if (!name.empty()) {
            text += ' ';
            text += name;
        }
        return text;
    }
};

inline cl_int query_arg_string(cl_kernel kernel, cl_uint index, cl_kernel_arg_info param,
                               std::string& out) {
    std::size_t bytes = 0;
    cl_int code = InfoQuery<KernelArgInfo>::get(kernel, index, param, 0, nullptr, &bytes);
    if (code != CL_SUCCESS) {
        return code;
    }
    out.assign(bytes, '\0');
    if (bytes != 0) {
        code = InfoQuery<KernelArgInfo>::get(kernel, index, param, bytes, out.data(), nullptr);
    }
    while (!out.empty() && out.back() == '\0') {
        out.pop_back();
    }
    return code;
}

/// Reads what the driver says about argument `index`. Any query that fails (typically with
/// CL_KERNEL_ARG_INFO_NOT_AVAILABLE) leaves its part unknown: the checks that need it are skipped.
inline ArgInfo query_arg_info(cl_kernel kernel, cl_uint index) {
    ArgInfo info;
    cl_kernel_arg_address_qualifier address = 0;
    if (InfoQuery<KernelArgInfo>::get(kernel, index, CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                                      sizeof(address), &address, nullptr) == CL_SUCCESS) {
        info.known_space = true;
        info.space = address == CL_KERNEL_ARG_ADDRESS_GLOBAL     ? AddressSpace::global
                     : address == CL_KERNEL_ARG_ADDRESS_CONSTANT ? AddressSpace::constant
                     : address == CL_KERNEL_ARG_ADDRESS_LOCAL    ? AddressSpace::local
                                                                 : AddressSpace::private_;
    }
    cl_kernel_arg_type_qualifier qualifier = 0;
    if (InfoQuery<KernelArgInfo>::get(kernel, index, CL_KERNEL_ARG_TYPE_QUALIFIER,
                                      sizeof(qualifier), &qualifier, nullptr) == CL_SUCCESS) {
        info.known_const = true;
        info.is_const = (qualifier & CL_KERNEL_ARG_TYPE_CONST) != 0;
    }
    if (query_arg_string(kernel, index, CL_KERNEL_ARG_TYPE_NAME, info.type_name) == CL_SUCCESS &&
        !info.type_name.empty()) {
        const ParamResult parsed = parse_type_name(info.type_name);
        // A name the parser does not understand is not compared: never a false error.
        info.known_type = parsed.error == SignatureError::none;
        info.type = parsed.decl;
    }
    if (query_arg_string(kernel, index, CL_KERNEL_ARG_NAME, info.name) != CL_SUCCESS) {
        info.name.clear();
    }
    return info;
}

/// A typed kernel's C++ parameter, as far as the comparison with the driver needs it.
struct HostParam {
    ParamKind kind = ParamKind::scalar;
    TypeCode element;
    std::size_t element_size = 0;
};

template <class P>
consteval HostParam host_param() {
    using E = typename ParamTraits<P>::element_type;
    return {ParamTraits<P>::kind, host_type_code<E>(), sizeof(E)};
}

inline std::string host_param_name(const HostParam& param) {
    const std::string element = host_type_name(param.element, param.element_size);
    switch (param.kind) {
        case ParamKind::in:
            return concat("In<", element, ">");
        case ParamKind::out:
            return concat("Out<", element, ">");
        case ParamKind::in_out:
            return concat("InOut<", element, ">");
        case ParamKind::constant:
            return concat("Constant<", element, ">");
        case ParamKind::local:
            return concat("Local<", element, ">");
        default:
            return element;
    }
}

constexpr bool is_unsupported_object(const ArgInfo& info) noexcept {
    return info.known_type &&
           (info.type.scalar == Scalar::image || info.type.scalar == Scalar::sampler ||
            info.type.scalar == Scalar::pipe || info.type.scalar == Scalar::opaque);
}

/// Why `info` (the driver's view) does not fit `param` (the C++ signature's); empty if it fits
/// or if too little is known to tell.
inline std::string param_mismatch(const HostParam& param, const ArgInfo& info) {
    if (is_unsupported_object(info)) {
        return "images, samplers and pipes are not supported by openclaw yet";
    }
    const AddressSpace expected = param.kind == ParamKind::scalar     ? AddressSpace::private_
                                  : param.kind == ParamKind::local    ? AddressSpace::local
                                  : param.kind == ParamKind::constant ? AddressSpace::constant
                                                                      : AddressSpace::global;
    if (info.known_space && info.space != expected) {
        return "the address spaces differ (In/Out/InOut<T> are __global pointers, Constant<T> "
               "__constant, Local<T> __local, other types are passed by value)";
    }
    const bool pointer = param.kind != ParamKind::scalar;
    if (!info.known_space && info.known_type && (info.type.pointers > 0) != pointer) {
        return pointer ? "the kernel takes a value, the C++ signature a pointer"
                       : "the kernel takes a pointer, the C++ signature a value";
    }
    if (info.known_const && expected == AddressSpace::global) {
        if (param.kind == ParamKind::in && !info.is_const) {
            return "the kernel's pointer is not const, so the kernel may write through it: "
                   "declare Out<T> or InOut<T>, or make the kernel's parameter const";
        }
        if (param.kind != ParamKind::in && info.is_const) {
            return "the kernel's pointer is const (the kernel only reads through it): declare "
                   "In<T>";
        }
    }
    if (info.known_type && !element_fits(param.element, param.element_size, info.type)) {
        return pointer ? "the element types differ" : "the types differ";
    }
    return {};
}

/// Compares each C++ parameter with the driver's arg info; throws CL_INVALID_KERNEL_ARGS naming
/// the first that differs. Returns at once when the driver has no arg info for the kernel.
inline void verify_params(cl_kernel kernel, const HostParam* params, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
        const ArgInfo info = query_arg_info(kernel, static_cast<cl_uint>(i));
        if (!info.known()) {
            return;  // no arg info for this kernel (the driver answers alike for all arguments)
        }
        std::string reason = param_mismatch(params[i], info);
        if (!reason.empty()) {
            throw_error(CL_INVALID_KERNEL_ARGS, "clCreateKernel",
                        concat("kernel \"", get_info<cl_kernel, CL_KERNEL_FUNCTION_NAME>(kernel),
                               "\", argument ", i,
                               info.name.empty() ? std::string() : concat(" (\"", info.name, "\")"),
                               ": the C++ signature declares ", host_param_name(params[i]),
                               ", the kernel declares ", info.declaration(), ": ", reason));
        }
    }
}

/// An argument given to DynamicKernel::set_args, as far as the comparison with the driver
/// needs it.
struct HostArg {
    enum class Form { value, local, buffer };
    Form form = Form::value;
    bool kernel_reads = false;  // for buffers: what the access tag allows kernels
    bool kernel_writes = false;
    const char* access = "";
    TypeCode element;
    std::size_t element_size = 0;
};

template <class A>
consteval HostArg host_arg() {
    if constexpr (is_buffer<A>) {
        using T = typename A::value_type;
        using Access = typename A::access_type;
        return {HostArg::Form::buffer, Access::kernel_reads, Access::kernel_writes,
                Access::name,          host_type_code<T>(),  sizeof(T)};
    } else if constexpr (is_local_mem<A>) {
        using T = typename A::value_type;
        return {HostArg::Form::local, false, false, "", host_type_code<T>(), sizeof(T)};
    } else {
        return {HostArg::Form::value, false, false, "", host_type_code<A>(), sizeof(A)};
    }
}

inline std::string host_arg_name(const HostArg& arg) {
    const std::string element = host_type_name(arg.element, arg.element_size);
    switch (arg.form) {
        case HostArg::Form::buffer:
            return concat("Buffer<", element, ", ", arg.access, ">");
        case HostArg::Form::local:
            return concat("LocalMem<", element, ">");
        default:
            return element;
    }
}

/// Why argument `arg` does not fit the kernel's parameter as the driver describes it (empty if it
/// fits or too little is known); `code` receives the OpenCL code to report.
inline std::string argument_mismatch(const HostArg& arg, const ArgInfo& info, cl_int& code) {
    code = CL_INVALID_ARG_VALUE;
    if (is_unsupported_object(info)) {
        return "images, samplers and pipes are not supported by openclaw yet";
    }
    if (info.known_space) {
        const bool buffer_space =
            info.space == AddressSpace::global || info.space == AddressSpace::constant;
        if (arg.form == HostArg::Form::buffer && !buffer_space) {
            return info.space == AddressSpace::local
                       ? "the parameter is __local: pass LocalMem<T>{count}"
                       : "the parameter is a value: a buffer cannot be passed";
        }
        if (arg.form == HostArg::Form::local && info.space != AddressSpace::local) {
            return "the parameter is not __local: LocalMem cannot be passed";
        }
        if (arg.form == HostArg::Form::value && info.space != AddressSpace::private_) {
            return info.space == AddressSpace::local
                       ? "the parameter is __local: pass LocalMem<T>{count}"
                       : "the parameter is a __global/__constant pointer: pass a Buffer";
        }
        if (arg.form == HostArg::Form::buffer) {
            const bool kernel_only_reads =
                info.space == AddressSpace::constant || (info.known_const && info.is_const);
            if (kernel_only_reads && !arg.kernel_reads) {
                return "the kernel reads this parameter: a WriteOnly buffer cannot be passed, use "
                       "ReadOnly or ReadWrite";
            }
            if (info.space == AddressSpace::global && info.known_const && !info.is_const &&
                !arg.kernel_writes) {
                return "the kernel's pointer is not const, so the kernel may write through it: a "
                       "ReadOnly buffer cannot be passed, use WriteOnly or ReadWrite (or make the "
                       "kernel's parameter const)";
            }
        }
    } else if (info.known_type && (info.type.pointers > 0) != (arg.form != HostArg::Form::value)) {
        return info.type.pointers > 0 ? "the parameter is a pointer: pass a Buffer or LocalMem"
                                      : "the parameter is a value: pass a value";
    }
    if (info.known_type && !element_fits(arg.element, arg.element_size, info.type)) {
        if (arg.form == HostArg::Form::value) {
            const std::size_t size = builtin_size(info.type.scalar, info.type.width);
            if (size != 0 && size != arg.element_size) {
                code = CL_INVALID_ARG_SIZE;
                return concat("the kernel's type takes ", size, " bytes, the argument ",
                              arg.element_size, ": convert it explicitly");
            }
            return "the types differ: convert the argument explicitly";
        }
        return "the element types differ";
    }
    return {};
}

// ---------------------------------------------------------------------------------------------
// Compile time: from a parsed signature to Kernel<...>, and the reports when that fails.

/// The pieces of a compile-time report; the compiler prints them as template arguments, e.g.
/// `kernel_name<'a', 'd', 'd'>`, `parameter<'n'>`, `at_line_column<3, 17>`, `near<'R', 'E'>`.
template <char... Chars>
struct kernel_name {};
template <char... Chars>
struct parameter {};
template <char... Chars>
struct near {};
template <int Line, int Column>
struct at_line_column {};

template <template <char...> class Wrap, const Signature& Sig, std::size_t Begin, std::size_t... I>
consteval auto text_as_chars(std::index_sequence<I...>) {
    return std::type_identity<Wrap<Sig.text[Begin + I]...>>{};
}
template <FixedString Name, std::size_t... I>
consteval auto kernel_name_of(std::index_sequence<I...>) {
    return std::type_identity<kernel_name<Name.chars[I]...>>{};
}

template <template <char...> class Wrap, const Signature& Sig, std::size_t Begin, std::size_t Size>
using chars_t = typename decltype(text_as_chars<Wrap, Sig, Begin>(
    std::make_index_sequence<(Size < 40 ? Size : 40)>{}))::type;

// One static_assert per reason; a static_assert message must be a literal, so the kernel's
// name, the parameter and the position travel in the template arguments the compiler prints.
template <SignatureError E, class Kernel, class Parameter, class Position, class Near>
constexpr void report_signature_error() {
    static_assert(E != SignatureError::kernel_not_found,
                  "kernel signature: the source declares no kernel of this name (kernels "
                  "declared through macros are not seen): check the name, or use the "
                  "hand-written program.kernel<Params...>(name)");
    static_assert(E != SignatureError::unexpected_token,
                  "kernel signature: cannot parse the parameter list at the position shown "
                  "(macros in a signature are not expanded): use the hand-written "
                  "program.kernel<Params...>(name)");
    static_assert(E != SignatureError::unterminated,
                  "kernel signature: the parameter list is not closed before the end of the "
                  "source");
    static_assert(E != SignatureError::too_many_parameters,
                  "kernel signature: the kernel has more than 128 parameters");
    static_assert(E != SignatureError::missing_type, "kernel signature: a parameter has no type");
    static_assert(E != SignatureError::forbidden_type,
                  "kernel signature: bool, size_t, ptrdiff_t, intptr_t and uintptr_t are not "
                  "valid kernel parameter types (OpenCL C forbids them: their size differs "
                  "between host and device); use int, uint, long or ulong");
    static_assert(E != SignatureError::image_type,
                  "kernel signature: images, samplers and pipes are not supported by openclaw "
                  "yet; set such arguments with clSetKernelArg on kernel.get()");
    static_assert(E != SignatureError::void_pointer,
                  "kernel signature: a void pointer has no element type; use the hand-written "
                  "program.kernel<Params...>(name) with In<T>/Out<T> of the element you pass");
    static_assert(E != SignatureError::unsupported_type,
                  "kernel signature: this parameter type has no host type in openclaw (long "
                  "long, event_t, queue_t, ...)");
    static_assert(E != SignatureError::pointer_address_space,
                  "kernel signature: a pointer parameter of a kernel must point to __global, "
                  "__constant or __local memory");
    static_assert(E != SignatureError::value_address_space,
                  "kernel signature: a by-value parameter cannot be __global, __constant or "
                  "__local (did you mean a pointer?)");
    static_assert(E != SignatureError::pointer_to_pointer,
                  "kernel signature: pointers to pointers cannot be kernel parameters");
    static_assert(E != SignatureError::array_parameter,
                  "kernel signature: arrays cannot be kernel parameters; pass a buffer");
    static_assert(E != SignatureError::conflicting_declarations,
                  "kernel signature: the kernel is declared more than once with different "
                  "parameters (#if/#ifdef are not evaluated); use the hand-written "
                  "program.kernel<Params...>(name)");
    static_assert(E != SignatureError::unknown_type,
                  "kernel signature: no host type for this OpenCL C type name; specialise "
                  "openclaw::opencl_type<\"Name\"> with `using type = YourHostType;`");
    static_assert(E != SignatureError::macro_type,
                  "kernel signature: the parameter's type is a macro #defined in the source "
                  "(macros are not expanded); specialise openclaw::opencl_type<\"MACRO\"> or use "
                  "the hand-written program.kernel<Params...>(name)");
}

/// The signature of kernel Name in Source (a constant convertible to std::string_view: a char
/// array, a `const char*` to a literal, a std::string_view, a FixedString).
template <const auto& Source, FixedString Name>
inline constexpr Signature signature_of = parse_kernel_signature(std::string_view(Source),
                                                                 Name.view());

template <const Signature& Sig, std::size_t I>
consteval FixedString<Sig.params[I].type_size + 1> user_type_name() {
    return FixedString<Sig.params[I].type_size + 1>(Sig.type_of(I));
}

template <FixedString Name>
concept has_opencl_type = requires {
    typename opencl_type<Name>::type;
};

template <const Signature& Sig, std::size_t I>
consteval bool has_host_type() {
    constexpr ParamDecl decl = Sig.params[I];
    if constexpr (decl.scalar == Scalar::user) {
        return has_opencl_type<user_type_name<Sig, I>()>;
    } else {
        return !std::is_void_v<host_type_t<decl.scalar, decl.width>>;
    }
}

template <const Signature& Sig, std::size_t I>
consteval auto element_type() {
    constexpr ParamDecl decl = Sig.params[I];
    if constexpr (decl.scalar == Scalar::user) {
        return std::type_identity<typename opencl_type<user_type_name<Sig, I>()>::type>{};
    } else {
        return std::type_identity<host_type_t<decl.scalar, decl.width>>{};
    }
}

template <const Signature& Sig, std::size_t I>
consteval auto parameter_type() {
    constexpr ParamDecl decl = Sig.params[I];
    using Element = typename decltype(element_type<Sig, I>())::type;
    if constexpr (decl.pointers == 0) {
        return std::type_identity<Element>{};
    } else if constexpr (decl.space == AddressSpace::constant) {
        return std::type_identity<Constant<Element>>{};
    } else if constexpr (decl.space == AddressSpace::local) {
        return std::type_identity<Local<Element>>{};
    } else if constexpr (decl.is_const) {
        return std::type_identity<In<Element>>{};
    } else {
        return std::type_identity<Out<Element>>{};
    }
}

template <const Signature& Sig, std::size_t... I>
consteval std::size_t first_without_host_type(std::index_sequence<I...>) {
    std::size_t first = Sig.count;
    ((first == Sig.count && !has_host_type<Sig, I>() ? first = I : first), ...);
    return first;
}

template <const Signature& Sig, FixedString Name, SignatureError E, std::size_t Param, Token At>
constexpr void report_at() {
    constexpr LineColumn where = line_column(Sig.text, At.begin);
    constexpr ParamDecl decl = Param < max_kernel_params ? Sig.params[Param] : ParamDecl{};
    report_signature_error<
        E, typename decltype(kernel_name_of<Name>(std::make_index_sequence<Name.size()>{}))::type,
        chars_t<parameter, Sig, decl.name_begin, decl.name_size>,
        at_line_column<where.line, where.column>, chars_t<near, Sig, At.begin, At.size>>();
}

/// The Kernel<...> that kernel Name of Source declares; on failure a compile-time report and
/// DynamicKernel (whose set_args accepts anything, so that one report is all the user sees).
template <const Signature& Sig, FixedString Name>
consteval auto source_kernel() {
    if constexpr (!Sig.ok()) {
        report_at<Sig, Name, Sig.error, Sig.error_param, Sig.error_at>();
        return std::type_identity<DynamicKernel>{};
    } else {
        constexpr std::size_t missing =
            first_without_host_type<Sig>(std::make_index_sequence<Sig.count>{});
        if constexpr (missing != Sig.count) {
            constexpr ParamDecl decl = Sig.params[missing];
            constexpr bool macro = defines_macro(Sig.text, Sig.type_of(missing));
            constexpr Token type{TokenKind::identifier, decl.type_begin, decl.type_size};
            report_at<Sig, Name, macro ? SignatureError::macro_type : SignatureError::unknown_type,
                      missing, type>();
            return std::type_identity<DynamicKernel>{};
        } else {
            return []<std::size_t... I>(std::index_sequence<I...>) {
                return std::type_identity<
                    Kernel<typename decltype(parameter_type<Sig, I>())::type...>>{};
            }
            (std::make_index_sequence<Sig.count>{});
        }
    }
}

template <const auto& Source, auto Name>  // Name: a FixedString (see program.hpp)
struct SourceKernel {
    static constexpr bool is_text = std::is_convertible_v<decltype(Source), std::string_view>;
    static_assert(is_text,
                  "program.kernel<source, name>(): the source must be a constant that converts "
                  "to std::string_view (a char array, a const char* to a literal, a "
                  "std::string_view or a FixedString)");
    static consteval auto kernel() {
        if constexpr (is_text) {
            return source_kernel<signature_of<Source, Name>, Name>();
        } else {
            return std::type_identity<DynamicKernel>{};
        }
    }
    using type = typename decltype(kernel())::type;
};

}  // namespace detail

/// The Kernel<...> type that kernel Name of Source declares, e.g.
/// `openclaw::kernel_t<vadd_source, "vector_add">` for a member or a function's return type.
template <const auto& Source, FixedString Name>
using kernel_t = typename detail::SourceKernel<Source, Name>::type;

}  // namespace openclaw
