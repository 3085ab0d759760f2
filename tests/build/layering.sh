#!/usr/bin/env bash
# The build keeps the layering that src/CMakeLists.txt declares: with the compile flags of each
# library, a header of every layer it declares (directly or through its dependencies) can be
# included, and a header of any other layer cannot. Fails if, say, a global include directory
# made every layer visible again.
# Usage: layering.sh BUILD_DIR SRC_DIR
set -euo pipefail
build=$1 src=$2
db=$build/compile_commands.json
layers=(util bpf discovery events symbolize attach format kernel filter output cli app)

# name -> the layers it declares directly, from the rs_module() lines (rs_bpf_abi is "bpf").
declare -A deps
while read -r name rest; do
  deps[$name]=$(grep -oE 'rs_[a-z_]+' <<<"$rest" | sed 's/^rs_//; s/^bpf_abi$/bpf/' | tr '\n' ' ' ||
    true)
done < <(tr '\n' ' ' <"$src/CMakeLists.txt" | grep -oE 'rs_module\([a-z]+( DEPS[^)]*)?\)' |
  sed -E 's/^rs_module\(([a-z]+)( DEPS)?([^)]*)\)$/\1 \3/')

closure() {
  local todo=("$1") seen=" " n
  while ((${#todo[@]})); do
    n=${todo[0]}
    todo=("${todo[@]:1}")
    [[ $seen == *" $n "* ]] && continue
    seen+="$n "
    read -ra more <<<"${deps[$n]:-}"
    todo+=("${more[@]}")
  done
  echo "$seen"
}

# The compile command of a library's sources, up to its output: its flags.
flags_of() {
  grep -F '"command": ' "$db" | grep -F "/rs_$1.dir/" | head -1 |
    sed -E 's/^ *"command": "//; s/ -o .*$//; s/\\"/"/g'
}

failed=0 checked=0
for layer in "${layers[@]}"; do
  [[ $layer == bpf ]] && continue  # headers only: it compiles nothing of its own
  flags=$(flags_of "$layer")
  [[ -n $flags ]] || { echo "FAIL: no compile command for rs_$layer"; failed=1; continue; }
  visible=$(closure "$layer")
  for other in "${layers[@]}"; do
    header=$(cd "$src/$other" && find . -maxdepth 1 -name '*.h' ! -name '*.bpf.h' | sort | head -1)
    header=${header#./}
    want=hidden
    [[ $visible == *" $other "* ]] && want=visible
    got=hidden
    if echo "#include \"$other/$header\"" | eval "$flags -E -x c++ - -o /dev/null" 2>/dev/null; then
      got=visible
    fi
    checked=$((checked + 1))
    if [[ $got != "$want" ]]; then
      echo "FAIL: $layer sees $other/$header as $got; src/CMakeLists.txt makes it $want"
      failed=1
    fi
  done
done
echo "layering: $checked include checks"
exit $failed
