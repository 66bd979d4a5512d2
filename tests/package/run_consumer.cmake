# Configures, builds and runs a consumer project of openclaw.
#   MODE=find_package: install the build tree into WORK_DIR/prefix, then find_package() it.
#   MODE=add_subdirectory: add the source tree as a subdirectory.
file(REMOVE_RECURSE "${WORK_DIR}")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE output
                  ERROR_VARIABLE output)
  message("${output}")
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "failed (${result}): ${ARGN}")
  endif()
endfunction()

set(configure_args -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX}" -DCMAKE_BUILD_TYPE=Release)
if(MODE STREQUAL "find_package")
  set(prefix "${WORK_DIR}/prefix")
  run("${CMAKE_COMMAND}" --install "${OPENCLAW_BINARY_DIR}" --prefix "${prefix}")
  foreach(file include/openclaw/openclaw.hpp include/openclaw/detail/handle.hpp
               share/cmake/openclaw/openclawConfig.cmake
               share/cmake/openclaw/openclawConfigVersion.cmake
               share/cmake/openclaw/openclawTargets.cmake
               share/cmake/openclaw/openclawEmbedKernels.cmake)
    if(NOT EXISTS "${prefix}/${file}")
      message(FATAL_ERROR "the install lacks ${file}")
    endif()
  endforeach()
  list(APPEND configure_args "-DCMAKE_PREFIX_PATH=${prefix}" "-DEXPECTED_PREFIX=${prefix}")
else()
  list(APPEND configure_args "-DOPENCLAW_SOURCE_DIR=${OPENCLAW_SOURCE_DIR}")
endif()

run("${CMAKE_COMMAND}" -S "${OPENCLAW_SOURCE_DIR}/tests/package/${MODE}" -B "${WORK_DIR}/build"
    ${configure_args})
run("${CMAKE_COMMAND}" --build "${WORK_DIR}/build")
run("${WORK_DIR}/build/consumer")
