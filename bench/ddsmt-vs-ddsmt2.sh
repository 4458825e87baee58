#!/usr/bin/env bash
# Runs ddSMT 2 (Python, `pip install ddsmt`) and this repository's `ddsmt` side by side on the
# inputs in bench/inputs/ddsmt/, each with a realistic property (a solver answer, an error
# message, two solvers agreeing), at the same -j. Prints output size, wall time and number of
# checks for each tool and the ratios ours/theirs. Goal: size ratio <= 1, time ratio <= 0.33.
#
# Usage: bench/ddsmt-vs-ddsmt2.sh [-j N] [CASE...]     (needs z3 and cvc5 on PATH)
set -euo pipefail

JOBS=2
if [ "${1:-}" = "-j" ]; then JOBS=$2; shift 2; fi
ROOT=$(cd "$(dirname "$0")/.." && pwd)
INPUTS=$ROOT/bench/inputs/ddsmt

for tool in z3 cvc5; do
  command -v "$tool" >/dev/null || { echo "error: $tool not found (apt-get install $tool)" >&2; exit 1; }
done
Z3=$(command -v z3)
CVC5=$(command -v cvc5)
GREP=$ROOT/ddsmt/tests/scripts/grep_exit.sh

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# Run from the scratch directory: in the repository root, Python would take our ddsmt/ crate
# directory for the ddsmt package.
cd "$WORK"

# ddSMT 2 lives in a private virtual environment (never a dependency of this repository) and
# is invoked as a Python module there, since our binary has the same name.
VENV=${DDSMT2_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/ddsmt2-venv}
if ! "$VENV/bin/python" -m ddsmt --version >/dev/null 2>&1; then
  echo "installing ddSMT 2 into $VENV..." >&2
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet ddsmt
fi
PY=$VENV/bin/python

echo "building ddsmt (release)..." >&2
(cd "$ROOT" && cargo build --release --quiet -p ddsmt)
# CARGO_TARGET_DIR may be relative to the repository root.
case ${CARGO_TARGET_DIR:-} in /*|"") ;; *) CARGO_TARGET_DIR=$ROOT/$CARGO_TARGET_DIR ;; esac
OURS=${CARGO_TARGET_DIR:-$ROOT/target}/release/ddsmt

# name | input file | options (words split at spaces; commas inside a word become spaces) | command
CASES=(
  "fuzz22-z3-answers|regress0__push-pop__boolean__fuzz_22.smt2||$Z3"
  "fuzz41-z3-cvc5-agree|regress1__push-pop__fuzz_41.smt2|-c $CVC5,--lang,smt2|$Z3"
  "ricart-cvc5-unsat-z3-agrees|regress1__quantifiers__ricart-agrawala6.smt2|-c $Z3|$CVC5 --lang smt2"
  "dnd002-z3-error|regress0__uf__dead_dnd002.smtv1.smt2|--match-out unknown,parameter --ignore-err|$Z3"
  "issue6495-z3-unsat|regress2__issue6495-dup-pat-term.smt2||$Z3"
  "magnitude-z3-sat|regress0__nl__magnitude-wrong-1020-m.smt2||$Z3"
  "stalmark-incremental-z3-answers|regress1__uflia__stalmark_e7_27_e7_31.ec.smt2||$Z3"
  "from-code-incremental-z3-error|regress0__strings__from_code.smt2|--match-out unknown,parameter --ignore-err|$Z3"
  "issue9966-set-logic-z3-error|regress0__fp__issue9966.smt2|--match-out unsupported --ignore-err|$Z3"
  "arrays2-z3-sat|regress0__arrays__arrays2.smt2||$Z3"
  # Issue 24: push/pop scripts for their answers, and grep-style properties (the reduced
  # input must still contain a pattern; grep_exit.sh exits 1 when it does).
  "fuzz12-push-pop-z3-answers|regress0__push-pop__boolean__fuzz_12.smt2||$Z3"
  "quant-fun-push-pop-cvc5-answers|regress1__push-pop__quant-fun-proc-unmacro.smt2||$CVC5 --incremental"
  "bug1247-push-pop-cvc5-answers|regress0__bug1247.smt2||$CVC5 --incremental"
  "fuzz22-grep-or|regress0__push-pop__boolean__fuzz_22.smt2||$GREP or"
  "fuzz41-grep-or|regress1__push-pop__fuzz_41.smt2||$GREP or"
  "quant-fun-grep-or|regress1__push-pop__quant-fun-proc-unmacro.smt2||$GREP or"
  "bug1247-grep-comment|regress0__bug1247.smt2||$GREP supported"
)

now() { date +%s.%N; }

# run TOOL NAME INPUT ARGS...: prints "size seconds checks"
run() {
  local tool=$1 name=$2 input=$3; shift 3
  local out=$WORK/$name.$tool.smt2 log=$WORK/$name.$tool.log start end checks
  start=$(now)
  if [ "$tool" = ddsmt2 ]; then
    "$PY" -m ddsmt -v -j "$JOBS" "$@" >"$log" 2>&1 || true
    checks=$(grep -o 'tests: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || echo "?")
  else
    "$OURS" -j "$JOBS" "$@" >"$log" 2>&1 || true
    checks=$(grep -o 'checks: [0-9]* run' "$log" | grep -o '[0-9]*' || echo "?")
  fi
  end=$(now)
  echo "$(wc -c <"$out" 2>/dev/null || echo '?') $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }') $checks"
}

printf '%-28s %7s | %8s %8s %7s | %8s %8s %7s | %6s %6s\n' case input \
  "2:size" "2:time" "2:checks" "our:size" "our:time" "our:chk" "size" "time"
for entry in "${CASES[@]}"; do
  IFS='|' read -r name file optspec cmdspec <<<"$entry"
  if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then continue; fi
  input=$INPUTS/$file
  opts=()
  for w in $optspec; do opts+=("${w//,/ }"); done
  read -ra cmd <<<"$cmdspec"
  read -r s2 t2 c2 <<<"$(run ddsmt2 "$name" "$input" "${opts[@]}" "$input" "$WORK/$name.ddsmt2.smt2" "${cmd[@]}")"
  read -r s1 t1 c1 <<<"$(run ours "$name" "$input" "${opts[@]}" "$input" "$WORK/$name.ours.smt2" "${cmd[@]}")"
  rs=$(awk -v a="$s1" -v b="$s2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
  rt=$(awk -v a="$t1" -v b="$t2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
  printf '%-28s %7s | %8s %8.1f %7s | %8s %8.1f %7s | %6s %6s\n' "$name" "$(wc -c <"$input")" \
    "$s2" "$t2" "$c2" "$s1" "$t1" "$c1" "$rs" "$rt"
done
echo "(size and time columns at the right: ours / ddSMT 2; -j $JOBS)"
