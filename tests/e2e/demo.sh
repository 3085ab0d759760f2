#!/usr/bin/env bash
# Shows retsnoop at work on a real kernel in a VM: the README's first command. Builds nothing.
# The demo is the "demo" case of cases/demo.case, so the e2e suite checks it too.
#
# Usage: demo.sh [--kernel 6.1|6.12] [--build DIR]
#   --kernel  kernel to boot (default 6.12), fetched into the cache on first use
#   --build   build dir with the static binaries (env RETSNOOP_BUILD, default <repo>/build)
# In the guest: retsnoop -e '*sys_bpf' -a 'array_map_alloc*' runs until "Receiving data...",
# then simfail triggers two failing bpf() calls, then retsnoop gets SIGINT and its output is shown.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() { sed -n '5,7s/^# \{0,1\}//p' "$0" >&2; exit 2; }

main() {
  local kernel=6.12 build=${RETSNOOP_BUILD:-$REPO_DIR/build}
  while (($#)); do
    case "$1" in
      --kernel) kernel=${2:-}; shift ;;
      --build) build=${2:?}; shift ;;
      *) usage ;;
    esac
    shift
  done
  [[ $kernel == 6.1 || $kernel == 6.12 ]] || usage
  guest_binaries "$build"
  exec "$E2E_DIR/run-e2e.sh" --kernel "$kernel" --build "$build" '^demo$'
}

main "$@"
