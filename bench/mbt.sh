#!/usr/bin/env bash
# Benchmark of the mbt fuzzer: rounds per second, with the average number of calls and of
# check-sat calls per round, every oracle and isolation on, compared with BtorMBT's 45 rounds/s
# on Boolector. Also prints the CPU time per round (user + system of mbt and every round's
# child), which is robust against load from other processes, unlike wall time; then the
# unique crash-type findings (the solver died: `crash`, `stack-overflow`) per CPU-hour with
# their signatures, and the three rarest theories and API families by share of rounds.
# Usage: bench/mbt.sh [ROUNDS] [JOBS] [SEED]   (defaults: 2000 rounds, all cores, seed 1)
# MBT=path/to/mbt uses that binary instead of building one (to compare builds on the same
# seed range). Z3_LIB=path/to/libz3.so runs against that libz3 (`mbt --z3-lib`), e.g. to
# compare Debian's 4.8.12 with the z3-solver wheel's 5.x in one run:
#   bench/mbt.sh 1000 2 1; Z3_LIB=/path/to/wheel/z3/lib/libz3.so bench/mbt.sh 1000 2 1
# MBT_ARGS="..." adds campaign flags, e.g. a differential campaign against the same seeds:
#   bench/mbt.sh 600 2 1; MBT_ARGS="--diff-lib /path/to/libz3.so" bench/mbt.sh 600 2 1
set -euo pipefail
rounds=${1:-2000}
jobs=${2:-$(nproc)}
seed=${3:-1}
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"
python3 - "$MBT" "$rounds" "$jobs" "$seed" "$out" "${Z3_LIB:-}" "${MBT_ARGS:-}" <<'PY'
import json, resource, shlex, subprocess, sys
mbt, rounds, jobs, seed, out, z3_lib, extra = sys.argv[1:]
library = ["--z3-lib", z3_lib] if z3_lib else []
library += shlex.split(extra)
with open(f"{out}/report.txt", "w") as report:
    # Exit 1 means the campaign found new failures, which a benchmark run expects.
    code = subprocess.run([mbt, *library, "--seed", seed, "--rounds", rounds, "--jobs", jobs,
                           "--out", out, "-q"], stdout=report, stderr=subprocess.DEVNULL).returncode
    if code not in (0, 1):
        sys.exit(f"mbt exited with {code}")
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = usage.ru_utime + usage.ru_stime
s = json.load(open(f"{out}/summary.json"))
n = max(s["rounds"], 1)
print(f"Z3                {s.get('z3_version', '?')}")
print(f"rounds            {s['rounds']} (seeds {seed}..{int(seed) + s['rounds'] - 1}, {jobs} jobs)")
print(f"seconds (wall)    {s['seconds']:.1f}")
print(f"rounds/s          {s['rounds_per_second']:.1f}  ({s['rounds_per_second'] / 45:.2f}x BtorMBT's 45 rounds/s)")
print(f"CPU per round     {1000 * cpu / n:.1f} ms  (user {usage.ru_utime:.1f} s, system {usage.ru_stime:.1f} s)")
print(f"CPU-bound rate    {n / cpu:.1f} rounds/s per core")
print(f"calls/round       {s['calls_per_round']:.1f}")
print(f"check-sat/round   {s['checks_per_round']:.2f}")
print(f"unique failures   {s['failures']} ({s['failed_rounds']} failed rounds)")
# Crash-type: the solver died (the kinds bench/profile_table.py and bench/murxla.sh count).
crashes = [f for f in s.get("failure_list", []) if f["kind"] in ("crash", "stack-overflow")]
print(f"crash-type        {len(crashes)} unique ({sum(f['count'] for f in crashes)} failed rounds), "
      f"{3600 * len(crashes) / max(cpu, 1e-9):.0f} per CPU-hour")
for f in crashes:
    print(f"                  {f['signature']} (last call {f.get('last_call') or '?'}, {f['count']} rounds)")
families = s.get("rounds_per_theory", {})
if families:
    rarest = sorted(families, key=families.get)[:3]
    shares = ", ".join(f"{name} {100 * families[name] / n:.1f}%" for name in rarest)
    print(f"rarest families   {shares} of rounds ({len(families)} theories and API families)")
differential = s.get("stats", {}).get("differential")
if differential:
    print(f"differential      {differential}")
PY
