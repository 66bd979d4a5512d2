# Compares the symbols of tests/separate/user.cpp compiled header-only (HEADER_ONLY, an object
# file) and with OPENCLAW_SEPARATE_COMPILATION (SEPARATE). What it checks is derived from the
# bodies the compiled library holds: every function an impl/*.ipp file defines (OPENCLAW_INLINE,
# read from IMPL_DIR) that the header-only object defines must be only referenced (nm: U) in the
# separately compiled one. At least MIN_MOVED such functions must be found, so that the check
# cannot pass by finding none; the named ones below must be among them. Both objects are compiled
# without optimization (tests/CMakeLists.txt), so that no definition is inlined away whatever the
# build type. Names are matched with the ABI namespace and `detail::` left out, by the qualified
# name before the parameter list (overloads alike).
# cmake -DNM=nm -DHEADER_ONLY=a.o -DSEPARATE=b.o -DIMPL_DIR=include/openclaw/impl -P check_symbols.cmake
cmake_minimum_required(VERSION 3.21)  # IN_LIST
set(MIN_MOVED 40)
set(moved
  "Program::build("
  "detail::make_kernel("
  "Context::create("
  "Queue::Queue("
  "Platform::list("
  "detail::fail("
  "detail::create_buffer("
  "detail::transfer(")
# The qualified names the impl/ files define.
file(GLOB_RECURSE impl_files "${IMPL_DIR}/*.ipp")
set(defined_by_library)
foreach(file IN LISTS impl_files)
  file(STRINGS "${file}" lines REGEX "OPENCLAW_INLINE")
  foreach(line IN LISTS lines)
    if(line MATCHES "OPENCLAW_INLINE [^(]*[ *&]([A-Za-z_][A-Za-z0-9_:~]*)\\(")
      string(REGEX REPLACE "^detail::" "" key "${CMAKE_MATCH_1}")
      list(APPEND defined_by_library "${key}")
    endif()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES defined_by_library)
list(LENGTH defined_by_library library_count)
# The key of an nm line: the qualified name before '(' without the ABI namespace and detail::.
function(symbol_key line out)
  string(REGEX REPLACE "openclaw::v[0-9]+_[0-9]+_cl[0-9]+_[hs][en]::" "openclaw::" line "${line}")
  if(line MATCHES " openclaw::([A-Za-z0-9_:~]+)\\(")
    string(REGEX REPLACE "^detail::" "" key "${CMAKE_MATCH_1}")
    set(${out} "${key}" PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()
function(symbols object out)
  execute_process(COMMAND "${NM}" -C "${object}" OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "nm failed on ${object}")
  endif()
  string(REPLACE ";" "," text "${text}")
  string(REPLACE "\n" ";" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()
# How `name` appears in `lines` (nm output): "defined", "referenced" (U) or "absent".
function(appearance lines name out)
  set(result absent)
  foreach(line IN LISTS ${lines})
    string(REGEX REPLACE "openclaw::v[0-9]+_[0-9]+_cl[0-9]+_[hs][en]::" "openclaw::" line "${line}")
    string(FIND "${line}" "openclaw::${name}" at)
    if(NOT at EQUAL -1)
      if(line MATCHES " [TWt] ")
        set(${out} defined PARENT_SCOPE)
        return()
      elseif(line MATCHES " U ")
        set(result referenced)
      endif()
    endif()
  endforeach()
  set(${out} ${result} PARENT_SCOPE)
endfunction()
symbols("${HEADER_ONLY}" header_only)
symbols("${SEPARATE}" separate)
set(failures 0)
foreach(name IN LISTS moved)
  appearance(header_only "${name}" in_header_only)
  appearance(separate "${name}" in_separate)
  if(NOT in_header_only STREQUAL "defined" OR NOT in_separate STREQUAL "referenced")
    message("${name}: ${in_header_only} in the header-only object (expected defined), "
            "${in_separate} in the separately compiled one (expected referenced)")
    math(EXPR failures "${failures} + 1")
  endif()
endforeach()
# Derived: each library function the header-only object defines, only referenced in the other.
set(separate_defined)
foreach(line IN LISTS separate)
  if(line MATCHES " [TWt] ")
    symbol_key("${line}" key)
    if(key)
      list(APPEND separate_defined "${key}")
    endif()
  endif()
endforeach()
set(checked)
foreach(line IN LISTS header_only)
  if(NOT line MATCHES " [TWt] ")
    continue()
  endif()
  symbol_key("${line}" key)
  if(NOT key OR NOT key IN_LIST defined_by_library OR key IN_LIST checked)
    continue()
  endif()
  list(APPEND checked "${key}")
  if(key IN_LIST separate_defined)
    message("${key}: the compiled library defines it (impl/), yet the separately compiled user's "
            "unit defines it too: its body is still compiled in users' units")
    math(EXPR failures "${failures} + 1")
  endif()
endforeach()
list(LENGTH checked checked_count)
if(checked_count LESS MIN_MOVED)
  message("only ${checked_count} of the library's ${library_count} functions were found defined in "
          "the header-only object (expected at least ${MIN_MOVED}): the check could not fail")
  math(EXPR failures "${failures} + 1")
endif()
if(failures EQUAL 0)
  message("separate compilation symbols: ok (${checked_count} library functions checked, of "
          "${library_count} the impl/ files define)")
else()
  message(FATAL_ERROR "separate compilation symbols: ${failures} failure(s)")
endif()
