#!/usr/bin/env bash
# The generated bash completion loads without errors and completes options, -C keys and their
# values, errno names, LBR specs, presets and kernel function names (from 50,000, at most 2,000
# offered).
# Usage: bash_completion.sh COMPLETION_SCRIPT
set -euo pipefail
script=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

# complete FUNCS_FILE WORD...: COMPREPLY, one per line, for the command line WORD... with the
# cursor at the end of the last word (as bash splits it: "--lbr=an" is "--lbr" "=" "an").
complete() {
  bash -c 'source "$0"; _retsnoop_func_sources=("$1"); shift
           COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _retsnoop
           printf "%s\n" "${COMPREPLY[@]}"' "$script" "$@" | LC_ALL=C sort
}

expect() {
  local want=$1 got
  shift
  got=$(complete "$tmp/funcs" "$@" | tr '\n' ' ')
  if [[ $got != "$want " ]]; then
    echo "FAIL: $* -> '$got', expected '$want '"
    failed=1
  fi
}

errors=$(bash -c 'source "$0"' "$script" 2>&1)
[[ -z $errors ]] || { echo "FAIL: sourcing printed: $errors"; failed=1; }

# 50,000 function names in the format of available_filter_functions.
awk 'BEGIN { for (i = 0; i < 49990; i++) printf "func_%05d\n", i
             print "do_sys_open"; print "do_sys_openat2"; print "do_sys_poll"
             print "mod_fn [mymod]"; print "do_sys_open" }' >"$tmp/funcs"

expect "stacks.dec-offs= stacks.emit-addrs= stacks.repeats= stacks.symb-mode= stacks.unfiltered=" retsnoop -C stacks.
expect "=no =yes" retsnoop -C stacks.unfiltered =
expect "yes" retsnoop -C stacks.unfiltered = y
expect "=inlines =lines =none" retsnoop --config stacks.symb-mode =
expect "inlines" retsnoop -C stacks.symb-mode = i
expect "=count =print" retsnoop -C stacks.repeats =
expect "--entry" retsnoop --ent
expect "bpf perf" retsnoop -c ""
expect "EINVAL" retsnoop -x EINV
expect "any any_call any_return" retsnoop --lbr = an
expect "do_sys_open do_sys_openat2" retsnoop -e do_sys_ope
expect "mod_fn" retsnoop -a mod_
expect "@$tmp/funcs" retsnoop -e "@$tmp/fu"
expect "" retsnoop -p 1

# A prefix that 10,000 names share offers a bounded list, so a shell never stalls on it.
count=$(complete "$tmp/funcs" retsnoop -d func_4 | wc -l)
((count == 2000)) || { echo "FAIL: expected the list capped at 2000, got $count"; failed=1; }
exit $failed
