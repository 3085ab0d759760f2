#!/usr/bin/env bash
# `cmake --install` with a chosen prefix puts every file where a system looks for it.
# Usage: cmake_install.sh BUILD_DIR
set -euo pipefail
build=$1
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
failed=0
for f in sbin/retsnoop share/man/man8/retsnoop.8 share/bash-completion/completions/retsnoop \
  share/zsh/vendor-completions/_retsnoop share/doc/retsnoop/README.md \
  share/doc/retsnoop/example.env lib/systemd/system/retsnoop@.service; do
  [[ -f $prefix/$f ]] || { echo "FAIL: missing $f"; failed=1; }
done
"$prefix/sbin/retsnoop" --version
exit $failed
