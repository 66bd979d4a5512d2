# SPDX-License-Identifier: Apache-2.0
# The compiled library links only what a program uses: a program that never includes a side wing
# (PROGRAM, examples/vector_add) holds none of SVM's or external memory's bodies. The binary
# cache is part of Program::build in the compiled library (the environment turns it on in any
# program, whatever it includes): PROGRAM holds its bodies without including <openclaw/cache.hpp>,
# as does WITH_CACHE (test_cache), which includes it. Symbols are matched with the ABI namespace
# left out.
# cmake -DNM=nm -DPROGRAM=<vector_add> -DWITH_CACHE=<test_cache> -P check_linked.cmake
function(defined_symbols binary out)
  execute_process(COMMAND "${NM}" -C --defined-only "${binary}" OUTPUT_VARIABLE text
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "nm failed on ${binary}")
  endif()
  string(REGEX REPLACE "openclaw::v[0-9]+_[0-9]+_cl[0-9]+_[hs][en]::" "openclaw::" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()
defined_symbols("${PROGRAM}" program)
defined_symbols("${WITH_CACHE}" with_cache)
set(failures 0)
foreach(name "openclaw::detail::svm_copy(" "openclaw::Semaphore::")
  string(FIND "${program}" "${name}" at)
  if(NOT at EQUAL -1)
    message("${PROGRAM} defines ${name}: the library's object for it was linked without a use")
    math(EXPR failures "${failures} + 1")
  endif()
endforeach()
foreach(binary IN ITEMS PROGRAM WITH_CACHE)
  if(binary STREQUAL "PROGRAM")
    set(text "${program}")
  else()
    set(text "${with_cache}")
  endif()
  string(FIND "${text}" "openclaw::detail::load_cached_build(" at)
  if(at EQUAL -1)
    message("${${binary}} lacks openclaw::detail::load_cached_build: Program::build cannot use "
            "the cache the environment asks for")
    math(EXPR failures "${failures} + 1")
  endif()
endforeach()
if(failures EQUAL 0)
  message("linked objects: ok")
else()
  message(FATAL_ERROR "linked objects: ${failures} failure(s)")
endif()
