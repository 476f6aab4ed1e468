#!/bin/sh
# Never answers: sleeps far longer than any test waits.
sleep 600
