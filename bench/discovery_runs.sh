#!/bin/sh
# The timed runs of bench/discovery.sh: wall time of whole `retsnoop --dry-run` runs, from start
# to the end of discovery. Runs in the test VM (busybox sh, the Debian kernel's DWARF vmlinux in
# /usr/lib/debug/boot, tracefs readable) and, with --names-only, on the host, which has no vmlinux
# matching its kernel. Prints "BENCH <label> <ms> [note]" lines.
#
# Usage: discovery_runs.sh [--names-only]
set -eu

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Where retsnoop, running as root, keeps the compile-unit index cache.
cache=/var/cache/retsnoop

# Milliseconds since boot, in steps of 10 (busybox date has no %N).
now_ms() {
  read -r up _ </proc/uptime
  echo "${up%.*}${up#*.}0"
}

# bench fresh|keep LABEL NOTE ARGS...: the fastest of three `retsnoop --dry-run ARGS` (a TCG
# guest's speed follows the host's load); "fresh" empties the index cache before each.
bench() {
  mode=$1 label=$2 note=$3
  shift 3
  best=""
  for _ in 1 2 3; do
    [ "$mode" = keep ] || rm -rf "$cache"
    start=$(now_ms)
    retsnoop --dry-run "$@" >/dev/null
    took=$(($(now_ms) - start))
    [ -n "$best" ] && [ "$best" -le "$took" ] || best=$took
  done
  echo "BENCH $label $best $note"
}

# Prints the "Matched functions" count of a verbose dry run with ARGS.
matched() {
  retsnoop --dry-run -v "$@" 2>/dev/null | awk '/^Matched functions:/ {print $3}'
}

# Writes every k-th of the unique vmlinux function names to $2 so that it holds about $1.
pick_names() {
  awk -v want="$1" 'NR == FNR { n++; next } FNR % int(n / want) == 0 && picked < want {
      print; picked++ }' "$work/all-names" "$work/all-names" >"$2"
}

path_globs() {
  set -- -e '*sys_bpf' -a ':kernel/bpf/*.c'
  bench fresh path-glob-cold "no index cache" "$@"
  rm -rf "$cache"
  echo "BENCH path-glob-index $(retsnoop --dry-run -vv "$@" 2>&1 >/dev/null |
    awk '/^Indexed [0-9]+ compile units/ {print $(NF - 1)}')"
  bench keep path-glob-warm "index cache" "$@"
  echo "BENCH path-glob-functions $(matched "$@")"
}

main() {
  [ "${1:-}" = --names-only ] || path_globs
  bench keep baseline "-e '*sys_bpf' only" -e '*sys_bpf'

  retsnoop --dry-run -v -e '*' 2>/dev/null |
    awk '/^Functions to attach:/ { on = 1; next } on && NF == 3 && !seen[$2]++ { print $2 }' \
      >"$work/all-names"
  for n in 1000 10000; do
    pick_names "$n" "$work/names-$n"
    bench keep "names-$n" "$(matched -e '*sys_bpf' -a "@$work/names-$n") matched" \
      -e '*sys_bpf' -a "@$work/names-$n"
  done
}

main "$@"
