// SPDX-License-Identifier: Apache-2.0
// CUDA and openclaw on one GPU, sharing memory without a copy: CUDA allocates memory that can be
// exported (cuMemCreate with a POSIX file descriptor handle), a CUDA kernel writes it, openclaw
// imports the descriptor as a ReadWriteBuffer<float> on the OpenCL device with the same UUID, and
// an openclaw kernel updates it in place after a semaphore; both sides then check the result.
//
//   cuda_interop [elements]     (default 1048576; exits 77, "skipped", without CUDA or the
//                                OpenCL extension, e.g. on PoCL)
#include <openclaw/external.hpp>
#include <openclaw/openclaw.hpp>

#include <cuda.h>
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "cuda_side.hpp"

namespace {

constexpr int skipped = 77;

// The CUDA driver API, loaded at run time: the program starts (and says why it skips) on machines
// without NVIDIA's driver. The names cuda.h maps to versioned entry points (cuDeviceGetUuid ->
// cuDeviceGetUuid_v2) are looked up by the name the macro expands to.
#define OPENCLAW_EXAMPLE_NAME(f) #f
#define OPENCLAW_EXAMPLE_SYMBOL(f) OPENCLAW_EXAMPLE_NAME(f)
struct Driver {
    void* library = nullptr;
    decltype(&cuInit) init = nullptr;
    decltype(&cuDeviceGet) device_get = nullptr;
    decltype(&cuDeviceGetUuid) device_uuid = nullptr;
    decltype(&cuDevicePrimaryCtxRetain) primary_retain = nullptr;
    decltype(&cuDevicePrimaryCtxRelease) primary_release = nullptr;
    decltype(&cuCtxSetCurrent) set_current = nullptr;
    decltype(&cuMemGetAllocationGranularity) granularity = nullptr;
    decltype(&cuMemCreate) create = nullptr;
    decltype(&cuMemExportToShareableHandle) export_handle = nullptr;
    decltype(&cuMemAddressReserve) reserve = nullptr;
    decltype(&cuMemMap) map = nullptr;
    decltype(&cuMemSetAccess) set_access = nullptr;
    decltype(&cuMemUnmap) unmap = nullptr;
    decltype(&cuMemAddressFree) address_free = nullptr;
    decltype(&cuMemRelease) release = nullptr;
    decltype(&cuMemcpyDtoH) copy_to_host = nullptr;

    bool load() {
        library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (library == nullptr) {
            return false;
        }
        bool all = true;
        const auto find = [&](auto& slot, const char* name) {
            slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(dlsym(library, name));
            all = all && slot != nullptr;
        };
        find(init, OPENCLAW_EXAMPLE_SYMBOL(cuInit));
        find(device_get, OPENCLAW_EXAMPLE_SYMBOL(cuDeviceGet));
        find(device_uuid, OPENCLAW_EXAMPLE_SYMBOL(cuDeviceGetUuid));
        find(primary_retain, OPENCLAW_EXAMPLE_SYMBOL(cuDevicePrimaryCtxRetain));
        find(primary_release, OPENCLAW_EXAMPLE_SYMBOL(cuDevicePrimaryCtxRelease));
        find(set_current, OPENCLAW_EXAMPLE_SYMBOL(cuCtxSetCurrent));
        find(granularity, OPENCLAW_EXAMPLE_SYMBOL(cuMemGetAllocationGranularity));
        find(create, OPENCLAW_EXAMPLE_SYMBOL(cuMemCreate));
        find(export_handle, OPENCLAW_EXAMPLE_SYMBOL(cuMemExportToShareableHandle));
        find(reserve, OPENCLAW_EXAMPLE_SYMBOL(cuMemAddressReserve));
        find(map, OPENCLAW_EXAMPLE_SYMBOL(cuMemMap));
        find(set_access, OPENCLAW_EXAMPLE_SYMBOL(cuMemSetAccess));
        find(unmap, OPENCLAW_EXAMPLE_SYMBOL(cuMemUnmap));
        find(address_free, OPENCLAW_EXAMPLE_SYMBOL(cuMemAddressFree));
        find(release, OPENCLAW_EXAMPLE_SYMBOL(cuMemRelease));
        find(copy_to_host, OPENCLAW_EXAMPLE_SYMBOL(cuMemcpyDtoH));
        return all;
    }
};

bool ok(CUresult result, const char* what) {
    if (result != CUDA_SUCCESS) {
        std::fprintf(stderr, "cuda_interop: %s failed (CUresult %d)\n", what,
                     static_cast<int>(result));
        return false;
    }
    return true;
}

float pattern(std::size_t i) {  // what the CUDA kernel writes
    return 0.5f * static_cast<float>(i % 1000) + 1.0f;
}

constexpr const char* source = R"CLC(
__kernel void update(__global float* data, const float scale) {
    const size_t i = get_global_id(0);
    data[i] = data[i] * scale + 1.0f;
}
)CLC";

/// The device's primary context (the CUDA runtime's), held while the program uses it.
struct PrimaryContext {
    const Driver& cu;
    CUdevice device = 0;
    CUcontext context = nullptr;

    ~PrimaryContext() {
        if (context != nullptr) {
            (void)cu.primary_release(device);
        }
    }
};

/// Exportable device memory of CUDA, mapped at `address` on the CUDA side.
struct CudaMemory {
    const Driver& cu;
    CUmemGenericAllocationHandle handle = 0;
    CUdeviceptr address = 0;
    std::size_t bytes = 0;
    bool mapped = false;

    ~CudaMemory() {
        if (mapped) {
            (void)cu.unmap(address, bytes);
        }
        if (address != 0) {
            (void)cu.address_free(address, bytes);
        }
        if (handle != 0) {
            (void)cu.release(handle);
        }
    }
};

}  // namespace

int main(int argc, char** argv) {
    const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : (1u << 20);
    if (n == 0) {
        std::fprintf(stderr, "usage: cuda_interop [elements > 0]\n");
        return 2;
    }
    Driver cu;
    if (!cu.load() || cuda_devices() == 0) {
        std::printf("skipped: no CUDA driver or device here (libcuda.so.1)\n");
        return skipped;
    }
    CUdevice cuda_device = 0;
    CUuuid cuda_uuid{};
    if (!ok(cu.init(0), "cuInit") || !ok(cu.device_get(&cuda_device, 0), "cuDeviceGet") ||
        !ok(cu.device_uuid(&cuda_uuid, cuda_device), "cuDeviceGetUuid")) {
        return 1;
    }
    PrimaryContext primary{cu, cuda_device};
    if (!ok(cu.primary_retain(&primary.context, cuda_device), "cuDevicePrimaryCtxRetain") ||
        !ok(cu.set_current(primary.context), "cuCtxSetCurrent")) {
        return 1;
    }
    // The OpenCL device that is this GPU: the same UUID.
    const auto uuid = openclaw::DeviceUuid::from_bytes(cuda_uuid.bytes);
    const std::optional<openclaw::Device> found = openclaw::find_device(uuid);
    if (!found) {
        std::printf("skipped: no OpenCL device has CUDA device 0's UUID %s (cl_khr_device_uuid)\n",
                    uuid.to_string().c_str());
        return skipped;
    }
    const openclaw::Device device = *found;
    const openclaw::ExternalCapabilities caps = openclaw::external_capabilities(device);
    std::printf("CUDA device 0 is OpenCL's \"%s\" (UUID %s)\n", device.name().c_str(),
                uuid.to_string().c_str());
    std::printf("imports memory as: %s; semaphores: %s (types query %s), export as opaque_fd: %s\n",
                caps.imports(openclaw::ExternalMemoryType::opaque_fd) ? "opaque_fd" : "-",
                caps.semaphores ? "yes" : "no", caps.semaphore_types_reported ? "ok" : "failed",
                caps.exports(openclaw::SemaphoreHandleType::opaque_fd) ? "yes" : "no");
    if (!caps.imports(openclaw::ExternalMemoryType::opaque_fd)) {
        std::printf("skipped: the OpenCL device cannot import opaque_fd memory\n");
        return skipped;
    }

    // CUDA: exportable memory (a POSIX file descriptor), mapped for CUDA's kernel.
    CudaMemory memory{cu};
    CUmemAllocationProp prop{};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = cuda_device;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    std::size_t granularity = 0;
    if (!ok(cu.granularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM),
            "cuMemGetAllocationGranularity")) {
        return 1;
    }
    memory.bytes = (n * sizeof(float) + granularity - 1) / granularity * granularity;
    int fd = -1;
    CUmemAccessDesc access{};
    access.location = prop.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    if (!ok(cu.create(&memory.handle, memory.bytes, &prop, 0), "cuMemCreate") ||
        !ok(cu.export_handle(&fd, memory.handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
            "cuMemExportToShareableHandle") ||
        !ok(cu.reserve(&memory.address, memory.bytes, 0, 0, 0), "cuMemAddressReserve") ||
        !ok(cu.map(memory.address, memory.bytes, 0, memory.handle, 0), "cuMemMap")) {
        return 1;
    }
    memory.mapped = true;
    if (!ok(cu.set_access(memory.address, memory.bytes, &access, 1), "cuMemSetAccess")) {
        return 1;
    }

    // 1. CUDA's kernel writes the memory (and CUDA waits for it).
    if (const char* failure = cuda_write_pattern(
            reinterpret_cast<void*>(static_cast<std::uintptr_t>(memory.address)), n)) {
        std::fprintf(stderr, "cuda_interop: the CUDA kernel failed: %s\n", failure);
        return 1;
    }

    // 2. openclaw imports the same memory: a typed buffer of the exported allocation (its bytes are
    //    a whole number of floats), for this device. The descriptor is the driver's from here.
    const openclaw::Context context(device);
    const openclaw::Queue transfer(context, device);  // hands the memory to OpenCL
    const openclaw::Queue compute(context, device);   // runs the kernel
    auto shared = openclaw::import_buffer<float, openclaw::ReadWrite>(
        context, openclaw::ExternalMemory::opaque_fd(fd, memory.bytes, {device}));
    std::printf("imported %zu bytes as a ReadWriteBuffer<float> of %zu elements (no copy)\n",
                memory.bytes, shared.size());

    // 3. One queue acquires the memory and signals a semaphore; the other waits for it, runs the
    //    kernel over the first n elements, releases the memory to CUDA.
    const auto program = openclaw::Program::build(context, source);
    openclaw::Kernel<openclaw::InOut<float>, cl_float> update(program, "update");
    update.set_args(shared, 3.0f);
    openclaw::Semaphore acquired(context);
    transfer.acquire(shared);
    transfer.signal(acquired);
    compute.wait(acquired);
    compute.enqueue(update, openclaw::NDRange{n});
    compute.release(shared);
    compute.finish();
    transfer.finish();

    // 4. Both sides check: CUDA copies its view to the host, openclaw reads its own.
    std::vector<float> seen_by_cuda(n);
    if (!ok(cu.copy_to_host(seen_by_cuda.data(), memory.address, n * sizeof(float)),
            "cuMemcpyDtoH")) {
        return 1;
    }
    std::vector<float> seen_by_openclaw(n);
    compute.acquire(shared);
    compute.read(shared.slice(0, n), seen_by_openclaw);
    compute.release(shared);
    compute.finish();
    std::size_t wrong_cuda = 0;
    std::size_t wrong_openclaw = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const float expected = pattern(i) * 3.0f + 1.0f;
        wrong_cuda += seen_by_cuda[i] != expected;
        wrong_openclaw += seen_by_openclaw[i] != expected;
    }
    std::printf(
        "CUDA wrote, openclaw updated in place: %zu elements, %zu wrong in CUDA's view, "
        "%zu in openclaw's\n",
        n, wrong_cuda, wrong_openclaw);
    if (wrong_cuda != 0 || wrong_openclaw != 0) {
        return 1;
    }
    std::printf("verified both ways\n");
    return 0;
}
