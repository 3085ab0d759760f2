#!/bin/sh
# A forked child of /tmp/first-simfail (comm "first") fails a bpf() call and exits; its PID then
# goes, through ns_last_pid, to a forked child of /tmp/second-simfail (comm "second"), which
# fails the same call. Neither child exec'd: nothing but the PID's new owner tells them apart.
# Each holds 1 s after its failure, so that its memory map is read while it runs. When the PID
# could not be handed over, a third simfail fails with comm "pid-not-reused", for the case to
# see. Prints nothing.
cp /bin/simfail /tmp/first-simfail && cp /bin/simfail /tmp/second-simfail || exit 1
child_pid() { sed -n 's/^simfail: child PID //p' "$1"; }
/tmp/first-simfail --fork --comm first --hold 1 bpf-bad-map-max-entries-array >/tmp/first.out
first=$(child_pid /tmp/first.out)
# Output to a file, no pipe: the shell forks once (first-1), and simfail's child gets first.
echo $((first - 2)) >/proc/sys/kernel/ns_last_pid
/tmp/second-simfail --fork --comm second --hold 1 bpf-bad-map-max-entries-array >/tmp/second.out
if [ "$(child_pid /tmp/second.out)" != "$first" ]; then
  simfail --comm pid-not-reused bpf-bad-map-max-entries-array >/dev/null
fi
true
