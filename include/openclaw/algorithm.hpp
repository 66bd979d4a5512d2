// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// Parallel algorithms on typed buffers (algorithms wing): reduce, transform_reduce, count_if,
// min/max_element, inclusive and exclusive scans, radix sort and sort_by_key, copy_if,
// transform, fill, iota. Free functions, the queue first; operators are OpenCL C snippets
// (`openclaw::op<"int bigger(int a, int b) { return a > b ? a : b; }">{}`) or built-ins
// (`openclaw::plus<>`, `minimum<>`, ...) whose types the C++ compiler checks against the buffers
// before anything runs. The kernels are built once per queue, algorithm, type and operator
// (docs/algorithms.md).

#include <openclaw/buffer.hpp>
#include <openclaw/detail/kernels/source_parser.hpp>
#include <openclaw/detail/kernels/types.hpp>
#include <openclaw/detail/wings/algorithm_core.hpp>
#include <openclaw/queue.hpp>
#include <openclaw/signature.hpp>

#include <array>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <string_view>
#include <type_traits>
#include <utility>

OPENCLAW_BEGIN_NAMESPACE

namespace detail {
// The algorithms are declared here: the stubs of fwd.hpp step aside.
template <class... A>
inline constexpr bool side_header_included<algorithm_header, A...> = true;
}  // namespace detail

/// The order of a sort.
enum class SortOrder : unsigned char { ascending, descending };

namespace detail::algo {

// ---------------------------------------------------------------------------------------------
// Text made at compile time (operators' expressions, type names), with static storage.

template <std::size_t N>
struct StaticText {
    std::array<char, N> chars{};
    std::size_t size = 0;
    constexpr std::string_view view() const noexcept { return {chars.data(), size}; }
};

template <std::size_t N>
constexpr StaticText<N> join(std::initializer_list<std::string_view> parts) {
    StaticText<N> text;
    for (const std::string_view part : parts) {
        for (const char c : part) {
            text.chars[text.size++] = c;
        }
    }
    return text;
}

/// The OpenCL C name of a built-in host type (cl_float4 -> "float4"); empty for other types.
template <class T>
consteval StaticText<16> builtin_name() {
    constexpr TypeCode code = host_type_code<T>();
    if constexpr (code.scalar == Scalar::user) {
        return {};
    } else {
        const std::string_view width = code.width == 1   ? ""
                                       : code.width == 2 ? "2"
                                       : code.width == 4 ? "4"
                                       : code.width == 8 ? "8"
                                                         : "16";
        return join<16>({scalar_name(code.scalar), width});
    }
}
template <class T>
inline constexpr StaticText<16> builtin_name_v = builtin_name<T>();

template <class T>
inline constexpr bool is_builtin = host_type_code<T>().scalar != Scalar::user;
template <class T>
inline constexpr bool is_builtin_integer = [] {
    constexpr Scalar s = host_type_code<T>().scalar;
    return s == Scalar::char_ || s == Scalar::uchar || s == Scalar::short_ || s == Scalar::ushort ||
           s == Scalar::int_ || s == Scalar::uint || s == Scalar::long_ || s == Scalar::ulong;
}();

// ---------------------------------------------------------------------------------------------
// A user operator: the last function defined in an OpenCL C snippet, parsed at compile time.

enum class OperatorError : unsigned char {
    none,
    no_function,     // no function definition found
    bad_return,      // the return type cannot be read
    bad_parameters,  // the parameter list cannot be read (or a pointer, an array...)
    too_many,        // more than three parameters
};

struct OperatorDecl {
    OperatorError error = OperatorError::none;
    ParamDecl result;
    std::size_t name_begin = 0;
    std::size_t name_size = 0;
    std::size_t arity = 0;
    std::array<ParamDecl, 3> params{};
    std::array<std::size_t, 3> spelling_begin{};  // a parameter type's spelling, tag included
    std::size_t result_spelling_begin = 0;
};

/// True for words that may precede a function's return type without being part of it.
constexpr bool function_specifier(std::string_view word) noexcept {
    return word == "inline" || word == "static" || word == "__inline" || word == "__inline__";
}

/// Where the type spelled from `type_begin` really starts: a struct/union/enum tag before it.
constexpr std::size_t with_tag(std::string_view text, std::size_t type_begin) noexcept {
    for (const std::string_view tag :
         {std::string_view("struct"), std::string_view("union"), std::string_view("enum")}) {
        std::size_t at = type_begin;
        while (at > 0 && (text[at - 1] == ' ' || text[at - 1] == '\t' || text[at - 1] == '\n')) {
            --at;
        }
        if (at >= tag.size() && text.substr(at - tag.size(), tag.size()) == tag) {
            return at - tag.size();
        }
    }
    return type_begin;
}

/// Finds the last function defined at file scope in `text` and reads its declaration.
constexpr OperatorDecl parse_operator(std::string_view text) {
    OperatorDecl decl;
    Lexer lex(text);
    std::size_t statement_begin = 0;  // where the current file-scope declaration starts
    Token candidate{};
    std::size_t params_begin = 0;
    std::size_t header_begin = 0;
    bool found = false;
    std::size_t depth = 0;  // parentheses
    Token last_identifier{};
    for (Token token = lex.next(); token.kind != TokenKind::end; token = lex.next()) {
        if (token.kind == TokenKind::punctuation) {
            const char c = lex.first_char(token);
            if (c == '(') {
                if (depth == 0 && last_identifier.kind == TokenKind::identifier &&
                    last_identifier.begin + last_identifier.size <= token.begin &&
                    !lex.is(last_identifier, "__attribute__")) {
                    candidate = last_identifier;
                    params_begin = token.begin + 1;
                    header_begin = statement_begin;
                }
                ++depth;
            } else if (c == ')' && depth > 0) {
                --depth;
            } else if (c == '{' && depth == 0) {
                lex.skip_block();
                if (candidate.kind == TokenKind::identifier) {
                    found = true;
                    decl.name_begin = candidate.begin;
                    decl.name_size = candidate.size;
                    decl.result_spelling_begin = header_begin;
                    decl.arity = params_begin;  // stashed: the parameters' position
                }
                candidate = {};
                statement_begin = lex.position();
            } else if (c == ';' && depth == 0) {
                candidate = {};
                statement_begin = lex.position();
            }
            last_identifier = {};
            continue;
        }
        last_identifier = token;
    }
    if (!found) {
        decl.error = OperatorError::no_function;
        return decl;
    }
    // The return type: the words between the declaration's start and the name.
    Lexer head(text.substr(0, decl.name_begin), decl.result_spelling_begin);
    for (Token word = head.peek();
         word.kind == TokenKind::identifier &&
         (function_specifier(head.text(word)) || head.is(word, "__attribute__"));
         word = head.peek()) {
        head.next();
        if (head.is(word, "__attribute__") && !skip_parenthesized(head)) {
            decl.error = OperatorError::bad_return;
            return decl;
        }
    }
    decl.result_spelling_begin = head.position();
    const ParamResult result = parse_param(head);
    if (result.error != SignatureError::none || result.end.kind != TokenKind::end ||
        result.decl.scalar == Scalar::none || result.decl.pointers != 0 ||
        result.decl.name_size != 0) {
        decl.error = OperatorError::bad_return;
        return decl;
    }
    decl.result = result.decl;
    decl.result_spelling_begin = with_tag(text, result.decl.type_begin);
    // The parameters.
    Lexer params(text, decl.arity);
    decl.arity = 0;
    if (params.is(params.peek(), ')')) {
        return decl;
    }
    for (;;) {
        const ParamResult param = parse_param(params);
        if (param.error != SignatureError::none || param.decl.pointers != 0 ||
            param.decl.scalar == Scalar::none || param.decl.scalar == Scalar::void_ ||
            param.end.kind == TokenKind::end) {
            decl.error =
                param.decl.scalar == Scalar::void_ && decl.arity == 0 && params.is(param.end, ')')
                    ? OperatorError::none
                    : OperatorError::bad_parameters;
            return decl;
        }
        if (decl.arity == 3) {
            decl.error = OperatorError::too_many;
            return decl;
        }
        decl.params[decl.arity] = param.decl;
        decl.spelling_begin[decl.arity] = with_tag(text, param.decl.type_begin);
        ++decl.arity;
        if (params.is(param.end, ')')) {
            return decl;
        }
    }
}

/// Marks an operator type for the algorithms (op<...> and the built-ins).
struct OperatorTag {};

/// The host type a parsed OpenCL C type stands for: a cl_* type, a user type through
/// opencl_type<"Name">, or Unmapped.
struct Unmapped {};

template <const auto& Text, std::size_t Begin, std::size_t Size>
consteval auto type_name_of() {
    return FixedString<Size + 1>(Text.view().substr(Begin, Size));
}

template <const auto& Text, ParamDecl Decl>
consteval auto host_type_of() {
    if constexpr (Decl.scalar == Scalar::user) {
        constexpr auto name = type_name_of<Text, Decl.type_begin, Decl.type_size>();
        if constexpr (has_opencl_type<name>) {
            return std::type_identity<typename opencl_type<name>::type>{};
        } else {
            return std::type_identity<Unmapped>{};
        }
    } else if constexpr (std::is_void_v<host_type_t<Decl.scalar, Decl.width>>) {
        return std::type_identity<Unmapped>{};
    } else {
        return std::type_identity<host_type_t<Decl.scalar, Decl.width>>{};
    }
}

}  // namespace detail::algo

/// A user operator for the algorithms: an OpenCL C function, typed by the C++ compiler. The
/// snippet may define types and helpers first; the last function it defines is the operator:
///
///     openclaw::op<"int bigger(int a, int b) { return a > b ? a : b; }">{}
///
/// Its parameter and return types must be those of the buffers it is used on (exactly, as for
/// kernel arguments); a struct is named by the trait openclaw::opencl_type<"Name">.
template <FixedString Source>
struct op : detail::algo::OperatorTag {
    /// The snippet.
    static constexpr FixedString<Source.size() + 1> text = Source;
    /// Its declaration, read at compile time.
    static constexpr detail::algo::OperatorDecl decl = detail::algo::parse_operator(text.view());
    /// The function's name.
    static constexpr std::string_view name = text.view().substr(decl.name_begin, decl.name_size);
    /// True for an operator whose parameter types are those of the buffers (none for op<>).
    static constexpr bool transparent = false;
    /// Its number of parameters.
    static constexpr std::size_t arity = decl.arity;
};

namespace detail::algo {

template <class Op>
inline constexpr bool is_operator = std::is_base_of_v<OperatorTag, Op>;

/// Built-in operators: an expression in a and b, the element types it needs.
enum class BuiltinKind : unsigned char { arithmetic, integer, comparable };

template <BuiltinKind Kind, class T>
struct Builtin : OperatorTag {
    static constexpr bool transparent = std::is_void_v<T>;
    static constexpr std::size_t arity = 2;
    static constexpr BuiltinKind kind = Kind;
    using type = T;
};

}  // namespace detail::algo

/// a + b (arithmetic types and their vectors). `plus<>` takes the buffer's element type;
/// `plus<cl_int>` names it.
template <class T = void>
struct plus : detail::algo::Builtin<detail::algo::BuiltinKind::arithmetic, T> {
    /// The OpenCL C expression.
    static constexpr std::string_view expression = "((a) + (b))";
    /// The same with a and b swapped.
    static constexpr std::string_view expression_ba = "((b) + (a))";
};
/// a * b.
template <class T = void>
struct multiplies : detail::algo::Builtin<detail::algo::BuiltinKind::arithmetic, T> {
    /// The OpenCL C expression.
    static constexpr std::string_view expression = "((a) * (b))";
    /// The same with a and b swapped.
    static constexpr std::string_view expression_ba = "((b) * (a))";
};
/// The smaller of a and b (OpenCL C's min).
template <class T = void>
struct minimum : detail::algo::Builtin<detail::algo::BuiltinKind::arithmetic, T> {
    /// The OpenCL C expression.
    static constexpr std::string_view expression = "min((a), (b))";
    /// The same with a and b swapped.
    static constexpr std::string_view expression_ba = "min((b), (a))";
};
/// The larger of a and b (OpenCL C's max).
template <class T = void>
struct maximum : detail::algo::Builtin<detail::algo::BuiltinKind::arithmetic, T> {
    /// The OpenCL C expression.
    static constexpr std::string_view expression = "max((a), (b))";
    /// The same with a and b swapped.
    static constexpr std::string_view expression_ba = "max((b), (a))";
};
/// a & b (integer types).
template <class T = void>
struct bit_and : detail::algo::Builtin<detail::algo::BuiltinKind::integer, T> {
    /// The OpenCL C expression.
    static constexpr std::string_view expression = "((a) & (b))";
    /// The same with a and b swapped.
    static constexpr std::string_view expression_ba = "((b) & (a))";
};
/// a | b (integer types).
template <class T = void>
struct bit_or : detail::algo::Builtin<detail::algo::BuiltinKind::integer, T> {
    /// The OpenCL C expression.
    static constexpr std::string_view expression = "((a) | (b))";
    /// The same with a and b swapped.
    static constexpr std::string_view expression_ba = "((b) | (a))";
};
/// a ^ b (integer types).
template <class T = void>
struct bit_xor : detail::algo::Builtin<detail::algo::BuiltinKind::integer, T> {
    /// The OpenCL C expression.
    static constexpr std::string_view expression = "((a) ^ (b))";
    /// The same with a and b swapped.
    static constexpr std::string_view expression_ba = "((b) ^ (a))";
};
/// a < b, a comparator (scalar types): min_element's default.
template <class T = void>
struct less : detail::algo::Builtin<detail::algo::BuiltinKind::comparable, T> {
    /// The OpenCL C expression.
    static constexpr std::string_view expression = "((a) < (b))";
    /// The same with a and b swapped.
    static constexpr std::string_view expression_ba = "((b) < (a))";
};
/// a > b, a comparator (scalar types).
template <class T = void>
struct greater : detail::algo::Builtin<detail::algo::BuiltinKind::comparable, T> {
    /// The OpenCL C expression.
    static constexpr std::string_view expression = "((a) > (b))";
    /// The same with a and b swapped.
    static constexpr std::string_view expression_ba = "((b) > (a))";
};

/// a == b, an equality (scalar types): unique's default.
template <class T = void>
struct equal_to : detail::algo::Builtin<detail::algo::BuiltinKind::comparable, T> {
    /// The OpenCL C expression.
    static constexpr std::string_view expression = "((a) == (b))";
    /// The same with a and b swapped.
    static constexpr std::string_view expression_ba = "((b) == (a))";
};

namespace detail::algo {

// ---------------------------------------------------------------------------------------------
// What an operator is at compile time: its arity, parameter and result host types, its text.

/// The reports of an operator that does not fit a call; the template arguments the compiler
/// prints name the call, the operator and the types (`expected<int>`, `operator_takes<float>`).
template <class... T>
struct expected {};
template <class... T>
struct operator_takes {};
template <class... T>
struct operator_returns {};
/// The operator's function name, as characters both compilers print (`operator_named<'a', ...>`).
template <char... C>
struct operator_named {};
template <class Op, std::size_t... I>
consteval auto operator_name_of(std::index_sequence<I...>) {
    return std::type_identity<operator_named<Op::name[I]...>>{};
}
template <class Op>
using operator_name_t = typename decltype(operator_name_of<Op>(
    std::make_index_sequence<(Op::name.size() < 40 ? Op::name.size() : 40)>{}))::type;

template <class Op>
struct UserOperator {
    static constexpr const auto& decl = Op::decl;
    static constexpr const auto& text = Op::text;
    template <std::size_t I>
    static consteval auto param() {
        if constexpr (I < decl.arity) {
            return host_type_of<text, decl.params[I]>();
        } else {
            return std::type_identity<Unmapped>{};
        }
    }
    template <std::size_t I>
    using param_t = typename decltype(param<I>())::type;
    using result_t = typename decltype(host_type_of<text, decl.result>())::type;
    static constexpr bool scalar_result =
        decl.result.width == 1 && decl.result.scalar != Scalar::user &&
        decl.result.scalar != Scalar::void_ && decl.result.scalar != Scalar::none &&
        decl.result.scalar != Scalar::opaque;
};

/// The operator has `Takes` parameters where the call needs `Needs`; its name travels in `Name`.
template <std::size_t Needs, std::size_t Takes, class Name>
constexpr void report_arity() {
    static_assert(Needs != 2 || Takes == 2,
                  "openclaw algorithms: this call needs a binary operator (two parameters: T "
                  "op(T a, T b)); the operator given takes another number");
    static_assert(Needs != 1 || Takes == 1,
                  "openclaw algorithms: this call needs a unary operator or predicate (one "
                  "parameter: U op(T x)); the operator given takes another number");
}

/// One static_assert per mismatch; the types travel in the template arguments.
template <bool ParamsFit, bool ResultFits, bool Predicate, class Op, class Expected, class Takes,
          class ExpectedResult, class Returns>
constexpr void report_operator() {
    static_assert(ParamsFit,
                  "openclaw algorithms: the operator's parameter types are not the buffers' "
                  "element types (they must be the same, as kernel arguments are: see "
                  "expected<...> and operator_takes<...> below)");
    static_assert(ResultFits || Predicate,
                  "openclaw algorithms: the operator's return type is not the one the call "
                  "needs (see expected<...> and operator_returns<...> below)");
    static_assert(ResultFits || !Predicate,
                  "openclaw algorithms: a predicate or comparator must return a scalar "
                  "(int, uint, bool, ...), not a vector or a struct");
}

/// The checks every use of an operator makes: it parsed, it has `Arity` parameters, each of the
/// types `Params`, and returns `Result` (void: any scalar, a predicate or comparator).
template <const char* Call, class Op, std::size_t Arity, class Result, class... Params>
consteval bool check_operator() {
    static_assert(is_operator<Op>,
                  "openclaw algorithms: the operator must be openclaw::op<\"...\">{} or a "
                  "built-in (openclaw::plus<>{}, minimum<>{}, maximum<>{}, ...)");
    if constexpr (!is_operator<Op>) {
        return false;
    } else if constexpr (Op::transparent) {
        return true;
    } else if constexpr (requires { Op::decl; }) {
        constexpr OperatorDecl decl = Op::decl;
        static_assert(decl.error != OperatorError::no_function,
                      "openclaw::op: the snippet defines no function (the operator is the last "
                      "function it defines: `int bigger(int a, int b) { ... }`)");
        static_assert(decl.error != OperatorError::bad_return,
                      "openclaw::op: the operator's return type cannot be read (pointers and "
                      "macros are not operator types)");
        static_assert(decl.error != OperatorError::bad_parameters,
                      "openclaw::op: the operator's parameters cannot be read: each is a value of "
                      "an OpenCL C type (no pointers, arrays or macros)");
        static_assert(decl.error != OperatorError::too_many,
                      "openclaw::op: an operator takes one, two or three parameters");
        if constexpr (decl.error != OperatorError::none) {
            return false;
        } else {
            using U = UserOperator<Op>;
            report_arity<Arity, decl.arity, operator_name_t<Op>>();
            if constexpr (decl.arity != Arity) {
                return false;
            } else {
                constexpr bool params_fit = [] {
                    return []<std::size_t... I>(std::index_sequence<I...>) {
                        return (std::is_same_v<typename U::template param_t<I>, Params> && ...);
                    }
                    (std::index_sequence_for<Params...>{});
                }();
                constexpr bool result_fits = std::is_void_v<Result>
                                                 ? U::scalar_result
                                                 : std::is_same_v<typename U::result_t, Result>;
                report_operator<params_fit, result_fits, std::is_void_v<Result>,
                                operator_name_t<Op>, expected<Params...>,
                                operator_takes<typename U::template param_t<0>,
                                               typename U::template param_t<1>>,
                                expected<Result>, operator_returns<typename U::result_t>>();
                return params_fit && result_fits;
            }
        }
    } else {
        return true;
    }
}

/// A built-in operator's check against the element type T.
template <class Op, class T>
consteval bool check_builtin() {
    if constexpr (requires { Op::kind; }) {
        static_assert(Op::transparent || std::is_same_v<typename Op::type, T>,
                      "openclaw algorithms: the built-in operator names another type than the "
                      "buffers' element type (write plus<>{} to take the element type)");
        static_assert(is_builtin<T>,
                      "openclaw algorithms: built-in operators work on OpenCL C's built-in types "
                      "(cl_int, cl_float4, ...); for a struct, write an openclaw::op<\"...\">");
        static_assert(Op::kind != BuiltinKind::integer || is_builtin_integer<T>,
                      "openclaw algorithms: bit_and, bit_or and bit_xor need integer elements");
        static_assert(Op::kind != BuiltinKind::comparable || host_type_code<T>().width == 1,
                      "openclaw algorithms: less, greater and equal_to compare scalars; for "
                      "vectors, "
                      "write an openclaw::op<\"...\"> that returns a scalar");
        return (Op::transparent || std::is_same_v<typename Op::type, T>)&&is_builtin<T>;
    } else {
        return true;
    }
}

/// The OpenCL C spelling of T for a program: built-in types by name, user types as the operator
/// spells them (parameter I, or the result when I is 3).
template <class T, class Op, std::size_t I>
consteval std::string_view spelling() {
    if constexpr (is_builtin<T>) {
        return builtin_name_v<T>.view();
    } else if constexpr (requires { Op::decl; }) {
        constexpr const OperatorDecl& decl = Op::decl;
        if constexpr (I == 3) {
            return Op::text.view().substr(
                decl.result_spelling_begin,
                decl.result.type_begin + decl.result.type_size - decl.result_spelling_begin);
        } else {
            return Op::text.view().substr(
                decl.spelling_begin[I],
                decl.params[I].type_begin + decl.params[I].type_size - decl.spelling_begin[I]);
        }
    } else {
        return {};
    }
}

/// The OpenCL C of a binary operator applied to (a, b) or (b, a), or of a unary one to x.
template <class Op, std::size_t N>
consteval StaticText<N> call_text(int form) {
    if constexpr (requires { Op::expression; }) {
        if constexpr (requires { Op::expression_ba; }) {
            return join<N>({form == 1 ? Op::expression_ba : Op::expression});
        } else {
            return join<N>({Op::expression});
        }
    } else if constexpr (Op::arity == 1) {
        return join<N>({Op::name, "((x))"});
    } else {
        return join<N>({Op::name, form == 1 ? "((b), (a))" : "((a), (b))"});
    }
}
template <class Op>
inline constexpr std::size_t text_room = [] {
    if constexpr (requires { Op::expression; }) {
        return Op::expression.size() + 16;
    } else {
        return Op::name.size() + 16;
    }
}();
template <class Op>
inline constexpr StaticText<text_room<Op>> binary_ab = call_text<Op, text_room<Op>>(0);
template <class Op>
inline constexpr StaticText<text_room<Op>> binary_ba = call_text<Op, text_room<Op>>(1);
template <class Op>
inline constexpr StaticText<text_room<Op>> unary_x = call_text<Op, text_room<Op>>(2);

/// The user operator that spells a call's types and brings its definitions (count_if's
/// predicate for the counting transform made of it).
template <class Op>
struct source_of {
    using type = Op;
};
template <class Op>
using source_t = typename source_of<Op>::type;

template <class Op>
consteval std::string_view definitions_of() {
    if constexpr (requires { source_t<Op>::decl; }) {
        return source_t<Op>::text.view();
    } else {
        return {};
    }
}
template <class A, class B>
inline constexpr auto joined_definitions = [] {
    constexpr std::string_view a = definitions_of<A>();
    constexpr std::string_view b = definitions_of<B>();
    return join<a.size() + b.size() + 2>({a, "\n", a == b ? std::string_view() : b});
}();

// ---------------------------------------------------------------------------------------------
// The specs (one static constant per call shape: its address keys the built kernels).

template <class In, class Acc, class Reduce, class Transform>
inline constexpr AlgorithmSpec reduce_spec{
    Family::reduce, std::is_same_v<In, Acc> && !requires {source_t<Transform>::decl;
}  // namespace detail::algo
? spelling<Acc, Reduce, 0>() : spelling<In, source_t<Transform>, 0>(), spelling<Acc, Reduce, 0>(),
    {}, joined_definitions<Transform, Reduce>.view(), binary_ab<Reduce>.view(),
    unary_x<Transform>.view(), sizeof(In), sizeof(Acc)
}
;

/// The identity transform of reduce (no operator).
struct NoTransform : OperatorTag {
    static constexpr bool transparent = true;
    static constexpr std::size_t arity = 1;
    static constexpr std::string_view expression = "(x)";
    static constexpr std::string_view name = "";
};

/// Predicate as transform: TR(x) gives 1 or 0 (count_if).
template <class Pred>
struct CountOf : OperatorTag {
    static constexpr bool transparent = true;
    static constexpr std::size_t arity = 1;
    static constexpr auto text_value =
        join<unary_x<Pred>.size + 24>({"((", unary_x<Pred>.view(), ") ? 1u : 0u)"});
    static constexpr std::string_view expression = text_value.view();
};
template <class Pred>
struct source_of<CountOf<Pred>> {
    using type = Pred;
};

template <class T, class Less, bool Max>
inline constexpr AlgorithmSpec extremum_spec{Family::extremum,
                                             spelling<T, Less, 0>(),
                                             spelling<T, Less, 0>(),
                                             {},
                                             definitions_of<Less>(),
                                             Max ? binary_ab<Less>.view() : binary_ba<Less>.view(),
                                             {},
                                             sizeof(T),
                                             sizeof(T)};

template <class T, class Op>
inline constexpr AlgorithmSpec scan_spec{Family::scan,
                                         spelling<T, Op, 0>(),
                                         spelling<T, Op, 0>(),
                                         {},
                                         definitions_of<Op>(),
                                         binary_ab<Op>.view(),
                                         {},
                                         sizeof(T),
                                         sizeof(T)};

/// A segmented scan's (value, head flag) pair in OpenCL C: the value, then a uint, padded to
/// the value's alignment (a built-in type's alignment is its size).
template <class V>
inline constexpr std::size_t pair_size = [] {
    const std::size_t align = sizeof(V) > 4 ? sizeof(V) : 4;
    return (sizeof(V) + 4 + align - 1) / align * align;
}();

template <class K, class V, class Op>
inline constexpr AlgorithmSpec scan_by_key_spec = [] {
    AlgorithmSpec spec;
    spec.family = Family::scan_by_key;
    spec.in_type = spelling<V, Op, 0>();
    spec.acc_type = "oc_pair";
    spec.in2_type = builtin_name_v<K>.view();
    spec.definitions = definitions_of<Op>();
    spec.op = binary_ab<Op>.view();
    spec.in_size = sizeof(V);
    spec.acc_size = pair_size<V>;
    spec.in2_size = sizeof(K);
    return spec;
}();

template <class T, class Pred>
inline constexpr AlgorithmSpec copy_if_spec{Family::copy_if,
                                            spelling<T, Pred, 0>(),
                                            spelling<T, Pred, 0>(),
                                            {},
                                            definitions_of<Pred>(),
                                            {},
                                            unary_x<Pred>.view(),
                                            sizeof(T),
                                            sizeof(T)};

template <class T, class Pred>
inline constexpr AlgorithmSpec partition_spec = [] {
    AlgorithmSpec spec = copy_if_spec<T, Pred>;
    spec.select = Select::partition;
    return spec;
}();

template <class T, class Equal>
inline constexpr AlgorithmSpec unique_spec = [] {
    AlgorithmSpec spec;
    spec.family = Family::copy_if;
    spec.in_type = spelling<T, Equal, 0>();
    spec.acc_type = spec.in_type;
    spec.definitions = definitions_of<Equal>();
    spec.op = binary_ab<Equal>.view();
    spec.in_size = sizeof(T);
    spec.acc_size = sizeof(T);
    spec.select = Select::unique;
    return spec;
}();

/// The bins of a histogram: the elements themselves (an integer type) or a unary operator's.
template <class T, class Bin>
inline constexpr AlgorithmSpec histogram_spec = [] {
    AlgorithmSpec spec;
    spec.family = Family::histogram;
    spec.in_type = spelling<T, Bin, 0>();
    if constexpr (requires { Bin::decl; }) {
        spec.acc_type = spelling<typename UserOperator<Bin>::result_t, Bin, 3>();
        spec.definitions = definitions_of<Bin>();
        spec.unary = unary_x<Bin>.view();
    } else {
        spec.acc_type = spec.in_type;
    }
    spec.in_size = sizeof(T);
    spec.acc_size = 4;
    return spec;
}();

template <class In, class Out, class Op>
inline constexpr AlgorithmSpec transform_spec{Family::transform,
                                              spelling<In, Op, 0>(),
                                              spelling<Out, Op, 3>(),
                                              {},
                                              definitions_of<Op>(),
                                              {},
                                              unary_x<Op>.view(),
                                              sizeof(In),
                                              sizeof(Out)};

template <class A, class B, class Out, class Op>
inline constexpr AlgorithmSpec transform2_spec{Family::transform,
                                               spelling<A, Op, 0>(),
                                               spelling<Out, Op, 3>(),
                                               spelling<B, Op, 1>(),
                                               definitions_of<Op>(),
                                               binary_ab<Op>.view(),
                                               {},
                                               sizeof(A),
                                               sizeof(Out),
                                               sizeof(B)};

template <class T>
inline constexpr AlgorithmSpec iota_spec{
    Family::iota, builtin_name_v<T>.view(), builtin_name_v<T>.view(), {}, {}, {}, {}, sizeof(T),
    sizeof(T)};

/// Key types radix sort orders: 32- and 64-bit integers and floating point.
template <class K>
inline constexpr bool sortable_key = (std::is_integral_v<K> && !std::is_same_v<K, bool> &&
                                      (sizeof(K) == 4 || sizeof(K) == 8)) ||
                                     std::is_same_v<K, float> || std::is_same_v<K, double>;

template <class K, class V>
inline constexpr AlgorithmSpec sort_spec = [] {
    AlgorithmSpec spec;
    spec.family = Family::radix_sort;
    spec.in_size = sizeof(K);
    spec.acc_size = std::is_void_v<V> ? 0 : sizeof(std::conditional_t<std::is_void_v<V>, int, V>);
    spec.key_bits = sizeof(K) * 8;
    spec.key_kind = std::is_floating_point_v<K> ? 2 : std::is_signed_v<K> ? 1 : 0;
    spec.values = !std::is_void_v<V>;
    return spec;
}();

// ---------------------------------------------------------------------------------------------
// Options and regions.

template <class O>
concept AlgorithmOption = CommandOption<O> ||
    std::is_same_v<std::remove_cvref_t<O>, AlgorithmPath> || std::is_same_v<O, MemoryPool&>;

struct Options {
    const WaitList* wait = &no_wait;
    OnError on_error;
    AlgorithmPath path = AlgorithmPath::automatic;
    MemoryPool* pool = nullptr;
};
inline void take(Options&, WithEvent) noexcept {}
/// A MemoryPool among a call's options gives that call its scratch memory (returned to the pool
/// after the call's commands, as any pool buffer); without one the queue keeps its own.
inline void take(Options& options, MemoryPool& pool) noexcept {
    options.pool = std::addressof(pool);  // &pool would instantiate the pool.hpp stub
}
inline void take(Options& options, const WaitList& wait) noexcept {
    options.wait = &wait;
}
inline void take(Options& options, AlgorithmPath path) noexcept {
    options.path = path;
}
template <class Target>
requires is_error_target<Target&>
void take(Options& options, Target& target) {
    options.on_error = OnError(target);
}
inline void take(Options& options, OnError on_error) noexcept {
    options.on_error = on_error;
}
inline void take(Options&, SortOrder) noexcept {}  // read by the sorts themselves

template <const char* Name, bool HostResult, class... O>
Options read_options(O&&... options) {
    static_assert(option_count<WithEvent, O...> <= 1 && option_count<WaitList, O...> <= 1 &&
                      option_count<AlgorithmPath, O...> <= 1 &&
                      option_count<MemoryPool, O...> <= 1 &&
                      (std::size_t{0} + ... + std::size_t{is_error_target<O&&>}) <= 1,
                  "openclaw algorithms: each of with_event, a wait list, an AlgorithmPath, a "
                  "MemoryPool and an error target may be given once");
    static_assert(!asks_nonblocking<O...>,
                  "openclaw algorithms: nonblocking is for transfers; an algorithm that returns "
                  "a value waits for it, the others never block");
    static_assert(!HostResult || !asks_event<O...>,
                  "openclaw algorithms: this call returns its result on the host, so it waits "
                  "for the device: there is no event to return (use reduce_into for a result "
                  "left on the device, with an event)");
    Options read;
    (take(read, options), ...);
    return read;
}

template <class R>
using element_t = typename std::remove_cvref_t<R>::value_type;
template <class R>
using access_t = typename std::remove_cvref_t<R>::access_type;

template <class R>
Span span_of(const R& region) {
    const auto& slice = region_of(region);
    return {&SliceAccess::mem(slice), slice.offset(), slice.size(), sizeof(element_t<R>)};
}

template <class R>
inline constexpr bool readable = access_t<R>::kernel_reads;
template <class R>
inline constexpr bool writable = access_t<R>::kernel_writes;

/// Runs a call that enqueues and returns its last command's Event when asked for.
template <const char* Name, class Run, class... O>
EventIfAsked<O...> enqueue_call(const Queue& queue, const Run& run, O&&... options) {
    const Options o = read_options<Name, false>(options...);
    cl_event event = nullptr;
    // Released if the call throws after the event was made; handed over otherwise.
    struct Adopter {
        cl_event& event;
        ~Adopter() {
            if (event != nullptr) {
                clReleaseEvent(event);
            }
        }
    } adopter{event};
    const Call call{queue,      Name,   *o.wait, asks_event<O...> ? &event : nullptr,
                    o.on_error, o.path, o.pool};
    if (o.wait->check(Name, queue.context_handle(), o.on_error)) {
        (void)run(call);
    }
    if constexpr (asks_event<O...>) {
        return Event::adopt(std::exchange(event, nullptr));
    }
}

inline constexpr char reduce_name[] = "openclaw::reduce";
inline constexpr char reduce_into_name[] = "openclaw::reduce_into";
inline constexpr char transform_reduce_name[] = "openclaw::transform_reduce";
inline constexpr char count_if_name[] = "openclaw::count_if";
inline constexpr char min_element_name[] = "openclaw::min_element";
inline constexpr char max_element_name[] = "openclaw::max_element";
inline constexpr char inclusive_scan_name[] = "openclaw::inclusive_scan";
inline constexpr char exclusive_scan_name[] = "openclaw::exclusive_scan";
inline constexpr char inclusive_scan_by_key_name[] = "openclaw::inclusive_scan_by_key";
inline constexpr char exclusive_scan_by_key_name[] = "openclaw::exclusive_scan_by_key";
inline constexpr char copy_if_name[] = "openclaw::copy_if";
inline constexpr char partition_name[] = "openclaw::partition";
inline constexpr char unique_name[] = "openclaw::unique";
inline constexpr char histogram_name[] = "openclaw::histogram";
inline constexpr char transform_name[] = "openclaw::transform";
inline constexpr char iota_name[] = "openclaw::iota";
inline constexpr char sort_name[] = "openclaw::sort";
inline constexpr char sort_by_key_name[] = "openclaw::sort_by_key";

template <const char* Name, class Acc, class Transform, class Reduce, class In, class... O>
Acc reduce_on_host(const Queue& queue, const In& in, const Acc& init, O&&... options) {
    const Options o = read_options<Name, true>(options...);
    const Call call{queue, Name, *o.wait, nullptr, o.on_error, o.path, o.pool};
    const Span span = span_of(in);
    Acc result = init;
    // A call that waits refuses a failed event of its list first (a driver may hang on it).
    if (!o.wait->check(Name, queue.context_handle(), o.on_error) ||
        !BlockingWait::before(*o.wait, Name, o.on_error) ||
        !check_span(call, span, "the input", false)) {
        return init;
    }
    if (span.count == 0) {
        return init;  // nothing to reduce
    }
    if (!reduce(call, reduce_spec<element_t<In>, Acc, Reduce, Transform>, span,
                Bytes{&init, sizeof(Acc)}, nullptr, &result)) {
        return init;
    }
    return result;
}

template <class R>
consteval bool check_input() {
    static_assert(readable<R>,
                  "openclaw algorithms: an input is a WriteOnly buffer, which kernels cannot "
                  "read: make it ReadOnly or ReadWrite");
    return readable<R>;
}
template <class R>
consteval bool check_output() {
    static_assert(writable<R>,
                  "openclaw algorithms: an output is a ReadOnly buffer, which kernels cannot "
                  "write: make it WriteOnly or ReadWrite");
    return writable<R>;
}

}  // namespace detail::algo

// ---- reductions -------------------------------------------------------------------------------

/// The sum of the elements of `in` (a Buffer or a slice), T{} for none; waits for the result.
/// Options: a wait list, an error target, an AlgorithmPath, a MemoryPool& for the scratch memory
/// (every algorithm takes one).
template <detail::BufferRegion In, detail::algo::AlgorithmOption... O>
[[nodiscard]] detail::algo::element_t<In> reduce(const Queue& queue, const In& in, O&&... options) {
    using T = detail::algo::element_t<In>;
    static_assert(detail::algo::check_input<In>() && detail::algo::check_builtin<plus<>, T>());
    return detail::algo::reduce_on_host<detail::algo::reduce_name, T, detail::algo::NoTransform,
                                        plus<>>(queue, in, T{}, options...);
}

/// `init` combined with every element of `in` by `op` (associative and commutative, as for
/// std::reduce); `init` must have the element type. Waits for the result.
template <detail::BufferRegion In, class Init, class Op, detail::algo::AlgorithmOption... O>
requires detail::algo::is_operator<Op>
[[nodiscard]] detail::algo::element_t<In> reduce(const Queue& queue, const In& in, const Init& init,
                                                 Op, O&&... options) {
    using T = detail::algo::element_t<In>;
    static_assert(std::is_same_v<Init, T>,
                  "openclaw::reduce: init must have the buffer's element type (e.g. 0.0f for a "
                  "float buffer, 0u for cl_uint), so that the reduction is not taken in another "
                  "type");
    static_assert(detail::algo::check_input<In>() && detail::algo::check_builtin<Op, T>() &&
                  detail::algo::check_operator<detail::algo::reduce_name, Op, 2, T, T, T>());
    return detail::algo::reduce_on_host<detail::algo::reduce_name, T, detail::algo::NoTransform,
                                        Op>(queue, in, init, options...);
}

/// `init` and transform(x) of every element x of `in`, combined by `reduce_op`: transform maps T
/// to U, reduce_op is U x U -> U, init is a U. Waits for the result.
template <detail::BufferRegion In, class U, class ReduceOp, class TransformOp,
          detail::algo::AlgorithmOption... O>
requires detail::algo::is_operator<ReduceOp> && detail::algo::is_operator<TransformOp>
[[nodiscard]] U transform_reduce(const Queue& queue, const In& in, const U& init, ReduceOp,
                                 TransformOp, O&&... options) {
    using T = detail::algo::element_t<In>;
    static_assert(!TransformOp::transparent,
                  "openclaw::transform_reduce: the transform must be an openclaw::op<\"...\">");
    static_assert(
        detail::algo::check_input<In>() && detail::algo::check_builtin<ReduceOp, U>() &&
        detail::algo::check_operator<detail::algo::transform_reduce_name, ReduceOp, 2, U, U, U>() &&
        detail::algo::check_operator<detail::algo::transform_reduce_name, TransformOp, 1, U, T>());
    return detail::algo::reduce_on_host<detail::algo::transform_reduce_name, U, TransformOp,
                                        ReduceOp>(queue, in, init, options...);
}

/// The number of elements of `in` for which `pred` (T -> a scalar) is nonzero. Waits.
template <detail::BufferRegion In, class Pred, detail::algo::AlgorithmOption... O>
requires detail::algo::is_operator<Pred>
[[nodiscard]] std::size_t count_if(const Queue& queue, const In& in, Pred, O&&... options) {
    using T = detail::algo::element_t<In>;
    static_assert(detail::algo::check_input<In>() &&
                  detail::algo::check_operator<detail::algo::count_if_name, Pred, 1, void, T>());
    return detail::algo::reduce_on_host<detail::algo::count_if_name, cl_uint,
                                        detail::algo::CountOf<Pred>, plus<>>(queue, in, cl_uint{0},
                                                                             options...);
}

/// The sum of `in` (or, with `init` and `op`, its reduction) written to `result`, a one-element
/// region of a buffer, without a round trip to the host: enqueued (options: with_event, a wait
/// list, an error target). An empty `in` writes the init.
template <detail::BufferRegion In, detail::BufferRegion Out, class Init, class Op,
          detail::algo::AlgorithmOption... O>
requires detail::algo::is_operator<Op> detail::EventIfAsked<O...> reduce_into(
    const Queue& queue, const In& in, const Out& result, const Init& init, Op, O&&... options) {
    using T = detail::algo::element_t<In>;
    static_assert(std::is_same_v<detail::algo::element_t<Out>, T>,
                  "openclaw::reduce_into: the result buffer's element type must be the input's");
    static_assert(std::is_same_v<Init, T>,
                  "openclaw::reduce_into: init must have the buffer's element type");
    static_assert(detail::algo::check_input<In>() && detail::algo::check_output<Out>() &&
                  detail::algo::check_builtin<Op, T>() &&
                  detail::algo::check_operator<detail::algo::reduce_into_name, Op, 2, T, T, T>());
    return detail::algo::enqueue_call<detail::algo::reduce_into_name>(
        queue,
        [&](const detail::algo::Call& call) {
            const detail::algo::Span in_span = detail::algo::span_of(in);
            const detail::algo::Span out_span = detail::algo::span_of(result);
            if (!detail::algo::check_span(call, in_span, "the input", false) ||
                !detail::algo::check_span(call, out_span, "the result", true)) {
                return false;
            }
            if (out_span.count != 1) {
                detail::fail(
                    call.on_error, CL_INVALID_VALUE, call.name,
                    detail::concat("the result region holds ", out_span.count,
                                   " elements: it must be one element (buffer.slice(i, 1))"));
                return false;
            }
            return detail::algo::check_overlap(call, in_span, out_span, "the input", "the result",
                                               false) &&
                   detail::algo::reduce(
                       call, detail::algo::reduce_spec<T, T, Op, detail::algo::NoTransform>,
                       in_span, detail::algo::Bytes{&init, sizeof(T)}, &out_span, nullptr);
        },
        options...);
}

/// The sum of `in` written to the one-element region `result` (see above).
template <detail::BufferRegion In, detail::BufferRegion Out, detail::algo::AlgorithmOption... O>
detail::EventIfAsked<O...> reduce_into(const Queue& queue, const In& in, const Out& result,
                                       O&&... options) {
    using T = detail::algo::element_t<In>;
    return reduce_into(queue, in, result, T{}, plus<>{}, std::forward<O>(options)...);
}

namespace detail::algo {
template <const char* Name, bool Max, class Less, class In, class... O>
std::size_t extremum_on_host(const Queue& queue, const In& in, O&&... options) {
    using T = element_t<In>;
    const Options o = read_options<Name, true>(options...);
    const Call call{queue, Name, *o.wait, nullptr, o.on_error, o.path, o.pool};
    const Span span = span_of(in);
    if (!o.wait->check(Name, queue.context_handle(), o.on_error) ||
        !BlockingWait::before(*o.wait, Name, o.on_error) ||
        !check_span(call, span, "the input", false)) {
        return span.count;
    }
    if (span.count == 0) {
        return 0;
    }
    std::size_t index = span.count;
    if (!extremum(call, extremum_spec<T, Less, Max>, span, index)) {
        return span.count;
    }
    return index;
}
}  // namespace detail::algo

/// The index (in `in`) of the first smallest element by `less` (a comparator T x T -> scalar,
/// `openclaw::less<>` by default); in.size() when `in` is empty or the call failed. Waits.
template <detail::BufferRegion In, class Less, detail::algo::AlgorithmOption... O>
requires detail::algo::is_operator<Less>
[[nodiscard]] std::size_t min_element(const Queue& queue, const In& in, Less, O&&... options) {
    using T = detail::algo::element_t<In>;
    static_assert(
        detail::algo::check_input<In>() && detail::algo::check_builtin<Less, T>() &&
        detail::algo::check_operator<detail::algo::min_element_name, Less, 2, void, T, T>());
    return detail::algo::extremum_on_host<detail::algo::min_element_name, false, Less>(queue, in,
                                                                                       options...);
}
/// As min_element() without a comparator.
template <detail::BufferRegion In, detail::algo::AlgorithmOption... O>
[[nodiscard]] std::size_t min_element(const Queue& queue, const In& in, O&&... options) {
    return min_element(queue, in, less<>{}, std::forward<O>(options)...);
}

/// The index of the first largest element by `less` (the element no other is greater than).
template <detail::BufferRegion In, class Less, detail::algo::AlgorithmOption... O>
requires detail::algo::is_operator<Less>
[[nodiscard]] std::size_t max_element(const Queue& queue, const In& in, Less, O&&... options) {
    using T = detail::algo::element_t<In>;
    static_assert(
        detail::algo::check_input<In>() && detail::algo::check_builtin<Less, T>() &&
        detail::algo::check_operator<detail::algo::max_element_name, Less, 2, void, T, T>());
    return detail::algo::extremum_on_host<detail::algo::max_element_name, true, Less>(queue, in,
                                                                                      options...);
}
/// As max_element() without a comparator.
template <detail::BufferRegion In, detail::algo::AlgorithmOption... O>
[[nodiscard]] std::size_t max_element(const Queue& queue, const In& in, O&&... options) {
    return max_element(queue, in, less<>{}, std::forward<O>(options)...);
}

// ---- scans ----------------------------------------------------------------------------------

namespace detail::algo {
template <const char* Name, class Op, class In, class Out, class T, class... O>
EventIfAsked<O...> scan_call(const Queue& queue, const In& in, const Out& out, const T* init,
                             O&&... options) {
    return enqueue_call<Name>(
        queue,
        [&](const Call& call) {
            const Span in_span = span_of(in);
            const Span out_span = span_of(out);
            if (!check_span(call, in_span, "the input", false) ||
                !check_span(call, out_span, "the output", true)) {
                return false;
            }
            if (out_span.count < in_span.count) {
                fail(call.on_error, CL_INVALID_VALUE, call.name,
                     concat("the output holds ", out_span.count, " elements, the input ",
                            in_span.count));
                return false;
            }
            const Bytes value{init, sizeof(T)};
            return check_overlap(call, in_span,
                                 {out_span.mem, out_span.offset, in_span.count, out_span.element},
                                 "the input", "the output", true) &&
                   scan(call, scan_spec<T, Op>, in_span, out_span,
                        init != nullptr ? &value : nullptr);
        },
        options...);
}
}  // namespace detail::algo

/// out[i] = in[0] op ... op in[i] (op associative; `plus<>` by default); `out` may be `in`
/// itself. Enqueued; options: with_event, a wait list, an error target, an AlgorithmPath.
template <detail::BufferRegion In, detail::BufferRegion Out, class Op,
          detail::algo::AlgorithmOption... O>
requires detail::algo::is_operator<Op> detail::EventIfAsked<O...> inclusive_scan(const Queue& queue,
                                                                                 const In& in,
                                                                                 const Out& out, Op,
                                                                                 O&&... options) {
    using T = detail::algo::element_t<In>;
    static_assert(std::is_same_v<detail::algo::element_t<Out>, T>,
                  "openclaw::inclusive_scan: the output's element type must be the input's");
    static_assert(
        detail::algo::check_input<In>() && detail::algo::check_output<Out>() &&
        detail::algo::check_builtin<Op, T>() &&
        detail::algo::check_operator<detail::algo::inclusive_scan_name, Op, 2, T, T, T>());
    return detail::algo::scan_call<detail::algo::inclusive_scan_name, Op>(
        queue, in, out, static_cast<const T*>(nullptr), options...);
}
/// inclusive_scan with plus<>.
template <detail::BufferRegion In, detail::BufferRegion Out, detail::algo::AlgorithmOption... O>
detail::EventIfAsked<O...> inclusive_scan(const Queue& queue, const In& in, const Out& out,
                                          O&&... options) {
    return inclusive_scan(queue, in, out, plus<>{}, std::forward<O>(options)...);
}

/// out[0] = init, out[i] = init op in[0] op ... op in[i - 1]; `init` has the element type.
template <detail::BufferRegion In, detail::BufferRegion Out, class Init, class Op,
          detail::algo::AlgorithmOption... O>
requires detail::algo::is_operator<Op> detail::EventIfAsked<O...> exclusive_scan(
    const Queue& queue, const In& in, const Out& out, const Init& init, Op, O&&... options) {
    using T = detail::algo::element_t<In>;
    static_assert(std::is_same_v<detail::algo::element_t<Out>, T>,
                  "openclaw::exclusive_scan: the output's element type must be the input's");
    static_assert(std::is_same_v<Init, T>,
                  "openclaw::exclusive_scan: init must have the buffer's element type");
    static_assert(
        detail::algo::check_input<In>() && detail::algo::check_output<Out>() &&
        detail::algo::check_builtin<Op, T>() &&
        detail::algo::check_operator<detail::algo::exclusive_scan_name, Op, 2, T, T, T>());
    return detail::algo::scan_call<detail::algo::exclusive_scan_name, Op>(queue, in, out, &init,
                                                                          options...);
}
/// exclusive_scan with plus<>.
template <detail::BufferRegion In, detail::BufferRegion Out, class Init,
          detail::algo::AlgorithmOption... O>
requires(!detail::algo::is_operator<Init> && !detail::algo::AlgorithmOption<Init>)
    detail::EventIfAsked<O...> exclusive_scan(const Queue& queue, const In& in, const Out& out,
                                              const Init& init, O&&... options) {
    return exclusive_scan(queue, in, out, init, plus<>{}, std::forward<O>(options)...);
}

// ---- scans by key -----------------------------------------------------------------------------

namespace detail::algo {
/// The checks of a scan by key (keys: a built-in scalar; values: a built-in type, the operator's).
template <const char* Name, class Keys, class Values, class Out, class Op>
consteval bool check_scan_by_key() {
    using K = element_t<Keys>;
    using V = element_t<Values>;
    static_assert(is_builtin<K> && host_type_code<K>().width == 1,
                  "openclaw::inclusive_scan_by_key, exclusive_scan_by_key: the keys must be a "
                  "built-in scalar type (runs of equal keys are compared with ==)");
    static_assert(is_builtin<V> && sizeof(V) <= 64,
                  "openclaw::inclusive_scan_by_key, exclusive_scan_by_key: the values must be a "
                  "built-in type of at most 64 bytes (cl_int, cl_float4, ...)");
    static_assert(std::is_same_v<element_t<Out>, V>,
                  "openclaw::inclusive_scan_by_key, exclusive_scan_by_key: the output's element "
                  "type must be the values'");
    return check_input<Keys>() && check_input<Values>() && check_output<Out>() &&
           check_builtin<Op, V>() && check_operator<Name, Op, 2, V, V, V>();
}

template <const char* Name, class Op, class Keys, class Values, class Out, class V, class... O>
EventIfAsked<O...> scan_by_key_call(const Queue& queue, const Keys& keys, const Values& values,
                                    const Out& out, const V* init, O&&... options) {
    return enqueue_call<Name>(
        queue,
        [&](const Call& call) {
            const Span keys_span = span_of(keys);
            const Span values_span = span_of(values);
            const Span out_span = span_of(out);
            if (!check_span(call, keys_span, "the keys", false) ||
                !check_span(call, values_span, "the values", false) ||
                !check_span(call, out_span, "the output", true)) {
                return false;
            }
            if (keys_span.count != values_span.count) {
                fail(call.on_error, CL_INVALID_VALUE, call.name,
                     concat("the keys hold ", keys_span.count, " elements, the values ",
                            values_span.count));
                return false;
            }
            if (out_span.count < values_span.count) {
                fail(call.on_error, CL_INVALID_VALUE, call.name,
                     concat("the output holds ", out_span.count, " elements, the values ",
                            values_span.count));
                return false;
            }
            const Span written{out_span.mem, out_span.offset, values_span.count, out_span.element};
            const Bytes value{init, sizeof(V)};
            return check_overlap(call, keys_span, written, "the keys", "the output", false) &&
                   check_overlap(call, values_span, written, "the values", "the output", true) &&
                   scan_by_key(call, scan_by_key_spec<element_t<Keys>, V, Op>, keys_span,
                               values_span, out_span, init != nullptr ? &value : nullptr);
        },
        options...);
}
}  // namespace detail::algo

/// A scan that starts again at each run of equal keys: out[i] = values[h] op ... op values[i],
/// h the first index of i's run of equal keys[] (plus<> by default; op associative). `keys` and
/// `values` have one size; `out` may be `values` itself, not `keys`. Enqueued; the options of
/// inclusive_scan.
template <detail::BufferRegion Keys, detail::BufferRegion Values, detail::BufferRegion Out,
          class Op, detail::algo::AlgorithmOption... O>
requires detail::algo::is_operator<Op> detail::EventIfAsked<O...> inclusive_scan_by_key(
    const Queue& queue, const Keys& keys, const Values& values, const Out& out, Op,
    O&&... options) {
    using V = detail::algo::element_t<Values>;
    static_assert(detail::algo::check_scan_by_key<detail::algo::inclusive_scan_by_key_name, Keys,
                                                  Values, Out, Op>());
    return detail::algo::scan_by_key_call<detail::algo::inclusive_scan_by_key_name, Op>(
        queue, keys, values, out, static_cast<const V*>(nullptr), options...);
}
/// inclusive_scan_by_key with plus<>.
template <detail::BufferRegion Keys, detail::BufferRegion Values, detail::BufferRegion Out,
          detail::algo::AlgorithmOption... O>
detail::EventIfAsked<O...> inclusive_scan_by_key(const Queue& queue, const Keys& keys,
                                                 const Values& values, const Out& out,
                                                 O&&... options) {
    return inclusive_scan_by_key(queue, keys, values, out, plus<>{}, std::forward<O>(options)...);
}

/// The exclusive form: out[h] = init at the first index h of each run of equal keys, then
/// out[i] = init op values[h] op ... op values[i - 1]. `init` has the values' type.
template <detail::BufferRegion Keys, detail::BufferRegion Values, detail::BufferRegion Out,
          class Init, class Op, detail::algo::AlgorithmOption... O>
requires detail::algo::is_operator<Op> detail::EventIfAsked<O...> exclusive_scan_by_key(
    const Queue& queue, const Keys& keys, const Values& values, const Out& out, const Init& init,
    Op, O&&... options) {
    using V = detail::algo::element_t<Values>;
    static_assert(std::is_same_v<Init, V>,
                  "openclaw::exclusive_scan_by_key: init must have the values' element type");
    static_assert(detail::algo::check_scan_by_key<detail::algo::exclusive_scan_by_key_name, Keys,
                                                  Values, Out, Op>());
    return detail::algo::scan_by_key_call<detail::algo::exclusive_scan_by_key_name, Op>(
        queue, keys, values, out, &init, options...);
}
/// exclusive_scan_by_key with plus<>.
template <detail::BufferRegion Keys, detail::BufferRegion Values, detail::BufferRegion Out,
          class Init, detail::algo::AlgorithmOption... O>
requires(!detail::algo::is_operator<Init> && !detail::algo::AlgorithmOption<Init>)
    detail::EventIfAsked<O...> exclusive_scan_by_key(const Queue& queue, const Keys& keys,
                                                     const Values& values, const Out& out,
                                                     const Init& init, O&&... options) {
    return exclusive_scan_by_key(queue, keys, values, out, init, plus<>{},
                                 std::forward<O>(options)...);
}

// ---- compaction -------------------------------------------------------------------------------

namespace detail::algo {
/// copy_if, partition and unique: checks, then the compaction of `spec`; the count it kept.
template <const char* Name, const AlgorithmSpec& Spec, class In, class Out, class... O>
std::size_t compact_call(const Queue& queue, const In& in, const Out& out, O&&... options) {
    static_assert(std::is_same_v<element_t<Out>, element_t<In>>,
                  "openclaw::copy_if, partition, unique: the output's element type must be the "
                  "input's");
    static_assert(check_input<In>() && check_output<Out>());
    const auto o = read_options<Name, true>(options...);
    const Call call{queue, Name, *o.wait, nullptr, o.on_error, o.path, o.pool};
    const Span in_span = span_of(in);
    const Span out_span = span_of(out);
    std::size_t count = 0;
    if (!o.wait->check(call.name, queue.context_handle(), o.on_error) ||
        !BlockingWait::before(*o.wait, call.name, o.on_error) ||
        !check_span(call, in_span, "the input", false) ||
        !check_span(call, out_span, "the output", true) ||
        !check_overlap(call, in_span, out_span, "the input", "the output", false)) {
        return 0;
    }
    if (Spec.select == Select::partition && out_span.count < in_span.count) {
        fail(call.on_error, CL_INVALID_VALUE, call.name,
             concat("the output holds ", out_span.count, " elements, the input ", in_span.count,
                    ": a partition writes every element"));
        return 0;
    }
    if (in_span.count == 0) {
        return 0;
    }
    (void)copy_if(call, Spec, in_span, out_span, count);
    return count;
}
}  // namespace detail::algo

/// Copies the elements of `in` for which `pred` (T -> scalar) is nonzero, in order, to the start
/// of `out`, and returns how many there were; waits. `out` must not overlap `in`; when more are
/// selected than `out` holds, the first out.size() are written and the call fails.
template <detail::BufferRegion In, detail::BufferRegion Out, class Pred,
          detail::algo::AlgorithmOption... O>
requires detail::algo::is_operator<Pred>
[[nodiscard]] std::size_t copy_if(const Queue& queue, const In& in, const Out& out, Pred,
                                  O&&... options) {
    using T = detail::algo::element_t<In>;
    static_assert(detail::algo::check_operator<detail::algo::copy_if_name, Pred, 1, void, T>());
    return detail::algo::compact_call<detail::algo::copy_if_name,
                                      detail::algo::copy_if_spec<T, Pred>>(queue, in, out,
                                                                           options...);
}

/// A stable partition: the elements of `in` for which `pred` (T -> scalar) is nonzero, in order,
/// then the others, in order, into `out` (which holds at least in.size() elements and does not
/// overlap `in`); returns how many satisfied it (the partition point); waits.
template <detail::BufferRegion In, detail::BufferRegion Out, class Pred,
          detail::algo::AlgorithmOption... O>
requires detail::algo::is_operator<Pred>
[[nodiscard]] std::size_t partition(const Queue& queue, const In& in, const Out& out, Pred,
                                    O&&... options) {
    using T = detail::algo::element_t<In>;
    static_assert(detail::algo::check_operator<detail::algo::partition_name, Pred, 1, void, T>());
    return detail::algo::compact_call<detail::algo::partition_name,
                                      detail::algo::partition_spec<T, Pred>>(queue, in, out,
                                                                             options...);
}

/// std::unique_copy: the first element of each run of consecutive equal elements of `in`
/// (`equal`: (T, T) -> scalar, equal_to<> by default), in order, into the start of `out`;
/// returns how many; waits. `out` must not overlap `in`; when it holds fewer, the first
/// out.size() are written and the call fails.
template <detail::BufferRegion In, detail::BufferRegion Out, class Equal,
          detail::algo::AlgorithmOption... O>
requires detail::algo::is_operator<Equal>
[[nodiscard]] std::size_t unique(const Queue& queue, const In& in, const Out& out, Equal,
                                 O&&... options) {
    using T = detail::algo::element_t<In>;
    static_assert(detail::algo::check_builtin<Equal, T>() &&
                  detail::algo::check_operator<detail::algo::unique_name, Equal, 2, void, T, T>());
    return detail::algo::compact_call<detail::algo::unique_name,
                                      detail::algo::unique_spec<T, Equal>>(queue, in, out,
                                                                           options...);
}
/// unique() with equal_to<>.
template <detail::BufferRegion In, detail::BufferRegion Out, detail::algo::AlgorithmOption... O>
[[nodiscard]] std::size_t unique(const Queue& queue, const In& in, const Out& out, O&&... options) {
    return unique(queue, in, out, equal_to<>{}, std::forward<O>(options)...);
}

// ---- histogram --------------------------------------------------------------------------------

namespace detail::algo {
/// A bin operator's result is an index; its name and type travel in the template arguments.
template <bool IntegerBin, class Name, class Returns>
constexpr void report_bin() {
    static_assert(IntegerBin,
                  "openclaw::histogram: the bin operator must return an integer (the bin's "
                  "index), not a floating-point value (see operator_returns<...> below)");
}

template <class T, class Bin, class Bins, class In, class... O>
EventIfAsked<O...> histogram_call(const Queue& queue, const In& in, const Bins& bins,
                                  O&&... options) {
    static_assert(std::is_same_v<element_t<Bins>, cl_uint>,
                  "openclaw::histogram: the bins are counters of type cl_uint");
    static_assert(check_input<In>() && check_output<Bins>());
    return enqueue_call<histogram_name>(
        queue,
        [&](const Call& call) {
            const Span in_span = span_of(in);
            const Span bins_span = span_of(bins);
            return check_span(call, in_span, "the input", false) &&
                   check_span(call, bins_span, "the bins", true) &&
                   check_overlap(call, in_span, bins_span, "the input", "the bins", false) &&
                   histogram(call, histogram_spec<T, Bin>, in_span, bins_span);
        },
        options...);
}
}  // namespace detail::algo

/// bins[b] = how many elements x of `in` fall in bin `bin(x)` (a unary operator returning an
/// integer); elements whose bin is outside [0, bins.size()) are not counted. The bins (cl_uint)
/// are zeroed first. Enqueued; options: with_event, a wait list, an error target.
template <detail::BufferRegion In, detail::BufferRegion Bins, class Bin,
          detail::algo::AlgorithmOption... O>
requires detail::algo::is_operator<Bin> detail::EventIfAsked<O...> histogram(const Queue& queue,
                                                                             const In& in,
                                                                             const Bins& bins, Bin,
                                                                             O&&... options) {
    using T = detail::algo::element_t<In>;
    static_assert(
        !Bin::transparent && requires { Bin::decl; },
        "openclaw::histogram: the bin operator is an openclaw::op<\"...\"> returning "
        "the bin's index");
    static_assert(detail::algo::check_operator<detail::algo::histogram_name, Bin, 1, void, T>());
    if constexpr (requires { Bin::decl; }) {
        using R = typename detail::algo::UserOperator<Bin>::result_t;
        detail::algo::report_bin<std::is_integral_v<R> && !std::is_same_v<R, bool>,
                                 detail::algo::operator_name_t<Bin>,
                                 detail::algo::operator_returns<R>>();
    }
    return detail::algo::histogram_call<T, Bin>(queue, in, bins, std::forward<O>(options)...);
}
/// histogram() whose bins are the elements' values (an integer element type).
template <detail::BufferRegion In, detail::BufferRegion Bins, detail::algo::AlgorithmOption... O>
detail::EventIfAsked<O...> histogram(const Queue& queue, const In& in, const Bins& bins,
                                     O&&... options) {
    using T = detail::algo::element_t<In>;
    static_assert(detail::algo::is_builtin_integer<T> && detail::host_type_code<T>().width == 1,
                  "openclaw::histogram: without a bin operator the elements are the bins' "
                  "indices: an integer scalar type (give an openclaw::op<\"...\"> mapping other "
                  "elements to a bin)");
    return detail::algo::histogram_call<T, detail::algo::NoTransform>(queue, in, bins,
                                                                      std::forward<O>(options)...);
}

// ---- element-wise -----------------------------------------------------------------------------

/// out[i] = op(in[i]) (op: T -> U, where T and U are the element types). `out` may be `in`.
template <detail::BufferRegion In, detail::BufferRegion Out, class Op,
          detail::algo::AlgorithmOption... O>
requires detail::algo::is_operator<Op> detail::EventIfAsked<O...> transform(const Queue& queue,
                                                                            const In& in,
                                                                            const Out& out, Op,
                                                                            O&&... options) {
    using T = detail::algo::element_t<In>;
    using U = detail::algo::element_t<Out>;
    static_assert(!Op::transparent,
                  "openclaw::transform: a unary transform is an openclaw::op<\"...\"> (the "
                  "built-ins are binary: transform(queue, a, b, out, plus<>{})");
    static_assert(detail::algo::check_input<In>() && detail::algo::check_output<Out>() &&
                  detail::algo::check_operator<detail::algo::transform_name, Op, 1, U, T>());
    return detail::algo::enqueue_call<detail::algo::transform_name>(
        queue,
        [&](const detail::algo::Call& call) {
            const detail::algo::Span in_span = detail::algo::span_of(in);
            const detail::algo::Span out_span = detail::algo::span_of(out);
            return detail::algo::check_span(call, in_span, "the input", false) &&
                   detail::algo::check_span(call, out_span, "the output", true) &&
                   (out_span.count >= in_span.count ||
                    (detail::fail(call.on_error, CL_INVALID_VALUE, call.name,
                                  detail::concat("the output holds ", out_span.count,
                                                 " elements, the input ", in_span.count)),
                     false)) &&
                   detail::algo::check_overlap(call, in_span, out_span, "the input", "the output",
                                               true) &&
                   detail::algo::transform(call, detail::algo::transform_spec<T, U, Op>, in_span,
                                           nullptr, out_span);
        },
        options...);
}

/// out[i] = op(a[i], b[i]) (op: T x S -> U, the three element types; built-ins need one type).
template <detail::BufferRegion A, detail::BufferRegion B, detail::BufferRegion Out, class Op,
          detail::algo::AlgorithmOption... O>
requires detail::algo::is_operator<Op> detail::EventIfAsked<O...> transform(const Queue& queue,
                                                                            const A& a, const B& b,
                                                                            const Out& out, Op,
                                                                            O&&... options) {
    using T = detail::algo::element_t<A>;
    using S = detail::algo::element_t<B>;
    using U = detail::algo::element_t<Out>;
    static_assert(!Op::transparent || (std::is_same_v<T, S> && std::is_same_v<T, U>),
                  "openclaw::transform: a built-in operator needs the same element type in both "
                  "inputs and the output");
    static_assert(detail::algo::check_input<A>() && detail::algo::check_input<B>() &&
                  detail::algo::check_output<Out>() && detail::algo::check_builtin<Op, U>() &&
                  detail::algo::check_operator<detail::algo::transform_name, Op, 2, U, T, S>());
    return detail::algo::enqueue_call<detail::algo::transform_name>(
        queue,
        [&](const detail::algo::Call& call) {
            const detail::algo::Span a_span = detail::algo::span_of(a);
            const detail::algo::Span b_span = detail::algo::span_of(b);
            const detail::algo::Span out_span = detail::algo::span_of(out);
            if (!detail::algo::check_span(call, a_span, "the first input", false) ||
                !detail::algo::check_span(call, b_span, "the second input", false) ||
                !detail::algo::check_span(call, out_span, "the output", true)) {
                return false;
            }
            if (b_span.count < a_span.count || out_span.count < a_span.count) {
                detail::fail(
                    call.on_error, CL_INVALID_VALUE, call.name,
                    detail::concat("the first input holds ", a_span.count, " elements, the second ",
                                   b_span.count, ", the output ", out_span.count,
                                   ": each must hold at least the first's"));
                return false;
            }
            return detail::algo::check_overlap(call, a_span, out_span, "the first input",
                                               "the output", true) &&
                   detail::algo::check_overlap(call, b_span, out_span, "the second input",
                                               "the output", true) &&
                   detail::algo::transform(call, detail::algo::transform2_spec<T, S, U, Op>, a_span,
                                           &b_span, out_span);
        },
        options...);
}

/// Sets every element of `region` to `value` (queue.fill: clEnqueueFillBuffer). Enqueued.
template <detail::BufferRegion R, class T, detail::algo::AlgorithmOption... O>
detail::EventIfAsked<O...> fill(const Queue& queue, const R& region, const T& value,
                                O&&... options) {
    static_assert(std::is_same_v<T, detail::algo::element_t<R>>,
                  "openclaw::fill: the value must have the buffer's element type");
    return queue.fill(region, value, std::forward<O>(options)...);
}

/// out[i] = start + i, for arithmetic scalar element types. Enqueued.
template <detail::BufferRegion R, class T, detail::algo::AlgorithmOption... O>
detail::EventIfAsked<O...> iota(const Queue& queue, const R& out, const T& start, O&&... options) {
    using E = detail::algo::element_t<R>;
    static_assert(std::is_same_v<T, E>,
                  "openclaw::iota: start must have the buffer's element type");
    static_assert(detail::algo::is_builtin<E> && detail::host_type_code<E>().width == 1,
                  "openclaw::iota: the elements must be an arithmetic scalar type");
    static_assert(detail::algo::check_output<R>());
    return detail::algo::enqueue_call<detail::algo::iota_name>(
        queue,
        [&](const detail::algo::Call& call) {
            const detail::algo::Span span = detail::algo::span_of(out);
            return detail::algo::check_span(call, span, "the output", true) &&
                   detail::algo::iota(call, detail::algo::iota_spec<E>, span,
                                      detail::algo::Bytes{&start, sizeof(E)});
        },
        options...);
}

// ---- sorting ----------------------------------------------------------------------------------

namespace detail::algo {
template <class O>
inline constexpr bool is_order = std::is_same_v<std::remove_cvref_t<O>, SortOrder>;
template <class O>
concept SortOption = AlgorithmOption<O> || is_order<O>;

template <class... O>
SortOrder order_of(const O&... options) {
    SortOrder order = SortOrder::ascending;
    (
        [&](const auto& option) {
            if constexpr (is_order<decltype(option)>) {
                order = option;
            }
        }(options),
        ...);
    return order;
}

template <class K>
consteval bool check_key() {
    static_assert(sortable_key<K>,
                  "openclaw::sort: the keys must be 32- or 64-bit integers, float or double "
                  "(cl_uint, cl_int, cl_float, cl_ulong, cl_long, cl_double); for other types "
                  "sort an integer key made from them with sort_by_key");
    return sortable_key<K>;
}
}  // namespace detail::algo

/// Sorts `keys` in place (LSD radix sort, stable), ascending unless SortOrder::descending is
/// given. Floats are ordered as -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN (the sign of
/// a NaN places it). Enqueued; options: SortOrder, AlgorithmPath (single_pass: Onesweep, on the
/// tiled kernels of GPUs), with_event, a wait list, an error target, a MemoryPool.
template <detail::BufferRegion Keys, detail::algo::SortOption... O>
detail::EventIfAsked<O...> sort(const Queue& queue, const Keys& keys, O&&... options) {
    using K = detail::algo::element_t<Keys>;
    static_assert(detail::algo::check_key<K>());
    static_assert(std::is_same_v<detail::algo::access_t<Keys>, ReadWrite>,
                  "openclaw::sort: the keys are sorted in place: pass a ReadWrite buffer");
    static_assert(detail::option_count<SortOrder, O...> <= 1,
                  "openclaw::sort: one SortOrder at most");
    const SortOrder order = detail::algo::order_of(options...);
    return detail::algo::enqueue_call<detail::algo::sort_name>(
        queue,
        [&](const detail::algo::Call& call) {
            const detail::algo::Span span = detail::algo::span_of(keys);
            return detail::algo::check_span(call, span, "the keys", true) &&
                   detail::algo::radix_sort(call, detail::algo::sort_spec<K, void>, span, nullptr,
                                            order == SortOrder::descending);
        },
        options...);
}

/// Sorts `keys` and moves each element of `values` with its key (stable: equal keys keep their
/// order). Values: any trivially copyable type of at most 16 bytes; at least as many as keys.
template <detail::BufferRegion Keys, detail::BufferRegion Values, detail::algo::SortOption... O>
detail::EventIfAsked<O...> sort_by_key(const Queue& queue, const Keys& keys, const Values& values,
                                       O&&... options) {
    using K = detail::algo::element_t<Keys>;
    using V = detail::algo::element_t<Values>;
    static_assert(detail::algo::check_key<K>());
    static_assert(sizeof(V) <= 16,
                  "openclaw::sort_by_key: values of at most 16 bytes are moved with their keys; "
                  "sort indices (cl_uint) as values and gather larger records with them");
    static_assert(std::is_same_v<detail::algo::access_t<Keys>, ReadWrite> &&
                      std::is_same_v<detail::algo::access_t<Values>, ReadWrite>,
                  "openclaw::sort_by_key: keys and values are sorted in place: pass ReadWrite "
                  "buffers");
    static_assert(detail::option_count<SortOrder, O...> <= 1,
                  "openclaw::sort_by_key: one SortOrder at most");
    const SortOrder order = detail::algo::order_of(options...);
    return detail::algo::enqueue_call<detail::algo::sort_by_key_name>(
        queue,
        [&](const detail::algo::Call& call) {
            const detail::algo::Span k = detail::algo::span_of(keys);
            detail::algo::Span v = detail::algo::span_of(values);
            if (!detail::algo::check_span(call, k, "the keys", true) ||
                !detail::algo::check_span(call, v, "the values", true)) {
                return false;
            }
            if (v.count < k.count) {
                detail::fail(
                    call.on_error, CL_INVALID_VALUE, call.name,
                    detail::concat("the values hold ", v.count, " elements, the keys ", k.count));
                return false;
            }
            v.count = k.count;
            return detail::algo::check_overlap(call, k, v, "the keys", "the values", false) &&
                   detail::algo::radix_sort(call, detail::algo::sort_spec<K, V>, k, &v,
                                            order == SortOrder::descending);
        },
        options...);
}

// ---- the queue's engine -----------------------------------------------------------------------

/// What a queue's algorithms have built and allocated so far (shared by copies of the queue).
struct AlgorithmStats {
    std::size_t programs = 0;             ///< programs built (one per algorithm, type, operator)
    std::size_t kernels = 0;              ///< kernels made from them
    std::size_t scratch_allocations = 0;  ///< times the scratch memory grew
    std::size_t scratch_bytes = 0;        ///< the scratch memory the queue keeps now
};

/// The algorithms' programs, kernels and scratch memory of `queue` so far.
inline AlgorithmStats algorithm_stats(const Queue& queue) {
    const detail::algo::EngineCounts counts = detail::algo::engine_counts(queue);
    return {counts.programs, counts.kernels, counts.scratch_allocations, counts.scratch_bytes};
}

OPENCLAW_END_NAMESPACE

#include <openclaw/detail/base/macros_pop.hpp>
