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
# headers, both libraries, the CMake package and the pkg-config files; `what` names it in the
# message. `libdir` is the library directory under the prefix (lib, or lib/<multiarch>).
function(check_installed prefix libdir what)
  foreach(file include/openclaw/openclaw.hpp include/openclaw/detail/base/handle.hpp
               include/openclaw/impl/queue.ipp
               ${libdir}/libopenclaw.a
               ${libdir}/libopenclaw.so
               ${libdir}/libopenclaw.so.${OPENCLAW_SOVERSION}
               ${libdir}/cmake/openclaw/openclawConfig.cmake
               ${libdir}/cmake/openclaw/openclawConfigVersion.cmake
               ${libdir}/cmake/openclaw/openclawTargets.cmake
               ${libdir}/cmake/openclaw/openclawEmbedKernels.cmake
               ${libdir}/cmake/openclaw/openclawLibrary.cmake
               share/openclaw/src/core.cpp
               share/openclaw/src/cache.cpp
               ${libdir}/pkgconfig/openclaw.pc
               ${libdir}/pkgconfig/openclaw-header-only.pc)
    if(NOT EXISTS "${prefix}/${file}")
      message(FATAL_ERROR "${what} lacks ${file}")
    endif()
  endforeach()
  # The SONAME names the 0.x minor release.
  find_program(readelf NAMES readelf)
  if(readelf)
    execute_process(COMMAND "${readelf}" -d "${prefix}/${libdir}/libopenclaw.so"
                    OUTPUT_VARIABLE dynamic COMMAND_ERROR_IS_FATAL ANY)
    if(NOT dynamic MATCHES "SONAME[^\n]*\\[libopenclaw\\.so\\.${OPENCLAW_SOVERSION}\\]")
      message(FATAL_ERROR "${what}: libopenclaw.so has no SONAME libopenclaw.so.${OPENCLAW_SOVERSION}")
    endif()
  endif()
endfunction()

# Stops the test if a consumer's build (compile_commands.json of `build_dir`) compiled a source
# of openclaw's: a consumer of the installed package links the installed library.
function(check_compiles_no_openclaw_source build_dir)
  file(READ "${build_dir}/compile_commands.json" commands)
  string(REGEX MATCHALL "\"file\": \"[^\"]*\"" files "${commands}")
  if(NOT files)
    message(FATAL_ERROR "${build_dir}/compile_commands.json lists no file")
  endif()
  foreach(entry IN LISTS files)
    if(NOT entry MATCHES "/tests/package/consumer\\.cpp\"$")
      message(FATAL_ERROR "the consumer's build compiles ${entry}: only consumer.cpp should be")
    endif()
  endforeach()
  list(LENGTH files count)
  message("the consumer's build compiled ${count} unit(s), each consumer.cpp")
endfunction()

# Stops the test unless `program` needs libopenclaw.so.<SOVERSION> (the installed shared library).
function(check_needs_shared_library program)
  find_program(readelf NAMES readelf)
  if(readelf)
    execute_process(COMMAND "${readelf}" -d "${program}" OUTPUT_VARIABLE dynamic
                    COMMAND_ERROR_IS_FATAL ANY)
    if(NOT dynamic MATCHES "NEEDED[^\n]*\\[libopenclaw\\.so\\.${OPENCLAW_SOVERSION}\\]")
      message(FATAL_ERROR "${program} does not link libopenclaw.so.${OPENCLAW_SOVERSION}")
    endif()
  endif()
endfunction()
