#!/usr/bin/env bash
# Symbolizer figures on the Debian 6.1 -dbg vmlinux (~590 MB of DWARF): time to resolve
# ':kernel/bpf/*.c' cold and warm with the number of functions found, and time to symbolize a
# 96-frame stack cold and warm.
#
# Usage: bench/symbolize.sh            Env: BUILD_DIR (default build-bench), VMLINUX (skip fetch)
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$repo/build-bench}

vmlinux() {
  if [[ -n ${VMLINUX:-} ]]; then
    echo "$VMLINUX"
    return
  fi
  local dir
  dir=$("$repo/tests/e2e/fetch-kernel.sh" 6.1 --dbg)
  echo "$dir/vmlinux-$(cat "$dir/kernel-version")"
}

# Evicts the image from the page cache, so the next run reads it from disk like a first start.
drop_page_cache() {
  dd if="$1" iflag=nocache count=0 status=none
}

# Runs the benchmarks matching $2 on a page-cold image; CSV rows go to $3.
run() {
  drop_page_cache "$1"
  RETSNOOP_VMLINUX=$1 "$build/bench/symbolize_bench" --benchmark_filter="$2" \
    --benchmark_out="$3" --benchmark_out_format=csv >&2
}

# Prints "<time> <unit> <label>" of the Nth (1-based) CSV row named like $2 in file $1.
row() {
  awk -F, -v name="\"$2" -v n="$3" '
    index($1, name) == 1 && ++seen == n { gsub(/"/, "", $8); printf "%.3g %s %s", $3, $5, $8 }
  ' "$1"
}

tmp=""
trap '[[ -z $tmp ]] || rm -rf "$tmp"' EXIT

main() {
  local img
  img=$(vmlinux)
  cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$build" --target symbolize_bench -j2 >/dev/null
  tmp=$(mktemp -d)
  run "$img" 'PathGlob' "$tmp/glob.csv"
  run "$img" 'Stack' "$tmp/stack.csv"

  echo
  echo "vmlinux: $img"
  echo ":kernel/bpf/*.c  cold, page cache dropped:      $(row "$tmp/glob.csv" BM_PathGlobCold/ 1)"
  echo ":kernel/bpf/*.c  cold, no CU index cache:       $(row "$tmp/glob.csv" BM_PathGlobCold/ 2)"
  echo ":kernel/bpf/*.c  warm, CU index cache:          $(row "$tmp/glob.csv" BM_PathGlobWarm 1)"
  echo "96-frame stack   cold, page cache dropped:      $(row "$tmp/stack.csv" BM_StackCold/ 1)"
  echo "96-frame stack   cold, fresh DWARF handle:      $(row "$tmp/stack.csv" BM_StackCold/ 2)"
  echo "96-frame stack   warm:                          $(row "$tmp/stack.csv" BM_StackWarm 1)"
}

main "$@"
