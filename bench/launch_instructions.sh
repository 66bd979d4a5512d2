#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Host instructions per launch of each peer of bench_launch, counted by callgrind with the launch
# path's OpenCL calls stubbed out (bench/stub_opencl.cpp), so the count is deterministic: only the
# instructions of the peer's own loop (its wrapper code) are counted, not the driver's.
# Usage: bench/launch_instructions.sh [build dir]   (needs valgrind; build in release mode, e.g.
# with scripts/bench.sh, whose build dir build/bench is the default). LAUNCHES=N (default 20000).
# Prints a Markdown table and `csv,launch_instructions,...` rows.
set -euo pipefail
build=${1:-build/bench}
launches=${LAUNCHES:-20000}
stub="$build/bench/libopenclaw_stub_opencl.so"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "| peer | instructions per launch (stubbed OpenCL) | ratio to raw C |"
echo "|---|---|---|"
raw=""
rows=()
# Each line of --peers: the peer's name, a tab, the function holding its launch loop.
while IFS=$'\t' read -r peer fn; do
  LD_PRELOAD="$stub" valgrind --tool=callgrind --callgrind-out-file="$out/$fn.out" \
    --toggle-collect="*$fn*" "$build/bench/bench_launch" --launches "$launches" --smoke --stubbed \
    > "$out/$fn.txt" 2> "$out/$fn.log" || { cat "$out/$fn.log" >&2; exit 1; }
  total=$(callgrind_annotate "$out/$fn.out" 2> /dev/null |
    awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
  # Every launch the loop made: the check, the warm-up and the timed batches.
  made=$(sed -n 's/^# launches made by each peer: //p' "$out/$fn.txt")
  per=$(( total / made ))
  [ -z "$raw" ] && raw=$per
  ratio=$(awk -v a="$per" -v b="$raw" 'BEGIN { printf "%.2f", a / b }')
  echo "| $peer | $per | ${ratio}x |"
  rows+=("csv,launch_instructions,axpy 4 args (stubbed OpenCL),$peer,256,$per,instructions/launch")
done < <("$build/bench/bench_launch" --peers)
printf '%s\n' "${rows[@]}"
