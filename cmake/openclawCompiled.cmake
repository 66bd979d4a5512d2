# SPDX-License-Identifier: Apache-2.0
# openclaw's separately compiled mode as a CMake target. Header-only stays the default; a program
# of many units can compile openclaw's non-template functions once instead of in every unit:
#
#   target_link_libraries(app PRIVATE openclaw::compiled)
#
# openclaw::compiled is a static library built, in the consumer's build, from one source file
# (src/openclaw.cpp: #include <openclaw/src.hpp>). It defines OPENCLAW_SEPARATE_COMPILATION for
# itself and for everything that links it, so the two sides agree. It is only built when something
# links it. A program that configures openclaw differently (CL_TARGET_OPENCL_VERSION,
# -fno-exceptions) makes a library of its own with the same settings:
#
#   openclaw_add_compiled_library(<name> [DEFINITIONS <definition>...] [OPTIONS <option>...])
#
# Definitions and options are PUBLIC: the library and its users are compiled alike. Units built
# differently would not link together anyway (openclaw's ABI namespace names the configuration).

function(openclaw_add_compiled_library name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "DEFINITIONS;OPTIONS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
      "openclaw_add_compiled_library: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  get_property(source GLOBAL PROPERTY OPENCLAW_COMPILED_SOURCE)
  if(NOT source OR NOT EXISTS "${source}")
    message(FATAL_ERROR "openclaw_add_compiled_library: openclaw's source file (${source}) is "
      "missing: include openclawCompiled.cmake through find_package(openclaw) or add_subdirectory")
  endif()
  add_library(${name} STATIC EXCLUDE_FROM_ALL "${source}")
  target_link_libraries(${name} PUBLIC openclaw::openclaw)
  target_compile_definitions(${name} PUBLIC OPENCLAW_SEPARATE_COMPILATION ${arg_DEFINITIONS})
  target_compile_options(${name} PUBLIC ${arg_OPTIONS})
  target_compile_features(${name} PUBLIC cxx_std_20)
  # Linkable into shared libraries too.
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()

if(NOT TARGET openclaw::compiled)
  openclaw_add_compiled_library(openclaw_compiled)
  add_library(openclaw::compiled ALIAS openclaw_compiled)
endif()
