#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The benchmark suite in one command: builds bench/ in release mode, runs every benchmark for every
# peer (raw C API, OpenCL-CLHPP, Boost.Compute when its headers exist, openclaw) on the device of
# OPENCLAW_BENCH_PLATFORM (else the first GPU, else the first device), then writes
#   <out>/results.csv   every result row (benchmark,case,peer,size_bytes,value,unit)
#   <out>/results.md    the tables, ratios and targets, with date, device, driver and compiler
#   <out>/bench.png     the plot (skipped, with a message, where matplotlib is missing)
#   <out>/logs/         each program's own output
# Each program alternates the peers within every sample, warms each peer up first, and reports
# medians. A benchmark whose result is wrong exits non-zero; the suite then fails at the end.
#
#   scripts/bench.sh                                   full run (sizes up to 1 GiB on a GPU)
#   OPENCLAW_BENCH_PLATFORM=NVIDIA scripts/bench.sh    pick the platform
#   scripts/bench.sh --smoke                           tiny sizes, one or two samples (CI)
# Options: --out DIR (default <build dir>/results), --build-dir DIR (default build/bench),
# --no-build (use the binaries already in the build dir), --only "launch vector_add ..." (of:
# end_to_end launch instructions vector_add transfers build pipeline graph_pool algorithms
# compile_time; staging_sweep,
# the staging pool's tuning sweep, runs only when named). CXX picks the
# compiler of the build; CXXS the compilers the compile-time benchmark measures (default "g++
# clang++").
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
smoke=0
build_dir="$root/build/bench"
out=""
do_build=1
only="end_to_end launch instructions vector_add transfers build pipeline graph_pool algorithms compile_time"
while [ $# -gt 0 ]; do
  case "$1" in
    --smoke) smoke=1 ;;
    --out) out=$2; shift ;;
    --build-dir) build_dir=$2; shift ;;
    --no-build) do_build=0 ;;
    --only) only=$2; shift ;;
    -h | --help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
build_dir=$(mkdir -p "$build_dir" && cd "$build_dir" && pwd)
out=${out:-$build_dir/results}
mkdir -p "$out/logs"
rm -f "$out"/logs/*.txt "$out/results.csv" "$out/results.md" "$out/bench.png"

if [ "$do_build" = 1 ]; then
  generator=()
  if command -v ninja > /dev/null 2>&1; then
    generator=(-G Ninja)
  fi
  echo "bench: building bench/ (release) in $build_dir"
  cmake -S "$root" -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DOPENCLAW_BUILD_BENCHMARKS=ON -DOPENCLAW_BUILD_TESTS=OFF -DOPENCLAW_BUILD_EXAMPLES=OFF \
    -DOPENCLAW_INSTALL=OFF > "$out/logs/configure.log"
  grep -i "boost.compute" "$out/logs/configure.log" || true
  cmake --build "$build_dir" > "$out/logs/build.log" 2>&1 || {
    tail -n 40 "$out/logs/build.log" >&2
    echo "bench: the build failed (log: $out/logs/build.log)" >&2
    exit 1
  }
fi
bin="$build_dir/bench"

# What the report's header says about the run.
cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build_dir/CMakeCache.txt" 2> /dev/null || true)
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build_dir/CMakeCache.txt" 2> /dev/null || true)
{
  echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "mode=$([ "$smoke" = 1 ] && echo smoke || echo full)"
  echo "compiler=$("${cxx:-c++}" --version 2> /dev/null | head -n 1) (${build_type:-unknown} build)"
  echo "host=$(grep -m 1 'model name' /proc/cpuinfo 2> /dev/null | sed 's/.*: //'), $(nproc) cores"
  echo "load_before=$(cut -d' ' -f1-3 /proc/loadavg 2> /dev/null || echo unknown)"
  echo "platform_filter=${OPENCLAW_BENCH_PLATFORM:-(none: first GPU, else first device)}"
} > "$out/meta.txt"

failed=()
run() {  # name, command...: runs one benchmark, keeps its log, records a failure
  local name=$1
  shift
  echo
  echo "bench: == $name: $*"
  if "$@" > "$out/logs/$name.txt" 2>&1; then
    grep -v '^csv,' "$out/logs/$name.txt" || true
  else
    cat "$out/logs/$name.txt"
    echo "bench: $name FAILED" >&2
    failed+=("$name")
  fi
}
wanted() { [[ " $only " == *" $1 "* ]]; }
flag=()
[ "$smoke" = 1 ] && flag=(--smoke)

wanted end_to_end && run end_to_end "$bin/bench_end_to_end" "${flag[@]}"
wanted launch && run launch "$bin/bench_launch" "${flag[@]}"
if wanted instructions; then
  if [ "$smoke" = 1 ]; then
    echo
    echo "bench: == instructions: skipped in smoke mode (valgrind takes half a minute)"
  elif command -v valgrind > /dev/null 2>&1 && command -v callgrind_annotate > /dev/null 2>&1; then
    run instructions "$root/bench/launch_instructions.sh" "$build_dir"
  else
    echo
    echo "bench: == instructions: skipped (valgrind not installed)"
  fi
fi
wanted vector_add && run vector_add "$bin/bench_vector_add" "${flag[@]}"
wanted transfers && run transfers "$bin/bench_transfers" "${flag[@]}"
wanted staging_sweep && run staging_sweep "$bin/bench_staging_sweep" "${flag[@]}"
wanted build && run build "$bin/bench_build" "${flag[@]}"
wanted pipeline && run pipeline "$bin/bench_pipeline" "${flag[@]}"
wanted graph_pool && run graph_pool "$bin/bench_graph_pool" "${flag[@]}"
wanted algorithms && run algorithms "$bin/bench_algorithms" "${flag[@]}"
if wanted compile_time; then
  # The header folders CMake found, for headers outside the compilers' default paths.
  extra=${EXTRA_FLAGS:-}
  for var in OPENCLAW_CLHPP_INCLUDE_DIR OPENCLAW_BOOST_COMPUTE_INCLUDE_DIR; do
    dir=$(sed -n "s/^$var:[A-Z]*=//p" "$build_dir/CMakeCache.txt" 2> /dev/null || true)
    case "$dir" in
      "" | *NOTFOUND | /usr/include) ;;
      *) extra="$extra -isystem $dir" ;;
    esac
  done
  run compile_time env EXTRA_FLAGS="$extra" CXX="${cxx:-${CXX:-g++}}" \
    sh "$root/bench/compile_time/peers.sh" "${flag[@]}"
fi
echo "load_after=$(cut -d' ' -f1-3 /proc/loadavg 2> /dev/null || echo unknown)" >> "$out/meta.txt"

echo "benchmark,case,peer,size_bytes,value,unit" > "$out/results.csv"
cat "$out"/logs/*.txt | sed -n 's/^csv,//p' >> "$out/results.csv"
grep -h -m 1 '^# device: ' "$out"/logs/*.txt 2> /dev/null | head -n 1 |
  sed 's/^# device: /device=/' >> "$out/meta.txt" || true

# The report needs python3; the plot also needs matplotlib, from whichever python3 has it.
python=""
for candidate in python3 /usr/bin/python3; do
  if command -v "$candidate" > /dev/null 2>&1; then
    [ -z "$python" ] && python=$candidate
    if "$candidate" -c 'import matplotlib' > /dev/null 2>&1; then
      python=$candidate
      break
    fi
  fi
done
echo
if [ -n "$python" ]; then
  "$python" "$root/bench/report.py" "$out" || failed+=("report")
else
  echo "bench: python3 not found: no results.md or plot (results.csv is complete)"
fi

echo
if [ ${#failed[@]} -eq 0 ]; then
  echo "bench: all benchmarks passed; results in $out"
else
  echo "bench: FAILED: ${failed[*]} (logs in $out/logs)" >&2
  exit 1
fi
