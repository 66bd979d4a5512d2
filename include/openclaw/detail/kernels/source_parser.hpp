// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// The OpenCL C source parser (kernels layer): a constexpr lexer, the parser of kernel parameter
// lists and the scan of kernel bodies for writes through pointer parameters. The signature wing
// (signature.hpp) types kernels from it at compile time; kernel creation (impl/kernel.ipp) runs
// the same body scan at run time, so that a kernel made from source refuses In<T> for a pointer
// its body writes, whichever headers a unit includes.

#include <openclaw/config.hpp>
#include <openclaw/detail/kernels/types.hpp>

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

OPENCLAW_BEGIN_NAMESPACE
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

// Character classes as one table, so that the scanning loops below test one entry per character
// in their condition and have a single increment as their body. Compilers count constexpr
// evaluation by statements and calls (clang's default budget is 2^20 steps per constant); these
// loops cost about three steps per character, a token-by-token scan costs about fifty per token.
enum CharClass : unsigned char {
    identifier_char = 1,  // letters, digits, '_'
    blank = 2,            // whitespace other than '\n'
    block_stop = 4,       // what a function body's scan must look at: { } / \ " ' #
    punctuation_char = 8,
};

struct CharClasses {
    unsigned char of[256] = {};
};

inline constexpr CharClasses char_classes = [] {
    CharClasses table;
    for (int c = 0; c < 256; ++c) {
        const char ch = static_cast<char>(c);
        table.of[c] = static_cast<unsigned char>(
            (is_identifier_char(ch) ? identifier_char : 0) |
            ((ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v') ? blank : 0));
    }
    for (const char ch : std::string_view("{}/\\\"'#")) {
        table.of[static_cast<unsigned char>(ch)] |= block_stop;
    }
    for (const char ch : std::string_view("(){}[],;*<>=&|+-/%!~?:^.#")) {
        table.of[static_cast<unsigned char>(ch)] |= punctuation_char;
    }
    return table;
}();

class Lexer {
  public:
    constexpr explicit Lexer(std::string_view text) noexcept
        : text_(text), data_(text.data()), size_(text.size()) {}
    /// A lexer resuming at `position`, which is not at the start of a line.
    constexpr Lexer(std::string_view text, std::size_t position) noexcept
        : text_(text),
          data_(text.data()),
          size_(text.size()),
          pos_(position),
          line_start_(position == 0) {}

    constexpr Token next() noexcept {
        skip_blanks();
        const std::size_t n = size_;
        if (pos_ >= n) {
            return {TokenKind::end, n, 0};
        }
        const std::size_t begin = pos_;
        const char c = data_[pos_];
        line_start_ = false;
        TokenKind kind = TokenKind::other;
        if (is_identifier_start(c)) {
            kind = TokenKind::identifier;
            ++pos_;
            while (pos_ < n && (char_classes.of[static_cast<unsigned char>(data_[pos_])] &
                                identifier_char) != 0) {
                ++pos_;
            }
        } else if (is_digit(c) || (c == '.' && pos_ + 1 < n && is_digit(data_[pos_ + 1]))) {
            kind = TokenKind::number;
            ++pos_;
            while (pos_ < n) {
                const char d = data_[pos_];
                const char before = data_[pos_ - 1];
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
            skip_literal();
        } else {
            kind = (char_classes.of[static_cast<unsigned char>(c)] & punctuation_char) != 0
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

    /// Skips the rest of a `{ ... }` block whose `{` was just read, nested blocks, comments,
    /// literals and directives included. Function bodies are most of a source and are not
    /// tokenized: one loop runs to the next character that can matter.
    constexpr void skip_block() noexcept {
        const std::size_t n = size_;
        std::size_t depth = 1;
        for (;;) {
            while (pos_ < n &&
                   (char_classes.of[static_cast<unsigned char>(data_[pos_])] & block_stop) == 0) {
                ++pos_;
            }
            if (pos_ >= n) {
                return;
            }
            const char c = data_[pos_];
            if (c == '}') {
                ++pos_;
                if (--depth == 0) {
                    line_start_ = false;
                    return;
                }
            } else if (c == '{') {
                ++pos_;
                ++depth;
            } else if (c == '"' || c == '\'') {
                skip_literal();
            } else if (c == '#') {
                if (only_blanks_before(pos_)) {
                    skip_line();
                } else {
                    ++pos_;
                }
            } else if (c == '/' && pos_ + 1 < n && data_[pos_ + 1] == '/') {
                skip_line();
            } else if (c == '/' && pos_ + 1 < n && data_[pos_ + 1] == '*') {
                skip_block_comment();
            } else if (splice_at(pos_)) {
                skip_splice();
            } else {
                ++pos_;  // a division or a stray backslash
            }
        }
    }

    constexpr std::size_t position() const noexcept { return pos_; }
    constexpr std::string_view text(Token token) const noexcept {
        return text_.substr(token.begin, token.size);
    }
    constexpr bool is(Token token, char punctuation) const noexcept {
        return token.kind == TokenKind::punctuation && data_[token.begin] == punctuation;
    }
    /// The first character of a token (cheaper than text(token) in the scanning loops).
    constexpr char first_char(Token token) const noexcept { return data_[token.begin]; }
    constexpr bool is(Token token, std::string_view identifier) const noexcept {
        return token.kind == TokenKind::identifier && token.size == identifier.size() &&
               text(token) == identifier;
    }

  private:
    constexpr bool splice_at(std::size_t at) const noexcept {
        return data_[at] == '\\' && at + 1 < size_ &&
               (data_[at + 1] == '\n' || data_[at + 1] == '\r');
    }
    constexpr void skip_splice() noexcept {
        pos_ += 2;
        if (data_[pos_ - 1] == '\r' && pos_ < size_ && data_[pos_] == '\n') {
            ++pos_;
        }
    }
    // Whether only blanks precede `at` on its line (a '#' there starts a directive).
    constexpr bool only_blanks_before(std::size_t at) const noexcept {
        while (at > 0 &&
               (char_classes.of[static_cast<unsigned char>(data_[at - 1])] & blank) != 0) {
            --at;
        }
        return at == 0 || data_[at - 1] == '\n';
    }
    // A string or character literal; an unterminated one ends at the end of its line.
    constexpr void skip_literal() noexcept {
        const std::size_t n = size_;
        const char quote = data_[pos_++];
        for (;;) {
            while (pos_ < n && data_[pos_] != quote && data_[pos_] != '\\' && data_[pos_] != '\n') {
                ++pos_;
            }
            if (pos_ >= n || data_[pos_] == '\n') {
                return;
            }
            if (data_[pos_] == quote) {
                ++pos_;
                return;
            }
            pos_ = pos_ + 2 < n ? pos_ + 2 : n;  // an escape
        }
    }
    // To the end of the line (not consuming the newline), following line splices.
    constexpr void skip_line() noexcept {
        const std::size_t n = size_;
        for (;;) {
            while (pos_ < n && data_[pos_] != '\n' && data_[pos_] != '\\') {
                ++pos_;
            }
            if (pos_ >= n || data_[pos_] == '\n') {
                return;
            }
            if (splice_at(pos_)) {
                skip_splice();
            } else {
                ++pos_;
            }
        }
    }
    constexpr void skip_block_comment() noexcept {
        const std::size_t n = size_;
        pos_ += 2;
        while (pos_ + 1 < n && !(data_[pos_] == '*' && data_[pos_ + 1] == '/')) {
            ++pos_;
        }
        pos_ = pos_ + 2 <= n ? pos_ + 2 : n;
    }

    // Whitespace, comments, line splices and whole preprocessor directives.
    constexpr void skip_blanks() noexcept {
        const std::size_t n = size_;
        while (pos_ < n) {
            while (pos_ < n &&
                   (char_classes.of[static_cast<unsigned char>(data_[pos_])] & blank) != 0) {
                ++pos_;
            }
            if (pos_ >= n) {
                return;
            }
            const char c = data_[pos_];
            if (c == '\n') {
                line_start_ = true;
                ++pos_;
            } else if (c == '/' && pos_ + 1 < n && data_[pos_ + 1] == '/') {
                skip_line();
            } else if (c == '/' && pos_ + 1 < n && data_[pos_ + 1] == '*') {
                skip_block_comment();
            } else if (c == '#' && line_start_) {
                skip_line();
            } else if (c == '\\' && splice_at(pos_)) {
                skip_splice();
            } else {
                return;
            }
        }
    }

    std::string_view text_;
    const char* data_;  // text_.data(): indexing it is not a function call
    std::size_t size_;
    std::size_t pos_ = 0;
    bool line_start_ = true;
};

// ---------------------------------------------------------------------------------------------
// Declarations: what one kernel parameter (or one driver-reported type name) says.

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

/// An image parameter's access qualifier (read_only when there is none, as in OpenCL C).
enum class ImageAccess : unsigned char { read_only, write_only, read_write };
/// The image types a kernel parameter may have that openclaw has a descriptor for.
enum class SourceImage : unsigned char { none, image2d, image3d, image2d_array };

constexpr SourceImage source_image(std::string_view type) noexcept {
    return type == "image2d_t"         ? SourceImage::image2d
           : type == "image3d_t"       ? SourceImage::image3d
           : type == "image2d_array_t" ? SourceImage::image2d_array
                                       : SourceImage::none;
}

struct ParamDecl {
    AddressSpace space = AddressSpace::unspecified;
    Scalar scalar = Scalar::none;
    unsigned char width = 1;     // vector components: 1, 2, 3, 4, 8 or 16
    unsigned char pointers = 0;  // levels of `*`
    bool is_const = false;       // the pointed-to (or by-value) object is const
    bool is_volatile = false;
    bool is_restrict = false;
    ImageAccess image_access = ImageAccess::read_only;  // images: the access qualifier
    SourceImage image = SourceImage::none;              // images: which image type
    std::size_t begin = 0;                              // offsets into the parsed text
    std::size_t type_begin = 0;
    std::size_t type_size = 0;  // the type's spelling; for user types the name alone
    std::size_t name_begin = 0;
    std::size_t name_size = 0;

    constexpr bool same_declaration(const ParamDecl& other, std::string_view text,
                                    std::string_view other_text) const noexcept {
        return space == other.space && scalar == other.scalar && width == other.width &&
               pointers == other.pointers && is_const == other.is_const &&
               image_access == other.image_access && image == other.image &&
               (scalar != Scalar::user || text.substr(type_begin, type_size) ==
                                              other_text.substr(other.type_begin, other.type_size));
    }
};

struct ParamResult {
    ParamDecl decl;
    SignatureError error = SignatureError::none;
    Token at;   // where the error is
    Token end;  // the `,` or `)` that ended the declaration, or the end of the text
};

/// What a word of a declaration is.
enum class Word : unsigned char {
    other,  // a name: the parameter's, a typedef's, a struct's, or a macro
    attribute,
    address_space,
    const_,
    volatile_,
    restrict_,
    access,  // read_only, write_only, read_write (images and pipes)
    pipe,
    unsigned_,
    signed_,
    short_,
    long_,
    int_,
    char_,
    tag,      // struct, union, enum
    builtin,  // a one-word type: uint, float4, size_t, image2d_t, ...
};

struct WordInfo {
    Word word = Word::other;
    AddressSpace space = AddressSpace::unspecified;
    Scalar scalar = Scalar::none;
    unsigned char width = 1;
};

constexpr WordInfo builtin_word(Scalar scalar, unsigned char width = 1) noexcept {
    return {Word::builtin, AddressSpace::unspecified, scalar, width};
}
constexpr WordInfo space_word(AddressSpace space) noexcept {
    return {Word::address_space, space, Scalar::none, 1};
}

/// The scalar of a vector type's stem ("float" of float4); none for other words.
constexpr Scalar vector_stem(std::string_view stem) noexcept {
    switch (stem.size()) {
        case 3:
            return stem == "int" ? Scalar::int_ : Scalar::none;
        case 4:
            return stem == "char"   ? Scalar::char_
                   : stem == "uint" ? Scalar::uint
                   : stem == "long" ? Scalar::long_
                   : stem == "half" ? Scalar::half
                                    : Scalar::none;
        case 5:
            return stem == "uchar"   ? Scalar::uchar
                   : stem == "short" ? Scalar::short_
                   : stem == "ulong" ? Scalar::ulong
                   : stem == "float" ? Scalar::float_
                                     : Scalar::none;
        case 6:
            return stem == "ushort"   ? Scalar::ushort
                   : stem == "double" ? Scalar::double_
                                      : Scalar::none;
        default:
            return Scalar::none;
    }
}

/// Classifies one identifier of a declaration. It runs for every word of every parameter at
/// compile time, so it dispatches on the length and the first letter before comparing.
constexpr WordInfo classify(std::string_view w) noexcept {
    const std::size_t n = w.size();
    if (n < 3) {
        return {};
    }
    const char last = w[n - 1];
    if (last >= '0' && last <= '9') {  // a vector type: a stem and 2, 3, 4, 8 or 16
        const bool sixteen = n > 2 && w[n - 2] == '1' && last == '6';
        const std::size_t digits = sixteen ? 2 : 1;
        const bool width_ok = sixteen || last == '2' || last == '3' || last == '4' || last == '8';
        const Scalar scalar = width_ok ? vector_stem(w.substr(0, n - digits)) : Scalar::none;
        return scalar == Scalar::none
                   ? WordInfo{}
                   : builtin_word(scalar, static_cast<unsigned char>(sixteen ? 16 : last - '0'));
    }
    if (w[0] == 'i' && last == 't' && n > 8 && w[n - 2] == '_' && w.substr(0, 5) == "image") {
        return builtin_word(Scalar::image);
    }
    const char c = w[0];
    switch (n) {
        case 3:
            return w == "int" ? WordInfo{Word::int_} : WordInfo{};
        case 4:
            switch (c) {
                case 'c':
                    return w == "char" ? WordInfo{Word::char_} : WordInfo{};
                case 'l':
                    return w == "long" ? WordInfo{Word::long_} : WordInfo{};
                case 'u':
                    return w == "uint" ? builtin_word(Scalar::uint) : WordInfo{};
                case 'h':
                    return w == "half" ? builtin_word(Scalar::half) : WordInfo{};
                case 'v':
                    return w == "void" ? builtin_word(Scalar::void_) : WordInfo{};
                case 'b':
                    return w == "bool" ? builtin_word(Scalar::bool_) : WordInfo{};
                case 'p':
                    return w == "pipe" ? WordInfo{Word::pipe} : WordInfo{};
                case 'e':
                    return w == "enum" ? WordInfo{Word::tag} : WordInfo{};
                default:
                    return {};
            }
        case 5:
            switch (c) {
                case 'c':
                    return w == "const" ? WordInfo{Word::const_} : WordInfo{};
                case 's':
                    return w == "short" ? WordInfo{Word::short_} : WordInfo{};
                case 'u':
                    return w == "uchar"   ? builtin_word(Scalar::uchar)
                           : w == "ulong" ? builtin_word(Scalar::ulong)
                           : w == "union" ? WordInfo{Word::tag}
                                          : WordInfo{};
                case 'f':
                    return w == "float" ? builtin_word(Scalar::float_) : WordInfo{};
                case 'l':
                    return w == "local" ? space_word(AddressSpace::local) : WordInfo{};
                default:
                    return {};
            }
        case 6:
            switch (c) {
                case 'g':
                    return w == "global" ? space_word(AddressSpace::global) : WordInfo{};
                case 's':
                    return w == "signed"   ? WordInfo{Word::signed_}
                           : w == "struct" ? WordInfo{Word::tag}
                           : w == "size_t" ? builtin_word(Scalar::size_t_)
                                           : WordInfo{};
                case 'u':
                    return w == "ushort" ? builtin_word(Scalar::ushort) : WordInfo{};
                case 'd':
                    return w == "double" ? builtin_word(Scalar::double_) : WordInfo{};
                default:
                    return {};
            }
        case 7:
            switch (c) {
                case 'p':
                    return w == "private" ? space_word(AddressSpace::private_) : WordInfo{};
                case 'g':
                    return w == "generic" ? space_word(AddressSpace::generic) : WordInfo{};
                case '_':
                    return w == "__local" ? space_word(AddressSpace::local) : WordInfo{};
                case 'e':
                    return w == "event_t" ? builtin_word(Scalar::opaque) : WordInfo{};
                case 'q':
                    return w == "queue_t" ? builtin_word(Scalar::opaque) : WordInfo{};
                default:
                    return {};
            }
        case 8:
            switch (c) {
                case 'u':
                    return w == "unsigned" ? WordInfo{Word::unsigned_} : WordInfo{};
                case 'v':
                    return w == "volatile" ? WordInfo{Word::volatile_} : WordInfo{};
                case 'r':
                    return w == "restrict" ? WordInfo{Word::restrict_} : WordInfo{};
                case 'c':
                    return w == "constant" ? space_word(AddressSpace::constant) : WordInfo{};
                case 'i':
                    return w == "intptr_t" ? builtin_word(Scalar::intptr_t_) : WordInfo{};
                case '_':
                    return w == "__global" ? space_word(AddressSpace::global) : WordInfo{};
                default:
                    return {};
            }
        case 9:
            switch (c) {
                case '_':
                    return w == "__private"   ? space_word(AddressSpace::private_)
                           : w == "__generic" ? space_word(AddressSpace::generic)
                                              : WordInfo{};
                case 'p':
                    return w == "ptrdiff_t" ? builtin_word(Scalar::ptrdiff_t_) : WordInfo{};
                case 'u':
                    return w == "uintptr_t" ? builtin_word(Scalar::uintptr_t_) : WordInfo{};
                case 'r':
                    return w == "read_only" ? WordInfo{Word::access} : WordInfo{};
                case 's':
                    return w == "sampler_t" ? builtin_word(Scalar::sampler) : WordInfo{};
                case 'n':
                    return w == "ndrange_t" ? builtin_word(Scalar::opaque) : WordInfo{};
                default:
                    return {};
            }
        case 10:
            switch (c) {
                case '_':
                    return w == "__constant"   ? space_word(AddressSpace::constant)
                           : w == "__restrict" ? WordInfo{Word::restrict_}
                                               : WordInfo{};
                case 'w':
                    return w == "write_only" ? WordInfo{Word::access} : WordInfo{};
                case 'r':
                    return w == "read_write" ? WordInfo{Word::access} : WordInfo{};
                default:
                    return {};
            }
        case 11:
            return w == "__read_only"   ? WordInfo{Word::access}
                   : w == "clk_event_t" ? builtin_word(Scalar::opaque)
                                        : WordInfo{};
        case 12:
            return w == "__write_only" || w == "__read_write" ? WordInfo{Word::access}
                   : w == "__restrict__"                      ? WordInfo{Word::restrict_}
                   : w == "reserve_id_t"                      ? builtin_word(Scalar::opaque)
                                                              : WordInfo{};
        case 13:
            return w == "__attribute__" ? WordInfo{Word::attribute} : WordInfo{};
        default:
            return {};
    }
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

/// Parses one parameter declaration up to and including the `,` or `)` that ends it (or the end
/// of the text), returned as `end`. Checks the grammar only; validate_kernel_param() applies
/// OpenCL's rules.
constexpr ParamResult parse_param(Lexer& lex) noexcept {
    ParamResult result;
    ParamDecl& decl = result.decl;
    const auto fail = [&result](SignatureError error, Token at) {
        result.error = error;
        result.at = at;
        return result;
    };
    bool is_unsigned = false;
    bool signed_word = false;
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

    for (bool first = true;; first = false) {
        const Token token = lex.next();
        if (first) {
            decl.begin = token.begin;
        }
        if (token.kind == TokenKind::end || lex.is(token, ',') || lex.is(token, ')')) {
            result.end = token;
            break;
        }
        if (token.kind != TokenKind::identifier) {
            if (lex.is(token, '*') && !named) {
                if (decl.scalar == Scalar::none && !modifiers) {
                    return fail(SignatureError::missing_type, token);
                }
                if (decl.pointers == 1) {
                    return fail(SignatureError::pointer_to_pointer, token);
                }
                decl.pointers = 1;
                continue;
            }
            return fail(lex.is(token, '[') ? SignatureError::array_parameter
                                           : SignatureError::unexpected_token,
                        token);
        }
        const WordInfo info = classify(lex.text(token));
        if (info.word == Word::attribute) {
            if (!skip_parenthesized(lex)) {
                return fail(SignatureError::unterminated, token);
            }
            continue;
        }
        if (named) {
            return fail(SignatureError::unexpected_token, token);
        }
        const bool has_type = decl.scalar != Scalar::none || modifiers;
        switch (info.word) {
            case Word::address_space:
                if (decl.pointers > 0 ||
                    (decl.space != AddressSpace::unspecified && decl.space != info.space)) {
                    return fail(SignatureError::unexpected_token, token);
                }
                decl.space = info.space;
                continue;
            case Word::const_:
                decl.is_const = decl.is_const || decl.pointers == 0;
                continue;
            case Word::volatile_:
                decl.is_volatile = decl.is_volatile || decl.pointers == 0;
                continue;
            case Word::restrict_:
                decl.is_restrict = true;
                continue;
            case Word::access:
                access = token;
                continue;
            case Word::other:
                if (has_type || decl.pointers > 0) {
                    decl.name_begin = token.begin;
                    decl.name_size = token.size;
                    named = true;
                } else {
                    // A typedef name, a struct's typedef, or a macro: the caller decides.
                    decl.scalar = Scalar::user;
                    first_type = last_type = token;
                }
                continue;
            default:
                break;
        }
        if (decl.pointers > 0 || decl.scalar != Scalar::none) {
            return fail(SignatureError::unexpected_token, token);  // a type word after the type
        }
        switch (info.word) {
            case Word::pipe:
                if (modifiers || pipe) {
                    return fail(SignatureError::unexpected_token, token);
                }
                pipe = true;
                continue;
            case Word::tag: {
                if (modifiers) {
                    return fail(SignatureError::unexpected_token, token);
                }
                const Token tag = lex.next();
                if (tag.kind != TokenKind::identifier) {
                    return fail(SignatureError::unexpected_token, tag);
                }
                decl.scalar = Scalar::user;
                first_type = last_type = tag;
                continue;
            }
            case Word::builtin:
                if (modifiers) {
                    return fail(SignatureError::unexpected_token, token);
                }
                decl.scalar = info.scalar;
                decl.width = info.width;
                first_type = last_type = token;
                continue;
            default:
                break;
        }
        // unsigned, signed, short, long, int, char: combined when the type is complete.
        if (((info.word == Word::unsigned_ || info.word == Word::signed_) &&
             (is_unsigned || signed_word)) ||
            (info.word == Word::short_ && short_word) || (info.word == Word::int_ && int_word) ||
            (info.word == Word::char_ && char_word)) {
            return fail(SignatureError::unexpected_token, token);
        }
        is_unsigned = is_unsigned || info.word == Word::unsigned_;
        signed_word = signed_word || info.word == Word::signed_;
        short_word = short_word || info.word == Word::short_;
        int_word = int_word || info.word == Word::int_;
        char_word = char_word || info.word == Word::char_;
        longs = static_cast<unsigned char>(longs + (info.word == Word::long_ ? 1 : 0));
        first_type = modifiers ? first_type : token;
        last_type = token;
        modifiers = true;
    }

    if (modifiers) {
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
    if (decl.scalar == Scalar::image) {
        const std::string_view qualifier = access.size != 0 ? lex.text(access) : "";
        decl.image_access = qualifier.ends_with("write_only")   ? ImageAccess::write_only
                            : qualifier.ends_with("read_write") ? ImageAccess::read_write
                                                                : ImageAccess::read_only;
        decl.image = source_image(lex.text(last_type));
    }
    return result;
}

/// OpenCL's rules for kernel parameters (and openclaw's limits), applied to a parsed one.
constexpr ParamResult validate_kernel_param(ParamResult param) noexcept {
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
            return fail(SignatureError::missing_type, param.end);
        case Scalar::bool_:
        case Scalar::size_t_:
        case Scalar::ptrdiff_t_:
        case Scalar::intptr_t_:
        case Scalar::uintptr_t_:
            return fail(SignatureError::forbidden_type, type);
        case Scalar::image:
            // image2d_t, image3d_t and image2d_array_t, read_only or write_only, have
            // descriptors (ReadImage2D<pixel::any>, ...); other images and pipes do not.
            if (decl.image == SourceImage::none || decl.image_access == ImageAccess::read_write ||
                decl.pointers > 0) {
                return fail(SignatureError::image_type, type);
            }
            return param;
        case Scalar::sampler:
            return decl.pointers > 0 ? fail(SignatureError::image_type, type) : param;
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

/// A kernel's parameters as its source declares them, or why they could not be read. It holds
/// the first Capacity parameters and counts them all: compile-time signatures are sized to their
/// kernel (a large constant costs compilers time and memory), run-time ones hold the maximum.
template <std::size_t Capacity>
struct BasicSignature {
    std::string_view text;
    SignatureError error = SignatureError::none;
    Token error_at;
    std::size_t error_param = static_cast<std::size_t>(-1);  // index, when a parameter is at fault
    std::size_t count = 0;
    std::array<ParamDecl, Capacity> params{};

    constexpr void store(std::size_t index, const ParamDecl& decl) noexcept {
        if (index < Capacity) {
            params[index] = decl;
        }
    }
    constexpr bool ok() const noexcept { return error == SignatureError::none; }
    constexpr std::string_view name_of(std::size_t index) const noexcept {
        return text.substr(params[index].name_begin, params[index].name_size);
    }
    constexpr std::string_view type_of(std::size_t index) const noexcept {
        return text.substr(params[index].type_begin, params[index].type_size);
    }
};

using Signature = BasicSignature<max_kernel_params>;

/// Parses the parameter list after the kernel's `(` into `sig`; false (and sig.error) if it fails.
template <std::size_t Capacity>
constexpr bool parse_param_list(Lexer& lex, BasicSignature<Capacity>& sig) noexcept {
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
        const ParamResult param = validate_kernel_param(parse_param(lex));
        const Token end = param.end;
        if (param.error == SignatureError::none && end.kind == TokenKind::end) {
            sig.error = SignatureError::unterminated;
            sig.error_at = end;
            sig.error_param = sig.count;
            sig.store(sig.count, param.decl);
            return false;
        }
        if (param.error != SignatureError::none) {
            sig.error = param.error;
            sig.error_at = param.at;
            sig.error_param = sig.count;
            sig.store(sig.count, param.decl);
            return false;
        }
        sig.store(sig.count++, param.decl);
        if (lex.is(end, ')')) {
            return true;
        }
    }
}

/// Where a kernel is declared: its name, and where its parameter list starts (after the `(`).
struct KernelDeclaration {
    std::size_t name_begin = 0;
    std::size_t name_size = 0;
    std::size_t params_begin = 0;
};

inline constexpr std::size_t max_indexed_kernels = 256;

/// The kernel declarations of a text, in order, found in one pass that skips function bodies
/// whole. A text with more declarations than fit is indexed in parts.
struct KernelIndex {
    std::array<KernelDeclaration, max_indexed_kernels> kernels{};
    std::size_t count = 0;
    bool complete = true;  // false: the scan stopped after kernels[count - 1]; resume there
};

/// Indexes the kernels of `text` (only those named `only`, if given), from the beginning or from
/// just after the `(` of a declaration at offset `resume`. Kernels are `__kernel`/`kernel` at
/// file scope; attributes may stand anywhere before the name.
constexpr KernelIndex index_kernels(std::string_view text, std::string_view only = {},
                                    std::size_t resume = 0) noexcept {
    KernelIndex index;
    Lexer lex(text, resume);
    std::size_t parentheses = resume == 0 ? 0 : 1;
    for (Token token = lex.next(); token.kind != TokenKind::end; token = lex.next()) {
        if (token.kind == TokenKind::punctuation) {
            const char c = lex.first_char(token);
            if (c == '(') {
                ++parentheses;
            } else if (c == ')' && parentheses > 0) {
                --parentheses;
            } else if (c == '{' && parentheses == 0) {
                lex.skip_block();
            }
            continue;
        }
        // Cheap tests first: this runs for every identifier outside function bodies.
        if (parentheses != 0 || token.kind != TokenKind::identifier ||
            (token.size != 6 && token.size != 8) ||
            (lex.first_char(token) != 'k' && lex.first_char(token) != '_') ||
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
        if (!header || (!only.empty() && lex.text(candidate) != only)) {
            continue;  // the `(` (or whatever stopped the header) is counted by the outer loop
        }
        lex.next();
        ++parentheses;
        index.kernels[index.count++] = {candidate.begin, candidate.size, lex.position()};
        if (index.count == max_indexed_kernels) {
            index.complete = false;
            return index;
        }
    }
    return index;
}

/// Finds kernel `name` among the indexed kernels of `text` and parses its parameters. A kernel
/// declared more than once (a prototype, or variants under #if) must declare the same
/// parameters each time, since directives are not evaluated.
template <std::size_t Capacity = max_kernel_params>
constexpr BasicSignature<Capacity> parse_kernel_signature(std::string_view text,
                                                          std::string_view name,
                                                          const KernelIndex& index) noexcept {
    BasicSignature<Capacity> result;
    result.text = text;
    bool found = false;
    std::optional<KernelIndex> more;  // empty unless the index is in parts: costs nothing then
    const KernelIndex* part = &index;
    for (;;) {
        for (std::size_t k = 0; k < part->count; ++k) {
            const KernelDeclaration& declaration = part->kernels[k];
            if (text.substr(declaration.name_begin, declaration.name_size) != name) {
                continue;
            }
            Lexer lex(text, declaration.params_begin);
            if (!found) {
                if (!parse_param_list(lex, result)) {
                    return result;
                }
                found = true;
                continue;
            }
            BasicSignature<Capacity> again;
            again.text = text;
            if (!parse_param_list(lex, again)) {
                return again;
            }
            bool same = again.count == result.count;
            for (std::size_t i = 0; same && i < result.count && i < Capacity; ++i) {
                same = result.params[i].same_declaration(again.params[i], text, text);
            }
            if (!same) {
                result.error = SignatureError::conflicting_declarations;
                result.error_at = {TokenKind::identifier, declaration.name_begin,
                                   declaration.name_size};
                return result;
            }
        }
        if (part->complete) {
            break;
        }
        more = index_kernels(text, name, part->kernels[part->count - 1].params_begin);
        part = &*more;
    }
    if (!found) {
        result.error = SignatureError::kernel_not_found;
    }
    return result;
}

/// Finds kernel `name` in `text` and parses its parameters (see index_kernels()).
constexpr Signature parse_kernel_signature(std::string_view text, std::string_view name) noexcept {
    return parse_kernel_signature<max_kernel_params>(text, name, index_kernels(text, name));
}

/// Parses a type name as clGetKernelArgInfo reports it ("float4*", "struct Particle*", "uint").
constexpr ParamResult parse_type_name(std::string_view type_name) noexcept {
    Lexer lex(type_name);
    ParamResult result = parse_param(lex);
    if (result.error == SignatureError::none && result.end.kind != TokenKind::end) {
        result.error = SignatureError::unexpected_token;
        result.at = result.end;
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
// Bodies: how a kernel uses a non-const `__global T*`. Its declaration allows both reading and
// writing; what the kernel does is in its body. The scan below is conservative: it proves "only
// reads" or "only writes" from the plain forms (`p[i]` read, `p[i] = v` written, members and
// swizzles after either) and calls every other use (the pointer passed on, assigned, offset,
// dereferenced with `*`, its address taken, a compound assignment, a name a directive mentions)
// both. Directives are not expanded: a macro of an included file that names the parameter is not
// seen.

/// Bits of how a kernel's body uses a pointer parameter.
enum BodyUse : unsigned char { body_reads = 1, body_writes = 2 };

inline constexpr std::size_t max_directive_words = 512;

/// The identifiers the preprocessor directives of a text name (a macro may read or write a
/// parameter where the body does not name it), found once per source. Comments do not count. A
/// text with more than fit is marked `overflow`, and then every name counts as mentioned.
struct DirectiveWords {
    struct Word {
        std::size_t begin = 0;
        std::size_t size = 0;
    };
    std::array<Word, max_directive_words> words{};
    std::size_t count = 0;
    bool overflow = false;

    /// True if a directive names `name` (always true after an overflow: conservative).
    constexpr bool mention(std::string_view text, std::string_view name) const noexcept {
        if (overflow) {
            return true;
        }
        for (std::size_t i = 0; i < count; ++i) {
            if (words[i].size == name.size() &&
                text.substr(words[i].begin, words[i].size) == name) {
                return true;
            }
        }
        return false;
    }
};

/// Collects the identifiers of `text`'s directives. A line that is no directive costs one test
/// per character, so that sources of thousands of lines stay inside the compilers' default
/// constexpr budgets (tests/test_signature.cpp, bench/compile_time/run.sh).
constexpr DirectiveWords directive_words(std::string_view text) noexcept {
    DirectiveWords found;
    const char* const data = text.data();
    std::size_t at = 0;
    const std::size_t n = text.size();
    while (at < n) {
        while (at < n && (data[at] == ' ' || data[at] == '\t')) {
            ++at;
        }
        if (at >= n || data[at] != '#') {
            while (at < n && data[at] != '\n') {
                ++at;
            }
            ++at;
            continue;
        }
        while (at < n && data[at] != '\n') {
            const char c = data[at];
            if (c == '/' && at + 1 < n && data[at + 1] == '/') {
                while (at < n && data[at] != '\n') {
                    ++at;
                }
            } else if (c == '/' && at + 1 < n && data[at + 1] == '*') {
                const std::size_t close = text.find("*/", at + 2);
                at = close == std::string_view::npos ? n : close + 2;
            } else if (is_identifier_start(c) && (at == 0 || !is_identifier_char(data[at - 1]))) {
                std::size_t end = at;
                while (end < n && is_identifier_char(data[end])) {
                    ++end;
                }
                if (found.count == max_directive_words) {
                    found.overflow = true;
                    return found;
                }
                found.words[found.count++] = {at, end - at};
                at = end;
            } else {
                // A line splice continues the directive on the next line.
                at += c == '\\' && at + 1 < n && data[at + 1] == '\n' ? std::size_t{2}
                                                                      : std::size_t{1};
            }
        }
        ++at;
    }
    return found;
}

/// How the use of a pointer `p` followed by `[` ends: after the index (and any `.member` or
/// further index), a plain `=` writes, a compound assignment or `++`/`--` reads and writes,
/// anything else reads. `lex` is just after `p`.
constexpr unsigned char indexed_use(std::string_view text, Lexer lex) noexcept {
    for (Token token = lex.peek(); lex.is(token, '[') || lex.is(token, '.'); token = lex.peek()) {
        lex.next();
        if (lex.is(token, '.')) {
            lex.next();  // the member or swizzle
            continue;
        }
        for (std::size_t depth = 1; depth > 0;) {
            const Token inner = lex.next();
            if (inner.kind == TokenKind::end) {
                return body_reads | body_writes;
            }
            if (lex.is(inner, '[')) {
                ++depth;
            } else if (lex.is(inner, ']')) {
                --depth;
            }
        }
    }
    const Token after = lex.peek();
    if (after.kind != TokenKind::punctuation) {
        return body_reads;
    }
    const char c = text[after.begin];
    const char c1 = after.begin + 1 < text.size() ? text[after.begin + 1] : '\0';
    const char c2 = after.begin + 2 < text.size() ? text[after.begin + 2] : '\0';
    if (c == '=') {
        return c1 == '=' ? body_reads : body_writes;
    }
    const bool compound =
        (c1 == '=' && std::string_view("+-*/%&|^").find(c) != std::string_view::npos) ||
        ((c == '+' || c == '-') && c1 == c) || ((c == '<' || c == '>') && c1 == c && c2 == '=');
    return compound ? body_reads | body_writes : body_reads;
}

/// The uses, in the body that starts after the `{` at `body`, of each parameter of `sig` that
/// is a non-const `__global` pointer, ORed into `uses`. With `written`, also where the first write
/// the scan proves (`p[i] = v`, a compound assignment, `++p[i]`) begins, plus 1 (0: none), even
/// after a use it cannot tell.
template <std::size_t Capacity>
constexpr void scan_body(const BasicSignature<Capacity>& sig, std::size_t body,
                         std::array<unsigned char, Capacity>& uses,
                         std::array<std::size_t, Capacity>* written = nullptr) noexcept {
    const std::string_view text = sig.text;
    Lexer lex(text, body);
    Token previous{};
    for (std::size_t depth = 1;;) {
        const Token token = lex.next();
        if (token.kind == TokenKind::end) {
            return;
        }
        if (token.kind == TokenKind::punctuation) {
            const char c = lex.first_char(token);
            if (c == '{') {
                ++depth;
            } else if (c == '}' && --depth == 0) {
                return;
            }
            previous = token;
            continue;
        }
        const bool member = lex.is(previous, '.') || (lex.is(previous, '>') && previous.begin > 0 &&
                                                      text[previous.begin - 1] == '-');
        previous = token;
        if (token.kind != TokenKind::identifier || member) {
            continue;
        }
        for (std::size_t i = 0; i < sig.count && i < Capacity; ++i) {
            if ((uses[i] == (body_reads | body_writes) &&
                 (written == nullptr || (*written)[i] != 0)) ||
                sig.params[i].name_size != token.size || sig.name_of(i) != lex.text(token)) {
                continue;
            }
            if (!lex.is(lex.peek(), '[')) {
                uses[i] = body_reads | body_writes;  // passed on, assigned, offset, `*p`
                continue;
            }
            // `&p[i]` takes an address; `++p[i]` and `--p[i]` read and write.
            std::size_t back = token.begin;
            while (back > 0 && (text[back - 1] == ' ' || text[back - 1] == '\t')) {
                --back;
            }
            const char prior = back > 0 ? text[back - 1] : '\0';
            const char prior2 = back > 1 ? text[back - 2] : '\0';
            const bool address = prior == '&' && prior2 != '&';
            const bool step = (prior == '+' || prior == '-') && prior2 == prior;
            const unsigned char use =
                address || step ? body_reads | body_writes : indexed_use(text, lex);
            if (written != nullptr && (*written)[i] == 0 && !address &&
                (step || (use & body_writes) != 0)) {
                (*written)[i] = token.begin + 1;
            }
            uses[i] = static_cast<unsigned char>(uses[i] | use);
        }
    }
}

/// How kernel `name`'s body uses each of its non-const `__global` pointer parameters (BodyUse
/// bits, both where unknown; 0 for the other parameters), over every definition of the kernel.
template <std::size_t Capacity>
constexpr std::array<unsigned char, Capacity> body_uses(
    const BasicSignature<Capacity>& sig, std::string_view name, const KernelIndex& index,
    const DirectiveWords& directives,
    std::array<std::size_t, Capacity>* written = nullptr) noexcept {
    std::array<unsigned char, Capacity> uses{};
    const auto unknown = [&sig](std::array<unsigned char, Capacity>& marks) {
        for (std::size_t i = 0; i < sig.count && i < Capacity; ++i) {
            const ParamDecl& decl = sig.params[i];
            if (decl.space == AddressSpace::global && decl.pointers > 0 && !decl.is_const) {
                marks[i] = body_reads | body_writes;
            }
        }
        return marks;
    };
    bool any = false;
    for (std::size_t i = 0; i < sig.count && i < Capacity; ++i) {
        const ParamDecl& decl = sig.params[i];
        any = any || (decl.space == AddressSpace::global && decl.pointers > 0 && !decl.is_const);
    }
    if (!any || !sig.ok()) {
        return uses;
    }
    const std::string_view text = sig.text;
    std::optional<KernelIndex> more;
    const KernelIndex* part = &index;
    bool defined = false;
    for (;;) {
        for (std::size_t k = 0; k < part->count; ++k) {
            const KernelDeclaration& declaration = part->kernels[k];
            if (text.substr(declaration.name_begin, declaration.name_size) != name) {
                continue;
            }
            // This declaration's own parameter names (a prototype may use others), then its
            // body, if it has one.
            Lexer lex(text, declaration.params_begin);
            BasicSignature<Capacity> own;
            own.text = text;
            if (!parse_param_list(lex, own) || own.count != sig.count) {
                return unknown(uses);
            }
            Token token = lex.next();
            while (lex.is(token, "__attribute__")) {
                if (!skip_parenthesized(lex)) {
                    return unknown(uses);
                }
                token = lex.next();
            }
            if (!lex.is(token, '{')) {
                continue;
            }
            defined = true;
            for (std::size_t i = 0; i < own.count && i < Capacity; ++i) {
                const ParamDecl& decl = own.params[i];
                if (decl.space == AddressSpace::global && decl.pointers > 0 && !decl.is_const &&
                    directives.mention(text, own.name_of(i))) {
                    uses[i] = body_reads | body_writes;
                }
            }
            scan_body(own, lex.position(), uses, written);
        }
        if (part->complete) {
            break;
        }
        more = index_kernels(text, name, part->kernels[part->count - 1].params_begin);
        part = &*more;
    }
    // A prototype alone says nothing of the uses.
    return defined ? uses : unknown(uses);
}

}  // namespace detail
OPENCLAW_END_NAMESPACE

#include <openclaw/detail/base/macros_pop.hpp>
