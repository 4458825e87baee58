#!/usr/bin/env bash
# What a campaign reaches inside Z3: builds libz3 and the z3 binary from the z3-solver source
# package with gcc's line coverage, runs mbt on that libz3 for MINUTES, then a peer on that
# z3 binary for the same MINUTES, and prints line and function coverage per Z3 source folder
# for both, side by side. Folders where mbt is below the peer are the next families to build.
#
# Usage: bench/z3-coverage.sh [MINUTES]   (default 10)
#   Z3_VERSION=5.4.1.0   the z3-solver release to build (default: the newest on PyPI)
#   PEER=corpus          Z3's own command line on the SMT-LIB corpus of the tests
#                        (smtlib/tests/**/*.smt2, bench/inputs), file after file, again
#                        from the start until the minutes are up (default)
#   PEER=murxla          Murxla in SMT2 mode on the coverage build's z3, with
#                        bench/murxla.sh's flags (which builds and caches Murxla; or MURXLA=path)
#   MBT=path/to/mbt      the mbt binary (default: a release build of this checkout)
#   MBT_ARGS="..."       more mbt flags
#
# Needs pip, a C++20 compiler with <format> (see below) and about 3 GB of disk. The build
# (hours on two busy cores: it runs under `nice`, and ninja resumes an interrupted one) is
# cached in ${XDG_CACHE_HOME:-~/.cache}/z3-api-testing/z3-coverage-VERSION, with the tools it
# installs (cmake >= 3.26, ninja, gcovr, from PyPI) beside it, so a second run only runs.
# Coverage is the compiler's gcov-style counts (`--coverage`; -O0 for exact lines and a
# cheaper build, NDEBUG as in a release), read by gcovr: a line is covered when any run
# executed it, a function when it was entered. Both tools run on the same slow build.
#
# mbt's round workers end with _exit (the parent's exit handlers must not run twice), which
# skips the coverage dump of the libz3 they loaded: bench/gcov_exit.c, preloaded into mbt,
# turns _exit into exit so every worker writes its counts. Rounds killed at a limit, or
# crashing, lose theirs, as Murxla's killed solver processes do.
set -euo pipefail
minutes=${1:-10}
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"

cache_root=${XDG_CACHE_HOME:-$HOME/.cache}/z3-api-testing
tools=$cache_root/coverage-tools
if [ ! -x "$tools/bin/gcovr" ]; then
    python3 -m venv "$tools"
    "$tools/bin/pip" install -q 'cmake>=3.26' ninja gcovr >&2
fi
export PATH=$tools/bin:$PATH

version=${Z3_VERSION:-}
if [ -z "$version" ]; then
    (cd "$out" && pip download -q --no-binary :all: --no-deps -d . z3-solver >&2)
    sdist=$(ls "$out"/z3_solver-*.tar.gz)
    version=$(basename "$sdist" .tar.gz)
    version=${version#z3_solver-}
fi
cache=$cache_root/z3-coverage-$version

# A C++ compiler with <format> (Z3 5.x is C++20): the default one, else clang with libc++
# (Debian 12's g++ 12 lacks it; there: apt install clang-19 libc++-19-dev libc++abi-19-dev
# libclang-rt-19-dev llvm-19). gcovr reads clang's counts through llvm-cov's gcov mode.
cxx=${CXX:-c++}
stdlib=()
gcov=gcov
if ! echo '#include <format>' | "$cxx" -std=c++20 -x c++ -fsyntax-only - 2>/dev/null; then
    cxx=
    for v in 21 20 19 18 17; do
        if command -v "clang++-$v" >/dev/null && command -v "llvm-cov-$v" >/dev/null &&
            echo '#include <format>' | "clang++-$v" -stdlib=libc++ -std=c++20 -x c++ -fsyntax-only - 2>/dev/null; then
            cxx=clang++-$v stdlib=(-stdlib=libc++) gcov="llvm-cov-$v gcov"
            break
        fi
    done
    [ -n "$cxx" ] || { echo "bench/z3-coverage.sh: no C++ compiler with <format> (see the comment above)" >&2; exit 2; }
fi
build=$cache/build
if [ ! -f "$build/.built" ]; then
    mkdir -p "$cache"
    if [ ! -d "$cache/src/core" ]; then
        if [ -z "${sdist:-}" ]; then
            (cd "$out" && pip download -q --no-binary :all: --no-deps -d . "z3-solver==$version" >&2)
            sdist=$out/z3_solver-$version.tar.gz
        fi
        rm -rf "$cache/src" && mkdir -p "$cache/src"
        tar -xzf "$sdist" -C "$cache/src" --strip-components=1
    fi
    cmake -S "$cache/src/core" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CXX_COMPILER="$cxx" \
        -DCMAKE_CXX_FLAGS="--coverage -fprofile-update=atomic ${stdlib[*]}" \
        -DCMAKE_CXX_FLAGS_RELEASE="-O0 -DNDEBUG" \
        -DCMAKE_SHARED_LINKER_FLAGS="--coverage ${stdlib[*]}" \
        -DCMAKE_EXE_LINKER_FLAGS="--coverage ${stdlib[*]}" \
        -DZ3_BUILD_PYTHON_BINDINGS=OFF -DZ3_BUILD_TEST_EXECUTABLES=OFF -DZ3_ENABLE_EXAMPLE_TARGETS=OFF \
        -DZ3_INCLUDE_GIT_HASH=OFF -DZ3_INCLUDE_GIT_DESCRIBE=OFF >&2
    nice -n 19 cmake --build "$build" -j "$(nproc)" --target libz3 shell >&2
    touch "$build/.built"
fi
lib=$(ls "$build"/libz3.so | head -1)
z3=$build/z3

cc -O2 -shared -fPIC -o "$out/gcov_exit.so" "$root/bench/gcov_exit.c"

zero_counts() { find "$build" -name '*.gcda' -delete; }
# A template's functions are instantiated in many objects, which clang's counts may place on
# different lines (gcovr's strict merge refuses that): merged at their first line.
summary() { # $1: the JSON file to write
    gcovr --root "$cache/src/core" --object-directory "$build" -j "$(nproc)" --gcov-executable "$gcov" \
        --gcov-ignore-errors=no_working_dir_found --merge-mode-functions=merge-use-line-min \
        --json-summary "$1" "$build" >/dev/null
}

zero_counts
echo "mbt: $minutes minutes on $lib" >&2
set +e
LD_PRELOAD=$out/gcov_exit.so "$MBT" --z3-lib "$lib" --time "${minutes}m" --jobs 1 --seed 1 \
    --out "$out/mbt" -q ${MBT_ARGS:-} >&2
set -e
summary "$out/mbt.json"

zero_counts
peer=${PEER:-corpus}
echo "peer ($peer): $minutes minutes on $z3" >&2
case $peer in
corpus)
    mapfile -t files < <(find "$root/smtlib/tests" "$root/bench/inputs" -name '*.smt2' | sort)
    deadline=$((SECONDS + minutes * 60))
    runs=0
    while [ $SECONDS -lt $deadline ]; do
        for f in "${files[@]}"; do
            [ $SECONDS -lt $deadline ] || break
            left=$((deadline - SECONDS))
            timeout -k 1 "$((left < 10 ? left + 1 : 10))" "$z3" -T:9 "$f" >/dev/null 2>&1 || true
            runs=$((runs + 1))
        done
    done
    echo "peer: $runs runs of z3 over ${#files[@]} files" >&2
    ;;
murxla)
    murxla=${MURXLA:-$cache_root/murxla-4027d7c/build/bin/murxla}
    [ -x "$murxla" ] || { echo "bench/z3-coverage.sh: no Murxla at $murxla (bench/murxla.sh builds it; or set MURXLA)" >&2; exit 2; }
    mkdir -m 700 "$out/murxla-tmp" "$out/murxla-out"
    # The flags of bench/murxla.sh: SMT-LIB only, without what Z3's front end lacks. Murxla
    # prints its statistics and ends on SIGINT.
    (cd "$out" && timeout -s INT -k 30 "$((minutes * 60))" "$murxla" -l --no-bags --no-ff \
        --no-sets --no-seq --no-trans --smt2 "$z3" -T "$out/murxla-tmp" -O "$out/murxla-out" \
        >"$out/murxla.txt" 2>&1) || true
    ;;
*)
    echo "bench/z3-coverage.sh: PEER must be corpus or murxla" >&2
    exit 2
    ;;
esac
summary "$out/peer.json"

python3 - "$out/mbt.json" "$out/peer.json" "$version" "$minutes" "$peer" <<'PY'
import json, sys
mbt_file, peer_file, version, minutes, peer = sys.argv[1:]
# The folders the issue names first, then every other top folder of src/.
named = ["src/smt", "src/sat", "src/math", "src/tactic", "src/opt", "src/muz",
         "src/ast/rewriter", "src/api", "src/ast", "src/qe", "src/nlsat", "src/model",
         "src/solver", "src/cmd_context", "src/parsers", "src/util"]


def per_folder(path):
    totals = {}
    for f in json.load(open(path))["files"]:
        name = f["filename"]
        parts = name.split("/")
        folders = {"/".join(parts[:2])} | {n for n in named if name.startswith(n + "/")}
        for folder in folders | {"all"}:
            t = totals.setdefault(folder, [0, 0, 0, 0])
            t[0] += f["line_covered"]; t[1] += f["line_total"]
            t[2] += f["function_covered"]; t[3] += f["function_total"]
    return totals


mbt, other = per_folder(mbt_file), per_folder(peer_file)
folders = [n for n in named if n in mbt] + sorted(set(mbt) - set(named) - {"all"}) + ["all"]
pct = lambda a, b: f"{100.0 * a / b:5.1f}%" if b else "    -"
print(f"Z3 {version}, {minutes} minutes each; peer: {peer}")
print(f"{'folder':<20} {'lines':>8} {'mbt':>7} {'peer':>7} {'functions':>10} {'mbt':>7} {'peer':>7}  mbt below peer")
for folder in folders:
    m, p = mbt[folder], other.get(folder, [0, 0, 0, 0])
    below = ", ".join(k for k, i in [("lines", 0), ("functions", 2)] if m[i] < p[i])
    print(f"{folder:<20} {m[1]:>8} {pct(m[0], m[1]):>7} {pct(p[0], m[1]):>7} {m[3]:>10} "
          f"{pct(m[2], m[3]):>7} {pct(p[2], m[3]):>7}  {below}")
PY
