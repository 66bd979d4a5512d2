#!/usr/bin/env bash
# Runs openclaw's test programs under valgrind memcheck and fails if memcheck reports an error
# (invalid access, uninitialised value, definite leak) that tests/reliability/valgrind.supp does not
# name; that file suppresses errors inside the driver stack only (ICD loader, ld.so, PoCL, LLVM).
# Not part of CI (5 minutes on two cores, 12 when PoCL must compile its kernels first);
# docs/reliability.md has the last result.
#
#   scripts/valgrind-tests.sh [BUILD_DIR]     BUILD_DIR defaults to build/gcc (cmake --workflow
#                                             --preset gcc builds it)
# Environment: OPENCLAW_STRESS_ITERATIONS (default here 50, the stress tests' launches per thread),
# POCL_LLVM_CPU_NAME (default here haswell: PoCL compiles kernels for the host CPU, and valgrind
# 3.19 cannot run AVX-512 code, so they are compiled for a CPU without it).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/gcc}
if ! command -v valgrind > /dev/null; then
  echo "valgrind is not installed (apt-get install valgrind)" >&2
  exit 2
fi
if [ ! -x "$build/tests/test_errors" ]; then
  echo "no test programs in $build: run cmake --workflow --preset gcc first" >&2
  exit 2
fi
export POCL_LLVM_CPU_NAME=${POCL_LLVM_CPU_NAME:-haswell}
export OPENCLAW_STRESS_ITERATIONS=${OPENCLAW_STRESS_ITERATIONS:-50}
interposer="$PWD/$build/tests/reliability/libopenclaw_interposer.so"
logs="$build/valgrind"
rm -rf "$logs"
mkdir -p "$logs"

# name | environment | program and arguments
runs=()
for test in "$build"/tests/test_*; do
  name=$(basename "$test")
  [[ -f $test && -x $test && $name != *.* ]] || continue
  case $name in
    test_no_icd) runs+=("$name|OCL_ICD_VENDORS=$PWD/$build/tests/empty-vendors OCL_ICD_FILENAMES=|$test") ;;
    test_injected_failures) runs+=("$name|LD_PRELOAD=$interposer|$test") ;;
    *) runs+=("$name||$test") ;;
  esac
done
scenarios="$build/tests/reliability/openclaw_fault_scenarios"
for scenario in $("$scenarios" --list); do
  runs+=("scenario $scenario||$scenarios $scenario")
done
for mode in return static; do
  runs+=("exit in flight ($mode)||$build/tests/reliability/openclaw_exit_in_flight $mode")
done

failed=0
printf '%-36s %8s %7s %s\n' program seconds errors result
for run in "${runs[@]}"; do
  IFS='|' read -r name environment command <<< "$run"
  log="$logs/${name// /_}.log"
  # A first run outside valgrind fills PoCL's kernel cache: compiling kernels under valgrind
  # would take most of the time and test LLVM, not openclaw.
  env $environment $command > /dev/null 2>&1 || true
  start=$(date +%s)
  status=0
  env $environment valgrind --tool=memcheck --error-exitcode=99 --leak-check=full \
    --show-leak-kinds=definite --errors-for-leak-kinds=definite --track-origins=yes \
    --num-callers=40 --suppressions=tests/reliability/valgrind.supp --gen-suppressions=all \
    --log-file="$log" $command > "$log.out" 2>&1 || status=$?
  seconds=$(( $(date +%s) - start ))
  errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$log" 2> /dev/null | tail -1)
  result=ok
  if [ "$status" -eq 99 ]; then
    result="memcheck errors (see $log)"
    failed=1
  elif [ "$status" -ne 0 ]; then
    result="the program failed with status $status (see $log.out)"
    failed=1
  fi
  printf '%-36s %8s %7s %s\n' "$name" "$seconds" "${errors:-?}" "$result"
done
if [ "$failed" -ne 0 ]; then
  echo "valgrind: FAILED"
  exit 1
fi
echo "valgrind: every program ran without a memcheck error outside the suppressed driver stack"
