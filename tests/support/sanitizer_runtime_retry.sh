#!/usr/bin/env bash
# Test launcher for AddressSanitizer builds (CROSSCOMPILING_EMULATOR of the test programs).
#
# Two faults of the sanitizer runtime itself are retried, because neither is a finding about the
# program (no check ran, or the runtime failed in its own bookkeeping):
# - LeakSanitizer's stop-the-world tracer thread crashing while the process exits ("Tracer caught
#   signal 11", then "LeakSanitizer has encountered a fatal error"; google/sanitizers issue 1353);
# - the runtime failing its own munmap when a thread exits ("AddressSanitizer failed to
#   deallocate ... unable to unmap", a CHECK in sanitizer_posix.cpp), seen once in a CI run of
#   test_cache, whose threads each run PoCL's compiler.
# Only those failures are retried, at most twice, and each retry is announced; a leak report, an
# ASan/UBSan report ("ERROR: AddressSanitizer: <kind>"), a failed assertion or any other failure
# is returned as it is.
set -u
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for attempt in 1 2 3; do
  "$@" >"$log" 2>&1
  status=$?
  cat "$log"
  if [[ $status -eq 0 ]] || [[ $attempt -eq 3 ]]; then
    exit "$status"
  fi
  tracer=0
  unmap=0
  grep -q 'LeakSanitizer has encountered a fatal error' "$log" &&
    grep -q 'Tracer caught signal' "$log" && tracer=1
  grep -q 'AddressSanitizer failed to deallocate' "$log" &&
    grep -q 'CHECK failed: sanitizer_posix.cpp.*unable to unmap' "$log" && unmap=1
  if [[ $tracer -eq 0 && $unmap -eq 0 ]] ||
     grep -q -E 'ERROR: (LeakSanitizer: detected|AddressSanitizer: |UndefinedBehaviorSanitizer)|runtime error:|FAILED:' "$log"; then
    exit "$status"
  fi
  echo "sanitizer_runtime_retry.sh: the sanitizer runtime failed by itself ($([[ $tracer -eq 1 ]] && echo "LeakSanitizer's tracer crashed" || echo "its munmap failed")); running again (attempt $((attempt + 1)) of 3)"
done
