#!/bin/sh
# alloc.sh FILE: prints "allocated" if 300 MB can be allocated; exit 1 if FILE has get-value.
python3 -c "bytearray(300 << 20)" 2>/dev/null && echo allocated
grep -q get-value "$1" && exit 1
exit 0
