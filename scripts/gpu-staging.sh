#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The staging pool's tuning, measured on a lent GPU machine in one batch: what the host is
# (cores, sockets, NUMA nodes, the cgroup's CPU limit), bench_staging_sweep (every tuning in
# turn, raw pageable and pinned beside them), then bench_transfers, the suite's own program,
# with each tuning of STAGING_CANDIDATES in turn (OPENCLAW_BENCH_STAGING, see bench/common.hpp)
# and the first again at the end, so that drift during the run shows.
#
#   OUT=/tmp/out OPENCLAW_GPU_PLATFORM=NVIDIA scripts/gpu-staging.sh
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/build/gpu-staging}
mkdir -p "$out"
platform=${OPENCLAW_GPU_PLATFORM:-NVIDIA}
build="$root/build/staging"
{
  nproc
  lscpu 2>/dev/null | grep -E "^(Model name|Socket|Core|Thread|NUMA|CPU\(s\))"
  numactl --hardware 2>/dev/null
  cat /sys/fs/cgroup/cpu.max 2>/dev/null
  free -g
  uptime
} > "$out/host.txt" 2>&1
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DOPENCLAW_BUILD_BENCHMARKS=ON \
  -DOPENCLAW_BUILD_TESTS=OFF -DOPENCLAW_BUILD_EXAMPLES=OFF -DOPENCLAW_INSTALL=OFF \
  > "$out/configure.log" 2>&1
cmake --build "$build" --target bench_staging_sweep bench_transfers bench_end_to_end \
  > "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
export OPENCLAW_BENCH_PLATFORM=$platform
timeout "${SWEEP_SECONDS:-150}" "$build/bench/bench_staging_sweep" --passes "${PASSES:-5}" \
  > "$out/sweep.txt" 2>&1
grep -v '^csv,' "$out/sweep.txt"
read -r -a candidates <<< "${STAGING_CANDIDATES:-8,4,8192,1,16,0,0,4096}"
i=0
for tuning in "${candidates[@]}" "${candidates[0]}"; do
  i=$((i + 1))
  OPENCLAW_BENCH_STAGING=$tuning timeout "${TRANSFER_SECONDS:-60}" \
    "$build/bench/bench_transfers" > "$out/transfers-$i.txt" 2>&1
  echo "== transfers $i: $tuning"
  grep -E "^# staging|MiB|GiB" "$out/transfers-$i.txt" | grep -v '^csv,'
done
if [ -n "${END_TO_END:-}" ]; then
  OPENCLAW_BENCH_STAGING=$END_TO_END timeout 90 "$build/bench/bench_end_to_end" \
    > "$out/end_to_end.txt" 2>&1
  grep -v '^csv,' "$out/end_to_end.txt" | tail -20
fi
