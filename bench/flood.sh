#!/usr/bin/env bash
# A flood of failing bpf() calls against retsnoop in the test VM (tests/e2e): how many sessions
# reach stdout, what retsnoop says about the rest, and whether a stop in the middle of the
# backlog still ends in a clean "DONE in".
#
#   drain  simfail -n N in a tight loop; once it is done and retsnoop's output has stopped
#          growing, SIGINT. Prints delivered/generated and retsnoop's loss report.
#   stop   the same flood, SIGINT after STOP_AFTER seconds while sessions are still pouring in:
#          how long the stop took, printed/reported and the loss report.
#   stuck  (--stuck, instead of the two above) retsnoop's stdout is a FIFO that a process holds
#          open and never reads, and simfail floods for STUCK_SECS: retsnoop's RSS every 10 s,
#          its peak (VmHWM) at the end, then SIGINT and the loss report. The memory bound of
#          docs/performance.md is measured with `--stuck -- -A -T -U`.
#
# Usage: bench/flood.sh [--kernel 6.1|6.12] [--arch amd64|arm64] [--build DIR] [-n N] [--stuck]
#                       [-- RETSNOOP_ARGS...]
#   default: --kernel 6.12 (multi-kprobe on amd64, kprobes on arm64), --arch amd64,
#   --build <repo>/build (<repo>/build-arm64 with --arch arm64), -n 200000.
#   Env: STOP_AFTER (default 5) seconds into the flood for the stop run; STUCK_SECS (default 60);
#   VM_TIMEOUT (default 1800).
set -euo pipefail

# shellcheck source=../tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../tests/e2e/lib.sh"

usage() { sed -n '15,20s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2; exit 2; }

# The guest half (busybox sh). Times are in centiseconds of /proc/uptime.
guest_script() {
  cat <<EOF
#!/bin/sh
N=$1
STOP_AFTER=$2
RS_ARGS='$3'
MODES='$4'
STUCK_SECS=$5
EOF
  cat <<'EOF'
# shellcheck source=guest-lib.sh
. /guest/guest-lib.sh
secs() { echo "$(($1 / 100)).$(($1 / 10 % 10))"; }
size() { wc -c </tmp/flood.out; }
peak_rss() { awk '/^VmHWM:/ { print $2, $3 }' "/proc/$PID/status"; }
# Where the resident memory is at a point LABEL of the run: anonymous, file and shared (ring
# buffer) pages, then the five largest mappings.
mem_breakdown() {
  awk '/^(VmHWM|VmRSS|RssAnon|RssFile|RssShmem):/ { printf "%s %s kB  ", $1, $2 } END { print "" }' \
    "/proc/$PID/status" | sed "s/^/  memory $1: /"
  awk '/^[0-9a-f]+-[0-9a-f]+ / { name = ($6 == "" ? "[anon]" : $6) } /^Rss:/ { print $2, name }' \
    "/proc/$PID/smaps" | sort -rn | head -5 | sed "s/^/  mapping kB $1: /"
}

start_retsnoop() {
  rm -f /tmp/flood.out /tmp/flood.err  # the ready check must not see the previous run's output
  # shellcheck disable=SC2086
  retsnoop $RS_ARGS -e '*sys_bpf' -a 'array_map_alloc*' >/tmp/flood.out 2>/tmp/flood.err &
  PID=$!
  until grep -q 'Receiving data' /tmp/flood.out 2>/dev/null; do sleep 0.2; done
}

# Until the output has not grown for 2 s: the printer has caught up with the backlog.
wait_quiet() {
  prev=-1
  while [ "$(size)" != "$prev" ]; do prev=$(size); sleep 2; done
}

report() {
  echo "$1: printed $(grep -c 'TID/PID' /tmp/flood.out) sessions; retsnoop exit $2, peak RSS $HWM"
  grep -h -e '^warning: sessions lost' /tmp/flood.err | head -3 | sed 's/^/  live: /'
  grep -h -e 'DONE in' /tmp/flood.out | sed 's/^/  /'
  grep -h -v -e '^warning: sessions lost' /tmp/flood.err | sed 's/^/  /'
}

flood_drain() {
  start_retsnoop
  mem_breakdown ready
  t0=$(now_cs)
  simfail -q -n "$N" bpf-bad-map-max-entries-array
  t1=$(now_cs)
  wait_quiet
  t2=$(now_cs)
  HWM=$(peak_rss)
  mem_breakdown drained
  kill -INT "$PID"
  rc=0; wait "$PID" || rc=$?
  echo "drain: $N failing bpf() calls in $(secs $((t1 - t0))) s; output complete $(secs $((t2 - t1 - 200))) s later"
  report drain "$rc"
}

flood_stop() {
  start_retsnoop
  simfail -q -n "$N" bpf-bad-map-max-entries-array &
  flooder=$!
  sleep "$STOP_AFTER"
  HWM=$(peak_rss)
  t0=$(now_cs)
  kill -INT "$PID"
  rc=0; wait "$PID" || rc=$?
  t1=$(now_cs)
  kill "$flooder" 2>/dev/null; wait "$flooder" 2>/dev/null
  echo "stop: SIGINT ${STOP_AFTER} s into the flood, retsnoop exited $(secs $((t1 - t0))) s later"
  report stop "$rc"
}

# stdout is a FIFO whose reader holds it open and never reads: once its 64 KiB are full, every
# session waits in retsnoop's memory. Ready when -v says the functions are attached.
flood_stuck() {
  rm -f /tmp/flood.err /tmp/stuck.fifo
  mkfifo /tmp/stuck.fifo
  sleep 100000 </tmp/stuck.fifo &
  holder=$!
  # shellcheck disable=SC2086
  retsnoop -v $RS_ARGS -e '*sys_bpf' -a 'array_map_alloc*' >/tmp/stuck.fifo 2>/tmp/flood.err &
  PID=$!
  until grep -q '^Attached' /tmp/flood.err || ! kill -0 "$PID" 2>/dev/null; do sleep 0.2; done
  simfail -q -n 1000000000 bpf-bad-map-max-entries-array &
  flooder=$!
  waited=0
  while [ "$waited" -lt "$STUCK_SECS" ]; do
    sleep 10
    waited=$((waited + 10))
    echo "stuck: ${waited} s: $(awk '/^VmRSS:/ { print $2, $3 }' "/proc/$PID/status")"
  done
  HWM=$(peak_rss)
  kill "$flooder"; wait "$flooder" 2>/dev/null
  kill -INT "$PID"
  rc=0; wait "$PID" || rc=$?
  kill "$holder"; wait "$holder" 2>/dev/null
  echo "stuck: ${STUCK_SECS} s of flood into a reader that never reads: peak RSS $HWM; retsnoop exit $rc"
  grep -h -e 'DONE in' -e '^Lost ' -e '^Sessions:' -e '^retsnoop:' /tmp/flood.err | sed 's/^/  /'
}

for mode in $MODES; do "flood_$mode"; done
EOF
}

main() {
  local kver=6.12 build=${RETSNOOP_BUILD:-} n=200000 modes="drain stop" kdir work
  while (($#)); do
    case "$1" in
      --kernel) kver=${2:?}; shift ;;
      --arch) set_arch "${2:-}" || usage; shift ;;
      --build) build=${2:?}; shift ;;
      -n) n=${2:?}; shift ;;
      --stuck) modes=stuck ;;
      --) shift; break ;;
      *) usage ;;
    esac
    shift
  done
  [[ -n $build ]] || build=$(default_build_dir)
  guest_binaries "$build"
  kdir=$("$E2E_DIR/fetch-kernel.sh" "$kver" --arch "$E2E_ARCH")
  work=$build/bench/flood-$kver
  mkdir -p "$work"
  guest_script "$n" "${STOP_AFTER:-5}" "$*" "$modes" "${STUCK_SECS:-60}" >"$work/guest.sh"
  echo "=== kernel $(cat "$kdir/kernel-version"): flood of $n sessions, retsnoop args: ${*:-none}"
  boot_guest "$kdir" "$work" "$work/guest.sh" "${VM_TIMEOUT:-1800}" 2048 \
    -a "$REPO_DIR/bench/guest-lib.sh:/guest/guest-lib.sh"
}

main "$@"
