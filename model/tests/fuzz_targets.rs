//! Every fuzz target of `fuzz/` on a stable toolchain (issue 24): each target's body
//! (`model::fuzz`) runs over its seed corpus and then over a fixed number of mutants of those
//! seeds, made by a seeded mutator that knows S-expressions (delete, duplicate, swap and
//! replace balanced subterms, splice atoms, insert malformed snippets such as `(_)`) and bytes.
//! The count and the seed are fixed, so a run is the same on every machine; a panic anywhere
//! is a failure that prints the input that caused it. cargo-fuzz (nightly) explores further;
//! this keeps a regression such as `(assert (_))` from passing `cargo test`.

use model::fuzz::{Target, TARGETS};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// Mutants per target; with the seeds this runs in a few seconds in a debug build.
/// `FUZZ_MUTANTS=N` runs a longer sweep by hand (still deterministic for a given N).
const MUTANTS: usize = 1_500;

fn mutants() -> usize {
    std::env::var("FUZZ_MUTANTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(MUTANTS)
}
/// Seeds larger than this are run as they are but not mutated (their mutants are slow to
/// check and rarely reach new code).
const MAX_MUTATED_SEED: usize = 6_000;

/// Malformed and boundary snippets of SMT-LIB and of responses: identifiers without indices or
/// with the wrong number, empty applications and binders, widths and numbers at the limits.
const SMTLIB_SNIPPETS: &[&str] = &[
    "_",
    "(_)",
    "()",
    "(())",
    "(_ bv)",
    "(_ bv1)",
    "(_ bv1 0)",
    "(_ bv5 3 4)",
    "(_ bvx 3)",
    "(_ BitVec)",
    "(_ BitVec 0)",
    "(_ BitVec 4294967296)",
    "(_ extract)",
    "(_ extract 3)",
    "((_ extract 0 5) #b1)",
    "((_ extract))",
    "((_ extract 1 0))",
    "(_ fp)",
    "(fp)",
    "(fp #b0 #b0)",
    "(as)",
    "(as x)",
    "(as x Int Int)",
    "(as const)",
    "((as const) 1)",
    "((as const (Array Int Int)))",
    "(let)",
    "(let ())",
    "(let (()) 1)",
    "(let ((x)) x)",
    "(let ((x 1 2)) x)",
    "(!)",
    "(! x)",
    "(! x :named)",
    "(! x :pattern)",
    "(match)",
    "(match x)",
    "(match x ())",
    "(match x (()))",
    "(match x ((_ 1)))",
    "(forall)",
    "(forall ())",
    "(forall () true)",
    "(exists ((x)) x)",
    "(exists ((x Int Int)) x)",
    "(lambda)",
    "(lambda ((x Int)))",
    "(select)",
    "(store)",
    "(ite)",
    "(ite true)",
    "(=)",
    "(distinct)",
    "(not)",
    "(and)",
    "(or)",
    "(=>)",
    "(xor)",
    "(+)",
    "(-)",
    "(*)",
    "(div)",
    "(mod)",
    "(abs)",
    "(to_real)",
    "(to_int)",
    "(is_int)",
    "#b",
    "#x",
    "#b1",
    "#x0",
    "#xffff",
    "0",
    "0.0",
    "1",
    "-1",
    "(- 1)",
    "4294967296",
    "18446744073709551617",
    "1e5",
    ".5",
    "\"a\"",
    "\"\"",
    "\"\\u{110000}\"",
    "|x|",
    "||",
    ":named",
    ":pattern",
    "(define-fun f () Int)",
    "(define-fun)",
    "(define-fun f)",
    "(define-fun f (x) Int x)",
    "(define-fun-rec)",
    "(define-funs-rec)",
    "(define-funs-rec (()) ())",
    "(declare-fun)",
    "(declare-fun f)",
    "(declare-fun f (Int))",
    "(declare-const x)",
    "(declare-const x (_ BitVec 0))",
    "(declare-datatypes)",
    "(declare-datatypes ())",
    "(declare-datatypes ((D 0)) (((c))))",
    "(declare-datatypes ((D 1)) ((par (T) ((c (s T))))))",
    "(declare-datatype)",
    "(declare-datatype D)",
    "(declare-datatype D ((c (s D))))",
    "(declare-sort)",
    "(declare-sort S 1)",
    "(define-sort)",
    "(define-sort S (X) X)",
    "(define-sort S () S)",
    "(push)",
    "(push 0)",
    "(pop 5)",
    "(pop)",
    "(check-sat)",
    "(check-sat-assuming)",
    "(check-sat-assuming (x))",
    "(check-sat-assuming ((not)))",
    "(get-value)",
    "(get-value ())",
    "(set-logic)",
    "(set-option)",
    "(set-info)",
    "(assert)",
    "(assert (_))",
    "(assert ((_)))",
    "(assert (! true))",
    "(exit)",
    "Int",
    "Real",
    "Bool",
    "String",
    "RegLan",
    "(Array)",
    "(Array Int)",
    "(Seq)",
    "(Seq Int Int)",
    "(_ FloatingPoint 1 1)",
    "(_ FloatingPoint)",
    "(_ FloatingPoint 0 0)",
    "RoundingMode",
    "RNE",
    "re.all",
    "(re.loop)",
    "((_ re.loop 1))",
    "((_ re.loop 5 1) re.all)",
    "((_ re.^ 5) re.all)",
    "((_ re.^) re.all)",
    "(str.++)",
    "(str.at)",
    "(str.substr)",
    "(seq.unit)",
    "(as seq.empty)",
    "(as seq.empty Int)",
    "(as seq.empty (Seq Int))",
    "(seq.nth)",
    "(_ +oo)",
    "(_ +oo 2 3)",
    "(_ NaN 1)",
    "(_ +zero 2 3)",
    "(_ -zero)",
    "(_ to_fp)",
    "((_ to_fp 2 3) RNE 1.0)",
    "((_ to_fp 2 3))",
    "(to_fp)",
    "((_ to_fp_unsigned 2 3) RNE)",
    "((_ fp.to_ubv 0) RNE)",
    "((_ fp.to_sbv) RNE)",
    "(fp.to_real)",
    "(fp.isNaN)",
    "((_ int2bv) 1)",
    "((_ int2bv 0) 1)",
    "(bv2nat)",
    "(bv2int)",
    "((_ zero_extend))",
    "((_ zero_extend 1))",
    "((_ sign_extend 4294967295) #b1)",
    "((_ repeat 0) #b1)",
    "((_ repeat) #b1)",
    "((_ rotate_left) #b1)",
    "((_ rotate_right 1))",
    "(bvadd)",
    "(bvadd #b1)",
    "(bvadd #b1 #b11)",
    "(concat)",
    "(bvnot)",
    "(_ char)",
    "(_ char #x)",
    "(_ char #x110000)",
    "(str.from_code)",
    "(str.in_re)",
    "(str.to_re)",
    "(re.range)",
    "(re.range \"a\")",
    "(model)",
    "(model (define-fun x () Int))",
    "(define-fun x () (_ BitVec 0) #b)",
    "(define-fun x () Int 1)",
    "(define-fun f ((x!0 Int)) Int (ite (= x!0 1) 2 0))",
    "sat",
    "unsat",
    "unknown",
    "(error)",
    "(error \"x\")",
    "((x 1))",
    "((x))",
    "(_ as-array)",
    "((_ as-array f))",
    "(_ as-array f)",
    "((_ is))",
    "((_ is c) x)",
    "((_ is) x)",
    "(_ is c d)",
    "(par)",
    "(par () Int)",
    "((_ update-field) x 1)",
    "((_ update-field s) x)",
];

/// Tokens of traces: ids of every kind, keywords, numbers at the limits.
const TRACE_SNIPPETS: &[&str] = &[
    "s0",
    "t0",
    "f0",
    "z0",
    "m0",
    "k0",
    "g0",
    "o0",
    "s4294967295",
    "t18446744073709551616",
    "return",
    "error",
    "\"\"",
    "\"",
    "0",
    "-1",
    "4294967296",
    "99999999999999999999",
    "#b",
    "#x",
    "()",
    "(",
    ")",
    "true",
    "false",
    "sat",
    "unsat",
    "unknown",
    "z3-trace",
    "z3-trace 1",
    "z3-trace 2",
    "Int",
    "Bool",
    "(_ BitVec 0)",
    "(Array)",
    "\n",
    " ",
    "|",
];

/// The repository's root, where the seeds live (tests never read outside the repository).
fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The files of `dir` whose name ends with one of `suffixes`, sorted by name.
fn files(dir: &Path, suffixes: &[&str]) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            let name = path.file_name().unwrap().to_string_lossy();
            suffixes.iter().any(|suffix| name.ends_with(suffix))
        })
        .collect();
    found.sort();
    found
}

/// The seed inputs of a target, as `(label, bytes)`.
fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    let root = repo();
    let read = |paths: Vec<PathBuf>| -> Vec<(String, Vec<u8>)> {
        paths
            .into_iter()
            .map(|path| {
                let bytes = std::fs::read(&path).unwrap();
                (
                    path.strip_prefix(&root).unwrap().display().to_string(),
                    bytes,
                )
            })
            .collect()
    };
    match target {
        "trace_text" => {
            let mut paths = files(&root.join("traces"), &[".trace"]);
            paths.extend(files(&root.join("traces/regress"), &[".trace"]));
            paths.extend(files(&root.join("traces/differential"), &[".trace"]));
            read(paths)
        }
        "trace_binary" => {
            let golden = root.join("model/tests/golden");
            read(files(&golden, &[".btrace"]))
                .into_iter()
                .map(|(label, bytes)| {
                    let body = bytes
                        .strip_prefix(model::trace::binary::MAGIC.as_slice())
                        .unwrap_or(&bytes)
                        .to_vec();
                    (label, body)
                })
                .collect()
        }
        "smtlib_parse" => read(files(&root.join("smtlib/tests/smtlib-corpus"), &[".smt2"])),
        "checkmodel" => {
            let mut paths = files(&root.join("model/tests/fuzz-seeds/checkmodel"), &[".seed"]);
            paths.extend(files(&root.join("smtlib/tests/smtlib-corpus"), &[".smt2"]));
            read(paths)
        }
        other => panic!("no seeds for the target {other}"),
    }
}

/// A token of an S-expression text: its byte range and whether it opens or closes a list.
#[derive(Clone, Copy)]
struct Token {
    start: usize,
    end: usize,
    kind: TokenKind,
}

#[derive(Clone, Copy, PartialEq)]
enum TokenKind {
    Open,
    Close,
    Atom,
}

/// Splits `text` into parentheses and atoms (string literals and quoted symbols whole,
/// comments and white space skipped); an unterminated literal runs to the end.
fn tokens(text: &[u8]) -> Vec<Token> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let start = i;
        let kind = match text[i] {
            b'(' => {
                i += 1;
                TokenKind::Open
            }
            b')' => {
                i += 1;
                TokenKind::Close
            }
            b' ' | b'\t' | b'\r' | b'\n' | 0 => {
                i += 1;
                continue;
            }
            b';' => {
                while i < text.len() && text[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            quote @ (b'"' | b'|') => {
                i += 1;
                while i < text.len() && text[i] != quote {
                    i += 1;
                }
                i = (i + 1).min(text.len());
                TokenKind::Atom
            }
            _ => {
                while i < text.len() && !b"() \t\r\n;\"|\0".contains(&text[i]) {
                    i += 1;
                }
                TokenKind::Atom
            }
        };
        found.push(Token {
            start,
            end: i,
            kind,
        });
    }
    found
}

/// The byte ranges of the balanced subterms of `text` (atoms and closed lists).
fn subterms(text: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut open = Vec::new();
    for token in tokens(text) {
        match token.kind {
            TokenKind::Atom => spans.push((token.start, token.end)),
            TokenKind::Open => open.push(token.start),
            TokenKind::Close => {
                if let Some(start) = open.pop() {
                    spans.push((start, token.end));
                }
            }
        }
    }
    spans
}

fn splice(text: &[u8], (start, end): (usize, usize), with: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + with.len());
    out.extend_from_slice(&text[..start]);
    out.extend_from_slice(with);
    out.extend_from_slice(&text[end..]);
    out
}

/// One mutation of `text`: structural where the text has subterms, bytewise otherwise;
/// `donor` is another seed to take subterms from, `snippets` the target's dictionary.
fn mutate_once(rng: &mut ChaCha8Rng, text: &[u8], donor: &[u8], snippets: &[&str]) -> Vec<u8> {
    let spans = subterms(text);
    let pick =
        |rng: &mut ChaCha8Rng, spans: &[(usize, usize)]| spans[rng.random_range(0..spans.len())];
    let choice = if spans.is_empty() {
        7 + rng.random_range(0..4)
    } else {
        rng.random_range(0..11)
    };
    match choice {
        // Delete a subterm.
        0 => splice(text, pick(rng, &spans), b""),
        // Replace a subterm by a snippet.
        1 => {
            let snippet = snippets[rng.random_range(0..snippets.len())];
            splice(text, pick(rng, &spans), snippet.as_bytes())
        }
        // Replace a subterm by another subterm of the text (moves terms across scopes and sorts).
        2 => {
            let (start, end) = pick(rng, &spans);
            let with = text[start..end].to_vec();
            splice(text, pick(rng, &spans), &with)
        }
        // Replace a subterm by a subterm of another seed.
        3 => {
            let donor_spans = subterms(donor);
            if donor_spans.is_empty() {
                return text.to_vec();
            }
            let (start, end) = pick(rng, &donor_spans);
            splice(text, pick(rng, &spans), &donor[start..end])
        }
        // Insert a snippet before a subterm.
        4 => {
            let snippet = format!("{} ", snippets[rng.random_range(0..snippets.len())]);
            let (start, _) = pick(rng, &spans);
            splice(text, (start, start), snippet.as_bytes())
        }
        // Keep only the head of a list: `(f a b)` becomes `(f)`.
        5 => {
            let (start, end) = pick(rng, &spans);
            let inner = tokens(&text[start..end]);
            match inner.as_slice() {
                [open, head, .., _] if open.kind == TokenKind::Open => {
                    let with = format!(
                        "({})",
                        String::from_utf8_lossy(&text[start + head.start..start + head.end])
                    );
                    splice(text, (start, end), with.as_bytes())
                }
                _ => splice(text, (start, end), b"()"),
            }
        }
        // Wrap a subterm in an application of a snippet's head.
        6 => {
            let (start, end) = pick(rng, &spans);
            let heads = [
                "_",
                "as",
                "!",
                "let",
                "not",
                "-",
                "(_ extract 0 0)",
                "(_ is c)",
            ];
            let with = format!(
                "({} {})",
                heads[rng.random_range(0..heads.len())],
                String::from_utf8_lossy(&text[start..end])
            );
            splice(text, (start, end), with.as_bytes())
        }
        // Bytes: delete a range.
        7 => {
            if text.is_empty() {
                return b"(".to_vec();
            }
            let start = rng.random_range(0..text.len());
            let end = (start + rng.random_range(1..8)).min(text.len());
            splice(text, (start, end), b"")
        }
        // Bytes: insert a byte (mostly the ones that matter to the readers).
        8 => {
            let at = rng.random_range(0..=text.len());
            let interesting = b"()_|\"#\\;:0 \n\xff\0";
            let byte = if rng.random_bool(0.7) {
                interesting[rng.random_range(0..interesting.len())]
            } else {
                rng.random()
            };
            splice(text, (at, at), &[byte])
        }
        // Bytes: overwrite one.
        9 => {
            if text.is_empty() {
                return vec![rng.random()];
            }
            let mut out = text.to_vec();
            let at = rng.random_range(0..out.len());
            out[at] = if rng.random_bool(0.5) {
                out[at] ^ (1 << rng.random_range(0..8))
            } else {
                rng.random()
            };
            out
        }
        // Bytes: truncate.
        _ => {
            let at = rng.random_range(0..=text.len());
            text[..at].to_vec()
        }
    }
}

/// Runs `target` on `input`; a panic becomes an error that shows the input.
fn run(target: &Target, label: &str, input: &[u8]) -> Result<(), String> {
    catch_unwind(AssertUnwindSafe(|| (target.run)(input))).map_err(|payload| {
        let message = payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        let shown = String::from_utf8_lossy(&input[..input.len().min(1_500)]);
        format!(
            "{} panicked on {label}: {message}\n--- input ---\n{shown}\n---",
            target.name
        )
    })
}

/// The seeds of `target` and then [`mutants`] mutants of them (1 to 4 mutations each, from a
/// fixed seed); returns every panic found.
fn fuzz(target: &Target) -> Vec<String> {
    let seeds = seeds(target.name);
    assert!(!seeds.is_empty(), "no seeds for {}", target.name);
    let mut failures = Vec::new();
    for (label, bytes) in &seeds {
        failures.extend(run(target, label, bytes).err());
    }
    let mutable: Vec<&(String, Vec<u8>)> = seeds
        .iter()
        .filter(|(_, bytes)| bytes.len() <= MAX_MUTATED_SEED)
        .collect();
    let snippets = if target.name.starts_with("trace") {
        TRACE_SNIPPETS
    } else {
        SMTLIB_SNIPPETS
    };
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_0024);
    for n in 0..mutants() {
        let (label, seed) = mutable[rng.random_range(0..mutable.len())];
        let (_, donor) = mutable[rng.random_range(0..mutable.len())];
        let mut mutant = seed.clone();
        for _ in 0..rng.random_range(1..=4) {
            mutant = mutate_once(&mut rng, &mutant, donor, snippets);
        }
        failures.extend(run(target, &format!("mutant {n} of {label}"), &mutant).err());
        if failures.len() >= 20 {
            break;
        }
    }
    failures
}

/// Runs a target's sweep on a thread with a large stack, as `checkmodel` runs its check (the
/// evaluator's depth limit suits an 8 MiB main thread; debug builds use more per frame).
fn sweep(name: &str) {
    let target = TARGETS
        .iter()
        .find(|t| t.name == name)
        .expect("a target of that name");
    let failures = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || fuzz(target))
        .unwrap()
        .join()
        .unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_target_has_a_sweep() {
    let names: Vec<&str> = TARGETS.iter().map(|t| t.name).collect();
    assert_eq!(
        names,
        ["trace_text", "trace_binary", "smtlib_parse", "checkmodel"]
    );
    let manifest = std::fs::read_to_string(repo().join("fuzz/Cargo.toml")).unwrap();
    for name in names {
        assert!(
            manifest.contains(&format!("name = \"{name}\"")),
            "fuzz/ lacks {name}"
        );
    }
}

#[test]
fn trace_text_never_panics() {
    sweep("trace_text");
}

#[test]
fn trace_binary_never_panics() {
    sweep("trace_binary");
}

#[test]
fn smtlib_parse_never_panics() {
    sweep("smtlib_parse");
}

#[test]
fn checkmodel_never_panics() {
    sweep("checkmodel");
}

/// Every snippet of the dictionary in every place a term, a sort or a command can be, in the
/// problem and in the response: the malformed shapes each reach the checker directly, not only
/// when the mutator happens to place them.
#[test]
fn every_snippet_in_every_context_never_panics() {
    let contexts: &[(&str, &str)] = &[
        ("(declare-const x Int)\n(assert {})\n(check-sat)\n", "sat\n(model (define-fun x () Int 0))\n"),
        ("(declare-const x Int)\n(assert (= x {}))\n(check-sat)\n", "sat\n(model (define-fun x () Int 0))\n"),
        ("(declare-const x (_ BitVec 4))\n(assert (= {} (bvadd x #x1)))\n(check-sat)\n", "sat\n(model (define-fun x () (_ BitVec 4) #x0))\n"),
        ("(declare-const x {})\n(assert (= x x))\n(check-sat)\n", "sat\n(model (define-fun x () Int 0))\n"),
        ("(define-fun f () Int {})\n(assert (= f 0))\n(check-sat)\n", "sat\n(model)\n"),
        ("(declare-fun g ({}) Int)\n(assert (= (g 0) 0))\n(check-sat)\n", "sat\n(model (define-fun g ((a Int)) Int 0))\n"),
        ("{}\n(assert true)\n(check-sat)\n", "sat\n(model)\n"),
        ("(declare-const x Bool)\n(check-sat-assuming ({}))\n", "sat\n(model (define-fun x () Bool true))\n"),
        ("(declare-const x Int)\n(assert (let ((y {})) (= x y)))\n(check-sat)\n", "sat\n(model (define-fun x () Int 0))\n"),
        ("(declare-const x Int)\n(assert (forall ((y Int)) (=> (= y {}) (= x y))))\n(check-sat)\n", "sat\n(model (define-fun x () Int 0))\n"),
        ("(declare-const x Int)\n(assert (= x 0))\n(check-sat)\n", "sat\n(model (define-fun x () Int {}))\n"),
        ("(declare-const x Int)\n(assert (= x 0))\n(check-sat)\n", "sat\n(model {})\n"),
        ("(declare-const x Int)\n(assert (= x 0))\n(check-sat)\n", "sat\n({})\n"),
        ("(declare-fun f (Int) Int)\n(assert (= (f 1) 0))\n(check-sat)\n", "sat\n(model (define-fun f ((y Int)) Int {}))\n"),
        ("(declare-const x Int)\n(assert (= x 0))\n(check-sat)\n", "{}\n"),
    ];
    let checkmodel = TARGETS.iter().find(|t| t.name == "checkmodel").unwrap();
    let smtlib = TARGETS.iter().find(|t| t.name == "smtlib_parse").unwrap();
    let failures = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let mut failures = Vec::new();
            for (problem, response) in contexts {
                for snippet in SMTLIB_SNIPPETS {
                    let input = format!(
                        "{}\0{}",
                        problem.replace("{}", snippet),
                        response.replace("{}", snippet)
                    );
                    let label = format!("{snippet} in {problem:?} / {response:?}");
                    failures.extend(run(checkmodel, &label, input.as_bytes()).err());
                    failures.extend(
                        run(smtlib, &label, problem.replace("{}", snippet).as_bytes()).err(),
                    );
                }
            }
            failures
        })
        .unwrap()
        .join()
        .unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The mutator itself: deterministic, and it reaches the malformed shapes it is for.
#[test]
fn the_mutator_is_deterministic_and_reaches_empty_indexed_identifiers() {
    let text = b"(assert (= ((_ extract 3 0) x) #x0))";
    let run = || {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        (0..2_000)
            .map(|_| mutate_once(&mut rng, text, text, SMTLIB_SNIPPETS))
            .collect::<Vec<_>>()
    };
    let (first, second) = (run(), run());
    assert_eq!(first, second);
    assert!(first.iter().any(|m| m.windows(3).any(|w| w == b"(_)")));
}
