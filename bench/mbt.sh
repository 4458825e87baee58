#!/usr/bin/env bash
# Benchmark of the mbt fuzzer: rounds per second, with the average number of calls and of
# check-sat calls per round, every oracle and isolation on (BtorMBT: 45 rounds/s on Boolector).
# Usage: bench/mbt.sh [ROUNDS] [JOBS]   (defaults: 2000 rounds, all cores)
set -euo pipefail
rounds=${1:-2000}
jobs=${2:-$(nproc)}
root=$(cd "$(dirname "$0")/.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
cargo build --release -p mbt --manifest-path "$root/Cargo.toml" >&2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$target/release/mbt" --seed 1 --rounds "$rounds" --jobs "$jobs" --out "$out" -q > "$out/report.txt"
python3 - "$out/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print(f"rounds            {s['rounds']}")
print(f"seconds           {s['seconds']:.1f}")
print(f"rounds/s          {s['rounds_per_second']:.1f}")
print(f"calls/round       {s['calls_per_round']:.1f}")
print(f"check-sat/round   {s['checks_per_round']:.2f}")
print(f"unique failures   {s['failures']} ({s['failed_rounds']} failed rounds)")
PY
