#!/bin/sh
# Runs end-to-end cases inside the test VM (busybox sh). The case format is described in
# tests/e2e/README.md. Prints "PASS NAME (T s)" or "FAIL NAME (T s): REASONS" for each case,
# followed by what it ran and printed when it failed or says SHOW; exits 1 if any case failed.
#
# Usage: run-cases.sh CASEFILE DEFAULT_TIMEOUT_SEC
set -u

WORK=/tmp/rs-case
FAILED=0
KMSG_SEEN=0

# The driver polls while retsnoop starts up, and under emulation a fork costs the guest about
# 15 ms of its one emulated CPU: a loop of grep, sleep and command substitutions took a third
# of that CPU from the run it waited for. What runs in the loops below forks nothing.

# Centiseconds since boot, in NOW (busybox date has no %N; a command substitution would fork).
now_cs() {
  read -r up _ </proc/uptime
  NOW=${up%.*}${up#*.}
}

# A FIFO that nobody writes: a read from it with a timeout is a sleep without a fork (busybox's
# sleep is no ash builtin). Opened read-write, so that the open does not wait for a writer.
PAUSE_FIFO=/tmp/rs-pause.fifo
rm -f "$PAUSE_FIFO" && mkfifo "$PAUSE_FIFO"
# shellcheck disable=SC3045  # busybox ash's read has -t, with fractions of a second
pause() { read -r -t "$1" _ <&9; }

alive() { kill -0 "$1" 2>/dev/null; }

reset_case() {
  NAME="" RUN="" TRIGGERS="" READY="Receiving data..." WAIT=1 SIGNAL=INT
  EXPECTS="" REGEXES="" NOTS="" DISTINCTS="" EXIT_CODE=0 TIMEOUT=$DEFAULT_TIMEOUT MODULES="" PARSE_ERRORS="" SHOW=0
}

# Appends a line to a newline-separated list held in the variable named $1.
append() {
  eval "_cur=\${$1}"
  if [ -z "$_cur" ]; then eval "$1=\$2"; else eval "$1=\"\${_cur}
\$2\""; fi
}

# Reasons go to a file so that the background driver can add its own.
fail_reason() { echo "$1" >>"$WORK/reasons"; }

# The reasons given so far, on one line.
reasons_line() { sed ':a;N;$!ba;s/\n/; /g' "$WORK/reasons" 2>/dev/null; }

past_deadline() {
  now_cs
  [ "$NOW" -ge "$DEADLINE" ]
}

# Whether RUN's output holds the ready line yet. Reads on fd 8 only what came since the last
# call; a line still being written waits in READ_CARRY for the rest.
ready_seen() {
  while IFS= read -r line <&8; do
    line=$READ_CARRY$line
    READ_CARRY=""
    case $line in *"$READY"*) return 0 ;; esac
  done
  READ_CARRY=$READ_CARRY$line
  case $READ_CARRY in *"$READY"*) return 0 ;; esac
  return 1
}

# Polls until RUN prints its ready line. Returns 1 if it exited first or the deadline passed.
wait_ready() {
  exec 8<"$WORK/run.out"
  READ_CARRY=""
  until ready_seen; do
    if ! alive "$PID"; then
      fail_reason "RUN exited before printing '$READY' (add NOSIGNAL if it exits by itself)"
      return 1
    fi
    if past_deadline; then
      fail_reason "no '$READY' from RUN within ${TIMEOUT} s"
      return 1
    fi
    pause 0.1
  done
  return 0  # not the status of the last pause, a timeout
}

# Runs the TRIGGER commands (one sh script), bounded by what is left of the case's timeout.
run_triggers() {
  now_cs
  left=$(((DEADLINE - NOW) / 100))
  [ "$left" -ge 1 ] || left=1
  timeout "$left" sh -c "$TRIGGERS" >"$WORK/trigger.out" 2>&1 </dev/null 8<&- 9<&- ||
    fail_reason "TRIGGER exited with $?"
}

# At the deadline, kills RUN's whole process group and says so.
enforce_deadline() {
  while alive "$PID"; do
    if past_deadline; then
      kill -KILL -"$PID" 2>/dev/null
      fail_reason "timed out after ${TIMEOUT} s, killed"
      return
    fi
    pause 0.1
  done
}

# The background half of a case: ready line, triggers, signal, deadline.
# Runs in a subshell of its own: fds 8 and 9 stay out of RUN.
drive() {
  exec 9<>"$PAUSE_FIFO"
  while [ ! -s "$WORK/pid" ]; do
    past_deadline && return
    pause 0.05
  done
  read -r PID <"$WORK/pid"
  if [ -n "$TRIGGERS" ] || [ "$SIGNAL" != NONE ]; then
    if wait_ready; then
      [ -z "$TRIGGERS" ] || run_triggers
      if [ "$SIGNAL" != NONE ]; then
        pause "$WAIT"
        kill -"$SIGNAL" "$PID" 2>/dev/null
      fi
    fi
  fi
  enforce_deadline
}

# RUN stays in the foreground because a background job starts with SIGINT ignored, unlike a
# command run from a terminal. setsid gives it a process group the deadline can kill whole; the
# wrapper hands its pid (which exec keeps) to the driver.
drive_run() {
  drive &
  driver=$!
  # ash reports a foreground job killed by a signal ("Killed"): the exit code says it already.
  # shellcheck disable=SC2016  # $$ and $0 are the inner shell's
  { setsid sh -c 'echo $$ >"$0"; exec sh -c "$1"' "$WORK/pid" "$RUN" \
    >"$WORK/run.out" 2>&1 </dev/null; } 2>/dev/null
  RC=$?
  wait "$driver"
}

# check_list LIST GREP_MODE WANT_FOUND MESSAGE: one grep of RUN's output per line of LIST.
check_list() {
  [ -n "$1" ] || return 0  # a pipeline forks even for nothing
  printf '%s\n' "$1" | while IFS= read -r pattern; do
    [ -n "$pattern" ] || continue
    found=0
    grep -q "$2" -- "$pattern" "$WORK/run.out" && found=1
    [ "$found" -eq "$3" ] || fail_reason "$4 '$pattern'"
  done
}

# check_distinct: each line of DISTINCTS is "N ERE": RUN's output holds at least N different
# texts that ERE matches.
check_distinct() {
  [ -n "$DISTINCTS" ] || return 0
  printf '%s\n' "$DISTINCTS" | while IFS= read -r spec; do
    [ -n "$spec" ] || continue
    want=${spec%% *}
    pattern=${spec#* }
    got=$(grep -oE -- "$pattern" "$WORK/run.out" | sort -u | wc -l)
    [ "$got" -ge "$want" ] || fail_reason "$got distinct matches of '$pattern', expected $want"
  done
}

check_output() {
  [ "$RC" -eq "$EXIT_CODE" ] || fail_reason "exit code $RC, expected $EXIT_CODE"
  check_list "$EXPECTS" -F 1 "missing"
  check_list "$REGEXES" -E 1 "no match for"
  check_list "$NOTS" -F 0 "unexpected"
  check_distinct
}

# A case that left something behind (a RUN killed at its deadline, say) fails alone: the next
# retsnoop run would remove it, but the next case's leak check would blame that case first. A
# dry run removes what dead runs left, as every run does.
clear_leftovers() {
  retsnoop --dry-run -e '*sys_bpf' >/dev/null 2>&1
  rs-leakcheck >/dev/null 2>&1 || fail_reason "leftovers remain after a dry run's cleanup"
}

# Nothing of ours may stay in the kernel after a case, and the kernel must not have complained.
# KERNEL_CLEAN says whether both checks passed.
check_kernel() {
  KERNEL_CLEAN=1
  if ! rs-leakcheck >"$WORK/leak.out" 2>&1; then
    KERNEL_CLEAN=0
    fail_reason "rs-leakcheck found leftovers"
    clear_leftovers
  fi
  dmesg | tail -n "+$((KMSG_SEEN + 1))" >"$WORK/kmsg"
  KMSG_SEEN=$((KMSG_SEEN + $(wc -l <"$WORK/kmsg")))
  scan-splats "$WORK/kmsg" >"$WORK/splats" || { KERNEL_CLEAN=0; fail_reason "kernel splat"; }
}

show_file() {
  [ -s "$2" ] || return 0
  echo "  $1:"
  sed 's/^/  | /' "$2"
}

show_details() {
  echo "  RUN: $RUN"
  [ -z "$TRIGGERS" ] || printf '%s\n' "$TRIGGERS" | sed 's/^/  TRIGGER: /'
  show_file "modprobe" "$WORK/modprobe.out"
  show_file "output" "$WORK/run.out"
  show_file "trigger output" "$WORK/trigger.out"
  show_file "rs-leakcheck" "$WORK/leak.out"
  show_file "kernel splats" "$WORK/splats"
}

# Modules the host put into the initramfs for this case.
load_modules() {
  for m in $MODULES; do
    modprobe "$m" >>"$WORK/modprobe.out" 2>&1 || fail_reason "modprobe $m failed"
  done
}

# One run of the case: its output checks and the kernel checks.
attempt_case() {
  rm -rf "$WORK" && mkdir -p "$WORK"
  echo "rs-e2e: case $NAME" >/dev/kmsg
  now_cs
  DEADLINE=$((NOW + TIMEOUT * 100))
  if [ -n "$PARSE_ERRORS" ]; then
    fail_reason "$PARSE_ERRORS"
  else
    load_modules
  fi
  if [ ! -s "$WORK/reasons" ]; then
    drive_run
    check_output
  fi
  check_kernel
}

# The kernel skips a probe now and then (a kprobe hit while another one's handler runs on that
# CPU, say) and retsnoop reports the session it broke instead of a stack. That is the kernel's
# doing, not the case's, so such a failure earns one more run, shown in the log; a leak or a
# splat never does.
kernel_dropped_hits() {
  [ "$KERNEL_CLEAN" -eq 1 ] && grep -q "broken: the kernel dropped probe hits" "$WORK/run.out" 2>/dev/null
}

run_case() {
  [ -n "$NAME" ] || return 0
  now_cs
  start=$NOW
  attempt_case
  if [ -s "$WORK/reasons" ] && kernel_dropped_hits; then
    echo "RERUN $NAME: the kernel dropped probe hits; the first run's reasons: $(reasons_line)"
    show_file "first run's output" "$WORK/run.out"
    attempt_case
  fi
  now_cs
  took=$((NOW - start))
  took="$((took / 100)).$((took / 10 % 10))"
  REASONS=""
  [ ! -s "$WORK/reasons" ] || REASONS=$(reasons_line)
  if [ -z "$REASONS" ]; then
    echo "PASS $NAME (${took} s)"
    [ "$SHOW" -eq 0 ] || show_details
  else
    FAILED=1
    echo "FAIL $NAME (${took} s): $REASONS"
    show_details
  fi
}

parse_and_run() {
  reset_case
  while IFS= read -r line || [ -n "$line" ]; do
    key=${line%% *}
    val=${line#"$key"}
    val=${val#"${val%%[! ]*}"}
    case "$key" in
      "" | "#"*) ;;
      NAME) run_case </dev/null; reset_case; NAME=$val ;;
      KERNELS | ARCHS | VMLINUX | ESSENTIAL | REQUIRES) ;;  # the host chose the cases and the initramfs contents already
      MODULE) MODULES="$MODULES $val" ;;
      RUN) RUN=$val ;;
      TRIGGER) append TRIGGERS "$val" ;;
      READY) READY=$val ;;
      WAIT) WAIT=$val ;;
      SIGNAL) SIGNAL=$val ;;
      NOSIGNAL) SIGNAL=NONE ;;
      SHOW) SHOW=1 ;;
      EXPECT) append EXPECTS "$val" ;;
      EXPECT_REGEX) append REGEXES "$val" ;;
      EXPECT_NOT) append NOTS "$val" ;;
      EXPECT_DISTINCT) append DISTINCTS "$val" ;;
      EXIT) EXIT_CODE=$val ;;
      TIMEOUT) TIMEOUT=$val ;;
      *) PARSE_ERRORS="${PARSE_ERRORS:+$PARSE_ERRORS; }unknown key '$key'" ;;
    esac
  done
  run_case </dev/null
}

[ $# -eq 2 ] || { echo "usage: run-cases.sh CASEFILE DEFAULT_TIMEOUT_SEC" >&2; exit 2; }
DEFAULT_TIMEOUT=$2
parse_and_run <"$1"
exit "$FAILED"
