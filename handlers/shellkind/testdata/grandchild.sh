#!/bin/sh
# Starts a grandchild, records its pid in the file named by $1, and waits.
# The grandchild reads its pid from /proc where there is one: in a PID
# namespace of its own, $! is the pid inside the namespace, not the one the
# test sees.
[ "$1" = -- ] && shift
if [ -r /proc/self/stat ]; then
	sh -c 'read pid rest < /proc/self/stat; echo "$pid" > "$1"; exec sleep 600' grandchild "$1" &
	while [ ! -s "$1" ]; do sleep 0.01; done
else
	sleep 600 &
	echo $! > "$1"
fi
wait
