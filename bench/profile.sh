#!/usr/bin/env bash
# Where mbt's time goes: runs a campaign with MBT_PROFILE (see untrace/src/profile.rs) and
# prints the wall time per fuzzer action and per executor call (total, share, count, mean,
# 90th percentile, max), and the slowest rounds by seed (rerun one with
# `mbt --seed N --rounds 1`).
# Usage: bench/profile.sh [ROUNDS] [JOBS] [SEED] [TOP]   (defaults: 1000 rounds, 2 jobs, seed 1, top 20)
# MBT=path/to/mbt uses that binary; MBT_ARGS="..." adds campaign flags (e.g. --z3-lib PATH).
set -euo pipefail
rounds=${1:-1000}
jobs=${2:-2}
seed=${3:-1}
top=${4:-20}
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"
# Exit 1 means the campaign found new failures, which a profile run expects.
# shellcheck disable=SC2086
MBT_PROFILE="$out/profile.txt" "$MBT" ${MBT_ARGS:-} --seed "$seed" --rounds "$rounds" \
    --jobs "$jobs" --out "$out/campaign" -q >/dev/null 2>&1 || [ $? -eq 1 ]
python3 - "$out/profile.txt" "$top" "$out/campaign/summary.json" <<'PY'
import json, sys
from collections import defaultdict
path, top, summary = sys.argv[1], int(sys.argv[2]), json.load(open(sys.argv[3]))
times = defaultdict(list)
for line in open(path):
    kind, name, micros = line.split()
    times[(kind, name)].append(int(micros) / 1000)
rounds = summary["rounds"]
print(f"{rounds} rounds, {summary['seconds']:.1f} s wall, {summary['rounds_per_second']:.1f} rounds/s; "
      f"{summary.get('timeouts_not_findings', 0)} rounds past the time limit that are no finding")
for kind in ("action", "call"):
    rows = sorted(((sum(v), name, v) for (k, name), v in times.items() if k == kind), reverse=True)
    total = sum(r[0] for r in rows)
    print(f"\n{kind}s: {total / rounds:.1f} ms per round")
    print(f"  {'name':32} {'ms/round':>8} {'share':>6} {'count':>7} {'mean':>7} {'p90':>7} {'max':>8}")
    for spent, name, v in rows[:top]:
        v.sort()
        print(f"  {name:32} {spent / rounds:8.2f} {100 * spent / total:5.1f}% {len(v):7} "
              f"{spent / len(v):7.2f} {v[int(0.9 * len(v))]:7.2f} {v[-1]:8.1f}")
slow = sorted(((v[0], name) for (k, name), v in times.items() if k == "round"), reverse=True)
print("\nslowest rounds (ms, seed): " + ", ".join(f"{ms:.0f} {seed}" for ms, seed in slow[:8]))
PY
