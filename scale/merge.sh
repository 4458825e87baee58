#!/usr/bin/env bash
# Merges the shards 0..N-1 of the campaign in $OUT into $OUT/all: summary.json, failures/ and
# report.html (with BASELINE, an earlier campaign's folder, the report marks what is new
# against it). A shard without summary.json (it did not run or was killed hard) is left out
# with a warning.
#
#   OUT=DIR [BASELINE=DIR] [MBT=mbt] merge.sh N
#
# Exit: mbt merge's (0 nothing new, 1 new findings, 2 error).
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: OUT=DIR $0 N" >&2; exit 2; }
: "${OUT:?set OUT, the folder of the campaign}"
mbt=${MBT:-mbt}
dirs=()
for k in $(seq 0 $(($1 - 1))); do
    if [ -f "$OUT/shard-$k/summary.json" ]; then
        dirs+=("$OUT/shard-$k")
    else
        echo "$0: warning: shard $k has no summary.json; merged without it" >&2
    fi
done
[ ${#dirs[@]} -gt 0 ] || { echo "$0: no shard of $OUT finished" >&2; exit 2; }
code=0
"$mbt" merge "$OUT/all" "${dirs[@]}" || code=$?
[ "$code" -le 1 ] || exit "$code"
if [ -n "${BASELINE:-}" ]; then
    "$mbt" report "$OUT/all" --baseline "$BASELINE"
fi
exit "$code"
