#!/usr/bin/env bash
# A flood of failing bpf() calls against retsnoop in the test VM (tests/e2e): how many sessions
# reach stdout, what retsnoop says about the rest, and whether a stop in the middle of the
# backlog still ends in a clean "DONE in".
#
#   drain  simfail -n N in a tight loop; once it is done and retsnoop's output has stopped
#          growing, SIGINT. Prints delivered/generated and retsnoop's loss report.
#   stop   the same flood, SIGINT after STOP_AFTER seconds while sessions are still pouring in:
#          how long the stop took, printed/reported and the loss report.
#
# Usage: bench/flood.sh [--kernel 6.1|6.12] [--arch amd64|arm64] [--build DIR] [-n N]
#                       [-- RETSNOOP_ARGS...]
#   default: --kernel 6.12 (multi-kprobe on amd64, kprobes on arm64), --arch amd64,
#   --build <repo>/build (<repo>/build-arm64 with --arch arm64), -n 200000.
#   Env: STOP_AFTER (default 5) seconds into the flood for the stop run; VM_TIMEOUT (default 1800).
set -euo pipefail

# shellcheck source=../tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../tests/e2e/lib.sh"

usage() { sed -n '11,15s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2; exit 2; }

# The guest half (busybox sh). Times are in centiseconds of /proc/uptime.
guest_script() {
  cat <<EOF
#!/bin/sh
N=$1
STOP_AFTER=$2
RS_ARGS='$3'
EOF
  cat <<'EOF'
now_cs() { read -r up _ </proc/uptime; echo "${up%.*}${up#*.}"; }
secs() { echo "$(($1 / 100)).$(($1 / 10 % 10))"; }
size() { wc -c </tmp/flood.out; }
peak_rss() { awk '/^VmHWM:/ { print $2, $3 }' "/proc/$PID/status"; }

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
  grep -h -e '^WARNING: sessions lost' /tmp/flood.err | head -3 | sed 's/^/  live: /'
  grep -h -e 'DONE in' /tmp/flood.out | sed 's/^/  /'
  grep -h -v -e '^WARNING: sessions lost' /tmp/flood.err | sed 's/^/  /'
}

flood_drain() {
  start_retsnoop
  t0=$(now_cs)
  simfail -q -n "$N" bpf-bad-map-max-entries-array
  t1=$(now_cs)
  wait_quiet
  t2=$(now_cs)
  HWM=$(peak_rss)
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

flood_drain
flood_stop
EOF
}

main() {
  local kver=6.12 build=${RETSNOOP_BUILD:-} n=200000 kdir work
  while (($#)); do
    case "$1" in
      --kernel) kver=${2:?}; shift ;;
      --arch) set_arch "${2:-}" || usage; shift ;;
      --build) build=${2:?}; shift ;;
      -n) n=${2:?}; shift ;;
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
  guest_script "$n" "${STOP_AFTER:-5}" "$*" >"$work/guest.sh"
  echo "=== kernel $(cat "$kdir/kernel-version"): flood of $n sessions, retsnoop args: ${*:-none}"
  boot_guest "$kdir" "$work" "$work/guest.sh" "${VM_TIMEOUT:-1800}" 2048
}

main "$@"
