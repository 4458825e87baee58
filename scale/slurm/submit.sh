#!/usr/bin/env bash
# Submits one campaign as a Slurm array job of SHARDS shards and the merge as a job that starts
# when they have all ended. OUT must be on a file system every node sees.
#
#   OUT=/shared/mbt/$(date +%F) SEED=$(date +%s) SHARDS=32 TIME=28800 \
#     MBT=/shared/z3-testing/target/release/mbt scale/slurm/submit.sh [mbt flags...]
#
# Optional: ROUNDS (per shard, instead of or with TIME), KNOWN (--known PATH), BASELINE (last
# night's OUT/all, for the report), PARTITION (else SBATCH_PARTITION, else the cluster's
# default partition), extra sbatch options in SBATCH_ARGS (they come last, so they win).
#
# The jobs fit the partition, read with sinfo: a shard asks for CPUS CPUs (default 4: a
# worker each), fewer when the partition's smallest node has fewer, and for MEM_PER_CPU MiB
# per CPU (default: mbt's --memout among the flags, else its default 2048: each worker's
# round is limited to that), fewer CPUs when the node's memory holds fewer workers; the time
# limit is TIME plus an hour for what follows the rounds (9 hours with ROUNDS alone), within
# the partition's. A campaign that cannot fit is an error here (exit 2), never a job that is
# pending forever.
set -euo pipefail
die() {
    echo "submit.sh: $*" >&2
    exit 2
}
: "${OUT:?set OUT}" "${SEED:?set SEED}"
export OUT SEED SHARDS=${SHARDS:-32}
export SCALE_DIR
SCALE_DIR=$(cd "$(dirname "$0")/.." && pwd)
command -v sinfo >/dev/null || die "sinfo not found: submit from a host with Slurm's commands"

# Minutes of a Slurm time limit (MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS), -1 for none.
minutes() {
    local limit=$1 days=0 h=0 m=0 s=0 a b c
    case $limit in
    infinite | INFINITE | UNLIMITED | unlimited) echo -1 && return ;;
    esac
    [[ $limit =~ ^([0-9]+-)?[0-9]+(:[0-9]+){0,2}$ ]] || die "cannot read the time limit '$limit'"
    if [[ $limit == *-* ]]; then
        days=${limit%%-*}
        IFS=: read -r h m s <<<"${limit#*-}"
    else
        IFS=: read -r a b c <<<"$limit"
        if [ -n "$c" ]; then h=$a m=$b s=$c; elif [ -n "$b" ]; then m=$a s=$b; else m=$a; fi
    fi
    echo $((((10#$days * 24 + 10#${h:-0}) * 60 + 10#${m:-0}) + (10#${s:-0} > 0)))
}

# The partition and its smallest node (CPUs, MiB of memory) and time limit.
partition=${PARTITION:-${SBATCH_PARTITION:-}}
if [ -z "$partition" ]; then
    partitions=$(sinfo -h -o '%P') || die "sinfo cannot reach the cluster (is slurmctld up?)"
    # The default partition is the one sinfo marks with a star.
    partition=$(awk '/\*$/ { sub(/\*$/, ""); print; exit }' <<<"$partitions")
    [ -n "$partition" ] || die "the cluster has no default partition: set PARTITION"
fi
nodes=$(sinfo -h -N -p "$partition" -o '%c %m') || die "sinfo cannot read partition $partition"
[ -n "$nodes" ] || die "partition $partition has no nodes (or there is no such partition)"
read -r node_cpus node_mem < <(awk '{ gsub(/[^0-9 ]/, ""); if (NR == 1 || $1 < c) c = $1
    if (NR == 1 || $2 < m) m = $2 } END { print c, m }' <<<"$nodes")
limits=$(sinfo -h -p "$partition" -o '%l') || die "sinfo cannot read partition $partition"
max_minutes=$(minutes "${limits%%$'\n'*}")

# Memory per worker: MEM_PER_CPU, else mbt's --memout, else mbt's default.
memout=2048
prev=""
for arg in "$@"; do
    case $prev,$arg in
    --memout,*) memout=$arg ;;
    *,--memout=*) memout=${arg#--memout=} ;;
    esac
    prev=$arg
done
[[ $memout =~ ^[0-9]+$ ]] || die "cannot read --memout $memout"
[ "$memout" -gt 0 ] || memout=2048
mem_per_cpu=${MEM_PER_CPU:-$memout}
[[ $mem_per_cpu =~ ^[1-9][0-9]*$ ]] || die "MEM_PER_CPU must be MiB, not '$mem_per_cpu'"

cpus=${CPUS:-4}
[[ $cpus =~ ^[1-9][0-9]*$ ]] || die "CPUS must be a positive number, not '$cpus'"
((cpus <= node_cpus)) || cpus=$node_cpus
((cpus * mem_per_cpu <= node_mem)) || cpus=$((node_mem / mem_per_cpu))
((cpus >= 1)) || die "partition $partition: its smallest node has $node_mem MiB of memory," \
    "less than the $mem_per_cpu MiB one worker needs (MEM_PER_CPU, or mbt's --memout);" \
    "lower both or choose another PARTITION"

# Time: TIME (seconds of rounds) plus an hour, or 9 hours for ROUNDS alone, within the limit.
if [ -n "${TIME:-}" ]; then
    [[ $TIME =~ ^[0-9]+$ ]] || die "TIME must be seconds, not '$TIME'"
    shard_minutes=$(((TIME + 59) / 60 + 60))
    ((max_minutes < 0 || shard_minutes <= max_minutes)) ||
        die "partition $partition allows $max_minutes minutes per job; a shard of TIME=$TIME" \
            "needs $shard_minutes (the rounds and an hour): lower TIME or choose another PARTITION"
else
    shard_minutes=540
    ((max_minutes < 0 || shard_minutes <= max_minutes)) || shard_minutes=$max_minutes
fi
merge_minutes=60
((max_minutes < 0 || merge_minutes <= max_minutes)) || merge_minutes=$max_minutes
echo "partition $partition: $SHARDS shards of $cpus CPUs, $mem_per_cpu MiB per CPU, $shard_minutes minutes"

mkdir -p "$OUT"
fit=(--partition="$partition" --mem-per-cpu="$mem_per_cpu")
# shellcheck disable=SC2086
array=$(sbatch --parsable "${fit[@]}" --cpus-per-task="$cpus" --time="$shard_minutes" \
    ${SBATCH_ARGS:-} --array="0-$((SHARDS - 1))" --chdir="$OUT" \
    --export=ALL "$SCALE_DIR/slurm/shard.sbatch" "$@")
array=${array%%;*}
# shellcheck disable=SC2086
merge=$(sbatch --parsable "${fit[@]}" --cpus-per-task=1 --time="$merge_minutes" \
    ${SBATCH_ARGS:-} --dependency="afterany:$array" --chdir="$OUT" \
    --export=ALL "$SCALE_DIR/slurm/merge.sbatch")
echo "shards: job $array (array 0-$((SHARDS - 1))), merge: job ${merge%%;*}; report: $OUT/all/report.html"
