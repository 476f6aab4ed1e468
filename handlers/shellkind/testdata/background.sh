#!/bin/sh
# Leaves a background process holding stdout open, records its pid in the
# file named by $1, and exits at once.
sleep 600 &
echo $! > "$1"
echo started
