#!/usr/bin/env bash
# README command 2: a warning-free build, the style checks (scripts/lint.sh), unit tests (also
# under ASan and UBSan), each parser's fuzz target for a few seconds (scripts/fuzz.sh), then
# end-to-end tests inside VMs running Debian's kernels from 5.10 to sid's newest
# (docs/kernels.md), on x86-64 and (cross-built) arm64 guests side by side. Ends with the e2e
# totals of both architectures. That whole run is CI's; two lanes are for contributors:
#
# Usage: test.sh                     everything, as CI runs it
#        test.sh --quick             the build, lint, unit tests and sanitizers: no fuzzing, no VMs
#        test.sh [--kernels LIST] [--arch amd64|arm64|all] [--cases REGEX]
#                                    the build and the e2e cases whose NAME matches REGEX on the
#                                    kernels of LIST (comma-separated: 5.10,6.1,6.12,sid; default
#                                    all) and architectures (default amd64)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
build_arm64=${BUILD_DIR_ARM64:-$root/build-arm64}
build_fuzz=${BUILD_DIR_FUZZ:-$root/build-fuzz}
usage() { sed -n '8,13s/^# \{0,1\}//p' "$0" >&2; exit 2; }

lane=all kernels=all arch="" cases=""
while (($#)); do
  case "$1" in
    --quick) lane=quick ;;
    --kernels) kernels=${2:?--kernels wants a list}; lane=e2e; shift ;;
    --cases) cases=${2:?--cases wants a regex}; lane=e2e; shift ;;
    --arch) arch=${2:?--arch wants amd64, arm64 or all}; lane=e2e; shift ;;
    -h | --help) usage ;;
    *) echo "test.sh: unknown argument '$1'" >&2; usage ;;
  esac
  shift
done
[[ $lane == e2e ]] || [[ -z $arch ]] || usage

# Each step's heading carries the time since the start, so that a slow step shows in CI's log.
step() { echo "== $1 (at $((SECONDS / 60)) min $((SECONDS % 60)) s)"; }
trap 'echo "== the tests took $((SECONDS / 60)) min $((SECONDS % 60)) s"' EXIT

build_arm64() {
  step "arm64 build and package"
  BUILD_DIR=$build_arm64 BUILD_DIR_NATIVE=$build bash "$root/scripts/build.sh" --arch arm64
  local version
  version=$("$build/retsnoop" --version | sed -n 's/^retsnoop v//p')  # the same sources' version
  bash "$root/tests/packaging/deb.sh" "$build_arm64" "$version" arm64 >/dev/null
}

step build
bash "$root/scripts/build.sh" -- -DRETSNOOP_WERROR=ON
if [[ $lane == e2e ]]; then
  [[ ${arch:-amd64} == amd64 ]] || build_arm64
  step "end-to-end tests"
  bash "$root/tests/e2e/run-e2e.sh" --arch "${arch:-amd64}" --kernel "$kernels" --build "$build" \
    --build-arm64 "$build_arm64" ${cases:+"$cases"}
  exit
fi
step lint
bash "$root/scripts/lint.sh" --tidy "$build"
step "unit tests"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
# The fuzz targets' build (clang, ASan and UBSan) runs the unit tests too: one instrumented
# build of the sources instead of two.
step "unit tests with AddressSanitizer and UndefinedBehaviorSanitizer"
BUILD_DIR=$build_fuzz bash "$root/scripts/fuzz.sh" --unit-tests --no-fuzzing
[[ $lane == all ]] || exit 0
step "fuzzing"
BUILD_DIR=$build_fuzz bash "$root/scripts/fuzz.sh"
build_arm64
step "end-to-end tests (QEMU, x86-64 and arm64 guests, one per core)"
bash "$root/tests/e2e/run-e2e.sh" --arch all --kernel all --build "$build" --build-arm64 "$build_arm64"
