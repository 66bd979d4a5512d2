// SPDX-License-Identifier: Apache-2.0
// The code of docs/coming-from-c.md and docs/coming-from-clhpp.md, compiled (with -Werror) and
// run, so the pages cannot drift from the library. Each [name] ... [name] block is quoted in
// those pages; the C API versions beside them are compiled too, and main() checks that both
// sides compute the same results on the first device openclaw selects.
#include <openclaw/all.hpp>

#include "c_check.hpp"

#if defined(OPENCLAW_DOCS_CLHPP)
#define CL_HPP_ENABLE_EXCEPTIONS
#include <openclaw/interop/clhpp.hpp>
#endif

#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

namespace {

// NOLINTNEXTLINE: clCreateProgramWithSource takes const char**, so the pointer cannot be const.
const char* source = R"CLC(
__kernel void vector_add(__global const float* a, __global const float* b,
                         __global float* c, const uint n) {
    const size_t i = get_global_id(0);
    if (i < n) c[i] = a[i] + b[i];
}
__kernel void twice(__global float* data) {
    const size_t i = get_global_id(0);
    data[i] *= 2.0f;
}
)CLC";

// [openclaw vector_add]
std::vector<float> vector_add_openclaw(const openclaw::Device& device, const std::vector<float>& a,
                                       const std::vector<float>& b) {
    const openclaw::Context context{device};
    const openclaw::Queue queue{context, device};
    const openclaw::ReadOnlyBuffer<float> da{queue, a};  // on the device on return
    const openclaw::ReadOnlyBuffer<float> db{queue, b};
    const openclaw::WriteOnlyBuffer<float> dc{context, a.size()};

    const auto program = openclaw::Program::build(context, source);
    auto add =
        program.kernel<openclaw::In<float>, openclaw::In<float>, openclaw::Out<float>, cl_uint>(
            "vector_add");
    add.set_args(da, db, dc, static_cast<cl_uint>(a.size()));
    queue.enqueue(add, openclaw::NDRange{a.size()});

    std::vector<float> c(a.size());
    queue.read(dc, c);  // blocking
    return c;
}
// [openclaw vector_add]

// [openclaw map and sub-buffer]
std::vector<float> map_and_sub_openclaw(const openclaw::Device& device, std::size_t n) {
    const openclaw::Context context{device};
    const openclaw::Queue queue{context, device};
    const openclaw::ReadWriteBuffer<float> data{context, n};
    {
        auto view = queue.map_discard(data);  // CL_MAP_WRITE_INVALIDATE_REGION
        std::iota(view.begin(), view.end(), 0.0f);
    }  // unmapped here

    // Double the second half only: a sub-buffer whose offset the device accepts.
    const std::size_t half = n / 2 / data.sub_alignment() * data.sub_alignment();
    const auto second = data.sub(half, n - half);
    const auto program = openclaw::Program::build(context, source);
    auto twice = program.kernel<openclaw::InOut<float>>("twice");
    queue.enqueue(twice.set_args(second), openclaw::NDRange{second.size()});

    const auto result = queue.map_read(data);  // waits for the kernel: same in-order queue
    return {result.begin(), result.end()};
}
// [openclaw map and sub-buffer]

// The C API side: every status checked (CHECK: c_check.hpp), every object released on every path.

// [C vector_add]
std::vector<float> vector_add_c(cl_device_id device, const std::vector<float>& a,
                                const std::vector<float>& b) {
    const std::size_t n = a.size();
    const std::size_t bytes = n * sizeof(float);
    cl_int status = CL_SUCCESS;
    cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
    CHECK(status);
#if CL_TARGET_OPENCL_VERSION >= 200
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &status);
#else
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, &status);
#endif
    CHECK(status);
    cl_mem da = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes,
                               const_cast<float*>(a.data()), &status);
    CHECK(status);
    cl_mem db = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes,
                               const_cast<float*>(b.data()), &status);
    CHECK(status);
    cl_mem dc = clCreateBuffer(context, CL_MEM_WRITE_ONLY, bytes, nullptr, &status);
    CHECK(status);

    cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &status);
    CHECK(status);
    CHECK(clBuildProgram(program, 1, &device, "", nullptr, nullptr));  // log: clGetProgramBuildInfo
    cl_kernel add = clCreateKernel(program, "vector_add", &status);
    CHECK(status);
    const cl_uint count = static_cast<cl_uint>(n);  // the kernel's uint: sizes must match exactly
    CHECK(clSetKernelArg(add, 0, sizeof(cl_mem), &da));
    CHECK(clSetKernelArg(add, 1, sizeof(cl_mem), &db));
    CHECK(clSetKernelArg(add, 2, sizeof(cl_mem), &dc));
    CHECK(clSetKernelArg(add, 3, sizeof(cl_uint), &count));
    CHECK(clEnqueueNDRangeKernel(queue, add, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));

    std::vector<float> c(n);
    CHECK(clEnqueueReadBuffer(queue, dc, CL_TRUE, 0, bytes, c.data(), 0, nullptr, nullptr));
    clReleaseKernel(add);
    clReleaseProgram(program);
    clReleaseMemObject(dc);
    clReleaseMemObject(db);
    clReleaseMemObject(da);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return c;
}
// [C vector_add]

// [C map and sub-buffer]
std::vector<float> map_and_sub_c(cl_device_id device, std::size_t n) {
    const std::size_t bytes = n * sizeof(float);
    cl_int status = CL_SUCCESS;
    cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
    CHECK(status);
#if CL_TARGET_OPENCL_VERSION >= 200
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &status);
#else
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, &status);
#endif
    CHECK(status);
    cl_mem data = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &status);
    CHECK(status);

    auto* view =
        static_cast<float*>(clEnqueueMapBuffer(queue, data, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION,
                                               0, bytes, 0, nullptr, nullptr, &status));
    CHECK(status);
    std::iota(view, view + n, 0.0f);
    CHECK(clEnqueueUnmapMemObject(queue, data, view, 0, nullptr, nullptr));

    // The origin must be a multiple of CL_DEVICE_MEM_BASE_ADDR_ALIGN, which is in bits.
    cl_uint align_bits = 0;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(align_bits), &align_bits,
                          nullptr));
    const std::size_t step = align_bits / 8 / sizeof(float);
    const std::size_t half = n / 2 / step * step;
    const cl_buffer_region region{half * sizeof(float), (n - half) * sizeof(float)};
    cl_mem second =
        clCreateSubBuffer(data, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &status);
    CHECK(status);

    cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &status);
    CHECK(status);
    CHECK(clBuildProgram(program, 1, &device, "", nullptr, nullptr));
    cl_kernel twice = clCreateKernel(program, "twice", &status);
    CHECK(status);
    CHECK(clSetKernelArg(twice, 0, sizeof(cl_mem), &second));
    const std::size_t global = n - half;
    CHECK(clEnqueueNDRangeKernel(queue, twice, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));

    view = static_cast<float*>(clEnqueueMapBuffer(queue, data, CL_TRUE, CL_MAP_READ, 0, bytes, 0,
                                                  nullptr, nullptr, &status));
    CHECK(status);
    std::vector<float> result(view, view + n);
    CHECK(clEnqueueUnmapMemObject(queue, data, view, 0, nullptr, nullptr));
    CHECK(clFinish(queue));
    clReleaseKernel(twice);
    clReleaseProgram(program);
    clReleaseMemObject(second);
    clReleaseMemObject(data);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return result;
}
// [C map and sub-buffer]

#if defined(OPENCLAW_DOCS_CLHPP)
// The OpenCL-CLHPP side (CL_HPP_ENABLE_EXCEPTIONS: failures throw cl::Error).

// [CLHPP vector_add]
std::vector<float> vector_add_clhpp(const cl::Device& device, const std::vector<float>& a,
                                    const std::vector<float>& b) {
    const std::size_t bytes = a.size() * sizeof(float);
    const cl::Context context{device};
    cl::CommandQueue queue{context, device};  // EnqueueArgs takes it by non-const reference
    const cl::Buffer da{context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes,
                        const_cast<float*>(a.data())};
    const cl::Buffer db{context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes,
                        const_cast<float*>(b.data())};
    const cl::Buffer dc{context, CL_MEM_WRITE_ONLY, bytes};

    const cl::Program program{context, source, /*build=*/true};
    cl::KernelFunctor<cl::Buffer, cl::Buffer, cl::Buffer, cl_uint> add{program, "vector_add"};
    add(cl::EnqueueArgs{queue, cl::NDRange{a.size()}}, da, db, dc, static_cast<cl_uint>(a.size()));

    std::vector<float> c(a.size());
    queue.enqueueReadBuffer(dc, CL_TRUE, 0, bytes, c.data());
    return c;
}
// [CLHPP vector_add]

// [CLHPP map and sub-buffer]
std::vector<float> map_and_sub_clhpp(const cl::Device& device, std::size_t n) {
    const std::size_t bytes = n * sizeof(float);
    const cl::Context context{device};
    const cl::CommandQueue queue{context, device};
    cl::Buffer data{context, CL_MEM_READ_WRITE, bytes};
    auto* view = static_cast<float*>(
        queue.enqueueMapBuffer(data, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, bytes));
    std::iota(view, view + n, 0.0f);
    queue.enqueueUnmapMemObject(data, view);

    // CL_DEVICE_MEM_BASE_ADDR_ALIGN is in bits; the region is in bytes.
    const std::size_t step = device.getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8 / sizeof(float);
    const std::size_t half = n / 2 / step * step;
    const cl_buffer_region region{half * sizeof(float), (n - half) * sizeof(float)};
    const cl::Buffer second =
        data.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region);
    const cl::Program program{context, source, /*build=*/true};
    cl::Kernel twice{program, "twice"};
    twice.setArg(0, second);
    queue.enqueueNDRangeKernel(twice, cl::NullRange, cl::NDRange{n - half});

    view = static_cast<float*>(queue.enqueueMapBuffer(data, CL_TRUE, CL_MAP_READ, 0, bytes));
    std::vector<float> result(view, view + n);
    queue.enqueueUnmapMemObject(data, view);
    queue.finish();
    return result;
}
// [CLHPP map and sub-buffer]
#endif

}  // namespace

int main() try {
    const openclaw::Device device = openclaw::select_device();
    const std::size_t n = 4096;
    std::vector<float> a(n), b(n);
    std::iota(a.begin(), a.end(), 1.0f);
    std::iota(b.begin(), b.end(), 0.5f);

    const std::vector<float> c = vector_add_openclaw(device, a, b);
    if (c != vector_add_c(device.get(), a, b)) {
        std::puts("docs snippets: vector_add differs between openclaw and the C API");
        return EXIT_FAILURE;
    }
    for (std::size_t i = 0; i < n; ++i) {
        if (c[i] != a[i] + b[i]) {
            std::printf("docs snippets: vector_add wrong at %zu\n", i);
            return EXIT_FAILURE;
        }
    }

    const std::vector<float> mapped = map_and_sub_openclaw(device, n);
    if (mapped != map_and_sub_c(device.get(), n)) {
        std::puts("docs snippets: map and sub-buffer differ between openclaw and the C API");
        return EXIT_FAILURE;
    }
    std::size_t doubled = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const float expected = static_cast<float>(i);
        if (mapped[i] == 2 * expected && i != 0) {
            ++doubled;
        } else if (mapped[i] != expected) {
            std::printf("docs snippets: map and sub-buffer wrong at %zu\n", i);
            return EXIT_FAILURE;
        }
    }
    if (doubled == 0 || mapped[n - 1] != 2.0f * static_cast<float>(n - 1) || mapped[1] != 1.0f) {
        std::puts("docs snippets: the sub-buffer kernel did not double the second part");
        return EXIT_FAILURE;
    }
#if defined(OPENCLAW_DOCS_CLHPP)
    const cl::Device cl_device = openclaw::to_clhpp(device);
    if (vector_add_clhpp(cl_device, a, b) != c || map_and_sub_clhpp(cl_device, n) != mapped) {
        std::puts("docs snippets: the OpenCL-CLHPP versions compute something else");
        return EXIT_FAILURE;
    }
    std::puts("docs snippets: the OpenCL-CLHPP versions agree");
#endif
    std::printf("docs snippets: both pages' programs agree on %s\n", device.name().c_str());
    return EXIT_SUCCESS;
} catch (const openclaw::Error& error) {
    std::fprintf(stderr, "docs snippets: %s\n", error.what());
    return EXIT_FAILURE;
}
