#!/bin/sh
# Writes output without end; only a closed pipe stops it.
yes 'a line of output that goes on and on'
