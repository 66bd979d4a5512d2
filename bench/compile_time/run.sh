#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Compile-time cost of typing kernels from their OpenCL C source: tu.cpp compiled with the 17
# kernels of kernels300.cl (300 lines) typed by hand and read from the source, with g++ and
# clang++ at -O2; CPU time (user + system), wall time and peak memory (measure.sh), medians of
# RUNS interleaved runs (CPU time is the figure to read on a shared machine). Then the constexpr
# budget the parse uses (clang -fconstexpr-steps, g++ -fconstexpr-ops-limit) and the template
# depth each form needs. Prints Markdown tables (bench/RESULTS.md holds a copy).
# EXTRA_FLAGS adds flags to every compilation: -DOPENCLAW_SEPARATE_COMPILATION measures the unit
# as the default openclaw::openclaw target compiles it (the library's bodies compiled once, in
# src/); without it the unit is header-only.
#   bench/compile_time/run.sh            RUNS=3 CXXS="g++" bench/compile_time/run.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
runs=${RUNS:-5}
compilers=${CXXS:-"g++ clang++"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$here/measure.sh"

# The header openclaw_embed_kernels() would generate, from the same script.
cmake -DOPENCLAW_EMBED_INPUT="$here/kernels300.cl" -DOPENCLAW_EMBED_OUTPUT="$work/kernels300.cl.hpp" \
      -DOPENCLAW_EMBED_DISPLAY=kernels300.cl -DOPENCLAW_EMBED_NAME=kernels300 \
      -DOPENCLAW_EMBED_NAMESPACE=kernels -P "$root/cmake/openclawEmbedKernels.cmake"

compile() {  # compiler, extra flags...: exit status of one compilation
    cxx=$1
    shift
    "$cxx" -std=c++20 -O2 -I"$root/include" -I"$work" ${EXTRA_FLAGS:-} "$@" -c "$here/tu.cpp" \
        -o "$work/tu.o" 2> "$work/errors"
}

one_run() {  # compiler, defines...: appends "<wall s> <cpu s> <peak KiB>" of one compilation
    cxx=$1
    shift
    timed "$cxx" -std=c++20 -O2 -I"$root/include" -I"$work" ${EXTRA_FLAGS:-} "$@" -c "$here/tu.cpp" \
        -o "$work/tu.o"
}

measure() {  # compiler, all: "<hand wall> <hand cpu> <hand MiB> <parsed wall> <parsed cpu> <parsed MiB>"
    : > "$work/hand"
    : > "$work/parsed"
    i=0
    while [ "$i" -lt "$runs" ]; do  # interleaved, so that a change in the machine's load hits both
        one_run "$1" -DOPENCLAW_BENCH_PARSE=0 -DOPENCLAW_BENCH_ALL="$2" >> "$work/hand"
        one_run "$1" -DOPENCLAW_BENCH_PARSE=1 -DOPENCLAW_BENCH_ALL="$2" >> "$work/parsed"
        i=$((i + 1))
    done
    for f in hand parsed; do
        printf '%s %s %s ' "$(median 1 "$work/$f")" "$(median 2 "$work/$f")" \
            "$(median 3 "$work/$f" | awk '{printf "%.0f", $1 / 1024}')"
    done
    echo
}

smallest() {  # compiler, flag prefix, low, high, defines...: the smallest value that compiles
    cxx=$1 flag=$2 low=$3 high=$4
    shift 4
    if ! compile "$cxx" "$flag$high" "$@"; then
        echo ">$high"
        return
    fi
    while [ $((high - low)) -gt $((high / 50 + 1)) ]; do
        mid=$(((low + high) / 2))
        if compile "$cxx" "$flag$mid" "$@"; then high=$mid; else low=$mid; fi
    done
    echo "$high"
}

echo "kernels300.cl: $(wc -l < "$here/kernels300.cl") lines; $runs runs each, medians; flags: ${EXTRA_FLAGS:-none (header-only)}"
echo
echo "| compiler | kernels typed | CPU s by hand | CPU s from source | CPU added | wall s by hand | wall s from source | peak MiB by hand | peak MiB from source |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for cxx in $compilers; do
    version=$(compiler_version "$cxx")
    for all in 0 1; do
        set -- $(measure "$cxx" "$all")
        added=$(echo "$5 - $2" | bc)
        what=$([ "$all" = 1 ] && echo "all 17" || echo "the last one")
        echo "| $version -O2 | $what | $2 | $5 | $added | $1 | $4 | $3 | $6 |"
    done
done

echo
echo "| compiler | constexpr budget the parse needs (all 17 kernels) | default limit | template depth needed: by hand / from source |"
echo "| --- | ---: | ---: | ---: |"
for cxx in $compilers; do
    version=$(compiler_version "$cxx")
    case "$cxx" in
        *clang*) flag=-fconstexpr-steps= limit=1048576 ;;
        *) flag=-fconstexpr-ops-limit= limit=33554432 ;;
    esac
    needed=$(smallest "$cxx" "$flag" 1000 "$limit" -DOPENCLAW_BENCH_PARSE=1)
    depth_hand=$(smallest "$cxx" -ftemplate-depth= 1 1024 -DOPENCLAW_BENCH_PARSE=0)
    depth_parsed=$(smallest "$cxx" -ftemplate-depth= 1 1024 -DOPENCLAW_BENCH_PARSE=1)
    echo "| $version | ${flag}$needed | $limit | $depth_hand / $depth_parsed |"
done
