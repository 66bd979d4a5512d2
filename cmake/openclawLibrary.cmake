# SPDX-License-Identifier: Apache-2.0
# openclaw's build modes as CMake targets (docs/guide.md, "Build modes"):
#
#   target_link_libraries(app PRIVATE openclaw::openclaw)     # the compiled library (default)
#   target_link_libraries(app PRIVATE openclaw::static)       # the static library, by name
#   target_link_libraries(app PRIVATE openclaw::shared)       # the shared library, by name
#   target_link_libraries(app PRIVATE openclaw::header_only)  # every body in the app's own units
#
# The project builds the library once, from the sources in src/: one set of position-independent
# objects, archived as libopenclaw.a and linked as libopenclaw.so.<major>.<minor> (the SONAME: a
# 0.x minor release may change the ABI). Each source includes <openclaw/impl/...ipp>, where every
# non-template body of the headers is written once. Both libraries define
# OPENCLAW_SEPARATE_COMPILATION for everything that links them, so users' units only declare
# those functions. openclaw::header_only (an INTERFACE target) defines nothing: each header then
# includes its bodies at its end.
#
# In openclaw's own tree (and under add_subdirectory or FetchContent) openclaw::openclaw is the
# static library; an installed package (openclawConfig.cmake) makes it the shared one. A consumer
# of the installed package compiles none of openclaw's sources.
#
# A program that configures openclaw differently (CL_TARGET_OPENCL_VERSION, -fno-exceptions)
# makes a static library of its own, with the same settings, from the sources (installed under
# share/openclaw/src):
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
