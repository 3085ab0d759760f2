#!/usr/bin/env bash
# Runs the end-to-end cases (tests/e2e/cases/*.case) in VMs of real Debian kernels: one boot per
# kernel (plus one for the VMLINUX cases), cases run serially in it, the leak check after each
# case; boots run side by side, one per host core.
#
# Usage: run-e2e.sh [--kernel LIST|all] [--arch amd64|arm64|all] [--build DIR]
#                   [--build-arm64 DIR] [--jobs N] [FILTER]
#   --kernel   kernels to test, comma-separated from 5.10, 6.1, 6.12, 6.12-rt (PREEMPT_RT), sid
#              (Debian sid's newest); all (the default) is the five on amd64, 6.1, 6.12 and sid on
#              arm64. sid runs every case; 6.1 (single kprobes, the other mechanism family),
#              6.12-rt (6.12's kernel under PREEMPT_RT) and arm64's 6.12 the ESSENTIAL ones;
#              amd64's 6.12, whose mechanisms are sid's, and 5.10 (linux510.case: its stacks
#              have another shape) those that name them. A case's KERNELS list overrides all
#              that, its REQUIRES skips it visibly where the kernel lacks a feature
#              (kernel_features below)
#   --arch     the guests' architecture (default amd64); arm64 runs the cases whose ARCHS lists
#              it; all runs both
#   --build    build dir holding the static binaries (env RETSNOOP_BUILD, default <repo>/build,
#              <repo>/build-arm64 for arm64); --build-arm64 sets the arm64 one apart
#   --jobs     boots at once (env RS_E2E_JOBS, default the host's cores); 1 streams the output
#   FILTER     run only cases whose NAME matches this extended regex
# Env: RETSNOOP_CACHE (kernel cache root, see fetch-kernel.sh), RS_E2E_CASES (directory of case
# files, default tests/e2e/cases).
# Logs go to <build>/e2e/<kernel>/ (VMLINUX cases: <build>/e2e/<kernel>/vmlinux/). Ends with
# "N passed, N failed, N skipped"; exits non-zero if any case failed or a VM failed or splatted.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

KERNELS_AMD64=(5.10 6.1 6.12 6.12-rt sid)
KERNELS_ARM64=(6.1 6.12 sid)
FULL_KERNELS=" sid "
declare -A ESSENTIAL_KERNELS=([amd64]=" 6.1 6.12-rt " [arm64]=" 6.1 6.12 ")
# PREEMPT_RT changes locking and preemption under the programs, not how DWARF is read: its boot
# runs the cases without a vmlinux only, and no gigabyte -dbg package is fetched for it.
NO_VMLINUX_KERNELS=" 6.12-rt "
CASES_DIR=${RS_E2E_CASES:-$E2E_DIR/cases}
# A case's limit when it sets no TIMEOUT. CI hosts have run the guests three times slower than a
# quiet 2-core host, and a generous limit costs nothing while the case passes; a hung guest still
# ends at its silence limit (run-vm.sh -s).
CASE_TIMEOUT_SEC=300
BOOT_MARGIN_SEC=120  # boot, poweroff and per-case leak checks on top of the cases' timeouts
PASSED=0
FAILED=0
SKIPPED=0
RERUNS=0

usage() { sed -n '6,23s/^# \{0,1\}//p' "$0" >&2; exit 2; }

# What each kernel of the matrix can do, as `retsnoop -V -v` reports it there (README, Kernels),
# in the words REQUIRES uses: cookies (BPF cookies, 5.15+), multi-kprobe (5.18+ with
# CONFIG_FPROBE), kprobe-session (6.10+), fentry (trampolines, with or without link cookies),
# func-args (bpf_get_func_arg, 5.17+), tp-cookie (tracepoint and kprobe perf-event cookies, 5.15+).
kernel_features() {
  case "$E2E_ARCH/$1" in
    amd64/5.10) echo "kprobes fentry" ;;
    amd64/6.1) echo "kprobes cookies fentry func-args tp-cookie" ;;
    arm64/6.1) echo "kprobes cookies func-args tp-cookie" ;;
    */6.12 | amd64/6.12-rt | */sid) echo "kprobes cookies fentry func-args tp-cookie multi-kprobe kprobe-session" ;;
  esac
}

# Writes the cases selected for kernel $1 and regex $2 that want the DWARF vmlinux ($3 = 1) or
# not ($3 = 0) to $4 (blocks) and $5 (names); prints "COUNT TIMEOUT_SUM SKIPPED TIMEOUT_MAX
# MODULE..." for them.
select_cases() {
  awk -v kver="$1" -v filter="$2" -v want_vmlinux="$3" -v blocks="$4" -v names="$5" -v arch="$E2E_ARCH" \
    -v full="$FULL_KERNELS" -v ess_kernels="${ESSENTIAL_KERNELS[$E2E_ARCH]}" -v features=" $(kernel_features "$1") " \
    -v default_timeout="$CASE_TIMEOUT_SEC" '
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
      if (timeout > longest) longest = timeout
    }
    /^NAME / { flush(); name = $2; block = ""; kernels = ""; archs = "amd64"; timeout = default_timeout; needs_vmlinux = 0; mod = ""
      essential = 0; requires = "" }
    /^ESSENTIAL/ { essential = 1 }
    /^REQUIRES / { requires = substr($0, 10) }
    /^ARCHS / { archs = substr($0, 7) }
    /^KERNELS / { kernels = substr($0, 9) }
    /^TIMEOUT / { timeout = $2 }
    /^VMLINUX/ { needs_vmlinux = 1 }
    /^MODULE / { mod = mod " " $2 }
    { block = block $0 "\n" }
    END { if (dup) exit 2; flush(); printf "%d %d %d %d%s\n", count, total, skipped, longest, mods }
  ' "$CASES_DIR"/*.case
}

# Counts PASS/FAIL per selected case from the guest's log into "$work/result" (PASSED FAILED
# RERUNS); a case that never reported failed, and so does a VM that failed or splatted.
tally() {
  local work=$1 vm=$2 status=$3 name passed=0 failed=0
  while IFS= read -r name; do
    if grep -q "^PASS $name (" "$work/cases.log"; then
      passed=$((passed + 1))
    else
      grep -q "^FAIL $name " "$work/cases.log" || echo "FAIL $name: never ran (the VM ended first)"
      failed=$((failed + 1))
    fi
  done <"$work/names.txt"
  if ((status >= 2)); then
    echo "FAIL $vm: the VM failed or the kernel splatted (logs in $work)"
    failed=$((failed + 1))
  fi
  echo "$passed $failed $(grep -c "^RERUN " "$work/cases.log" || true)" >"$work/result"
}

# plan_boot ARCH KVER VMLINUX WORK FILTER: selects the cases of one boot (VMLINUX 1: those that
# want the DWARF vmlinux) into WORK and, when there are any, adds the boot to BOOT_PLAN. A
# DWARF vmlinux in the standard place changes what every case prints (source lines) and costs
# memory and boot time: the cases that ask for it get a VM of their own.
plan_boot() {
  local arch=$1 kver=$2 vmlinux=$3 work=$4 filter=$5 count total skipped longest modules
  E2E_ARCH=$arch
  rm -rf "$work" && mkdir -p "$work"
  read -r count total skipped longest modules < <(select_cases "$kver" "$filter" "$vmlinux" "$work/cases.txt" \
    "$work/names.txt") || die "cannot read the case files"
  SKIPPED=$((SKIPPED + skipped))
  ((count > 0)) || return 0
  # The guest prints a line per case: silence past the longest case's limit is a hung guest.
  echo "$((total + BOOT_MARGIN_SEC)) $((longest + BOOT_MARGIN_SEC)) $modules" >"$work/boot.txt"
  # Longest boots first, so that the last to finish is a short one; emulated arm64 runs slower.
  local weight=$((count * 2))
  [[ $arch == amd64 ]] || weight=$((count * 3))
  BOOT_PLAN+=("$weight $arch $kver $vmlinux $work")
}

# run_boot ARCH KVER VMLINUX WORK: boots the kernel for the cases plan_boot chose; its output,
# the guest's included, goes to stdout. Leaves the counts in WORK/result.
run_boot() {
  local arch=$1 kver=$2 vmlinux=$3 work=$4 timeout silence modules kdir mem=2048 args=() m status=0
  local vm=vm-$arch-$kver label=""
  E2E_ARCH=$arch
  guest_binaries "${BUILD_OF[$arch]}" optional
  read -r timeout silence modules <"$work/boot.txt"
  if ((vmlinux)); then
    kdir=$("$E2E_DIR/fetch-kernel.sh" "$kver" --dbg --arch "$arch")
    args+=(--vmlinux)
    mem=3072
    vm+=-vmlinux
    label=" with its DWARF vmlinux"
  else
    kdir=$("$E2E_DIR/fetch-kernel.sh" "$kver" --arch "$arch")
  fi
  for m in $modules; do args+=(-m "$m"); done
  printf '#!/bin/sh\nexec sh /guest/run-cases.sh /guest/cases.txt %d\n' "$CASE_TIMEOUT_SEC" >"$work/guest.sh"
  args+=(-a "$E2E_DIR/guest/run-cases.sh:/guest/run-cases.sh" -a "$work/cases.txt:/guest/cases.txt"
    -a "$E2E_DIR/scan-splats.sh:/bin/scan-splats" -a "$E2E_DIR/scripts:/guest/scripts"
    -a "$REPO_DIR/README.md:/guest/README.md")

  echo "=== kernel $(cat "$kdir/kernel-version") ($arch)$label: $(wc -l <"$work/names.txt") case(s)"
  RS_VM_SILENCE=$silence boot_guest "$kdir" "$work" "$work/guest.sh" "$timeout" "$mem" "${args[@]}" |
    tee "$work/cases.log" || status=$?
  tally "$work" "$vm" "$status"
}

# Adds the counts of the boot in $1 to the totals.
add_result() {
  local passed=0 failed=1 reruns=0
  [[ -s $1/result ]] && read -r passed failed reruns <"$1/result"
  PASSED=$((PASSED + passed)) FAILED=$((FAILED + failed)) RERUNS=$((RERUNS + reruns))
}

# Waits for one running boot, prints its log whole (boots that ran side by side do not
# interleave) and counts it.
reap_boot() {
  local pid
  wait -n -p pid "${!RUNNING[@]}" || true
  cat "${RUNNING[$pid]}/boot.log"
  add_result "${RUNNING[$pid]}"
  unset "RUNNING[$pid]"
}

# Runs BOOT_PLAN, JOBS boots at a time. Each guest runs its cases one after another on one
# emulated CPU thread, so boots side by side share the host's cores and no guest waits on
# another; with one job the guest's output streams as it comes.
run_plan() {
  local entry arch kver vmlinux work
  declare -gA RUNNING=()
  while read -r _ arch kver vmlinux work; do
    [[ -n $work ]] || continue
    if ((JOBS == 1)); then
      run_boot "$arch" "$kver" "$vmlinux" "$work"
      add_result "$work"
      continue
    fi
    while ((${#RUNNING[@]} >= JOBS)); do reap_boot; done
    if ((vmlinux)); then say "booting $kver ($arch, DWARF vmlinux)"; else say "booting $kver ($arch)"; fi
    run_boot "$arch" "$kver" "$vmlinux" "$work" >"$work/boot.log" 2>&1 &
    RUNNING[$!]=$work
  done < <(for entry in "${BOOT_PLAN[@]}"; do echo "$entry"; done | sort -rn -k1,1)
  while ((${#RUNNING[@]})); do reap_boot; done
}

main() {
  local kernels=() archs=(amd64) filter="" arch kver
  declare -gA BUILD_OF=([amd64]=${RETSNOOP_BUILD:-} [arm64]="")
  BOOT_PLAN=()
  JOBS=${RS_E2E_JOBS:-$(nproc)}
  while (($#)); do
    case "$1" in
      --kernel)
        kernels=()
        if [[ ${2:-} != all ]]; then
          IFS=, read -r -a kernels <<<"${2:-}"
          ((${#kernels[@]})) || usage
        fi
        for kver in "${kernels[@]}"; do
          case "$kver" in 5.10 | 6.1 | 6.12 | 6.12-rt | sid) ;; *) usage ;; esac
        done
        shift ;;
      --build) BUILD_OF[amd64]=${2:?} BUILD_OF[arm64]=${2:?}; shift ;;
      --build-arm64) BUILD_OF[arm64]=${2:?}; shift ;;
      --arch)
        case "${2:-}" in
          all) archs=(amd64 arm64) ;;
          *) set_arch "${2:-}" || usage; archs=("$2") ;;
        esac
        shift ;;
      --jobs) JOBS=${2:?}; shift ;;
      -h | --help) usage ;;
      -*) usage ;;
      *) filter=$1 ;;
    esac
    shift
  done
  [[ $JOBS =~ ^[1-9][0-9]*$ ]] || usage
  for arch in "${archs[@]}"; do
    E2E_ARCH=$arch
    [[ -n ${BUILD_OF[$arch]} ]] || BUILD_OF[$arch]=$(default_build_dir)
    local arch_kernels=("${kernels[@]}")
    if ((${#arch_kernels[@]} == 0)); then
      if [[ $arch == amd64 ]]; then arch_kernels=("${KERNELS_AMD64[@]}"); else arch_kernels=("${KERNELS_ARM64[@]}"); fi
    fi
    guest_binaries "${BUILD_OF[$arch]}" optional
    guest_busybox >/dev/null  # fetched once, before boots side by side want it
    for kver in "${arch_kernels[@]}"; do
      local work=${BUILD_OF[$arch]}/e2e/$kver boots=${#BOOT_PLAN[@]}
      plan_boot "$arch" "$kver" 0 "$work" "$filter"
      [[ $NO_VMLINUX_KERNELS == *" $kver "* ]] || plan_boot "$arch" "$kver" 1 "$work/vmlinux" "$filter"
      ((${#BOOT_PLAN[@]} > boots)) || say "kernel $kver ($arch): no case selected"
    done
  done
  run_plan
  ((RERUNS == 0)) || echo "$RERUNS case(s) ran twice because the kernel dropped probe hits (RERUN lines)"
  echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
  ((FAILED == 0))
}

main "$@"
