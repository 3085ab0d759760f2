#!/bin/bash
# The release binary does not read RETSNOOP_TEST_FAULT: the variable's name is in the binary the
# end-to-end VMs run (which shows the check looks for the right string) and nowhere in the one
# that is installed.
# Usage: release_without_test_hooks.sh RELEASE_BINARY E2E_BINARY
set -euo pipefail

release=$1 e2e=$2
grep -q RETSNOOP_TEST_FAULT "$e2e" || { echo "FAIL: $e2e does not read RETSNOOP_TEST_FAULT"; exit 1; }
if grep -q RETSNOOP_TEST_FAULT "$release"; then
  echo "FAIL: $release reads RETSNOOP_TEST_FAULT"
  exit 1
fi
echo "ok: only $e2e reads RETSNOOP_TEST_FAULT"
