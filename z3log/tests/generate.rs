//! `tables/generate.py` numbers functions as Z3's build does: `def_API` lines counted from 0 in
//! the build's header order, `extra_API` lines not counted, every parameter form written; and
//! the table it writes reads back with `Table::parse`. Skipped (with a message) without python3.

use std::path::Path;
use std::process::Command;
use z3log::table::{Dir, Prim, Table, Type};

const HEADERS: [&str; 9] = [
    "z3_api.h",
    "z3_ast_containers.h",
    "z3_algebraic.h",
    "z3_polynomial.h",
    "z3_rcf.h",
    "z3_fixedpoint.h",
    "z3_optimization.h",
    "z3_fpa.h",
    "z3_spacer.h",
];

#[test]
fn the_generator_numbers_def_api_lines_in_the_builds_header_order() {
    let dir = tempfile::tempdir().unwrap();
    for name in HEADERS {
        std::fs::write(dir.path().join(name), "").unwrap();
    }
    // Types first (z3_api.h declares them), then functions spread over two headers: the
    // last header in the build's order must come last whatever its name sorts to.
    std::fs::write(
        dir.path().join("z3_api.h"),
        "  def_Type('CONTEXT', 'Z3_context', 'ContextObj')\n\
         \x20 def_Type('AST', 'Z3_ast', 'Ast')\n\
         Z3_DECLARE_CLOSURE(Z3_push_eh,    void, (void* ctx, Z3_solver_callback cb));\n\
         /*\n   def_API('Z3_mk_true', AST, (_in(CONTEXT),))\n*/\n\
         \x20      extra_API('Z3_open_log', BOOL, (_in(STRING),))\n\
         \x20  def_API('Z3_mk_and', AST, (_in(CONTEXT), _in(UINT), _in_array(1, AST)))\n\
         \x20  def_API('Z3_push', VOID, (_in(CONTEXT), _in(VOID_PTR), _fnptr(Z3_push_eh)))\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("z3_spacer.h"),
        "   def_API('Z3_last', UINT, (_in(CONTEXT), _out(UINT), _out_array2(1, 1, AST)))\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("z3_algebraic.h"),
        "   def_API('Z3_middle', AST, (_in(CONTEXT), _in(UINT), _out_array(1, AST), _inout_array(1, AST)))\n",
    )
    .unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tables/generate.py");
    let out = match Command::new("python3")
        .arg(&script)
        .arg("table")
        .arg(dir.path())
        .arg("1.2.3.0")
        .output()
    {
        Ok(out) => out,
        Err(e) => {
            eprintln!("skipped: no python3: {e}");
            return;
        }
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let table = Table::parse("1.2.3.0", &text).unwrap();
    let names: Vec<&str> = table.functions.iter().map(|f| &*f.name).collect();
    assert_eq!(
        names,
        ["Z3_mk_true", "Z3_mk_and", "Z3_push", "Z3_middle", "Z3_last"]
    );
    let and = &table.functions[1];
    assert_eq!(and.result, Type::Object("AST".into()));
    assert_eq!(and.params[2].dir, Dir::InArray { size: 1 });
    let push = &table.functions[2];
    assert_eq!(push.params[1].ty, Type::Prim(Prim::VoidPtr));
    assert_eq!(push.params[2].dir, Dir::FnPtr);
    assert_eq!(push.params[2].ty, Type::Callback("Z3_push_eh".into()));
    let middle = &table.functions[3];
    assert_eq!(
        middle.params[2].dir,
        Dir::OutArray {
            capacity: 1,
            size: 1
        }
    );
    assert_eq!(middle.params[3].dir, Dir::InoutArray { size: 1 });
    let last = &table.functions[4];
    assert_eq!(last.params[1].dir, Dir::Out);
    assert_eq!(
        last.params[2].dir,
        Dir::OutArray {
            capacity: 1,
            size: 1
        }
    );
}

#[test]
fn the_generator_refuses_what_z3s_build_refuses() {
    let dir = tempfile::tempdir().unwrap();
    for name in HEADERS {
        std::fs::write(dir.path().join(name), "").unwrap();
    }
    std::fs::write(
        dir.path().join("z3_api.h"),
        "   def_API('Z3_bad', VOID, (_in(NO_SUCH_TYPE),))\n",
    )
    .unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tables/generate.py");
    let Ok(out) = Command::new("python3")
        .arg(&script)
        .arg("table")
        .arg(dir.path())
        .arg("1.2.3.0")
        .output()
    else {
        eprintln!("skipped: no python3");
        return;
    };
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("z3_api.h:1: unknown type NO_SUCH_TYPE"),
        "{err}"
    );
}
