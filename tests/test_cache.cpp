// The on-disk binary cache: keys, hits and misses, corrupt and stale entries, and several
// threads and processes building at once.
#include <openclaw/all.hpp>
#include <openclaw/cache.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#if defined(__unix__)
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
extern char** environ;
#endif

#include "cache/kernel.hpp"
#include "support/catch.hpp"
#include "support/fixture.hpp"

using openclaw_test::build_and_check;
using openclaw_test::env;
using openclaw_test::has;
namespace fs = std::filesystem;

namespace {

#if defined(__unix__)
// The environment as the program started, for the worker processes: an OpenCL stack may change
// its own process's environment when first used, and children then inherit the change. On the
// H200 machine (OCL_ICD_FILENAMES=libpocl.so.2:libnvidia-opencl.so.1) the first
// clGetPlatformIDs left OCL_ICD_FILENAMES=libpocl.so.2, so workers started after any earlier test
// case saw no NVIDIA platform. Captured during static initialisation, before any OpenCL call.
const std::vector<std::string> startup_environment = [] {
    std::vector<std::string> copy;
    for (char** entry = environ; *entry != nullptr; ++entry) {
        copy.emplace_back(*entry);
    }
    return copy;
}();
#endif

// Removes the tests' cache directories when the program ends.
struct ScratchDirectories {
    std::vector<fs::path> made;
    ScratchDirectories() = default;
    ScratchDirectories(const ScratchDirectories&) = delete;
    ScratchDirectories& operator=(const ScratchDirectories&) = delete;
    ~ScratchDirectories() {
        for (const fs::path& dir : made) {
            std::error_code ignored;
            fs::remove_all(dir, ignored);
        }
    }
};

// A fresh, empty cache directory per test, and per process: ctest runs this program and its leak
// check at the same time, and a directory they shared would see the other's entries come and go.
fs::path fresh_directory(const std::string& name) {
#if defined(__unix__)
    const std::string process = std::to_string(getpid());
#else
    const std::string process = "0";
#endif
    const fs::path dir =
        fs::temp_directory_path() / ("openclaw-cache-test-" + process + "-" + name);
    fs::remove_all(dir);
    static ScratchDirectories scratch;
    scratch.made.push_back(dir);
    return dir;
}

std::vector<fs::path> files_in(const fs::path& dir, const std::string& extension) {
    std::vector<fs::path> found;
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (entry.path().extension() == extension) {
            found.push_back(entry.path());
        }
    }
    return found;
}

void write_file(const fs::path& path, const std::string& text) {
    std::FILE* file = std::fopen(path.string().c_str(), "wb");
    REQUIRE(file != nullptr);
    std::fwrite(text.data(), 1, text.size(), file);
    std::fclose(file);
}

std::string read_file(const fs::path& path) {
    const auto content = openclaw::detail::read_file(path);
    REQUIRE(content);
    return *content;
}

}  // namespace

TEST_CASE("SHA-256 gives the standard's test vectors") {
    using openclaw::detail::Sha256;
    CHECK(Sha256::hex(Sha256().finish()) ==
          "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(Sha256::hex(Sha256().update("abc").finish()) ==
          "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(
        Sha256::hex(
            Sha256().update("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq").finish()) ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    Sha256 million;
    const std::string chunk(1000, 'a');
    for (int i = 0; i < 1000; ++i) {
        million.update(chunk);
    }
    CHECK(Sha256::hex(million.finish()) ==
          "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

#if defined(__unix__)
TEST_CASE("the environment turns the cache on and chooses its directory") {
    const auto restore = [](const char* name, const char* old) {
        if (old != nullptr) {
            setenv(name, old, 1);
        } else {
            unsetenv(name);
        }
    };
    const std::string old_mode = std::getenv("OPENCLAW_CACHE") ? std::getenv("OPENCLAW_CACHE") : "";
    const bool had_mode = std::getenv("OPENCLAW_CACHE") != nullptr;
    const std::string old_dir =
        std::getenv("OPENCLAW_CACHE_DIR") ? std::getenv("OPENCLAW_CACHE_DIR") : "";
    const bool had_dir = std::getenv("OPENCLAW_CACHE_DIR") != nullptr;
    const std::string old_xdg = std::getenv("XDG_CACHE_HOME") ? std::getenv("XDG_CACHE_HOME") : "";
    const bool had_xdg = std::getenv("XDG_CACHE_HOME") != nullptr;

    // Opt-in: off unless asked for.
    unsetenv("OPENCLAW_CACHE");
    unsetenv("OPENCLAW_CACHE_DIR");
    CHECK_FALSE(openclaw::BinaryCache::from_environment().enabled());
    setenv("OPENCLAW_CACHE", "off", 1);
    setenv("OPENCLAW_CACHE_DIR", "/tmp/openclaw-explicit", 1);
    CHECK_FALSE(openclaw::BinaryCache::from_environment().enabled());
    setenv("OPENCLAW_CACHE", "1", 1);
    CHECK(openclaw::BinaryCache::from_environment().directory() == "/tmp/openclaw-explicit");
    unsetenv("OPENCLAW_CACHE");
    CHECK(openclaw::BinaryCache::from_environment().enabled());  // a directory asks for it
    unsetenv("OPENCLAW_CACHE_DIR");
    setenv("OPENCLAW_CACHE", "on", 1);
    setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
    CHECK(openclaw::BinaryCache::from_environment().directory() == fs::path("/tmp/xdg/openclaw"));
    unsetenv("XDG_CACHE_HOME");
    if (const char* home = std::getenv("HOME")) {
        CHECK(openclaw::BinaryCache::from_environment().directory() ==
              fs::path(home) / ".cache/openclaw");
    }
    restore("OPENCLAW_CACHE", had_mode ? old_mode.c_str() : nullptr);
    restore("OPENCLAW_CACHE_DIR", had_dir ? old_dir.c_str() : nullptr);
    restore("XDG_CACHE_HOME", had_xdg ? old_xdg.c_str() : nullptr);
}
#endif

TEST_CASE("a second build of the same program is loaded from the cache") {
    const fs::path dir = fresh_directory("hit");
    const openclaw::BinaryCache cache{dir};
    openclaw::Program first;
    REQUIRE(build_and_check(env().context, env().queue, cache, 1, &first));
    CHECK_FALSE(first.loaded_from_cache());
    CHECK(cache.stats().misses == 1);
    CHECK(cache.stats().stores == 1);
    REQUIRE(files_in(dir, ".bin").size() == 1);
    CHECK(files_in(dir, ".tmp").empty());

    openclaw::Program second;
    REQUIRE(build_and_check(env().context, env().queue, cache, 1, &second));
    CHECK(second.loaded_from_cache());
    CHECK(cache.stats().hits == 1);
    // The build log of the build that made the entry stays readable.
    CHECK(second.build_log(env().device) == first.build_log(env().device));
    CHECK(second.build_logs().at(0).status == CL_BUILD_SUCCESS);

    // Other options are another build.
    REQUIRE(build_and_check(env().context, env().queue, cache, 2));
    CHECK(cache.stats().misses == 2);
    CHECK(files_in(dir, ".bin").size() == 2);

    CHECK(cache.clear() == 2);
    CHECK(files_in(dir, ".bin").empty());
}

TEST_CASE("a change to an included file is a change of the key") {
    const fs::path dir = fresh_directory("include");
    const fs::path headers = dir / "headers";
    fs::create_directories(headers);
    write_file(headers / "value.h", "#define VALUE 7\n");
    const char* source = R"CLC(
#include "value.h"
#if 0
#include <never_looked_at_by_the_compiler.h>
#endif
__kernel void value(__global int* out) { out[0] = VALUE; }
)CLC";
    const char* plain = R"CLC(
#include <value.h>
__kernel void value(__global int* out) { out[0] = VALUE; }
)CLC";
    const openclaw::BinaryCache cache{dir / "entries"};
    openclaw::BuildOptions options;
    options.include_directory(headers.string()).cache(cache);
    const auto run = [&](const char* text) {
        const auto program = openclaw::Program::build(env().context, text, options);
        const openclaw::WriteOnlyBuffer<cl_int> out{env().context, 1};
        env().queue.enqueue(program.kernel<openclaw::Out<cl_int>>("value").set_args(out),
                            openclaw::NDRange{1});
        std::vector<cl_int> back(1);
        env().queue.read(out, back);
        return back[0];
    };
    // An #include openclaw cannot find (here one the preprocessor skips) makes a build
    // uncacheable rather than risk a stale binary.
    CHECK(run(source) == 7);
    CHECK(cache.stats().uncacheable == 1);
    CHECK(cache.stats().stores == 0);

    CHECK(run(plain) == 7);
    CHECK(run(plain) == 7);
    CHECK(cache.stats().hits == 1);
    write_file(headers / "value.h", "#define VALUE 8\n");
    CHECK(run(plain) == 8);
    CHECK(cache.stats().misses == 2);
}

TEST_CASE("corrupt and stale entries are ignored and replaced") {
    const fs::path dir = fresh_directory("corrupt");
    const openclaw::BinaryCache cache{dir};
    REQUIRE(build_and_check(env().context, env().queue, cache, 3));
    const auto entries = files_in(dir, ".bin");
    REQUIRE(entries.size() == 1);
    const fs::path entry = entries[0];
    const std::string good = read_file(entry);

    SECTION("a flipped byte") {
        std::string bad = good;
        bad[bad.size() / 2] = static_cast<char>(bad[bad.size() / 2] ^ 0x40);
        write_file(entry, bad);
    }
    SECTION("a truncated file") {
        write_file(entry, good.substr(0, good.size() / 3));
    }
    SECTION("another format") {
        write_file(entry, "OPENCLAW-BINARIES-0\n" + good.substr(20));
    }
    SECTION("an empty file") {
        write_file(entry, "");
    }
    SECTION("a sound entry whose binary the driver refuses") {
        const std::vector<openclaw::Device> devices{env().device};
        openclaw::BuildOptions options;
        options.define("OFFSET", 3);
        const auto effective = options.for_devices(devices);
        const auto key = cache.key(openclaw_test::cached_source, effective.str(), {}, devices);
        REQUIRE(key);
        REQUIRE(cache.entry_path(*key) == entry);
        cache.store(*key, {{openclaw::Binary(256, 0x11)}, {"forged"}});
        REQUIRE(read_file(entry) != good);
    }
    const auto before = cache.stats();
    openclaw::Program rebuilt;
    REQUIRE(build_and_check(env().context, env().queue, cache, 3, &rebuilt));
    CHECK_FALSE(rebuilt.loaded_from_cache());
    CHECK(cache.stats().rejected == before.rejected + 1);
    // The next build finds the replacement.
    openclaw::Program again;
    REQUIRE(build_and_check(env().context, env().queue, cache, 3, &again));
    CHECK(again.loaded_from_cache());
    CHECK(files_in(dir, ".tmp").empty());
}

TEST_CASE("an unwritable cache directory only costs the cache") {
    const fs::path dir = fresh_directory("unwritable");
    write_file(dir.string() + "-file", "not a directory");
    const openclaw::BinaryCache cache{dir.string() + "-file"};  // a file: nothing can be stored
    REQUIRE(build_and_check(env().context, env().queue, cache, 4));
    REQUIRE(build_and_check(env().context, env().queue, cache, 4));
    CHECK(cache.stats().stores == 0);
    CHECK(cache.stats().hits == 0);
    fs::remove(dir.string() + "-file");
}

TEST_CASE("threads building the same program at once share one entry") {
    const fs::path dir = fresh_directory("threads");
    const openclaw::BinaryCache cache{dir};
    constexpr int threads = 6;
    std::vector<int> ok(threads, 0);
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
            const openclaw::Queue queue{env().context, env().device};
            ok[t] = build_and_check(env().context, queue, cache, 6) ? 1 : 0;
        });
    }
    for (auto& worker : workers) {
        worker.join();
    }
    CHECK(ok == std::vector<int>(threads, 1));
    CHECK(cache.stats().hits + cache.stats().misses == threads);
    CHECK(cache.stats().rejected == 0);
    CHECK(files_in(dir, ".bin").size() == 1);
    CHECK(files_in(dir, ".tmp").empty());
    openclaw::Program last;
    REQUIRE(build_and_check(env().context, env().queue, cache, 6, &last));
    CHECK(last.loaded_from_cache());
}

#if defined(__unix__) && defined(OPENCLAW_CACHE_WORKER)
TEST_CASE("processes building the same program at once share one entry") {
    const fs::path dir = fresh_directory("processes");
    constexpr int processes = 4;
    std::vector<pid_t> pids;
    const std::string worker = OPENCLAW_CACHE_WORKER;
    const std::string directory = dir.string();
    // Each worker gets a kernel cache of its own from PoCL (POCL_CACHE_DIR). PoCL 3.1's cache is
    // not safe between processes that build the same program at once: one process serializes
    // the program's cache directory while another is still writing it, and the binary it hands
    // out makes PoCL abort on loading ("pocl_binary_get_kernels_metadata: Assertion `len > 0'"),
    // seen in about 1 of 6 runs of three such tests at once. openclaw's cache, the subject here,
    // stays shared.
    std::vector<std::vector<std::string>> environments(processes);
    for (int p = 0; p < processes; ++p) {
        for (const std::string& entry : startup_environment) {
            if (!entry.starts_with("POCL_CACHE_DIR=")) {
                environments[p].push_back(entry);
            }
        }
        environments[p].push_back("POCL_CACHE_DIR=" +
                                  fresh_directory("processes-pocl-" + std::to_string(p)).string());
    }
    for (int p = 0; p < processes; ++p) {
        std::vector<char*> environment;
        for (const std::string& entry : environments[p]) {
            environment.push_back(const_cast<char*>(entry.c_str()));
        }
        environment.push_back(nullptr);
        char* argv[] = {const_cast<char*>(worker.c_str()), const_cast<char*>(directory.c_str()),
                        nullptr};
        pid_t pid = 0;
        REQUIRE(posix_spawn(&pid, worker.c_str(), nullptr, nullptr, argv, environment.data()) == 0);
        pids.push_back(pid);
    }
    for (pid_t pid : pids) {
        int status = 0;
        REQUIRE(waitpid(pid, &status, 0) == pid);
        CHECK(WIFEXITED(status));
        CHECK(WEXITSTATUS(status) == 0);
    }
    CHECK(files_in(dir, ".bin").size() == 1);
    CHECK(files_in(dir, ".tmp").empty());
    const openclaw::BinaryCache cache{dir};
    openclaw::Program program;
    REQUIRE(build_and_check(env().context, env().queue, cache, 5, &program));
    const auto stats = cache.stats();
    INFO("this process: hits " << stats.hits << ", misses " << stats.misses << ", rejected "
                               << stats.rejected);
    CHECK(program.loaded_from_cache());
}
#endif
