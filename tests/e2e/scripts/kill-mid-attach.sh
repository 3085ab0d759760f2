#!/bin/sh
# Starts retsnoop with the given arguments, kills it with SIGKILL as soon as its first kprobe
# event is defined (within 60 s), and prints what the dead run left behind:
#   left: rcu_expedited=N events=N locks=N
retsnoop "$@" >/dev/null 2>&1 &
pid=$!
i=0
# tracefs has nothing to wait on for a new event: poll it.
until grep -q retsnoop_ /sys/kernel/tracing/kprobe_events || [ "$i" -ge 600 ]; do
  sleep 0.1
  i=$((i + 1))
done
kill -KILL "$pid"
wait "$pid"
echo "left: rcu_expedited=$(cat /sys/kernel/rcu_expedited)" \
  "events=$(grep -c retsnoop_ /sys/kernel/tracing/kprobe_events)" \
  "locks=$(find /run/retsnoop -name '*.lock' | wc -l)"
