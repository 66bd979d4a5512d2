# Shared by the package test scripts (run_consumer.cmake, run_deb.cmake).

# Runs a command, prints its output, and stops the test if it fails.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE output
                  ERROR_VARIABLE output)
  message("${output}")
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "failed (${result}): ${ARGN}")
  endif()
endfunction()

# Runs a program, prints its output, and stops the test unless it succeeds and prints `expected`.
function(run_expecting program expected)
  execute_process(COMMAND "${program}" RESULT_VARIABLE result OUTPUT_VARIABLE output
                  ERROR_VARIABLE output)
  message("${output}")
  string(FIND "${output}" "${expected}" at)
  if(NOT result EQUAL 0 OR at EQUAL -1)
    message(FATAL_ERROR "${program} failed (${result}) or did not say ${expected}")
  endif()
endfunction()

# Stops the test unless `prefix` (an install prefix, or /usr of an unpacked .deb) holds the
# headers, the CMake package and the pkg-config file; `what` names it in the message.
function(check_installed prefix what)
  foreach(file include/openclaw/openclaw.hpp include/openclaw/detail/base/handle.hpp
               include/openclaw/impl/queue.ipp
               share/cmake/openclaw/openclawConfig.cmake
               share/cmake/openclaw/openclawConfigVersion.cmake
               share/cmake/openclaw/openclawTargets.cmake
               share/cmake/openclaw/openclawEmbedKernels.cmake
               share/cmake/openclaw/openclawLibrary.cmake
               share/openclaw/src/core.cpp
               share/openclaw/src/cache.cpp
               share/pkgconfig/openclaw.pc)
    if(NOT EXISTS "${prefix}/${file}")
      message(FATAL_ERROR "${what} lacks ${file}")
    endif()
  endforeach()
endfunction()
