#!/usr/bin/env bash
# The shipped unit is what the fleet e2e case tests: its ExecStart plus the example environment
# file give the command line of tests/e2e/cases/fleet.case (but for the summary interval), that
# command line parses, and the unit stops retsnoop the way it detaches cleanly.
# Usage: service_unit.sh RETSNOOP UNIT ENV_FILE FLEET_CASE
set -euo pipefail
retsnoop=$1 unit=$2 env_file=$3 fleet_case=$4
failed=0
fail() { echo "FAIL: $*"; failed=1; }

for line in "EnvironmentFile=/etc/retsnoop/%i.env" "KillSignal=SIGINT" "Restart=on-failure" \
  "StandardOutput=journal"; do
  grep -qx -- "$line" "$unit" || fail "unit lacks $line"
done

# systemd splits $RETSNOOP_OPTIONS at blanks without quoting or globbing: so does this.
set -f
exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
options=$(sed -n 's/^RETSNOOP_OPTIONS=//p' "$env_file")
# shellcheck disable=SC2206  # word splitting is the point here
service_words=(${exec_start/\$RETSNOOP_OPTIONS/$options})
# shellcheck disable=SC2207
case_words=($(sed -n 's/^RUN //p' "$fleet_case" | head -1 | tr -d "'"))
set +f

service_line="${service_words[*]/summary.interval=3600/summary.interval=1}"
[[ $service_line == "${case_words[*]}" ]] ||
  fail "fleet.case runs '${case_words[*]}', the unit '$service_line'"
"$retsnoop" "${service_words[@]:1}" --usage >/dev/null || fail "the unit's options do not parse"

# The unit stays hardened: systemd's own exposure score (0 safest, 10 unsafe; 3.2 now) must not
# grow past 3.4, its score when first written. An instance name makes the template analyzable
# offline.
if command -v systemd-analyze >/dev/null; then
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
  cp "$unit" "$dir/retsnoop@check.service"
  systemd-analyze security --offline=true --threshold=34 --no-pager "$dir/retsnoop@check.service" \
    >"$dir/report" 2>&1 || { cat "$dir/report"; fail "systemd-analyze security: exposure above 3.4"; }
  grep -q "^ExecStopPost=" "$unit" || fail "unit lacks an ExecStopPost that removes what a killed run left"
else
  echo "note: systemd-analyze not installed, the hardening score is not checked"
fi
exit $failed
