#!/bin/sh
# Starts simfail-user with the stripped copy of libsimfail.so loaded in place of the one with
# DWARF (through LD_LIBRARY_PATH, which retsnoop itself does not get), then runs
# retsnoop -p PID with the given arguments: a "libsimfail.so:GLOB" must resolve to the copy the
# process maps, /tmp/stripped/libsimfail.so.
set -e
mkdir -p /tmp/stripped
cp /lib/*-linux-gnu/libsimfail-stripped.so /tmp/stripped/libsimfail.so
LD_LIBRARY_PATH=/tmp/stripped simfail-user sleep >/dev/null &
pid=$!
sleep 1
status=0
retsnoop -p "$pid" "$@" || status=$?
kill "$pid"
exit "$status"
