#!/bin/sh
# grep_exit.sh PATTERN... FILE: exit 1 (printing "found") if FILE contains every PATTERN, else 0.
eval "file=\${$#}"
while [ $# -gt 1 ]; do
  grep -q -- "$1" "$file" || exit 0
  shift
done
echo found
exit 1
