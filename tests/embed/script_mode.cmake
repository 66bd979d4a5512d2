# The guide's command for embedding a kernel without CMake's build (docs/guide.md, "Forms a port
# needs"), run as written from a folder holding kernels/saxpy.cl; the header must define
# kernels::saxpy holding the file's text.
# cmake -DOPENCLAW_SOURCE_DIR=<checkout> -DWORK_DIR=<empty folder> -P script_mode.cmake
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}/kernels")
file(COPY "${CMAKE_CURRENT_LIST_DIR}/kernels/saxpy.cl" DESTINATION "${WORK_DIR}/kernels")
execute_process(
  COMMAND "${CMAKE_COMMAND}" -DOPENCLAW_EMBED_INPUT=kernels/saxpy.cl
          -DOPENCLAW_EMBED_OUTPUT=saxpy.cl.hpp -DOPENCLAW_EMBED_NAMESPACE=kernels
          -DOPENCLAW_EMBED_NAME=saxpy -DOPENCLAW_EMBED_DISPLAY=saxpy.cl
          -P "${OPENCLAW_SOURCE_DIR}/cmake/openclawEmbedKernels.cmake"
  WORKING_DIRECTORY "${WORK_DIR}" RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the documented command failed: ${status}")
endif()
file(READ "${WORK_DIR}/saxpy.cl.hpp" header)
file(READ "${WORK_DIR}/kernels/saxpy.cl" source)
foreach(expected "namespace kernels {" "inline constexpr char saxpy[] = R\"clsrc(" "${source}")
  string(FIND "${header}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "saxpy.cl.hpp lacks: ${expected}\n${header}")
  endif()
endforeach()
message(STATUS "embed script mode: ok")
