#!/usr/bin/env bash
# Installs dependencies (once per build directory) and builds into ${BUILD_DIR:-build}.
#
# Usage: build.sh [--arch amd64|arm64] [--target TARGET]... [-- CMAKE_ARGS...]
#   --target  build only these targets (default: everything); `guest_binaries` is what the test
#             VMs run, `unit_tests` the unit test executables
#   arm64: cross-compiles the static retsnoop, the reproducer and the e2e tools into
#   ${BUILD_DIR:-build-arm64}, and its .deb with `cmake --build build-arm64 --target package`.
#   Unit tests and benchmarks run on the build machine, so they are built for amd64 only; the
#   completions are generated with the amd64 build's cli_words (built first when missing).
#   CMAKE_ARGS go to the configure step, e.g. -DRETSNOOP_WERROR=ON.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
arch=amd64
targets=()
cmake_args=()
while (($#)); do
  case "$1" in
    --arch) arch=${2:?}; shift ;;
    --target) targets+=(--target "${2:?}"); shift ;;
    --) shift; cmake_args=("$@"); break ;;
    *) echo "build: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done

case "$arch" in
  amd64)
    build=${BUILD_DIR:-$root/build}
    cross=()
    ;;
  arm64)
    build=${BUILD_DIR:-$root/build-arm64}
    native=${BUILD_DIR_NATIVE:-$root/build}
    if [[ ! -x $native/packaging/cli_words ]]; then
      BUILD_DIR=$native bash "$0" --target cli_words
    fi
    cross=(-DCMAKE_TOOLCHAIN_FILE="$root/cmake/aarch64-linux-gnu.cmake" -DRETSNOOP_TESTS=OFF
      -DRETSNOOP_BENCH=OFF -DRETSNOOP_CLI_WORDS="$native/packaging/cli_words")
    ;;
  *) echo "build: unknown architecture '$arch' (amd64 or arm64)" >&2; exit 2 ;;
esac

mkdir -p "$build"
bash "$root/scripts/setup-deps.sh" --arch "$arch" --stamp-dir "$build"
# Ninja schedules the whole tree at once; a build directory made earlier keeps its generator.
export CMAKE_GENERATOR=${CMAKE_GENERATOR:-Ninja}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "${cross[@]}" "${cmake_args[@]}" >/dev/null
cmake --build "$build" -j"$(nproc)" "${targets[@]}"
