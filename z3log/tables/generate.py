#!/usr/bin/env python3
"""Generates the call tables of Z3's API log, one file per Z3 release.

A Z3 API log names each call by a number (`C 458`): the position of the function's
`def_API(...)` line among all such lines of the API headers, read in the order Z3's build
hands them to scripts/update_api.py (counted from 0; `extra_API` lines are not counted). That
order is the list `API_files` of scripts/mk_project.py and `Z3_API_HEADER_FILES_TO_SCAN` of
CMakeLists.txt, the same in every release from 4.8.12 on (checked against each release's
build scripts):

    z3_api.h z3_ast_containers.h z3_algebraic.h z3_polynomial.h z3_rcf.h
    z3_fixedpoint.h z3_optimization.h z3_fpa.h z3_spacer.h

Z3's build reads a header line by line, strips it, and takes a stripped line that starts with
`def_API` as one Python expression. This script reads the same lines, but parses each with
`ast` instead of evaluating it, and writes per function its number, name, result type and
parameters (direction, type, array size positions) as one tab-separated line.

Usage (Python standard library only; `pip` is only run by `fetch`):

    generate.py fetch HEADERS VERSION...   download the z3-solver wheel of each VERSION
                                           (e.g. 4.8.12.0) with pip and keep its
                                           z3/include/*.h in HEADERS/VERSION/
    generate.py tables HEADERS OUT         write OUT/VERSION.tsv for every HEADERS/VERSION/
    generate.py table DIR VERSION          print the table of the headers in DIR

The table format (read by z3log/src/table.rs):

    # comment lines
    ID<TAB>NAME<TAB>RESULT<TAB>PARAM PARAM ...

A type is a primitive (`UINT`, `STRING`, `BOOL`, ...), `@NAME` for an object type declared
by `def_Type` (`@AST`) or `&NAME` for a callback type declared by `Z3_DECLARE_CLOSURE`. A
parameter is `in:T`, `out:T`, `in_array(S):T`, `inout_array(S):T`,
`out_array(C,S):T`, `out_managed_array(S):T` (S, C: the positions of the size and capacity
parameters) or `fnptr:T`.
"""

import ast
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

API_FILES = [
    "z3_api.h",
    "z3_ast_containers.h",
    "z3_algebraic.h",
    "z3_polynomial.h",
    "z3_rcf.h",
    "z3_fixedpoint.h",
    "z3_optimization.h",
    "z3_fpa.h",
    "z3_spacer.h",
]

PRIMITIVES = {
    "VOID",
    "VOID_PTR",
    "INT",
    "UINT",
    "INT64",
    "UINT64",
    "STRING",
    "STRING_PTR",
    "BOOL",
    "SYMBOL",
    "PRINT_MODE",
    "ERROR_CODE",
    "DOUBLE",
    "FLOAT",
    "CHAR",
    "CHAR_PTR",
    "LBOOL",
}

# The same patterns as scripts/update_api.py (def_Types): object and callback types.
DEF_TYPE = re.compile(r" *def_Type\('(.*)',[^']*'(.*)',[^']*'(.*)'\)[ \t]*")
CLOSURE = re.compile(r"Z3_DECLARE_CLOSURE\((.*),(.*), \((.*)\)\)")


class HeaderError(Exception):
    pass


def scan_types(paths):
    objects, closures = set(), set()
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as header:
            for line in header:
                m = DEF_TYPE.match(line)
                if m:
                    objects.add(m.group(1))
                    continue
                m = CLOSURE.match(line)
                if m:
                    closures.add(m.group(1).strip())
    return objects, closures


def type_token(name, objects, closures):
    if name in PRIMITIVES:
        return name
    if name in objects:
        return "@" + name
    if name in closures:
        return "&" + name
    raise HeaderError("unknown type %s" % name)


def name_of(node):
    if isinstance(node, ast.Name):
        return node.id
    raise HeaderError("expected a type name, found %s" % ast.dump(node))


def int_of(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    raise HeaderError("expected a position, found %s" % ast.dump(node))


def param_token(node, objects, closures):
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        raise HeaderError("expected a parameter such as _in(AST)")
    kind, args = node.func.id, node.args
    ty = lambda n: type_token(name_of(n), objects, closures)  # noqa: E731
    if kind in ("_in", "_out", "_fnptr") and len(args) == 1:
        return "%s:%s" % (kind[1:], ty(args[0]))
    if kind in ("_in_array", "_inout_array", "_out_managed_array") and len(args) == 2:
        return "%s(%d):%s" % (kind[1:], int_of(args[0]), ty(args[1]))
    if kind == "_out_array" and len(args) == 2:
        size = int_of(args[0])
        return "out_array(%d,%d):%s" % (size, size, ty(args[1]))
    if kind == "_out_array2" and len(args) == 3:
        return "out_array(%d,%d):%s" % (int_of(args[0]), int_of(args[1]), ty(args[2]))
    raise HeaderError("unknown parameter form %s" % kind)


def parse_def_api(line, objects, closures):
    tree = ast.parse(line, mode="eval").body
    if not (isinstance(tree, ast.Call) and len(tree.args) == 3):
        raise HeaderError("expected def_API(NAME, RESULT, (PARAMS))")
    name_node, result_node, params_node = tree.args
    if not (isinstance(name_node, ast.Constant) and isinstance(name_node.value, str)):
        raise HeaderError("expected the function name as a string")
    if not isinstance(params_node, ast.Tuple):
        raise HeaderError("expected the parameters as a tuple")
    result = type_token(name_of(result_node), objects, closures)
    params = [param_token(p, objects, closures) for p in params_node.elts]
    return name_node.value, result, params


def table_rows(include_dir):
    paths = [os.path.join(include_dir, f) for f in API_FILES]
    missing = [p for p in paths if not os.path.exists(p)]
    if missing:
        raise HeaderError("missing API headers: %s" % ", ".join(missing))
    objects, closures = scan_types(paths)
    rows = []
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as header:
            for number, line in enumerate(header, 1):
                line = line.strip("\r\n\t ")
                if not line.startswith("def_API"):
                    continue
                try:
                    rows.append(parse_def_api(line, objects, closures))
                except (HeaderError, SyntaxError) as e:
                    raise HeaderError("%s:%d: %s" % (path, number, e))
    return rows


def header_version(include_dir):
    fields = {}
    with open(os.path.join(include_dir, "z3_version.h"), encoding="utf-8") as header:
        for line in header:
            m = re.match(r"#define Z3_(MAJOR|MINOR|BUILD|REVISION)_(VERSION|NUMBER)\s+(\d+)", line)
            if m:
                fields[m.group(1)] = m.group(3)
    return ".".join(fields[k] for k in ("MAJOR", "MINOR", "BUILD", "REVISION"))


def write_table(include_dir, version, out):
    rows = table_rows(include_dir)
    out.write("# Z3 API log call table of Z3 %s: %d functions\n" % (version, len(rows)))
    out.write("# generated by z3log/tables/generate.py from the API headers (%s)\n" % " ".join(API_FILES))
    out.write("# id\tname\tresult\tparameters\n")
    for i, (name, result, params) in enumerate(rows):
        out.write("%d\t%s\t%s\t%s\n" % (i, name, result, " ".join(params)))
    return len(rows)


def fetch(headers, versions):
    for version in versions:
        target = os.path.join(headers, version)
        if os.path.exists(os.path.join(target, "z3_api.h")):
            continue
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "-q", "--no-deps",
                 "z3-solver==" + version, "-d", tmp],
                check=True,
            )
            wheels = [f for f in os.listdir(tmp) if f.endswith(".whl")]
            if len(wheels) != 1:
                raise HeaderError("pip gave %d wheels for %s" % (len(wheels), version))
            os.makedirs(target, exist_ok=True)
            with zipfile.ZipFile(os.path.join(tmp, wheels[0])) as wheel:
                for member in wheel.namelist():
                    m = re.fullmatch(r"z3/include/([A-Za-z0-9_+]+\.h)", member)
                    if m:
                        with wheel.open(member) as src, open(os.path.join(target, m.group(1)), "wb") as dst:
                            shutil.copyfileobj(src, dst)
        print("%s: headers in %s" % (version, target))


def tables(headers, out_dir):
    versions = sorted(os.listdir(headers), key=lambda v: [int(p) for p in v.split(".")])
    for version in versions:
        include_dir = os.path.join(headers, version)
        # The 4.13.1.0 wheel ships no z3_version.h: then the wheel's version names the headers.
        if os.path.exists(os.path.join(include_dir, "z3_version.h")):
            written = header_version(include_dir)
            if written != version:
                raise HeaderError("%s: the headers say Z3 %s" % (include_dir, written))
        path = os.path.join(out_dir, version + ".tsv")
        with open(path, "w", encoding="utf-8", newline="\n") as out:
            n = write_table(include_dir, version, out)
        print("%s: %d functions" % (path, n))


def main(argv):
    try:
        if len(argv) >= 3 and argv[1] == "fetch":
            fetch(argv[2], argv[3:])
        elif len(argv) == 4 and argv[1] == "tables":
            tables(argv[2], argv[3])
        elif len(argv) == 4 and argv[1] == "table":
            write_table(argv[2], argv[3], sys.stdout)
        else:
            sys.stderr.write(__doc__)
            return 2
    except (HeaderError, OSError, subprocess.CalledProcessError) as e:
        sys.stderr.write("generate.py: %s\n" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
