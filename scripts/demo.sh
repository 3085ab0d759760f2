#!/usr/bin/env bash
# README command 1: set everything up, boot a real kernel in QEMU and watch retsnoop catch a
# failing bpf() syscall there.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}

bash "$root/scripts/build.sh" --target guest_binaries
exec bash "$root/tests/e2e/demo.sh" --build "$build" "$@"
