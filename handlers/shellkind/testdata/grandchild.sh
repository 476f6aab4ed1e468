#!/bin/sh
# Starts a grandchild, records its pid in the file named by $1, and waits.
sleep 600 &
echo $! > "$1"
wait
