#!/usr/bin/env bash
# Runs the end-to-end cases (tests/e2e/cases/*.case) in VMs of real Debian kernels: one boot per
# kernel (plus one for the VMLINUX cases), cases run serially, the leak check after each case.
#
# Usage: run-e2e.sh [--kernel 5.10|6.1|6.12|sid|all] [--arch amd64|arm64] [--build DIR] [FILTER]
#   --kernel   kernels to test (default all: 5.10, 6.1, 6.12 and Debian sid's newest on amd64;
#              6.1, 6.12 and sid on arm64). 6.1 and sid run every case, 6.12 the ESSENTIAL ones,
#              5.10 those that name it (linux510.case: its stacks have another shape); a case's
#              KERNELS list overrides all that, its REQUIRES skips it visibly where the kernel
#              lacks a feature (kernel_features below)
#   --arch     the guests' architecture (default amd64); arm64 runs the cases whose ARCHS lists it
#   --build    build dir holding the static binaries (env RETSNOOP_BUILD, default <repo>/build,
#              <repo>/build-arm64 for arm64)
#   FILTER     run only cases whose NAME matches this extended regex
# Env: RETSNOOP_CACHE (kernel cache root, see fetch-kernel.sh), RS_E2E_CASES (directory of case
# files, default tests/e2e/cases).
# Logs go to <build>/e2e/<kernel>/ (VMLINUX cases: <build>/e2e/<kernel>/vmlinux/). Ends with
# "N passed, N failed"; exits non-zero if any case failed or a VM failed or splatted.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

KERNELS_AMD64=(5.10 6.1 6.12 sid)
KERNELS_ARM64=(6.1 6.12 sid)
FULL_KERNELS=" 6.1 sid "
ESSENTIAL_KERNELS=" 6.12 "
CASES_DIR=${RS_E2E_CASES:-$E2E_DIR/cases}
BOOT_MARGIN_SEC=120  # boot, poweroff and per-case leak checks on top of the cases' timeouts
PASSED=0
FAILED=0
SKIPPED=0
RERUNS=0
BOOTS=0

usage() { sed -n '5,16s/^# \{0,1\}//p' "$0" >&2; exit 2; }

# What each kernel of the matrix can do, as `retsnoop -V -v` reports it there (README, Kernels),
# in the words REQUIRES uses: cookies (BPF cookies, 5.15+), multi-kprobe (5.18+ with
# CONFIG_FPROBE), kprobe-session (6.10+), fentry (trampolines with cookies), func-args
# (bpf_get_func_arg, 5.17+), tp-cookie (tracepoint and kprobe perf-event cookies, 5.15+).
kernel_features() {
  case "$E2E_ARCH/$1" in
    amd64/5.10) echo "kprobes" ;;
    amd64/6.1) echo "kprobes cookies fentry func-args tp-cookie" ;;
    arm64/6.1) echo "kprobes cookies func-args tp-cookie" ;;
    */6.12 | */sid) echo "kprobes cookies fentry func-args tp-cookie multi-kprobe kprobe-session" ;;
  esac
}

# Writes the cases selected for kernel $1 and regex $2 that want the DWARF vmlinux ($3 = 1) or
# not ($3 = 0) to $4 (blocks) and $5 (names); prints "COUNT TIMEOUT_SUM MODULE..." for them.
select_cases() {
  awk -v kver="$1" -v filter="$2" -v want_vmlinux="$3" -v blocks="$4" -v names="$5" -v arch="$E2E_ARCH" \
    -v full="$FULL_KERNELS" -v ess_kernels="$ESSENTIAL_KERNELS" -v features=" $(kernel_features "$1") " '
    function flush(   i, n, need) {
      if (name == "") return
      if (seen[name]++) { print "duplicate case NAME " name > "/dev/stderr"; dup = 1; exit 2 }
      if (name !~ filter || needs_vmlinux != want_vmlinux) return
      if (kernels != "" && index(" " kernels " ", " " kver " ") == 0) return
      if (kernels == "" && index(full, " " kver " ") == 0 &&
          !(essential && index(ess_kernels, " " kver " "))) return
      if (index(" " archs " ", " " arch " ") == 0) return
      n = split(requires, need, " ")
      for (i = 1; i <= n; i++)
        if (index(features, " " need[i] " ") == 0) {
          printf "SKIP %s: needs %s, which kernel %s lacks\n", name, need[i], kver > "/dev/stderr"
          skipped++
          return
        }
      printf "%s", block > blocks
      print name > names
      count++; total += timeout; mods = mods mod
    }
    /^NAME / { flush(); name = $2; block = ""; kernels = ""; archs = "amd64"; timeout = 60; needs_vmlinux = 0; mod = ""
      essential = 0; requires = "" }
    /^ESSENTIAL/ { essential = 1 }
    /^REQUIRES / { requires = substr($0, 10) }
    /^ARCHS / { archs = substr($0, 7) }
    /^KERNELS / { kernels = substr($0, 9) }
    /^TIMEOUT / { timeout = $2 }
    /^VMLINUX/ { needs_vmlinux = 1 }
    /^MODULE / { mod = mod " " $2 }
    { block = block $0 "\n" }
    END { if (dup) exit 2; flush(); printf "%d %d %d%s\n", count, total, skipped, mods }
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
  RERUNS=$((RERUNS + $(grep -c "^RERUN " "$log" || true)))
}

# Boots kernel $1 once for the cases matching $2 that want the DWARF vmlinux ($3 = 1) or not
# ($3 = 0); logs go to $4. Boots nothing when no case is selected.
run_boot() {
  local kver=$1 filter=$2 vmlinux=$3 work=$4 count total skipped modules kdir mem=2048 args=() m status=0
  local vm=vm-$kver label=""
  mkdir -p "$work"
  read -r count total skipped modules < <(select_cases "$kver" "$filter" "$vmlinux" "$work/cases.txt" \
    "$work/names.txt") || die "cannot read the case files"
  SKIPPED=$((SKIPPED + skipped))
  ((count > 0)) || return 0
  BOOTS=$((BOOTS + 1))
  if ((vmlinux)); then
    kdir=$("$E2E_DIR/fetch-kernel.sh" "$kver" --dbg --arch "$E2E_ARCH")
    args+=(--vmlinux)
    mem=3072
    vm+=-vmlinux
    label=" with its DWARF vmlinux"
  else
    kdir=$("$E2E_DIR/fetch-kernel.sh" "$kver" --arch "$E2E_ARCH")
  fi
  for m in $modules; do args+=(-m "$m"); done
  printf '#!/bin/sh\nexec sh /guest/run-cases.sh /guest/cases.txt\n' >"$work/guest.sh"
  args+=(-a "$E2E_DIR/guest/run-cases.sh:/guest/run-cases.sh" -a "$work/cases.txt:/guest/cases.txt"
    -a "$E2E_DIR/scan-splats.sh:/bin/scan-splats")

  echo "=== kernel $(cat "$kdir/kernel-version")$label: $count case(s)"
  boot_guest "$kdir" "$work" "$work/guest.sh" $((total + BOOT_MARGIN_SEC)) "$mem" "${args[@]}" |
    tee "$work/cases.log" || status=$?
  tally "$work/names.txt" "$work/cases.log"
  if ((status >= 2)); then
    echo "FAIL $vm: the VM failed or the kernel splatted (logs in $work)"
    FAILED=$((FAILED + 1))
  fi
}

# A DWARF vmlinux in the standard place changes what every case prints (source lines) and costs
# memory and boot time: the cases that ask for it get a VM of their own, the others never see it.
run_kernel() {
  local kver=$1 filter=$2 work=$3/$1 boots=$BOOTS
  rm -rf "$work"
  run_boot "$kver" "$filter" 0 "$work"
  run_boot "$kver" "$filter" 1 "$work/vmlinux"
  ((BOOTS > boots)) || say "kernel $kver: no case selected"
}

main() {
  local kernels=() build=${RETSNOOP_BUILD:-} filter=""
  while (($#)); do
    case "$1" in
      --kernel)
        case "${2:-}" in
          all) kernels=() ;;
          5.10 | 6.1 | 6.12 | sid) kernels=("$2") ;;
          *) usage ;;
        esac
        shift ;;
      --build) build=${2:?}; shift ;;
      --arch) set_arch "${2:-}" || usage; shift ;;
      -h | --help) usage ;;
      -*) usage ;;
      *) filter=$1 ;;
    esac
    shift
  done
  [[ -n $build ]] || build=$(default_build_dir)
  if ((${#kernels[@]} == 0)); then
    if [[ $E2E_ARCH == amd64 ]]; then kernels=("${KERNELS_AMD64[@]}"); else kernels=("${KERNELS_ARM64[@]}"); fi
  fi
  guest_binaries "$build" optional
  local kver
  for kver in "${kernels[@]}"; do run_kernel "$kver" "$filter" "$build/e2e"; done
  ((RERUNS == 0)) || echo "$RERUNS case(s) ran twice because the kernel dropped probe hits (RERUN lines)"
  echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
  ((FAILED == 0))
}

main "$@"
