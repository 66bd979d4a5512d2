#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The algorithms on a lent NVIDIA GPU, in one batch: builds (Release) the algorithm tests, the
# example and bench_algorithms, runs the tests and the example on the GPU's platform, then
# bench_algorithms at 2^16, 2^20, 2^24 and 2^28 elements (openclaw on both scan paths,
# Boost.Compute through the same driver, the host, clEnqueueCopyBuffer), then CUB's
# counterparts (bench/cub/cub_algorithms.cu, built with nvcc there). Logs go to $OUT (nine files:
# pack them where a transfer takes fewer). TESTS=0 skips the tests (gpu-verify.sh runs them too);
# STRESS=N (default 1000) single-pass scans and sorts follow the bench, each checked.
# Where the machine has no Boost headers, carry the ones the benchmarks include and point
# CMAKE_INCLUDE_PATH at them (find_path then finds boost/compute/core.hpp there).
#
#   OUT=/tmp/out OPENCLAW_GPU_PLATFORM=NVIDIA scripts/gpu-algorithms.sh
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/build/gpu-algorithms-out}
platform=${OPENCLAW_GPU_PLATFORM:-NVIDIA}
mkdir -p "$out"
cd "$root" || exit 1
stage() { echo "== $(date +%T) $*" | tee -a "$out/stages.txt"; }

stage "machine"
{ nvidia-smi -L; g++ --version | head -1; clinfo -l; } > "$out/machine.txt" 2>&1
stage "build"
cmake -S . -B build/gpu-algorithms -DCMAKE_BUILD_TYPE=Release -DOPENCLAW_BUILD_BENCHMARKS=ON \
  -DOPENCLAW_BUILD_TESTS=ON -DOPENCLAW_BUILD_EXAMPLES=ON \
  > "$out/configure.log" 2>&1
timeout 300 cmake --build build/gpu-algorithms -j "$(nproc)" \
  --target bench_algorithms algorithms $([ "${TESTS:-1}" = 0 ] || echo test_algorithm) > "$out/build.log" 2>&1 ||
  { tail -30 "$out/build.log"; stage "build failed"; }
(command -v nvcc > /dev/null || export PATH=$PATH:/usr/local/cuda/bin
 timeout 200 nvcc -O3 -std=c++17 -arch=sm_90 -o build/gpu-algorithms/cub_algorithms \
   bench/cub/cub_algorithms.cu > "$out/nvcc.log" 2>&1) &
if [ "${TESTS:-1}" != 0 ]; then
  stage "tests on $platform"
  OPENCLAW_TEST_PLATFORM=$platform timeout 240 build/gpu-algorithms/tests/test_algorithm \
    > "$out/test_algorithm.log" 2>&1
  tail -3 "$out/test_algorithm.log"
fi
OPENCLAW_DEVICE=$platform timeout 60 build/gpu-algorithms/examples/algorithms/algorithms 16777216 \
  > "$out/example-algorithms.txt" 2>&1
tail -1 "$out/example-algorithms.txt"
stage "bench_algorithms on $platform"
OPENCLAW_BENCH_PLATFORM=$platform timeout "${BENCH_SECONDS:-300}" \
  build/gpu-algorithms/bench/bench_algorithms --sizes "${SIZES:-16,20,24,28}" \
  --rounds "${ROUNDS:-7}" --stress "${STRESS:-1000}" > "$out/bench_algorithms.txt" 2>&1
grep -v '^csv' "$out/bench_algorithms.txt" | tail -80
wait
stage "CUB"
if [ -x build/gpu-algorithms/cub_algorithms ]; then
  timeout 120 build/gpu-algorithms/cub_algorithms "${SIZES:-16,20,24,28}" "${ROUNDS:-7}" \
    > "$out/cub_algorithms.txt" 2>&1
  cat "$out/cub_algorithms.txt"
else
  tail -5 "$out/nvcc.log"
fi
stage "done"
