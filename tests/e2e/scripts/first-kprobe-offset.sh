#!/bin/sh
# Prints the first offset past FUNC's start (1 to 16) that a kprobe event accepts: the kernel
# itself knows which offsets are instruction boundaries.
events=/sys/kernel/tracing/kprobe_events
for n in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
  if echo "p:rs_e2e_off $1+$n" >>"$events" 2>/dev/null; then
    echo '-:rs_e2e_off' >>"$events"
    echo "$n"
    exit 0
  fi
done
exit 1
