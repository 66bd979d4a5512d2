# Configures, builds and runs a consumer project of openclaw.
#   MODE=find_package: install the build tree into WORK_DIR/prefix, then find_package() it: the
#     consumer links the installed shared library (openclaw::openclaw) and the static one
#     (openclaw::static), and its build compiles no openclaw source.
#   MODE=add_subdirectory: add the source tree as a subdirectory.
#   MODE=fetch_content: pack the source tree into an archive, then FetchContent it by URL and hash.
#   MODE=pkg_config: install into WORK_DIR/prefix, then compile consumer.cpp with one compiler
#     command and the flags of `pkg-config --cflags --libs openclaw` (the installed library), as
#     a Makefile user would, and again with openclaw-header-only.
cmake_minimum_required(VERSION 3.21)  # policies of a project, for IN_LIST and friends
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")  # run(), check_installed()

# The install must hold the headers, the CMake package and the pkg-config file.
function(install_into prefix)
  run("${CMAKE_COMMAND}" --install "${OPENCLAW_BINARY_DIR}" --prefix "${prefix}")
  check_installed("${prefix}" "${OPENCLAW_LIBDIR}" "the install")
endfunction()

set(consumer_dir "${OPENCLAW_SOURCE_DIR}/tests/package")

if(MODE STREQUAL "pkg_config")
  if(NOT PKG_CONFIG)
    message("package test skipped: no pkg-config on this machine")
    return()
  endif()
  set(prefix "${WORK_DIR}/prefix")
  install_into("${prefix}")
  set(ENV{PKG_CONFIG_PATH} "${prefix}/${OPENCLAW_LIBDIR}/pkgconfig")
  execute_process(COMMAND "${PKG_CONFIG}" --modversion openclaw OUTPUT_VARIABLE version
                  OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
  if(NOT version STREQUAL OPENCLAW_VERSION)
    message(FATAL_ERROR "pkg-config --modversion openclaw: '${version}', expected "
                        "'${OPENCLAW_VERSION}'")
  endif()
  execute_process(COMMAND "${PKG_CONFIG}" --print-requires openclaw OUTPUT_VARIABLE requires
                  COMMAND_ERROR_IS_FATAL ANY)
  if(NOT requires MATCHES "^OpenCL")
    message(FATAL_ERROR "openclaw.pc should require OpenCL, requires: '${requires}'")
  endif()
  execute_process(COMMAND "${PKG_CONFIG}" --cflags --libs openclaw OUTPUT_VARIABLE flags
                  OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
  message("pkg-config --cflags --libs openclaw: ${flags}")
  separate_arguments(flags UNIX_COMMAND "${flags}")
  # The include directory must be the install's (found from the .pc file's own place), and
  # -lOpenCL must come through Requires: OpenCL.
  set(include_dir "")
  foreach(flag IN LISTS flags)
    if(flag MATCHES "^-I(.*)")
      if(EXISTS "${CMAKE_MATCH_1}/openclaw/openclaw.hpp")
        file(REAL_PATH "${CMAKE_MATCH_1}" include_dir)
      endif()
    endif()
  endforeach()
  file(REAL_PATH "${prefix}/include" expected_include_dir)
  if(NOT include_dir STREQUAL expected_include_dir)
    message(FATAL_ERROR "pkg-config gave no -I for ${expected_include_dir}: ${flags}")
  endif()
  if(NOT "-lOpenCL" IN_LIST flags)
    message(FATAL_ERROR "pkg-config gave no -lOpenCL: ${flags}")
  endif()
  if(flags MATCHES "-std=")
    message(FATAL_ERROR "openclaw.pc must not choose the language standard: ${flags}")
  endif()

  # The kernel header, made with the installed generator as a Makefile rule would.
  run("${CMAKE_COMMAND}" "-DOPENCLAW_EMBED_INPUT=${consumer_dir}/add.cl"
      "-DOPENCLAW_EMBED_OUTPUT=${WORK_DIR}/generated/add.cl.hpp" -DOPENCLAW_EMBED_NAMESPACE=kernels
      -DOPENCLAW_EMBED_NAME=add -DOPENCLAW_EMBED_DISPLAY=add.cl
      -P "${prefix}/${OPENCLAW_LIBDIR}/cmake/openclaw/openclawEmbedKernels.cmake")
  if(NOT "-DOPENCLAW_SEPARATE_COMPILATION" IN_LIST flags OR NOT "-lopenclaw" IN_LIST flags)
    message(FATAL_ERROR "openclaw.pc should link the library (-lopenclaw and "
                        "-DOPENCLAW_SEPARATE_COMPILATION): ${flags}")
  endif()
  # The installed shared library, found at run time through the rpath a user would set (or
  # LD_LIBRARY_PATH, or the system's library directory).
  separate_arguments(tree_flags UNIX_COMMAND "${CXX_FLAGS} ${LINK_FLAGS}")
  run("${CXX}" -std=c++20 -Wall -Wextra -Wpedantic -Werror ${tree_flags} "-I${WORK_DIR}/generated"
      "${consumer_dir}/consumer.cpp" -o "${WORK_DIR}/consumer" ${flags}
      "-Wl,-rpath,${prefix}/${OPENCLAW_LIBDIR}")
  check_needs_shared_library("${WORK_DIR}/consumer")
  run_expecting("${WORK_DIR}/consumer" "(compiled library)")
  # Without -std=c++20 (g++ 12 defaults to C++17) the first error says what is missing.
  execute_process(COMMAND "${CXX}" -std=c++17 -fsyntax-only "-I${WORK_DIR}/generated"
                          "${consumer_dir}/consumer.cpp" ${flags}
                  RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(result EQUAL 0 OR NOT output MATCHES "openclaw needs C\\+\\+20")
    message(FATAL_ERROR "-std=c++17 should fail with 'openclaw needs C++20' (${result})")
  endif()
  # openclaw-header-only.pc: the headers alone, every body in the program's unit.
  execute_process(COMMAND "${PKG_CONFIG}" --cflags --libs openclaw-header-only
                  OUTPUT_VARIABLE header_flags OUTPUT_STRIP_TRAILING_WHITESPACE
                  COMMAND_ERROR_IS_FATAL ANY)
  message("pkg-config --cflags --libs openclaw-header-only: ${header_flags}")
  separate_arguments(header_flags UNIX_COMMAND "${header_flags}")
  if("-lopenclaw" IN_LIST header_flags OR "-DOPENCLAW_SEPARATE_COMPILATION" IN_LIST header_flags)
    message(FATAL_ERROR "openclaw-header-only.pc should not link the library: ${header_flags}")
  endif()
  run("${CXX}" -std=c++20 -Wall -Wextra -Wpedantic -Werror "-I${WORK_DIR}/generated"
      "${consumer_dir}/consumer.cpp" -o "${WORK_DIR}/consumer_header_only" ${header_flags})
  run_expecting("${WORK_DIR}/consumer_header_only" "(header-only)")
  return()
endif()

# The consumer is compiled as the tree that installed the library (a sanitizer build's library
# needs the sanitizer runtime in the program too).
set(configure_args -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX}" -DCMAKE_BUILD_TYPE=Release
                   -DCMAKE_EXPORT_COMPILE_COMMANDS=ON "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}"
                   "-DCMAKE_EXE_LINKER_FLAGS=${LINK_FLAGS}")
if(MODE STREQUAL "find_package")
  set(prefix "${WORK_DIR}/prefix")
  install_into("${prefix}")
  list(APPEND configure_args "-DCMAKE_PREFIX_PATH=${prefix}" "-DEXPECTED_PREFIX=${prefix}")
elseif(MODE STREQUAL "fetch_content")
  # An archive of the tree as a release would have it: every top-level entry but build trees and
  # version control.
  file(GLOB entries RELATIVE "${OPENCLAW_SOURCE_DIR}" "${OPENCLAW_SOURCE_DIR}/*")
  list(FILTER entries EXCLUDE REGEX "^(build.*|\\.git|\\.cache)$")
  file(RELATIVE_PATH in_tree "${OPENCLAW_SOURCE_DIR}" "${OPENCLAW_BINARY_DIR}")
  if(NOT in_tree MATCHES "^\\.\\./" AND in_tree MATCHES "^([^/]+)")
    list(REMOVE_ITEM entries "${CMAKE_MATCH_1}")  # a build tree inside the source tree
  endif()
  set(archive "${WORK_DIR}/openclaw-src.tar.gz")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E tar czf "${archive}" -- ${entries}
                  WORKING_DIRECTORY "${OPENCLAW_SOURCE_DIR}" COMMAND_ERROR_IS_FATAL ANY)
  file(SHA256 "${archive}" hash)
  list(APPEND configure_args "-DOPENCLAW_URL=${archive}" "-DOPENCLAW_SHA256=${hash}")
else()
  list(APPEND configure_args "-DOPENCLAW_SOURCE_DIR=${OPENCLAW_SOURCE_DIR}")
endif()

run("${CMAKE_COMMAND}" -S "${consumer_dir}/${MODE}" -B "${WORK_DIR}/build" ${configure_args})
run("${CMAKE_COMMAND}" --build "${WORK_DIR}/build")
# openclaw::openclaw is the compiled library; openclaw::header_only compiles everything in the unit.
run_expecting("${WORK_DIR}/build/consumer" "(compiled library)")
run_expecting("${WORK_DIR}/build/consumer_header_only" "(header-only)")
if(MODE STREQUAL "find_package")
  # The installed package: the shared library by default, the static one by name, and none of
  # openclaw's sources compiled in the consumer's build.
  check_compiles_no_openclaw_source("${WORK_DIR}/build")
  check_needs_shared_library("${WORK_DIR}/build/consumer")
  run_expecting("${WORK_DIR}/build/consumer_static" "(compiled library)")
endif()
