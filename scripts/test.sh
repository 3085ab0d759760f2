#!/usr/bin/env bash
# README command 2: a warning-free build, the style checks (scripts/lint.sh), unit tests (also
# under ASan and UBSan), then end-to-end tests inside VMs running Debian's kernels from 5.10 to
# sid's newest (docs/kernels.md), on x86-64 and (cross-built) arm64. Ends with the e2e totals of
# both architectures.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
build_arm64=${BUILD_DIR_ARM64:-$root/build-arm64}
build_sanitize=${BUILD_DIR_SANITIZE:-$root/build-sanitize}
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# e2e ARCH BUILD: the suite for one architecture; its "N passed, N failed" line is kept.
e2e() {
  bash "$root/tests/e2e/run-e2e.sh" --arch "$1" --build "$2" --kernel all | tee "$logs/$1.log"
}

bash "$root/scripts/build.sh" -- -DRETSNOOP_WERROR=ON
echo "== lint"
# clang-tidy takes several CPU minutes over the tree: RETSNOOP_TIDY=1 adds it.
tidy=()
[[ -z ${RETSNOOP_TIDY:-} ]] || tidy=(--tidy "$build")
bash "$root/scripts/lint.sh" "${tidy[@]}"
echo "== unit tests"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
echo "== unit tests with AddressSanitizer and UndefinedBehaviorSanitizer"
BUILD_DIR=$build_sanitize bash "$root/scripts/build.sh" --target unit_tests -- \
  -DRETSNOOP_SANITIZE=address,undefined -DRETSNOOP_WERROR=ON -DRETSNOOP_BENCH=OFF \
  -DRETSNOOP_PACKAGING=OFF
ctest --test-dir "$build_sanitize" --output-on-failure -j"$(nproc)" -R '^unit\.'
echo "== end-to-end tests (QEMU, x86-64)"
e2e amd64 "$build"
echo "== arm64 build and end-to-end tests (QEMU, arm64)"
BUILD_DIR=$build_arm64 BUILD_DIR_NATIVE=$build bash "$root/scripts/build.sh" --arch arm64
echo "== arm64 package"
version=$("$build/retsnoop" --version | sed -n 's/^retsnoop v//p')  # the same sources' version
bash "$root/tests/packaging/deb.sh" "$build_arm64" "$version" arm64 >/dev/null
e2e arm64 "$build_arm64"
awk '/^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$/ { p += $1; f += $3; s += $5 }
  END { printf "%d passed, %d failed, %d skipped\n", p, f, s }' \
  "$logs"/amd64.log "$logs"/arm64.log
