#!/bin/sh
# The guest half of bench/attach.sh (busybox sh, inside the test VM). Prints one tab-separated
# row per measurement:
#   attach MECH REQUESTED ATTACHED STARTUP_S ATTACH_S DETACH_S
#   call   MECH ROLE NS_PER_CALL
#   skip   MECH SIZE REASON
#
# Usage: attach-guest.sh "MECHS" "SIZES" CAPS CALLS TRACED IDLE_ENTRY
#   MECHS  attach options to compare, e.g. "-M -K -F"; a comma joins the options of one
#          mechanism, e.g. "-K,-Cattach.expedite-rcu=yes"
#   SIZES  function counts, "all" for every traceable function, e.g. "100 1000 10000 all"
#   CAPS   "MECH:N ..." skips sizes above N for MECH (too slow under TCG), e.g. "-F:1000"
#   CALLS  failing bpf() calls per cost measurement
#   TRACED the function every bpf() call runs whose cost is measured (__x64_sys_bpf)
#   IDLE_ENTRY an entry function that never runs, for the non-entry role (__x64_sys_reboot)
set -u

# shellcheck source-path=SCRIPTDIR source=guest-lib.sh
. /guest/guest-lib.sh

MECHS=$1
SIZES=$2
CAPS=$3
CALLS=$4
TRACED=$5
IDLE_ENTRY=$6
WORK=/tmp/rs-bench
FUNCS=/sys/kernel/tracing/available_filter_functions

mkdir -p "$WORK"

# N vmlinux functions spread evenly over the traceable ones (address order mixes subsystems);
# "all": every one. Module functions are left out: their set varies with what is loaded.
pick_functions() {
  awk -v want="$1" '
    /\[/ || seen[$1]++ { next }
    { names[n++] = $1 }
    END {
      if (want == "all" || want >= n) { for (i = 0; i < n; i++) print names[i]; exit }
      for (i = 0; i < want; i++) print names[int(i * n / want)]
    }' "$FUNCS" >"$WORK/funcs"
}

# The options of a mechanism as separate words.
mech_args() { echo "$1" | tr , ' '; }

# Sizes above MECH's cap are not run (the cap of its first option).
cap_of() {
  for c in $CAPS; do
    [ "${c%%:*}" = "${1%%,*}" ] && { echo "${c#*:}"; return; }
  done
  echo ""
}

# Stops retsnoop (TERM, not INT: a background job of a script starts with SIGINT ignored) and
# waits for it and the copy of its output.
stop_retsnoop() {
  kill -TERM "$pid" 2>/dev/null
  wait
}

# Waits until file $1 holds $2 or retsnoop ($3) exited; returns 1 if it exited first.
poll_for() {
  while ! grep -qF -- "$2" "$1" 2>/dev/null; do
    kill -0 "$3" 2>/dev/null || return 1
    sleep 0.2
  done
}

# One attach and detach of MECH on the functions of $WORK/funcs.
measure_attach() {
  mech=$1 size=$2 out=$WORK/out
  # shellcheck disable=SC2046 # one word per option
  start_and_wait_ready $(mech_args "$mech") -v -e '*sys_bpf' -a "@$WORK/funcs"
  stop_retsnoop
  startup=$(sed -n 's/^attaching .*(start-up took \([0-9.]*\) s).*/\1/p' "$out")
  attached=$(sed -n 's/^attached \([0-9]*\) functions .* in \([0-9.]*\) s .*/\1 \2/p' "$out")
  detach_ms=$(sed -n 's/.*DONE in \([0-9]*\) ms\./\1/p' "$out")
  if [ -z "$attached" ] || [ -z "$detach_ms" ]; then
    printf 'skip\t%s\t%s\t%s\n' "$mech" "$size" "$(grep -v '^  ' "$out" | tail -n 1)"
    return
  fi
  printf 'attach\t%s\t%s\t%s\t%s\t%s\t%d.%03d\n' "$mech" "$size" "${attached% *}" \
    "$startup" "${attached#* }" $((detach_ms / 1000)) $((detach_ms % 1000))
}

# Wall time of CALLS failing bpf() calls, in hundredths of a second.
time_calls() {
  t0=$(now_cs)
  simfail -q -n "$CALLS" bpf-bad-map-max-entries-array
  echo $(($(now_cs) - t0))
}

# Extra ns per bpf() call with TRACED traced as ROLE: "entry" opens, records and reports a
# session per call; "non-entry" only looks for a session (none is open) and returns.
measure_call() {
  mech=$1 role=$2 base=$3 out=$WORK/out
  if [ "$role" = entry ]; then
    set -- -e "$TRACED"
  else
    set -- -e "$IDLE_ENTRY" -a "$TRACED"
  fi
  # Straight to a file: every call prints a session, and a FIFO would add a copy and a wakeup
  # of the reader to each. The attach is small, so polling for it costs little here.
  rm -f "$out"
  # shellcheck disable=SC2046 # one word per option
  retsnoop $(mech_args "$mech") "$@" >"$out" 2>&1 &
  pid=$!
  if ! poll_for "$out" "Receiving data..." "$pid"; then
    printf 'skip\t%s\tcall-%s\t%s\n' "$mech" "$role" "$(tail -n 1 "$out")"
    return
  fi
  traced=$(time_calls)
  kill -TERM "$pid" 2>/dev/null
  wait "$pid"
  printf 'call\t%s\t%s\t%d\n' "$mech" "$role" $(((traced - base) * 10000000 / CALLS))
}

for size in $SIZES; do
  pick_functions "$size"
  for mech in $MECHS; do
    cap=$(cap_of "$mech")
    if [ -n "$cap" ] && { [ "$size" = all ] || [ "$size" -gt "$cap" ]; }; then
      printf 'skip\t%s\t%s\tabove the cap of %s functions for this mechanism\n' "$mech" "$size" "$cap"
      continue
    fi
    measure_attach "$mech" "$size"
  done
done

base=$(time_calls)
printf 'call\tnone\tuntraced\t%d\n' $((base * 10000000 / CALLS))
for mech in $MECHS; do
  measure_call "$mech" entry "$base"
  measure_call "$mech" non-entry "$base"
done
