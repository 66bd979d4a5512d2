// SPDX-License-Identifier: Apache-2.0
// Definitions of OpenCL entry points in the test program: each counts its call and forwards to
// the ICD loader's (found with dlsym(RTLD_NEXT)). openclaw is header-only, so its calls in this
// program reach these first. Entry points newer than OpenCL 1.2 count as violations while
// PretendOpenCL12 is alive.
#undef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <dlfcn.h>

#include <cstring>
#include <mutex>
#include <vector>

#include "support/cl_intercept.hpp"

namespace openclaw_test {

namespace {
std::atomic<bool> pretending{false};

using EventCallback = void(CL_CALLBACK*)(cl_event, cl_int, void*);
struct HeldCallback {
    cl_event event;
    EventCallback callback;
    void* data;
};
std::mutex held_mutex;
bool holding = false;                // guarded by held_mutex
std::vector<HeldCallback> held_now;  // guarded by held_mutex
int held_count = 0;                  // guarded by held_mutex

using ContextNotify = void(CL_CALLBACK*)(const char*, const void*, size_t, void*);
struct Notified {
    cl_context context;
    ContextNotify notify;
    void* data;
};
std::mutex notified_mutex;
std::vector<Notified> notified;  // guarded by notified_mutex: contexts made with a callback

template <class F>
F next(const char* name) {
    return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

void newer(const char* name) {
    if (pretending.load()) {
        ++cl_calls().newer;
        cl_calls().newer_names.emplace_back(name);
    }
}

cl_int answer(const char* text, size_t size, void* value, size_t* size_ret) {
    const size_t needed = std::strlen(text) + 1;
    if (size_ret != nullptr) {
        *size_ret = needed;
    }
    if (value != nullptr) {
        if (size < needed) {
            return CL_INVALID_VALUE;
        }
        std::memcpy(value, text, needed);
    }
    return CL_SUCCESS;
}
}  // namespace

ClCalls& cl_calls() {
    static ClCalls calls;
    return calls;
}

HoldEventCallbacks::HoldEventCallbacks() {
    const std::lock_guard lock(held_mutex);
    holding = true;
    held_count = 0;
}
HoldEventCallbacks::~HoldEventCallbacks() {
    release();
}
int HoldEventCallbacks::held() const {
    const std::lock_guard lock(held_mutex);
    return held_count;
}
void HoldEventCallbacks::release() {
    std::vector<HeldCallback> held;
    {
        const std::lock_guard lock(held_mutex);
        holding = false;
        held.swap(held_now);
    }
    for (const HeldCallback& h : held) {
        clWaitForEvents(1, &h.event);
        cl_int status = CL_COMPLETE;
        clGetEventInfo(h.event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status,
                       nullptr);
        h.callback(h.event, status, h.data);
        clReleaseEvent(h.event);
    }
}

bool report_as_driver(cl_context context, const char* text) {
    Notified found{};
    {
        const std::lock_guard lock(notified_mutex);
        for (const Notified& each : notified) {
            if (each.context == context) {
                found = each;  // the last: a handle the driver reuses is the newest context's
            }
        }
    }
    if (found.notify == nullptr) {
        return false;
    }
    found.notify(text, nullptr, 0, found.data);
    return true;
}

PretendOpenCL12::PretendOpenCL12() {
    pretending = true;
}
PretendOpenCL12::~PretendOpenCL12() {
    pretending = false;
}

}  // namespace openclaw_test

using openclaw_test::newer;

#define OPENCLAW_FORWARD(name) \
    static const auto real = openclaw_test::next<decltype(&::name)>(#name)

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param,
                                                  size_t size, void* value, size_t* size_ret) {
    OPENCLAW_FORWARD(clGetPlatformInfo);
    if (openclaw_test::pretending && param == CL_PLATFORM_VERSION) {
        return openclaw_test::answer("OpenCL 1.2 (pretended by the test)", size, value, size_ret);
    }
    if (param > CL_PLATFORM_EXTENSIONS) {
        newer("clGetPlatformInfo(a parameter newer than OpenCL 1.2)");
    }
    return real(platform, param, size, value, size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info param,
                                                size_t size, void* value, size_t* size_ret) {
    OPENCLAW_FORWARD(clGetDeviceInfo);
    if (openclaw_test::pretending) {
        if (param == CL_DEVICE_VERSION) {
            return openclaw_test::answer("OpenCL 1.2 (pretended)", size, value, size_ret);
        }
        if (param == CL_DEVICE_OPENCL_C_VERSION) {
            return openclaw_test::answer("OpenCL C 1.2 ", size, value, size_ret);
        }
        if (param > CL_DEVICE_PRINTF_BUFFER_SIZE) {  // the last query of OpenCL 1.2
            newer("clGetDeviceInfo(a parameter newer than OpenCL 1.2)");
        }
    }
    return real(device, param, size, value, size_ret);
}

CL_API_ENTRY cl_context CL_API_CALL clCreateContext(const cl_context_properties* properties,
                                                    cl_uint count, const cl_device_id* devices,
                                                    openclaw_test::ContextNotify notify, void* data,
                                                    cl_int* code) {
    OPENCLAW_FORWARD(clCreateContext);
    cl_context made = real(properties, count, devices, notify, data, code);
    if (made != nullptr && notify != nullptr) {
        const std::lock_guard lock(openclaw_test::notified_mutex);
        openclaw_test::notified.push_back({made, notify, data});
    }
    return made;
}

CL_API_ENTRY cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char* name,
                                                  cl_int* code) {
    OPENCLAW_FORWARD(clCreateKernel);
    ++openclaw_test::cl_calls().create_kernel;
    return real(program, name, code);
}

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint count,
                                               const cl_device_id* devices, const char* options,
                                               void(CL_CALLBACK* notify)(cl_program, void*),
                                               void* data) {
    OPENCLAW_FORWARD(clBuildProgram);
    ++openclaw_test::cl_calls().build_program;
    return real(program, count, devices, options, notify, data);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size,
                                               void* host, cl_int* code) {
    OPENCLAW_FORWARD(clCreateBuffer);
    ++openclaw_test::cl_calls().create_buffer;
    return real(context, flags, size, host, code);
}

CL_API_ENTRY cl_kernel CL_API_CALL clCloneKernel(cl_kernel kernel, cl_int* code) {
    OPENCLAW_FORWARD(clCloneKernel);
    ++openclaw_test::cl_calls().clone_kernel;
    newer("clCloneKernel");
    return real(kernel, code);
}

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context context,
                                                               cl_device_id device,
                                                               cl_command_queue_properties bits,
                                                               cl_int* code) {
    OPENCLAW_FORWARD(clCreateCommandQueue);
    ++openclaw_test::cl_calls().create_queue_1x;
    return real(context, device, bits, code);
}
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(
    cl_context context, cl_device_id device, const cl_queue_properties* properties, cl_int* code) {
    OPENCLAW_FORWARD(clCreateCommandQueueWithProperties);
    newer("clCreateCommandQueueWithProperties");
    return real(context, device, properties, code);
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithIL(cl_context context, const void* il,
                                                          size_t length, cl_int* code) {
    OPENCLAW_FORWARD(clCreateProgramWithIL);
    newer("clCreateProgramWithIL");
    return real(context, il, length, code);
}

CL_API_ENTRY void* CL_API_CALL clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size,
                                          cl_uint alignment) {
    OPENCLAW_FORWARD(clSVMAlloc);
    newer("clSVMAlloc");
    return real(context, flags, size, alignment);
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint index,
                                                         const void* pointer) {
    OPENCLAW_FORWARD(clSetKernelArgSVMPointer);
    newer("clSetKernelArgSVMPointer");
    return real(kernel, index, pointer);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue queue, cl_bool blocking,
                                                cl_map_flags flags, void* pointer, size_t size,
                                                cl_uint count, const cl_event* wait,
                                                cl_event* event) {
    OPENCLAW_FORWARD(clEnqueueSVMMap);
    newer("clEnqueueSVMMap");
    return real(queue, blocking, flags, pointer, size, count, wait, event);
}

CL_API_ENTRY cl_int CL_API_CALL clSetEventCallback(cl_event event, cl_int type,
                                                   openclaw_test::EventCallback callback,
                                                   void* data) {
    OPENCLAW_FORWARD(clSetEventCallback);
    {
        const std::lock_guard lock(openclaw_test::held_mutex);
        if (openclaw_test::holding && type == CL_COMPLETE && callback != nullptr) {
            clRetainEvent(event);
            openclaw_test::held_now.push_back({event, callback, data});
            ++openclaw_test::held_count;
            return CL_SUCCESS;
        }
    }
    return real(event, type, callback, data);
}

}  // extern "C"
