#!/bin/sh
# slow_grep.sh FILE: like grep_exit.sh get-value, but takes 0.2 s per run.
sleep 0.2
grep -q get-value "$1" && { echo found; exit 1; }
exit 0
