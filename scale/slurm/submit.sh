#!/usr/bin/env bash
# Submits one campaign as a Slurm array job of SHARDS shards and the merge as a job that starts
# when they have all ended. OUT must be on a file system every node sees.
#
#   OUT=/shared/mbt/$(date +%F) SEED=$(date +%s) SHARDS=32 TIME=28800 \
#     MBT=/shared/z3-testing/target/release/mbt scale/slurm/submit.sh [mbt flags...]
#
# Optional: ROUNDS (per shard, instead of or with TIME), KNOWN (--known PATH), BASELINE (last
# night's OUT/all, for the report), extra sbatch options in SBATCH_ARGS (e.g. --partition=x).
set -euo pipefail
: "${OUT:?set OUT}" "${SEED:?set SEED}"
export OUT SEED SHARDS=${SHARDS:-32}
export SCALE_DIR
SCALE_DIR=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$OUT"
# shellcheck disable=SC2086
array=$(sbatch --parsable ${SBATCH_ARGS:-} --array="0-$((SHARDS - 1))" --chdir="$OUT" \
    --export=ALL "$SCALE_DIR/slurm/shard.sbatch" "$@")
array=${array%%;*}
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_ARGS:-} --dependency="afterany:$array" --chdir="$OUT" \
    --export=ALL "$SCALE_DIR/slurm/merge.sbatch")
echo "shards: job $array (array 0-$((SHARDS - 1))), merge: job ${merge%%;*}; report: $OUT/all/report.html"
