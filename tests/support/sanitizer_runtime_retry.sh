#!/usr/bin/env bash
# Test launcher for AddressSanitizer builds (CROSSCOMPILING_EMULATOR of the test programs).
#
# LeakSanitizer's stop-the-world tracer thread occasionally crashes by itself while the process
# exits ("Tracer caught signal 11", then "LeakSanitizer has encountered a fatal error"; a known
# intermittent fault of the sanitizer runtime, google/sanitizers issue 1353). That is not a
# finding about the program: no leak check ran. Only that failure is retried, at most twice, and
# each retry is announced; a leak report, an ASan/UBSan report ("ERROR: AddressSanitizer:
# <kind>"), a failed assertion or any other failure is returned as it is.
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
  if ! grep -q 'LeakSanitizer has encountered a fatal error' "$log" ||
     ! grep -q 'Tracer caught signal' "$log" ||
     grep -q -E 'ERROR: (LeakSanitizer: detected|AddressSanitizer: |UndefinedBehaviorSanitizer)|runtime error:|FAILED:' "$log"; then
    exit "$status"
  fi
  echo "sanitizer_runtime_retry.sh: LeakSanitizer's tracer crashed (no leak check ran); running again (attempt $((attempt + 1)) of 3)"
done
