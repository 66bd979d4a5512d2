// External memory and semaphores (external.hpp): capability queries that say what a device has,
// clear refusals where it lacks it (PoCL), and, over the emulated extensions of
// support/external_emulation.hpp, typed imports of memory "another API" writes through its own
// mapping (no copy), acquire/release, semaphores between queues and across contexts through an
// exported descriptor, UUID matching, and the errors of bad imports. The real thing, CUDA memory
// read by an openclaw kernel on NVIDIA's driver, is tests/cuda/ (built where CUDA is).
#include <openclaw/all.hpp>
#include <openclaw/external.hpp>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "support/catch.hpp"
#include "support/external_emulation.hpp"
#include "support/fixture.hpp"
#include "support/injection.hpp"

using openclaw::ExternalCapabilities;
using openclaw::ExternalMemory;
using openclaw::ExternalMemoryType;
using openclaw::InOut;
using openclaw::NDRange;
using openclaw::Semaphore;
using openclaw::SemaphoreHandleType;
using openclaw::SemaphoreOptions;
using openclaw_test::EmulateExternal;
using openclaw_test::env;
using openclaw_test::ExternalEmulation;
using openclaw_test::has;
using openclaw_test::thrown;

namespace {

bool real_extension(const char* name) {
    return env().device.supports_extension(name);
}

/// Memory "another API" allocated and wrote: a memfd of `count` floats, mapped by the test.
struct OtherApiMemory {
    int fd = -1;
    float* data = nullptr;
    std::size_t count = 0;

    explicit OtherApiMemory(std::size_t n) : count(n) {
        fd = memfd_create("openclaw-test-external", 0);
        REQUIRE(fd >= 0);
        REQUIRE(ftruncate(fd, static_cast<off_t>(n * sizeof(float))) == 0);
        void* mapped = mmap(nullptr, n * sizeof(float), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        REQUIRE(mapped != MAP_FAILED);
        data = static_cast<float*>(mapped);
    }
    ~OtherApiMemory() { munmap(data, count * sizeof(float)); }
    OtherApiMemory(const OtherApiMemory&) = delete;
    OtherApiMemory& operator=(const OtherApiMemory&) = delete;
};

bool open_fd(int fd) {
    return fcntl(fd, F_GETFD) != -1;
}

constexpr const char* source = R"CLC(
__kernel void twice_plus_index(__global float* data) {
    const size_t i = get_global_id(0);
    data[i] = data[i] * 2.0f + (float)i;
}
)CLC";

}  // namespace

TEST_CASE("without the extensions, capabilities are empty and every call is refused by name",
          "[external]") {
    if (real_extension("cl_khr_external_memory") || real_extension("cl_khr_semaphore")) {
        SUCCEED("the device has the extensions: tests/cuda/ covers it");
        return;
    }
    const ExternalCapabilities caps = openclaw::external_capabilities(env().device);
    CHECK_FALSE(caps.memory);
    CHECK(caps.memory_import.empty());
    CHECK_FALSE(caps.semaphores);
    CHECK_FALSE(caps.imports(ExternalMemoryType::opaque_fd));
    CHECK_FALSE(caps.exports(SemaphoreHandleType::opaque_fd));

    const auto import = thrown<openclaw::Error>([] {
        (void)openclaw::import_buffer<float>(env().context, ExternalMemory::opaque_fd(0, 64));
    });
    REQUIRE(import);
    CHECK(import->cl_code() == CL_INVALID_OPERATION);
    CHECK_THAT(import->what(), has("import_buffer"));
    CHECK_THAT(import->what(), has("has no cl_khr_external_memory"));
    CHECK_THAT(import->what(), has(env().device.name()));

    const auto semaphore = thrown<openclaw::Error>([] { Semaphore s(env().context); });
    REQUIRE(semaphore);
    CHECK(semaphore->cl_code() == CL_INVALID_OPERATION);
    CHECK_THAT(semaphore->what(), has("has no cl_khr_semaphore"));

    // A plain buffer is not external memory, whatever the device.
    openclaw::ReadWriteBuffer<float> plain(env().context, 16);
    const auto acquire = thrown<openclaw::Error>([&] { env().queue.acquire(plain); });
    REQUIRE(acquire);
    CHECK(acquire->cl_code() == CL_INVALID_MEM_OBJECT);
    CHECK_THAT(acquire->what(), has("clEnqueueAcquireExternalMemObjectsKHR"));
    CHECK_THAT(acquire->what(), has("not made by import_buffer"));
    if (!real_extension("cl_khr_device_uuid")) {
        CHECK_FALSE(openclaw::device_uuid(env().device).has_value());
    }
}

TEST_CASE("capabilities report what the device answers, a failing types query included",
          "[external]") {
    {
        const EmulateExternal emulate;
        const ExternalCapabilities caps = openclaw::external_capabilities(env().device);
        CHECK(caps.memory == (CL_TARGET_OPENCL_VERSION >= 300 &&
                              env().device.platform().version() >= openclaw::Version{3, 0}));
        if (caps.memory) {
            CHECK(caps.imports(ExternalMemoryType::opaque_fd));
            CHECK_FALSE(caps.imports(ExternalMemoryType::dma_buf));
        }
        CHECK(caps.semaphores);
        CHECK(caps.semaphore_types_reported);
        CHECK(caps.imports(SemaphoreHandleType::opaque_fd));
        CHECK(caps.exports(SemaphoreHandleType::opaque_fd));
        CHECK_FALSE(caps.exports(SemaphoreHandleType::sync_fd));
        REQUIRE(caps.uuid.has_value());
        openclaw::DeviceUuid expected;
        EmulateExternal::uuid_of(env().device.get(), expected.bytes.data());
        CHECK(*caps.uuid == expected);
        CHECK(caps.driver_uuid.has_value());
    }
    {
        // NVIDIA 580: CL_DEVICE_SEMAPHORE_TYPES_KHR fails, no export types.
        const EmulateExternal emulate(
            ExternalEmulation{.exports = false, .types_query_fails = true, .uuid = false});
        const ExternalCapabilities caps = openclaw::external_capabilities(env().device);
        CHECK(caps.semaphores);
        CHECK_FALSE(caps.semaphore_types_reported);
        CHECK(caps.semaphore_export.empty());
        CHECK_FALSE(caps.uuid.has_value());
        const auto refused = thrown<openclaw::Error>([] {
            Semaphore s(env().context,
                        SemaphoreOptions{.export_as = SemaphoreHandleType::opaque_fd});
        });
        REQUIRE(refused);
        CHECK(refused->cl_code() == CL_INVALID_OPERATION);
        CHECK_THAT(refused->what(),
                   has("cannot export semaphores as opaque_fd (it exports: none)"));
        // Binary semaphores work all the same.
        Semaphore s(env().context);
        CHECK(s);
        CHECK_FALSE(s.exportable());
    }
    CHECK(EmulateExternal::live_semaphores() == 0);
}

TEST_CASE("imported memory is the other API's memory: a kernel reads and writes it in place",
          "[external]") {
    const EmulateExternal emulate;
    if (!openclaw::external_capabilities(env().device).memory) {
        SUCCEED("OpenCL before 3.0 (compiled or platform): imports are refused, tested below");
        return;
    }
    if (env().device.type() != openclaw::DeviceType::cpu) {
        // The double maps the descriptor as CL_MEM_USE_HOST_PTR memory, which only a CPU device
        // uses in place (NVIDIA's copies it); the real import is examples/cuda_interop.
        SUCCEED("not a CPU device: the emulated import is not in place here");
        return;
    }
    constexpr std::size_t n = 4096;
    OtherApiMemory other(n);
    for (std::size_t i = 0; i < n; ++i) {
        other.data[i] = 1.0f + static_cast<float>(i % 7);
    }
    const int fd = dup(other.fd);
    {
        auto buffer = openclaw::import_buffer<float, openclaw::ReadWrite>(
            env().context, ExternalMemory::opaque_fd(fd, n * sizeof(float)));
        REQUIRE(buffer.size() == n);
        CHECK(EmulateExternal::live_imports() == 1);
        const auto program = openclaw::Program::build(env().context, source);
        openclaw::Kernel<InOut<float>> kernel(program, "twice_plus_index");
        kernel.set_args(buffer);
        env().queue.acquire(buffer);
        env().queue.enqueue(kernel, NDRange{n});
        openclaw::Event released = env().queue.release(buffer, openclaw::with_event);
        released.wait();
        CHECK(EmulateExternal::commands(buffer.get(), true) == 1);
        CHECK(EmulateExternal::commands(buffer.get(), false) == 1);
        // The other API sees the kernel's results in its own mapping: the same memory.
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < n; ++i) {
            wrong +=
                other.data[i] != (1.0f + static_cast<float>(i % 7)) * 2.0f + static_cast<float>(i);
        }
        CHECK(wrong == 0);
        // And openclaw reads what the other API writes next (through the same memory).
        other.data[5] = -3.0f;
        std::vector<float> back(n);
        env().queue.acquire(buffer);
        env().queue.read(buffer, back);
        env().queue.release(buffer);
        env().queue.finish();
        CHECK(back[5] == -3.0f);
        CHECK(open_fd(fd));  // the driver's until the buffer goes
    }
    // The driver destroys the memory (and the emulation's destructor callback closes the
    // descriptor) once its own references go: PoCL drops them a moment after the commands
    // complete, later still under a sanitizer and the fault interposer. Wait at most 2 s.
    for (int i = 0; i < 200 && EmulateExternal::live_imports() != 0; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    CHECK(EmulateExternal::live_imports() == 0);
    CHECK_FALSE(open_fd(fd));  // the emulated driver closed it, as NVIDIA's does
}

TEST_CASE("bad imports are refused with the size, the handle and the device", "[external]") {
    const EmulateExternal emulate;
    OtherApiMemory other(64);
    const auto error_of = [](const auto& f) {
        const auto e = thrown<openclaw::Error>(f);
        REQUIRE(e);
        return *e;
    };
    const auto uneven = error_of([&] {
        (void)openclaw::import_buffer<float>(env().context,
                                             ExternalMemory::opaque_fd(other.fd, 10));
    });
    CHECK(uneven.cl_code() == CL_INVALID_BUFFER_SIZE);
    CHECK_THAT(uneven.what(), has("10 bytes are not a whole number of 4-byte elements"));
    const auto empty = error_of([&] {
        (void)openclaw::import_buffer<float>(env().context, ExternalMemory::opaque_fd(other.fd, 0));
    });
    CHECK(empty.cl_code() == CL_INVALID_BUFFER_SIZE);
    CHECK_THAT(empty.what(), has("size is 0 bytes"));
    const auto no_fd = error_of([&] {
        (void)openclaw::import_buffer<float>(env().context, ExternalMemory::opaque_fd(-1, 64));
    });
    CHECK(no_fd.cl_code() == CL_INVALID_VALUE);
    CHECK_THAT(no_fd.what(), has("handle is -1, not a file descriptor"));
    const auto empty_device = error_of([&] {
        (void)openclaw::import_buffer<float>(
            env().context, ExternalMemory::opaque_fd(other.fd, 64, {openclaw::Device{}}));
    });
    CHECK(empty_device.cl_code() == CL_INVALID_DEVICE);
    CHECK_THAT(empty_device.what(), has("device 0 is empty"));
    const auto twice = error_of([&] {
        (void)openclaw::import_buffer<float>(
            env().context, ExternalMemory::opaque_fd(other.fd, 64, {env().device, env().device}));
    });
    CHECK(twice.cl_code() == CL_INVALID_DEVICE);
    CHECK_THAT(twice.what(), has("device 1 (\"" + env().device.name() + "\") is listed twice"));
    const auto dma = error_of([&] {
        (void)openclaw::import_buffer<float>(env().context, ExternalMemory::dma_buf(other.fd, 64));
    });
    CHECK(dma.cl_code() == CL_INVALID_OPERATION);
    CHECK_THAT(dma.what(), has("cannot import dma_buf memory (it imports: opaque_fd)"));
    if (openclaw::external_capabilities(env().device).memory) {
        // Larger than the allocation: the driver refuses, and the descriptor is still the caller's.
        const auto big = error_of([&] {
            (void)openclaw::import_buffer<float>(
                env().context, ExternalMemory::opaque_fd(other.fd, 1024 * sizeof(float)));
        });
        CHECK(big.cl_code() == CL_INVALID_BUFFER_SIZE);
        CHECK_THAT(big.what(), has("clCreateBufferWithProperties"));
        CHECK_THAT(big.what(), has("import of 4096 bytes of opaque_fd memory"));
        CHECK(open_fd(other.fd));
        // A sub-buffer is not what was imported.
        auto whole = openclaw::import_buffer<float>(
            env().context, ExternalMemory::opaque_fd(dup(other.fd), 64 * sizeof(float)));
        const std::size_t step = whole.sub_alignment();
        if (step > 0 && step < 64) {
            auto part = whole.sub(step, 64 - step);
            const auto sub = error_of([&] { env().queue.acquire(part); });
            CHECK(sub.cl_code() == CL_INVALID_MEM_OBJECT);
            CHECK_THAT(sub.what(), has("sub-buffer"));
        }
    } else {
        const auto old = error_of([&] {
            (void)openclaw::import_buffer<float>(env().context,
                                                 ExternalMemory::opaque_fd(other.fd, 64));
        });
        CHECK(old.cl_code() == CL_INVALID_OPERATION);
        CHECK_THAT(old.what(), has("OpenCL"));
    }
}

TEST_CASE("a semaphore orders commands of two queues: the wait holds until the signal",
          "[external]") {
    const EmulateExternal emulate;
    {
        const openclaw::Queue other(env().context, env().device);
        Semaphore ready(env().context);
        REQUIRE(ready);
        CHECK(ready.context() == env().context);
        openclaw::UserEvent gate(env().context);
        other.signal(ready, openclaw::after(gate));
        env().queue.wait(ready);
        const openclaw::Event after_wait = env().queue.marker();
        env().queue.flush();
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        CHECK(after_wait.status() != CL_COMPLETE);  // nothing signalled yet
        gate.complete();
        after_wait.wait();
        CHECK(after_wait.status() == CL_COMPLETE);
        other.finish();
        // Signalled and waited for again, with events.
        const openclaw::Event signalled = other.signal(ready, openclaw::with_event);
        const openclaw::Event waited = env().queue.wait(ready, openclaw::with_event);
        waited.wait();
        CHECK(signalled.status() == CL_COMPLETE);
    }
    CHECK(EmulateExternal::live_semaphores() == 0);
}

TEST_CASE("an exported semaphore, imported into another context, is one semaphore", "[external]") {
    const EmulateExternal emulate;
    {
        Semaphore exported(env().context,
                           SemaphoreOptions{.export_as = SemaphoreHandleType::opaque_fd});
        CHECK(exported.exportable());
        const int fd = exported.export_fd();
        REQUIRE(fd >= 0);
        const openclaw::Context second(env().device);
        const openclaw::Queue second_queue(second, env().device);
        Semaphore imported = Semaphore::import_fd(second, fd);
        REQUIRE(imported);
        CHECK(imported.context() == second);
        openclaw::UserEvent gate(env().context);
        env().queue.signal(exported, openclaw::after(gate));
        second_queue.wait(imported);
        const openclaw::Event done = second_queue.marker();
        second_queue.flush();
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        CHECK(done.status() != CL_COMPLETE);
        gate.complete();
        done.wait();
        CHECK(done.status() == CL_COMPLETE);
        env().queue.finish();

        // Misuse: another context's semaphore, a semaphore that was not made exportable, an
        // empty one, a descriptor that is no semaphore.
        const auto wrong_context = thrown<openclaw::Error>([&] { env().queue.wait(imported); });
        REQUIRE(wrong_context);
        CHECK(wrong_context->cl_code() == CL_INVALID_CONTEXT);
        CHECK_THAT(wrong_context->what(), has("clEnqueueWaitSemaphoresKHR"));
        CHECK_THAT(wrong_context->what(), has("another context"));
        const auto not_exportable = thrown<openclaw::Error>([&] { (void)imported.export_fd(); });
        REQUIRE(not_exportable);
        CHECK(not_exportable->cl_code() == CL_INVALID_OPERATION);
        CHECK_THAT(not_exportable->what(), has("not made exportable"));
        const auto empty = thrown<openclaw::Error>([&] { env().queue.signal(Semaphore{}); });
        REQUIRE(empty);
        CHECK(empty->cl_code() == -1142);
        CHECK_THAT(empty->what(), has("CL_INVALID_SEMAPHORE_KHR"));
        const auto no_fd = thrown<openclaw::Error>([&] { (void)Semaphore::import_fd(second, -1); });
        REQUIRE(no_fd);
        CHECK(no_fd->cl_code() == CL_INVALID_VALUE);
        const int stranger = memfd_create("not-a-semaphore", 0);
        const auto not_semaphore =
            thrown<openclaw::Error>([&] { (void)Semaphore::import_fd(second, stranger); });
        REQUIRE(not_semaphore);
        CHECK_THAT(not_semaphore->what(), has("clCreateSemaphoreWithPropertiesKHR"));
        CHECK_THAT(not_semaphore->what(), has("Semaphore::import_fd"));
        CHECK(open_fd(stranger));  // a failed import leaves it the caller's
        close(stranger);
    }
    CHECK(EmulateExternal::live_semaphores() == 0);
}

TEST_CASE("devices are found by their UUID, as CUDA and Vulkan report it", "[external]") {
    const EmulateExternal emulate;
    const auto uuid = openclaw::device_uuid(env().device);
    REQUIRE(uuid.has_value());
    CHECK(uuid->to_string().size() == 32);
    const auto found = openclaw::find_device(*uuid);
    REQUIRE(found.has_value());
    CHECK(*found == env().device);
    openclaw::DeviceUuid other = *uuid;
    other.bytes[0] ^= 0xff;
    CHECK_FALSE(openclaw::find_device(other).has_value());
    unsigned char raw[16];
    std::memcpy(raw, uuid->bytes.data(), 16);
    CHECK(openclaw::DeviceUuid::from_bytes(raw) == *uuid);
}

TEST_CASE("on a driver with the real extensions: capabilities, queue-to-queue semaphores, refusals",
          "[external]") {
    const ExternalCapabilities caps = openclaw::external_capabilities(env().device);
    if (!real_extension("cl_khr_semaphore") && !real_extension("cl_khr_external_memory")) {
        SUCCEED("the device has none of the extensions (PoCL): the emulated cases cover the code");
        return;
    }
    INFO("memory " << caps.memory << ", semaphores " << caps.semaphores << " (types reported "
                   << caps.semaphore_types_reported << ")");
    if (caps.semaphores) {
        const openclaw::Queue other(env().context, env().device);
        Semaphore ready(env().context);
        openclaw::ReadWriteBuffer<int> data(env().context, 1024);
        other.fill(data, 7);
        other.signal(ready);
        env().queue.wait(ready);
        std::vector<int> back(1024);
        env().queue.read(data, back);  // blocking, after the wait, so after the fill
        CHECK(back[0] == 7);
        CHECK(back[1023] == 7);
        other.finish();
        // Behind a user event another thread completes: NVIDIA 580's signal does not return
        // until then (docs/interop.md), so the event must not be the calling thread's to complete.
        {
            const openclaw::UserEvent gate(env().context);
            std::jthread opener([&gate] {  // joined on every way out of the block
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
                gate.complete();
            });
            other.fill(data, 9, openclaw::after(gate));
            other.signal(ready);
            env().queue.wait(ready);
            env().queue.read(data, back);
            opener.join();
            CHECK(back[0] == 9);
            CHECK(back[1023] == 9);
            other.finish();
        }
        if (!caps.exports(SemaphoreHandleType::opaque_fd)) {
            const auto refused = thrown<openclaw::Error>([] {
                Semaphore s(env().context,
                            SemaphoreOptions{.export_as = SemaphoreHandleType::opaque_fd});
            });
            REQUIRE(refused);
            CHECK_THAT(refused->what(), has("cannot export semaphores as opaque_fd"));
        }
    }
    if (caps.memory && caps.imports(ExternalMemoryType::opaque_fd)) {
        // A descriptor that is not memory of this driver: the driver's refusal, by name.
        const int stranger = memfd_create("not-gpu-memory", 0);
        REQUIRE(ftruncate(stranger, 1 << 20) == 0);
        const auto refused = thrown<openclaw::Error>([&] {
            (void)openclaw::import_buffer<float>(env().context,
                                                 ExternalMemory::opaque_fd(stranger, 1 << 20));
        });
        REQUIRE(refused);
        CHECK_THAT(refused->what(), has("clCreateBufferWithProperties"));
        CHECK_THAT(refused->what(), has("import of 1048576 bytes of opaque_fd memory"));
        // A failed import leaves the descriptor the caller's, even where the driver returned an
        // object with the error (NVIDIA 580) that openclaw then released.
        CHECK(fcntl(stranger, F_GETFD) != -1);
        CHECK(close(stranger) == 0);
    }
}

namespace {
std::vector<std::pair<std::string, cl_int>> hooked;
void hook(const char* call, cl_int code) noexcept {
    hooked.emplace_back(call, code);
}
}  // namespace

TEST_CASE("a failure of each extension entry point is reported by its name and leaks nothing",
          "[external]") {
    const openclaw_test::Injection injection = openclaw_test::Injection::find();
    if (!injection) {
        SUCCEED("not under the fault-injection interposer (ctest runs this program under it too)");
        return;
    }
    const EmulateExternal emulate;
    const int semaphores_before = EmulateExternal::live_semaphores();
    const auto fails_as = [&](const char* call, const auto& operation) {
        injection.fail(call, CL_OUT_OF_RESOURCES);
        const auto error = thrown<openclaw::Error>(operation);
        injection.clear();
        REQUIRE(error);
        CHECK(error->call() == call);
        CHECK(error->cl_code() == CL_OUT_OF_RESOURCES);
    };
    Semaphore ready(env().context, SemaphoreOptions{.export_as = SemaphoreHandleType::opaque_fd});
    const openclaw::Queue other(env().context, env().device);
    fails_as("clCreateSemaphoreWithPropertiesKHR", [] { Semaphore s(env().context); });
    fails_as("clEnqueueSignalSemaphoresKHR", [&] { other.signal(ready); });
    fails_as("clEnqueueWaitSemaphoresKHR", [&] { env().queue.wait(ready); });
    fails_as("clGetSemaphoreHandleForTypeKHR", [&] { (void)ready.export_fd(); });
    if (openclaw::external_capabilities(env().device).memory) {
        OtherApiMemory memory(64);
        fails_as("clCreateBufferWithProperties", [&] {
            (void)openclaw::import_buffer<float>(
                env().context, ExternalMemory::opaque_fd(memory.fd, 64 * sizeof(float)));
        });
        CHECK(open_fd(memory.fd));  // a failed import leaves it the caller's
        auto buffer = openclaw::import_buffer<float>(
            env().context, ExternalMemory::opaque_fd(dup(memory.fd), 64 * sizeof(float)));
        fails_as("clEnqueueAcquireExternalMemObjectsKHR", [&] { env().queue.acquire(buffer); });
        fails_as("clEnqueueReleaseExternalMemObjectsKHR", [&] { env().queue.release(buffer); });
    }
    // A release that fails in the destructor reaches the error hook once; the semaphore stays
    // with the driver (released here by hand, as the hook's owner would decide).
    hooked.clear();
    const auto previous = openclaw::set_error_hook(&hook);
    void* stranded = nullptr;
    {
        Semaphore doomed(env().context);
        stranded = doomed.get();
        injection.fail("clReleaseSemaphoreKHR", CL_OUT_OF_RESOURCES);
    }
    injection.clear();
    openclaw::set_error_hook(previous);
    REQUIRE(hooked.size() == 1);
    CHECK(hooked[0] ==
          std::pair<std::string, cl_int>("clReleaseSemaphoreKHR", CL_OUT_OF_RESOURCES));
    CHECK(EmulateExternal::live_semaphores() == semaphores_before + 2);  // `ready` and the stranded
    using Release = cl_int(CL_API_CALL*)(void*);
    const auto release = reinterpret_cast<Release>(clGetExtensionFunctionAddressForPlatform(
        env().device.platform().get(), "clReleaseSemaphoreKHR"));
    REQUIRE(release != nullptr);
    CHECK(release(stranded) == CL_SUCCESS);
    env().queue.finish();
    other.finish();
}
