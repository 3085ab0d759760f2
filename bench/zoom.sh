#!/usr/bin/env bash
# Time to origin of --zoom, in one boot of the test VM (tests/e2e): per case, the whole zoom's
# wall time (exec to exit, every round's discovery, attach, command run and detach), its rounds
# and the functions each traced, against one traced run of the same command with the selection
# a user who knew the kernel would have typed. Absolute times under QEMU/TCG are noise: compare
# the ratio, zoom over the one run, of the same boot.
#
#   bpf     simfail bpf-bad-map-max-entries-array; the run: -e '*sys_bpf' -a 'array_map_alloc*'
#   mount   mount -t tmpfs -o size=bogus; the run: -e '*sys_mount' -a path_mount
#           -a 'vfs_parse_fs_*' -a 'shmem_parse_*'; the zoom gets -e '*sys_mount'
#
# Usage: bench/zoom.sh [--kernel 6.1|6.12|sid] [--build DIR] [--rounds N]
#   default: --kernel 6.12, --build <repo>/build, --rounds 2 (each case measured N times, least
#   of each reported). Env: VM_TIMEOUT (default 2400).
set -euo pipefail

# shellcheck source=../tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../tests/e2e/lib.sh"

usage() { sed -n '/^# Usage:/,/^[^#]/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2; exit 2; }

guest_script() {
  cat <<EOF
#!/bin/sh
ROUNDS=$1
EOF
  cat <<'EOF'
set -f  # the globs are retsnoop's
# shellcheck source=guest-lib.sh
. /guest/guest-lib.sh
secs() { awk -v c="$1" 'BEGIN { printf "%.2f", c / 100 }'; }
mkdir -p /mnt/zb

# timed NAME ARGS...: retsnoop ARGS until it exits; prints NAME's wall time in centiseconds.
timed() {
  name=$1
  shift
  t0=$(now_cs)
  retsnoop "$@" >/tmp/zb.out 2>&1 || true
  t1=$(now_cs)
  echo "$((t1 - t0))" >"/tmp/zb.$name"
}

# rounds_of: the zoom's round lines, one per round: "N functions, attach S s".
rounds_of() {
  sed -n 's/^zoom: round \([0-9]*\): \([0-9]*\) functions\{0,1\} traced, attached in \([0-9.]*\) s.*/  round \1: \2 functions, attached in \3 s/p' /tmp/zb.out
}

# measure CASE "RUN ARGS" "ZOOM ARGS" COMMAND...: the run and the zoom, ROUNDS times each,
# interleaved; the least of each and their ratio.
measure() {
  case_name=$1 run_args=$2 zoom_args=$3
  shift 3
  best_run= best_zoom=
  i=0
  while [ "$i" -lt "$ROUNDS" ]; do
    # shellcheck disable=SC2086 # word lists
    timed run $run_args -- "$@"
    r=$(cat /tmp/zb.run)
    # shellcheck disable=SC2086
    timed zoom $zoom_args -- "$@"
    z=$(cat /tmp/zb.zoom)
    [ -z "$best_run" ] || [ "$r" -lt "$best_run" ] && best_run=$r
    [ -z "$best_zoom" ] || [ "$z" -lt "$best_zoom" ] && best_zoom=$z
    i=$((i + 1))
  done
  origin=$(grep -m1 '^zoom: origin\|^zoom: stopped\|^zoom: the failure' /tmp/zb.out || echo "no origin line")
  echo "$case_name: one traced run $(secs "$best_run") s, zoom $(secs "$best_zoom") s:" \
    "$(awk -v z="$best_zoom" -v r="$best_run" 'BEGIN { printf "%.1f", z / r }')x," \
    "$(grep -c '^zoom: round' /tmp/zb.out) rounds"
  rounds_of
  echo "  $origin"
}

sleep 5
retsnoop -e '*sys_bpf' -- simfail bpf-bad-map-max-entries-array >/dev/null 2>&1 || true  # warm-up
measure bpf "-e *sys_bpf -a array_map_alloc*" "--zoom" simfail bpf-bad-map-max-entries-array
measure mount "-e *sys_mount -a path_mount -a vfs_parse_fs_* -a shmem_parse_*" \
  "--zoom -e *sys_mount" mount -t tmpfs -o size=bogus none /mnt/zb
EOF
}

main() {
  local kver=6.12 build=${RETSNOOP_BUILD:-$REPO_DIR/build} rounds=2
  local kdir work
  while (($#)); do
    case "$1" in
      --kernel) kver=${2:?}; shift ;;
      --build) build=${2:?}; shift ;;
      --rounds) rounds=${2:?}; shift ;;
      *) usage ;;
    esac
    shift
  done
  guest_binaries "$build"
  kdir=$("$E2E_DIR/fetch-kernel.sh" "$kver")
  work=$build/bench/zoom-$kver
  mkdir -p "$work"
  guest_script "$rounds" >"$work/guest.sh"
  echo "=== kernel $(cat "$kdir/kernel-version"): --zoom against one traced run, least of $rounds"
  boot_guest "$kdir" "$work" "$work/guest.sh" "${VM_TIMEOUT:-2400}" 3072 \
    -a "$REPO_DIR/bench/guest-lib.sh:/guest/guest-lib.sh"
}

main "$@"
