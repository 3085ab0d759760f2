#!/bin/sh
# Runs the README's `sudo retsnoop` examples (README.md is at /guest/README.md) as dry runs on
# this kernel, in the setting they assume: the reproducer under ./build, the cgroup of the nginx
# unit. readme-examples.sh [dwarf|plain]: dwarf runs only the examples that need a vmlinux with
# DWARF (:PATHGLOB, --line-trace), plain the others. An example fails when retsnoop exits
# non-zero or says that a glob matches nothing. Ends with "N examples, N failed".
want=${1:-plain}
work=/tmp/readme-examples
mkdir -p "$work/build/tests/workloads" && cd "$work" || exit 1
ln -sf "$(command -v simfail)" build/tests/workloads/simfail
mount -t cgroup2 none /sys/fs/cgroup 2>/dev/null
mkdir -p /sys/fs/cgroup/system.slice/nginx.service

total=0
failed=0
# The examples' trailing comments go; --dry-run goes first unless the example has it.
grep '^sudo retsnoop ' /guest/README.md | sed -e 's/^sudo //' -e 's/  *# .*$//' >"$work/examples"
while IFS= read -r example; do
  kind=plain
  echo "$example" | grep -qE "[ ']:|--line-trace" && kind=dwarf
  [ "$kind" = "$want" ] || continue
  case "$example" in
    *--dry-run*) cmd=$example ;;
    *) cmd="retsnoop --dry-run ${example#retsnoop }" ;;
  esac
  total=$((total + 1))
  out=$(sh -c "$cmd" 2>&1 </dev/null)
  rc=$?
  if [ $rc -ne 0 ] || echo "$out" | grep -q 'matches no'; then
    failed=$((failed + 1))
    echo "FAILED (exit $rc): $cmd"
    echo "$out" | grep -E '^(retsnoop|warning|hint):'
  else
    echo "ok: $cmd"
  fi
done <"$work/examples"
echo "$total examples, $failed failed"
