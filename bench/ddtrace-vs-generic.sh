#!/usr/bin/env bash
# ddtrace against a generic line-based delta debugger (picire, line granularity) on failing
# traces, both with the same untrace-based check: "untrace aborts (SIGABRT) on the trace".
#
# Input traces: rounds of the fuzzer (`mbt --seed S --rounds 1 --keep-all`), each made to fail
# by untrace's test-only UNTRACE_FAIL_ON=PATTERN (abort before the first call whose line
# contains PATTERN), so that every reducer chases the same, known failure. (The real failures
# in traces/regress/ are already minimal.)
#
# Prints per trace: input lines; ddtrace lines, replays, seconds; picire lines, replays,
# seconds. Replays = untrace runs (ddtrace counts candidates it replayed; candidates the
# reference state rejects are never replayed). Both run one check at a time (-j 1).
# Goal (issue 6): ddtrace at most half the lines of the generic reducer, with no more replays.
#
# Usage: bench/ddtrace-vs-generic.sh [N_TRACES (default 10)]
# Environment: CARGO_TARGET_DIR (default: target), PROFILE (release|debug, default release).
set -euo pipefail
cd "$(dirname "$0")/.."
n_traces=${1:-10}
profile=${PROFILE:-release}
target=${CARGO_TARGET_DIR:-target}
flag=$([ "$profile" = release ] && echo --release || true)

command -v picire >/dev/null || python3 -m pip install --quiet picire
cargo build -q $flag -p untrace -p ddtrace -p mbt --bins
bin="$target/$profile"
untrace=$(realpath "$bin/untrace")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The interestingness test of the generic reducer: same check as ddtrace --ignore-output
# (the exit signal only), and one line in a counter file per replay.
cat > "$work/interesting.sh" <<TEST
#!/usr/bin/env bash
echo x >> "$work/picire-replays"
( "$untrace" "\$1" >/dev/null 2>&1 ) 2>/dev/null
[ \$? -eq 134 ]
TEST
chmod +x "$work/interesting.sh"

patterns=(bvudiv bvmul rotate_left bvshl zero_extend "bvult" "and " "or " check_sat_assuming bvsub "<" extract)
now() { date +%s.%N; }
# The exit status of a replay under UNTRACE_FAIL_ON (134 = SIGABRT), without the shell's
# "Aborted" notice.
# (The `exit` keeps the subshell from exec-ing untrace, so the notice goes to its /dev/null.)
replay() { ( "$untrace" "$1" >/dev/null 2>&1; exit $? ) 2>/dev/null; }
printf '%-6s %-18s %6s | %8s %8s %8s | %8s %8s %8s\n' seed pattern lines ddtrace replays secs picire replays secs
tot_in=0; tot_d=0; tot_dr=0; tot_p=0; tot_pr=0; tot_dt=0; tot_pt=0; done_n=0; seed=0
while [ "$done_n" -lt "$n_traces" ]; do
    seed=$((seed + 1))
    [ "$seed" -gt $((n_traces * 5)) ] && break
    pattern=${patterns[$(( (seed - 1) % ${#patterns[@]} ))]}
    input="$work/s$seed.trace"
    "$bin/mbt" --seed "$seed" --rounds 1 --jobs 1 --keep-all -q --theories core,arith,bv,array,uf \
        --out "$work/mbt$seed" >/dev/null 2>&1 || true
    cp "$work/mbt$seed/traces/seed-$seed.trace" "$input" 2>/dev/null || continue
    export UNTRACE_FAIL_ON="$pattern"
    # Only traces that fail (contain the pattern) are failures to minimize.
    code=0; replay "$input" || code=$?
    [ "$code" -eq 134 ] || continue
    lines=$(wc -l < "$input")

    t0=$(now)
    summary=$("$bin/ddtrace" -j 1 --ignore-output --untrace "$untrace" "$input" "$work/d$seed.trace" 2>&1 | tail -1)
    t1=$(now)
    d_lines=$(wc -l < "$work/d$seed.trace")
    d_replays=$(sed -n 's/.* \([0-9]*\) replays.*/\1/p' <<<"$summary")

    rm -f "$work/picire-replays"
    cp "$input" "$work/p$seed.trace"
    t2=$(now)
    picire -i "$work/p$seed.trace" --test "$work/interesting.sh" -a line -q -o "$work/picire$seed" >/dev/null 2>&1
    t3=$(now)
    p_lines=$(wc -l < "$work/picire$seed/p$seed.trace")
    p_replays=$(wc -l < "$work/picire-replays")
    # Both results must still fail.
    for result in "$work/d$seed.trace" "$work/picire$seed/p$seed.trace"; do
        code=0; replay "$result" || code=$?
        [ "$code" -eq 134 ] || { echo "$result does not fail (seed $seed)"; exit 1; }
    done

    d_secs=$(echo "$t1 - $t0" | bc -l); p_secs=$(echo "$t3 - $t2" | bc -l)
    printf '%-6s %-18s %6d | %8d %8d %8.2f | %8d %8d %8.2f\n' "$seed" "\"$pattern\"" "$lines" \
        "$d_lines" "$d_replays" "$d_secs" "$p_lines" "$p_replays" "$p_secs"
    tot_in=$((tot_in + lines)); tot_d=$((tot_d + d_lines)); tot_dr=$((tot_dr + d_replays))
    tot_p=$((tot_p + p_lines)); tot_pr=$((tot_pr + p_replays))
    tot_dt=$(echo "$tot_dt + $d_secs" | bc -l); tot_pt=$(echo "$tot_pt + $p_secs" | bc -l)
    done_n=$((done_n + 1))
done
printf '%-25s %6d | %8d %8d %8.2f | %8d %8d %8.2f\n' "total ($done_n traces)" "$tot_in" \
    "$tot_d" "$tot_dr" "$tot_dt" "$tot_p" "$tot_pr" "$tot_pt"
half=$([ $((2 * tot_d)) -le "$tot_p" ] && echo yes || echo NO)
fewer=$([ "$tot_dr" -le "$tot_pr" ] && echo yes || echo NO)
echo "ddtrace lines <= half of picire's: $half ($tot_d vs $tot_p); replays <= picire's: $fewer ($tot_dr vs $tot_pr)"
