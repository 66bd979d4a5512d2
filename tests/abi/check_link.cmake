# SPDX-License-Identifier: Apache-2.0
# Units built with different openclaw configurations must not link into one program: each is
# compiled on its own here, then the pairs are linked. Pairs of the same configuration must link
# (the check could pass); pairs that differ in CL_TARGET_OPENCL_VERSION, header-only against
# separately compiled, or exceptions against -fno-exceptions must fail with an undefined reference
# naming the ABI namespace the caller expected.
# cmake -DCXX=g++ -DSOURCE_DIR=<tests/abi> "-DOPENCLAW_SOURCES=<src/core.cpp;...>"
#       -DINCLUDES=<dirs> -DLIBRARIES=<libOpenCL> -DABI_PREFIX=v0_2 -DWORK_DIR=<dir>
#       -P check_link.cmake
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(include_flags)
foreach(dir IN LISTS INCLUDES)
  list(APPEND include_flags "-I${dir}")
endforeach()

# compile(<object> <source> <flags>...)
function(compile object source)
  execute_process(COMMAND "${CXX}" -std=c++20 -O0 -c ${include_flags} ${ARGN} "${source}"
                          -o "${WORK_DIR}/${object}.o"
                  RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "compiling ${object} failed:\n${output}")
  endif()
endfunction()

# link(<result var> <output var> <object>...)
function(link result_var output_var)
  set(objects)
  foreach(object IN LISTS ARGN)
    list(APPEND objects "${WORK_DIR}/${object}.o")
  endforeach()
  execute_process(COMMAND "${CXX}" ${objects} ${LIBRARIES} -o "${WORK_DIR}/program"
                  RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
  set(${result_var} "${result}" PARENT_SCOPE)
  set(${output_var} "${output}" PARENT_SCOPE)
endfunction()

compile(provider_300 "${SOURCE_DIR}/provider.cpp")
compile(user_300 "${SOURCE_DIR}/user.cpp")
compile(provider_120 "${SOURCE_DIR}/provider.cpp" -DCL_TARGET_OPENCL_VERSION=120)
compile(provider_separate "${SOURCE_DIR}/provider.cpp" -DOPENCLAW_SEPARATE_COMPILATION)
compile(user_separate "${SOURCE_DIR}/user.cpp" -DOPENCLAW_SEPARATE_COMPILATION)
# The compiled library's sources (openclaw::openclaw), one object each.
set(library)
foreach(source IN LISTS OPENCLAW_SOURCES)
  get_filename_component(stem "${source}" NAME_WE)
  compile(library_${stem} "${source}" -DOPENCLAW_SEPARATE_COMPILATION)
  list(APPEND library library_${stem})
endforeach()
compile(provider_no_exceptions "${SOURCE_DIR}/provider.cpp" -fno-exceptions)

set(failures 0)
# expect_link(<description> <objects>...): the objects must link.
function(expect_link description)
  link(result output ${ARGN})
  if(NOT result EQUAL 0)
    message("${description}: did not link:\n${output}")
    math(EXPR failures "${failures} + 1")
    set(failures ${failures} PARENT_SCOPE)
  else()
    message("${description}: links")
  endif()
endfunction()
# expect_no_link(<description> <namespace the caller expects> <objects>...)
function(expect_no_link description abi)
  link(result output ${ARGN})
  if(result EQUAL 0)
    message("${description}: linked, but should not")
    math(EXPR failures "${failures} + 1")
  elseif(NOT output MATCHES "device_count\\(openclaw::${abi}::Context const&\\)")
    message("${description}: failed to link, but not for the missing ${abi} function:\n${output}")
    math(EXPR failures "${failures} + 1")
  else()
    message("${description}: does not link (device_count(openclaw::${abi}::Context const&) "
            "is undefined)")
  endif()
  set(failures ${failures} PARENT_SCOPE)
endfunction()

expect_link("same configuration" user_300 provider_300)
expect_link("both separately compiled" user_separate provider_separate ${library})
expect_no_link("OpenCL 3.0 caller, OpenCL 1.2 provider" "${ABI_PREFIX}_cl300_he"
               user_300 provider_120)
expect_no_link("separately compiled caller, header-only provider" "${ABI_PREFIX}_cl300_se"
               user_separate provider_300 ${library})
expect_no_link("caller with exceptions, provider without" "${ABI_PREFIX}_cl300_he"
               user_300 provider_no_exceptions)

if(failures EQUAL 0)
  message("abi link checks: ok")
else()
  message(FATAL_ERROR "abi link checks: ${failures} failure(s)")
endif()
