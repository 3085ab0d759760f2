#!/usr/bin/env bash
# The generated zsh completion parses, registers itself for retsnoop and offers the right
# candidates. zsh itself filters candidates by what is typed, so a stub compadd that prints
# them shows which list each position gets.
# Usage: zsh_completion.sh COMPLETION_SCRIPT
set -euo pipefail
script=$1
failed=0
head -1 "$script" | grep -qx '#compdef retsnoop'
zsh -n "$script"

# candidates WORD...: what the completion offers with the cursor at the end of the last word.
candidates() {
  zsh -f -c 'compadd() { while [[ $1 != -- ]]; do shift; done; shift; print -l -- "$@" }
             compset() { : }
             _files() { print "<files>" }
             words=("$@"); CURRENT=$#
             source "$0"' "$script" "$@"
}

expect() {
  local want=$1
  shift
  if ! candidates "$@" | grep -qx -- "$want"; then
    echo "FAIL: $* does not offer $want"
    failed=1
  fi
}

expect stacks.unfiltered retsnoop -C stacks.
expect yes retsnoop -C stacks.unfiltered=
expect inlines retsnoop --config stacks.symb-mode=i
expect --entry retsnoop --ent
expect perf retsnoop -c ""
expect EINVAL retsnoop -x EINV
expect any_return retsnoop --lbr=an
expect "<files>" retsnoop --export-trace ""
expect "<files>" retsnoop -e @
exit $failed
