// The main header alone: <openclaw/openclaw.hpp> is the common path, and a program none of whose
// units includes a side wing still gets every check of the common path. The body scan that
// refuses In<T> for a pointer the kernel writes used to be plugged in by <openclaw/signature.hpp>;
// this program never includes that header (nor <openclaw/all.hpp>; the layers test keeps the main
// header free of side wings), so the refusal here proves the scan runs whatever a program includes.
#include <openclaw/openclaw.hpp>

#include <string>
#include <vector>

#include "support/catch.hpp"
#include "support/fixture.hpp"

using openclaw_test::env;
using openclaw_test::has;
using openclaw_test::thrown;

namespace {

constexpr const char* source = R"CLC(
__kernel void accumulate(__global const float* in, __global float* total, const uint n) {
    const size_t i = get_global_id(0);
    if (i < n) {
        total[i] += in[i];
    }
}
)CLC";

}  // namespace

TEST_CASE("the main header is enough to refuse In<T> for a pointer the kernel writes") {
    const openclaw::Program program = openclaw::Program::build(env().context, source);
    const auto error = thrown<openclaw::Error>([&] {
        (void)program.kernel<openclaw::In<float>, openclaw::In<float>, cl_uint>("accumulate");
    });
    REQUIRE(error);
    CHECK(error->cl_code() == CL_INVALID_KERNEL_ARGS);
    CHECK_THAT(error->what(), has("kernel \"accumulate\", argument 1 (\"total\"): the C++ "
                                  "signature declares In<cl_float>, but the kernel writes through "
                                  "the pointer (line 5 of the program's source)"));

    // The signature the body allows is accepted and runs.
    constexpr cl_uint n = 32;
    const openclaw::ReadOnlyBuffer<float> in{env().context, std::vector<float>(n, 2.0f)};
    const openclaw::ReadWriteBuffer<float> total{env().context, std::vector<float>(n, 1.0f)};
    auto kernel =
        program.kernel<openclaw::In<float>, openclaw::InOut<float>, cl_uint>("accumulate");
    env().queue.enqueue(kernel.set_args(in, total, n), openclaw::NDRange{n});
    std::vector<float> back(n);
    env().queue.read(total, back);
    CHECK(back == std::vector<float>(n, 3.0f));
}
