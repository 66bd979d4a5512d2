# The .deb made by CPack, checked as a user of it would see it: configure a packaging build of the
# source tree (library only), `cpack -G DEB`, check the control fields with `dpkg-deb -I`, unpack
# it with `dpkg-deb -x` into WORK_DIR/root (no root privileges), then build and run the
# find_package consumer against WORK_DIR/root/usr and ask pkg-config about the unpacked
# openclaw.pc.
cmake_minimum_required(VERSION 3.21)  # policies of a project, for IN_LIST and friends
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
if(NOT DPKG_DEB)
  message("package test skipped: no dpkg-deb on this machine")
  return()
endif()

include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")  # run(), check_installed()

set(package_build "${WORK_DIR}/package-build")
run("${CMAKE_COMMAND}" -S "${OPENCLAW_SOURCE_DIR}" -B "${package_build}" -G "${GENERATOR}"
    "-DCMAKE_CXX_COMPILER=${CXX}" -DCMAKE_BUILD_TYPE=Release -DOPENCLAW_BUILD_TESTS=OFF
    -DOPENCLAW_BUILD_EXAMPLES=OFF -DOPENCLAW_BUILD_BENCHMARKS=OFF)
execute_process(COMMAND "${CMAKE_CPACK_COMMAND}" -G DEB WORKING_DIRECTORY "${package_build}"
                RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
message("${output}")
if(NOT result EQUAL 0)
  message(FATAL_ERROR "cpack -G DEB failed (${result})")
endif()
set(deb "${package_build}/libopenclaw-dev_${OPENCLAW_VERSION}_all.deb")
if(NOT EXISTS "${deb}")
  file(GLOB made "${package_build}/*.deb")
  message(FATAL_ERROR "cpack made no ${deb} (made: ${made})")
endif()

# Control fields.
execute_process(COMMAND "${DPKG_DEB}" -f "${deb}" Package Version Architecture Depends Section
                OUTPUT_VARIABLE fields COMMAND_ERROR_IS_FATAL ANY)
message("${fields}")
foreach(expected IN ITEMS "Package: libopenclaw-dev\n" "Version: ${OPENCLAW_VERSION}\n"
                          "Architecture: all\n" "Section: libdevel\n")
  string(FIND "${fields}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "dpkg-deb -f: no '${expected}'")
  endif()
endforeach()
if(NOT fields MATCHES "\nDepends: [^\n]*ocl-icd-opencl-dev" OR
   NOT fields MATCHES "\nDepends: [^\n]*opencl-c-headers")
  message(FATAL_ERROR "Depends should name ocl-icd-opencl-dev and opencl-c-headers")
endif()
run("${DPKG_DEB}" -I "${deb}")

# Contents: everything under /usr, and the files a consumer needs.
set(root "${WORK_DIR}/root")
run("${DPKG_DEB}" -x "${deb}" "${root}")
file(GLOB top RELATIVE "${root}" "${root}/*")
if(NOT top STREQUAL "usr")
  message(FATAL_ERROR "the .deb installs outside /usr: ${top}")
endif()
check_installed("${root}/usr" "the .deb's /usr")

# The unpacked openclaw.pc points at the unpacked headers (it finds its prefix from its own place).
if(PKG_CONFIG)
  set(ENV{PKG_CONFIG_PATH} "${root}/usr/share/pkgconfig")
  execute_process(COMMAND "${PKG_CONFIG}" --cflags-only-I openclaw OUTPUT_VARIABLE flags
                  OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
  string(REGEX REPLACE "^-I([^ ]*).*" "\\1" include_dir "${flags}")
  if(NOT EXISTS "${include_dir}/openclaw/openclaw.hpp")
    message(FATAL_ERROR "pkg-config on the unpacked .deb: '${flags}' lacks its headers")
  endif()
endif()

set(prefix "${root}/usr")
run("${CMAKE_COMMAND}" -S "${OPENCLAW_SOURCE_DIR}/tests/package/find_package"
    -B "${WORK_DIR}/build" -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX}"
    -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=${prefix}" "-DEXPECTED_PREFIX=${prefix}")
run("${CMAKE_COMMAND}" --build "${WORK_DIR}/build")
run_expecting("${WORK_DIR}/build/consumer" "(compiled library)")
run_expecting("${WORK_DIR}/build/consumer_header_only" "(header-only)")
