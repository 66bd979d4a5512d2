#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One batch for a lent GPU machine (a fixed budget of device minutes): builds the tests and the
# benchmarks there, runs the unit tests on the GPU's platform and the main example on every
# platform, then the benchmarks (a run cut short by `timeout` still packs what it finished).
# Stages have their own time limits so that one slow stage cannot eat the others' time.
#
#   OUT=/tmp/out OPENCLAW_GPU_PLATFORM=NVIDIA scripts/gpu-verify.sh
#
# Everything is packed into $OUT/gpu-verify.tgz (see gpu-output.sh); stages.txt is written beside
# it as the stages go, so a killed run still shows how far it came. Do not wrap this script in
# `exec > >(tee ...)` with a `wait` after it: bash's wait then waits for tee, for ever.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/gpu-output.sh
. "$root/scripts/gpu-output.sh"
gpu_output gpu-verify "$root/build/gpu-verify"
platform=${OPENCLAW_GPU_PLATFORM:-NVIDIA}
jobs=$(nproc)
cd "$root" || exit 1
stage() { echo "== $(date +%T) $*" | tee -a "$out/stages.txt" "$final/stages.txt"; }

stage "machine"
{
  nvidia-smi -L 2>/dev/null
  g++ --version | head -1
  cmake --version | head -1
  clinfo -l 2>/dev/null
} > "$out/machine.txt" 2>&1

stage "build tests and examples (gcc preset, Debug)"
cmake --preset gcc -DOPENCLAW_BUILD_BENCHMARKS=OFF > "$out/configure.log" 2>&1
timeout 240 cmake --build build/gcc -j "$jobs" > "$out/build.log" 2>&1 || {
  tail -40 "$out/build.log"
  stage "build failed"
}

stage "unit tests, examples and leak checks on $platform"
# Compile-fail, packaging and format tests do not depend on the device (they run in CI); the
# fault injection is PoCL-specific in its call sequences and takes minutes.
OPENCLAW_TEST_PLATFORM=$platform timeout 200 ctest --test-dir build/gcc -j 8 --timeout 120 --output-on-failure \
  -E "compile-fail|package|format|fault injection|bench-smoke|embed:" \
  > "$out/ctest-$platform.log" 2>&1
tail -15 "$out/ctest-$platform.log"

stage "the main example on every platform"
for p in NVIDIA Portable; do
  OPENCLAW_DEVICE=$p timeout 60 build/gcc/examples/vector_add/vector_add > "$out/vector_add-$p.txt" 2>&1
  echo "$p: $(tail -2 "$out/vector_add-$p.txt" | tr '\n' ' ')"
done

stage "examples with GPU-sized inputs"
run_example() {  # name, then arguments
  local name=$1
  shift
  [ -x "build/gcc/examples/$name/$name" ] || return 0
  OPENCLAW_DEVICE=$platform timeout 40 "build/gcc/examples/$name/$name" "$@" \
    > "$out/example-$name.txt" 2>&1
  echo "$name $*: $(tail -3 "$out/example-$name.txt" | tr '\n' ' ')"
}
run_example multi_device
run_example matmul 4096 5
run_example nbody 16384 4
run_example reduction 268435456
run_example image_blur
run_example async_pipeline
run_example command_graph 1048576 50
run_example memory_pool 2000
# CUDA and openclaw sharing memory (built where CUDA is); two MPI ranks on the GPU's platform
# (Open MPI cuts a list in OCL_ICD_FILENAMES to its first entry: env passes it whole).
run_example cuda_interop 16777216
if [ -x build/gcc/examples/mpi_reduce/mpi_reduce ] && command -v mpirun > /dev/null; then
  OPENCLAW_DEVICE=$platform OMPI_MCA_btl_vader_single_copy_mechanism=none timeout 60 \
    mpirun -np 2 --allow-run-as-root --oversubscribe \
    env ${OCL_ICD_FILENAMES:+"OCL_ICD_FILENAMES=$OCL_ICD_FILENAMES"} \
    build/gcc/examples/mpi_reduce/mpi_reduce 100000000 > "$out/example-mpi_reduce.txt" 2>&1
  echo "mpi_reduce: $(tail -3 "$out/example-mpi_reduce.txt" | tr '\n' ' ')"
fi
stage "benchmarks on $platform"
OPENCLAW_BENCH_PLATFORM=$platform timeout "${BENCH_SECONDS:-220}" scripts/bench.sh \
  --only "${BENCH_ONLY:-end_to_end launch vector_add transfers pipeline build graph_pool}" --out "$out/bench" \
  > "$out/bench.log" 2>&1
tail -5 "$out/bench.log"
if [ -x build/bench/bench/bench_build_cache ]; then
  OPENCLAW_BENCH_PLATFORM=$platform timeout 60 build/bench/bench/bench_build_cache --runs 3 \
    > "$out/bench/build_cache.txt" 2>&1
fi
stage "done"
