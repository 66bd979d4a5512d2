// SPDX-License-Identifier: Apache-2.0
// The program of docs/porting.md, before (the C API) and after (openclaw), compiled with -Werror
// and run: each [name] ... [name] block is quoted verbatim by the page (a test checks it), and
// main() checks that both versions compute the same partial sums and the same image, and that
// both match the host's answer. The kernels are read at run time from the file named by the
// first argument (tests/docs/porting/filters.cl).
#include <openclaw/all.hpp>

#include "c_check.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Results {
    std::vector<float> partials;
    std::vector<cl_uchar4> inverted;
    double kernel_ms = 0;
};

constexpr std::size_t group = 64;   // work-items per group, a power of two
constexpr std::size_t groups = 16;  // partial sums
constexpr std::size_t width = 64, height = 32;

std::vector<float> sample_values() {
    std::vector<float> values(std::size_t{1} << 16);
    for (std::size_t i = 0; i < values.size(); ++i) {
        values[i] = static_cast<float>(i % 7);  // small integers: every sum is exact
    }
    return values;
}

std::vector<cl_uchar4> sample_pixels() {
    std::vector<cl_uchar4> pixels(width * height);
    for (std::size_t i = 0; i < pixels.size(); ++i) {
        pixels[i] = cl_uchar4{{static_cast<cl_uchar>(i), static_cast<cl_uchar>(i / 3),
                               static_cast<cl_uchar>(255 - i % 256), 255}};
    }
    return pixels;
}

// The C API side: every status checked (CHECK: c_check.hpp) (exiting on failure), every object
// released.

Results c_version(cl_device_id device, const char* path) {
    const std::vector<float> values = sample_values();
    const std::vector<cl_uchar4> pixels = sample_pixels();
    Results results;
    // [C: a context and a profiling queue]
    cl_int status = CL_SUCCESS;
    cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
    CHECK(status);
#if CL_TARGET_OPENCL_VERSION >= 200
    const cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue queue =
        clCreateCommandQueueWithProperties(context, device, properties, &status);
#else
    cl_command_queue queue =
        clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &status);
#endif
    CHECK(status);
    // [C: a context and a profiling queue]

    // [C: the kernel file, built, the log printed on failure]
    std::FILE* file = std::fopen(path, "rb");
    if (file == nullptr) {
        std::fprintf(stderr, "cannot open %s\n", path);
        std::exit(EXIT_FAILURE);
    }
    std::string text;
    for (int c = std::fgetc(file); c != EOF; c = std::fgetc(file)) {
        text.push_back(static_cast<char>(c));
    }
    std::fclose(file);
    const char* source = text.c_str();
    cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &status);
    CHECK(status);
    if (clBuildProgram(program, 1, &device, "", nullptr, nullptr) != CL_SUCCESS) {
        std::size_t size = 0;
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
        std::string log(size, '\0');
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
        std::fprintf(stderr, "build failed:\n%s\n", log.c_str());
        std::exit(EXIT_FAILURE);
    }
    // [C: the kernel file, built, the log printed on failure]

    // [C: partial sums in local memory, timed]
    cl_mem input =
        clCreateBuffer(context, CL_MEM_READ_ONLY, values.size() * sizeof(float), nullptr, &status);
    CHECK(status);
    CHECK(clEnqueueWriteBuffer(queue, input, CL_TRUE, 0, values.size() * sizeof(float),
                               values.data(), 0, nullptr, nullptr));
    cl_mem partials =
        clCreateBuffer(context, CL_MEM_WRITE_ONLY, groups * sizeof(float), nullptr, &status);
    CHECK(status);
    cl_kernel sums = clCreateKernel(program, "partial_sums", &status);
    CHECK(status);
    const cl_uint n = static_cast<cl_uint>(values.size());
    CHECK(clSetKernelArg(sums, 0, sizeof(cl_mem), &input));
    CHECK(clSetKernelArg(sums, 1, sizeof(cl_mem), &partials));
    CHECK(clSetKernelArg(sums, 2, group * sizeof(float), nullptr));  // __local: a size, no data
    CHECK(clSetKernelArg(sums, 3, sizeof(cl_uint), &n));
    const std::size_t global = groups * group;
    const std::size_t local = group;
    cl_event done = nullptr;
    CHECK(clEnqueueNDRangeKernel(queue, sums, 1, nullptr, &global, &local, 0, nullptr, &done));
    results.partials.resize(groups);
    CHECK(clEnqueueReadBuffer(queue, partials, CL_TRUE, 0, groups * sizeof(float),
                              results.partials.data(), 0, nullptr, nullptr));
    cl_ulong start = 0, end = 0;
    CHECK(clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr));
    CHECK(clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr));
    results.kernel_ms = static_cast<double>(end - start) * 1e-6;
    // [C: partial sums in local memory, timed]

    // [C: an image]
    const cl_image_format format = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc desc = {};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = width;
    desc.image_height = height;
    cl_mem picture = clCreateImage(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &format, &desc,
                                   const_cast<cl_uchar4*>(pixels.data()), &status);
    CHECK(status);
    cl_mem negative = clCreateImage(context, CL_MEM_WRITE_ONLY, &format, &desc, nullptr, &status);
    CHECK(status);
    cl_kernel invert = clCreateKernel(program, "invert", &status);
    CHECK(status);
    CHECK(clSetKernelArg(invert, 0, sizeof(cl_mem), &picture));
    CHECK(clSetKernelArg(invert, 1, sizeof(cl_mem), &negative));
    const std::size_t extent[2] = {width, height};
    CHECK(clEnqueueNDRangeKernel(queue, invert, 2, nullptr, extent, nullptr, 0, nullptr, nullptr));
    results.inverted.resize(width * height);
    const std::size_t origin[3] = {0, 0, 0};
    const std::size_t region[3] = {width, height, 1};
    CHECK(clEnqueueReadImage(queue, negative, CL_TRUE, origin, region, 0, 0,
                             results.inverted.data(), 0, nullptr, nullptr));
    // [C: an image]

    // [C: release]
    clReleaseKernel(invert);
    clReleaseMemObject(negative);
    clReleaseMemObject(picture);
    clReleaseEvent(done);
    clReleaseKernel(sums);
    clReleaseMemObject(partials);
    clReleaseMemObject(input);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    // [C: release]
    return results;
}

// [openclaw: the kernel file]
std::string read_text(const char* path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        throw std::runtime_error(std::string("cannot open ") + path);
    }
    return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}
// [openclaw: the kernel file]

// [openclaw: the kernels' types]
using PartialSums =
    openclaw::Kernel<openclaw::In<float>, openclaw::Out<float>, openclaw::Local<float>, cl_uint>;
using Invert = openclaw::Kernel<openclaw::ReadImage2D<openclaw::pixel::rgba8>,
                                openclaw::WriteImage2D<openclaw::pixel::rgba8>>;
// [openclaw: the kernels' types]

Results openclaw_version(const openclaw::Device& device, const char* path) {
    const std::vector<float> values = sample_values();
    const std::vector<cl_uchar4> pixels = sample_pixels();
    Results results;
    // [openclaw: a context and a profiling queue]
    const openclaw::Context context{device};
    const openclaw::Queue queue{context, device, {.profiling = true}};
    // [openclaw: a context and a profiling queue]

    // [openclaw: built from the file]
    // A failed build throws openclaw::BuildError: its what() holds every device's log.
    const auto program = openclaw::Program::build(context, read_text(path));
    // [openclaw: built from the file]

    // [openclaw: partial sums in local memory, timed]
    const openclaw::ReadOnlyBuffer<float> input{queue, values};
    const openclaw::WriteOnlyBuffer<float> partials{context, groups};
    auto sums = program.kernel<PartialSums>("partial_sums");
    sums.set_args(input, partials, openclaw::LocalMem<float>{group},
                  static_cast<cl_uint>(values.size()));
    const openclaw::Event done = queue.enqueue(sums, openclaw::NDRange{groups * group},
                                               openclaw::NDRange{group}, openclaw::with_event);
    results.partials.resize(groups);
    queue.read(partials, results.partials);
    results.kernel_ms = static_cast<double>(done.duration().count()) * 1e-6;
    // [openclaw: partial sums in local memory, timed]

    // [openclaw: an image]
    using Rgba8 = openclaw::pixel::rgba8;
    const openclaw::Image2D<Rgba8, openclaw::ReadOnly> picture{context, width, height, pixels};
    const openclaw::Image2D<Rgba8, openclaw::WriteOnly> negative{context, width, height};
    auto invert = program.kernel<Invert>("invert");
    queue.enqueue(invert.set_args(picture, negative), openclaw::NDRange{width, height});
    results.inverted.resize(width * height);
    queue.read(negative, results.inverted);
    // [openclaw: an image]
    return results;
}

// [openclaw: a kernel known only at run time]
// The kernel's name and arguments come from elsewhere (a plugin, a configuration file): a
// DynamicKernel checks each argument at set time against what the driver says the kernel takes
// (programs built with -cl-kernel-arg-info: openclaw adds it by default).
std::vector<float> run_time_kernel(const openclaw::Queue& queue, const openclaw::Program& program,
                                   const std::string& name, const std::vector<float>& values) {
    const openclaw::ReadOnlyBuffer<float> input{queue, values};
    const openclaw::WriteOnlyBuffer<float> partials{queue.context(), groups};
    openclaw::DynamicKernel kernel = program.kernel(name);
    kernel.set_args(input, partials, openclaw::LocalMem<float>{group},
                    static_cast<cl_uint>(values.size()));
    queue.enqueue(kernel, openclaw::NDRange{groups * group}, openclaw::NDRange{group});
    std::vector<float> result(groups);
    queue.read(partials, result);
    return result;
}
// [openclaw: a kernel known only at run time]

}  // namespace

int main(int argc, char** argv) try {
    if (argc < 2) {
        std::fprintf(stderr, "usage: docs_porting <path of filters.cl>\n");
        return EXIT_FAILURE;
    }
    const openclaw::Device device = openclaw::select_device();
    if (!device.info<CL_DEVICE_IMAGE_SUPPORT>()) {
        std::printf("docs porting: SKIPPED, %s has no image support\n", device.name().c_str());
        return EXIT_SUCCESS;
    }
    const Results c = c_version(device.get(), argv[1]);
    const Results cpp = openclaw_version(device, argv[1]);

    // The host's answers: partial sums of the same strided runs; 255 - each channel.
    const std::vector<float> values = sample_values();
    std::vector<float> expected(groups, 0.0f);
    for (std::size_t i = 0; i < values.size(); ++i) {
        expected[(i % (groups * group)) / group] += values[i];
    }
    const std::vector<cl_uchar4> pixels = sample_pixels();
    int failures = 0;
    for (std::size_t g = 0; g < groups; ++g) {
        if (c.partials[g] != expected[g] || cpp.partials[g] != expected[g]) {
            std::printf("docs porting: partial sum %zu: C %g, openclaw %g, host %g\n", g,
                        static_cast<double>(c.partials[g]), static_cast<double>(cpp.partials[g]),
                        static_cast<double>(expected[g]));
            ++failures;
        }
    }
    for (std::size_t i = 0; i < pixels.size(); ++i) {
        for (int k = 0; k < 4; ++k) {
            const int want = 255 - pixels[i].s[k];
            if (c.inverted[i].s[k] != want || cpp.inverted[i].s[k] != want) {
                ++failures;
            }
        }
    }
    const openclaw::Context context{device};
    const openclaw::Queue queue{context, device};
    const auto program = openclaw::Program::build(context, read_text(argv[1]));
    if (run_time_kernel(queue, program, "partial_sums", values) != expected) {
        std::printf("docs porting: the DynamicKernel's sums differ\n");
        ++failures;
    }
    // The DynamicKernel refuses what the driver says the kernel does not take (a float for the
    // buffer), naming the argument, where the driver describes the kernel's arguments.
    bool refused = false;
    try {
        openclaw::DynamicKernel kernel = program.kernel("partial_sums");
        kernel.set_arg(0, 1.0f);
    } catch (const openclaw::Error& error) {
        refused = error.cl_code() == CL_INVALID_ARG_SIZE || error.cl_code() == CL_INVALID_ARG_VALUE;
        std::printf("docs porting: a wrong argument is refused: %s\n", error.what());
    }
    if (!refused) {
        std::printf("docs porting: a float for a buffer parameter was accepted\n");
        ++failures;
    }
    if (failures != 0 || c.kernel_ms < 0 || cpp.kernel_ms < 0) {
        std::printf("docs porting: FAILED (%d mismatches; kernel %g / %g ms)\n", failures,
                    c.kernel_ms, cpp.kernel_ms);
        return EXIT_FAILURE;
    }
    std::printf("docs porting: both versions agree with the host on %s (kernel %.3f / %.3f ms)\n",
                device.name().c_str(), c.kernel_ms, cpp.kernel_ms);
    return EXIT_SUCCESS;
} catch (const std::exception& error) {
    std::fprintf(stderr, "docs porting: %s\n", error.what());
    return EXIT_FAILURE;
}
