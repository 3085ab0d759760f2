# shellcheck shell=bash
# Helpers shared by run-e2e.sh and demo.sh; sourced, not run.

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$E2E_DIR/../.." && pwd)
PROG=$(basename "$0" .sh)

say() { echo "$PROG: $*" >&2; }
die() { say "$*"; exit 2; }

# The guests' architecture: amd64 or arm64 (set by the scripts' --arch).
E2E_ARCH=${E2E_ARCH:-amd64}

# set_arch VALUE: takes an --arch value; returns 1 for an architecture the guests don't boot.
set_arch() {
  case "$1" in
    amd64 | arm64) E2E_ARCH=$1 ;;
    *) return 1 ;;
  esac
}

# The build dir of E2E_ARCH when none is given: <repo>/build, <repo>/build-arm64.
default_build_dir() {
  local build=$REPO_DIR/build
  [[ $E2E_ARCH == amd64 ]] || build+=-$E2E_ARCH
  echo "$build"
}

# Prints a static busybox for E2E_ARCH: the host's for amd64; for arm64 Debian's busybox-static,
# downloaded once into the kernel cache (it cannot be installed beside the host's).
guest_busybox() {
  if [[ $E2E_ARCH == amd64 ]]; then
    command -v busybox || die "busybox not found (install busybox-static)"
    return
  fi
  local root=${RETSNOOP_CACHE:-/var/cache/retsnoop-vm} dir tmp
  dir=$root/busybox-$E2E_ARCH
  if [[ ! -x $dir/busybox ]]; then
    # The first thing a new machine fetches: the kernels come later.
    mkdir -p "$root" || die "cannot create cache root $root (set RETSNOOP_CACHE)"
    tmp=$(mktemp -d "$dir.XXXXXX")
    (cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root "busybox-static:$E2E_ARCH" >&2) ||
      die "apt-get download busybox-static:$E2E_ARCH failed"
    dpkg-deb -x "$tmp"/*.deb "$tmp/root"
    mkdir -p "$dir" && mv "$tmp/root/bin/busybox" "$dir/busybox"
    rm -rf "$tmp"
  fi
  echo "$dir/busybox"
}

# Sets GUEST_BINS to the static binaries of build dir $1 that go into the guest's /bin.
# retsnoop is optional only when $2 is "optional": the bed is usable before retsnoop exists.
guest_binaries() {
  local build=$1 retsnoop=$1/tests/e2e/bin/retsnoop bin
  GUEST_BINS=()
  for bin in "$build/tests/workloads/simfail" "$build/tests/e2e/tools/rs-leakcheck" \
    "$build/tests/e2e/tools/rs-runas" "$build/tests/e2e/tools/rs-flock" \
    "$build/tests/e2e/tools/rs-startup-floor"; do
    [[ -x $bin ]] || die "$bin missing: build it with cmake --build $build --target $(basename "$bin")"
    GUEST_BINS+=("$bin")
  done
  guest_user_runtime "$build"
  if [[ -x $retsnoop ]]; then
    GUEST_BINS+=("$retsnoop")
  elif [[ ${2:-} == optional ]]; then
    say "warning: $retsnoop not built; cases that run retsnoop will fail"
  else
    die "$retsnoop missing: build it with cmake --build $build --target retsnoop-e2e"
  fi
}

# simfail-user and libsimfail.so (the uprobe cases) are dynamically linked: the guest gets them
# with the loader and the libraries they need, in the multiarch directory the loader searches
# without a cache. They come from the C compiler that built them (the build dir's, a cross
# compiler's sysroot for arm64), asked by name: the interpreter's path is the guest's, not the
# build host's. Fills GUEST_ADDS with mkinitramfs -a arguments.
guest_user_runtime() {
  local dir=$1/tests/workloads cc interp lib multiarch
  GUEST_ADDS=()
  [[ -x $dir/simfail-user ]] || return 0
  # A toolchain file's compiler is in the configure step's record, not in CMakeCache.txt.
  cc=$(sed -n 's/^set(CMAKE_C_COMPILER "\(.*\)")$/\1/p' "$1"/CMakeFiles/*/CMakeCCompiler.cmake | tail -n 1)
  [[ -n $cc ]] || die "$1/CMakeFiles names no C compiler: configure $1 again"
  multiarch=$("$cc" -print-multiarch)
  interp=$(readelf -l "$dir/simfail-user" | sed -n 's/.*interpreter: \(.*\)]$/\1/p')
  GUEST_BINS+=("$dir/simfail-user")
  GUEST_ADDS+=(-a "$(compiler_file "$cc" "${interp##*/}"):$interp")
  GUEST_ADDS+=(-a "$dir/libsimfail.so:/lib/$multiarch/libsimfail.so")
  GUEST_ADDS+=(-a "$dir/libsimfail-stripped.so:/lib/$multiarch/libsimfail-stripped.so")
  for lib in $(readelf -d "$dir/simfail-user" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
    [[ $lib == libsimfail.so ]] && continue
    GUEST_ADDS+=(-a "$(compiler_file "$cc" "$lib"):/lib/$multiarch/$lib")
  done
}

# compiler_file CC NAME: the file NAME that compiler CC links against, links resolved.
compiler_file() {
  local path
  path=$(readlink -f "$("$1" -print-file-name="$2")")
  [[ -f $path ]] || die "$1 has no $2"
  echo "$path"
}

# boot_guest KDIR WORKDIR SCRIPT TIMEOUT MEM [mkinitramfs args...]
# Boots kernel dir KDIR (from fetch-kernel.sh) with GUEST_BINS and SCRIPT; the guest's output
# streams to stdout, logs stay in WORKDIR. Returns run-vm.sh's status.
boot_guest() {
  local kdir=$1 work=$2 script=$3 timeout=$4 mem=$5 args=() bin status=0
  shift 5
  for bin in "${GUEST_BINS[@]}"; do args+=(-b "$bin"); done
  args+=(${GUEST_ADDS[@]+"${GUEST_ADDS[@]}"})
  # arm64 guests print the script's output on a virtio console (the board has one UART), whose
  # drivers some kernels build as modules.
  if [[ $E2E_ARCH == arm64 ]]; then
    grep -q '^CONFIG_VIRTIO_PCI=m' "$kdir/config" && args+=(-m virtio_pci)
    grep -q '^CONFIG_VIRTIO_CONSOLE=m' "$kdir/config" && args+=(-m virtio_console)
  fi
  mkdir -p "$work"
  "$E2E_DIR/mkinitramfs.sh" -o "$work/initramfs.cpio" -s "$script" -k "$kdir" --busybox "$(guest_busybox)" \
    "${args[@]}" "$@" || die "mkinitramfs.sh failed"
  "$E2E_DIR/run-vm.sh" -k "$kdir/vmlinuz" -i "$work/initramfs.cpio" -o "$work" -t "$timeout" \
    -m "$mem" -a "$E2E_ARCH" || status=$?
  # Rebuilt in under a second, and hundreds of MB with a DWARF vmlinux: don't keep it.
  rm -f "$work/initramfs.cpio"
  return "$status"
}
