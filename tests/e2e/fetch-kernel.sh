#!/usr/bin/env bash
# Fetches a Debian cloud kernel (vmlinuz, config, modules; with --dbg also the vmlinux with DWARF)
# into a cache outside the build tree and prints the cache directory on stdout.
#
# Usage: fetch-kernel.sh 5.10|6.1|6.12|6.12-rt|sid [--dbg] [--arch amd64|arm64]
#   6.1, 6.12  the newest build of that series in the system's own Debian release
#   6.12-rt    the same 6.12 built with PREEMPT_RT (Debian's full rt flavour, x86-64 only)
#   5.10       Debian 11's LTS kernel (bullseye-security)
#   sid        the newest cloud kernel of Debian unstable, resolved again on every call (at most
#              hourly index updates), so a new kernel is tested the day Debian ships it
#   5.10 and sid come through a private apt configuration under the cache root that reuses the
#   system's own archive addresses and keyring: the system's sources and lists stay as they are.
# Env:   RETSNOOP_CACHE  cache root (default /var/cache/retsnoop-vm)
# Cache: <root>/<KVER>[-arm64]/{kernel-version,package,vmlinuz,config,lib/modules/<ver>/,
#        vmlinux-<ver>}
set -euo pipefail

die() { echo "fetch-kernel: $*" >&2; exit 1; }
say() { echo "fetch-kernel: $*" >&2; }

usage() { die "usage: fetch-kernel.sh 5.10|6.1|6.12|6.12-rt|sid [--dbg] [--arch amd64|arm64]"; }

# Set by main: the cache root and, for kernels of another Debian release, apt's options that
# point it at the private configuration (private_apt).
ROOT=""
APT_OPTS=()

# Scratch directories live next to the cache (same file system: the final mv is atomic) and go
# away on any exit, so an interrupted download leaves no half-filled cache behind.
# scratch_dir VAR PREFIX sets VAR (not echoed: a command substitution would lose SCRATCH).
SCRATCH=()
trap 'rm -rf "${SCRATCH[@]}"' EXIT
scratch_dir() {
  local -n out=$1
  out=$(mktemp -d "$2.XXXXXX")
  SCRATCH+=("$out")
}

# Debian meta packages that always depend on the newest build of each kernel series; arm64 ones
# are qualified with the architecture (scripts/setup-deps.sh --arch arm64 adds it to dpkg).
meta_package() {
  local suffix=""
  [[ $2 == amd64 ]] || suffix=":$2"
  case "$1" in
    5.10 | 6.1 | sid) echo "linux-image-cloud-$2$suffix" ;;
    6.12) echo "linux-image-6.12-cloud-$2$suffix" ;;
    # No cloud flavour is built with PREEMPT_RT; the matrix tests it on x86-64.
    6.12-rt) [[ $2 == amd64 ]] || die "6.12-rt is fetched for amd64 only"; echo "linux-image-6.12-rt-amd64" ;;
    *) usage ;;
  esac
}

# The suite that holds kernel $1 when it is not the system's own release.
private_suite() {
  case "$1" in
    5.10) echo bullseye-security ;;
    sid) echo sid ;;
  esac
}

# archive_uri
# shellcheck source=scripts/debian-archive.sh
source "$(dirname "$0")/../../scripts/debian-archive.sh"

# Sets APT_OPTS to a private apt configuration for suite $1 (one per suite, so that apt's
# candidate is that suite's kernel) and refreshes its index when older than an hour.
private_apt() {
  local suite=$1 dir=$ROOT/apt/$1 uri kind=main
  [[ $suite == *-security ]] && kind=security
  uri=$(archive_uri "$kind")
  [[ -n $uri ]] || die "cannot find the system's Debian $kind archive in apt's sources"
  mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg arch=amd64,arm64] $uri $suite main" \
    >"$dir/sources.list"
  APT_OPTS=(-o "Dir::Etc::sourcelist=$dir/sources.list" -o Dir::Etc::sourceparts=- -o
    "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache" -o APT::Architectures::=amd64 -o
    APT::Architectures::=arm64)
  if [[ -z $(find "$dir/stamp" -mmin -60 2>/dev/null) ]]; then
    say "updating the package index of $suite"
    if apt-get "${APT_OPTS[@]}" update -qq >&2; then
      touch "$dir/stamp"
    elif [[ -f $dir/stamp ]]; then
      say "warning: apt-get update of $suite failed; using its index of $(date -r "$dir/stamp")"
    else
      die "apt-get update of $suite failed"
    fi
  fi
}

# Prints the versioned package the meta package points to ("linux-image-6.1.0-56-cloud-amd64").
resolve_package() {
  local meta=$1 name
  name=$(apt-cache "${APT_OPTS[@]}" depends "$meta" 2>/dev/null | awk '/Depends: linux-image-/ {print $2; exit}')
  if [[ -z $name && ${#APT_OPTS[@]} -eq 0 ]]; then
    say "apt-cache does not know $meta; running apt-get update"
    apt-get update -qq >&2 || die "apt-get update failed"
    name=$(apt-cache depends "$meta" 2>/dev/null | awk '/Depends: linux-image-/ {print $2; exit}')
  fi
  [[ -n $name ]] || die "cannot resolve $meta to a kernel package"
  echo "${name%%:*}"  # apt-cache names a foreign architecture's package with its qualifier
}

# Downloads the first of packages $2... that downloads into DIR $1 and prints its path.
download_deb() {
  local dir=$1 pkg before after
  shift
  before=$(compgen -G "$dir/*.deb" || true)
  for pkg in "$@"; do
    say "downloading $pkg"
    if (cd "$dir" && apt-get "${APT_OPTS[@]}" download -q -o APT::Sandbox::User=root "$pkg" >&2); then
      after=$(compgen -G "$dir/*.deb")
      comm -13 <(echo "$before") <(echo "$after") | head -n1
      return 0
    fi
  done
  die "apt-get download $* failed"
}

# The packages that hold kernel package $1 for architecture $2, one line each: where a release
# splits a kernel (linux-image-* only depends on them), its base (config), binary (vmlinuz) and
# modules packages; else the unsigned image or, where the archive no longer has that, the image.
kernel_parts() {
  local pkg=$1 arch=$2 parts
  parts=$(apt-cache "${APT_OPTS[@]}" depends "$pkg:$arch" 2>/dev/null |
    awk -v a="$arch" '/Depends: linux-(base|binary|modules)-[0-9]/ { n = $2; sub(/:.*/, "", n); print n ":" a }')
  if [[ -n $parts ]]; then
    echo "$parts"
  else
    echo "$pkg-unsigned:$arch $pkg:$arch"
  fi
}

# Prints the first existing path among its arguments.
first_existing() {
  local f
  for f in "$@"; do
    [[ -e $f ]] && { echo "$f"; return 0; }
  done
  return 1
}

# Fills STAGE with vmlinuz, config, lib/modules/<ver> and the version files.
fetch_image() {
  local pkg=$1 stage=$2 arch=$3 tmp part deb ver mods vmlinuz config
  scratch_dir tmp "$stage.dl"
  while read -r -a part; do
    deb=$(download_deb "$tmp" "${part[@]}")
    dpkg-deb -x "$deb" "$tmp/root"
    rm -f "$deb"
  done < <(kernel_parts "$pkg" "$arch")
  # Releases before merged /usr put vmlinuz and config under /boot, later ones beside the modules.
  ver=$(basename "$(compgen -G "$tmp/root/boot/vmlinuz-*" || compgen -G "$tmp/root/usr/lib/modules/*/vmlinuz" | xargs -r dirname)")
  ver=${ver#vmlinuz-}
  [[ -n $ver ]] || die "$pkg holds no vmlinuz"
  vmlinuz=$(first_existing "$tmp/root/boot/vmlinuz-$ver" "$tmp/root/usr/lib/modules/$ver/vmlinuz") ||
    die "$pkg holds no vmlinuz for $ver"
  config=$(first_existing "$tmp/root/boot/config-$ver" "$tmp/root/usr/lib/modules/$ver/config") ||
    die "$pkg holds no config for $ver"
  mkdir -p "$stage/lib/modules"
  mv "$vmlinuz" "$stage/vmlinuz"
  mv "$config" "$stage/config"
  mods=$(first_existing "$tmp/root/lib/modules/$ver" "$tmp/root/usr/lib/modules/$ver") ||
    die "$pkg holds no modules for $ver"
  mv "$mods" "$stage/lib/modules/$ver"
  # The guest's busybox modprobe loads uncompressed modules only.
  find "$stage/lib/modules/$ver" -name '*.ko.xz' -exec xz -d {} +
  # Debian generates modules.dep at install time, so the package lacks it; modprobe in the guest
  # needs it.
  busybox depmod -b "$stage" "$ver" || die "depmod failed for $ver"
  echo "$ver" >"$stage/kernel-version"
  echo "$pkg" >"$stage/package"
}

# Extracts only the DWARF vmlinux from the -dbg package: the rest is gigabytes of module debug info.
# Releases keep it at /usr/lib/debug/boot/vmlinux-<ver> or, from 7.x, under
# /usr/lib/debug/lib/modules/<ver>/ with the former a symlink to it.
fetch_dbg() {
  local dir=$1 arch=$2 pkg ver tmp deb found
  pkg=$(cat "$dir/package")
  ver=$(cat "$dir/kernel-version")
  scratch_dir tmp "$dir.dbg"
  deb=$(download_deb "$tmp" "$pkg-dbg:$arch")
  say "extracting the vmlinux of $ver"
  tar -x --wildcards -C "$tmp" "./usr/lib/debug/boot/vmlinux-$ver" "./usr/lib/debug/lib/modules/$ver/vmlinux" \
    < <(dpkg-deb --fsys-tarfile "$deb" 2>/dev/null) 2>/dev/null || true
  rm -f "$deb"
  for found in "$tmp/usr/lib/debug/lib/modules/$ver/vmlinux" "$tmp/usr/lib/debug/boot/vmlinux-$ver"; do
    if [[ -f $found && ! -L $found ]]; then
      mv "$found" "$dir/vmlinux-$ver"
      return 0
    fi
  done
  die "$pkg-dbg holds no vmlinux for $ver"
}

main() {
  local kver="" dbg=0 arch=amd64 suffix=""
  while (($#)); do
    case "$1" in
      --dbg) dbg=1 ;;
      --arch) arch=${2:?}; shift ;;
      5.10 | 6.1 | 6.12 | 6.12-rt | sid) kver=$1 ;;
      *) usage ;;
    esac
    shift
  done
  [[ -n $kver && ($arch == amd64 || $arch == arm64) ]] || usage
  [[ $arch == amd64 ]] || suffix=-$arch

  ROOT=${RETSNOOP_CACHE:-/var/cache/retsnoop-vm}
  local dir=$ROOT/$kver$suffix suite pkg=""
  mkdir -p "$ROOT" || die "cannot create cache root $ROOT (set RETSNOOP_CACHE)"

  # Parallel callers (several test runs, several engineers) serialize here; the loser then finds
  # the cache filled and downloads nothing.
  exec 9>"$ROOT/$kver$suffix.lock"
  flock 9

  # Another release's kernel is resolved on every call: the cached one is replaced when the
  # release has moved on.
  suite=$(private_suite "$kver")
  if [[ -n $suite ]]; then
    private_apt "$suite"
    pkg=$(resolve_package "$(meta_package "$kver" "$arch")")
    [[ $(cat "$dir/package" 2>/dev/null) == "$pkg" ]] || rm -f "$dir/kernel-version"
  fi
  if [[ ! -f $dir/kernel-version ]]; then
    local stage
    scratch_dir stage "$ROOT/$kver$suffix.stage"
    chmod 755 "$stage"
    [[ -n $pkg ]] || pkg=$(resolve_package "$(meta_package "$kver" "$arch")")
    fetch_image "$pkg" "$stage" "$arch"
    rm -rf "$dir"
    mv "$stage" "$dir"
  fi
  if ((dbg)) && [[ ! -f $dir/vmlinux-$(cat "$dir/kernel-version") ]]; then
    fetch_dbg "$dir" "$arch"
  fi
  say "kernel $(cat "$dir/kernel-version") cached in $dir"
  echo "$dir"
}

main "$@"
