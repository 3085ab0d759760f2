#!/usr/bin/env bash
# Checks run-vm.sh's silence limit on a stand-in for QEMU (a sleep): it is stopped once its output
# stops growing for the limit, and left alone while the output grows.
set -euo pipefail
# shellcheck source=tests/e2e/run-vm.sh
source "$(dirname "${BASH_SOURCE[0]}")/run-vm.sh"
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT
fail() { echo "silence_test: $*" >&2; exit 1; }

# Silent: stopped after the limit, and the mark tells the report why.
: >"$tmp/quiet.log"
sleep 300 &
guest=$! rc=0
watch_silence "$tmp/quiet.log" "$guest" 5 "$tmp/quiet.mark"
wait "$guest" || rc=$?
((rc == 128 + 15)) || fail "a silent guest was not stopped (exit $rc)"
[[ -f $tmp/quiet.mark ]] || fail "a silent guest was stopped without its mark"

# Printing a line every second for 8 s, longer than the limit: never stopped, no mark, and the watch ends with the guest.
{ for _ in $(seq 8); do echo line; sleep 1; done >"$tmp/busy.log"; } &
guest=$!
watch_silence "$tmp/busy.log" "$guest" 5 "$tmp/busy.mark"
wait "$guest" || fail "a guest that kept printing was stopped"
[[ ! -f $tmp/busy.mark ]] || fail "a guest that kept printing was marked silent"
echo "silence_test: ok"
