# SPDX-License-Identifier: Apache-2.0
# The compiled library links only what a program uses: a program that never includes
# <openclaw/cache.hpp> or a side wing (PROGRAM, examples/vector_add) holds none of the binary
# cache's, SVM's or external memory's bodies; a program that includes the cache (WITH_CACHE,
# test_cache) holds the cache's. Symbols are matched with the ABI namespace left out.
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
foreach(name "openclaw::detail::load_cached_build(" "openclaw::BinaryCache::user_default("
             "openclaw::detail::svm_copy(" "openclaw::Semaphore::")
  string(FIND "${program}" "${name}" at)
  if(NOT at EQUAL -1)
    message("${PROGRAM} defines ${name}: the library's object for it was linked without a use")
    math(EXPR failures "${failures} + 1")
  endif()
endforeach()
string(FIND "${with_cache}" "openclaw::detail::load_cached_build(" at)
if(at EQUAL -1)
  message("${WITH_CACHE} lacks openclaw::detail::load_cached_build: the check could not fail")
  math(EXPR failures "${failures} + 1")
endif()
if(failures EQUAL 0)
  message("linked objects: ok")
else()
  message(FATAL_ERROR "linked objects: ${failures} failure(s)")
endif()
