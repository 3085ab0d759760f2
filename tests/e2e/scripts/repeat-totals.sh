#!/bin/sh
# Adds up the sessions a -C stacks.repeats=count run printed in FILE: those printed in full (a
# TID/PID header each) and those counted on "... and N more identical sessions" lines.
#   full=N counted=N total=N
awk '/^[0-9].* TID\/PID / { full++ }
     /^\.\.\. and [0-9]+ more identical/ { n += $3 }
     END { print "full=" full + 0 " counted=" n + 0 " total=" full + n }' "$1"
