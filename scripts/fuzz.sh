#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz (clang, ASan and UBSan) into ${BUILD_DIR:-build-fuzz},
# with libelf and libdw built with the same instrumentation (scripts/fuzz-elfutils.sh, once per
# machine), and runs each for a bounded time, from its seed corpus and the corpus earlier runs
# grew in BUILD_DIR/corpus/<target>, one target per core at a time. Exits nonzero if a target
# crashes, leaks, hits undefined behaviour or hangs, after printing its reproducer (rerun it with
# the target and the file as its argument; docs/testing.md).
#
# Usage: fuzz.sh [--seconds N] [--unit-tests] [--no-fuzzing] [TARGET...]
#   --seconds     fuzzing time per target (default 7: all fourteen within 50 s on two cores)
#   --unit-tests  also build the unit tests with the same instrumentation and run them first:
#                 scripts/test.sh's ASan and UBSan run, without a build of its own
#   --no-fuzzing  stop after the build (and the unit tests)
#   TARGET        only these (e.g. btf elf_file); default every target
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build-fuzz}
seconds=7
targets=()
build_targets=(fuzz_targets)
fuzzing=1
while (($#)); do
  case "$1" in
    --seconds) seconds=${2:?}; shift ;;
    --unit-tests) build_targets+=(unit_tests) ;;
    --no-fuzzing) fuzzing=0 ;;
    -*) echo "fuzz: unknown argument '$1'" >&2; exit 2 ;;
    *) targets+=("$1") ;;
  esac
  shift
done

mkdir -p "$build"
bash "$root/scripts/setup-deps.sh" --stamp-dir "$build"
elfutils=$(bash "$root/scripts/fuzz-elfutils.sh")
export CMAKE_GENERATOR=${CMAKE_GENERATOR:-Ninja}  # as scripts/build.sh
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=clang \
  -DCMAKE_CXX_COMPILER=clang++ -DRETSNOOP_FUZZ=ON -DRETSNOOP_FUZZ_ELFUTILS="$elfutils" \
  -DRETSNOOP_SANITIZE=address,undefined -DRETSNOOP_BENCH=OFF -DRETSNOOP_PACKAGING=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" --target "${build_targets[@]}" >/dev/null
if ((${#build_targets[@]} > 1)); then
  ctest --test-dir "$build" --output-on-failure -j"$(nproc)" -R '^unit\.'
fi
((fuzzing)) || exit 0

fuzz_dir=$build/tests/fuzz
if ((${#targets[@]} == 0)); then
  mapfile -t targets < <(find "$root/tests/fuzz" -name '*_fuzz.cpp' -printf '%f\n' |
    sed 's/_fuzz\.cpp$//' | sort)
fi

# fuzz_one TARGET: fuzzes it, its lines of report in BUILD/logs/TARGET.report; fails on a finding.
fuzz_one() {
  local t=$1 corpus=$build/corpus/$1 artifacts=$build/artifacts/$1/ log=$build/logs/$1.log
  local report=$build/logs/$1.report reproducer
  mkdir -p "$corpus" "$artifacts"
  echo "fuzz: $t for ${seconds}s" >"$report"
  # -timeout: a parser that takes seconds on an input a few KB long is a hang.
  if ! "$fuzz_dir/${t}_fuzz" -max_total_time="$seconds" -timeout=10 -print_final_stats=0 \
    -artifact_prefix="$artifacts" "$corpus" "$fuzz_dir/seeds/$t" >"$log" 2>&1; then
    tail -n 40 "$log" >>"$report"
    reproducer=$(sed -n 's/.*Test unit written to //p' "$log" | tail -n 1)
    echo "fuzz: $t failed; reproducer: ${reproducer:-none written}" >>"$report"
    echo "fuzz: replay it with $fuzz_dir/${t}_fuzz ${reproducer:-FILE}" >>"$report"
    return 1
  fi
  grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | sed "s/^/fuzz: $t: /" >>"$report" || true
}

# One target per core at a time; each report prints whole once its target ends.
mkdir -p "$build/logs"
declare -A running=()
failed=0
reap() {
  local pid
  wait -n -p pid "${!running[@]}" || failed=1
  cat "$build/logs/${running[$pid]}.report"
  unset "running[$pid]"
}
for t in "${targets[@]}"; do
  while ((${#running[@]} >= $(nproc))); do reap; done
  ((failed == 0)) || break  # a finding stops the run: no new target starts
  fuzz_one "$t" &
  running[$!]=$t
done
while ((${#running[@]})); do reap; done
((failed == 0)) || exit 1
echo "fuzz: ${#targets[@]} targets, no findings"
