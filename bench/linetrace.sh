#!/usr/bin/env bash
# What --line-trace costs, in one boot of the test VM with the kernel's DWARF vmlinux
# (tests/e2e): the time to attach line probes, per 100 of them, and the time of the failing
# bpf(BPF_MAP_CREATE) call of `simfail bpf-bad-map-max-entries-array` traced with and without a
# line trace of array_map_alloc_check, as ratios to the untraced call of the same boot (absolute
# times under QEMU/TCG are noise).
#
#   attach   retsnoop -v ... --line-trace for GLOBS: "attached N line probes in T s", and the
#            functions' own attach time in the same run
#   untraced the calling loop alone (simfail -t), measured before and after each traced mode
#   plain    -e '*sys_bpf' -a 'array_map_alloc*'
#   lines    the same with --line-trace=array_map_alloc_check
#
# Usage: bench/linetrace.sh [--kernel 6.1|6.12] [--build DIR] [-n N] [--globs 'G1 G2']
#   default: --kernel 6.12, --build <repo>/build, -n 20000 traced calls, --globs '__sys_bpf
#   map_create' (some hundreds of lines). Env: VM_TIMEOUT (default 1800).
set -euo pipefail

# shellcheck source=../tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../tests/e2e/lib.sh"

usage() { sed -n '/^# Usage:/,/^[^#]/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2; exit 2; }

guest_script() {
  cat <<EOF
#!/bin/sh
N=$1
GLOBS="$2"
EOF
  cat <<'EOF'
CASE=bpf-bad-map-max-entries-array
VMLINUX=/usr/lib/debug/boot/vmlinux-$(uname -r)
TRACE="-k $VMLINUX -e *sys_bpf -a array_map_alloc*"
loop_ns() { simfail -q -t -n "$1" "$CASE" | awk '/ns per run/ { print $2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

WORK=/tmp out=/tmp/lt.out
# shellcheck source=guest-lib.sh
. /guest/guest-lib.sh
# start ARGS...: retsnoop in the background until it is ready (or says why it is not).
start() {
  start_and_wait_ready "$@" || { echo "retsnoop did not start: $(head -1 "$out")"; exit 1; }
  # Once ready, the rest of kallsyms is read in the background: let it finish first.
  sleep 3
}

finish() { kill -INT "$pid"; wait "$pid" || true; }

sleep 5
line_args=
for g in $GLOBS; do line_args="$line_args --line-trace=$g"; done
# shellcheck disable=SC2086 # word lists
start -v $TRACE $line_args
finish
probes=$(awk '/^attached [0-9]+ line probes in/ { print $2, $6 }' "$out")
funcs=$(grep -m1 -E '^attached [0-9]+ functions? ' "$out" || true)
echo "attach: $probes s (line probes, seconds) for --line-trace $GLOBS"
set -- $probes
echo "attach per 100 line probes: $(awk -v n="$1" -v s="$2" 'BEGIN { printf "%.2f", s * 100 / n }') s"
echo "functions: ${funcs:-no line}"
grep -E 'refused|skipped' "$out" | head -5

# mode NAME ARGS...: loop time per traced call, as a ratio to the untraced mean around it.
mode() {
  name=$1
  shift
  before=$(loop_ns $((N * 5)))
  start "$@"
  ns=$(loop_ns "$N")
  finish
  after=$(loop_ns $((N * 5)))
  base=$(awk -v a="$before" -v b="$after" 'BEGIN { printf "%.0f", (a + b) / 2 }')
  sessions=$(grep -c '^[0-9].* TID/PID ' "$out" || true)
  printf '%-8s base %6s ns  traced %8s ns  %6sx untraced  (%s sessions)\n' "$name" "$base" "$ns" \
    "$(ratio "$ns" "$base")" "$sessions"
  eval "${name}_ns=$ns ${name}_base=$base"
}

for _ in 1 2 3; do loop_ns "$N" >/dev/null; done
# shellcheck disable=SC2086
mode plain $TRACE
# shellcheck disable=SC2086
mode lines $TRACE --line-trace=array_map_alloc_check
# The traced loops of one boot compared directly: the untraced mean drifts between modes more
# than the line probes cost.
# shellcheck disable=SC2154 # set by mode()
echo "lines/plain per failing call: $(ratio "$lines_ns" "$plain_ns")x"
EOF
}

main() {
  local kver=6.12 build=${RETSNOOP_BUILD:-$REPO_DIR/build} n=20000 globs='__sys_bpf map_create'
  local kdir work
  while (($#)); do
    case "$1" in
      --kernel) kver=${2:?}; shift ;;
      --build) build=${2:?}; shift ;;
      -n) n=${2:?}; shift ;;
      --globs) globs=${2:?}; shift ;;
      *) usage ;;
    esac
    shift
  done
  guest_binaries "$build"
  kdir=$("$E2E_DIR/fetch-kernel.sh" "$kver" --dbg)
  work=$build/bench/linetrace-$kver
  mkdir -p "$work"
  guest_script "$n" "$globs" >"$work/guest.sh"
  echo "=== kernel $(cat "$kdir/kernel-version"): line probes and $n failing bpf() calls per mode"
  boot_guest "$kdir" "$work" "$work/guest.sh" "${VM_TIMEOUT:-1800}" 3072 --vmlinux \
    -a "$REPO_DIR/bench/guest-lib.sh:/guest/guest-lib.sh"
}

main "$@"
