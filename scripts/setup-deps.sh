#!/usr/bin/env bash
# Installs every build, test and VM dependency from Debian packages. Idempotent: only missing
# packages are installed, and apt-get update runs only when something is missing.
#
# Usage: setup-deps.sh [--arch amd64|arm64] [--stamp-dir DIR]
#   arm64: also the cross compiler, the arm64 static libraries (Debian multiarch) and the arm64
#   system emulator, for build-arm64/ and its test VMs.
#   --stamp-dir: after a successful check, leave a stamp named after the package list in DIR
#   and skip every later check while it is there (scripts/build.sh passes its build directory,
#   so the packages are checked once per build directory and again when the list changes).
set -euo pipefail

ARCH=amd64
STAMP_DIR=""
while (($#)); do
  case "$1" in
    --arch) ARCH=${2:?}; shift ;;
    --stamp-dir) STAMP_DIR=${2:?}; shift ;;
    *) echo "setup: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done

# libclang-rt-dev: clang's runtimes (libFuzzer, its ASan and UBSan) for scripts/fuzz.sh; clang
# only recommends them. dpkg-dev, bzip2, xz-utils and m4: scripts/fuzz-elfutils.sh fetches,
# unpacks and builds elfutils' source package.
PKGS=(
  build-essential cmake ninja-build pkg-config clang llvm clang-format clang-tidy shellcheck libclang-rt-dev
  dpkg-dev bzip2 xz-utils m4
  libelf-dev libdw-dev libseccomp-dev zlib1g-dev libzstd-dev liblzma-dev libbz2-dev
  bpftool libgtest-dev libbenchmark-dev nlohmann-json3-dev libcapstone-dev
  qemu-system-x86 busybox-static
  scdoc man-db zsh systemd
)
case "$ARCH" in
  amd64) ;;
  arm64)
    # libc6-dev-arm64-cross: the sysroot's loader and libc, which the arm64 guests get for the
    # dynamically linked simfail-user (tests/e2e/lib.sh).
    PKGS+=(g++-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm
      libelf-dev:arm64 libdw-dev:arm64 libseccomp-dev:arm64 zlib1g-dev:arm64 libzstd-dev:arm64
      liblzma-dev:arm64 libbz2-dev:arm64 libcapstone-dev:arm64)
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
      echo "setup: adding the arm64 package architecture"
      $SUDO dpkg --add-architecture arm64
      $SUDO apt-get update -qq
    fi
    ;;
  *) echo "setup: unknown architecture '$ARCH' (amd64 or arm64)" >&2; exit 2 ;;
esac

stamp=""
if [[ -n $STAMP_DIR ]]; then
  stamp=$STAMP_DIR/.setup-deps-$(printf '%s\n' "$ARCH" "${PKGS[@]}" | sha256sum | cut -c1-16)
  [[ -e $stamp ]] && exit 0
fi

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
[[ -z $stamp ]] || touch "$stamp"
