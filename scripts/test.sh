#!/usr/bin/env bash
# README command 2: unit tests, then end-to-end tests inside VMs running the 6.1 and 6.12 kernels.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}

bash "$root/scripts/build.sh"
echo "== unit tests"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
echo "== end-to-end tests (QEMU)"
bash "$root/tests/e2e/run-e2e.sh" --build "$build" --kernel all
