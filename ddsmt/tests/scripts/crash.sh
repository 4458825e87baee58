#!/bin/sh
# crash.sh SIGNAL FILE: kills itself with SIGNAL (SEGV, ABRT) if FILE contains get-value.
grep -q get-value "$2" && kill -"$1" $$
exit 0
