# SPDX-License-Identifier: Apache-2.0
# Sourced by the compile-time benchmarks (run.sh, peers.sh): the cost of one command and medians.
# timed <command...> prints "<wall s> <cpu s> <peak KiB>": GNU time when installed (Debian: time),
# else the same figures from wait4() through python3, else wall time only (0 for the others).

timed() {
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -o "$work/time" -f "%e %U %S %M" "$@" || return 1
        awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' "$work/time"
    elif command -v python3 > /dev/null 2>&1; then
        python3 -c '
import os, sys, time
start = time.monotonic()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(sys.argv[1], sys.argv[1:])
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
wall = time.monotonic() - start
if os.waitstatus_to_exitcode(status) != 0:
    sys.exit(1)
print("%.2f %.2f %d" % (wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss))
' "$@"
    else
        start=$(date +%s.%N)
        "$@" || return 1
        echo "$(echo "$(date +%s.%N) - $start" | bc) 0 0"
    fi
}

median() {  # column of a samples file
    cut -d' ' -f"$1" "$2" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

compiler_version() {  # "g++ 12.2.0", "Debian clang version 14.0.6"
    "$1" --version | head -n 1 | sed 's/ (.*)//'
}
