#!/usr/bin/env bash
# ddtrace on Z3's own API logs of real crashes against a generic line-based delta debugger
# (picire, line granularity), each with its own idea of "the same failure":
# - ddtrace: untrace's replay keeps the log's signature (the crash's place in libz3), and
#   with --z3-binary Z3's own replayer (`z3 -log`) of the log's release crashes too;
# - picire: `z3 -log` of the log's release crashes at the same place as on the input (the
#   place that bench/crash_place.c, preloaded, prints: the object and the program counter's
#   offset in it).
# Both run 2 checks in parallel (ddtrace -j 2, picire --parallel -j 2).
#
# Inputs: the crash logs of traces/logs/ that Z3's own replayer of their release crashes on
# (recorded by the programs in traces/logs/programs/ with Debian's python3-z3 4.8.12, with
# the z3-solver 5.4.1 wheel, and with a C program on the system libz3; the last, 37,417
# lines, a program that does ordinary work before the crash). The 5.4.1 logs are minimized
# on the wheel's libz3 (--z3-lib), so that untrace's replay and `z3 -log` run the same
# release.
#
# Prints per log: lines and calls of the input; for each reducer lines, calls and calls
# besides the context's creation and reference counting ("ess."), checks, seconds; the calls
# of ddtrace's lifted trace ("trace": the minimized log lifted and minimized further by the
# trace passes; the seconds include it); and for
# picire's result whether it is still a log of the bug ("log?": untrace replays it to the
# input's signature, "no" when it names objects no call made, which Z3's replayer lets
# pass). Every result is checked again afterwards: `z3 -log` crashes at the input's place
# (both), and untrace replays ddtrace's log and lifted trace to the input's signature.
# Target (issue 26): every ddtrace result at most 10 calls besides the context's creation and
# reference counting, in at most 60 s each on 2 cores.
#
# Usage: bench/ddtrace-logs.sh
# Environment: CARGO_TARGET_DIR (default: target), PROFILE (release|debug, default release),
# Z3_541 (the z3-solver 5.4.1 wheel's package folder; default: the one in .ci/venv), KEEP
# (a folder to copy both reducers' results into).
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${PROFILE:-release}
target=${CARGO_TARGET_DIR:-target}
flag=$([ "$profile" = release ] && echo --release || true)
cargo build -q $flag -p untrace -p ddtrace --bins
bin="$target/$profile"
untrace=$(realpath "$bin/untrace")
ddtrace=$(realpath "$bin/ddtrace")

z3_4812=$(command -v z3 || true)
wheel=${Z3_541:-$(ls -d .ci/venv/lib/python3*/site-packages/z3 2>/dev/null | head -1)}
z3_541=${wheel:+$wheel/../../../../bin/z3}
lib_541=${wheel:+$wheel/lib/libz3.so}

work=$(mktemp -d)
chmod 700 "$work"
trap 'rm -rf "$work"' EXIT

# picire lives in a private virtual environment of this run, never a dependency.
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet picire
picire="$work/venv/bin/picire"

cc -O2 -shared -fPIC -o "$work/crash_place.so" bench/crash_place.c -ldl

# The crash place of `z3 -log LOG` (empty when it does not crash). (The inner `exit` keeps
# the subshell from exec-ing z3, so the shell's "Segmentation fault" notice goes nowhere.)
place() { # Z3 LOG
    ( (LD_PRELOAD="$work/crash_place.so" "$1" -log "$2" 2>&1 >/dev/null; exit 0) 2>/dev/null ) |
        grep '^crash-place:' | head -1
}

# Calls of a log, and calls besides the context's creation and reference counting, by the
# call table of the log's release (z3log/tables/VERSION.tsv).
calls() { # LOG -> "CALLS ESSENTIAL"
    python3 - "$1" <<'PY'
import re, sys
text = open(sys.argv[1], errors="replace").read()
version = re.search(r'V "(\d+\.\d+\.\d+)', text)
names = {}
if version:
    for line in open(f"z3log/tables/{version.group(1)}.0.tsv"):
        if line.strip() and not line.startswith("#"):
            number, name = line.split("\t")[:2]
            names[int(number)] = name
context = {"Z3_mk_config", "Z3_set_param_value", "Z3_mk_context", "Z3_mk_context_rc", "Z3_del_config"}
calls = [int(m) for m in re.findall(r"^C (\d+)", text, re.M)]
essential = [n for n in calls
             if names.get(n, "") not in context
             and not re.search(r"_(inc|dec)_ref$", names.get(n, ""))]
print(len(calls), len(essential))
PY
}

now() { date +%s.%N; }

cases=()
for log in cube_empty translate_reset translate_reset_c max_steps_pop proof_bvsle; do
    [ -n "$z3_4812" ] && cases+=("traces/logs/$log-4.8.12.log|$z3_4812|")
done
if [ -x "$z3_541" ] && [ -f "$lib_541" ]; then
    for log in cube_empty max_steps_pop; do
        cases+=("traces/logs/$log-5.4.1.log|$(realpath "$z3_541")|$(realpath "$lib_541")")
    done
fi
[ -n "$z3_4812" ] && cases+=("traces/logs/model_then_translate_reset-4.8.12.log|$z3_4812|")

printf '%-34s %6s %6s | %5s %5s %4s %5s %6s %6s | %5s %5s %4s %6s %6s %4s\n' log lines calls \
    ddtrace calls ess. trace checks secs picire calls ess. checks secs log?
worst_ess=0; worst_secs=0
for case in "${cases[@]}"; do
    IFS='|' read -r log z3 lib <<<"$case"
    name=$(basename "$log" .log)
    want=$(place "$z3" "$log")
    [ -n "$want" ] || { echo "$log: z3 -log does not crash on it; skipped"; continue; }
    read -r in_calls _ < <(calls "$log")
    in_lines=$(wc -l < "$log")

    lib_args=()
    [ -n "$lib" ] && lib_args=(--z3-lib "$lib")
    t0=$(now)
    "$ddtrace" -q -j 2 "${lib_args[@]}" --z3-binary "$z3" --json "$work/$name.json" \
        --untrace "$untrace" "$log" "$work/$name.ddtrace.log"
    t1=$(now)
    # The log's checks and the lifted trace's replays.
    d_checks=$(python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); print(d["checks"] + d.get("lifted_replays", 0))' "$work/$name.json")

    # picire's test: z3 -log crashes at the input's place; one line per check in a counter.
    cat > "$work/test-$name.sh" <<TEST
#!/usr/bin/env bash
echo x >> "$work/$name.picire-checks"
got=\$( ( (LD_PRELOAD="$work/crash_place.so" "$z3" -log "\$1" 2>&1 >/dev/null; exit 0) 2>/dev/null ) | grep '^crash-place:' | head -1)
[ "\$got" = "$want" ]
TEST
    chmod +x "$work/test-$name.sh"
    cp "$log" "$work/$name.log"
    t2=$(now)
    "$picire" -i "$work/$name.log" --test "$work/test-$name.sh" -a line --parallel -j 2 -q \
        -o "$work/picire-$name" >/dev/null 2>&1
    t3=$(now)
    p_result="$work/picire-$name/$name.log"
    p_checks=$(wc -l < "$work/$name.picire-checks")

    # Both results crash z3 -log at the input's place; ddtrace's replays to the signature.
    for result in "$work/$name.ddtrace.log" "$p_result"; do
        [ "$(place "$z3" "$result")" = "$want" ] ||
            { echo "$result: z3 -log does not crash at $want"; exit 1; }
    done
    sig_in=$("$untrace" "${lib_args[@]}" "$log" 2>&1 | tail -1 || true)
    sig_out=$("$untrace" "${lib_args[@]}" "$work/$name.ddtrace.log" 2>&1 | tail -1 || true)
    [ "$sig_in" = "$sig_out" ] || { echo "$name: $sig_out, not $sig_in"; exit 1; }
    lifted="$work/$name.ddtrace.trace"
    sig_t=$("$untrace" "${lib_args[@]}" "$lifted" 2>&1 | tail -1 || true)
    [ "$sig_in" = "$sig_t" ] || { echo "$name: lifted trace: $sig_t, not $sig_in"; exit 1; }
    t_calls=$(grep -cvE '^(return|;|z3-trace|$)' "$lifted" || true)
    sig_p=$("$untrace" "${lib_args[@]}" "$p_result" 2>&1 | tail -1 || true)
    p_valid=$([ "$sig_in" = "$sig_p" ] && echo yes || echo no)
    if [ -n "${KEEP:-}" ]; then
        mkdir -p "$KEEP"
        cp "$work/$name.ddtrace.log" "$KEEP/$name.ddtrace.log"
        cp "$lifted" "$KEEP/$name.ddtrace.trace"
        cp "$p_result" "$KEEP/$name.picire.log"
    fi

    read -r d_calls d_ess < <(calls "$work/$name.ddtrace.log")
    read -r p_calls p_ess < <(calls "$p_result")
    d_lines=$(wc -l < "$work/$name.ddtrace.log"); p_lines=$(wc -l < "$p_result")
    d_secs=$(echo "$t1 - $t0" | bc -l); p_secs=$(echo "$t3 - $t2" | bc -l)
    printf '%-34s %6d %6d | %5d %5d %4d %5d %6d %6.1f | %5d %5d %4d %6d %6.1f %4s\n' "$name" \
        "$in_lines" "$in_calls" "$d_lines" "$d_calls" "$d_ess" "$t_calls" "$d_checks" "$d_secs" \
        "$p_lines" "$p_calls" "$p_ess" "$p_checks" "$p_secs" "$p_valid"
    [ "$t_calls" -gt "$worst_ess" ] && worst_ess=$t_calls
    if (( $(echo "$d_secs > $worst_secs" | bc -l) )); then worst_secs=$d_secs; fi
done
ok=$([ "$worst_ess" -le 10 ] && (( $(echo "$worst_secs <= 60" | bc -l) )) && echo yes || echo NO)
printf 'ddtrace: lifted traces of at most %d calls, at most %.1f s: target met: %s\n' \
    "$worst_ess" "$worst_secs" "$ok"
