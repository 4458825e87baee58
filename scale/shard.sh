#!/usr/bin/env bash
# Runs shard K of N of one campaign into $OUT/shard-K (mbt --shard K/N: rounds SEED+K,
# SEED+K+N, ..., so the shards never repeat each other's rounds). Every scheduler's job file
# calls this.
#
#   OUT=DIR SEED=S [ROUNDS=R | TIME=SECONDS] [JOBS=J] [KNOWN=PATH] [MBT=mbt] shard.sh K N [mbt flags...]
#
# ROUNDS is per shard. Exit 0 when the shard finished (mbt's 0, or 1: new findings, which the
# merge reports), else mbt's exit code.
set -uo pipefail
if [ $# -lt 2 ]; then
    echo "usage: OUT=DIR SEED=S $0 K N [mbt flags...]" >&2
    exit 2
fi
k=$1 n=$2
shift 2
: "${OUT:?set OUT, the folder of the campaign (shared by every shard)}"
: "${SEED:?set SEED, the first seed of the campaign (the same for every shard)}"
flags=(--seed "$SEED" --shard "$k/$n" --jobs "${JOBS:-1}" -q --out "$OUT/shard-$k")
[ -n "${ROUNDS:-}" ] && flags+=(--rounds "$ROUNDS")
[ -n "${TIME:-}" ] && flags+=(--time "$TIME")
[ -n "${KNOWN:-}" ] && flags+=(--known "$KNOWN")
mkdir -p "$OUT"
"${MBT:-mbt}" "${flags[@]}" "$@"
code=$?
[ "$code" -le 1 ] || exit "$code"
