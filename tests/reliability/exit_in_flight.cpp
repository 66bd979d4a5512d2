// SPDX-License-Identifier: Apache-2.0
// A program that enqueues long-running work and leaves without waiting for it:
//   return: the objects are main's locals, released at return while their commands still run;
//   static: the objects are in static storage, released after main has returned;
//   exit:   std::exit() while they are live (their destructors never run).
// Run by ctest (tests/reliability/CMakeLists.txt), under the leak-checking interposer for the first
// two. None may crash, hang or report a failed release.
//
// The kernel is compiled (launched once and finished) before the work that is left running: PoCL
// 3.1 compiles a kernel for its launch size on a worker thread, and a process that exits during
// that compilation crashes inside PoCL about once in a hundred runs (LLVM's global state is torn
// down under the compiler; docs/reliability.md). A second argument `cold` skips the warm-up and
// shows that driver bug.

#include <openclaw/all.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <vector>

#include "support/fixture.hpp"

namespace {

constexpr const char* source = R"CLC(
__kernel void churn(__global float* data, const uint rounds) {
    const size_t i = get_global_id(0);
    float x = data[i];
    for (uint k = 0; k < rounds; ++k) {
        x = x * 1.0001f + 0.5f;
    }
    data[i] = x;
}
)CLC";

struct Work {
    openclaw::Device device = openclaw_test::pick_device();
    openclaw::Context context{device};
    openclaw::Queue queue{context, device};
    openclaw::Program program = openclaw::Program::build(context, source);
    openclaw::Kernel<openclaw::InOut<float>, cl_uint> churn =
        program.kernel<openclaw::InOut<float>, cl_uint>("churn");
    openclaw::ReadWriteBuffer<float> data{context, std::vector<float>(1 << 18, 1.0f)};
    openclaw::ReadWriteBuffer<float> copy{context, 1 << 18};
    openclaw::Event last;

    void start(bool cold) {
        if (!cold) {
            queue.enqueue(churn.set_args(data, cl_uint{1}), openclaw::NDRange{data.size()});
            queue.finish();
        }
        const int launches = 16;
        for (int i = 0; i < launches; ++i) {
            queue.enqueue(churn.set_args(data, cl_uint{4000}), openclaw::NDRange{data.size()});
        }
        queue.copy(data, copy);
        queue.fill(copy.slice(0, 1024), 2.0f);
        last = queue.enqueue(churn.set_args(copy, cl_uint{4000}), openclaw::NDRange{copy.size()},
                             openclaw::with_event);
        queue.flush();
        std::printf("enqueued %d launches, a copy and a fill; leaving with status %d\n",
                    launches + 1, last.status());
        std::fflush(stdout);
    }
};

std::optional<Work> global_work;

}  // namespace

int main(int argc, char** argv) {
    const char* mode = argc >= 2 ? argv[1] : "";
    const bool cold = argc == 3 && std::strcmp(argv[2], "cold") == 0;
    if (std::strcmp(mode, "return") == 0) {
        Work work;
        work.start(cold);
        return 0;
    }
    if (std::strcmp(mode, "static") == 0) {
        global_work.emplace().start(cold);
        return 0;
    }
    if (std::strcmp(mode, "exit") == 0) {
        Work work;
        work.start(cold);
        std::exit(0);
    }
    std::fprintf(stderr, "usage: %s return|static|exit [cold]\n", argv[0]);
    return 2;
}
