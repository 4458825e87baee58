#!/usr/bin/env bash
# mbt against Murxla, side by side in the same minutes, one core each, on the same Z3: Murxla
# in SMT2 mode drives Z3's binary, mbt --jobs 1 drives its libz3 (Debian's z3 and libz3 4.8.12
# by default, or a build's or the wheel's: Z3_BINARY and Z3_LIB, e.g. 5.4.1 from the wheel:
# `Z3_BINARY=.ci/venv/bin/z3 Z3_LIB="$(.ci/z3-other-lib)" bench/murxla.sh 10`). Prints runs/s, CPU per run,
# check-sats/s and unique findings, split into crashes of the solver and the rest.
#
# Usage: bench/murxla.sh [MINUTES]   (default 10)
#   MURXLA=path/to/murxla      a Murxla binary (else built, see below)
#   MURXLA_SRC=path/to/checkout Murxla's sources (else cloned from GitHub at MURXLA_COMMIT)
#   Z3_BINARY=path/to/z3       the solver binary Murxla runs (default: `z3` on PATH)
#   Z3_LIB=path/to/libz3.so    the libz3 mbt runs on (mbt --z3-lib; default: the linked one)
#   MBT=path/to/mbt            the mbt binary (default: a release build of this checkout)
#   MBT_ARGS="..."             more mbt flags
#
# Building Murxla (SMT2 mode only: every solver back end off) needs cmake and a C++17
# compiler. Its CMake downloads nlohmann's JSON library; offline, install it (Debian:
# nlohmann-json3-dev) and this script points CMake at it instead (FETCHCONTENT_SOURCE_DIR_JSON
# with a three-line shim project), so nothing is downloaded. The build is cached in
# ${XDG_CACHE_HOME:-~/.cache}/z3-api-testing/murxla-COMMIT.
#
# Fair set-up: Murxla runs with -l (SMT-LIB only) and without the theories Z3's SMT-LIB
# front end lacks (bags, finite fields, cvc5's sets, sequences and transcendentals), so its
# runs are not all rejected input. CPU is measured per tool in a cgroup of its own (v2 or
# v1 cpuacct; root or a delegated cgroup), which also counts the solver processes Murxla
# starts and does not wait for; without a writable cgroup the script says so and falls back
# to the processes it can see (Murxla's side is then a lower bound). Check-sats sent to Z3
# are counted on the way in by bench/solver_meter.c (Murxla's statistics do not have them),
# mbt's from its summary.
set -euo pipefail
minutes=${1:-10}
commit=${MURXLA_COMMIT:-4027d7c}
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"

z3_binary=${Z3_BINARY:-$(command -v z3 || true)}
[ -x "$z3_binary" ] || { echo "bench/murxla.sh: no Z3 binary (install z3 or set Z3_BINARY)" >&2; exit 2; }
# Absolute paths: Murxla starts the solver from folders of its own.
z3_binary=$(realpath "$z3_binary")
z3_lib=${Z3_LIB:+$(realpath "$Z3_LIB")}

if [ -z "${MURXLA:-}" ]; then
    cache=${XDG_CACHE_HOME:-$HOME/.cache}/z3-api-testing/murxla-$commit
    MURXLA=$cache/build/bin/murxla
    if [ ! -x "$MURXLA" ]; then
        command -v cmake >/dev/null || { echo "bench/murxla.sh: building Murxla needs cmake" >&2; exit 2; }
        mkdir -p "$cache"
        src=${MURXLA_SRC:-$cache/src}
        if [ -z "${MURXLA_SRC:-}" ] && [ ! -d "$src/.git" ]; then
            git clone -q https://github.com/murxla/murxla "$src"
            git -C "$src" checkout -q "$commit"
        fi
        json=()
        # (In the private folder: cmake --find-package writes CMakeFiles/ where it runs.)
        if (cd "$out" && cmake --find-package -DNAME=nlohmann_json -DCOMPILER_ID=GNU \
            -DLANGUAGE=CXX -DMODE=EXIST >/dev/null 2>&1); then
            mkdir -p "$cache/json-shim"
            cat > "$cache/json-shim/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.11)
project(nlohmann_json_from_system LANGUAGES CXX)
find_package(nlohmann_json 3 REQUIRED)
set_target_properties(nlohmann_json::nlohmann_json PROPERTIES IMPORTED_GLOBAL TRUE)
CMAKE
            json=(-DFETCHCONTENT_SOURCE_DIR_JSON="$cache/json-shim" -DFETCHCONTENT_FULLY_DISCONNECTED=ON)
        fi
        cmake -S "$src" -B "$cache/build" -DCMAKE_BUILD_TYPE=Release -DENABLE_BOOLECTOR=OFF \
            -DENABLE_BITWUZLA=OFF -DENABLE_CVC5=OFF -DENABLE_YICES=OFF "${json[@]}" >&2
        cmake --build "$cache/build" -j "$(nproc)" >&2
    fi
fi

cc -O2 -o "$out/solver_meter" "$root/bench/solver_meter.c"

python3 - "$MBT" "$MURXLA" "$z3_binary" "$z3_lib" "$minutes" "$out" "${MBT_ARGS:-}" <<'PY'
import json, os, re, shlex, signal, subprocess, sys, time
mbt, murxla, z3_binary, z3_lib, minutes, out, extra = sys.argv[1:]
seconds = float(minutes) * 60
cores = sorted(os.sched_getaffinity(0))


def cgroup(name):
    """A fresh cgroup for one tool: (procs file, reader of its CPU seconds), or None."""
    for base, stat in [("/sys/fs/cgroup", "cpu.stat"), ("/sys/fs/cgroup/unified", "cpu.stat"),
                       ("/sys/fs/cgroup/cpuacct", "cpuacct.usage")]:
        path = f"{base}/z3-api-bench-{os.getpid()}-{name}"
        try:
            os.mkdir(path)
        except OSError:
            continue
        if not os.path.exists(f"{path}/{stat}"):
            os.rmdir(path)
            continue

        def cpu(path=path, stat=stat):
            """Kills what is left in the group, then reads its CPU seconds and removes it."""
            for _ in range(100):
                pids = open(f"{path}/cgroup.procs").read().split()
                if not pids:
                    break
                for pid in pids:
                    try:
                        os.kill(int(pid), signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                time.sleep(0.1)
            text = open(f"{path}/{stat}").read()
            os.rmdir(path)
            if stat == "cpu.stat":
                return int(re.search(r"usage_usec (\d+)", text).group(1)) / 1e6
            return int(text) / 1e9
        return path, cpu
    return None


def start(argv, name, core, env=None, **kw):
    group = cgroup(name)

    def enter():
        os.setpgrp()
        if len(cores) > 1:
            os.sched_setaffinity(0, {core})
        if group:
            with open(f"{group[0]}/cgroup.procs", "w") as f:
                f.write(str(os.getpid()))
    return subprocess.Popen(argv, preexec_fn=enter, env=env, **kw), group


os.makedirs(f"{out}/murxla-tmp", mode=0o700)
os.makedirs(f"{out}/murxla-out", mode=0o700)
meter_log = f"{out}/meter.log"
env = dict(os.environ, METER_SOLVER=z3_binary, METER_LOG=meter_log)
murxla_argv = [murxla, "-l", "--no-bags", "--no-ff", "--no-sets", "--no-seq", "--no-trans",
               "--smt2", f"{out}/solver_meter", "-T", f"{out}/murxla-tmp", "-O",
               f"{out}/murxla-out", "-e", f"{out}/murxla-errors.json"]
mbt_argv = [mbt, *(["--z3-lib", z3_lib] if z3_lib else []), *shlex.split(extra), "--jobs", "1",
            "--seed", "1", "--time", f"{int(seconds)}", "--out", f"{out}/mbt", "-q"]
with open(f"{out}/murxla.stdout", "wb") as m_out, open(f"{out}/mbt.txt", "wb") as b_out:
    m, m_group = start(murxla_argv, "murxla", cores[0], env, stdout=m_out,
                       stderr=subprocess.STDOUT)
    b, b_group = start(mbt_argv, "mbt", cores[-1], stdout=b_out, stderr=subprocess.STDOUT)
    began = time.monotonic()
    try:
        b.wait(timeout=seconds + 120)
    finally:
        wall_m = time.monotonic() - began
        # Murxla prints its statistics on SIGINT; then the whole group goes.
        os.killpg(m.pid, signal.SIGINT)
        try:
            m.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(m.pid, signal.SIGKILL)
            m.wait()
        for p in (m, b):
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    if b.returncode not in (0, 1):
        sys.exit(f"mbt exited with {b.returncode}: see {out}/mbt.txt")

# Murxla: runs from its last status line, findings from its error statistics.
status = [l for l in open(f"{out}/murxla.stdout", "rb").read().decode(errors="replace")
          .replace("\r", "\n").splitlines() if re.match(r"^\s*[0-9a-f]+\s+\d+\s+[\d.]+\s", l)]
m_runs = int(status[-1].split()[1]) if status else 0
lines = open(meter_log).read().split("\n") if os.path.exists(meter_log) else []
m_checks = sum(1 for l in lines if l == "check-sat")
exits = [l.split() for l in lines if l.startswith("exit ")]
metered_cpu = sum(float(e[1]) + float(e[2]) for e in exits)
crash_signals = {4, 6, 7, 8, 11}  # SIGILL, SIGABRT, SIGBUS, SIGFPE, SIGSEGV
m_solver_crashes = sum(1 for e in exits if int(e[3]) - 128 in crash_signals)
try:
    messages = json.load(open(f"{out}/murxla-errors.json"))["errors"]["exclude"]
except (OSError, ValueError, KeyError):
    messages = []
crash_words = re.compile(r"ASSERTION|UNREACHABLE|Segmentation|Aborted|core dumped|signal|"
                         r"got ''|uncaught|out of memory", re.I)
m_crashes = [msg for msg in messages if crash_words.search(msg)]
if m_group:
    m_cpu, m_cpu_how = m_group[1](), "cgroup: Murxla and every solver it started"
else:
    m_cpu = metered_cpu
    m_cpu_how = "no cgroup: metered solver processes only (a lower bound)"

s = json.load(open(f"{out}/mbt/summary.json"))
b_runs = s["rounds"]
b_checks = s["checks_per_round"] * b_runs
if b_group:
    b_cpu, b_cpu_how = b_group[1](), "cgroup"
else:
    import resource
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    b_cpu, b_cpu_how = u.ru_utime + u.ru_stime, "rusage of mbt and its children"
crash_kinds = {"crash", "stack-overflow"}
b_crashes = [f for f in s["failure_list"] if f["kind"] in crash_kinds]
wall_b = s["seconds"]
b_cpu_per_wall = b_cpu / max(wall_b, 1e-9)
b_crashes_at_m_cpu = [f for f in b_crashes
                      if (f.get("found_after") or wall_b) * b_cpu_per_wall <= m_cpu]


def ratio(a, b):
    return f"{a / b:.1f}x" if b else "-"


print(f"Z3 binary (Murxla)      {z3_binary}")
print(f"libz3 (mbt)             {s.get('z3_version', '?')} {z3_lib or '(linked)'}")
print(f"minutes                 {minutes}, one core each ({len(cores)} cores here)")
print(f"{'':24}{'mbt':>14}{'Murxla':>14}{'mbt/Murxla':>12}")
rows = [
    ("runs (rounds)", b_runs, m_runs, "{:.0f}"),
    ("runs/s", b_runs / wall_b, m_runs / wall_m, "{:.1f}"),
    ("CPU per run (ms)", 1000 * b_cpu / max(b_runs, 1), 1000 * m_cpu / max(m_runs, 1), "{:.1f}"),
    ("check-sats/s", b_checks / wall_b, m_checks / wall_m, "{:.1f}"),
    ("check-sats per CPU-s", b_checks / max(b_cpu, 1e-9), m_checks / max(m_cpu, 1e-9), "{:.1f}"),
    ("unique findings", len(s["failure_list"]), len(messages), "{:.0f}"),
    ("  crashes of the solver", len(b_crashes), len(m_crashes), "{:.0f}"),
    ("  crashes per CPU-hour", 3600 * len(b_crashes) / max(b_cpu, 1e-9),
     3600 * len(m_crashes) / max(m_cpu, 1e-9), "{:.1f}"),
    # Unique findings come fast at first and ever slower (the same crashes recur), so a rate
    # per CPU-hour favours the tool that used less CPU: also compare at equal CPU, mbt's
    # crashes found within the CPU time Murxla used (mbt's CPU spread evenly over its run).
    ("  crashes at Murxla's CPU", len(b_crashes_at_m_cpu), len(m_crashes), "{:.0f}"),
]
for name, a, c, fmt in rows:
    print(f"{name:24}{fmt.format(a):>14}{fmt.format(c):>14}{ratio(a, c):>12}")
print(f"CPU measured            mbt: {b_cpu_how}; Murxla: {m_cpu_how}")
print(f"Murxla's solver runs    {len(exits)} metered, {m_solver_crashes} ended by a crash signal")
noise = len(messages) - len(m_crashes)
print(f"Murxla's other findings {noise} (Z3 rejecting its input: unknown symbols, unsupported"
      " logics, errors)")
for msg in m_crashes:
    print(f"  Murxla crash: {msg.strip()[:160]}")
for f in b_crashes:
    print(f"  mbt crash: {f['signature'][:160]}")
PY
