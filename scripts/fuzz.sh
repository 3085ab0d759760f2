#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz (clang, ASan and UBSan) into ${BUILD_DIR:-build-fuzz},
# with libelf and libdw built with the same instrumentation (scripts/fuzz-elfutils.sh, once per
# machine), and runs each for a bounded time, from its seed corpus and the corpus earlier runs
# grew in BUILD_DIR/corpus/<target>. Exits nonzero on the first target that crashes, leaks, hits
# undefined behaviour or hangs, after printing its reproducer (rerun it with the target and the
# file as its argument; docs/testing.md).
#
# Usage: fuzz.sh [--seconds N] [TARGET...]
#   --seconds  fuzzing time per target (default 7: all fourteen within 100 s)
#   TARGET     only these (e.g. btf elf_file); default every target
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build-fuzz}
seconds=7
targets=()
while (($#)); do
  case "$1" in
    --seconds) seconds=${2:?}; shift ;;
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
cmake --build "$build" -j"$(nproc)" --target fuzz_targets >/dev/null

fuzz_dir=$build/tests/fuzz
if ((${#targets[@]} == 0)); then
  mapfile -t targets < <(find "$root/tests/fuzz" -name '*_fuzz.cpp' -printf '%f\n' |
    sed 's/_fuzz\.cpp$//' | sort)
fi

for t in "${targets[@]}"; do
  corpus=$build/corpus/$t
  artifacts=$build/artifacts/$t/
  log=$build/logs/$t.log
  mkdir -p "$corpus" "$artifacts" "$build/logs"
  echo "fuzz: $t for ${seconds}s"
  # -timeout: a parser that takes seconds on an input a few KB long is a hang.
  if ! "$fuzz_dir/${t}_fuzz" -max_total_time="$seconds" -timeout=10 -print_final_stats=0 \
    -artifact_prefix="$artifacts" "$corpus" "$fuzz_dir/seeds/$t" >"$log" 2>&1; then
    tail -n 40 "$log"
    reproducer=$(sed -n 's/.*Test unit written to //p' "$log" | tail -n 1)
    echo "fuzz: $t failed; reproducer: ${reproducer:-none written}"
    echo "fuzz: replay it with $fuzz_dir/${t}_fuzz ${reproducer:-FILE}"
    exit 1
  fi
  grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | sed "s/^/fuzz: $t: /" || true
done
echo "fuzz: ${#targets[@]} targets, no findings"
