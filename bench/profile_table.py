#!/usr/bin/env python3
"""Where mbt's CPU goes against what it finds: reads an MBT_PROFILE file (untrace/src/profile.rs)
and the campaign folder that wrote it, prints per fuzzer action and per oracle (the executor's
check_* calls) the CPU and wall time per round, the CPU share, how often it ran, and the findings
it produced: unique signatures (of which crash-type) and failed rounds. A finding belongs to the
action its round was in when it failed (the last `begin` line of the saved round's seed) and to
the oracle that is its last call. Then every executor call by CPU, and the slowest rounds.

Usage: bench/profile_table.py PROFILE CAMPAIGN_DIR [TOP]   (bench/profile.sh runs it)
"""
import json
import sys
from collections import defaultdict

CRASH_KINDS = {"crash", "stack-overflow"}


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.strip().splitlines()[-1])
    path, campaign = sys.argv[1], sys.argv[2]
    top = int(sys.argv[3]) if len(sys.argv) == 4 else 25
    summary = json.load(open(f"{campaign}/summary.json"))
    wall, cpu, runs = defaultdict(float), defaultdict(float), defaultdict(int)
    last_action = {}  # seed -> the action its round began last
    round_cpu, round_wall, slow = 0.0, 0.0, []
    for number, line in enumerate(open(path), 1):
        fields = line.split()
        if fields and fields[0] == "begin" and len(fields) == 3:
            last_action[int(fields[1])] = fields[2]
            continue
        if len(fields) != 4:
            sys.exit(f"{path}:{number}: not a profile line (KIND NAME WALL CPU): {line.strip()}")
        kind, name, w, c = fields[0], fields[1], int(fields[2]) / 1000, int(fields[3]) / 1000
        if kind == "round":
            round_cpu += c
            round_wall += w
            slow.append((c, name))
            continue
        wall[(kind, name)] += w
        cpu[(kind, name)] += c
        runs[(kind, name)] += 1

    rounds = max(summary["rounds"], 1)
    failures = summary["failure_list"]
    unique, crashes, failed = defaultdict(int), defaultdict(int), defaultdict(int)
    for f in failures:
        crash = f["kind"] in CRASH_KINDS
        for key in (("action", last_action.get(f["seed"], "?")), ("call", f.get("last_call") or "?")):
            unique[key] += 1
            crashes[key] += crash
            failed[key] += f["count"]
    crash_total = sum(f["kind"] in CRASH_KINDS for f in failures)
    print(f"{summary['rounds']} rounds in {summary['seconds']:.0f} s ({summary['rounds_per_second']:.1f}"
          f" rounds/s), Z3 {summary.get('z3_version', '?')}; CPU in rounds {round_cpu / 1000:.1f} s"
          f" ({round_cpu / rounds:.1f} ms per round, wall {round_wall / rounds:.1f} ms);"
          f" {len(failures)} unique findings ({crash_total} crash-type) in {summary['failed_rounds']}"
          f" failed rounds; {summary.get('timeouts_not_findings', 0)} timeouts that are no finding")

    def table(title, keys):
        print(f"\n{title}")
        print(f"| {'name':28} | CPU ms/round | CPU share | wall ms/round | runs/round |"
              f" findings (crash) | failed rounds | findings per CPU-hour |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        for key in sorted(keys, key=lambda k: -cpu[k]):
            hours = cpu[key] / 3.6e6
            rate = f"{unique[key] / hours:.0f}" if hours > 0 and unique[key] else "-"
            print(f"| {key[1]:28} | {cpu[key] / rounds:12.2f} | {100 * cpu[key] / max(round_cpu, 1e-9):8.1f}% |"
                  f" {wall[key] / rounds:13.2f} | {runs[key] / rounds:10.2f} |"
                  f" {unique[key]:>8} ({crashes[key]}) | {failed[key]:>13} | {rate:>21} |")

    actions = [k for k in runs if k[0] == "action"] + [
        k for k in unique if k[0] == "action" and k not in runs]
    table("per action (a finding counts for the action its round failed in)", actions)
    # Rounds that crashed or timed out write no `round` line, only their actions' lines.
    outside = max(round_cpu - sum(cpu[k] for k in actions), 0)
    print(f"| {'(rounds outside actions)':28} | {outside / rounds:12.2f} |"
          f" {100 * outside / max(round_cpu, 1e-9):8.1f}% | | | | | |")
    oracles = [k for k in runs if k[0] == "call" and k[1].startswith("check_")
               and k[1] not in ("check_sat", "check_sat_assuming")]
    table("per oracle (the executor's check_* calls; a finding counts for its last call)", oracles)
    calls = sorted((k for k in runs if k[0] == "call"), key=lambda k: -cpu[k])[:top]
    table(f"the {top} executor calls that take the most CPU (a finding counts for its last call)", calls)
    slow.sort(reverse=True)
    print("\nslowest rounds (CPU ms, seed): " + ", ".join(f"{ms:.0f} {seed}" for ms, seed in slow[:8]))


main()
