#!/usr/bin/env bash
# Discovery figures (docs/performance.md): time to resolve ':kernel/bpf/*.c' on the Debian 6.1 -dbg vmlinux
# cold and warm, and time from start to the end of discovery for 1,000 and 10,000 matched
# functions. Measured where the issue's reference was taken (upstream retsnoop: about 8 s for
# ':kernel/bpf/*.c' in a TCG guest), in the test VM on the 6.1 kernel, and on this host: library
# calls for the path glob (bench/symbolize.sh; the host runs another kernel, so retsnoop would
# refuse the 6.1 vmlinux) and whole `retsnoop --dry-run` runs for the rest (the host hides
# available_filter_functions: the kallsyms + BTF fallback).
#
# Usage: bench/discovery.sh [--no-vm]     Env: BUILD_DIR (default <repo>/build-bench)
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$repo/build-bench}
source "$repo/tests/e2e/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

build_all() {
  if ! { cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=Release &&
    cmake --build "$build" -j2; } >"$tmp/build.log" 2>&1; then
    tail -n 20 "$tmp/build.log" >&2
    die "build failed"
  fi
}

vmlinux_61() {
  local dir
  dir=$("$E2E_DIR/fetch-kernel.sh" 6.1 --dbg)
  echo "$dir/vmlinux-$(cat "$dir/kernel-version")"
}

# The path glob on the host: bench/symbolize.sh's lines about it.
host_path_glob() {
  BUILD_DIR=$build VMLINUX=$(vmlinux_61) "$repo/bench/symbolize.sh" 2>/dev/null |
    grep '^:kernel/bpf' >"$tmp/host-glob"
}

host_runs() {
  PATH=$build:$PATH sh "$repo/bench/discovery_runs.sh" --names-only 2>/dev/null >"$tmp/host"
}

# Boots the 6.1 kernel with its DWARF vmlinux and runs discovery_runs.sh there.
vm_runs() {
  guest_binaries "$build"
  boot_guest "$("$E2E_DIR/fetch-kernel.sh" 6.1 --dbg)" "$tmp/vm-logs" \
    "$repo/bench/discovery_runs.sh" 600 3072 --vmlinux | grep '^BENCH ' >"$tmp/vm" ||
    say "the VM run failed: its figures are missing"
}

# Field 3 of the BENCH line labelled $2 in file $1 ("-" when absent).
field() { awk -v label="$2" '$2 == label { v = $3 } END { print (v == "" ? "-" : v) }' "$1"; }

# The milliseconds of label $2 in file $1 as seconds.
secs() {
  local ms
  ms=$(field "$1" "$2")
  if [[ $ms == - ]]; then
    echo -
  else
    printf '%d.%02d s\n' $((ms / 1000)) $((ms % 1000 / 10))
  fi
}

# Time of row $1 of bench/symbolize.sh's path glob lines ("301 ms").
host_glob() { sed -n "$1p" "$tmp/host-glob" | awk '{ print $(NF - 2), $(NF - 1) }'; }

row() { printf '| %s | %s | %s |\n' "$@"; }

report() {
  local vm=$tmp/vm host=$tmp/host
  echo
  row "discovery, fastest of 3 whole \`--dry-run\` runs" "TCG guest, 6.1" "host"
  row "---" "---" "---"
  row "\`:kernel/bpf/*.c\` cold: no index cache ($(field "$vm" path-glob-functions) functions)" \
    "$(secs "$vm" path-glob-cold)" "-"
  row "  of which: building the index" "$(field "$vm" path-glob-index) ms" \
    "$(host_glob 1) (library call, page cache dropped)"
  row "\`:kernel/bpf/*.c\` warm: index cache" "$(secs "$vm" path-glob-warm)" \
    "$(host_glob 3) (library call)"
  row "\`-e '*sys_bpf'\` alone" "$(secs "$vm" baseline)" "$(secs "$host" baseline)"
  row "1,000 matched (names from an @FILE)" "$(secs "$vm" names-1000)" "$(secs "$host" names-1000)"
  row "10,000 matched (names from an @FILE)" "$(secs "$vm" names-10000)" \
    "$(secs "$host" names-10000)"
}

main() {
  local vm=1
  [[ ${1:-} != --no-vm ]] || vm=0
  build_all
  host_path_glob
  host_runs
  : >"$tmp/vm"
  ((vm == 0)) || vm_runs
  report
}

main "$@"
