#!/bin/sh
# A developer's build tree behind /lib/modules/R/build, owned by another user: retsnoop's search
# for a vmlinux (-v) and the same file given with -k. The stand-in vmlinux is never read: the
# trust check comes first. Prints both exit statuses; removes what it made.
r=$(uname -r)
mkdir -p /home/dev/linux "/lib/modules/$r"
echo x >/home/dev/linux/vmlinux
chown 1000 /home/dev
ln -s /home/dev/linux "/lib/modules/$r/build"
retsnoop --dry-run -v -e __sys_bpf >/dev/null
search=$?
retsnoop --dry-run -k /home/dev/linux/vmlinux -e __sys_bpf
k=$?
rm -rf "/lib/modules/$r/build" /home/dev
echo "search exit $search, -k exit $k"
