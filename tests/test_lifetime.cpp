// Destruction order: the six objects of a launch (context, queue, buffer, program, kernel, event)
// are released in each of the 720 possible orders, and after every release what is left still
// works: a buffer after its context, a queue after its program, a kernel after its program, an
// event after its queue, and so on. OpenCL keeps what a live object needs alive; these tests show
// that openclaw's handles neither release too early nor hold on to anything. (Leaks are checked
// by running this program under the interposer: tests/reliability/CMakeLists.txt.)
#include <openclaw/all.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "support/catch.hpp"
#include "support/fixture.hpp"

using openclaw_test::env;

namespace {

constexpr std::size_t n = 64;

constexpr const char* source = R"CLC(
__kernel void increment(__global int* data) {
    data[get_global_id(0)] += 1;
}
)CLC";

using Increment = openclaw::Kernel<openclaw::InOut<cl_int>>;

// Building from source takes PoCL about 25 ms even from its cache; the 720 orders each make a
// program from the device binary of one build instead (about 1 ms), with the raw C API since
// openclaw has no binary programs yet.
const std::vector<unsigned char>& binary() {
    static const std::vector<unsigned char> bytes = [] {
        const auto built = openclaw::Program::build(env().context, source);
        std::vector<unsigned char> out(built.info<CL_PROGRAM_BINARY_SIZES>().at(0));
        unsigned char* data = out.data();
        REQUIRE(clGetProgramInfo(built.get(), CL_PROGRAM_BINARIES, sizeof(data), &data, nullptr) ==
                CL_SUCCESS);
        return out;
    }();
    return bytes;
}

openclaw::Program from_binary(const openclaw::Context& context) {
    const cl_device_id device = env().device.get();
    const unsigned char* data = binary().data();
    const std::size_t size = binary().size();
    cl_int status = CL_SUCCESS;
    cl_int code = CL_SUCCESS;
    cl_program raw =
        clCreateProgramWithBinary(context.get(), 1, &device, &size, &data, &status, &code);
    REQUIRE(code == CL_SUCCESS);
    auto program = openclaw::Program::adopt(raw);
    REQUIRE(clBuildProgram(raw, 0, nullptr, "", nullptr, nullptr) == CL_SUCCESS);
    return program;
}

enum class Part { context, queue, buffer, program, kernel, event };
constexpr std::size_t part_count = 6;
constexpr std::array<const char*, part_count> part_names = {"context", "queue",  "buffer",
                                                            "program", "kernel", "event"};

struct Launch {
    std::optional<openclaw::Context> context;
    std::optional<openclaw::Queue> queue;
    std::optional<openclaw::ReadWriteBuffer<cl_int>> buffer;
    std::optional<openclaw::Program> program;
    std::optional<Increment> kernel;
    std::optional<openclaw::Event> event;
    cl_int expected = 1;  // the value of every element once the launches so far are done

    Launch() {
        context.emplace(env().device);
        queue.emplace(*context, env().device);
        buffer.emplace(*context, std::vector<cl_int>(n, 0));
        program = from_binary(*context);
        kernel = program->kernel<openclaw::InOut<cl_int>>("increment");
        event =
            queue->enqueue(kernel->set_args(*buffer), openclaw::NDRange{n}, openclaw::with_event);
    }

    void release(Part part) {
        switch (part) {
            case Part::context:
                context.reset();
                break;
            case Part::queue:
                queue.reset();
                break;
            case Part::buffer:
                buffer.reset();
                break;
            case Part::program:
                program.reset();
                break;
            case Part::kernel:
                kernel.reset();
                break;
            case Part::event:
                event.reset();
                break;
        }
    }

    /// Uses every object still held; returns what went wrong ("" if nothing).
    std::string use() {
        if (event) {
            event->wait();
            if (!event->is_complete()) {
                return "the event is not complete after wait()";
            }
        }
        // A kernel does not keep the buffers bound to it alive, so it is launched only while
        // the buffer is held.
        if (queue && kernel && buffer) {
            queue->enqueue(*kernel, openclaw::NDRange{n});
            ++expected;
        }
        if (queue && buffer) {
            std::vector<cl_int> back(n);
            queue->read(*buffer, back);
            if (back != std::vector<cl_int>(n, expected)) {
                return "the buffer holds " + std::to_string(back[0]) + ", expected " +
                       std::to_string(expected);
            }
        }
        if (context) {
            const openclaw::ReadOnlyBuffer<float> more{*context, 4};
            if (more.context_handle() != context->get()) {
                return "a new buffer is not in the context";
            }
        }
        if (program) {
            const auto names = program->kernel_names();
            if (names != std::vector<std::string>{"increment"}) {
                return "the program lost its kernel";
            }
            (void)program->kernel<openclaw::InOut<cl_int>>("increment");
        }
        if (kernel) {
            if (kernel->name() != "increment" || kernel->program().kernel_names().size() != 1) {
                return "the kernel lost its name or program";
            }
        }
        if (queue) {
            queue->finish();
        }
        return {};
    }
};

}  // namespace

TEST_CASE("the objects of a launch can be released in every order") {
    std::array<Part, part_count> order = {Part::context, Part::queue,  Part::buffer,
                                          Part::program, Part::kernel, Part::event};
    // Every order (720) where a launch is cheap (PoCL: well under a second in all); where making
    // a context and a program costs more (NVIDIA: about 0.2 s), every stride-th order, so that
    // the test stays within 30 s. The stride is odd, so the sample is spread over the first part.
    int stride = 1;
    {
        const auto start = std::chrono::steady_clock::now();
        Launch probe;
        (void)probe.use();
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        while (seconds * 720 / stride > 30.0) {
            stride += 2;
        }
        if (stride > 1) {
            WARN("a launch costs " << seconds << " s here: every " << stride
                                   << "th of the 720 release orders is tested");
        }
    }
    int permutation = 0;
    int orders = 0;
    do {
        if (permutation++ % stride != 0) {
            continue;
        }
        Launch launch;
        std::string done;
        for (const Part part : order) {
            launch.release(part);
            done +=
                std::string(done.empty() ? "" : ", ") + part_names[static_cast<std::size_t>(part)];
            const std::string problem = launch.use();
            if (!problem.empty()) {
                FAIL_CHECK("after releasing " << done << ": " << problem);
            }
        }
        ++orders;
    } while (std::next_permutation(order.begin(), order.end()));
    CHECK(permutation == 720);
    CHECK(orders == (720 + stride - 1) / stride);
}

TEST_CASE("objects work after the objects they were made from are gone") {
    std::optional<openclaw::Context> context{std::in_place, env().device};
    std::optional<openclaw::Program> program = openclaw::Program::build(*context, source);
    const openclaw::ReadWriteBuffer<cl_int> buffer{*context, std::vector<cl_int>(n, 5)};
    const openclaw::Queue queue{*context, env().device};
    auto kernel = program->kernel<openclaw::InOut<cl_int>>("increment");
    const cl_context raw_context = context->get();
    program.reset();  // the kernel keeps its program
    context.reset();  // the buffer, queue and kernel keep the context
    CHECK(kernel.program().kernel_names() == std::vector<std::string>{"increment"});
    CHECK(kernel.context().get() == raw_context);
    CHECK(queue.context().get() == raw_context);
    const openclaw::Event launched =
        queue.enqueue(kernel.set_args(buffer), openclaw::NDRange{n}, openclaw::with_event);
    {
        const openclaw::Queue second{queue};  // a copy of the queue going away changes nothing
        CHECK(second.get() == queue.get());
    }
    launched.wait();
    std::vector<cl_int> back(n);
    queue.read(buffer, back);
    CHECK(back == std::vector<cl_int>(n, 6));
}
