# Compares the symbols of tests/separate/user.cpp compiled header-only (HEADER_ONLY, an object
# file) and with OPENCLAW_SEPARATE_COMPILATION (SEPARATE): each function below must be defined in
# the first and only referenced (nm: U) in the second. Both objects are compiled without
# optimization (tests/CMakeLists.txt), so that no definition is inlined away whatever the build
# type. Names are matched with the ABI namespace left out (openclaw::v0_2_cl300_he::...).
# cmake -DNM=nm -DHEADER_ONLY=a.o -DSEPARATE=b.o -P check_symbols.cmake
set(moved
  "Program::build("
  "detail::make_kernel("
  "Context::create("
  "Queue::Queue("
  "Platform::list("
  "detail::fail("
  "detail::create_buffer("
  "detail::transfer(")
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
if(failures EQUAL 0)
  message("separate compilation symbols: ok")
else()
  message(FATAL_ERROR "separate compilation symbols: ${failures} failure(s)")
endif()
