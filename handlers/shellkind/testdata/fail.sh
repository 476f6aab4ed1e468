#!/bin/sh
# Writes to both streams and fails.
echo "partial result"
echo "warming up" >&2
echo "disk on fire" >&2
exit 3
