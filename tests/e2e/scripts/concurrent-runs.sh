#!/bin/sh
# Two runs at once, the second one PID 1 of a new PID namespace (as in a container), and one
# failing call. Prints, per run, the sessions it printed and whether it detached, the number of
# kprobe event groups the two used, and any warning or removal either printed.
run() {
  "$@" retsnoop -K -v -e '*sys_bpf' -a 'array_map_alloc*'
}
run >/tmp/rs-a.out 2>&1 &
run unshare -p -f --mount-proc >/tmp/rs-b.out 2>&1 &
i=0
until [ "$(cat /tmp/rs-a.out /tmp/rs-b.out 2>/dev/null | grep -c 'Receiving data')" -ge 2 ]; do
  [ "$i" -lt 600 ] || { echo "not ready after 120 s"; exit 1; }
  sleep 0.2
  i=$((i + 1))
done
echo both ready
simfail bpf-bad-map-max-entries-array
sleep 1  # the session's report travels through the ring buffer and the printer
# shellcheck disable=SC2046 # one word per running retsnoop
kill -INT $(pidof retsnoop)
wait
for f in a b; do
  echo "run $f: sessions=$(grep -c '^!.*array_map_alloc_check$' /tmp/rs-$f.out)" \
    "done=$(grep -c '^Detaching... DONE' /tmp/rs-$f.out)"
done
echo "groups=$(grep -ho 'group retsnoop_[0-9a-f]*' /tmp/rs-a.out /tmp/rs-b.out | sort -u | wc -l)"
grep -h -i 'removed\|warning' /tmp/rs-a.out /tmp/rs-b.out
echo end
