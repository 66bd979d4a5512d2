#!/usr/bin/env bash
# Host instructions per launch of each peer of bench_launch, counted by callgrind with the launch
# path's OpenCL calls stubbed out (bench/stub_opencl.c), so the count is deterministic.
# Usage: bench/launch_instructions.sh <build dir>   (needs valgrind; build with the release preset)
set -euo pipefail
build=${1:-build/release}
launches=20000
stub="$build/bench/libopenclaw_stub_opencl.so"
out=$(mktemp -d)
declare -A loops=(
  ["raw C"]="raw_loop"
  ["CLHPP KernelFunctor"]="clhpp_functor_loop"
  ["CLHPP setArg+enqueue"]="clhpp_kernel_loop"
  ["openclaw"]="openclaw_loop"
)
echo "| peer | instructions per launch (stubbed OpenCL) | ratio to raw C |"
echo "|---|---|---|"
raw=""
for peer in "raw C" "CLHPP KernelFunctor" "CLHPP setArg+enqueue" "openclaw"; do
  fn=${loops[$peer]}
  LD_PRELOAD="$stub" valgrind --tool=callgrind --callgrind-out-file="$out/$fn.out" \
    --toggle-collect="*$fn*" "$build/bench/bench_launch" --launches $launches --smoke --stubbed \
    >/dev/null 2>"$out/$fn.log"
  total=$(callgrind_annotate "$out/$fn.out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
  per=$(( total / (launches + 1) ))
  [ -z "$raw" ] && raw=$per
  ratio=$(awk -v a="$per" -v b="$raw" 'BEGIN { printf "%.2f", a / b }')
  echo "| $peer | $per | ${ratio}x |"
done
rm -rf "$out"
