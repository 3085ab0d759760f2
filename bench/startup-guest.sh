#!/bin/sh
# The guest half of bench/startup.sh (busybox sh, inside the test VM). Prints one tab-separated
# row per measurement:
#   funcs   COUNT MECHANISM
#   floor   ROUND DEFINE_S ARM_S DISARM_S REMOVE_S
#   ours    ROUND READY_S ATTACHED DETACH_S
#   phase   ROUND NAME MS
#   startup ROUND S       (process start to "Attaching", by retsnoop's own clock)
#   mode    ROUND FLAG READY_S ATTACHED   (with MODES, in place of ours, startup and phase)
#   verified FLAG PROGRAM INSNS           (with MODES: the verifier's work per program, round 1)
#   bpffloor ROUND KIND READY_S ATTACHED  (FLOOR bpf: rs-startup-floor kprobe|fentry)
#   skip    WHAT REASON
#
# Usage: startup-guest.sh ROUNDS FLOOR MODES RETSNOOP_ARGS...
#   ROUNDS  rounds, each a floor (when FLOOR is 1) and then a retsnoop run
#   FLOOR   1: measure the tracefs floor too (the kernel's own cost of the same kprobe events);
#           bpf: measure rs-startup-floor's single kprobes and fentry/fexit pairs instead
#   MODES   empty, or attach flags ("-F -K"): each round runs the selection once per flag, in
#           this order
#   RETSNOOP_ARGS the selection, e.g. -e '*sys_bpf' -a 'bpf_*'
set -u

# shellcheck source-path=SCRIPTDIR source=guest-lib.sh
. /guest/guest-lib.sh

ROUNDS=$1
FLOOR=$2
MODES=$3
shift 3
WORK=/tmp/rs-startup
TRACEFS=/sys/kernel/tracing
GROUP=rs_floor

mkdir -p "$WORK"

# Hundredths of a second since $1 as seconds.
secs_since() {
  d=$(($(now_cs) - $1))
  printf '%d.%02d' $((d / 100)) $((d % 100))
}

# The functions retsnoop resolves for the selection, by address ("ADDR NAME" lines of the
# dry run's list), as it attaches them.
resolve_functions() {
  retsnoop --dry-run -v "$@" >"$WORK/plan" 2>&1 || return 1
  sed -n '/^Functions to attach:/,$ s/^  \([0-9a-f]\{16\}\)  \([^ ]*\) .*/\1 \2/p' "$WORK/plan" |
    sort >"$WORK/funcs"
  [ -s "$WORK/funcs" ]
}

# The same kprobe events retsnoop defines (attach/kprobe_event_attacher.cpp): functions in
# address order cut into 16 chunks of 64 to 256; per chunk, an event of return probes and one of
# entry probes, each probe at _text+OFFSET, the return probes defined first. $WORK/defs gets the
# definitions, $WORK/events the events in arming order (every entry event, then every return
# event).
floor_definitions() {
  text=0x$(awk '$3 == "_text" { print $1; exit }' /proc/kallsyms)
  while read -r addr _; do
    printf '%x\n' $((0x$addr - text))
  done <"$WORK/funcs" >"$WORK/offsets"
  awk -v group="$GROUP" -v defs="$WORK/defs" -v events="$WORK/events" '
    { off[n++] = $1 }
    END {
      per = int((n + 15) / 16)
      if (per < 64) per = 64
      if (per > 256) per = 256
      for (c = 0; c * per < n; c++) {
        end = (c + 1) * per < n ? (c + 1) * per : n
        for (i = c * per; i < end; i++) printf "r:%s/r%d _text+0x%s\n", group, c, off[i] > defs
        for (i = c * per; i < end; i++) printf "p:%s/e%d _text+0x%s\n", group, c, off[i] > defs
      }
      for (k = 0; k < c; k++) print "e" k > events
      for (k = 0; k < c; k++) print "r" k > events
    }' "$WORK/offsets"
}

remove_events() {
  while read -r ev; do echo "-:$GROUP/$ev" >>"$TRACEFS/kprobe_events"; done <"$WORK/events" 2>/dev/null
}

# Defines the events 32 lines per write (one awk, no process per write), arms them entry events
# first (a write each, as retsnoop opens a perf event each), then disarms and removes them.
measure_floor() {
  round=$1
  t0=$(now_cs)
  # To standard output: awk's own append to a file seeks to its end, which tracefs refuses.
  awk '
    { buf = buf $0 "\n" }
    NR % 32 == 0 { printf "%s", buf; fflush(); buf = "" }
    END { if (buf != "") printf "%s", buf }' "$WORK/defs" >>"$TRACEFS/kprobe_events"
  define=$(secs_since "$t0")
  # A return probe is listed as "r16:GROUP/EVENT ..." (its maxactive).
  defined=$(grep -c "^[pr][0-9]*:$GROUP/" "$TRACEFS/kprobe_events")
  if [ "$defined" != "$(wc -l <"$WORK/defs")" ]; then
    printf 'skip\tfloor\tthe kernel took %s of %s definitions\n' "$defined" "$(wc -l <"$WORK/defs")"
    remove_events
    return
  fi
  t0=$(now_cs)
  while read -r ev; do echo 1 >"$TRACEFS/events/$GROUP/$ev/enable"; done <"$WORK/events"
  arm=$(secs_since "$t0")
  t0=$(now_cs)
  echo 0 >"$TRACEFS/events/$GROUP/enable"
  disarm=$(secs_since "$t0")
  t0=$(now_cs)
  remove_events
  remove=$(secs_since "$t0")
  printf 'floor\t%s\t%s\t%s\t%s\t%s\n' "$round" "$define" "$arm" "$disarm" "$remove"
}

measure_ours() {
  round=$1 out=$WORK/out
  shift
  t0=$(now_cs)
  if ! start_and_wait_ready -vv "$@"; then
    wait
    printf 'skip\tours\t%s\n' "$(grep -v '^  ' "$out" | tail -n 1)"
    return
  fi
  ready=$(secs_since "$t0")
  kill -TERM "$pid" 2>/dev/null
  wait
  attached=$(sed -n 's/^attached \([0-9]*\) functions .*/\1/p' "$out")
  detach_ms=$(sed -n 's/.*DONE in \([0-9]*\) ms\./\1/p' "$out")
  printf 'ours\t%s\t%s\t%s\t%d.%03d\n' "$round" "$ready" "$attached" \
    $((detach_ms / 1000)) $((detach_ms % 1000))
  sed -n 's/^phase \(.*\): \([0-9.]*\) ms$/\1\t\2/p' "$out" | while IFS="$(printf '\t')" read -r name ms; do
    printf 'phase\t%s\t%s\t%s\n' "$round" "$name" "$ms"
  done
  sed -n 's/^attaching .*(start-up took \([0-9.]*\) s).*/\1/p' "$out" |
    while read -r s; do printf 'startup\t%s\t%s\n' "$round" "$s"; done
}

# Starts the command (start_and_wait_ready's arguments after WHAT) and stops it once ready:
# $ready gets the seconds from exec to ready. If it exited first, prints a skip row for WHAT
# with its last line and returns 1.
time_to_ready() {
  what=$1
  shift
  t0=$(now_cs)
  if ! start_and_wait_ready "$@"; then
    wait
    printf 'skip\t%s\t%s\n' "$what" "$(grep -v '^  ' "$out" | tail -n 1)"
    return 1
  fi
  ready=$(secs_since "$t0")
  kill -TERM "$pid" 2>/dev/null
  wait
}

# The selection as one mode attaches it, from exec to ready.
measure_mode() {
  round=$1 flag=$2 out=$WORK/out
  shift 2
  time_to_ready "$flag" -v "$flag" "$@" || return
  attached=$(sed -n 's/^attached \([0-9]*\) functions .*/\1/p' "$out")
  printf 'mode\t%s\t%s\t%s\t%s\n' "$round" "$flag" "$ready" "$attached"
  [ "$round" = 1 ] && sed -n 's/^BPF program \([^:]*\): \([0-9]*\) instructions verified$/\1 \2/p' "$out" |
    while read -r prog insns; do printf 'verified\t%s\t%s\t%s\n' "$flag" "$prog" "$insns"; done
}

# The floor of a mode: rs-startup-floor's minimal programs on the same functions, exec to ready.
measure_bpf_floor() {
  round=$1 kind=$2 out=$WORK/out
  READY_CMD=rs-startup-floor READY_TEXT=ready
  time_to_ready "floor $kind" "$kind" "$WORK/funcs"
  ok=$?
  unset READY_CMD READY_TEXT
  [ "$ok" = 0 ] || return
  attached=$(sed -n 's/^attached \([0-9]*\) of .*/\1/p' "$out")
  printf 'bpffloor\t%s\t%s\t%s\t%s\n' "$round" "$kind" "$ready" "$attached"
}

# With MODES, the first mode's plan is the one resolved.
[ -n "$MODES" ] && set -- "${MODES%% *}" "$@"
if ! resolve_functions "$@"; then
  printf 'skip\tall\t%s\n' "$(tail -n 1 "$WORK/plan")"
  exit 0
fi
mech=$(retsnoop -V -v 2>/dev/null | grep -q 'multi-attach kprobe supported: yes' && echo multi-kprobe || echo kprobe)
printf 'funcs\t%s\t%s\n' "$(wc -l <"$WORK/funcs")" "${MODES:-$mech}"
# Multi-kprobes have no tracefs twin that retsnoop's attach could be held to.
[ "$mech" = multi-kprobe ] && [ "$FLOOR" = 1 ] && FLOOR=0
[ "$FLOOR" = 1 ] && floor_definitions
# Unmeasured: QEMU gives the guest host memory on a page's first touch, which made the first run
# after boot (BPF maps, programs) 0.1-0.2 s slower than the next ones on 6.12.
out=$WORK/warm-up
start_and_wait_ready -e '*sys_bpf' && kill -TERM "$pid" 2>/dev/null
wait
[ -n "$MODES" ] && shift  # the first mode's flag, which only the resolution needed
r=1
while [ "$r" -le "$ROUNDS" ]; do
  [ "$FLOOR" = 1 ] && measure_floor "$r"
  if [ "$FLOOR" = bpf ]; then
    measure_bpf_floor "$r" kprobe
    measure_bpf_floor "$r" fentry
  fi
  if [ -z "$MODES" ]; then
    measure_ours "$r" "$@"
  else
    # shellcheck disable=SC2086 # MODES is a list of flags
    for flag in $MODES; do measure_mode "$r" "$flag" "$@"; done
  fi
  r=$((r + 1))
done
