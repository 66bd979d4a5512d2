# Compares the symbols of tests/separate/user.cpp compiled header-only (HEADER_ONLY, an object
# file) and with OPENCLAW_SEPARATE_COMPILATION (SEPARATE): each function below must be defined in
# the first and only referenced (nm: U) in the second.
# cmake -DNM=nm -DHEADER_ONLY=a.o -DSEPARATE=b.o -P check_symbols.cmake
set(moved
  "openclaw::Program::build("
  "openclaw::detail::make_kernel("
  "openclaw::Context::create("
  "openclaw::Queue::create("
  "openclaw::Platform::list("
  "openclaw::detail::fail(")
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
    string(FIND "${line}" "${name}" at)
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
if(failures EQUAL 0)
  message("separate compilation symbols: ok")
else()
  message(FATAL_ERROR "separate compilation symbols: ${failures} failure(s)")
endif()
