#!/usr/bin/env bash
# Builds the pinned libbpf from Debian's own source package into PREFIX (static library, its
# headers and the UAPI headers it was written against). Debian 12 ships libbpf 1.1, which lacks
# the kprobe session links of Linux 6.10 and validates BTF less; the newer release comes as source
# from Debian 13 through a private apt configuration, so the system's sources stay as they are.
# Does nothing when PREFIX already holds this version. CMake (cmake/Libbpf.cmake) runs it once
# per build directory.
#
# Usage: build-libbpf.sh --prefix DIR [--cc COMPILER]
#   --cc  the C compiler of the target, e.g. aarch64-linux-gnu-gcc for the arm64 cross build; its
#         libelf and zlib headers are the target's (scripts/setup-deps.sh --arch arm64)
# Env:  RETSNOOP_CACHE  where the private apt configuration lives (default /var/cache/retsnoop-vm,
#       shared with tests/e2e/fetch-kernel.sh)
set -euo pipefail

# The pinned source package: a version of Debian 13 (trixie), and the hashes of the files that
# make it. dpkg-source checks the Debian tarball against the .dsc.
SUITE=trixie
VERSION=1.5.0-3
DSC_SHA256=b8fdd3a9c58a13d13e9da0927062f1237303db3a804207e423ec4335119d3245
ORIG_SHA256=53492aff6dd47e4da04ef5e672d753b9743848bdb38e9d90eafbe190b7983c44

die() { echo "build-libbpf: $*" >&2; exit 1; }
say() { echo "build-libbpf: $*" >&2; }

PREFIX=""
CC_TARGET=cc
while (($#)); do
  case "$1" in
    --prefix) PREFIX=${2:?}; shift ;;
    --cc) CC_TARGET=${2:?}; shift ;;
    *) die "unknown argument '$1'" ;;
  esac
  shift
done
[[ -n $PREFIX ]] || die "usage: build-libbpf.sh --prefix DIR [--cc COMPILER]"
stamp=$PREFIX/debian-version
[[ $(cat "$stamp" 2>/dev/null) == "$VERSION" ]] && exit 0

# Sets APT_OPTS to a private configuration holding only the source index of $SUITE, refreshed when
# $1 is "refresh" or it has never been fetched.
APT_OPTS=()
private_apt() {
  local dir=$ROOT/apt/$SUITE-src uri
  # shellcheck disable=SC2016 # apt's own field names, not shell expansions
  uri=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 2>/dev/null | awk '$2 !~ /-/ { print $1; exit }')
  [[ -n $uri ]] || die "cannot find the system's Debian archive in apt's sources"
  mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
  echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $SUITE main" >"$dir/sources.list"
  APT_OPTS=(-o "Dir::Etc::sourcelist=$dir/sources.list" -o Dir::Etc::sourceparts=- -o
    "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache" -o APT::Sandbox::User=root)
  if [[ $1 == refresh || ! -f $dir/stamp ]]; then
    say "updating the source index of $SUITE"
    apt-get "${APT_OPTS[@]}" update -qq >&2 || die "apt-get update of $SUITE's sources failed"
    touch "$dir/stamp"
  fi
}

# Downloads the pinned source package into the current directory, with one index refresh when
# the cached index does not know it.
download_source() {
  private_apt cached
  if ! apt-get "${APT_OPTS[@]}" source --download-only -qq "libbpf=$VERSION" >&2; then
    private_apt refresh
    apt-get "${APT_OPTS[@]}" source --download-only -qq "libbpf=$VERSION" >&2 ||
      die "$SUITE no longer has libbpf $VERSION: pin its current version and hashes here"
  fi
  local upstream=${VERSION%-*}
  sha256sum --quiet -c - <<EOF || die "libbpf $VERSION does not match its pinned sha256"
$DSC_SHA256  libbpf_$VERSION.dsc
$ORIG_SHA256  libbpf_$upstream.orig.tar.gz
EOF
}

ROOT=${RETSNOOP_CACHE:-/var/cache/retsnoop-vm}
mkdir -p "$ROOT/apt" || die "cannot create $ROOT (set RETSNOOP_CACHE)"
work=$(mktemp -d "${TMPDIR:-/tmp}/libbpf.XXXXXX")
trap 'rm -rf "$work"' EXIT
start=$SECONDS
(
  # Build directories configured at the same time share the private index.
  flock 9
  cd "$work"
  download_source
) 9>"$ROOT/apt/$SUITE-src.lock"
dpkg-source -q -x "$work/libbpf_$VERSION.dsc" "$work/src" >/dev/null 2>&1 ||
  die "dpkg-source cannot unpack libbpf_$VERSION.dsc"

# Static only, position independent so that the dynamically linked tests can take it too; the
# library is linked against the libelf and zlib the build already uses, so pkg-config is not asked.
say "building libbpf $VERSION with $CC_TARGET"
rm -rf "$PREFIX"
make -s -C "$work/src/src" -j"$(nproc)" BUILD_STATIC_ONLY=1 NO_PKG_CONFIG=1 CC="$CC_TARGET" \
  CFLAGS="-g -O2 -fPIC" OBJDIR="$work/obj" PREFIX="$PREFIX" LIBSUBDIR=lib \
  install install_uapi_headers >/dev/null || die "building libbpf $VERSION failed"
echo "$VERSION" >"$stamp"
say "libbpf $VERSION built into $PREFIX in $((SECONDS - start)) s"
