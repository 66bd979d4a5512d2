# SPDX-License-Identifier: Apache-2.0
# The environment alone turns the binary cache on in a program that links the compiled library
# and never includes <openclaw/cache.hpp> (PROGRAM, examples/vector_add): with OPENCLAW_CACHE_DIR
# set the first run stores an entry there and a second run stores no new one (it loaded it);
# with OPENCLAW_CACHE=off as well nothing is written.
# cmake -DPROGRAM=<vector_add> -DWORK_DIR=<dir> -P check_cache_environment.cmake
file(REMOVE_RECURSE "${WORK_DIR}")
function(run_program)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env ${ARGN} "${PROGRAM}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message("${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${PROGRAM} failed (${rc})")
  endif()
endfunction()
function(entries dir out)
  file(GLOB found "${dir}/*")
  list(LENGTH found n)
  set(${out} ${n} PARENT_SCOPE)
endfunction()
run_program(--unset=OPENCLAW_CACHE "OPENCLAW_CACHE_DIR=${WORK_DIR}/on")
entries("${WORK_DIR}/on" first)
if(first EQUAL 0)
  message(FATAL_ERROR "OPENCLAW_CACHE_DIR was set but the program stored no cache entry")
endif()
run_program(--unset=OPENCLAW_CACHE "OPENCLAW_CACHE_DIR=${WORK_DIR}/on")
entries("${WORK_DIR}/on" second)
if(NOT second EQUAL first)
  message(FATAL_ERROR "the second run stored again (${first} entries, then ${second})")
endif()
run_program(OPENCLAW_CACHE=off "OPENCLAW_CACHE_DIR=${WORK_DIR}/off")
if(EXISTS "${WORK_DIR}/off")
  message(FATAL_ERROR "OPENCLAW_CACHE=off, yet the program wrote ${WORK_DIR}/off")
endif()
message("cache from the environment: ok (${first} entries)")
