# Builds one compile-fail target and checks that it fails for the stated reason.
#   -DBUILD_DIR=<build tree> -DTARGET=<target> -DEXPECT=<text the diagnostic must contain>
#   -DEXPECT_ALSO=<text>|<text>... more text the diagnostic must contain (optional)
#   -DEXPECT_FIRST=ON: EXPECT must be in the first line that says "error:" (optional)
#   (or -DEXPECT_REGEX=<regular expression> for diagnostics worded differently by compilers)
#   -DMUST_COMPILE=ON instead of EXPECT for the control snippet, which must compile.
execute_process(
  COMMAND "${CMAKE_COMMAND}" --build "${BUILD_DIR}" --target "${TARGET}"
  RESULT_VARIABLE result
  OUTPUT_VARIABLE output
  ERROR_VARIABLE output)

if(MUST_COMPILE)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${TARGET} must compile but failed:\n${output}")
  endif()
  message(STATUS "${TARGET} compiles, as it must")
  return()
endif()

if(result EQUAL 0)
  message(FATAL_ERROR "${TARGET} compiled, but it must be rejected with: ${EXPECT}")
endif()
if(DEFINED EXPECT_REGEX)
  set(EXPECT "${EXPECT_REGEX}")
  if("${output}" MATCHES "${EXPECT_REGEX}")
    set(position 0)
  else()
    set(position -1)
  endif()
else()
  string(FIND "${output}" "${EXPECT}" position)
endif()
if(position EQUAL -1)
  message(FATAL_ERROR "${TARGET} failed, but not with the expected reason\n"
                      "expected: ${EXPECT}\ncompiler output:\n${output}")
endif()
if(EXPECT_FIRST)
  string(REGEX MATCH "[^\n]*error:[^\n]*" first_error "${output}")
  string(FIND "${first_error}" "${EXPECT}" position)
  if(position EQUAL -1)
    message(FATAL_ERROR "${TARGET} failed, but its first error is not the expected one\n"
                        "expected: ${EXPECT}\nfirst error: ${first_error}\n"
                        "compiler output:\n${output}")
  endif()
endif()
if(EXPECT_ALSO)
  string(REPLACE "|" ";" fragments "${EXPECT_ALSO}")
  foreach(fragment IN LISTS fragments)
    string(FIND "${output}" "${fragment}" position)
    if(position EQUAL -1)
      message(FATAL_ERROR "${TARGET} failed for the expected reason, but the diagnostic does not "
                          "contain \"${fragment}\"\ncompiler output:\n${output}")
    endif()
  endforeach()
endif()
message(STATUS "${TARGET} is rejected with: ${EXPECT}")
