#!/bin/sh
# Runs retsnoop with the given arguments while simfail-user loads the stripped copy of
# libsimfail.so (no DWARF, no .symtab) in place of the one with DWARF: the copy is put in
# /tmp/stripped under the library's own name and found through LD_LIBRARY_PATH, which command
# mode passes on (and resolves a "libsimfail.so:GLOB" through, as the loader will).
set -e
mkdir -p /tmp/stripped
cp /lib/*-linux-gnu/libsimfail-stripped.so /tmp/stripped/libsimfail.so
LD_LIBRARY_PATH=/tmp/stripped exec retsnoop "$@"
