// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// Typed clGetXxxInfo queries from one table (detail core layer): InfoTraits<Object, CL_PARAM> names
// the C++ type each parameter returns (strings and arrays are fetched with the size query once,
// here), so object classes expose info<CL_DEVICE_NAME>() without a hand-written getter per
// property.

#include <openclaw/error.hpp>

#include <array>
#include <string>
#include <type_traits>
#include <vector>

OPENCLAW_BEGIN_NAMESPACE
namespace detail {

// Query tags beside the object types: queries that take a second object or an index.
struct ProgramBuildInfo {};     // clGetProgramBuildInfo(program, device, ...)
struct KernelWorkGroupInfo {};  // clGetKernelWorkGroupInfo(kernel, device, ...)
struct KernelArgInfo {};        // clGetKernelArgInfo(kernel, index, ...)
struct EventProfilingInfo {};   // clGetEventProfilingInfo(event, ...)
struct ImageInfo {};            // clGetImageInfo(image, ...)

template <class Tag>
struct InfoQuery;

template <>
struct InfoQuery<cl_platform_id> {
    static constexpr const char* call = "clGetPlatformInfo";
    static constexpr cl_int empty_code = CL_INVALID_PLATFORM;
    static constexpr const char* object = "platform";
    static cl_int get(cl_platform_id o, cl_uint p, std::size_t n, void* v, std::size_t* r) {
        return clGetPlatformInfo(o, p, n, v, r);
    }
};
template <>
struct InfoQuery<cl_device_id> {
    static constexpr const char* call = "clGetDeviceInfo";
    static constexpr cl_int empty_code = CL_INVALID_DEVICE;
    static constexpr const char* object = "device";
    static cl_int get(cl_device_id o, cl_uint p, std::size_t n, void* v, std::size_t* r) {
        return clGetDeviceInfo(o, p, n, v, r);
    }
};
template <>
struct InfoQuery<cl_context> {
    static constexpr const char* call = "clGetContextInfo";
    static constexpr cl_int empty_code = CL_INVALID_CONTEXT;
    static constexpr const char* object = "context";
    static cl_int get(cl_context o, cl_uint p, std::size_t n, void* v, std::size_t* r) {
        return clGetContextInfo(o, p, n, v, r);
    }
};
template <>
struct InfoQuery<cl_command_queue> {
    static constexpr const char* call = "clGetCommandQueueInfo";
    static constexpr cl_int empty_code = CL_INVALID_COMMAND_QUEUE;
    static constexpr const char* object = "queue";
    static cl_int get(cl_command_queue o, cl_uint p, std::size_t n, void* v, std::size_t* r) {
        return clGetCommandQueueInfo(o, p, n, v, r);
    }
};
template <>
struct InfoQuery<cl_mem> {
    static constexpr const char* call = "clGetMemObjectInfo";
    static constexpr cl_int empty_code = CL_INVALID_MEM_OBJECT;
    static constexpr const char* object = "memory object";
    static cl_int get(cl_mem o, cl_uint p, std::size_t n, void* v, std::size_t* r) {
        return clGetMemObjectInfo(o, p, n, v, r);
    }
};
template <>
struct InfoQuery<ImageInfo> {
    static constexpr const char* call = "clGetImageInfo";
    static constexpr cl_int empty_code = CL_INVALID_MEM_OBJECT;
    static constexpr const char* object = "image";
    static cl_int get(cl_mem o, cl_uint p, std::size_t n, void* v, std::size_t* r) {
        return clGetImageInfo(o, p, n, v, r);
    }
};
template <>
struct InfoQuery<cl_sampler> {
    static constexpr const char* call = "clGetSamplerInfo";
    static constexpr cl_int empty_code = CL_INVALID_SAMPLER;
    static constexpr const char* object = "sampler";
    static cl_int get(cl_sampler o, cl_uint p, std::size_t n, void* v, std::size_t* r) {
        return clGetSamplerInfo(o, p, n, v, r);
    }
};
template <>
struct InfoQuery<cl_program> {
    static constexpr const char* call = "clGetProgramInfo";
    static constexpr cl_int empty_code = CL_INVALID_PROGRAM;
    static constexpr const char* object = "program";
    static cl_int get(cl_program o, cl_uint p, std::size_t n, void* v, std::size_t* r) {
        return clGetProgramInfo(o, p, n, v, r);
    }
};
template <>
struct InfoQuery<ProgramBuildInfo> {
    static constexpr const char* call = "clGetProgramBuildInfo";
    static constexpr cl_int empty_code = CL_INVALID_PROGRAM;
    static constexpr const char* object = "program";
    static cl_int get(cl_program o, cl_device_id d, cl_uint p, std::size_t n, void* v,
                      std::size_t* r) {
        return clGetProgramBuildInfo(o, d, p, n, v, r);
    }
};
template <>
struct InfoQuery<cl_kernel> {
    static constexpr const char* call = "clGetKernelInfo";
    static constexpr cl_int empty_code = CL_INVALID_KERNEL;
    static constexpr const char* object = "kernel";
    static cl_int get(cl_kernel o, cl_uint p, std::size_t n, void* v, std::size_t* r) {
        return clGetKernelInfo(o, p, n, v, r);
    }
};
template <>
struct InfoQuery<KernelWorkGroupInfo> {
    static constexpr const char* call = "clGetKernelWorkGroupInfo";
    static constexpr cl_int empty_code = CL_INVALID_KERNEL;
    static constexpr const char* object = "kernel";
    static cl_int get(cl_kernel o, cl_device_id d, cl_uint p, std::size_t n, void* v,
                      std::size_t* r) {
        return clGetKernelWorkGroupInfo(o, d, p, n, v, r);
    }
};
template <>
struct InfoQuery<KernelArgInfo> {
    static constexpr const char* call = "clGetKernelArgInfo";
    static constexpr cl_int empty_code = CL_INVALID_KERNEL;
    static constexpr const char* object = "kernel";
    static cl_int get(cl_kernel o, cl_uint index, cl_uint p, std::size_t n, void* v,
                      std::size_t* r) {
        return clGetKernelArgInfo(o, index, p, n, v, r);
    }
};
template <>
struct InfoQuery<cl_event> {
    static constexpr const char* call = "clGetEventInfo";
    static constexpr cl_int empty_code = CL_INVALID_EVENT;
    static constexpr const char* object = "event";
    static cl_int get(cl_event o, cl_uint p, std::size_t n, void* v, std::size_t* r) {
        return clGetEventInfo(o, p, n, v, r);
    }
};
template <>
struct InfoQuery<EventProfilingInfo> {
    static constexpr const char* call = "clGetEventProfilingInfo";
    static constexpr cl_int empty_code = CL_INVALID_EVENT;
    static constexpr const char* object = "event";
    static cl_int get(cl_event o, cl_uint p, std::size_t n, void* v, std::size_t* r) {
        return clGetEventProfilingInfo(o, p, n, v, r);
    }
};

template <class Tag, cl_uint Param>
inline constexpr bool unknown_info = false;

/// The table: InfoTraits<Tag, Param>::type is what info<Param>() returns. A parameter missing
/// from it fails to compile with the message below.
template <class Tag, cl_uint Param>
struct InfoTraits {
    static_assert(
        unknown_info<Tag, Param>,
        "info<P>(): this parameter is not in openclaw's info table (detail/base/info.hpp); "
        "query it with the C API through .get()");
    using type = void;
};

template <class Tag, cl_uint Param>
using info_t = typename InfoTraits<Tag, Param>::type;

using SizeTriple = std::array<std::size_t, 3>;

#define OPENCLAW_INFO(tag, param, result)           \
    template <>                                     \
    struct InfoTraits<tag, param> {                 \
        using type = result;                        \
        static constexpr const char* name = #param; \
    }

// Platform
OPENCLAW_INFO(cl_platform_id, CL_PLATFORM_PROFILE, std::string);
OPENCLAW_INFO(cl_platform_id, CL_PLATFORM_VERSION, std::string);
OPENCLAW_INFO(cl_platform_id, CL_PLATFORM_NAME, std::string);
OPENCLAW_INFO(cl_platform_id, CL_PLATFORM_VENDOR, std::string);
OPENCLAW_INFO(cl_platform_id, CL_PLATFORM_EXTENSIONS, std::string);
#if CL_TARGET_OPENCL_VERSION >= 210
OPENCLAW_INFO(cl_platform_id, CL_PLATFORM_HOST_TIMER_RESOLUTION, cl_ulong);
#endif
#if CL_TARGET_OPENCL_VERSION >= 300
OPENCLAW_INFO(cl_platform_id, CL_PLATFORM_NUMERIC_VERSION, cl_version);
OPENCLAW_INFO(cl_platform_id, CL_PLATFORM_EXTENSIONS_WITH_VERSION, std::vector<cl_name_version>);
#endif

// Device
OPENCLAW_INFO(cl_device_id, CL_DEVICE_TYPE, cl_device_type);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_VENDOR_ID, cl_uint);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_MAX_COMPUTE_UNITS, cl_uint);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, cl_uint);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_MAX_WORK_ITEM_SIZES, std::vector<std::size_t>);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_MAX_WORK_GROUP_SIZE, std::size_t);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, cl_uint);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, cl_uint);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, cl_uint);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, cl_uint);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, cl_uint);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, cl_uint);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, cl_uint);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, cl_uint);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, cl_uint);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, cl_uint);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, cl_uint);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, cl_uint);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, cl_uint);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, cl_uint);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_MAX_CLOCK_FREQUENCY, cl_uint);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_ADDRESS_BITS, cl_uint);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_MAX_MEM_ALLOC_SIZE, cl_ulong);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_IMAGE_SUPPORT, bool);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_MAX_READ_IMAGE_ARGS, cl_uint);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_MAX_WRITE_IMAGE_ARGS, cl_uint);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_IMAGE2D_MAX_WIDTH, std::size_t);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_IMAGE2D_MAX_HEIGHT, std::size_t);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_IMAGE3D_MAX_WIDTH, std::size_t);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_IMAGE3D_MAX_HEIGHT, std::size_t);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_IMAGE3D_MAX_DEPTH, std::size_t);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, std::size_t);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, std::size_t);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_MAX_SAMPLERS, cl_uint);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_MAX_PARAMETER_SIZE, std::size_t);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_MEM_BASE_ADDR_ALIGN, cl_uint);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_SINGLE_FP_CONFIG, cl_device_fp_config);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_DOUBLE_FP_CONFIG, cl_device_fp_config);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, cl_device_mem_cache_type);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, cl_uint);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, cl_ulong);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_GLOBAL_MEM_SIZE, cl_ulong);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, cl_ulong);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_MAX_CONSTANT_ARGS, cl_uint);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_LOCAL_MEM_TYPE, cl_device_local_mem_type);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_LOCAL_MEM_SIZE, cl_ulong);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_ERROR_CORRECTION_SUPPORT, bool);
// Deprecated by OpenCL 2.0 but still answered; tells integrated from discrete memory.
OPENCLAW_INFO(cl_device_id, 0x1035 /* CL_DEVICE_HOST_UNIFIED_MEMORY */, bool);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_PROFILING_TIMER_RESOLUTION, std::size_t);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_ENDIAN_LITTLE, bool);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_AVAILABLE, bool);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_COMPILER_AVAILABLE, bool);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_LINKER_AVAILABLE, bool);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_EXECUTION_CAPABILITIES, cl_device_exec_capabilities);
// CL_DEVICE_QUEUE_PROPERTIES is CL_DEVICE_QUEUE_ON_HOST_PROPERTIES since 2.0 (same value).
OPENCLAW_INFO(cl_device_id, 0x102A, cl_command_queue_properties);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_BUILT_IN_KERNELS, std::string);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_PLATFORM, cl_platform_id);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_NAME, std::string);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_VENDOR, std::string);
OPENCLAW_INFO(cl_device_id, CL_DRIVER_VERSION, std::string);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_PROFILE, std::string);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_VERSION, std::string);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_OPENCL_C_VERSION, std::string);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_EXTENSIONS, std::string);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_PRINTF_BUFFER_SIZE, std::size_t);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, bool);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_PARENT_DEVICE, cl_device_id);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_PARTITION_MAX_SUB_DEVICES, cl_uint);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_PARTITION_PROPERTIES,
              std::vector<cl_device_partition_property>);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_PARTITION_AFFINITY_DOMAIN, cl_device_affinity_domain);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_PARTITION_TYPE, std::vector<cl_device_partition_property>);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_REFERENCE_COUNT, cl_uint);
#if CL_TARGET_OPENCL_VERSION >= 200
OPENCLAW_INFO(cl_device_id, CL_DEVICE_SVM_CAPABILITIES, cl_device_svm_capabilities);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, std::size_t);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, cl_command_queue_properties);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, cl_uint);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, cl_uint);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, cl_uint);
#endif
#if CL_TARGET_OPENCL_VERSION >= 210
OPENCLAW_INFO(cl_device_id, CL_DEVICE_IL_VERSION, std::string);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_MAX_NUM_SUB_GROUPS, cl_uint);
#endif
#if CL_TARGET_OPENCL_VERSION >= 300
OPENCLAW_INFO(cl_device_id, CL_DEVICE_NUMERIC_VERSION, cl_version);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_EXTENSIONS_WITH_VERSION, std::vector<cl_name_version>);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_OPENCL_C_ALL_VERSIONS, std::vector<cl_name_version>);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_OPENCL_C_FEATURES, std::vector<cl_name_version>);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, cl_device_atomic_capabilities);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, bool);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, bool);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, bool);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_PIPE_SUPPORT, bool);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, std::size_t);
OPENCLAW_INFO(cl_device_id, CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED, std::string);
#endif

// Context
OPENCLAW_INFO(cl_context, CL_CONTEXT_REFERENCE_COUNT, cl_uint);
OPENCLAW_INFO(cl_context, CL_CONTEXT_NUM_DEVICES, cl_uint);
OPENCLAW_INFO(cl_context, CL_CONTEXT_DEVICES, std::vector<cl_device_id>);
OPENCLAW_INFO(cl_context, CL_CONTEXT_PROPERTIES, std::vector<cl_context_properties>);

// Command queue
OPENCLAW_INFO(cl_command_queue, CL_QUEUE_CONTEXT, cl_context);
OPENCLAW_INFO(cl_command_queue, CL_QUEUE_DEVICE, cl_device_id);
OPENCLAW_INFO(cl_command_queue, CL_QUEUE_REFERENCE_COUNT, cl_uint);
OPENCLAW_INFO(cl_command_queue, CL_QUEUE_PROPERTIES, cl_command_queue_properties);

// Memory object
OPENCLAW_INFO(cl_mem, CL_MEM_TYPE, cl_mem_object_type);
OPENCLAW_INFO(cl_mem, CL_MEM_FLAGS, cl_mem_flags);
OPENCLAW_INFO(cl_mem, CL_MEM_SIZE, std::size_t);
OPENCLAW_INFO(cl_mem, CL_MEM_HOST_PTR, void*);
OPENCLAW_INFO(cl_mem, CL_MEM_MAP_COUNT, cl_uint);
OPENCLAW_INFO(cl_mem, CL_MEM_REFERENCE_COUNT, cl_uint);
OPENCLAW_INFO(cl_mem, CL_MEM_CONTEXT, cl_context);
OPENCLAW_INFO(cl_mem, CL_MEM_ASSOCIATED_MEMOBJECT, cl_mem);
OPENCLAW_INFO(cl_mem, CL_MEM_OFFSET, std::size_t);

// Image
OPENCLAW_INFO(ImageInfo, CL_IMAGE_FORMAT, cl_image_format);
OPENCLAW_INFO(ImageInfo, CL_IMAGE_ELEMENT_SIZE, std::size_t);
OPENCLAW_INFO(ImageInfo, CL_IMAGE_ROW_PITCH, std::size_t);
OPENCLAW_INFO(ImageInfo, CL_IMAGE_SLICE_PITCH, std::size_t);
OPENCLAW_INFO(ImageInfo, CL_IMAGE_WIDTH, std::size_t);
OPENCLAW_INFO(ImageInfo, CL_IMAGE_HEIGHT, std::size_t);
OPENCLAW_INFO(ImageInfo, CL_IMAGE_DEPTH, std::size_t);
OPENCLAW_INFO(ImageInfo, CL_IMAGE_ARRAY_SIZE, std::size_t);

// Sampler
OPENCLAW_INFO(cl_sampler, CL_SAMPLER_REFERENCE_COUNT, cl_uint);
OPENCLAW_INFO(cl_sampler, CL_SAMPLER_CONTEXT, cl_context);
OPENCLAW_INFO(cl_sampler, CL_SAMPLER_NORMALIZED_COORDS, bool);
OPENCLAW_INFO(cl_sampler, CL_SAMPLER_ADDRESSING_MODE, cl_addressing_mode);
OPENCLAW_INFO(cl_sampler, CL_SAMPLER_FILTER_MODE, cl_filter_mode);

// Program
OPENCLAW_INFO(cl_program, CL_PROGRAM_REFERENCE_COUNT, cl_uint);
OPENCLAW_INFO(cl_program, CL_PROGRAM_CONTEXT, cl_context);
OPENCLAW_INFO(cl_program, CL_PROGRAM_NUM_DEVICES, cl_uint);
OPENCLAW_INFO(cl_program, CL_PROGRAM_DEVICES, std::vector<cl_device_id>);
OPENCLAW_INFO(cl_program, CL_PROGRAM_SOURCE, std::string);
OPENCLAW_INFO(cl_program, CL_PROGRAM_BINARY_SIZES, std::vector<std::size_t>);
OPENCLAW_INFO(cl_program, CL_PROGRAM_NUM_KERNELS, std::size_t);
OPENCLAW_INFO(cl_program, CL_PROGRAM_KERNEL_NAMES, std::string);
OPENCLAW_INFO(ProgramBuildInfo, CL_PROGRAM_BUILD_STATUS, cl_build_status);
OPENCLAW_INFO(ProgramBuildInfo, CL_PROGRAM_BUILD_OPTIONS, std::string);
OPENCLAW_INFO(ProgramBuildInfo, CL_PROGRAM_BUILD_LOG, std::string);
OPENCLAW_INFO(ProgramBuildInfo, CL_PROGRAM_BINARY_TYPE, cl_program_binary_type);

// Kernel
OPENCLAW_INFO(cl_kernel, CL_KERNEL_FUNCTION_NAME, std::string);
OPENCLAW_INFO(cl_kernel, CL_KERNEL_NUM_ARGS, cl_uint);
OPENCLAW_INFO(cl_kernel, CL_KERNEL_REFERENCE_COUNT, cl_uint);
OPENCLAW_INFO(cl_kernel, CL_KERNEL_CONTEXT, cl_context);
OPENCLAW_INFO(cl_kernel, CL_KERNEL_PROGRAM, cl_program);
OPENCLAW_INFO(cl_kernel, CL_KERNEL_ATTRIBUTES, std::string);
OPENCLAW_INFO(KernelWorkGroupInfo, CL_KERNEL_WORK_GROUP_SIZE, std::size_t);
OPENCLAW_INFO(KernelWorkGroupInfo, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, SizeTriple);
OPENCLAW_INFO(KernelWorkGroupInfo, CL_KERNEL_LOCAL_MEM_SIZE, cl_ulong);
OPENCLAW_INFO(KernelWorkGroupInfo, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, std::size_t);
OPENCLAW_INFO(KernelWorkGroupInfo, CL_KERNEL_PRIVATE_MEM_SIZE, cl_ulong);
OPENCLAW_INFO(KernelArgInfo, CL_KERNEL_ARG_ADDRESS_QUALIFIER, cl_kernel_arg_address_qualifier);
OPENCLAW_INFO(KernelArgInfo, CL_KERNEL_ARG_ACCESS_QUALIFIER, cl_kernel_arg_access_qualifier);
OPENCLAW_INFO(KernelArgInfo, CL_KERNEL_ARG_TYPE_NAME, std::string);
OPENCLAW_INFO(KernelArgInfo, CL_KERNEL_ARG_TYPE_QUALIFIER, cl_kernel_arg_type_qualifier);
OPENCLAW_INFO(KernelArgInfo, CL_KERNEL_ARG_NAME, std::string);

// Event
OPENCLAW_INFO(cl_event, CL_EVENT_COMMAND_QUEUE, cl_command_queue);
OPENCLAW_INFO(cl_event, CL_EVENT_CONTEXT, cl_context);
OPENCLAW_INFO(cl_event, CL_EVENT_COMMAND_TYPE, cl_command_type);
OPENCLAW_INFO(cl_event, CL_EVENT_COMMAND_EXECUTION_STATUS, cl_int);
OPENCLAW_INFO(cl_event, CL_EVENT_REFERENCE_COUNT, cl_uint);
OPENCLAW_INFO(EventProfilingInfo, CL_PROFILING_COMMAND_QUEUED, cl_ulong);
OPENCLAW_INFO(EventProfilingInfo, CL_PROFILING_COMMAND_SUBMIT, cl_ulong);
OPENCLAW_INFO(EventProfilingInfo, CL_PROFILING_COMMAND_START, cl_ulong);
OPENCLAW_INFO(EventProfilingInfo, CL_PROFILING_COMMAND_END, cl_ulong);

#undef OPENCLAW_INFO

/// Reports a failed clGetXxxInfo query, naming the parameter.
[[gnu::cold]] void info_failed(OnError sink, cl_int code, const char* call, const char* name);

/// Refuses an empty (default-constructed or moved-from) object before the driver sees it.
[[gnu::cold]] void refuse_empty(OnError sink, cl_int code, const char* call, const char* object);

/// One clGetXxxInfo call bound to its object(s) and parameter: the only part of a query that
/// depends on its types, so that the rest (sizes, strings, failures) is written once.
struct InfoCall {
    cl_int (*get)(const void* self, std::size_t size, void* value, std::size_t* size_ret);
    const void* self;
    const char* call;  // the entry point, for messages
    const char* name;  // the parameter
};

/// Reads `size` bytes of the answer into `value`; false after reporting a failure to `sink`.
bool info_fixed(OnError sink, const InfoCall& query, void* value, std::size_t size);
/// The size of the answer in bytes; false after reporting a failure to `sink`.
bool info_size(OnError sink, const InfoCall& query, std::size_t& bytes);
/// The answer as a string (without its terminating nulls); empty after a failure.
std::string info_string(OnError sink, const InfoCall& query);

template <class First, class... Rest>
constexpr First first_of(First first, Rest...) noexcept {
    return first;
}

template <class T>
inline constexpr bool is_vector = false;
template <class T>
inline constexpr bool is_vector<std::vector<T>> = true;

/// Runs clGetXxxInfo for `Param` on `objects` (the object, plus a device or index for the
/// two-object queries) and returns the table's C++ type. A failure, naming the parameter, goes to
/// `sink`; the result is then value-initialized.
template <class Tag, cl_uint Param, class... Objects>
info_t<Tag, Param> get_info(OnError sink, Objects... objects) {
    using Result = info_t<Tag, Param>;
    if (first_of(objects...) == nullptr) [[unlikely]] {
        refuse_empty(sink, InfoQuery<Tag>::empty_code, InfoQuery<Tag>::call,
                     InfoQuery<Tag>::object);
        return Result{};
    }
    const auto bound = [&](std::size_t size, void* value, std::size_t* size_ret) {
        return InfoQuery<Tag>::get(objects..., Param, size, value, size_ret);
    };
    const InfoCall query{
        [](const void* self, std::size_t size, void* value, std::size_t* size_ret) {
            return (*static_cast<decltype(&bound)>(self))(size, value, size_ret);
        },
        &bound, InfoQuery<Tag>::call, InfoTraits<Tag, Param>::name};
    if constexpr (std::is_same_v<Result, std::string>) {
        return info_string(sink, query);
    } else if constexpr (is_vector<Result>) {
        using Element = typename Result::value_type;
        std::size_t bytes = 0;
        if (!info_size(sink, query, bytes)) {
            return {};
        }
        Result values(bytes / sizeof(Element));
        if (!values.empty() &&
            !info_fixed(sink, query, values.data(), values.size() * sizeof(Element))) {
            return {};
        }
        return values;
    } else if constexpr (std::is_same_v<Result, bool>) {
        cl_bool value = CL_FALSE;
        return info_fixed(sink, query, &value, sizeof(value)) && value != CL_FALSE;
    } else {
        static_assert(std::is_trivially_copyable_v<Result>);
        Result value{};
        if (!info_fixed(sink, query, &value, sizeof(value))) {
            return Result{};
        }
        return value;
    }
}

/// A kernel's name in quotes, for an error message; if the query fails, why (describe_safely).
std::string quoted_kernel_name(cl_kernel kernel);

}  // namespace detail
OPENCLAW_END_NAMESPACE

#if OPENCLAW_HEADER_ONLY
#include <openclaw/impl/detail/base/info.ipp>
#endif

#include <openclaw/detail/base/macros_pop.hpp>
