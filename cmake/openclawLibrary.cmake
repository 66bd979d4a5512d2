# SPDX-License-Identifier: Apache-2.0
# openclaw's two build modes as CMake targets (docs/guide.md, "Build modes"):
#
#   target_link_libraries(app PRIVATE openclaw::openclaw)     # the compiled library (default)
#   target_link_libraries(app PRIVATE openclaw::header_only)  # every body in the app's own units
#
# openclaw::openclaw is a static library built in the consumer's build, from the sources in src/
# (installed under share/openclaw/src), the first time something links it. Each source includes
# <openclaw/impl/...ipp>, where every non-template body of the headers is written once. It defines
# OPENCLAW_SEPARATE_COMPILATION for itself and for everything that links it, so users' units only
# declare those functions. openclaw::header_only (an INTERFACE target) defines nothing: each
# header then includes its bodies at its end.
#
# A program that configures openclaw differently (CL_TARGET_OPENCL_VERSION, -fno-exceptions)
# makes a library of its own with the same settings:
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
  get_property(sources GLOBAL PROPERTY OPENCLAW_LIBRARY_SOURCES)
  if(NOT sources)
    message(FATAL_ERROR "openclaw_add_compiled_library: openclaw's sources are unknown: include "
      "openclawLibrary.cmake through find_package(openclaw) or add_subdirectory")
  endif()
  foreach(source IN LISTS sources)
    if(NOT EXISTS "${source}")
      message(FATAL_ERROR "openclaw_add_compiled_library: openclaw's source ${source} is missing")
    endif()
  endforeach()
  add_library(${name} STATIC EXCLUDE_FROM_ALL ${sources})
  target_link_libraries(${name} PUBLIC openclaw::header_only)
  target_compile_definitions(${name} PUBLIC OPENCLAW_SEPARATE_COMPILATION ${arg_DEFINITIONS})
  target_compile_options(${name} PUBLIC ${arg_OPTIONS})
  target_compile_features(${name} PUBLIC cxx_std_20)
  # Linkable into shared libraries too.
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()

if(NOT TARGET openclaw::openclaw)
  openclaw_add_compiled_library(openclaw_library)
  add_library(openclaw::openclaw ALIAS openclaw_library)
endif()
