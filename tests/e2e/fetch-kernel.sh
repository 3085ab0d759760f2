#!/usr/bin/env bash
# Fetches a Debian cloud kernel (vmlinuz, config, modules; with --dbg also the vmlinux with DWARF)
# into a cache outside the build tree and prints the cache directory on stdout.
#
# Usage: fetch-kernel.sh 6.1|6.12 [--dbg] [--arch amd64|arm64]
# Env:   RETSNOOP_CACHE  cache root (default /var/cache/retsnoop-vm)
# Cache: <root>/<KVER>[-arm64]/{kernel-version,package,vmlinuz,config,lib/modules/<ver>/,
#        vmlinux-<ver>}
set -euo pipefail

die() { echo "fetch-kernel: $*" >&2; exit 1; }
say() { echo "fetch-kernel: $*" >&2; }

usage() { die "usage: fetch-kernel.sh 6.1|6.12 [--dbg] [--arch amd64|arm64]"; }

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
    6.1) echo "linux-image-cloud-$2$suffix" ;;
    6.12) echo "linux-image-6.12-cloud-$2$suffix" ;;
    *) usage ;;
  esac
}

# Prints the versioned package the meta package points to ("linux-image-6.1.0-56-cloud-amd64").
resolve_package() {
  local meta=$1 name
  name=$(apt-cache depends "$meta" 2>/dev/null | awk '/Depends: linux-image-/ {print $2; exit}')
  if [[ -z $name ]]; then
    say "apt-cache does not know $meta; running apt-get update"
    apt-get update -qq >&2 || die "apt-get update failed"
    name=$(apt-cache depends "$meta" 2>/dev/null | awk '/Depends: linux-image-/ {print $2; exit}')
  fi
  [[ -n $name ]] || die "cannot resolve $meta to a kernel package"
  echo "${name%%:*}"  # apt-cache names a foreign architecture's package with its qualifier
}

# Downloads one .deb into DIR and prints its path.
download_deb() {
  local pkg=$1 dir=$2
  say "downloading $pkg"
  (cd "$dir" && apt-get download -q -o APT::Sandbox::User=root "$pkg" >&2) || die "apt-get download $pkg failed"
  compgen -G "$dir/*.deb" | head -n1
}

# Fills STAGE with vmlinuz, config, lib/modules/<ver> and the version files.
fetch_image() {
  local pkg=$1 stage=$2 arch=$3 tmp deb ver mods
  scratch_dir tmp "$stage.dl"
  deb=$(download_deb "$pkg-unsigned:$arch" "$tmp")
  dpkg-deb -x "$deb" "$tmp/root"
  ver=$(basename "$(compgen -G "$tmp/root/boot/vmlinuz-*" | head -n1)")
  ver=${ver#vmlinuz-}
  [[ -n $ver ]] || die "$pkg-unsigned holds no /boot/vmlinuz-*"
  # Packages built for merged-/usr releases ship the modules under /usr/lib.
  mods=$tmp/root/lib/modules/$ver
  [[ -d $mods ]] || mods=$tmp/root/usr/lib/modules/$ver
  mkdir -p "$stage/lib/modules"
  mv "$tmp/root/boot/vmlinuz-$ver" "$stage/vmlinuz"
  mv "$tmp/root/boot/config-$ver" "$stage/config"
  mv "$mods" "$stage/lib/modules/$ver"
  # Debian generates modules.dep at install time, so the package lacks it; modprobe in the guest
  # needs it.
  busybox depmod -b "$stage" "$ver" || die "depmod failed for $ver"
  echo "$ver" >"$stage/kernel-version"
  echo "$pkg" >"$stage/package"
}

# Extracts only the DWARF vmlinux from the -dbg package: the rest is gigabytes of module debug info.
fetch_dbg() {
  local dir=$1 arch=$2 pkg ver tmp deb member
  pkg=$(cat "$dir/package")
  ver=$(cat "$dir/kernel-version")
  scratch_dir tmp "$dir.dbg"
  deb=$(download_deb "$pkg-dbg:$arch" "$tmp")
  member=./usr/lib/debug/boot/vmlinux-$ver
  say "extracting ${member#.}"
  # tar stops at the member (--occurrence) and so cuts dpkg-deb's pipe: only tar's status counts.
  tar -x --occurrence=1 -C "$tmp" "$member" < <(dpkg-deb --fsys-tarfile "$deb" 2>/dev/null) ||
    die "cannot extract $member from $pkg-dbg"
  rm -f "$deb"
  mv "$tmp/$member" "$dir/vmlinux-$ver"
}

main() {
  local kver="" dbg=0 arch=amd64 suffix=""
  while (($#)); do
    case "$1" in
      --dbg) dbg=1 ;;
      --arch) arch=${2:?}; shift ;;
      6.1 | 6.12) kver=$1 ;;
      *) usage ;;
    esac
    shift
  done
  [[ -n $kver && ($arch == amd64 || $arch == arm64) ]] || usage
  [[ $arch == amd64 ]] || suffix=-$arch

  local root=${RETSNOOP_CACHE:-/var/cache/retsnoop-vm}
  local dir=$root/$kver$suffix
  mkdir -p "$root" || die "cannot create cache root $root (set RETSNOOP_CACHE)"

  # Parallel callers (several test runs, several engineers) serialize here; the loser then finds
  # the cache filled and downloads nothing.
  exec 9>"$root/$kver$suffix.lock"
  flock 9

  if [[ ! -f $dir/kernel-version ]]; then
    local stage
    scratch_dir stage "$root/$kver$suffix.stage"
    chmod 755 "$stage"
    fetch_image "$(resolve_package "$(meta_package "$kver" "$arch")")" "$stage" "$arch"
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
