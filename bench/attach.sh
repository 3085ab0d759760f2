#!/usr/bin/env bash
# Attach and detach timings and the cost per traced call, in the test VMs (QEMU, single-threaded
# TCG: absolute figures are far slower than on hardware; compare mechanisms and kernels). Prints
# one table per kernel: start-up before attaching, attach and detach time for each mechanism and
# function count, then the extra ns a failing bpf() call costs when traced.
#
# Usage: bench/attach.sh [--kernel 6.1|6.12|all] [--arch amd64|arm64] [--build DIR]
#                        [--sizes "100 1000 10000 all"] [--calls N] [--expedite-rcu]
#   --arch    the guests' architecture (default amd64; arm64 wants the build-arm64 binaries)
#   --build   build dir with the static binaries (env RETSNOOP_BUILD, default <repo>/build,
#             <repo>/build-arm64 with --arch arm64)
#   --sizes   function counts to attach ("all": every traceable vmlinux function)
#   --calls   failing bpf() calls per cost measurement (default 50000)
#   --expedite-rcu  also measure single kprobes and fentry with -C attach.expedite-rcu=yes
# Env RS_BENCH_MECHS: the attach options to compare instead of all the kernel has, e.g. "-K";
# a comma joins the options of one mechanism ("-K,-Cattach.expedite-rcu=yes").
# Caps (env RS_BENCH_CAPS, "MECH:N ..."): fentry and single kprobes stop at 1,000 functions. Their
# attach is one kernel update of a shared ftrace filter per function, each copying the filter:
# quadratic. On 6.1, 10,000 single kprobes had attached 8,451 functions after 30 minutes (one
# perf event per probe); as kprobe events, arming them was still going after 18 minutes. arm64
# kprobes are breakpoints outside ftrace and attach fast, but detach as slowly: the cap holds.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../tests/e2e/lib.sh"

BENCH_DIR=$REPO_DIR/bench
VM_TIMEOUT_SEC=7200
CAPS=${RS_BENCH_CAPS:--F:1000 -K:1000}

usage() { sed -n '7,16s/^# \{0,1\}//p' "$0" >&2; exit 2; }

EXPEDITE=",-Cattach.expedite-rcu=yes"

# Multi-kprobe only where the kernel has it: Debian builds 6.1 (both architectures) and 6.12
# arm64 without CONFIG_FPROBE; 6.1 arm64 has no BPF trampolines either (fentry came with 6.4).
mechanisms() {
  case "$E2E_ARCH $1" in
    "amd64 6.1") echo "-K -F" ;;
    "arm64 6.1") echo "-K" ;;
    "arm64 6.12") echo "-K -F" ;;
    *) echo "-M -K -F" ;;
  esac
}

# The function whose cost per failing bpf() call is measured, and an entry function that never
# runs (the non-entry role). On arm64 the syscall entry is __arm64_sys_bpf, which 6.1 lists twice
# in available_filter_functions and retsnoop skips as ambiguous: __sys_bpf is traced there.
traced_calls() {
  case "$E2E_ARCH" in
    amd64) echo "__x64_sys_bpf __x64_sys_reboot" ;;
    arm64) echo "__sys_bpf __arm64_sys_reboot" ;;
  esac
}

mech_name() {
  case "$1" in
    -M) echo "multi-kprobe" ;;
    -K) echo "kprobe" ;;
    -F) echo "fentry" ;;
    *"$EXPEDITE") echo "$(mech_name "${1%"$EXPEDITE"}")+rcu" ;;
    *) echo "$1" ;;
  esac
}

# With --expedite-rcu, each single-probe mechanism once more with expedited RCU grace periods.
with_expedited() {
  local m out=""
  for m in $1; do
    out+=" $m"
    [[ $m == -M ]] || out+=" $m$EXPEDITE"
  done
  echo "${out# }"
}

# Turns the guest's rows into the table.
print_table() {
  local kver=$1 rows=$2 kind mech a b c d e
  echo
  echo "kernel $kver (QEMU TCG, 2 vCPUs, $E2E_ARCH)"
  printf '%-14s %10s %9s %10s %9s %9s\n' mechanism functions attached start-up attach detach
  while IFS=$'\t' read -r kind mech a b c d e; do
    case "$kind" in
      attach) printf '%-14s %10s %9s %9ss %8ss %8ss\n' "$(mech_name "$mech")" "$a" "$b" "$c" "$d" "$e" ;;
      skip) printf '%-14s %10s   not run: %s\n' "$(mech_name "$mech")" "$a" "$b" ;;
    esac
  done <"$rows"
  echo
  echo "cost of a failing bpf() call, $(traced_calls | cut -d' ' -f1) traced as entry / non-entry function:"
  while IFS=$'\t' read -r kind mech a b; do
    [[ $kind == call ]] || continue
    if [[ $mech == none ]]; then
      printf '  untraced: %s ns per call\n' "$b"
    else
      printf '  %-13s %-10s +%s ns per call\n' "$(mech_name "$mech")" "$a" "$b"
    fi
  done <"$rows"
}

run_kernel() {
  local kver=$1 sizes=$2 calls=$3 work=$4/$1 expedite=$5 kdir mechs
  kdir=$("$E2E_DIR/fetch-kernel.sh" "$kver" --arch "$E2E_ARCH")
  mkdir -p "$work"
  mechs=${RS_BENCH_MECHS:-$(mechanisms "$kver")}
  ((expedite)) && mechs=$(with_expedited "$mechs")
  printf '#!/bin/sh\nexec sh /guest/attach-guest.sh "%s" "%s" "%s" %s %s\n' \
    "$mechs" "$sizes" "$CAPS" "$calls" "$(traced_calls)" >"$work/guest.sh"
  say "kernel $kver: measuring (logs in $work)"
  boot_guest "$kdir" "$work" "$work/guest.sh" "$VM_TIMEOUT_SEC" 2048 \
    -a "$BENCH_DIR/attach-guest.sh:/guest/attach-guest.sh" \
    -a "$BENCH_DIR/guest-lib.sh:/guest/guest-lib.sh" >"$work/rows.tsv" ||
    say "kernel $kver: the VM failed; the table holds what was measured"
  print_table "$(cat "$kdir/kernel-version")" "$work/rows.tsv"
}

main() {
  local kernels=(6.1 6.12) build=${RETSNOOP_BUILD:-}
  local sizes="100 1000 10000 all" calls=50000 expedite=0
  while (($#)); do
    case "$1" in
      --kernel)
        case "${2:-}" in
          all) ;;
          6.1 | 6.12) kernels=("$2") ;;
          *) usage ;;
        esac
        shift ;;
      --arch) set_arch "${2:-}" || usage; shift ;;
      --build) build=${2:?}; shift ;;
      --sizes) sizes=${2:?}; shift ;;
      --calls) calls=${2:?}; shift ;;
      --expedite-rcu) expedite=1 ;;
      *) usage ;;
    esac
    shift
  done
  [[ -n $build ]] || build=$(default_build_dir)
  guest_binaries "$build"
  local kver
  for kver in "${kernels[@]}"; do run_kernel "$kver" "$sizes" "$calls" "$build/bench-attach" "$expedite"; done
}

main "$@"
