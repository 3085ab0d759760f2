#!/bin/sh
# Runs `retsnoop --user nobody ARGS -- sh command-stdio.sh DIR` with standard input and error on
# the guest's first serial port, a terminal. Prints the command's lines (command-stdio.sh), then
#   exit N                          (retsnoop's exit status)
#   background ended                (or "left running": what the command left in its group)
mkdir -p /etc /tmp/rs-cmd && chmod 777 /tmp/rs-cmd
echo 'nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin' >>/etc/passwd
retsnoop --user nobody "$@" -- sh /guest/scripts/command-stdio.sh /tmp/rs-cmd <>/dev/ttyS0 2>&0
echo "exit $?"
if kill -0 "$(cat /tmp/rs-cmd/bg.pid)" 2>/dev/null; then
  echo "background left running"
else
  echo "background ended"
fi
