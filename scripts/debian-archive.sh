# Sourced by the scripts that fetch Debian packages through a private apt configuration.
# shellcheck shell=bash

# The system's archive address for the main archive ($1 = main) or the security one: taken from
# apt's own index targets, so that mirrors and proxies configured here apply.
archive_uri() {
  # shellcheck disable=SC2016 # apt's own field names, not shell expansions
  apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 2>/dev/null | sort -u | awk -v want="$1" '
    (want == "security") == ($2 ~ /-security$/) && $2 !~ /-(updates|backports|proposed-updates)$/ { print $1; exit }'
}
