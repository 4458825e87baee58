#!/usr/bin/env bash
# Where mbt's CPU goes, against what it finds: runs a campaign with MBT_PROFILE (see
# untrace/src/profile.rs) and prints, with bench/profile_table.py, per fuzzer action and per
# oracle the CPU and wall time per round, the CPU share, the findings each produced (unique,
# crash-type, failed rounds) and findings per CPU-hour; then the executor calls by CPU and the
# slowest rounds by seed (rerun one with `mbt --seed N --rounds 1`).
# Usage: bench/profile.sh [ROUNDS|DURATION] [JOBS] [SEED] [TOP]
#   (defaults: 1000 rounds, 2 jobs, seed 1, top 20; a DURATION such as 15m runs `--time`)
# MBT=path/to/mbt uses that binary; MBT_ARGS="..." adds campaign flags (e.g. --z3-lib PATH);
# PROFILE_KEEP=DIR keeps the profile and the campaign folder there (bench/profile_table.py
# DIR/profile.txt DIR/campaign prints the table again).
set -euo pipefail
length=${1:-1000}
jobs=${2:-2}
seed=${3:-1}
top=${4:-20}
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"
if [[ $length =~ ^[0-9]+$ ]]; then
    span=(--rounds "$length")
else
    span=(--time "$length")
fi
keep=${PROFILE_KEEP:-$out}
mkdir -p "$keep"
rm -f "$keep/profile.txt"
# Exit 1 means the campaign found new failures, which a profile run expects.
# shellcheck disable=SC2086
MBT_PROFILE="$keep/profile.txt" "$MBT" ${MBT_ARGS:-} --seed "$seed" "${span[@]}" \
    --jobs "$jobs" --out "$keep/campaign" -q >/dev/null 2>&1 || [ $? -eq 1 ]
python3 "$root/bench/profile_table.py" "$keep/profile.txt" "$keep/campaign" "$top"
