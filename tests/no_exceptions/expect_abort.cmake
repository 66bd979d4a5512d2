# Runs the -fno-exceptions test in its "abort" mode: the default failure handler must print the
# failure's message and abort the program.
execute_process(COMMAND "${PROGRAM}" abort OUTPUT_VARIABLE out ERROR_VARIABLE err
  RESULT_VARIABLE result)
if(result EQUAL 0)
  message(FATAL_ERROR "the program went on after an unrecorded failure:\n${out}${err}")
endif()
if(NOT err MATCHES "openclaw: clEnqueueReadBuffer: CL_INVALID_VALUE \\(-30\\): read \\[2, 2 \\+ 8\\) is out of range")
  message(FATAL_ERROR "unexpected message (exit ${result}):\n${out}${err}")
endif()
message("abort handler: ok (${result})")
