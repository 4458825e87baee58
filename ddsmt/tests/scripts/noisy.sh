#!/bin/sh
# noisy.sh PATTERN CHANNEL FILE: if FILE contains PATTERN, exit 1 and print "found PATTERN"
# followed by the file size (which changes with every reduction) on CHANNEL (out, err or
# both), and a constant line on the other channel.
pattern=$1 channel=$2 file=$3
grep -q -- "$pattern" "$file" || exit 0
size=$(wc -c < "$file")
case $channel in
  out) echo "found $pattern in $size bytes"; echo "constant" >&2 ;;
  err) echo "constant"; echo "found $pattern in $size bytes" >&2 ;;
  both) echo "found $pattern in $size bytes"; echo "found $pattern in $size bytes" >&2 ;;
esac
exit 1
