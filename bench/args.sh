#!/usr/bin/env bash
# The cost of -A per traced call, in the test VMs (QEMU, single-threaded TCG: compare ratios,
# not absolute figures). The traced function is do_prlimit(), which getrlimit() reaches on every
# call and which takes the task (far larger than 1 KiB) by pointer: with
# -C args.max-sized-arg-size=1024, -A reads 1 KiB there per call. do_prlimit() is the entry
# function and succeeds, so each call opens a session that is not reported: what is measured is
# the BPF side (with -A: capture, the argument record and the discard header) and user space
# draining the ring buffer, not printing. Per kernel and mechanism it prints the extra ns per
# call without -A, with -A, and with -A reading 16 bytes per pointer instead of 1 KiB (what the
# record costs apart from the copy), each also as a ratio to the untraced call timed in the same
# boot.
#
# Usage: bench/args.sh [--kernel 6.1|6.12|all] [--build DIR] [--calls N] [--rounds N]
#   --build   build dir with the static binaries (env RETSNOOP_BUILD, default <repo>/build)
#   --calls   getrlimit() calls per measurement (default 500000)
#   --rounds  interleaved rounds of every measurement; the table shows medians (default 3)
set -euo pipefail

# shellcheck source=../tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../tests/e2e/lib.sh"

usage() { sed -n '13,16s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2; exit 2; }

# Debian's 6.1 has no multi-kprobes (no CONFIG_FPROBE): single kprobes are its default.
mechs_of() {
  case "$1" in
    6.1) echo "-K -F" ;;
    *) echo "-M -F" ;;
  esac
}

# The guest half (busybox sh). Times are in centiseconds of /proc/uptime.
guest_script() {
  cat <<EOF
#!/bin/sh
CALLS=$1
MECHS='$2'
ROUNDS=$3
WORK=/tmp
out=/tmp/args.out
EOF
  cat <<'EOF'
# shellcheck source=guest-lib.sh
. /guest/guest-lib.sh

time_calls() {
  t0=$(now_cs)
  simfail -q -n "$CALLS" syscall-getrlimit
  echo $(($(now_cs) - t0))
}

# Extra ns per call over the untraced time ($base) with do_prlimit traced by MECH ($1) and the
# other retsnoop options.
measure() {
  mech=$1 what=$2
  shift 2
  if ! start_and_wait_ready "$mech" -e do_prlimit "$@"; then
    wait "$pid"
    echo "skip $mech $what: $(tail -n 1 "$out")"
    return
  fi
  traced=$(time_calls)
  kill -INT "$pid"
  wait "$pid"
  echo "call $mech $what $(((traced - base) * 10000000 / CALLS)) $((base * 10000000 / CALLS))"
}

# Interleaved rounds, each with its own untraced time: a host busy for a while skews one round,
# not one variant.
round=0
while [ "$round" -lt "$ROUNDS" ]; do
  round=$((round + 1))
  base=$(time_calls)
  for mech in $MECHS; do
    measure "$mech" without-A
    measure "$mech" with-A -A -C args.max-sized-arg-size=1024
    measure "$mech" with-A-16B -A -C args.max-sized-arg-size=16
  done
done
EOF
}

# "call MECH WHAT EXTRA_NS UNTRACED_NS" lines, one per round, as a table of medians.
print_table() {
  awk '
    function median(list,   n, v, i, j, t) {
      n = split(list, v, " ")
      for (i = 2; i <= n; i++)
        for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
      return v[int((n + 1) / 2)]
    }
    /^skip / { print; next }
    /^call / {
      key = $2 " " $3
      if (!(key in extra)) order[++n] = key
      extra[key] = extra[key] " " $4
      ratio[key] = ratio[key] " " $4 / $5
      base = base " " $5
    }
    END {
      printf "untraced getrlimit(): %d ns (median of the rounds)\n", median(base)
      for (i = 1; i <= n; i++) {
        split(order[i], k, " ")
        printf "%-3s %-10s +%6d ns per call (%.2fx the untraced call; rounds: %s ns)\n", k[1], k[2],
          median(extra[order[i]]), median(ratio[order[i]]), substr(extra[order[i]], 2)
      }
    }'
}

main() {
  local kernels=(6.1 6.12) build=${RETSNOOP_BUILD:-$REPO_DIR/build} calls=500000 rounds=3 kver kdir work
  while (($#)); do
    case "$1" in
      --kernel)
        case "${2:?}" in
          all) ;;
          6.1 | 6.12) kernels=("$2") ;;
          *) usage ;;
        esac
        shift ;;
      --build) build=${2:?}; shift ;;
      --calls) calls=${2:?}; shift ;;
      --rounds) rounds=${2:?}; shift ;;
      *) usage ;;
    esac
    shift
  done
  guest_binaries "$build"
  for kver in "${kernels[@]}"; do
    kdir=$("$E2E_DIR/fetch-kernel.sh" "$kver")
    work=$build/bench/args-$kver
    mkdir -p "$work"
    guest_script "$calls" "$(mechs_of "$kver")" "$rounds" >"$work/guest.sh"
    echo "=== kernel $(cat "$kdir/kernel-version"): $calls getrlimit() calls, do_prlimit traced, $rounds rounds"
    boot_guest "$kdir" "$work" "$work/guest.sh" 3600 1024 \
      -a "$REPO_DIR/bench/guest-lib.sh:/guest/guest-lib.sh" | tee "$work/guest.log" | print_table
  done
}

main "$@"
