#!/usr/bin/env bash
# Hostile inputs (issue 16): time and peak memory of checkmodel (both modes) and untrace (traces
# and Z3 API logs) on
# generated inputs that once hung, ran out of memory or answered wrongly. Each must end with a
# verdict or a clean error well within 20 s and 2 GB. Figures are measured here, never
# asserted in tests. Usage: bench/hostile.sh  (builds release binaries first)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p smtlib -p untrace
bin=target/release
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" <<'PY'
import sys
d = sys.argv[1]
def w(name, problem, response):
    open(f"{d}/{name}.smt2", "w").write(problem)
    open(f"{d}/{name}.resp", "w").write(response)
x8 = "(declare-const x (_ BitVec 8))\n"
m8 = "sat\n(model (define-fun x () (_ BitVec 8) #x00))\n"
w("width-2^32", x8 + "(assert (= ((_ zero_extend 4294967288) x) ((_ zero_extend 4294967288) (bvadd x #x01))))\n(check-sat)\n", m8)
w("repeat-10^8", x8 + "(assert (= ((_ repeat 100000000) x) ((_ repeat 100000000) x)))\n(check-sat)\n", m8)
w("push-10^8", "(push 100000000)\n(declare-const x Int)\n(assert (= x 1))\n(check-sat)\n", "sat\n(model (define-fun x () Int 1))\n")
s = "(declare-const s String)\n"
ms = "sat\n(model (define-fun s () String \"aaa\"))\n"
w("re-power-10^9", s + "(assert (str.in_re s ((_ re.^ 1000000000) (str.to_re \"a\"))))\n(check-sat)\n", ms)
w("re-loop-10^9", s + "(assert (str.in_re s ((_ re.loop 1 1000000000) (str.to_re \"a\"))))\n(check-sat)\n", ms)
r = '(str.to_re "a")'
for _ in range(10):
    r = f"(re.* (re.++ {r} {r}))"
w("re-star-10-deep", s + f"(assert (str.in_re s {r}))\n(check-sat)\n", "sat\n(model (define-fun s () String \"" + "a" * 31 + "b\"))\n")
p = "(declare-const x Int)\n(define-fun f0 () Int x)\n"
p += "".join(f"(define-fun f{i} () Int (+ f{i-1} f{i-1}))\n" for i in range(1, 60))
p += "".join(f"(assert (>= f59 (- {k})))\n" for k in range(1, 200)) + "(check-sat)\n"
w("define-fun-dag-2^59", p, "sat\n(model (define-fun x () Int 0))\n")
n = 100000
w("lets-10^5", "(declare-const x Int)\n(assert " + "".join(f"(let ((v{i} x)) " for i in range(n)) + "(= x x)" + ")" * n + ")\n(check-sat)\n", "sat\n(model (define-fun x () Int 0))\n")
w("empty-response", "(declare-const x Int)\n(assert (= x 1))\n(check-sat)\n", "")
t = ["z3-trace 1", "sort_int", "return s1"]
for k in range(1, 41):
    t += [f"sort_array s{k} s{k}", f"return s{k+1}"]
open(f"{d}/sorts-doubling.trace", "w").write("\n".join(t) + "\n")
open(f"{d}/args-10^6.trace", "w").write("z3-trace 1\nsort_int\nreturn s1\nconst s1 \"x\"\nreturn t1\n+ " + " ".join(["t1"] * 1000000) + "\nreturn t2\n")
# Z3 API logs (docs/z3-log.md): numbers written in the log never size an allocation.
v = 'V "4.8.12.0"\n'
open(f"{d}/log-array-length-2^64.log", "w").write(v + "R\np 18446744073709551615\nC 1\n")
open(f"{d}/log-array-10^6.log", "w").write(v + "R\n" + "U 1\n" * 1000000 + "u 1000000\nC 1\n")
open(f"{d}/log-string-10^8.log", "w").write(v + 'R\nS "' + "a" * 100000000 + '"\nC 1\n')
open(f"{d}/log-carried-stack.log", "w").write(v + "R\n" + "U 1\n" * 100000 + "C 1\n" * 100000)
PY
measure() {
    local label=$1; shift
    /usr/bin/time -f "%e %M" -o "$dir/time" "$@" >/dev/null 2>"$dir/err" && code=0 || code=$?
    read -r secs kb < <(tail -1 "$dir/time")
    printf '%-34s exit %-3s %7.2f s %8.0f MB  %s\n' "$label" "$code" "$secs" "$((kb / 1024))" \
        "$(grep -v '^Command' "$dir/err" | head -1 | cut -c1-70)"
}
for problem in "$dir"/*.smt2; do
    name=$(basename "$problem" .smt2)
    measure "checkmodel $name" "$bin/checkmodel" "$problem" "$dir/$name.resp"
    measure "checkmodel --interleaved $name" "$bin/checkmodel" "$problem" "$dir/$name.resp" --interleaved
done
for trace in "$dir"/*.trace; do
    measure "untrace $(basename "$trace" .trace)" "$bin/untrace" "$trace"
done
for log in "$dir"/*.log; do
    measure "untrace $(basename "$log" .log)" "$bin/untrace" "$log"
done
