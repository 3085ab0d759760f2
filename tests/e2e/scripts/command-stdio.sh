#!/bin/sh
# The command of a `retsnoop --user` case whose standard input and error are a terminal. Prints
#   stdin PATH                 (what its standard input is)
#   stderr write-only          (or read-write: the access mode of its standard error)
# and leaves `sleep 60` running in its process group, its PID in DIR/bg.pid (DIR: $1).
echo "stdin $(readlink /proc/$$/fd/0)"
case $(sed -n 's/^flags:[[:space:]]*//p' "/proc/$$/fdinfo/2") in
  *1) echo "stderr write-only" ;;
  *2) echo "stderr read-write" ;;
  *) echo "stderr of another mode" ;;
esac
sleep 60 &
echo $! >"$1/bg.pid"
