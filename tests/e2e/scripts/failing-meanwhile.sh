#!/bin/sh
# Runs retsnoop with the given arguments while `simfail bpf-bad-map-max-entries-array` fails once
# a second in the background (at most 900 times), then stops that loop: prints retsnoop's output
# only, and exits with retsnoop's status.
(
  i=0
  while [ "$i" -lt 900 ]; do
    simfail bpf-bad-map-max-entries-array >/dev/null 2>&1
    sleep 1
    i=$((i + 1))
  done
) &
loop=$!
retsnoop "$@"
status=$?
kill "$loop"
wait "$loop" 2>/dev/null
exit "$status"
