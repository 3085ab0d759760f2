#!/bin/sh
# Puts a FIFO (fifo) or a device node (device, /dev/null's) where -U looks for busybox's
# build-id debug file, in a mount namespace of its own, then runs a cat there that fails to open
# its first file and stays alive reading a pipe for 2 s, so that its memory map is read while it
# runs.
kind=$1
# The GNU build-id note: namesz 4, descsz 20, type 3, "GNU\0", then the 20-byte id.
id=$(od -A n -t x1 -v -N 8192 /bin/busybox | tr -d ' \n' |
  grep -o '040000001400000003000000474e5500[0-9a-f]\{40\}' | cut -c33-)
dir=/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)
file=$dir/$(echo "$id" | cut -c3-).debug
case "$kind" in
  fifo) make="mkfifo $file" ;;
  device) make="mknod $file c 1 5" ;;
  *) echo "trap-debug-file: fifo or device, not '$kind'" >&2; exit 2 ;;
esac
mkdir -p /usr/lib/debug
unshare -m sh -c "mount -t tmpfs none /usr/lib/debug && mkdir -p $dir && $make &&
  sleep 2 | cat /nonexistent-rs-debug -"
true
