#!/usr/bin/env bash
# Installs every build, test and VM dependency from Debian packages. Idempotent: only missing
# packages are installed, and apt-get update runs only when something is missing.
set -euo pipefail

PKGS=(
  build-essential cmake pkg-config clang llvm
  libbpf-dev libelf-dev libdw-dev zlib1g-dev libzstd-dev liblzma-dev libbz2-dev
  bpftool libgtest-dev libbenchmark-dev nlohmann-json3-dev
  qemu-system-x86 busybox-static
  scdoc man-db zsh
)

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
