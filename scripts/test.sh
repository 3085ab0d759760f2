#!/usr/bin/env bash
# README command 2: a warning-free build, the style checks (scripts/lint.sh), unit tests (also
# under ASan and UBSan), each parser's fuzz target for a few seconds (scripts/fuzz.sh), then
# end-to-end tests inside VMs running Debian's kernels from 5.10 to sid's newest
# (docs/kernels.md), on x86-64 and (cross-built) arm64 guests side by side. Ends with the e2e
# totals of both architectures.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
build_arm64=${BUILD_DIR_ARM64:-$root/build-arm64}
build_sanitize=${BUILD_DIR_SANITIZE:-$root/build-sanitize}
build_fuzz=${BUILD_DIR_FUZZ:-$root/build-fuzz}
# Each step's heading carries the time since the start, so that a slow step shows in CI's log.
step() { echo "== $1 (at $((SECONDS / 60)) min $((SECONDS % 60)) s)"; }
trap 'echo "== the tests took $((SECONDS / 60)) min $((SECONDS % 60)) s"' EXIT
step build
bash "$root/scripts/build.sh" -- -DRETSNOOP_WERROR=ON
step lint
bash "$root/scripts/lint.sh" --tidy "$build"
step "unit tests"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
step "unit tests with AddressSanitizer and UndefinedBehaviorSanitizer"
BUILD_DIR=$build_sanitize bash "$root/scripts/build.sh" --target unit_tests -- \
  -DRETSNOOP_SANITIZE=address,undefined -DRETSNOOP_WERROR=ON -DRETSNOOP_BENCH=OFF \
  -DRETSNOOP_PACKAGING=OFF
ctest --test-dir "$build_sanitize" --output-on-failure -j"$(nproc)" -R '^unit\.'
step "fuzzing"
BUILD_DIR=$build_fuzz bash "$root/scripts/fuzz.sh"
step "arm64 build and package"
BUILD_DIR=$build_arm64 BUILD_DIR_NATIVE=$build bash "$root/scripts/build.sh" --arch arm64
version=$("$build/retsnoop" --version | sed -n 's/^retsnoop v//p')  # the same sources' version
bash "$root/tests/packaging/deb.sh" "$build_arm64" "$version" arm64 >/dev/null
step "end-to-end tests (QEMU, x86-64 and arm64 guests, one per core)"
bash "$root/tests/e2e/run-e2e.sh" --arch all --kernel all --build "$build" --build-arm64 "$build_arm64"
