#!/usr/bin/env bash
# Every option and -C key of the option tables must be documented in the generated man page (as
# a bold term, *--entry*) and known to both shell completions; a man page template that names an
# option the table lacks does not build.
# Usage: docs_cover_options.sh CLI_WORDS MAN_SCD BASH_COMPLETION ZSH_COMPLETION
set -euo pipefail
cli_words=$1 man=$2
shift 2
missing=0
while read -r word; do
  if ! grep -qF -- "*$word*" "$man"; then
    echo "man page $(basename "$man") does not document $word"
    missing=1
  fi
  # A whole word of the script: between blanks, '|', parentheses, quotes, '=' or brackets.
  pattern="(^|[][[:space:]|()\"=])${word//./\\.}(\$|[][[:space:]|()\"=])"
  for comp in "$@"; do
    if ! grep -qE -- "$pattern" "$comp"; then
      echo "completion $(basename "$comp") does not know $word"
      missing=1
    fi
  done
done < <("$cli_words" list)

template=$(mktemp)
trap 'rm -f "$template"' EXIT
printf '@OPTION entry@\n@OPTION no-such-option@\n' >"$template"
if out=$("$cli_words" fill "$template" 2>&1) || [[ $out != *"no option named 'no-such-option'"* ]]; then
  echo "cli_words fill accepted an unknown option: $out"
  missing=1
fi
exit $missing
