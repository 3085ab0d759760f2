#!/usr/bin/env bash
# Builds the initramfs of the test VM: busybox and its applets, static binaries, the guest init
# (guest/init) that runs a guest script, optional kernel modules and an optional DWARF vmlinux.
#
# Usage: mkinitramfs.sh -o OUT -s SCRIPT [-b BIN]... [-a SRC:DEST]... [-k KDIR [-m MOD]... [--vmlinux]]
#   -o, --out FILE        initramfs to write (uncompressed newc cpio)
#   -s, --script FILE     guest script; init runs it as /guest/script.sh
#   -b, --bin FILE        static binary copied to /bin (repeatable)
#   -a, --add SRC:DEST    file or directory copied to guest path DEST (repeatable)
#   -k, --kernel-dir DIR  kernel cache dir printed by fetch-kernel.sh (for -m and --vmlinux)
#   -m, --module NAME     module NAME and the modules it depends on, loadable with modprobe
#   --vmlinux             append the DWARF vmlinux (fetch-kernel.sh --dbg) as
#                         /usr/lib/debug/boot/vmlinux-<ver>; the guest then needs about 3 GiB
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

die() { echo "mkinitramfs: $*" >&2; exit 1; }
usage() { sed -n '5,14s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2; exit 2; }

STAGE=""
trap '[[ -z $STAGE ]] || rm -rf "$STAGE"' EXIT

# busybox with one symlink per applet: the guest has no other userland. The applets are listed
# by the host's busybox, the same Debian build as a guest's of another architecture (--busybox),
# which cannot run here.
stage_busybox() {
  local host bb applet
  host=$(command -v busybox) || die "busybox not found (install busybox-static)"
  bb=${BUSYBOX:-$host}
  mkdir -p "$STAGE"/{bin,dev,proc,sys,tmp,guest}
  cp "$bb" "$STAGE/bin/busybox"
  for applet in $("$host" --list); do
    [[ $applet == busybox ]] || ln -s busybox "$STAGE/bin/$applet"
  done
}

stage_bin() {
  [[ -f $1 ]] || die "binary not found: $1"
  cp --remove-destination "$1" "$STAGE/bin/"
}

stage_add() {
  local src=${1%%:*} dest=${1#*:}
  [[ -e $src && $1 == *:/* ]] || die "--add wants SRC:/DEST with an existing SRC, got '$1'"
  mkdir -p "$STAGE$(dirname "$dest")"
  cp -r "$src" "$STAGE$dest"
}

# Copies module NAME and its dependencies (modules.dep lists them all) plus the index files.
stage_module() {
  local kdir=$1 name=${2//-/_} ver mods files f
  ver=$(cat "$kdir/kernel-version")
  mods=$kdir/lib/modules/$ver
  files=$(awk -v want="$name" -F': ?' '{
      base = $1; sub(/.*\//, "", base); sub(/\.ko.*/, "", base); gsub(/-/, "_", base)
      if (base == want) { print $1; if ($2 != "") print $2; exit }
    }' "$mods/modules.dep" | tr ' ' '\n')
  [[ -n $files ]] || die "module $2 not found in $mods/modules.dep"
  mkdir -p "$STAGE/lib/modules/$ver"
  cp "$mods"/modules.* "$STAGE/lib/modules/$ver/"
  for f in $files; do
    mkdir -p "$STAGE/lib/modules/$ver/$(dirname "$f")"
    cp "$mods/$f" "$STAGE/lib/modules/$ver/$f"
  done
}

write_cpio() {
  local dir=$1 out=$2
  (cd "$dir" && find . -mindepth 1 | busybox cpio -o -H newc -R 0:0 2>/dev/null) >>"$out" ||
    die "cpio failed for $dir"
}

# The kernel reads concatenated archives, but silently ignores one that does not start at a
# 4-byte aligned offset (init/initramfs.c): pad with zeros first.
append_vmlinux() {
  local kdir=$1 out=$2 ver vmlinux size dir
  ver=$(cat "$kdir/kernel-version")
  vmlinux=$kdir/vmlinux-$ver
  [[ -f $vmlinux ]] || die "$vmlinux missing: run fetch-kernel.sh with --dbg"
  size=$(stat -c %s "$out")
  head -c $(((4 - size % 4) % 4)) /dev/zero >>"$out"
  dir=$STAGE.vmlinux
  mkdir -p "$dir/usr/lib/debug/boot"
  ln "$vmlinux" "$dir/usr/lib/debug/boot/" 2>/dev/null || cp "$vmlinux" "$dir/usr/lib/debug/boot/"
  write_cpio "$dir" "$out"
  rm -rf "$dir"
}

main() {
  local out="" script="" kdir="" vmlinux=0 bins=() adds=() modules=() item
  while (($#)); do
    case "$1" in
      -o | --out) out=${2:?}; shift ;;
      -s | --script) script=${2:?}; shift ;;
      -b | --bin) bins+=("${2:?}"); shift ;;
      -a | --add) adds+=("${2:?}"); shift ;;
      -k | --kernel-dir) kdir=${2:?}; shift ;;
      -m | --module) modules+=("${2:?}"); shift ;;
      --vmlinux) vmlinux=1 ;;
      --busybox) BUSYBOX=${2:?}; shift ;;
      -h | --help) usage ;;
      *) echo "mkinitramfs: unknown argument '$1'" >&2; usage ;;
    esac
    shift
  done
  [[ -n $out && -n $script ]] || usage
  [[ -f $script ]] || die "guest script not found: $script"
  if ((${#modules[@]} || vmlinux)) && [[ ! -f $kdir/kernel-version ]]; then
    die "-m and --vmlinux need -k with a kernel dir from fetch-kernel.sh"
  fi

  STAGE=$(mktemp -d "${TMPDIR:-/tmp}/rs-initramfs.XXXXXX")
  stage_busybox
  cp "$HERE/guest/init" "$STAGE/init"
  cp "$script" "$STAGE/guest/script.sh"
  for item in "${bins[@]}"; do stage_bin "$item"; done
  for item in "${adds[@]}"; do stage_add "$item"; done
  for item in "${modules[@]}"; do stage_module "$kdir" "$item"; done

  mkdir -p "$(dirname "$out")"
  : >"$out"
  write_cpio "$STAGE" "$out"
  ((vmlinux == 0)) || append_vmlinux "$kdir" "$out"
}

main "$@"
