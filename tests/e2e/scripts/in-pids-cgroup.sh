#!/bin/sh
# Runs CMD... in a cgroup v2 whose pids.max is MAX (as systemd's TasksMax does):
#   in-pids-cgroup.sh MAX CMD...
max=$1
shift
mount -t cgroup2 none /sys/fs/cgroup 2>/dev/null
echo +pids >/sys/fs/cgroup/cgroup.subtree_control
mkdir -p /sys/fs/cgroup/rs-tasks
echo "$max" >/sys/fs/cgroup/rs-tasks/pids.max
echo $$ >/sys/fs/cgroup/rs-tasks/cgroup.procs
exec "$@"
