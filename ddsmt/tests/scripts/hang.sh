#!/bin/sh
# hang.sh FILE: hangs unless FILE contains check-sat; exit 1 if it also contains get-value.
grep -q check-sat "$1" || sleep 30
grep -q get-value "$1" && exit 1
exit 0
