#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Compile time and peak compiler memory of the vector-add program written against each peer
# (and, for openclaw, of a round trip over 1 and over 5 buffer element types: the cost of each
# extra type)
# (vadd_raw.cpp, vadd_clhpp.cpp, vadd_boost_compute.cpp, vadd_openclaw.cpp; openclaw in both build
# modes, the default openclaw::openclaw (compiled: the unit declares, the library's sources in src/
# define, each compiled once) and openclaw::header_only, each also with the kernel typed from its
# source and including only the headers it uses), and of a translation unit that only includes
# each library's main header. BASELINE=<an older checkout> adds that tree's vector add, both modes,
# for a before/after table in the same run. Each is compiled with
# -std=c++20 -O2 -c by every compiler in CXXS, RUNS times, interleaved (a change in the machine's
# load hits every peer alike); medians of CPU time (user + system), wall time and peak memory
# (measure.sh). The algorithms units (algorithms_*.cpp: reduce + scan + sort of uints) are one
# program written with Boost.Compute and with <openclaw/algorithm.hpp>. Prints
# `csv,compile_time,...` rows and a Markdown table with the ratios to the base: CLHPP's unit of
# the same kind, Boost.Compute's for the algorithms.
#   bench/compile_time/peers.sh                 RUNS=3 CXXS=g++ bench/compile_time/peers.sh
#   bench/compile_time/peers.sh --smoke         one run, one compiler ($CXX or g++), two units
#   RUNS=9 ONLY=types bench/compile_time/peers.sh   the per-type cost alone, in more rounds
# EXTRA_FLAGS adds flags to every compilation (e.g. -I for headers outside the default paths).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
smoke=0
[ "${1:-}" = "--smoke" ] && smoke=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$here/measure.sh"
# README.md's example, exactly as the README writes it (its first ```cpp block, select_device()
# and all): the program issue 45's compile-time target is about.
awk '/^## Example/ { q = 1 } q && /^```cpp/ { b = 1; next } b && /^```/ { exit } b { print }' \
    "$root/README.md" > "$work/readme.cpp"

if [ "$smoke" = 1 ]; then
    runs=1
    compilers=${CXX:-g++}
else
    runs=${RUNS:-5}
    compilers=""
    for cxx in ${CXXS:-g++ clang++}; do
        if command -v "$cxx" > /dev/null 2>&1; then
            compilers="$compilers $cxx"
        else
            echo "# $cxx not found: left out"
        fi
    done
fi

# Boost.Compute is optional, as in the CMake build.
boost=0
printf '#include <boost/compute/core.hpp>\n' > "$work/probe.cpp"
if ${CXX:-g++} -std=c++20 ${EXTRA_FLAGS:-} -E "$work/probe.cpp" -o /dev/null 2> /dev/null; then
    boost=1
else
    echo "# Boost.Compute headers not found (Debian: libboost-dev): left out"
fi

# The units: "<label>|<peer>|<file>|<extra flags>". Header-only units define what the programs
# define before including (the OpenCL version CLHPP and the C headers target).
header() {  # name, defines..., include: writes a unit that includes one header alone
    name=$1
    shift
    : > "$work/$name.cpp"
    for line in "$@"; do
        printf '%s\n' "$line" >> "$work/$name.cpp"
    done
    printf 'int main() { return 0; }\n' >> "$work/$name.cpp"
}
header h_raw '#define CL_TARGET_OPENCL_VERSION 300' '#include <CL/cl.h>'
header h_clhpp '#define CL_HPP_ENABLE_EXCEPTIONS' '#define CL_HPP_TARGET_OPENCL_VERSION 300' \
    '#define CL_HPP_MINIMUM_OPENCL_VERSION 110' '#include <CL/opencl.hpp>'
header h_boost_core '#define CL_TARGET_OPENCL_VERSION 300' '#include <boost/compute/core.hpp>'
header h_boost_all '#define CL_TARGET_OPENCL_VERSION 300' '#include <boost/compute.hpp>'
header h_openclaw '#include <openclaw/openclaw.hpp>'
header h_openclaw_all '#include <openclaw/all.hpp>'

baseline_rev=""
if [ -n "${BASELINE:-}" ]; then
    baseline_rev=$(git -C "$BASELINE" rev-parse --short HEAD 2> /dev/null || echo "(baseline)")
fi
if [ "$smoke" = 1 ]; then
    units="program|raw C|$here/vadd_raw.cpp|
header|raw C|$work/h_raw.cpp|"
else
    units="program|raw C|$here/vadd_raw.cpp|
program|CLHPP|$here/vadd_clhpp.cpp|"
    [ "$boost" = 1 ] && units="$units
program|Boost.Compute|$here/vadd_boost_compute.cpp|"
    units="$units
program|openclaw (openclaw::openclaw; each unit)|$here/vadd_openclaw.cpp|-DOPENCLAW_SEPARATE_COMPILATION
program|openclaw (openclaw::openclaw; kernel typed from source)|$here/vadd_openclaw.cpp|-DOPENCLAW_SEPARATE_COMPILATION -DOPENCLAW_BENCH_FROM_SOURCE=1
program|openclaw (openclaw::openclaw; buffer + platform + program headers)|$here/vadd_openclaw.cpp|-DOPENCLAW_SEPARATE_COMPILATION -DOPENCLAW_BENCH_FEW_HEADERS=1
program|openclaw (openclaw::openclaw; all.hpp: every side wing too)|$here/vadd_openclaw.cpp|-DOPENCLAW_SEPARATE_COMPILATION -DOPENCLAW_BENCH_ALL_HEADERS=1
program|openclaw (openclaw::header_only)|$here/vadd_openclaw.cpp|
program|openclaw (openclaw::header_only; kernel typed from source)|$here/vadd_openclaw.cpp|-DOPENCLAW_BENCH_FROM_SOURCE=1
program|openclaw (openclaw::header_only; buffer + platform + program headers)|$here/vadd_openclaw.cpp|-DOPENCLAW_BENCH_FEW_HEADERS=1
program|openclaw README example (openclaw::openclaw)|$work/readme.cpp|-DOPENCLAW_SEPARATE_COMPILATION
program|openclaw README example (openclaw::header_only)|$work/readme.cpp|
program|openclaw examples/nbody, 193 lines (openclaw::openclaw)|$root/examples/nbody/main.cpp|-DOPENCLAW_SEPARATE_COMPILATION"
    if [ -n "${BASELINE:-}" ]; then
        units="$units
program|openclaw $baseline_rev (openclaw::compiled; each unit)|$BASELINE/bench/compile_time/vadd_openclaw.cpp|-I$BASELINE/include -DOPENCLAW_SEPARATE_COMPILATION
program|openclaw $baseline_rev (header-only)|$BASELINE/bench/compile_time/vadd_openclaw.cpp|-I$BASELINE/include
program|openclaw $baseline_rev README example (openclaw::openclaw)|$work/readme.cpp|-I$BASELINE/include -DOPENCLAW_SEPARATE_COMPILATION"
    fi
    for source in "$root"/src/*.cpp; do
        units="$units
library|openclaw::openclaw: src/$(basename "$source"), compiled once|$source|-DOPENCLAW_SEPARATE_COMPILATION"
    done
    units="$units
types|raw C (1 buffer element type)|$here/element_types.cpp|-DOPENCLAW_BENCH_RAW=1 -DOPENCLAW_BENCH_TYPES=1
types|raw C (5 buffer element types)|$here/element_types.cpp|-DOPENCLAW_BENCH_RAW=1 -DOPENCLAW_BENCH_TYPES=5
types|openclaw (1 buffer element type)|$here/element_types.cpp|-DOPENCLAW_SEPARATE_COMPILATION -DOPENCLAW_BENCH_TYPES=1
types|openclaw (5 buffer element types)|$here/element_types.cpp|-DOPENCLAW_SEPARATE_COMPILATION -DOPENCLAW_BENCH_TYPES=5
header|raw C|$work/h_raw.cpp|
header|CLHPP|$work/h_clhpp.cpp|"
    [ "$boost" = 1 ] && units="$units
algorithms|Boost.Compute|$here/algorithms_boost_compute.cpp|"
    units="$units
algorithms|openclaw (openclaw::openclaw)|$here/algorithms_openclaw.cpp|-DOPENCLAW_SEPARATE_COMPILATION
algorithms|openclaw (openclaw::header_only)|$here/algorithms_openclaw.cpp|"
    [ "$boost" = 1 ] && units="$units
header|Boost.Compute|$work/h_boost_core.cpp|
header|Boost.Compute (boost/compute.hpp)|$work/h_boost_all.cpp|"
    units="$units
header|openclaw (openclaw::openclaw)|$work/h_openclaw.cpp|-DOPENCLAW_SEPARATE_COMPILATION
header|openclaw (openclaw::header_only)|$work/h_openclaw.cpp|
header|openclaw (openclaw::openclaw; all.hpp)|$work/h_openclaw_all.cpp|-DOPENCLAW_SEPARATE_COMPILATION"
fi

# Read through a file, not a pipe, so that the loops run in this shell (exit, counters). ONLY
# keeps one kind of unit (program, types, algorithms or header), for more rounds of it in the same time.
echo "$units" | awk -F'|' -v only="${ONLY:-}" 'only == "" || $1 == only' > "$work/units"
echo "# compile time: -std=c++20 -O2 -c, median of $runs interleaved runs; CPU = user + system"
echo
echo "| compiler | unit | peer | CPU s | wall s | peak MiB | CPU / base | memory / base |"
echo "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |"
for cxx in $compilers; do
    version=$(compiler_version "$cxx")
    rm -f "$work"/samples.*
    i=0
    while [ "$i" -lt "$runs" ]; do
        n=0
        while IFS='|' read -r what peer file flags; do
            n=$((n + 1))
            # shellcheck disable=SC2086  # flags is a word list
            if ! timed "$cxx" -std=c++20 -O2 $flags -I"$root/include" ${EXTRA_FLAGS:-} -c "$file" \
                -o "$work/unit.o" >> "$work/samples.$n" 2> "$work/errors"; then
                echo "compile_time/peers.sh: $cxx failed on $file:" >&2
                cat "$work/errors" >&2
                exit 1
            fi
        done < "$work/units"
        i=$((i + 1))
    done
    n=0
    while IFS='|' read -r what peer file flags; do
        n=$((n + 1))
        printf '%s|%s|%s %s %s\n' "$what" "$peer" "$(median 2 "$work/samples.$n")" \
            "$(median 1 "$work/samples.$n")" \
            "$(median 3 "$work/samples.$n" | awk '{printf "%.0f", $1 / 1024}')"
    done < "$work/units" > "$work/medians"
    while IFS='|' read -r what peer figures; do
        set -- $figures
        field=$(echo "$peer" | tr ',' ';')  # a comma would shift the CSV's columns
        # The ratios are to CLHPP's unit of the same kind (Boost.Compute's for the algorithms:
        # CLHPP has none), compiled by the same compiler.
        base_peer=CLHPP
        [ "$what" = algorithms ] && base_peer=Boost.Compute
        base=$(awk -F'|' -v w="$what" -v b="$base_peer" '$1 == w && $2 == b {print $3}' "$work/medians")
        if [ -n "$base" ]; then
            ratios=$(echo "$base" | awk -v c="$1" -v m="$3" '{printf "%.2fx | %.2fx", c / $1, ($3 > 0 ? m / $3 : 0)}')
        else
            ratios="- | -"
        fi
        echo "| $version | $what | $peer | $1 | $2 | $3 | $ratios |"
        echo "csv,compile_time,$what $version cpu,$field,0,$1,s" >> "$work/csv"
        echo "csv,compile_time,$what $version wall,$field,0,$2,s" >> "$work/csv"
        echo "csv,compile_time,$what $version memory,$field,0,$3,MiB" >> "$work/csv"
    done < "$work/medians"
    # The compiled library as a whole: the sum of its units (each compiled once, in parallel
    # where the build runs jobs side by side).
    awk -F'|' '$1 == "library" {split($3, f, " "); cpu += f[1]; if (f[3] > mem) mem = f[3]}
        END {if (cpu > 0) printf "%.2f %.0f\n", cpu, mem}' "$work/medians" > "$work/library"
    if [ -s "$work/library" ]; then
        set -- $(cat "$work/library")
        echo "| $version | library | openclaw::openclaw: all of src/ (sum of CPU, largest peak) | $1 | | $2 | | |"
        echo "csv,compile_time,library $version cpu,openclaw::openclaw total,0,$1,s" >> "$work/csv"
    fi
    # What one more buffer element type costs: (5 types - 1 type) / 4, for the C API (the host
    # vectors, which any library's program has) and for openclaw; the difference is openclaw's.
    # The median of the rounds' own differences: the two units of a round run back to back, so a
    # change in the machine's load cancels out (the difference of two medians does not).
    for peer in "raw C" openclaw; do
        one=$(awk -F'|' -v p="$peer (1 " '$1 == "types" && index($2, p) == 1 {print NR}' "$work/units")
        five=$(awk -F'|' -v p="$peer (5 " '$1 == "types" && index($2, p) == 1 {print NR}' "$work/units")
        per_type=""
        if [ -n "$one" ] && [ -n "$five" ]; then
            paste -d' ' "$work/samples.$one" "$work/samples.$five" |
                awk '{print ($5 - $2) / 4, ($6 - $3) / 4 / 1024}' > "$work/per_type"
            per_type="$(median 1 "$work/per_type" | awk '{printf "%.3f", $1}') $(median 2 "$work/per_type" | awk '{printf "%.1f", $1}')"
        fi
        if [ -n "$per_type" ]; then
            set -- $per_type
            echo "| $version | each buffer element type beyond the first | $peer | $1 | | $2 | | |"
            echo "csv,compile_time,extra element type $version cpu,$peer,0,$1,s" >> "$work/csv"
        fi
    done
done
echo
cat "$work/csv"
