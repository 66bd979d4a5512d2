// SPDX-License-Identifier: Apache-2.0
// The one source file of openclaw's separately compiled mode (the openclaw::compiled CMake
// target): every function that mode takes out of the users' units is defined here, once.
#include <openclaw/src.hpp>
