#!/usr/bin/env bash
# Start-up and attach of one selection against the kernel's own floor, in the test VMs (QEMU,
# single-threaded TCG: compare within a boot). Per kernel, in one boot and per round:
#   - the floor (where retsnoop attaches single kprobes): the same kprobe events retsnoop would
#     define for the functions its dry run resolves, defined and enabled through tracefs alone
#     (no BPF, no retsnoop), then disabled and removed;
#   - retsnoop from exec to "Receiving data...", with its -vv phase times, then its detach.
# A first, unmeasured retsnoop run (-e '*sys_bpf' alone) warms the guest's memory.
# Prints the times, the ratio of exec-to-ready to the floor's define + enable per round and for
# the least of each over the rounds (the host's other work only adds time), and the phases.
#
# With --modes, each round runs the selection once per attach flag instead, and the report gives
# each mode's exec-to-ready and their ratio to the first mode's, per round and least of each,
# and the instructions the verifier processed per program (-v).
# With --bpf-floor (and --modes), each round also runs rs-startup-floor on the same functions:
# minimal programs, an entry and an exit one per function, attached by single kprobes and by
# fentry/fexit; the report gives -K's and -F's least exec-to-ready over their floor's.
#
# Usage: bench/startup.sh [--kernel 5.10|6.1|6.12|sid|all] [--arch amd64|arm64] [--build DIR]
#                         [--rounds N] [--no-floor|--bpf-floor] [--modes 'FLAG FLAG...']
#                         [-- RETSNOOP_ARGS...]
#   --rounds    floor and retsnoop runs per boot, interleaved (default 3)
#   --no-floor  skip the floor (it takes as long as a single-kprobe attach)
#   --bpf-floor rs-startup-floor's kprobe and fentry floors in place of the tracefs one
#   --modes     attach flags to compare in the same boot, e.g. '-F -K'
#   RETSNOOP_ARGS  the selection (default -e '*sys_bpf' -a 'bpf_*')
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../tests/e2e/lib.sh"

BENCH_DIR=$REPO_DIR/bench
VM_TIMEOUT_SEC=3600

usage() { sed -n '19,26s/^# \{0,1\}//p' "$0" >&2; exit 2; }

# Mean of the numbers on stdin, two decimals.
mean() { awk '{ s += $1; n++ } END { if (n) printf "%.2f", s / n }'; }

print_report() {
  local kver=$1 rows=$2
  echo
  echo "kernel $kver (QEMU TCG, 2 vCPUs, $E2E_ARCH)"
  awk -F'\t' '
    $1 == "funcs" { printf "%s functions, retsnoop attaches them with %s\n", $2, $3 }
    $1 == "skip" { printf "not run (%s): %s\n", $2, $3 }
    $1 == "floor" { fd[$2] = $3; fa[$2] = $4; fx[$2] = $5 + $6; floor = 1 }
    $1 == "ours" { ready[$2] = $3; att[$2] = $4; det[$2] = $5; if ($2 > n) n = $2 }
    $1 == "startup" { st[$2] = $3 }
    $1 == "verified" { ver[nv++] = sprintf("  %-4s %-14s %9d", $2, $3, $4) }
    $1 == "bpffloor" {
      if (bf_least[$3] == "" || $4 < bf_least[$3]) bf_least[$3] = $4
      bf_att[$3] = $5
    }
    $1 == "mode" {
      if (!(($3) in mseen)) { mseen[$3] = 1; modes[nm++] = $3 }
      mr[$2, $3] = $4; matt[$3] = $5
      if (least[$3] == "" || $4 < least[$3]) least[$3] = $4
      if ($2 > mn) mn = $2
    }
    $1 == "phase" {
      if (!(($3) in seen)) { seen[$3] = 1; names[m++] = $3 }
      ph[$2, $3] = $4
    }
    END {
      if (nm) {
        printf "\n%-6s", "round"
        for (i = 0; i < nm; i++) printf " %12s", modes[i] " ready"
        for (i = 1; i < nm; i++) printf " %14s", modes[i] "/" modes[0]
        printf "\n"
        for (r = 1; r <= mn; r++) {
          printf "%-6d", r
          for (i = 0; i < nm; i++) printf " %11.2fs", mr[r, modes[i]]
          for (i = 1; i < nm; i++)
            printf " %13.2fx", (mr[r, modes[0]] > 0 ? mr[r, modes[i]] / mr[r, modes[0]] : 0)
          printf "\n"
        }
        printf "least of each:"
        for (i = 0; i < nm; i++) printf " %s %.2f s (%s functions)", modes[i], least[modes[i]], matt[modes[i]]
        for (i = 1; i < nm; i++)
          printf "; %s/%s %.2fx", modes[i], modes[0], (least[modes[0]] > 0 ? least[modes[i]] / least[modes[0]] : 0)
        printf "\n"
      }
      if (nv) {
        printf "\ninstructions verified per program (bpf_prog_info verified_insns):\n"
        for (i = 0; i < nv; i++) print ver[i]
      }
      for (k in bf_least) {
        fl = k == "kprobe" ? "-K" : "-F"
        printf "floor %s: least %.2f s (%s functions)", k, bf_least[k], bf_att[k]
        if (least[fl] != "" && bf_least[k] > 0) printf "; %s/floor %.2fx", fl, least[fl] / bf_least[k]
        printf "\n"
      }
      if (!n) exit
      printf "\n%-6s %9s %9s %9s | %9s %9s %8s %6s | %9s %9s %6s\n", "round", "fl.define",
        "fl.enable", "floor", "start-up", "ready", "attached", "ratio", "fl.detach", "detach", "ratio"
      for (r = 1; r <= n; r++) {
        if (floor && (r in fd)) {
          f = fd[r] + fa[r]
          printf "%-6d %8.2fs %8.2fs %8.2fs | %8.2fs %8.2fs %8s %5.2fx | %8.2fs %8.2fs %5.2fx\n", r,
            fd[r], fa[r], f, st[r], ready[r], att[r], ready[r] / f, fx[r], det[r],
            (fx[r] > 0 ? det[r] / fx[r] : 0)
        } else {
          printf "%-6d %9s %9s %9s | %8.2fs %8.2fs %8s %6s | %9s %8.2fs %6s\n", r, "-", "-", "-",
            st[r], ready[r], att[r], "-", "-", det[r], "-"
        }
      }
      # Other work on the host only ever adds time: the least of each is the steadiest figure.
      printf "\n"
      if (floor) {
        for (r = 1; r <= n; r++) {
          if (!(r in fd)) continue
          f = fd[r] + fa[r]
          if (bf == "" || f < bf) bf = f
          if (bfx == "" || fx[r] < bfx) bfx = fx[r]
        }
      }
      for (r = 1; r <= n; r++) {
        if (br == "" || ready[r] < br) br = ready[r]
        if (bd == "" || det[r] < bd) bd = det[r]
        sorted[r] = ready[r]
      }
      for (i = 1; i <= n; i++)
        for (j = i + 1; j <= n; j++)
          if (sorted[j] < sorted[i]) { t = sorted[i]; sorted[i] = sorted[j]; sorted[j] = t }
      med = n % 2 ? sorted[(n + 1) / 2] : (sorted[n / 2] + sorted[n / 2 + 1]) / 2
      printf "exec to ready: median %.2f s, least %.2f s; detach: least %.2f s\n", med, br, bd
      if (bf != "")
        printf "least of each: ready %.2f s / floor %.2f s = %.2fx; detach %.2f s / floor %.2f s = %.2fx\n",
          br, bf, br / bf, bd, bfx, (bfx > 0 ? bd / bfx : 0)
      printf "\nretsnoop -vv phases (ms, per round):\n"
      for (i = 0; i < m; i++) {
        printf "  %-34s", names[i]
        for (r = 1; r <= n; r++) printf " %9s", ((r, names[i]) in ph) ? ph[r, names[i]] : "-"
        printf "\n"
      }
    }' "$rows"
}

run_kernel() {
  local kver=$1 rounds=$2 floor=$3 modes=$4 work=$5/$1 kdir arg quoted=""
  shift 5
  kdir=$("$E2E_DIR/fetch-kernel.sh" "$kver" --arch "$E2E_ARCH")
  mkdir -p "$work"
  for arg in "$@"; do quoted+=" '${arg//\'/\'\\\'\'}'"; done
  printf "#!/bin/sh\nexec sh /guest/startup-guest.sh %s %s '%s'%s\n" "$rounds" "$floor" "$modes" "$quoted" >"$work/guest.sh"
  say "kernel $kver: measuring (logs in $work)"
  boot_guest "$kdir" "$work" "$work/guest.sh" "$VM_TIMEOUT_SEC" 2048 \
    -a "$BENCH_DIR/startup-guest.sh:/guest/startup-guest.sh" \
    -a "$BENCH_DIR/guest-lib.sh:/guest/guest-lib.sh" >"$work/rows.tsv" ||
    say "kernel $kver: the VM failed; the report holds what was measured"
  print_report "$(cat "$kdir/kernel-version")" "$work/rows.tsv"
}

main() {
  local kernels=(6.1 6.12) build=${RETSNOOP_BUILD:-} rounds=3 floor=1 modes=""
  while (($#)); do
    case "$1" in
      --kernel) [[ ${2:-} =~ ^(5\.10|6\.1|6\.12|sid|all)$ ]] || usage; [[ $2 == all ]] || kernels=("$2"); shift ;;
      --rounds) rounds=${2:?}; shift ;;
      --arch) set_arch "${2:-}" || usage; shift ;;
      --build) build=${2:?}; shift ;;
      --no-floor) floor=0 ;;
      --bpf-floor) floor=bpf ;;
      --modes) [[ ${2:-} =~ ^-[A-Za-z]( -[A-Za-z])*$ ]] || usage; modes=$2; shift ;;
      --) shift; break ;;
      *) usage ;;
    esac
    shift
  done
  (($#)) || set -- -e '*sys_bpf' -a 'bpf_*'
  [[ -n $build ]] || build=$(default_build_dir)
  guest_binaries "$build"
  local kver
  for kver in "${kernels[@]}"; do run_kernel "$kver" "$rounds" "$floor" "$modes" "$build/bench-startup" "$@"; done
}

main "$@"
