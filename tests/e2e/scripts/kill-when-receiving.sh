#!/bin/sh
# Starts retsnoop with the given arguments, runs simfail-user once it receives, kills retsnoop
# with SIGKILL 3 s later, prints its output, then lets a dry run clear the dead run's lock, so
# that the leak check after the case sees only what the kernel kept:
#   <retsnoop's output>
#   killed: status N
out=/tmp/kill-when-receiving.out
retsnoop "$@" >"$out" 2>&1 &
pid=$!
i=0
until grep -q 'Receiving data' "$out" || [ "$i" -ge 600 ]; do
  sleep 0.1
  i=$((i + 1))
done
simfail-user >/dev/null
sleep 3
kill -KILL "$pid"
wait "$pid"
status=$?
cat "$out"
echo "killed: status $status"
retsnoop --dry-run -e '*sys_bpf' >/dev/null 2>&1
