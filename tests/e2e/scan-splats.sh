#!/bin/sh
# Scans a kernel log for splats: the signs that the kernel hit a bug, a warning or a hang.
# POSIX sh, because it runs both on the host (whole console log) and in the busybox guest (the
# kernel log of one case).
#
# Usage: scan-splats.sh LOG
# Prints each splat line once (a line seen both on the console and in the dmesg dump counts once)
# and exits 1 if there is any, 0 if the log is clean, 2 if LOG cannot be read.
set -eu

[ $# -eq 1 ] || { echo "usage: scan-splats.sh LOG" >&2; exit 2; }
[ -r "$1" ] || { echo "scan-splats: cannot read $1" >&2; exit 2; }

# Kernel wording: BUG()/WARN() reports, oopses (also "Oops: int3" from a stray breakpoint),
# soft/hard lockups, RCU stall reports, GPFs, and any stack dump.
PATTERN='BUG:|kernel BUG at|WARNING:|Oops|UBSAN:|soft lockup|hard LOCKUP|rcu.*(detected|self-detected) stall|general protection fault|Call Trace:|Kernel panic'

splats=$(tr -d '\r' <"$1" | grep -E -e "$PATTERN" | awk '!seen[$0]++' || true)
[ -z "$splats" ] && exit 0
echo "$splats"
exit 1
