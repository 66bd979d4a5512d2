// SPDX-License-Identifier: Apache-2.0
// No include guard, on purpose: every openclaw header includes this first and
// <openclaw/detail/base/macros_pop.hpp> last. A program's one-letter macros (`#define V 3`, a
// common habit in numeric code) would otherwise rewrite openclaw's template parameters and
// break its headers with errors that never name the macro; here each is saved, undefined while
// an openclaw header is read, and restored after it (tests/CMakeLists.txt, "user macros").
#pragma push_macro("A")
#undef A
#pragma push_macro("B")
#undef B
#pragma push_macro("C")
#undef C
#pragma push_macro("D")
#undef D
#pragma push_macro("E")
#undef E
#pragma push_macro("F")
#undef F
#pragma push_macro("G")
#undef G
#pragma push_macro("H")
#undef H
#pragma push_macro("I")
#undef I
#pragma push_macro("J")
#undef J
#pragma push_macro("K")
#undef K
#pragma push_macro("L")
#undef L
#pragma push_macro("M")
#undef M
#pragma push_macro("N")
#undef N
#pragma push_macro("O")
#undef O
#pragma push_macro("P")
#undef P
#pragma push_macro("Q")
#undef Q
#pragma push_macro("R")
#undef R
#pragma push_macro("S")
#undef S
#pragma push_macro("T")
#undef T
#pragma push_macro("U")
#undef U
#pragma push_macro("V")
#undef V
#pragma push_macro("W")
#undef W
#pragma push_macro("X")
#undef X
#pragma push_macro("Y")
#undef Y
#pragma push_macro("Z")
#undef Z
