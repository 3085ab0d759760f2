#!/usr/bin/env bash
# Installs dependencies (idempotent) and builds everything into ${BUILD_DIR:-build}.
#
# Usage: build.sh [--arch amd64|arm64]
#   arm64: cross-compiles the static retsnoop, the reproducer and the e2e tools into
#   ${BUILD_DIR:-build-arm64}, and its .deb with `cmake --build build-arm64 --target package`.
#   Unit tests and benchmarks run on the build machine, so they are built for amd64 only; the
#   completions are generated with the amd64 build's cli_words (built first when missing).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
arch=amd64
if [ "${1:-}" = --arch ]; then arch=${2:?}; fi

case "$arch" in
  amd64)
    build=${BUILD_DIR:-$root/build}
    cross=()
    ;;
  arm64)
    build=${BUILD_DIR:-$root/build-arm64}
    native=${BUILD_DIR_NATIVE:-$root/build}
    if [[ ! -x $native/packaging/cli_words ]]; then
      BUILD_DIR=$native bash "$0"
    fi
    cross=(-DCMAKE_TOOLCHAIN_FILE="$root/cmake/aarch64-linux-gnu.cmake" -DRETSNOOP_TESTS=OFF
      -DRETSNOOP_BENCH=OFF -DRETSNOOP_CLI_WORDS="$native/packaging/cli_words")
    ;;
  *) echo "build: unknown architecture '$arch' (amd64 or arm64)" >&2; exit 2 ;;
esac

bash "$root/scripts/setup-deps.sh" --arch "$arch"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${cross[@]}" >/dev/null
cmake --build "$build" -j"$(nproc)"
