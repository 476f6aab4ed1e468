#!/bin/sh
# Prints each argument between angle brackets, one per line.
for a in "$@"; do
	printf '<%s>\n' "$a"
done
