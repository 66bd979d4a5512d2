// SPDX-License-Identifier: Apache-2.0
// A program that defines one-letter macros before including openclaw (`#define V 3`, common in
// numeric code): every public header still compiles, in both build modes, and every macro keeps
// its value after them (detail/base/macros_push.hpp, macros_pop.hpp). Compiled by the build; a
// failure is a build error.
#define A 1000
#define B 1001
#define C 1002
#define D 1003
#define E 1004
#define F 1005
#define G 1006
#define H 1007
#define I 1008
#define J 1009
#define K 1010
#define L 1011
#define M 1012
#define N 1013
#define O 1014
#define P 1015
#define Q 1016
#define R 1017
#define S 1018
#define T 1019
#define U 1020
#define V 1021
#define W 1022
#define X 1023
#define Y 1024
#define Z 1025

#include <openclaw/all.hpp>
#include <openclaw/cache.hpp>
#include <openclaw/profile.hpp>

static_assert(A == 1000, "openclaw changed the program's macro A");
static_assert(B == 1001, "openclaw changed the program's macro B");
static_assert(C == 1002, "openclaw changed the program's macro C");
static_assert(D == 1003, "openclaw changed the program's macro D");
static_assert(E == 1004, "openclaw changed the program's macro E");
static_assert(F == 1005, "openclaw changed the program's macro F");
static_assert(G == 1006, "openclaw changed the program's macro G");
static_assert(H == 1007, "openclaw changed the program's macro H");
static_assert(I == 1008, "openclaw changed the program's macro I");
static_assert(J == 1009, "openclaw changed the program's macro J");
static_assert(K == 1010, "openclaw changed the program's macro K");
static_assert(L == 1011, "openclaw changed the program's macro L");
static_assert(M == 1012, "openclaw changed the program's macro M");
static_assert(N == 1013, "openclaw changed the program's macro N");
static_assert(O == 1014, "openclaw changed the program's macro O");
static_assert(P == 1015, "openclaw changed the program's macro P");
static_assert(Q == 1016, "openclaw changed the program's macro Q");
static_assert(R == 1017, "openclaw changed the program's macro R");
static_assert(S == 1018, "openclaw changed the program's macro S");
static_assert(T == 1019, "openclaw changed the program's macro T");
static_assert(U == 1020, "openclaw changed the program's macro U");
static_assert(V == 1021, "openclaw changed the program's macro V");
static_assert(W == 1022, "openclaw changed the program's macro W");
static_assert(X == 1023, "openclaw changed the program's macro X");
static_assert(Y == 1024, "openclaw changed the program's macro Y");
static_assert(Z == 1025, "openclaw changed the program's macro Z");

// The macros are the program's again: a use of one expands as the program wrote it.
int user_macros_value() {
    return V + T;
}
