#!/bin/sh
# Another user (uid 65534) opened /run/retsnoop while an older retsnoop had left it mode 0755,
# and holds its lock, while retsnoop runs with the given arguments. Prints retsnoop's output,
#   exit N after N s          (its exit status, and its run time in whole seconds)
#   mode 700                  (the directory's mode after the run)
# then what uid 65534 gets when it tries to open the directory again.
rm -rf /run/retsnoop
mkdir -m 0755 /run/retsnoop
rs-runas 65534 rs-flock /run/retsnoop 120 >/tmp/rs-holder.out 2>&1 &
holder=$!
i=0
until grep -q '^locked' /tmp/rs-holder.out; do
  [ "$i" -lt 100 ] || { echo "the holder did not lock:"; cat /tmp/rs-holder.out; exit 1; }
  sleep 0.1
  i=$((i + 1))
done
read -r t0 _ </proc/uptime
retsnoop "$@" 2>&1
rc=$?
read -r t1 _ </proc/uptime
echo "exit $rc after $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%d", b - a }') s"
echo "mode $(stat -c %a /run/retsnoop)"
rs-runas 65534 rs-flock /run/retsnoop 0
kill "$holder"
wait "$holder" 2>/dev/null
exit 0
