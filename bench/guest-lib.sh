#!/bin/sh
# Shared by the guest halves of the bench scripts (busybox sh, inside the test VM; sourced).

# Hundredths of a second of /proc/uptime: busybox's date has no sub-second format.
now_cs() {
  read -r up _ </proc/uptime
  echo "${up%.*}${up#*.}"
}

# Starts retsnoop (or $READY_CMD) with the arguments given, its output copied to $out, and waits
# until it says "Receiving data..." (or $READY_TEXT) or exits; returns 1 if it exited first;
# $pid is the command's. Work files go
# in $WORK. No polling: a grep forked several times a second would take guest CPU from the
# attach being measured under TCG. tee and grep read the output in blocks (a shell's read
# builtin takes a pipe byte by byte, too slow for the -v function list, which retsnoop would
# block on).
# shellcheck disable=SC2154,SC2034 # $out comes from the caller, $pid is for it
start_and_wait_ready() {
  rm -f "$out" "$WORK/fifo" "$WORK/ready"
  mkfifo "$WORK/fifo" "$WORK/ready"
  "${READY_CMD:-retsnoop}" "$@" >"$WORK/fifo" 2>&1 &
  pid=$!
  tee "$out" <"$WORK/fifo" | {
    if grep -qF "${READY_TEXT:-Receiving data...}"; then echo ready; else echo exited; fi >"$WORK/ready"
    cat >/dev/null
  } &
  read -r state <"$WORK/ready"
  [ "$state" = ready ]
}
