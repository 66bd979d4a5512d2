# shellcheck shell=bash
# SPDX-License-Identifier: Apache-2.0
# Sourced by gpu-verify.sh and gpu-diagnose.sh. The lent GPU machine returns only a few files from
# $OUT, so a script writes into a scratch folder, $out, packed into $final/<name>.tgz when the
# script ends, fails or is stopped (TERM, INT: `timeout` sends TERM). A KILL loses the archive:
# what must survive that goes straight into $final (gpu-verify.sh copies stages.txt there).
#   gpu_output <name> <default folder when $OUT is unset>
gpu_output() {
  final=${OUT:-$2}
  out=$(mktemp -d)
  mkdir -p "$final"
  gpu_output_name=$1
  trap 'tar czf "$final/$gpu_output_name.tgz" -C "$out" .' EXIT
  trap 'exit 143' TERM
  trap 'exit 130' INT
}
