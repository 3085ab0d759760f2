#!/bin/sh
# Runs a simfail (/tmp/first-simfail, comm "first") that fails a bpf() call and exits, then
# gives its PID to a second one (/tmp/second-simfail) through ns_last_pid. The second one's comm
# says whether it got that PID: "reused", else "not-reused". Each holds 1 s after its failure, so
# that its memory map is read while it runs. Prints nothing.
cp /bin/simfail /tmp/first-simfail && cp /bin/simfail /tmp/second-simfail || exit 1
/tmp/first-simfail --comm first --hold 1 bpf-bad-map-max-entries-array >/dev/null &
first=$!
wait $first
echo $((first - 1)) >/proc/sys/kernel/ns_last_pid
sh -c "[ \$\$ = $first ] && c=reused || c=not-reused
  exec /tmp/second-simfail --comm \$c --hold 1 bpf-bad-map-max-entries-array >/dev/null"
true
