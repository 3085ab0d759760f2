#!/usr/bin/env bash
# The generated zsh completion parses and registers itself for retsnoop.
# Usage: zsh_completion.sh COMPLETION_SCRIPT
set -euo pipefail
script=$1
head -1 "$script" | grep -qx '#compdef retsnoop'
zsh -n "$script"
