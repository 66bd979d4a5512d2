#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A short second batch for a lent GPU machine: builds a few test programs and examples and runs
# the named test cases with their failure output, under $OUT. Targets and cases are arguments:
#   OUT=/tmp/out scripts/gpu-diagnose.sh "test_signature test_events multi_device" \
#       test_signature "test_events:a user event holds work back until the host completes it" \
#       "async_pipeline:8 4 64" leak:test_cache
# (after the colon: a test case name, or a program's arguments; leak:<program> runs the
# reliability leak check of that program)
# Everything is packed into $OUT/gpu-diagnose.tgz (see gpu-output.sh).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/gpu-output.sh
. "$root/scripts/gpu-output.sh"
gpu_output gpu-diagnose "$root/build/gpu-diagnose"
cd "$root" || exit 1
targets=$1
shift
cmake --preset gcc -DOPENCLAW_TEST_OPENCL_120=OFF -DOPENCLAW_BUILD_BENCHMARKS=ON \
  -DOPENCLAW_BUILD_DOCS=OFF > "$out/configure.log" 2>&1
# shellcheck disable=SC2086
timeout 100 cmake --build build/gcc -j "$(nproc)" --target $targets > "$out/build.log" 2>&1 ||
  tail -30 "$out/build.log"
echo "== built $(date +%T)"
for spec in "$@"; do
  program=${spec%%:*}
  case_name=""
  [[ "$spec" == *:* ]] && case_name=${spec#*:}
  log="$out/$(echo "$spec" | tr -c 'A-Za-z0-9_' '_' | cut -c1-60).txt"
  if [ "$program" = leak ]; then  # leak:<test program>: the reliability leak check
    path=$(find build/gcc -name "$case_name" -type f -perm -u+x | head -1)
    OPENCLAW_TEST_PLATFORM=NVIDIA timeout 40 build/gcc/tests/reliability/openclaw_reliability \
      leak-check --interposer build/gcc/tests/reliability/libopenclaw_interposer.so -- "$path" \
      > "$log" 2>&1
  else
    path=$(find build/gcc -name "$program" -type f -perm -u+x | head -1)
    args=()
    if [[ "$program" == test_* ]]; then
      [ -n "$case_name" ] && args=("$case_name")  # one Catch2 test case name
    else
      read -r -a args <<< "$case_name"  # a program's arguments
    fi
    OPENCLAW_TEST_PLATFORM=NVIDIA OPENCLAW_DEVICE=NVIDIA timeout 40 "$path" "${args[@]}" \
      > "$log" 2>&1
  fi
  echo "== $spec: exit $? ($(tail -2 "$log" | tr '\n' ' '))"
done
