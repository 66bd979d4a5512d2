# Builds a project that embeds kernels/tricky.cl, checks that the program holds the file byte for
# byte (quotes, backslashes, raw-string terminators included) and that changing the .cl file
# regenerates the header and the compile-time signature.
#   -DOPENCLAW_SOURCE_DIR=... -DWORK_DIR=... -DCXX=... -DGENERATOR=...
file(REMOVE_RECURSE "${WORK_DIR}")
file(COPY "${OPENCLAW_SOURCE_DIR}/tests/embed/project/" DESTINATION "${WORK_DIR}/src")
file(MAKE_DIRECTORY "${WORK_DIR}/src/kernels")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE output
                  ERROR_VARIABLE output)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "failed (${result}): ${ARGN}\n${output}")
  endif()
endfunction()

function(check_program expected_arity)
  run("${CMAKE_COMMAND}" --build "${WORK_DIR}/build")
  execute_process(COMMAND "${WORK_DIR}/build/embedded" RESULT_VARIABLE result
                  OUTPUT_VARIABLE output)
  file(READ "${WORK_DIR}/src/kernels/tricky.cl" expected)
  if(NOT result EQUAL 0 OR NOT output STREQUAL "arity=${expected_arity}\n${expected}")
    message(FATAL_ERROR "the program does not hold the .cl file (expected arity "
                        "${expected_arity}):\n--- program printed ---\n${output}\n"
                        "--- file holds ---\n${expected}")
  endif()
  message(STATUS "embedded byte for byte, arity ${expected_arity}")
endfunction()

# Round 1: a source with everything a C++ string literal would trip on.
file(WRITE "${WORK_DIR}/src/kernels/tricky.cl" [==[
// "quotes", 'c', back\slashes\\, a trailing backslash \
   continues this comment; )" and )clsrc" end raw strings; R"( starts one; ??= trigraph
#define STR(x) #x
__kernel void tricky(__global const float* a, __global float* b, const uint n) {
    const char* text = "\"\\)clsrc\"";
    if (get_global_id(0) < n) { b[get_global_id(0)] = a[get_global_id(0)]; }
}
]==])
run("${CMAKE_COMMAND}" -S "${WORK_DIR}/src" -B "${WORK_DIR}/build" -G "${GENERATOR}"
    "-DCMAKE_CXX_COMPILER=${CXX}" "-DOPENCLAW_SOURCE_DIR=${OPENCLAW_SOURCE_DIR}")
check_program(3)

# Round 2: the kernel loses a parameter; the next build must notice without a reconfigure.
file(WRITE "${WORK_DIR}/src/kernels/tricky.cl" [==[
/* now with )clsrc" and )clsrc1" both inside */
__kernel void tricky(__global float* b, const uint n) { b[0] = n; }
]==])
check_program(2)
message(STATUS "embed: ok")
