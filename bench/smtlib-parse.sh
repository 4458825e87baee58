#!/usr/bin/env bash
# SMT-LIB parse+print throughput of the smtlib crate against peers measured in the same run on
# the same generated input: ddSMT 2's parser (`python3 -m ddsmt --parser-test`, which parses
# and prints) and Z3 reading the script (`z3 -smt2` with check-sat/get-model removed, so it
# only parses and asserts). Prints each tool's wall and CPU time, MB/s, and the ratios.
# CPU time (user+sys; on-CPU time for ours) is the fairer number on a loaded machine.
#
# Usage: bench/smtlib-parse.sh [MEGABYTES]      (default 4; needs python3, z3 optional)
set -euo pipefail

MB=${1:-4}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
INPUT=$WORK/input.smt2

echo "building and running smtlib/benches/smtlib.rs (release)..." >&2
OURS=$(cd "$ROOT" && cargo bench --quiet -p smtlib --bench smtlib -- --mb "$MB" --rounds 3 --write "$INPUT")
echo "$OURS"
BYTES=$(stat -c %s "$INPUT")
# "parse+print:  X MB/s (WALL s)   on-CPU:  Y MB/s (CPU s)"
LINE=$(grep '^parse+print:' <<<"$OURS")
OUR_WALL=$(sed -E 's/^[^(]*\(([0-9.]+) s\).*/\1/' <<<"$LINE")
OUR_CPU=$(sed -E 's/.*on-CPU:[^(]*\(([0-9.]+) s\).*/\1/' <<<"$LINE")

# Runs "$@" once with output discarded; sets WALL and CPU (seconds).
measure() {
  local t
  t=$( { TIMEFORMAT='%R %U %S'; time "$@" >/dev/null 2>"$WORK/stderr"; } 2>&1 ) || {
    echo "error: $* failed:" >&2; cat "$WORK/stderr" >&2; return 1; }
  WALL=$(awk '{print $1}' <<<"$t")
  CPU=$(awk '{print $2 + $3}' <<<"$t")
}

row() { # name wall cpu
  awk -v n="$1" -v w="$2" -v c="$3" -v b="$BYTES" -v ow="$OUR_WALL" -v oc="$OUR_CPU" 'BEGIN {
    printf "%-22s wall %8.3f s %8.1f MB/s   cpu %8.3f s %8.1f MB/s   ours faster by: wall %.1fx, cpu %.1fx\n",
      n, w, b / 1e6 / w, c, b / 1e6 / c, w / ow, c / oc }'
}

echo
printf "%-22s wall %8.3f s %8.1f MB/s   cpu %8.3f s %8.1f MB/s\n" "smtlib" "$OUR_WALL" \
  "$(awk -v b="$BYTES" -v t="$OUR_WALL" 'BEGIN{print b/1e6/t}')" "$OUR_CPU" \
  "$(awk -v b="$BYTES" -v t="$OUR_CPU" 'BEGIN{print b/1e6/t}')"

# ddSMT 2 runs from the scratch directory: in the repository root, Python would take our
# ddsmt/ crate directory for the ddsmt package.
cd "$WORK"
if ! python3 -m ddsmt --version >/dev/null 2>&1; then
  echo "installing ddSMT 2 with pip..." >&2
  python3 -m pip install --quiet ddsmt
fi
measure python3 -m ddsmt --parser-test "$INPUT" "$WORK/out.smt2" true
row "ddSMT 2 --parser-test" "$WALL" "$CPU"

if command -v z3 >/dev/null; then
  grep -v -e '^(check-sat)' -e '^(get-model)' "$INPUT" > "$WORK/z3-input.smt2"
  measure z3 -smt2 "$WORK/z3-input.smt2"
  row "z3 -smt2 (no solving)" "$WALL" "$CPU"
else
  echo "z3 not found: skipping the Z3 peer" >&2
fi
