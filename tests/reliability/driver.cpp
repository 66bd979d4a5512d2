// SPDX-License-Identifier: Apache-2.0
// The reliability driver. `inject` runs every fault-injection scenario once to count its OpenCL
// calls, then once per call with that call failing (and, in sticky mode, every call after it too;
// in object mode each call that makes an object, a create or an enqueue asked for an event, fails
// but returns it as well), and checks each run:
// it exited normally, the injected failure surfaced (as an openclaw::Error naming the call and the
// code, through the error hook, or in the message of the error already being reported), and no
// OpenCL object was leaked or released twice. `leak-check` runs any program under the interposer
// and fails if it leaves OpenCL objects behind.
//
//   openclaw_reliability inject --scenarios EXE --interposer LIB [--work-dir DIR] [--jobs N]
//                               [--code N] [--modes once,sticky,object] [--only NAME,...]
//   openclaw_reliability leak-check --interposer LIB -- PROGRAM [ARGS...]

#include <openclaw/error.hpp>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Options {
    std::string scenarios;
    std::string interposer;
    std::string work_dir = "openclaw-fault-injection";
    unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
    cl_int code = CL_OUT_OF_HOST_MEMORY;
    std::vector<std::string> modes = {"once", "sticky", "object"};
    std::vector<std::string> only;
    unsigned timeout_s = 300;
    std::vector<std::string> command;  // leak-check
};

std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    std::stringstream in(text);
    std::string part;
    while (std::getline(in, part, separator)) {
        if (!part.empty()) {
            parts.push_back(part);
        }
    }
    return parts;
}

/// What the interposer wrote at the end of a run.
struct Report {
    bool present = false;
    long calls = 0;
    long injected = 0;
    long injected_index = 0;
    std::string injected_call;
    long leaked = 0;
    long over_releases = 0;
    long unknown_retains = 0;
    long anomalies = 0;
    std::vector<std::string> kinds;  // "kind ..." lines
    std::vector<std::string> leaks;  // "leak ..." lines
    std::vector<std::string> sequence;
    std::vector<bool> returns_event;  // the call of `sequence` was an enqueue asked for an event

    bool clean() const {
        return leaked == 0 && over_releases == 0 && unknown_retains == 0 && anomalies == 0;
    }
    std::string accounting() const {
        return openclaw::detail::concat("leaked ", leaked, ", released twice ", over_releases,
                                        ", unknown retains ", unknown_retains, ", anomalies ",
                                        anomalies);
    }

    static Report read(const std::string& path) {
        Report report;
        std::ifstream in(path);
        std::string line;
        while (std::getline(in, line)) {
            std::istringstream words(line);
            std::string key;
            words >> key;
            report.present = true;
            if (key == "calls") {
                words >> report.calls;
            } else if (key == "injected") {
                words >> report.injected >> report.injected_index >> report.injected_call;
            } else if (key == "leaked") {
                words >> report.leaked;
            } else if (key == "over_releases") {
                words >> report.over_releases;
            } else if (key == "unknown_retains") {
                words >> report.unknown_retains;
            } else if (key == "anomalies") {
                words >> report.anomalies;
            } else if (key == "kind") {
                report.kinds.push_back(line);
            } else if (key == "leak") {
                report.leaks.push_back(line);
            } else if (key == "call") {
                std::string name;
                std::string event;
                words >> name >> event;
                report.sequence.push_back(name);
                report.returns_event.push_back(event == "event");
            }
        }
        return report;
    }
};

/// What a scenario printed.
struct Outcome {
    std::string kind;  // completed, raised, other; empty if it printed none
    std::string call;
    cl_int code = 0;
    std::string text;  // what() of a raised error, or the message of another exception
    std::vector<std::string> expected;
    std::vector<std::pair<std::string, cl_int>> hooks;

    static Outcome read(const std::string& path) {
        Outcome outcome;
        std::ifstream in(path);
        std::string line;
        while (std::getline(in, line)) {
            std::istringstream words(line);
            std::string key;
            words >> key;
            const auto rest = [&] {
                std::string text;
                std::getline(words >> std::ws, text);
                return text;
            };
            if (key == "outcome") {
                words >> outcome.kind;
                if (outcome.kind == "raised") {
                    words >> outcome.call >> outcome.code;
                } else if (outcome.kind == "other") {
                    outcome.text = rest();
                }
            } else if (key == "what") {
                outcome.text = rest();
            } else if (key == "expected") {
                outcome.expected.push_back(rest());
            } else if (key == "hook") {
                std::string call;
                cl_int code = 0;
                words >> call >> code;
                outcome.hooks.emplace_back(call, code);
            }
        }
        return outcome;
    }
};

std::string describe_status(int status) {
    if (WIFEXITED(status)) {
        return openclaw::detail::concat("exit status ", WEXITSTATUS(status));
    }
    if (WIFSIGNALED(status)) {
        const int signal = WTERMSIG(status);
        return openclaw::detail::concat("killed by signal ", signal, " (", strsignal(signal),
                                        signal == SIGALRM ? ": timed out" : "", ")");
    }
    return "stopped";
}

/// Starts `argv` with `environment` added, its output in `output` (or inherited if empty). The
/// interposer is told the child's pid, so that processes the child starts (PoCL runs the linker)
/// inherit it passively.
pid_t spawn(const std::vector<std::string>& argv,
            const std::vector<std::pair<std::string, std::string>>& environment,
            const std::string& output, unsigned timeout_s) {
    const pid_t pid = fork();
    if (pid != 0) {
        return pid;
    }
    for (const auto& [name, value] : environment) {
        setenv(name.c_str(), value.c_str(), 1);
    }
    setenv("OPENCLAW_FI_PID", std::to_string(getpid()).c_str(), 1);
    if (!output.empty()) {
        if (std::freopen(output.c_str(), "w", stdout) == nullptr ||
            dup2(fileno(stdout), STDERR_FILENO) < 0) {
            _exit(126);
        }
    }
    alarm(timeout_s);  // survives exec: a hung child is killed by SIGALRM
    std::vector<char*> args;
    for (const std::string& arg : argv) {
        args.push_back(const_cast<char*>(arg.c_str()));
    }
    args.push_back(nullptr);
    execv(args[0], args.data());
    std::perror(args[0]);
    _exit(127);
}

int wait_for(pid_t pid) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
    }
    return status;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// --- inject ------------------------------------------------------------------------------------

struct Job {
    std::string scenario;
    std::string mode;
    long index = 0;             // the call made to fail (1-based)
    std::string expected_call;  // that call's name in the counting run
    std::string base;           // path prefix of its files
    int status = 0;
    bool rerun = false;  // run again after LeakSanitizer's own tracer crashed
};

/// LeakSanitizer's stop-the-world tracer occasionally crashes by itself at exit (google/sanitizers
/// issue 1353): no leak check ran, so that run says nothing about the scenario. Only that exact
/// failure is run again, once.
bool lsan_tracer_crashed(int status, const std::string& output) {
    const auto has = [&](const char* text) { return output.find(text) != std::string::npos; };
    return (!WIFEXITED(status) || WEXITSTATUS(status) != 0) && has("Tracer caught signal") &&
           has("LeakSanitizer has encountered a fatal error") &&
           !has("ERROR: LeakSanitizer: detected") && !has("ERROR: AddressSanitizer: ") &&
           !has("runtime error:");
}

enum class Verdict { raised, hook, noted, failed };

struct Tally {
    long calls = 0;
    long runs = 0;
    long raised = 0;
    long hook = 0;
    long noted = 0;
    long failed = 0;
    long leaky = 0;
};

/// Checks one injected run; returns the way the failure surfaced, or failed with `problem` set.
Verdict judge(const Job& job, cl_int code, const Report& report, const Outcome& outcome,
              std::string& problem, bool& leaky) {
    leaky = report.present && !report.clean();
    if (!WIFEXITED(job.status) || WEXITSTATUS(job.status) != 0) {
        problem = describe_status(job.status);
        return Verdict::failed;
    }
    if (!report.present || outcome.kind.empty()) {
        problem = "no report from the interposer or no outcome from the scenario";
        return Verdict::failed;
    }
    if (report.injected == 0 || report.injected_call != job.expected_call) {
        problem = openclaw::detail::concat("call ", job.index, " was ", job.expected_call,
                                           " in the counting run, but the run failed ",
                                           report.injected == 0 ? "-" : report.injected_call,
                                           ": the call sequence is not deterministic");
        return Verdict::failed;
    }
    if (leaky) {
        problem = report.accounting();
        for (const std::string& leak : report.leaks) {
            problem += "; " + leak;
        }
        return Verdict::failed;
    }
    if (outcome.kind == "other") {
        problem = "the scenario's own check failed: " + outcome.text;
        return Verdict::failed;
    }
    const std::string& call = report.injected_call;
    // A look-up's injected failure is a NULL, which carries no code: the caller words its own.
    const bool look_up = call == "clGetExtensionFunctionAddressForPlatform" ||
                         call == "clGetExtensionFunctionAddress";
    if (outcome.kind == "raised" && outcome.call == call && (outcome.code == code || look_up)) {
        return Verdict::raised;
    }
    for (const auto& [hook_call, hook_code] : outcome.hooks) {
        if (hook_call == call && hook_code == code) {
            return Verdict::hook;
        }
    }
    const std::string mention = call + ": " + std::string(openclaw::code_name(code));
    for (const std::string& expected : outcome.expected) {
        if (expected.find(mention) != std::string::npos) {
            return Verdict::noted;
        }
    }
    problem = "the failure of " + call + " was lost: outcome " + outcome.kind;
    if (outcome.kind == "raised") {
        problem +=
            openclaw::detail::concat(" ", outcome.call, " ", outcome.code, ": ", outcome.text);
    }
    return Verdict::failed;
}

int inject(const Options& options) {
    mkdir(options.work_dir.c_str(), 0755);
    const std::vector<std::pair<std::string, std::string>> preload = {
        {"LD_PRELOAD", options.interposer}};
    const auto started = std::chrono::steady_clock::now();

    // The scenarios, and one counting run of each.
    std::vector<std::string> names;
    {
        const std::string listing = options.work_dir + "/list.txt";
        const int status =
            wait_for(spawn({options.scenarios, "--list"}, {}, listing, options.timeout_s));
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            std::printf("cannot list the scenarios: %s\n", describe_status(status).c_str());
            return 1;
        }
        for (const std::string& name : split(read_file(listing), '\n')) {
            if (options.only.empty() ||
                std::find(options.only.begin(), options.only.end(), name) != options.only.end()) {
                names.push_back(name);
            }
        }
    }
    std::map<std::string, std::vector<std::string>> sequences;
    std::map<std::string, std::vector<bool>> returns_event;
    std::map<std::string, Tally> tallies;
    bool ok = true;
    for (const std::string& name : names) {
        const std::string base = options.work_dir + "/" + name + "-count";
        auto environment = preload;
        environment.emplace_back("OPENCLAW_FI_LIST", "1");
        environment.emplace_back("OPENCLAW_FI_REPORT", base + ".report");
        const int status = wait_for(
            spawn({options.scenarios, name}, environment, base + ".out", options.timeout_s));
        const Report report = Report::read(base + ".report");
        const Outcome outcome = Outcome::read(base + ".out");
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || outcome.kind != "completed" ||
            !outcome.hooks.empty() || !report.present || !report.clean() ||
            report.sequence.empty()) {
            std::printf(
                "scenario %s fails without any injected failure (%s, outcome %s, %s):\n%s\n",
                name.c_str(), describe_status(status).c_str(), outcome.kind.c_str(),
                report.accounting().c_str(), read_file(base + ".out").c_str());
            ok = false;
            continue;
        }
        sequences[name] = report.sequence;
        returns_event[name] = report.returns_event;
        tallies[name].calls = static_cast<long>(report.sequence.size());
    }
    if (!ok) {
        return 1;
    }

    std::vector<Job> jobs;
    for (const std::string& mode : options.modes) {
        for (const std::string& name : names) {
            const auto& sequence = sequences[name];
            for (std::size_t i = 0; i < sequence.size(); ++i) {
                // object: only the calls that make an object (a create, or an enqueue asked for
                // an event), which then come back with it.
                if (mode == "object" && sequence[i].rfind("clCreate", 0) != 0 &&
                    sequence[i].rfind("clClone", 0) != 0 && !returns_event[name][i]) {
                    continue;
                }
                Job job;
                job.scenario = name;
                job.mode = mode;
                job.index = static_cast<long>(i + 1);
                job.expected_call = sequence[i];
                job.base = openclaw::detail::concat(options.work_dir, "/", name, "-", mode, "-",
                                                    job.index);
                jobs.push_back(job);
            }
        }
    }

    // Run them, `jobs` at a time.
    std::map<pid_t, std::size_t> running;
    std::vector<std::size_t> again;  // jobs to run once more (lsan_tracer_crashed)
    std::size_t next = 0;
    std::size_t done = 0;
    std::vector<std::string> failures;
    std::map<std::string, Tally> mode_tallies;
    const auto finish = [&](std::size_t at, int status) {
        Job& job = jobs[at];
        job.status = status;
        if (!job.rerun && lsan_tracer_crashed(status, read_file(job.base + ".out"))) {
            std::printf("%s (%s), call %ld: LeakSanitizer's tracer crashed; running it again\n",
                        job.scenario.c_str(), job.mode.c_str(), job.index);
            job.rerun = true;
            again.push_back(at);
            return;
        }
        const Report report = Report::read(job.base + ".report");
        const Outcome outcome = Outcome::read(job.base + ".out");
        std::string problem;
        bool leaky = false;
        const Verdict verdict = judge(job, options.code, report, outcome, problem, leaky);
        for (Tally* tally : {&tallies[job.scenario], &mode_tallies[job.mode]}) {
            ++tally->runs;
            tally->raised += verdict == Verdict::raised ? 1 : 0;
            tally->hook += verdict == Verdict::hook ? 1 : 0;
            tally->noted += verdict == Verdict::noted ? 1 : 0;
            tally->failed += verdict == Verdict::failed ? 1 : 0;
            tally->leaky += leaky ? 1 : 0;
        }
        if (verdict == Verdict::failed) {
            failures.push_back(openclaw::detail::concat(job.scenario, " (", job.mode, "), call ",
                                                        job.index, " ", job.expected_call, ": ",
                                                        problem, " [files ", job.base, ".*]"));
        } else {
            std::remove((job.base + ".report").c_str());
            std::remove((job.base + ".out").c_str());
        }
        ++done;
    };
    while (done < jobs.size()) {
        while (running.size() < options.jobs && (next < jobs.size() || !again.empty())) {
            std::size_t at = next;
            if (!again.empty()) {
                at = again.back();
                again.pop_back();
            } else {
                ++next;
            }
            const Job& job = jobs[at];
            auto environment = preload;
            environment.emplace_back("OPENCLAW_FI_FAIL_AT", std::to_string(job.index));
            environment.emplace_back("OPENCLAW_FI_CODE", std::to_string(options.code));
            environment.emplace_back("OPENCLAW_FI_MODE", job.mode);
            environment.emplace_back("OPENCLAW_FI_REPORT", job.base + ".report");
            running[spawn({options.scenarios, job.scenario}, environment, job.base + ".out",
                          options.timeout_s)] = at;
        }
        int status = 0;
        const pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0) {
            continue;
        }
        const auto it = running.find(pid);
        if (it != running.end()) {
            const std::size_t at = it->second;
            running.erase(it);
            finish(at, status);
        }
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

    // The report.
    const std::string code_name(openclaw::code_name(options.code));
    std::printf("fault injection: every OpenCL call of each scenario made to fail with %s (%d)\n",
                code_name.c_str(), static_cast<int>(options.code));
    std::printf(
        "  once: that call alone fails; sticky: it and every call after it fail; object: a\n"
        "  call that makes an object (a create, an enqueue asked for an event) fails but\n"
        "  returns the object too (as NVIDIA does)\n\n");
    std::printf("| scenario | calls | runs | raised | error hook | noted | failed | leaky |\n");
    std::printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    Tally total;
    for (const std::string& name : names) {
        const Tally& t = tallies[name];
        std::printf("| %s | %ld | %ld | %ld | %ld | %ld | %ld | %ld |\n", name.c_str(), t.calls,
                    t.runs, t.raised, t.hook, t.noted, t.failed, t.leaky);
        total.calls += t.calls;
        total.runs += t.runs;
        total.raised += t.raised;
        total.hook += t.hook;
        total.noted += t.noted;
        total.failed += t.failed;
        total.leaky += t.leaky;
    }
    std::printf("| **total** | %ld | %ld | %ld | %ld | %ld | %ld | %ld |\n\n", total.calls,
                total.runs, total.raised, total.hook, total.noted, total.failed, total.leaky);
    for (const auto& [mode, t] : mode_tallies) {
        std::printf("mode %s: %ld runs, %ld survived, %ld failed, %ld with leaks\n", mode.c_str(),
                    t.runs, t.runs - t.failed, t.failed, t.leaky);
    }
    std::printf(
        "\n%zu scenarios x their calls: %ld runs with injected failures, %ld survived, "
        "%ld failed, %ld leaked or double-released objects (%.1f s, %u jobs)\n",
        names.size(), total.runs, total.runs - total.failed, total.failed, total.leaky, seconds,
        options.jobs);
    for (const std::string& failure : failures) {
        std::printf("FAILED %s\n", failure.c_str());
    }
    return failures.empty() ? 0 : 1;
}

// --- leak-check --------------------------------------------------------------------------------

int leak_check(const Options& options) {
    char directory[] = "/tmp/openclaw-leak-check-XXXXXX";
    if (mkdtemp(directory) == nullptr) {
        std::perror("mkdtemp");
        return 1;
    }
    const std::string report_path = std::string(directory) + "/report";
    const int status = wait_for(
        spawn(options.command,
              {{"LD_PRELOAD", options.interposer}, {"OPENCLAW_FI_REPORT", report_path}}, "", 3600));
    const Report report = Report::read(report_path);
    std::remove(report_path.c_str());
    rmdir(directory);
    std::printf("\nleak check of %s: %s, %ld OpenCL calls\n", options.command[0].c_str(),
                describe_status(status).c_str(), report.calls);
    for (const std::string& kind : report.kinds) {
        std::printf("  %s\n", kind.c_str());
    }
    for (const std::string& leak : report.leaks) {
        std::printf("  %s\n", leak.c_str());
    }
    const bool ok =
        WIFEXITED(status) && WEXITSTATUS(status) == 0 && report.present && report.clean();
    std::printf("%s: %s\n", ok ? "no leaks" : "LEAKS OR FAILURE", report.accounting().c_str());
    return ok ? 0 : 1;
}

int usage(const char* self) {
    std::fprintf(stderr,
                 "usage: %s inject --scenarios EXE --interposer LIB [--work-dir DIR] [--jobs N]\n"
                 "                 [--code N] [--modes once,sticky,object] [--only NAME,...]\n"
                 "       %s leak-check --interposer LIB -- PROGRAM [ARGS...]\n",
                 self, self);
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        return usage(argv[0]);
    }
    const std::string command = argv[1];
    Options options;
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        const auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::exit(usage(argv[0]));
            }
            return argv[++i];
        };
        if (arg == "--") {
            options.command.assign(argv + i + 1, argv + argc);
            break;
        } else if (arg == "--scenarios") {
            options.scenarios = value();
        } else if (arg == "--interposer") {
            options.interposer = value();
        } else if (arg == "--work-dir") {
            options.work_dir = value();
        } else if (arg == "--jobs") {
            options.jobs = static_cast<unsigned>(std::max(1, std::atoi(value().c_str())));
        } else if (arg == "--code") {
            options.code = static_cast<cl_int>(std::atoi(value().c_str()));
        } else if (arg == "--modes") {
            options.modes = split(value(), ',');
        } else if (arg == "--only") {
            options.only = split(value(), ',');
        } else {
            return usage(argv[0]);
        }
    }
    if (command == "inject" && !options.scenarios.empty() && !options.interposer.empty()) {
        return inject(options);
    }
    if (command == "leak-check" && !options.interposer.empty() && !options.command.empty()) {
        return leak_check(options);
    }
    return usage(argv[0]);
}
