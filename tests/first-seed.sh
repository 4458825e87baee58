#!/usr/bin/env bash
# The seeds of tests/tests/findings.rs depend on the fuzzer's weights: after changing them,
# this finds the first seed (from 1) whose round shows a finding of KIND under the injected
# FAULT, and the other findings met before it; the test then runs that one round
# (--seed SEED --rounds 1) and minimizes only KIND (--minimize-kinds).
# Usage: tests/first-seed.sh FAULT KIND MAX_ROUNDS [mbt args...]
#   e.g. tests/first-seed.sh empty-core core 100 --theories core,arith
# MBT=path/to/mbt uses that binary (default: target/release/mbt, built if missing).
set -euo pipefail
[ $# -ge 3 ] || { sed -n '2,8p' "$0" >&2; exit 2; }
fault=$1 kind=$2 rounds=$3
shift 3
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${MBT:-}" ]; then
    cargo build --release -p mbt --manifest-path "$root/Cargo.toml" >&2
    MBT=${CARGO_TARGET_DIR:-$root/target}/release/mbt
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
UNTRACE_INJECT=$fault "$MBT" --seed 1 --jobs 2 -q --rounds "$rounds" "$@" --out "$out/c" \
    >/dev/null 2>&1 || [ $? -eq 1 ]
python3 - "$out/c/summary.json" "$kind" <<'PY'
import json, sys
summary, kind = json.load(open(sys.argv[1])), sys.argv[2]
found = sorted(f["first_seed"] for f in summary["failure_list"] if f["kind"] == kind)
if not found:
    sys.exit(f"no {kind} finding in {summary['rounds']} rounds")
first = found[0]
before = sorted((f["first_seed"], f["kind"]) for f in summary["failure_list"]
                if f["kind"] != kind and f["first_seed"] <= first)
print(f"first {kind} finding: seed {first} (the test runs --seed {first} --rounds 1)")
print("other findings up to it: " + (", ".join(f"{k} (seed {s})" for s, k in before) or "none"))
PY
