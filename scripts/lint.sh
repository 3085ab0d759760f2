#!/usr/bin/env bash
# Style checks that scripts/test.sh runs: the formatter (.clang-format) over every tracked C and
# C++ file, shellcheck over every tracked shell script, e2e case lines of at most 300 characters,
# includes by layer, file-local function names unique per library, the README's length and, with --tidy, clang-tidy (.clang-tidy) over src/ and tests/unit/ as a
# configured build compiles them.
#
# Usage: lint.sh [--fix] [--tidy BUILD_DIR]
#   --fix   apply the formatter in place instead of checking it
#   --tidy  also run clang-tidy with BUILD_DIR's compile_commands.json
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
fix=0 tidy_build=""
while (($#)); do
  case "$1" in
    --fix) fix=1 ;;
    --tidy) tidy_build=${2:?}; shift ;;
    *) echo "lint: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done

failed=0
mapfile -t sources < <(git ls-files '*.c' '*.h' '*.cpp' | grep -v '^tests/unit/fixtures/')
mapfile -t scripts < <(git ls-files '*.sh')

if ((fix)); then
  clang-format -i "${sources[@]}"
  echo "lint: formatted ${#sources[@]} files"
  exit 0
fi

echo "== clang-format"
if ! clang-format --dry-run -Werror "${sources[@]}" 2>/tmp/lint-format.$$; then
  grep -E '^[^ ].*: error:' /tmp/lint-format.$$ | cut -d: -f1 | sort -u | sed 's/^/not formatted: /'
  echo "lint: run 'bash scripts/lint.sh --fix' to format the tree"
  failed=1
fi
rm -f /tmp/lint-format.$$

echo "== shellcheck"
shellcheck -x -P SCRIPTDIR "${scripts[@]}" || failed=1

echo "== e2e case lines"
# A step longer than this belongs in a script of tests/e2e/scripts/.
mapfile -t cases < <(git ls-files 'tests/e2e/cases/*.case')
if awk 'length > 300 { print FILENAME ":" FNR ": " length " characters, at most 300"; bad = 1 }
        END { exit !bad }' "${cases[@]}"; then
  failed=1
fi

echo "== include paths"
# A parent-relative include reaches past the include roots that keep the layering (src/CMakeLists.txt).
if git grep -nE '^#include "\.\./' -- '*.c' '*.h' '*.cpp'; then
  echo "lint: include headers by their layer ('format/x.h'), never by a relative path"
  failed=1
fi

echo "== file-local names"
# The unity build merges each library (and each test executable) into one compile unit, where
# two files' file-local functions of one name become overloads of each other without a word.
mapfile -t units < <(git ls-files 'src/*.cpp' 'tests/unit/*.cpp' 'tests/fuzz/*.cpp')
if awk -f scripts/file_local_names.awk "${units[@]}" | sort -u |
  awk '$1 " " $2 == key { print "two files of " $1 " define a file-local " $2 "(): " file ", " $3; bad = 1 }
       { key = $1 " " $2; file = $3 } END { exit !bad }'; then
  failed=1
fi

echo "== README length"
lines=$(wc -l <README.md)
if ((lines > 300)); then
  echo "README.md has $lines lines, at most 300: move details into docs/"
  failed=1
fi

if [[ -n $tidy_build ]]; then
  echo "== clang-tidy"
  # What the build compiles of src/ and tests/unit/: a unity build's per-target sources, which
  # include the .cpp files (.clang-tidy's header filter reports inside them), or the files
  # themselves when configured with -DCMAKE_UNITY_BUILD=OFF.
  build_abs=$(cd "$tidy_build" && pwd)
  mapfile -t units < <(sed -n 's/^ *"file": "\(.*\)",\?$/\1/p' "$build_abs/compile_commands.json" |
    grep -E "^($build_abs/(src|tests/unit)/CMakeFiles/[^/]+/Unity/|$root/(src|tests/unit)/)" |
    grep -v '/fixtures/' | sort -u)
  if ((${#units[@]} == 0)); then
    echo "lint: no compile units of src/ or tests/unit/ in $build_abs/compile_commands.json"
    exit 1
  fi
  log=$(mktemp)
  if ! printf '%s\n' "${units[@]}" | xargs -P "$(nproc)" -n 1 clang-tidy -quiet -p "$build_abs" \
    --config-file="$root/.clang-tidy" >"$log" 2>&1; then
    grep -E '(warning|error):' "$log" | sort -u
    failed=1
  fi
  echo "lint: clang-tidy checked ${#units[@]} compile units"
  rm -f "$log"
fi

exit $failed
