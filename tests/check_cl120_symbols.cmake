# Fails if a test binary built with CL_TARGET_OPENCL_VERSION=120 references an OpenCL entry point
# newer than 1.2: with the 1.2 API, openclaw must not even name them.
set(newer clCreateCommandQueueWithProperties clCreatePipe clGetPipeInfo clSVMAlloc clSVMFree
  clEnqueueSVMFree clEnqueueSVMMemcpy clEnqueueSVMMemFill clEnqueueSVMMap clEnqueueSVMUnmap
  clEnqueueSVMMigrateMem clSetKernelArgSVMPointer clSetKernelExecInfo clCreateSamplerWithProperties
  clCloneKernel clCreateProgramWithIL clGetKernelSubGroupInfo clSetDefaultDeviceCommandQueue
  clGetDeviceAndHostTimer clGetHostTimer clSetProgramReleaseCallback
  clSetProgramSpecializationConstant clCreateBufferWithProperties clCreateImageWithProperties
  clSetContextDestructorCallback)
string(REPLACE " " ";" binaries "${BINARIES}")
foreach(binary IN LISTS binaries)
  execute_process(COMMAND "${NM}" -D --undefined-only "${binary}"
    OUTPUT_VARIABLE symbols RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "nm failed on ${binary}")
  endif()
  foreach(name IN LISTS newer)
    if(symbols MATCHES "[ \t]${name}\n")
      message(FATAL_ERROR "${binary} references ${name}, which is newer than OpenCL 1.2")
    endif()
  endforeach()
endforeach()
list(LENGTH binaries count)
message("cl120 symbols: ok (${count} binaries)")
