# The .debs made by CPack, checked as a user of them would see them: configure a packaging build
# of the source tree (library only), `cpack -G DEB` (two packages: libopenclaw<major>.<minor>, the
# shared library, and libopenclaw-dev), check the control fields with `dpkg-deb -f`, unpack both
# with `dpkg-deb -x` into WORK_DIR/root (no root privileges), then build and run the find_package
# consumer against WORK_DIR/root/usr and ask pkg-config about the unpacked openclaw.pc.
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
run("${CMAKE_COMMAND}" --build "${package_build}")
execute_process(COMMAND "${CMAKE_CPACK_COMMAND}" -G DEB WORKING_DIRECTORY "${package_build}"
                RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
message("${output}")
if(NOT result EQUAL 0)
  message(FATAL_ERROR "cpack -G DEB failed (${result})")
endif()
execute_process(COMMAND dpkg --print-architecture OUTPUT_VARIABLE arch
                OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE arch_result)
if(NOT arch_result EQUAL 0)
  set(arch "*")
endif()
set(runtime_name "libopenclaw${OPENCLAW_SOVERSION}")
set(root "${WORK_DIR}/root")
foreach(package IN ITEMS runtime development)
  if(package STREQUAL "runtime")
    set(name "${runtime_name}")
    set(section libs)
  else()
    set(name libopenclaw-dev)
    set(section libdevel)
  endif()
  file(GLOB deb "${package_build}/${name}_${OPENCLAW_VERSION}_${arch}.deb")
  if(NOT deb)
    file(GLOB made "${package_build}/*.deb")
    message(FATAL_ERROR "cpack made no ${name}_${OPENCLAW_VERSION}_${arch}.deb (made: ${made})")
  endif()
  # Control fields.
  execute_process(COMMAND "${DPKG_DEB}" -f "${deb}" Package Version Architecture Depends Section
                  OUTPUT_VARIABLE fields COMMAND_ERROR_IS_FATAL ANY)
  message("${fields}")
  foreach(expected IN ITEMS "Package: ${name}\n" "Version: ${OPENCLAW_VERSION}\n"
                            "Section: ${section}\n")
    string(FIND "${fields}" "${expected}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "dpkg-deb -f ${name}: no '${expected}'")
    endif()
  endforeach()
  if(fields MATCHES "Architecture: all")
    message(FATAL_ERROR "${name} holds a compiled library: its architecture cannot be 'all'")
  endif()
  if(package STREQUAL "development")
    if(NOT fields MATCHES "\nDepends: [^\n]*ocl-icd-opencl-dev" OR
       NOT fields MATCHES "\nDepends: [^\n]*opencl-c-headers" OR
       NOT fields MATCHES "\nDepends: [^\n]*${runtime_name} \\(= ${OPENCLAW_VERSION}\\)")
      message(FATAL_ERROR "libopenclaw-dev should depend on ${runtime_name} (= "
                          "${OPENCLAW_VERSION}), ocl-icd-opencl-dev and opencl-c-headers")
    endif()
  elseif(NOT fields MATCHES "\nDepends: [^\n]*ocl-icd-libopencl1")
    message(FATAL_ERROR "${runtime_name} should depend on the ICD loader (ocl-icd-libopencl1)")
  endif()
  run("${DPKG_DEB}" -I "${deb}")
  run("${DPKG_DEB}" -x "${deb}" "${root}")
  # The runtime package holds the shared library behind its SONAME and nothing to build with.
  if(package STREQUAL "runtime")
    execute_process(COMMAND "${DPKG_DEB}" -c "${deb}" OUTPUT_VARIABLE contents
                    COMMAND_ERROR_IS_FATAL ANY)
    if(NOT contents MATCHES "libopenclaw\\.so\\.${OPENCLAW_SOVERSION}" OR
       contents MATCHES "\\.hpp|\\.a\n|libopenclaw\\.so\n")
      message(FATAL_ERROR "${runtime_name} should hold libopenclaw.so.${OPENCLAW_SOVERSION}* "
                          "only:\n${contents}")
    endif()
  endif()
endforeach()

# Contents: everything under /usr, and the files a consumer needs.
file(GLOB top RELATIVE "${root}" "${root}/*")
if(NOT top STREQUAL "usr")
  message(FATAL_ERROR "the .debs install outside /usr: ${top}")
endif()
check_installed("${root}/usr" "${OPENCLAW_LIBDIR}" "the .debs' /usr")

# The unpacked openclaw.pc points at the unpacked headers (it finds its prefix from its own place).
if(PKG_CONFIG)
  set(ENV{PKG_CONFIG_PATH} "${root}/usr/${OPENCLAW_LIBDIR}/pkgconfig")
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
run_expecting("${WORK_DIR}/build/consumer_static" "(compiled library)")
run_expecting("${WORK_DIR}/build/consumer_header_only" "(header-only)")
