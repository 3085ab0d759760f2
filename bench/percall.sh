#!/usr/bin/env bash
# Where the time of a traced call goes, in one boot of the test VM (tests/e2e): the failing
# bpf(BPF_MAP_CREATE) call of `simfail bpf-bad-map-max-entries-array`, untraced and under
# retsnoop in several modes, each printed as a ratio to the untraced call of the same boot
# (absolute times under QEMU/TCG are noise).
#
#   untraced     no retsnoop
#   default      -e '*sys_bpf' -a 'array_map_alloc*', every session printed to a file
#   aggregated   the same with -C stacks.repeats=count
#   unprinted    the same with -X EINVAL: every session is sent and decoded, then dropped by the
#                error filter in user space (nothing is formatted or written)
#   unreported   the same with -L longer than any call: every session is opened, recorded and
#                stack-captured in BPF, then dropped there (no record, no user-space work)
#   filtered     the same with -n of a comm that never runs: the session is refused in BPF
#   map-create   default with map_create as the entry function instead of *sys_bpf
#   argf-pass    map-create with an --arg-filter the call passes: two members read and compared
#   argf-out     map-create with an --arg-filter the call fails: the session is refused in BPF
#   comm-out     map-create with -n of a comm that never runs, to compare argf-out with
#   non-entry    one function of the call, __sys_bpf, traced as a non-entry one (-a) under an
#                entry function that never runs: no session is ever open
#   *-F          the same with fentry/fexit (-F) instead of the kernel's default mechanism
#   no-messages  default with -C messages.enabled=no (kernel messages not captured), and
#   filtered-nomsg the same for filtered: with a case whose failing call makes the kernel log a
#                message (RS_PERCALL_CASE=bpf-lone-exit), these against default and filtered give
#                the cost of the message probes inside a session and outside any (they exit at once)
#   *@base       with --base: the mode run by the other build, right before this one's
#
# "base" is the untraced call, measured right before and after the mode (ratios to their mean);
# "loop" is the time per call inside the calling loop (simfail -t); "done" runs until retsnoop
# has written its last line for the loop (the printer may lag behind a flood), so it also counts
# the user-space work done after the loop ended. Sessions: printed in full + counted as repeats
# of a printed one, of the loop's calls. "reader" and "printer" are retsnoop's own CPU time per
# traced call, from the loop's start until the output was complete, as a ratio to the untraced
# call: its main thread, which reads the ring buffer, and its other threads (the printer), from
# the scheduler's run time of each (/proc/PID/task/TID/schedstat, in ns, not sampled at ticks).
#
# Usage: bench/percall.sh [--kernel 5.10|6.1|6.12] [--build DIR] [--base FILE] [-n N] [--rounds R]
#   default: --kernel 6.12, --build <repo>/build, -n 20000 traced calls (5 times as many
#   untraced), --rounds 1 (R: every mode R times in the same boot, one row each, to show how
#   much a mode moves between its runs). --base: the static retsnoop of another build (its
#   tests/e2e/bin/retsnoop), whose run of each mode comes right before this build's, so that a
#   change is measured against what it changes in one boot. Env: VM_TIMEOUT (default 1800); RS_VM_ICOUNT
#   (default 0): the guest clock counts instructions, 2^RS_VM_ICOUNT ns each, so that other
#   work on the host does not skew the ratios; empty: host time. RS_VM_CPUS: the guest's vCPUs (default 2; 1 on 6.1 with
#   RS_VM_ICOUNT). RS_PERCALL_MODES: the modes to run, by name (default: all).
#   RS_PERCALL_CASE: the simfail case of the loop (default bpf-bad-map-max-entries-array),
#   RS_PERCALL_FUNCS the -a options of the traced modes (default -a 'array_map_alloc*') and
#   RS_PERCALL_ENTRY their entry glob (default '*sys_bpf'), e.g. bpf-lone-exit and '-a bpf_check'
#   for a refused program load whose verifier log is a message, or mount-bad-tmpfs-size,
#   '-a path_mount -a vfs_parse_fs_param -a shmem_parse_one' and '*sys_mount' for a failing call
#   the kernel explains in one line.
set -euo pipefail

# shellcheck source=../tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../tests/e2e/lib.sh"

usage() { sed -n '/^# Usage:/,/^[^#]/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2; exit 2; }

# The guest half (busybox sh). Times are in centiseconds of /proc/uptime.
guest_script() {
  cat <<EOF
#!/bin/sh
N=$1
MODES="$2"
ROUNDS=$3
BINS="$4"
CASE="$5"
FUNCS="$6"
ENTRY="$7"
EOF
  cat <<'EOF'
# shellcheck source=guest-lib.sh
. /guest/guest-lib.sh
size() { stat -c %s /tmp/pc.out; }

# ns per call of simfail -t.
# With two vCPUs the loop runs on the first and retsnoop on the second: left to the scheduler,
# where its threads ran moved the default mode's figure by several times the untraced call
# between runs of the same binary.
LOOP_CPU= TRACER_CPU=
if [ "$(grep -c ^processor /proc/cpuinfo)" -ge 2 ]; then LOOP_CPU="taskset 1" TRACER_CPU="taskset 2"; fi
loop_ns() { $LOOP_CPU simfail -q -t -n "$1" "$CASE" | awk '/ns per run/ { print $2 }'; }

# Until the output has not grown for 1 s; echoes the uptime (cs) of its last growth.
wait_quiet() {
  prev=-1 last=$(now_cs) quiet=0
  while [ "$quiet" -lt 10 ]; do
    cur=$(size)
    if [ "$cur" != "$prev" ]; then prev=$cur last=$(now_cs) quiet=0; else quiet=$((quiet + 1)); fi
    sleep 0.1
  done
  echo "$last"
}

# Run time (ns) of process $1's main thread and of its other threads together.
cpu_ns() {
  for t in /proc/"$1"/task/*; do echo "${t##*/} $(cut -d' ' -f1 "$t/schedstat")"; done |
    awk -v main="$1" '$1 == main { m = $2; next } { o += $2 } END { printf "%.0f %.0f\n", m, o }'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; }

# mode NAME RETSNOOP_ARGS... The untraced call is measured again around each mode, and the
# mode's ratios are to the mean of the two: the host's load drifts during a boot.
mode() {
  name=$1
  shift
  case " $MODES " in *" $name "*|"  ") ;; *) return ;; esac
  [ "$RS" = retsnoop ] || name=$name@base
  before=$(loop_ns $((N * 5)))
  rm -f /tmp/pc.out /tmp/pc.err
  $TRACER_CPU $RS "$@" >/tmp/pc.out 2>/tmp/pc.err &
  pid=$!
  until grep -q 'Receiving data' /tmp/pc.out 2>/dev/null; do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "$name: retsnoop did not start: $(head -1 /tmp/pc.err)"
      return
    fi
    sleep 0.2
  done
  # Once ready, retsnoop still reads the rest of kallsyms in the background: under TCG that
  # takes the other vCPU's time for a while, and the calling loop shares one host thread with it.
  sleep 3
  cpu0=$(cpu_ns "$pid")
  t0=$(now_cs)
  ns=$(loop_ns "$N")
  last=$(wait_quiet)
  cpu=$(cpu_ns "$pid")
  kill -INT "$pid"
  rc=0; wait "$pid" || rc=$?
  after=$(loop_ns $((N * 5)))
  BASE=$(awk -v a="$before" -v b="$after" 'BEGIN { printf "%.0f", (a + b) / 2 }')
  full=$(grep -c '^[0-9].* TID/PID ' /tmp/pc.out)
  counted=$(awk '/^\.\.\. and [0-9]+ more identical/ { n += $3 } END { print n + 0 }' /tmp/pc.out)
  done_ns=$(awk -v cs=$((last - t0)) -v n="$N" 'BEGIN { printf "%.0f", cs * 1e7 / n }')
  # shellcheck disable=SC2086 # two numbers
  set -- $cpu0 $cpu
  reader=$(awk -v t=$(($3 - $1)) -v n="$N" -v b="$BASE" 'BEGIN { printf "%.1f", t / n / b }')
  printer=$(awk -v t=$(($4 - $2)) -v n="$N" -v b="$BASE" 'BEGIN { printf "%.1f", t / n / b }')
  printf '%-11s %5.0f/%-5.0f %9.0f %6sx %9s %6sx %5sx %5sx %7s + %6s of %s (exit %s)\n' "$name" \
    "$before" "$after" "$ns" "$(ratio "$ns" "$BASE")" "$done_ns" "$(ratio "$done_ns" "$BASE")" \
    "$reader" "$printer" "$full" "$counted" "$N" "$rc"
  grep -h -e 'warning:' -e 'lost' /tmp/pc.err | head -3 | sed 's/^/  /'
}

# A failing call the kernel logs (mount-bad-tmpfs-size) would also write to the emulated serial
# console, which would outweigh the call: the log keeps its lines, the console shows none.
dmesg -n 1
# Warm-up: the first seconds of a boot still run other work.
sleep 5
for _ in 1 2 3; do loop_ns "$N" >/dev/null; done
printf '%-11s %11s %9s %7s %9s %7s %6s %6s %s\n' mode 'base ns' 'loop ns' ratio 'done ns' ratio \
  reader printer 'sessions (full + counted)'
round=0
# Every mode, run by the retsnoop binary $RS.
modes() {
  mode default -e "$ENTRY" $FUNCS
  mode aggregated -C stacks.repeats=count -e "$ENTRY" $FUNCS
  mode unprinted -X EINVAL -e "$ENTRY" $FUNCS
  mode unreported -L 100000 -e "$ENTRY" $FUNCS
  mode filtered -n no-such-comm -e "$ENTRY" $FUNCS
  mode no-messages -C messages.enabled=no -e "$ENTRY" $FUNCS
  mode filtered-nomsg -C messages.enabled=no -n no-such-comm -e "$ENTRY" $FUNCS
  mode non-entry -e '*sys_vhangup' -a __sys_bpf
  # --arg-filter against its unfiltered run: map_create as the entry function, then a filter
  # the failing call passes (its program runs, then the session is as unfiltered), then one it
  # fails (the program runs and the session is refused in BPF).
  mode map-create -e map_create $FUNCS
  mode argf-pass -e map_create $FUNCS --arg-filter 'attr->map_type == BPF_MAP_TYPE_ARRAY && attr->key_size == 4'
  mode argf-out -e map_create $FUNCS --arg-filter 'attr->map_type == BPF_MAP_TYPE_ARRAY && attr->key_size == 8'
  mode comm-out -n no-such-comm -e map_create $FUNCS
  # The same two with fentry/fexit (-F): a trampoline instead of ftrace's probe handlers.
  mode filtered-F -F -n no-such-comm -e "$ENTRY" $FUNCS
  mode non-entry-F -F -e '*sys_vhangup' -a __sys_bpf
}

while [ "$round" -lt "$ROUNDS" ]; do
  round=$((round + 1))
  for RS in $BINS; do modes; done
done
EOF
}

main() {
  local kver=6.12 build=${RETSNOOP_BUILD:-$REPO_DIR/build} n=20000 rounds=1 base='' kdir work
  local bins=retsnoop extra=()
  while (($#)); do
    case "$1" in
      --kernel) kver=${2:?}; shift ;;
      --build) build=${2:?}; shift ;;
      -n) n=${2:?}; shift ;;
      --rounds) rounds=${2:?}; shift ;;
      --base) base=${2:?}; shift ;;
      *) usage ;;
    esac
    shift
  done
  guest_binaries "$build"
  kdir=$("$E2E_DIR/fetch-kernel.sh" "$kver")
  work=$build/bench/percall-$kver
  mkdir -p "$work"
  if [[ -n $base ]]; then
    [[ -x $base ]] || die "--base: $base is not an executable"
    bins="retsnoop-base retsnoop"
    extra=(--add "$base:/bin/retsnoop-base")
  fi
  guest_script "$n" "${RS_PERCALL_MODES:-}" "$rounds" "$bins" \
    "${RS_PERCALL_CASE:-bpf-bad-map-max-entries-array}" "${RS_PERCALL_FUNCS:-"-a array_map_alloc*"}" \
    "${RS_PERCALL_ENTRY:-*sys_bpf}" >"$work/guest.sh"
  # With an instruction-counted clock the 6.1 guest hangs bringing up its second CPU (the boot
  # CPU waits for it in a loop whose time never advances): it runs on one. The clock counts the
  # instructions of every vCPU alike, so a second one would add no time of its own anyway.
  export RS_VM_ICOUNT=${RS_VM_ICOUNT-0}
  [[ $kver != 6.1 || -z $RS_VM_ICOUNT ]] || export RS_VM_CPUS=${RS_VM_CPUS:-1}
  echo "=== kernel $(cat "$kdir/kernel-version"): $n failing calls per traced mode"
  boot_guest "$kdir" "$work" "$work/guest.sh" "${VM_TIMEOUT:-1800}" 2048 "${extra[@]}" \
    -a "$REPO_DIR/bench/guest-lib.sh:/guest/guest-lib.sh"
}

main "$@"
