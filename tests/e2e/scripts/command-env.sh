#!/bin/sh
# shellcheck disable=SC3045 # the guest's busybox sh has ulimit -n and -l
# The command of a `retsnoop --user` case: prints on one line the limits, HOME, USER, LOGNAME,
# SHELL and uid it was started with, then "own session" when it leads a session of its own.
echo "nofile $(ulimit -n) memlock $(ulimit -l) home $HOME user $USER logname $LOGNAME shell $SHELL uid $(id -u)"
[ "$(cut -d' ' -f6 "/proc/$$/stat")" = "$$" ] && echo own session
