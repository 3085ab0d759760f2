#!/usr/bin/env bash
# Builds libelf.a and libdw.a from Debian's elfutils source package with the fuzzer's coverage
# and ASan instrumentation, so that the fuzz targets see the edges of the ELF and DWARF parsers
# they drive (the system's libraries are opaque to libFuzzer). Built once per version and
# compiler into a cache outside the build tree; prints the directory holding the two archives.
#
# Usage: fuzz-elfutils.sh
# Env:   RETSNOOP_CACHE  cache root (default /var/cache/retsnoop-fuzz)
# The source comes through a private apt configuration under the cache root (a deb-src entry for
# the system's own archive address and keyring): the system's sources and lists stay as they are.
# The version is pinned to the one whose headers libdw-dev installs, and every file of it to its
# SHA-256, so a rebuilt package can never slip in unnoticed.
set -euo pipefail

die() { echo "fuzz-elfutils: $*" >&2; exit 1; }
say() { echo "fuzz-elfutils: $*" >&2; }

# archive_uri
# shellcheck source=scripts/debian-archive.sh
source "$(dirname "$0")/debian-archive.sh"

VERSION=0.188-2.1
SUITE=bookworm
SHA256=(
  "2e73c5bfe9d0ddbf837742d638c43b049590ae1de8f6e3d9c2740c28e2550760  elfutils_0.188-2.1.dsc"
  "fb8b0e8d0802005b9a309c60c1d8de32dd2951b56f0c3a3cb56d21ce01595dff  elfutils_0.188.orig.tar.bz2"
  "dac77dc13f8f3bb2c541d631faf75216fc6640a359143a4545129ee096bc35ff  elfutils_0.188-2.1.debian.tar.xz"
)
CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,address -fno-omit-frame-pointer -Wno-error"
# The libraries libdw.a takes the objects of, in the order they depend on each other.
PARTS=(lib:libeu.a libelf:libelf.a libebl:libebl.a backends:libebl_backends.a libcpu:libcpu.a
  libdwelf:libdwelf.a libdwfl:libdwfl.a libdw:libdw.a)

# The headers the fuzz build compiles against are the system's: they must be this version's.
dev=libdw-dev:$(dpkg --print-architecture)
# shellcheck disable=SC2016 # dpkg-query's own field name
installed=$(dpkg-query -W -f='${Version}' "$dev" 2>/dev/null || true)
[[ $installed == "$VERSION" ]] ||
  die "$dev is ${installed:-not installed}, the pinned source $VERSION: pin the installed one"

ROOT=${RETSNOOP_CACHE:-/var/cache/retsnoop-fuzz}
key=$( (echo "$VERSION $CFLAGS"; clang --version) | sha256sum | cut -c1-12)
out=$ROOT/elfutils-$VERSION-$key
mkdir -p "$ROOT"
# Concurrent fuzz builds wait for the one building rather than build it twice.
exec 9>"$ROOT/elfutils.lock"
flock 9
if [[ -f $out/libdw.a && -f $out/libelf.a ]]; then
  echo "$out"
  exit 0
fi

scratch=$(mktemp -d "$out.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

apt_dir=$ROOT/apt
uri=$(archive_uri main)
[[ -n $uri ]] || die "cannot find the system's Debian main archive in apt's sources"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $SUITE main" \
  >"$apt_dir/sources.list"
apt_opts=(-o "Dir::Etc::sourcelist=$apt_dir/sources.list" -o Dir::Etc::sourceparts=- -o
  "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache")
say "fetching the elfutils $VERSION source"
apt-get "${apt_opts[@]}" update -qq >&2 || die "apt-get update of the $SUITE sources failed"
(cd "$scratch" && apt-get "${apt_opts[@]}" source -qq --download-only \
  -o APT::Sandbox::User=root "elfutils=$VERSION" >&2) ||
  die "apt-get source elfutils=$VERSION failed"
(cd "$scratch" && printf '%s\n' "${SHA256[@]}" | sha256sum --quiet -c -) ||
  die "the elfutils $VERSION source does not match its pinned SHA-256"
(cd "$scratch" && dpkg-source --no-check -x "elfutils_$VERSION.dsc" src >/dev/null) ||
  die "unpacking elfutils $VERSION failed"

# Configured without the instrumentation: configure links shared test programs with -z defs,
# which ASan's undefined symbols fail. Only the archives are built, with it.
say "building libelf.a and libdw.a (a minute or two)"
mkdir "$scratch/build"
(cd "$scratch/build" && ../src/configure CC=clang CFLAGS="-O1 -g" --disable-nls \
  --disable-libdebuginfod --disable-debuginfod >"$scratch/configure.log" 2>&1) || {
  tail -n 20 "$scratch/configure.log" >&2
  die "configuring elfutils failed"
}
for part in "${PARTS[@]}"; do
  make -C "$scratch/build/${part%%:*}" -j"$(nproc)" CFLAGS="$CFLAGS" "${part#*:}" \
    >>"$scratch/make.log" 2>&1 || {
    tail -n 20 "$scratch/make.log" >&2
    die "building elfutils' ${part%%:*} failed"
  }
done

mkdir "$scratch/lib"
cp "$scratch/build/libelf/libelf.a" "$scratch/build/libdw/libdw.a" "$scratch/lib/"
rm -rf "$out"
mv "$scratch/lib" "$out"
echo "$out"
