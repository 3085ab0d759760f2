#!/usr/bin/env bash
# Runs the end-to-end cases (tests/e2e/cases/*.case) in VMs of real Debian kernels: one VM boot
# per kernel, the cases of that kernel serially inside it, the leak check after each case.
#
# Usage: run-e2e.sh [--kernel 6.1|6.12|all] [--build DIR] [FILTER]
#   --kernel   kernels to test (default all)
#   --build    build dir holding the static binaries (env RETSNOOP_BUILD, default <repo>/build)
#   FILTER     run only cases whose NAME matches this extended regex
# Env: RETSNOOP_CACHE (kernel cache root, see fetch-kernel.sh), RS_E2E_CASES (directory of case
# files, default tests/e2e/cases).
# Logs go to <build>/e2e/<kernel>/. Ends with "N passed, N failed"; exits non-zero if any case
# failed or a VM failed or splatted.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

KERNELS_ALL=(6.1 6.12)
CASES_DIR=${RS_E2E_CASES:-$E2E_DIR/cases}
BOOT_MARGIN_SEC=120  # boot, poweroff and per-case leak checks on top of the cases' timeouts
PASSED=0
FAILED=0

usage() { sed -n '5,10s/^# \{0,1\}//p' "$0" >&2; exit 2; }

# Writes the cases selected for kernel $1 and regex $2 to $3 (blocks) and $4 (names); prints
# "COUNT TIMEOUT_SUM NEEDS_VMLINUX MODULE..." for them.
select_cases() {
  awk -v kver="$1" -v filter="$2" -v blocks="$3" -v names="$4" '
    function flush() {
      if (name == "") return
      if (seen[name]++) { print "duplicate case NAME " name > "/dev/stderr"; dup = 1; exit 2 }
      if (name !~ filter) return
      if (kernels != "" && index(" " kernels " ", " " kver " ") == 0) return
      printf "%s", block > blocks
      print name > names
      count++; total += timeout; vmlinux += needs_vmlinux; mods = mods mod
    }
    /^NAME / { flush(); name = $2; block = ""; kernels = ""; timeout = 60; needs_vmlinux = 0; mod = "" }
    /^KERNELS / { kernels = substr($0, 9) }
    /^TIMEOUT / { timeout = $2 }
    /^VMLINUX/ { needs_vmlinux = 1 }
    /^MODULE / { mod = mod " " $2 }
    { block = block $0 "\n" }
    END { if (dup) exit 2; flush(); printf "%d %d %d%s\n", count, total, (vmlinux > 0), mods }
  ' "$CASES_DIR"/*.case
}

# Counts PASS/FAIL per selected case from the guest's log; a case that never reported failed.
tally() {
  local names=$1 log=$2 name
  while IFS= read -r name; do
    if grep -q "^PASS $name (" "$log"; then
      PASSED=$((PASSED + 1))
    else
      grep -q "^FAIL $name " "$log" || echo "FAIL $name: never ran (the VM ended first)"
      FAILED=$((FAILED + 1))
    fi
  done <"$names"
}

run_kernel() {
  local kver=$1 filter=$2 work=$3/$1 count total vmlinux modules kdir mem=2048 args=() m status=0
  rm -rf "$work" && mkdir -p "$work"
  read -r count total vmlinux modules < <(select_cases "$kver" "$filter" "$work/cases.txt" \
    "$work/names.txt") || die "cannot read the case files"
  if ((count == 0)); then
    say "kernel $kver: no case selected"
    return 0
  fi
  if ((vmlinux)); then
    kdir=$("$E2E_DIR/fetch-kernel.sh" "$kver" --dbg)
    args+=(--vmlinux)
    mem=3072
  else
    kdir=$("$E2E_DIR/fetch-kernel.sh" "$kver")
  fi
  for m in $modules; do args+=(-m "$m"); done
  printf '#!/bin/sh\nexec sh /guest/run-cases.sh /guest/cases.txt\n' >"$work/guest.sh"
  args+=(-a "$E2E_DIR/guest/run-cases.sh:/guest/run-cases.sh" -a "$work/cases.txt:/guest/cases.txt"
    -a "$E2E_DIR/scan-splats.sh:/bin/scan-splats")

  echo "=== kernel $(cat "$kdir/kernel-version"): $count case(s)"
  boot_guest "$kdir" "$work" "$work/guest.sh" $((total + BOOT_MARGIN_SEC)) "$mem" "${args[@]}" |
    tee "$work/cases.log" || status=$?
  tally "$work/names.txt" "$work/cases.log"
  if ((status >= 2)); then
    echo "FAIL vm-$kver: the VM failed or the kernel splatted (logs in $work)"
    FAILED=$((FAILED + 1))
  fi
}

main() {
  local kernels=("${KERNELS_ALL[@]}") build=${RETSNOOP_BUILD:-$REPO_DIR/build} filter=""
  while (($#)); do
    case "$1" in
      --kernel)
        case "${2:-}" in
          all) ;;
          6.1 | 6.12) kernels=("$2") ;;
          *) usage ;;
        esac
        shift ;;
      --build) build=${2:?}; shift ;;
      -h | --help) usage ;;
      -*) usage ;;
      *) filter=$1 ;;
    esac
    shift
  done
  guest_binaries "$build" optional
  local kver
  for kver in "${kernels[@]}"; do run_kernel "$kver" "$filter" "$build/e2e"; done
  echo "$PASSED passed, $FAILED failed"
  ((FAILED == 0))
}

main "$@"
