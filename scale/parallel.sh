#!/usr/bin/env bash
# One machine, GNU parallel: runs N shards of one campaign side by side (scale/shard.sh), then
# merges them into $OUT/all with its report.html (scale/merge.sh).
#
#   OUT=DIR SEED=S ROUNDS=R [TIME=SECONDS] [PARALLEL_JOBS=J] [MBT=mbt] parallel.sh N [mbt flags...]
#   OUT=nightly/$(date +%F) SEED=1000 TIME=28800 MBT=target/release/mbt scale/parallel.sh 8 --minimize
#
# The shards together run the seeds SEED .. SEED+N*ROUNDS-1, each once: the same rounds as
# `mbt --seed SEED --rounds N*ROUNDS`. Exit: as scale/merge.sh.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: OUT=DIR SEED=S ROUNDS=R $0 N [mbt flags...]" >&2; exit 2; }
n=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
command -v parallel >/dev/null || { echo "$0: GNU parallel is not installed" >&2; exit 2; }
# -q: every word goes to the shard as it is, without a shell in between. A shard that fails
# shows in the merge (its summary.json is missing).
parallel -q --will-cite --jobs "${PARALLEL_JOBS:-$(nproc)}" --halt never \
    "$here/shard.sh" {} "$n" "$@" ::: $(seq 0 $((n - 1))) || true
exec "$here/merge.sh" "$n"
