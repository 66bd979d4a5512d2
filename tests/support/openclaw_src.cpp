// SPDX-License-Identifier: Apache-2.0
// The one unit of a separately compiled test program that defines openclaw's out-of-line
// functions (OPENCLAW_SEPARATE_COMPILATION; docs/guide.md, "Compile time").
#include <openclaw/src.hpp>
