#!/usr/bin/env bash
# Boots a kernel with an initramfs from mkinitramfs.sh under QEMU, never longer than a hard
# timeout, and reports what the guest script printed and how it ended.
#
# Usage: run-vm.sh -k VMLINUZ -i INITRD [-o OUTDIR] [-t SECONDS] [-s SECONDS] [-m MIB]
#                  [-a amd64|arm64]
#   -o DIR   where console.log (kernel console + dmesg) and guest.log (script output) go
#            (default: a new temp dir, printed on stderr)
#   -t SEC   hard timeout for the whole VM run (env RS_VM_TIMEOUT, default 300)
#   -s SEC   stop the VM once the script has printed nothing for SEC seconds (env RS_VM_SILENCE,
#            default 0: no limit)
#   -m MIB   guest memory (env RS_VM_MEM, default 2048; about 3072 with a DWARF vmlinux)
#   -a ARCH  the guest's architecture (default amd64)
#   env RS_VM_ICOUNT=SHIFT: guest time counts instructions (2^SHIFT ns each), not host time, so
#            a benchmark's ratios do not follow the host's load (bench/percall.sh)
#   env RS_VM_CPUS=N: the guest's vCPUs (default 2)
# Streams the guest script's output to stdout while it runs. Exit: 0 the script exited 0 on a clean kernel,
# 1 the script failed, 2 the VM failed (timeout, crash, no exit report), 3 kernel splat.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

say() { echo "run-vm: $*" >&2; }
usage() { sed -n '5,19s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2; exit 2; }

# Single-threaded TCG on purpose: KVM guests hang on our hosts, and multi-threaded TCG sometimes
# kills the guest with "Oops: int3" while probes are being attached. Serial ports go to files
# and stdin is /dev/null: CI has no terminal. Runs in the background and sets QEMU_PID.
QEMU_PID=""
trap '[[ -z $QEMU_PID ]] || kill "$QEMU_PID" 2>/dev/null' EXIT
#
# arm64: the virt board has a single UART, so the script's output goes to a virtio console
# (hvc0, named to the guest's init by rs_out); pointer authentication with QEMU's own algorithm
# is several times cheaper to emulate than the architected one.
boot() {
  local kernel=$1 initrd=$2 out=$3 timeout=$4 mem=$5 arch=$6 machine
  case "$arch" in
    amd64)
      machine=(qemu-system-x86_64 -cpu max -serial "file:$out/console.log" -serial "file:$out/guest.log")
      # no_timer_check: a busy host can slow the emulated CPU enough that the kernel's check of
      # the IO-APIC timer fails and it panics at boot (seen with 5.10).
      append="console=ttyS0 quiet panic=-1 no_timer_check" ;;
    arm64)
      # shellcheck disable=SC2054  # QEMU's own option syntax separates with commas
      machine=(qemu-system-aarch64 -M virt -cpu max,pauth-impdef=on -serial "file:$out/console.log"
        -device virtio-serial-pci -chardev "file,id=rsout,path=$out/guest.log"
        -device virtconsole,chardev=rsout)
      append="console=ttyAMA0 quiet panic=-1 rs_out=hvc0" ;;
    *) usage ;;
  esac
  local icount=()
  [[ -z ${RS_VM_ICOUNT:-} ]] || icount=(-icount "shift=$RS_VM_ICOUNT,sleep=off")
  timeout --kill-after=10 "$timeout" "${machine[@]}" \
    -accel tcg,thread=single "${icount[@]}" -m "$mem" -smp "${RS_VM_CPUS:-2}" \
    -nodefaults -no-user-config -display none -monitor none -no-reboot \
    -kernel "$kernel" -initrd "$initrd" \
    -append "$append" </dev/null >"$out/qemu.log" 2>&1 &
  QEMU_PID=$!
}

# Stops the VM (pid $2) once its script's output ($1) has not grown for $3 seconds, and creates
# file $4 to tell the report why it ended.
watch_silence() {
  local log=$1 pid=$2 limit=$3 mark=$4 size last=-1 quiet=0
  while kill -0 "$pid" 2>/dev/null; do
    sleep 5
    size=$(stat -c %s "$log" 2>/dev/null || echo 0)
    if [[ $size != "$last" ]]; then
      last=$size quiet=0
    elif (((quiet += 5) >= limit)); then
      : >"$mark"
      kill "$pid" 2>/dev/null
      return
    fi
  done
}

# Follows the script's output (its port holds nothing else but init's two markers) until qemu exits.
stream_guest_output() {
  tail -n +1 -s 0.2 -F --pid="$2" "$1" 2>/dev/null | sed -u 's/\r$//; /^RS-GUEST-\(START\|EXIT\) /d'
}

main() {
  local kernel="" initrd="" out="" timeout=${RS_VM_TIMEOUT:-300} silence=${RS_VM_SILENCE:-0}
  local mem=${RS_VM_MEM:-2048} arch=amd64 watcher=""
  while (($#)); do
    case "$1" in
      -k) kernel=${2:?}; shift ;;
      -i) initrd=${2:?}; shift ;;
      -o) out=${2:?}; shift ;;
      -t) timeout=${2:?}; shift ;;
      -s) silence=${2:?}; shift ;;
      -m) mem=${2:?}; shift ;;
      -a) arch=${2:?}; shift ;;
      *) usage ;;
    esac
    shift
  done
  [[ -f $kernel && -f $initrd ]] || usage
  if [[ -z $out ]]; then
    out=$(mktemp -d "${TMPDIR:-/tmp}/rs-vm.XXXXXX")
    say "logs in $out"
  fi
  mkdir -p "$out"
  rm -f "$out"/{console,guest,qemu}.log "$out/silent"

  local start_us=${EPOCHREALTIME/./} qemu_rc=0 status=0 started rc took_ms
  boot "$kernel" "$initrd" "$out" "$timeout" "$mem" "$arch"
  if ((silence > 0)); then
    watch_silence "$out/guest.log" "$QEMU_PID" "$silence" "$out/silent" &
    watcher=$!
  fi
  stream_guest_output "$out/guest.log" "$QEMU_PID" || true
  wait "$QEMU_PID" || qemu_rc=$?
  QEMU_PID=""
  if [[ -n $watcher ]]; then
    kill "$watcher" 2>/dev/null || true
    wait "$watcher" 2>/dev/null || true
  fi
  if [[ ! -f $out/console.log ]]; then
    say "FAIL: qemu did not start (exit $qemu_rc):"
    cat "$out/qemu.log" >&2
    return 2
  fi

  # A virtio console ends its lines with \r\n whatever stty says.
  started=$(sed -n 's/^RS-GUEST-START uptime=\([0-9.]*\)s.*/\1/p' "$out/guest.log")
  rc=$(sed -n 's/^RS-GUEST-EXIT \([0-9]*\)\r\{0,1\}$/\1/p' "$out/guest.log")
  took_ms=$(((${EPOCHREALTIME/./} - start_us) / 1000))
  say "guest script started ${started:-never} s after kernel start;" \
    "VM round trip $((took_ms / 1000)).$((took_ms % 1000 / 100)) s"

  if [[ -f $out/silent ]]; then
    say "FAIL: VM stopped: its script printed nothing for $silence s (console: $out/console.log)"
    status=2
  elif ((qemu_rc == 124 || qemu_rc == 137)); then
    say "FAIL: VM killed after the ${timeout} s timeout (console: $out/console.log)"
    status=2
  elif [[ -z $rc ]]; then
    say "FAIL: the guest never reported its script's exit (qemu exit $qemu_rc); console tail:"
    tail -n 20 "$out/console.log" | tr -d '\r' >&2
    status=2
  fi
  if ! "$HERE/scan-splats.sh" "$out/console.log" >"$out/splats.txt"; then
    say "FAIL: kernel splat in $out/console.log:"
    cat "$out/splats.txt" >&2
    ((status)) || status=3
  fi
  if ((status == 0 && rc != 0)); then
    say "guest script exited with $rc"
    status=1
  fi
  return "$status"
}

# Sourced by its test (tests/e2e/silence_test.sh) for watch_silence alone.
[[ ${BASH_SOURCE[0]} != "$0" ]] || main "$@"
