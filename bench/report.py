#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Turns a scripts/bench.sh result folder (results.csv, meta.txt) into results.md (the tables,
the ratios to the raw C API and to CLHPP, and the issue's targets, met or missed) and bench.png
(the plot; skipped with a message where matplotlib is not installed).

    python3 bench/report.py <results folder>
"""

import csv
import os
import sys
from collections import OrderedDict

# The targets, checked on every run; a miss is reported, never hidden.
LAUNCH_MAX_RATIO = 1.05  # openclaw / raw C per launch
VECTOR_ADD_MIN_RATIO = 0.95  # openclaw / raw C, and float4 openclaw / copy bandwidth (GPU)
COMPILE_MAX_RATIO = 0.7  # openclaw / CLHPP, compile time and peak memory
END_TO_END_GPU = (20.0, 4.0)  # whole vector add at 2^28 floats: over raw naive, over raw careful
END_TO_END_CPU = 1.5  # the best openclaw form over raw naive, at the largest size, elsewhere
PAGEABLE_GPU = ((1 << 30, 50.0), (16 << 20, 40.0))  # GB/s both ways at these sizes (GPU)

PEER_ORDER = ["raw naive", "raw careful", "raw C", "CLHPP", "CLHPP KernelFunctor", "CLHPP setArg+enqueue", "Boost.Compute",
              "Boost.Compute program_cache", "openclaw", "openclaw (moved vectors)"]


def peer_key(peer):
    for i, name in enumerate(PEER_ORDER):
        if peer == name:
            return (i, peer)
    return (len(PEER_ORDER), peer)


def load(folder):
    rows = []
    with open(os.path.join(folder, "results.csv"), newline="") as f:
        for row in csv.DictReader(f):
            row["value"] = float(row["value"])
            row["size_bytes"] = int(row["size_bytes"])
            rows.append(row)
    meta = OrderedDict()
    path = os.path.join(folder, "meta.txt")
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                key, _, value = line.rstrip("\n").partition("=")
                meta[key] = value
    return rows, meta


def select(rows, benchmark, case=None):
    return [r for r in rows if r["benchmark"] == benchmark and (case is None or r["case"] == case)]


def human(size):
    for shift, unit in ((30, "GiB"), (20, "MiB"), (10, "KiB")):
        if size >= 1 << shift:
            return "%d %s" % (size >> shift, unit)
    return "%d B" % size


def verdict(ok):
    return "**met**" if ok else "**missed**"


def table(header, lines):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in line) + " |" for line in lines]
    return out


def launch_section(rows, targets):
    out = []
    times = {r["peer"]: r["value"] for r in select(rows, "launch") if r["unit"] == "us/launch"}
    # The median of the rounds' own ratios where the program gives it (robust to load drifts),
    # else the ratio of the medians.
    ratios = {r["peer"]: r["value"] for r in select(rows, "launch") if r["unit"] == "x"}
    if times:
        raw = times.get("raw C")
        for peer, value in times.items():
            if peer not in ratios and raw:
                ratios[peer] = value / raw
        out += ["### Launch overhead (bench_launch: 4 arguments set, one launch, per launch)", ""]
        out += table(["peer", "µs per launch", "ratio to raw C"],
                     [[p, "%.3f" % v, "%.3fx" % ratios[p] if p in ratios else "-"]
                      for p, v in sorted(times.items(), key=lambda kv: peer_key(kv[0]))])
        out.append("")
        if "openclaw" in ratios:
            ratio = ratios["openclaw"]
            targets.append(("launch time: openclaw <= %.2fx raw C" % LAUNCH_MAX_RATIO,
                            "%.3fx" % ratio, ratio <= LAUNCH_MAX_RATIO))
    counts = {r["peer"]: r["value"] for r in select(rows, "launch_instructions")}
    if counts:
        raw = counts.get("raw C")
        out += ["### Host instructions per launch (callgrind, OpenCL calls stubbed out)", ""]
        out += table(["peer", "instructions per launch", "ratio to raw C"],
                     [[p, "%.0f" % v, "%.2fx" % (v / raw) if raw else "-"]
                      for p, v in sorted(counts.items(), key=lambda kv: peer_key(kv[0]))])
        out.append("")
    return out


def vector_add_section(rows, targets, is_gpu):
    data = select(rows, "vector_add")
    if not data:
        return []
    rates = [r for r in data if r["unit"] == "GB/s"]
    copy = next((r["value"] for r in rates if r["case"] == "copy"), None)
    size = data[0]["size_bytes"]
    peers = sorted({r["peer"] for r in rates if r["case"] != "copy"}, key=peer_key)
    out = ["### Vector add bandwidth (bench_vector_add: %s per buffer, GB/s of bytes read + "
           "written)" % human(size), ""]
    lines = []
    for kase in ("float", "float4"):
        rate = {r["peer"]: r["value"] for r in rates if r["case"] == kase}
        if not rate:
            continue
        # The medians of the rounds' own ratios where the program gives them.
        to_raw = {r["peer"]: r["value"] for r in data if r["case"] == kase + " ratio to raw C"}
        to_copy = {r["peer"]: r["value"] for r in data if r["case"] == kase + " ratio to copy"}
        raw, ours = rate.get("raw C"), rate.get("openclaw")
        if ours and raw:
            to_raw.setdefault("openclaw", ours / raw)
        if ours and copy:
            to_copy.setdefault("openclaw", ours / copy)
        lines.append([kase] + ["%.1f" % rate[p] if p in rate else "-" for p in peers] +
                     ["%.3fx" % to_raw["openclaw"] if "openclaw" in to_raw else "-",
                      "%.3fx" % to_copy["openclaw"] if "openclaw" in to_copy else "-"])
        if "openclaw" in to_raw:
            value = to_raw["openclaw"]
            targets.append(("vector add %s: openclaw >= %.0f%% of raw C" %
                            (kase, VECTOR_ADD_MIN_RATIO * 100), "%.1f%%" % (100 * value),
                            value >= VECTOR_ADD_MIN_RATIO))
        if kase == "float4" and "openclaw" in to_copy:
            value = to_copy["openclaw"]
            name = "vector add float4: openclaw >= %.0f%% of clEnqueueCopyBuffer bandwidth" % (
                VECTOR_ADD_MIN_RATIO * 100)
            if not is_gpu:
                name += " (a GPU target; shown for this device too)"
            targets.append((name, "%.1f%%" % (100 * value), value >= VECTOR_ADD_MIN_RATIO))
    out += table(["kernel"] + ["%s GB/s" % p for p in peers] +
                 ["openclaw / raw C", "openclaw / copy"], lines)
    if copy:
        out += ["", "clEnqueueCopyBuffer of the same size, same rounds: %.1f GB/s (2 x size "
                "moved). Ratios are medians of each round's own ratio." % copy]
    return out + [""]


def transfer_key(peer):  # "raw pageable", "CLHPP pageable", ..., "openclaw pinned"
    library, _, memory = peer.rpartition(" ")
    return (memory == "pinned", peer_key("raw C" if library == "raw" else library))


def transfers_section(rows, targets, is_gpu):
    data = select(rows, "transfers")
    if not data:
        return []
    if is_gpu:
        for size, want in PAGEABLE_GPU:
            for kase in ("write", "read"):
                got = [r["value"] for r in data if r["size_bytes"] == size and r["case"] == kase
                       and r["peer"] == "openclaw pageable"]
                if got:
                    targets.append(("pageable %s at %s: openclaw >= %.0f GB/s" % (kase, human(size), want),
                                    "%.2f GB/s" % got[0], got[0] >= want))
    peers = sorted({r["peer"] for r in data}, key=transfer_key)
    out = ["### Host <-> device transfers (bench_transfers, GB/s)", ""]
    lines = []
    for size in sorted({r["size_bytes"] for r in data}):
        for kase in ("write", "read"):
            rate = {r["peer"]: r["value"] for r in data if r["size_bytes"] == size and r["case"] == kase}
            if not rate:
                continue
            ratio = lambda a, b: "%.2fx" % (rate[a] / rate[b]) if a in rate and rate.get(b) else "-"
            lines.append([human(size), kase] + ["%.2f" % rate[p] if p in rate else "-" for p in peers] +
                         [ratio("openclaw pageable", "raw pageable"),
                          ratio("openclaw pinned", "raw pinned")])
    out += table(["size", "direction"] + peers + ["openclaw / raw (pageable)", "openclaw / raw (pinned)"],
                 lines)
    return out + [""]


def build_section(rows):
    data = select(rows, "build")
    if not data:
        return []
    out = ["### Program build time (bench_build: cold = a source no cache has seen, warm = the same "
           "source again)", ""]
    lines = []
    sources = OrderedDict()
    for r in data:
        sources.setdefault(r["case"].rsplit(" ", 1)[0], None)
    for source in sources:
        cold = {r["peer"]: r["value"] for r in data if r["case"] == source + " cold"}
        warm = {r["peer"]: r["value"] for r in data if r["case"] == source + " warm"}
        for peer in sorted(cold, key=peer_key):
            lines.append([source, peer, "%.2f" % cold[peer], "%.2f" % warm.get(peer, 0.0),
                          "%.3f" % (warm.get(peer, 0.0) / cold[peer]) if cold[peer] else "-"])
    out += table(["source", "peer", "cold ms", "warm ms", "warm / cold"], lines)
    return out + [""]


def end_to_end_section(rows, targets, is_gpu):
    data = select(rows, "end_to_end")
    if not data:
        return []
    out = ["### End to end: the vector add as a whole program (bench_end_to_end, ms)", "",
           "Buffers made from host data, one kernel, the result read back; the context, queue and "
           "program exist before the clock starts.", ""]
    lines = []
    cases = list(OrderedDict.fromkeys(r["case"] for r in data))
    for kase in cases:
        time = {r["peer"]: r["value"] for r in data if r["case"] == kase}
        naive, careful = time.get("raw naive"), time.get("raw careful")
        for peer in sorted(time, key=peer_key):
            lines.append([kase.replace("vector add ", ""), peer, "%.2f" % time[peer],
                          "%.2fx" % (naive / time[peer]) if naive else "-",
                          "%.2fx" % (careful / time[peer]) if careful else "-"])
    out += table(["floats", "peer", "ms", "over raw naive", "over raw careful"], lines)
    largest = cases[-1]
    time = {r["peer"]: r["value"] for r in data if r["case"] == largest}
    naive, careful = time.get("raw naive"), time.get("raw careful")
    if is_gpu and naive and careful and "openclaw" in time and largest.endswith("2^28"):
        for base, name, want in ((naive, "raw naive", END_TO_END_GPU[0]),
                                 (careful, "raw careful", END_TO_END_GPU[1])):
            ratio = base / time["openclaw"]
            targets.append(("end to end at 2^28 floats: openclaw >= %.0fx %s" % (want, name),
                            "%.2fx" % ratio, ratio >= want))
    elif not is_gpu and naive:
        best = min(v for p, v in time.items() if p.startswith("openclaw"))
        targets.append(("end to end at %s floats: best openclaw form >= %.1fx raw naive" % (
            largest.replace("vector add ", ""), END_TO_END_CPU), "%.2fx" % (naive / best),
            naive / best >= END_TO_END_CPU))
    return out + [""]


def pipeline_section(rows):
    data = {r["case"]: r["value"] for r in select(rows, "pipeline")}
    if not data:
        return []
    serial = data.get("serial")
    out = ["### Transfer/compute overlap (bench_pipeline, openclaw only)", ""]
    out += table(["variant", "ms", "speed-up over serial"],
                 [[k, "%.2f" % v, "%.2fx" % (serial / v) if serial else "-"] for k, v in data.items()])
    return out + [""]


def compile_section(rows, targets):
    data = select(rows, "compile_time")
    if not data:
        return []
    out = ["### Compile time and peak compiler memory (compile_time/peers.sh, -O2 -c, CPU = user + "
           "system)", ""]
    # case: "<program|header> <compiler version...> <cpu|wall|memory>"
    groups = OrderedDict()
    for r in data:
        what, _, rest = r["case"].partition(" ")
        compiler, _, metric = rest.rpartition(" ")
        groups.setdefault((compiler, what), OrderedDict()).setdefault(r["peer"], {})[metric] = r["value"]
    lines = []
    for (compiler, what), peers in groups.items():
        base = peers.get("Boost.Compute" if what == "algorithms" else "CLHPP")
        for peer in sorted(peers, key=lambda p: peer_key(p.split(" (")[0]) + (p,)):
            m = peers[peer]
            rel = lambda k: "%.2fx" % (m[k] / base[k]) if base and base.get(k) else "-"
            lines.append([compiler, what, peer, "%.2f" % m.get("cpu", 0), "%.2f" % m.get("wall", 0),
                          "%.0f" % m.get("memory", 0), rel("cpu"), rel("memory")])
            if peer.startswith("openclaw (") and what == "algorithms" and base:
                for metric, label in (("cpu", "time"), ("memory", "peak memory")):
                    if base.get(metric):
                        ratio = m[metric] / base[metric]
                        targets.append(("compile %s of reduce + scan + sort (%s, %s): <= 0.5x "
                                        "Boost.Compute" % (label, compiler, peer), "%.2fx" % ratio,
                                        ratio <= 0.5))
            if peer == "openclaw" and what == "program" and base:
                for metric, label in (("cpu", "time"), ("memory", "peak memory")):
                    if base.get(metric):
                        ratio = m[metric] / base[metric]
                        targets.append(("compile %s (%s): openclaw <= %.1fx CLHPP" %
                                        (label, compiler, COMPILE_MAX_RATIO), "%.2fx" % ratio,
                                        ratio <= COMPILE_MAX_RATIO))
    out += table(["compiler", "unit", "peer", "CPU s", "wall s", "peak MiB", "CPU / base",
                  "memory / base"], lines)
    return out + [""]


def write_markdown(folder, rows, meta):
    device = meta.get("device", "unknown device")
    is_gpu = device.endswith("| GPU")
    targets = []
    body = []
    body += end_to_end_section(rows, targets, is_gpu)
    body += launch_section(rows, targets)
    body += vector_add_section(rows, targets, is_gpu)
    body += transfers_section(rows, targets, is_gpu)
    body += build_section(rows)
    body += pipeline_section(rows)
    body += compile_section(rows, targets)
    head = ["## %s (%s)" % (device.split(" | ")[0], meta.get("date", "")), ""]
    head += ["- device: %s" % device,
             "- compiler: %s" % meta.get("compiler", "unknown"),
             "- host: %s; load average %s before, %s after" % (
                 meta.get("host", "unknown"), meta.get("load_before", "?"), meta.get("load_after", "?")),
             "- run: `scripts/bench.sh`%s (%s mode); peers take turns within every round, medians "
             "over the rounds" % (
                 "" if meta.get("mode") != "smoke" else " --smoke", meta.get("mode", "full")),
             ""]
    if meta.get("mode") == "smoke":
        head += ["Smoke mode: sizes and repetitions are too small for these figures to mean "
                 "anything; the targets are listed only to exercise the report.", ""]
    if targets:
        head += ["### Targets (ratios from this run)", ""]
        head += table(["target", "this run", "verdict"], [[t, v, verdict(ok)] for t, v, ok in targets])
        head.append("")
    text = "\n".join(head + body)
    with open(os.path.join(folder, "results.md"), "w") as f:
        f.write(text)
    return text


def plot(folder, rows, meta):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("report.py: matplotlib is not installed (Debian: python3-matplotlib; pip install "
              "matplotlib): no plot, results.md and results.csv are complete")
        return
    fig, axes = plt.subplots(3, 3, figsize=(16, 13))
    fig.suptitle("openclaw and its peers on %s (%s)" % (meta.get("device", "?").split(" | ")[0],
                                                       meta.get("date", "")))

    def bars(ax, values, title, ylabel, reference=None, reference_label=None):
        peers = sorted(values, key=peer_key)
        ax.bar(range(len(peers)), [values[p] for p in peers],
               color=["tab:red" if p.startswith("openclaw") else "tab:gray" for p in peers])
        ax.set_xticks(range(len(peers)))
        ax.set_xticklabels(peers, rotation=20, ha="right", fontsize=8)
        ax.set_title(title, fontsize=10)
        ax.set_ylabel(ylabel)
        if reference:
            ax.axhline(reference, color="tab:blue", linestyle="--", label=reference_label)
            ax.legend(fontsize=8)

    launch = {r["peer"]: r["value"] for r in select(rows, "launch") if r["unit"] == "us/launch"}
    if launch:
        bars(axes[0][0], launch, "launch overhead (lower is better)", "µs per launch",
             launch.get("raw C"), "raw C")
    vadd = [r for r in select(rows, "vector_add") if r["unit"] == "GB/s"]
    if vadd:
        ax = axes[0][1]
        peers = sorted({r["peer"] for r in vadd if r["case"] != "copy"}, key=peer_key)
        for j, kase in enumerate(("float", "float4")):
            rate = {r["peer"]: r["value"] for r in vadd if r["case"] == kase}
            ax.bar([i + 0.4 * j for i in range(len(peers))], [rate.get(p, 0) for p in peers], 0.4,
                   label=kase)
        ax.set_xticks([i + 0.2 for i in range(len(peers))])
        ax.set_xticklabels(peers, rotation=20, ha="right", fontsize=8)
        copy = next((r["value"] for r in vadd if r["case"] == "copy"), None)
        if copy:
            ax.axhline(copy, color="tab:blue", linestyle="--", label="clEnqueueCopyBuffer")
        ax.set_title("vector add, %s per buffer (higher is better)" % human(vadd[0]["size_bytes"]),
                     fontsize=10)
        ax.set_ylabel("GB/s (read + written)")
        ax.legend(fontsize=8)
    compile_rows = [r for r in select(rows, "compile_time")
                    if r["case"].startswith("program ") and r["case"].endswith(" cpu")]
    if compile_rows:
        ax = axes[0][2]
        compilers = list(OrderedDict.fromkeys(r["case"][len("program "):-len(" cpu")]
                                              for r in compile_rows))
        peers = sorted({r["peer"] for r in compile_rows}, key=lambda p: peer_key(p.split(" (")[0]) + (p,))
        width = 0.8 / len(compilers)
        for j, compiler in enumerate(compilers):
            value = {r["peer"]: r["value"] for r in compile_rows if compiler in r["case"]}
            ax.bar([i + width * j for i in range(len(peers))], [value.get(p, 0) for p in peers],
                   width, label=compiler)
        ax.set_xticks([i + 0.4 - width / 2 for i in range(len(peers))])
        ax.set_xticklabels([p.replace(" (kernel typed from source)", "\n(typed from source)")
                            for p in peers], rotation=20, ha="right", fontsize=8)
        ax.set_title("compile time of the vector-add program (lower is better)", fontsize=10)
        ax.set_ylabel("CPU s, -O2")
        ax.legend(fontsize=8)
    transfers = select(rows, "transfers")
    for k, kase in enumerate(("write", "read")):
        ax = axes[1][k]
        data = [r for r in transfers if r["case"] == kase]
        if not data:
            continue
        for peer in sorted({r["peer"] for r in data}, key=transfer_key):
            points = sorted((r["size_bytes"], r["value"]) for r in data if r["peer"] == peer)
            ax.plot([p[0] for p in points], [p[1] for p in points], marker="o",
                    linestyle="--" if "pinned" in peer else "-",
                    linewidth=2.5 if peer.startswith("openclaw") else 1.2, label=peer)
        ax.set_xscale("log", base=2)
        ax.set_title("host to device (write)" if kase == "write" else "device to host (read)",
                     fontsize=10)
        ax.set_xlabel("bytes")
        ax.set_ylabel("GB/s")
        ax.legend(fontsize=7)
    build = select(rows, "build")
    if build:
        ax = axes[1][2]
        source = build[0]["case"].rsplit(" ", 1)[0]
        peers = sorted({r["peer"] for r in build}, key=peer_key)
        for j, kind in enumerate(("cold", "warm")):
            value = {r["peer"]: r["value"] for r in build if r["case"] == source + " " + kind}
            ax.bar([i + 0.4 * j for i in range(len(peers))], [value.get(p, 0) for p in peers], 0.4,
                   label=kind)
        ax.set_xticks([i + 0.2 for i in range(len(peers))])
        ax.set_xticklabels(peers, rotation=20, ha="right", fontsize=8)
        ax.set_title("program build: %s (lower is better)" % source, fontsize=10)
        ax.set_ylabel("ms")
        ax.legend(fontsize=8)
    end_to_end = select(rows, "end_to_end")
    for k, kase in enumerate(OrderedDict.fromkeys(r["case"] for r in end_to_end)):
        if k > 2:
            break
        time = {r["peer"]: r["value"] for r in end_to_end if r["case"] == kase}
        bars(axes[2][k], time, "end to end: %s floats, whole program (lower is better)" %
             kase.replace("vector add ", ""), "ms")
    for row in axes:
        for ax in row:
            if not ax.has_data():
                ax.set_visible(False)
    fig.tight_layout()
    path = os.path.join(folder, "bench.png")
    fig.savefig(path, dpi=90)
    print("report.py: plot written to %s" % path)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    folder = sys.argv[1]
    rows, meta = load(folder)
    if not rows:
        print("report.py: %s/results.csv has no results" % folder)
        return 1
    print(write_markdown(folder, rows, meta))
    plot(folder, rows, meta)
    return 0


if __name__ == "__main__":
    sys.exit(main())
