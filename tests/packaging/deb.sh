#!/usr/bin/env bash
# `cpack -G DEB` makes retsnoop_<version>_<arch>.deb with proper metadata; unpacked into a
# scratch root, its binary runs (or, for arm64 on an x86-64 machine, is an arm64 executable) and
# its man page renders.
# Usage: deb.sh BUILD_DIR VERSION [amd64|arm64]
set -euo pipefail
build=$1 version=${2//-/+} arch=${3:-amd64}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=1; }

cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/out" >"$tmp/cpack.log" || {
  cat "$tmp/cpack.log"
  exit 1
}
deb=$tmp/out/retsnoop_${version}_${arch}.deb
[[ -f $deb ]] || { ls "$tmp/out"; echo "FAIL: no $(basename "$deb")"; exit 1; }

info=$(dpkg-deb --info "$deb")
echo "$info"
for field in "Package: retsnoop" "Version: $version" "Architecture: $arch" "Section: admin" \
  "Priority: optional" "Maintainer: " "Description: kernel failure tracer"; do
  grep -qF " $field" <<<"$info" || fail "control lacks '$field'"
done
grep -qE '^ (Depends|Pre-Depends):' <<<"$info" && fail "a static binary depends on nothing"

dpkg -x "$deb" "$tmp/root"
if [[ $arch == amd64 ]]; then
  "$tmp/root/usr/sbin/retsnoop" --version | grep -qx "retsnoop v${2}" || fail "--version"
else
  readelf -h "$tmp/root/usr/sbin/retsnoop" | grep -q "Machine: *AArch64" || fail "not an arm64 binary"
fi
page=$(MANWIDTH=80 man -l "$tmp/root/usr/share/man/man8/retsnoop.8" 2>&1)
for section in NAME SYNOPSIS OPTIONS SETTINGS "EXIT STATUS" "FILES AND SYSTEM CHANGES"; do
  grep -qx "$section" <<<"$page" || fail "man page lacks section $section"
done
for f in usr/share/bash-completion/completions/retsnoop usr/share/zsh/vendor-completions/_retsnoop \
  usr/lib/systemd/system/retsnoop@.service usr/share/doc/retsnoop/README.md; do
  [[ -f $tmp/root/$f ]] || fail "package lacks /$f"
done
exit $failed
