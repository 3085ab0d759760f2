#!/bin/sh
# -U while a process with COUNT executable mappings of one file whose path is 3,771 bytes long
# (a memory map of some 226 MB at 60,000) fails a bpf() call. Prints retsnoop's output, then
#   retsnoop VmHWM: N kB (bound B kB)
# and "within the bound" when N <= B. Its peak RSS is read while it still runs, after the session
# was printed.
#   many-mappings.sh COUNT BOUND_KB
count=$1
bound_kb=$2
seg=$(printf '%0200d' 0 | tr 0 d)
dir=/tmp
i=0
while [ $i -lt 18 ]; do
  dir=$dir/$seg
  i=$((i + 1))
done
dir=$dir/$(printf '%0140d' 0 | tr 0 e)
mkdir -p "$dir" && cp /bin/simfail "$dir/simfail" || exit 1
out=/tmp/many-mappings.out
# A background job of a script ignores SIGINT: SIGTERM stops it the same way.
retsnoop -U -e '*sys_bpf' -a 'array_map_alloc*' >"$out" 2>&1 &
rs=$!
n=0
until grep -q 'Receiving data' "$out"; do
  n=$((n + 1))
  if [ $n -gt 1200 ]; then
    cat "$out"
    exit 1
  fi
  sleep 0.1
done
"$dir/simfail" --map-self "$count" --hold 10 bpf-bad-map-max-entries-array
sleep 2
hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$rs/status")
kill -TERM $rs
wait $rs
echo "retsnoop exit status $?"
cat "$out"
echo "retsnoop VmHWM: $hwm kB (bound $bound_kb kB)"
[ "$hwm" -le "$bound_kb" ] && echo "within the bound"
rm -rf "/tmp/$seg"
true
