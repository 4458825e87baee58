//! The SMT-LIB 2.6 string theory (`Strings`) on code-point strings, with Z3's older names
//! (`str.to.int`, `int.to.str`, `str.in.re`, `str.to.re`) as aliases, plus [`decode_literal`]
//! (string literals through [`crate::decode_string`], with an error message).

use super::regex::{self, Regex, MAX_CHAR};
use super::value::Value;
use crate::decode_string;
use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive};
use std::rc::Rc;

/// The result of a string or regular-expression operation by name: `None` if it is not one.
pub(crate) fn apply(name: &str, idx: &[BigInt], args: &[Value]) -> Option<Result<Value, String>> {
    let name = match name {
        "str.to.int" => "str.to_int",
        "int.to.str" => "str.from_int",
        "str.in.re" => "str.in_re",
        "str.to.re" => "str.to_re",
        other => other,
    };
    let out = match name {
        "str.++" => strs(name, args).map(|s| Value::String(s.concat())),
        "str.len" => str1(name, args).map(|s| Value::int(s.len())),
        "str.<" | "str.<=" => {
            str2(name, args).map(|(a, b)| Value::Bool(if name == "str.<" { a < b } else { a <= b }))
        }
        "str.at" => str_int(name, args).map(|(s, i)| {
            Value::String(match position(&i, s.len()) {
                Some(i) if i < s.len() => vec![s[i]],
                _ => vec![],
            })
        }),
        "str.substr" => substr(args),
        "str.prefixof" => str2(name, args).map(|(a, b)| Value::Bool(b.starts_with(a))),
        "str.suffixof" => str2(name, args).map(|(a, b)| Value::Bool(b.ends_with(a))),
        "str.contains" => str2(name, args).map(|(a, b)| Value::Bool(find(b, a, 0).is_some())),
        "str.indexof" => indexof(args),
        // Z3's last position of T in S (`Z3_mk_seq_last_index`): -1 where T does not occur,
        // the length of S for the empty T.
        "seq.last_indexof" => str2(name, args).map(|(s, t)| {
            let last = (t.len() <= s.len())
                .then(|| {
                    (0..=s.len() - t.len())
                        .rev()
                        .find(|p| s[*p..*p + t.len()] == *t)
                })
                .flatten();
            last.map_or(Value::int(-1), Value::int)
        }),
        "str.replace" => str3(name, args).map(|(s, t, u)| Value::String(replace(s, t, u))),
        "str.replace_all" => str3(name, args).map(|(s, t, u)| Value::String(replace_all(s, t, u))),
        "str.is_digit" => str1(name, args).map(|s| Value::Bool(is_digit(s))),
        "str.to_code" => str1(name, args).map(|s| match s {
            [c] => Value::int(*c),
            _ => Value::int(-1),
        }),
        "str.from_code" => int1(name, args).map(|n| {
            Value::String(match n.to_u32() {
                Some(c) if c <= MAX_CHAR => vec![c],
                _ => vec![],
            })
        }),
        "str.to_int" => str1(name, args).map(|s| {
            if !s.is_empty() && s.iter().all(|&c| is_digit(&[c])) {
                let text: String = s.iter().filter_map(|&c| char::from_u32(c)).collect();
                Value::Int(text.parse::<BigInt>().unwrap_or_default())
            } else {
                Value::int(-1)
            }
        }),
        "str.from_int" => int1(name, args).map(|n| {
            Value::String(if n.is_negative() {
                vec![]
            } else {
                n.to_string().chars().map(u32::from).collect()
            })
        }),
        "str.in_re" => match args {
            [Value::String(s), Value::RegLan(r)] => r.matches(s).map(Value::Bool),
            _ => Err("str.in_re expects a String and a RegLan".into()),
        },
        "str.to_re" => str1(name, args).map(|s| re(regex::word(s))),
        "str.replace_re" | "str.replace_re_all" => match args {
            [Value::String(s), Value::RegLan(r), Value::String(t)] => {
                replace_re(s, r, t, name == "str.replace_re_all").map(Value::String)
            }
            _ => Err(format!("{name} expects a String, a RegLan and a String")),
        },
        "re.range" => str2(name, args).map(|(a, b)| match (a, b) {
            ([a], [b]) => re(regex::range(*a, *b)),
            _ => re(regex::nothing()),
        }),
        "re.++" | "re.union" | "re.inter" | "re.diff" => regexes(name, args).and_then(|rs| {
            let mut it = rs.into_iter();
            let first = it
                .next()
                .ok_or_else(|| format!("{name} expects arguments"))?;
            Ok(re(it.fold(first, |acc, r| match name {
                "re.++" => regex::concat(acc, r),
                "re.union" => regex::union(acc, r),
                "re.inter" => regex::inter(acc, r),
                _ => regex::diff(acc, r),
            })))
        }),
        "re.*" | "re.+" | "re.opt" | "re.comp" => regex1(name, args).map(|r| {
            re(match name {
                "re.*" => regex::star(r),
                "re.+" => regex::plus(r),
                "re.opt" => regex::opt(r),
                _ => regex::complement(r),
            })
        }),
        "re.loop" | "re.^" => regex1(name, args).and_then(|r| {
            let bounds: Option<Vec<u32>> = idx.iter().map(|i| i.to_u32()).collect();
            match (name, bounds.as_deref()) {
                ("re.^", Some([n])) => Ok(re(regex::repeat(r, *n, *n))),
                ("re.loop", Some([lo, hi])) => Ok(re(regex::repeat(r, *lo, *hi))),
                _ => Err(format!("(_ {name} ..) has wrong or too large indices")),
            }
        }),
        _ => return None,
    };
    Some(out)
}

/// The value of the nullary regular-expression constants.
pub(crate) fn constant(name: &str) -> Option<Value> {
    match name {
        "re.none" | "re.nostr" => Some(re(regex::nothing())),
        "re.all" => Some(re(regex::all())),
        "re.allchar" => Some(re(regex::all_char())),
        _ => None,
    }
}

fn re(r: Regex) -> Value {
    Value::RegLan(Rc::new(r))
}

fn strs<'a>(name: &str, args: &'a [Value]) -> Result<Vec<&'a [u32]>, String> {
    args.iter()
        .map(|a| match a {
            Value::String(s) => Ok(s.as_slice()),
            other => Err(format!("{name} expects strings, got {}", other.sort())),
        })
        .collect()
}

fn str1<'a>(name: &str, args: &'a [Value]) -> Result<&'a [u32], String> {
    match strs(name, args)?.as_slice() {
        [a] => Ok(a),
        _ => Err(format!("{name} expects 1 argument, got {}", args.len())),
    }
}

fn str2<'a>(name: &str, args: &'a [Value]) -> Result<(&'a [u32], &'a [u32]), String> {
    match strs(name, args)?.as_slice() {
        [a, b] => Ok((a, b)),
        _ => Err(format!("{name} expects 2 arguments, got {}", args.len())),
    }
}

/// Three string arguments.
type Str3<'a> = (&'a [u32], &'a [u32], &'a [u32]);

fn str3<'a>(name: &str, args: &'a [Value]) -> Result<Str3<'a>, String> {
    match strs(name, args)?.as_slice() {
        [a, b, c] => Ok((a, b, c)),
        _ => Err(format!("{name} expects 3 arguments, got {}", args.len())),
    }
}

fn int1<'a>(name: &str, args: &'a [Value]) -> Result<&'a BigInt, String> {
    match args {
        [Value::Int(n)] => Ok(n),
        _ => Err(format!("{name} expects one Int argument")),
    }
}

fn str_int<'a>(name: &str, args: &'a [Value]) -> Result<(&'a [u32], BigInt), String> {
    match args {
        [Value::String(s), Value::Int(i)] => Ok((s, i.clone())),
        _ => Err(format!("{name} expects a String and an Int")),
    }
}

fn regexes(name: &str, args: &[Value]) -> Result<Vec<Regex>, String> {
    if args.is_empty() {
        return Err(format!("{name} expects arguments"));
    }
    args.iter()
        .map(|a| match a {
            Value::RegLan(r) => Ok((**r).clone()),
            other => Err(format!(
                "{name} expects RegLan arguments, got {}",
                other.sort()
            )),
        })
        .collect()
}

fn regex1(name: &str, args: &[Value]) -> Result<Regex, String> {
    let mut rs = regexes(name, args)?;
    match rs.len() {
        1 => Ok(rs.remove(0)),
        n => Err(format!("{name} expects 1 argument, got {n}")),
    }
}

/// `i` as an index when `0 <= i <= len`.
fn position(i: &BigInt, len: usize) -> Option<usize> {
    i.to_usize().filter(|&i| i <= len)
}

fn is_digit(s: &[u32]) -> bool {
    matches!(s, [c] if (u32::from('0')..=u32::from('9')).contains(c))
}

/// The first occurrence of `needle` in `hay` at or after `from`.
fn find(needle: &[u32], hay: &[u32], from: usize) -> Option<usize> {
    if from > hay.len() {
        return None;
    }
    if needle.is_empty() {
        return Some(from);
    }
    hay[from..]
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

fn substr(args: &[Value]) -> Result<Value, String> {
    match args {
        [Value::String(s), Value::Int(i), Value::Int(n)] => {
            let out = match position(i, s.len()) {
                Some(i) if i < s.len() && n.is_positive() => {
                    let end = n
                        .to_usize()
                        .map_or(s.len(), |n| i.saturating_add(n).min(s.len()));
                    s[i..end].to_vec()
                }
                _ => vec![],
            };
            Ok(Value::String(out))
        }
        _ => Err("str.substr expects a String and two Ints".into()),
    }
}

fn indexof(args: &[Value]) -> Result<Value, String> {
    match args {
        [Value::String(s), Value::String(t), Value::Int(i)] => {
            let at = position(i, s.len()).and_then(|i| find(t, s, i));
            Ok(at.map_or(Value::int(-1), Value::int))
        }
        _ => Err("str.indexof expects two Strings and an Int".into()),
    }
}

fn replace(s: &[u32], t: &[u32], u: &[u32]) -> Vec<u32> {
    match find(t, s, 0) {
        Some(p) => [&s[..p], u, &s[p + t.len()..]].concat(),
        None => s.to_vec(),
    }
}

fn replace_all(s: &[u32], t: &[u32], u: &[u32]) -> Vec<u32> {
    if t.is_empty() {
        return s.to_vec();
    }
    let mut out = Vec::with_capacity(s.len());
    let mut rest = 0;
    while let Some(p) = find(t, s, rest) {
        out.extend_from_slice(&s[rest..p]);
        out.extend_from_slice(u);
        rest = p + t.len();
    }
    out.extend_from_slice(&s[rest..]);
    out
}

/// The longest string `str.replace_re` searches: the search is quadratic in its length.
pub const MAX_REPLACE_RE_LEN: usize = 2_000;

/// `str.replace_re` (`all` false) and `str.replace_re_all` as SMT-LIB 2.6 defines them: the
/// leftmost, then shortest, match of `r` in `s` is replaced by `t`; `str.replace_re` takes
/// the first such match, also an empty one, `str.replace_re_all` every non-empty one from
/// left to right, each search going on after the last match.
fn replace_re(s: &[u32], r: &Regex, t: &[u32], all: bool) -> Result<Vec<u32>, String> {
    if s.len() > MAX_REPLACE_RE_LEN {
        return Err(format!(
            "str.replace_re on a string of {} characters (more than {MAX_REPLACE_RE_LEN})",
            s.len()
        ));
    }
    let mut out = Vec::with_capacity(s.len());
    let mut rest = 0;
    loop {
        let mut found = None;
        for start in rest..=s.len() {
            if let Some(end) = r.shortest_match(s, start, all)? {
                found = Some((start, end));
                break;
            }
        }
        let Some((start, end)) = found else {
            break;
        };
        out.extend_from_slice(&s[rest..start]);
        out.extend_from_slice(t);
        rest = end;
        if !all {
            break;
        }
    }
    out.extend_from_slice(&s[rest..]);
    Ok(out)
}

/// Decodes a string literal as written (with its quotes): `""` is a quote, and `\u{d..}`
/// (1 to 5 hex digits) or `\udddd` (4 hex digits) is a code point up to 0x2FFFF.
pub fn decode_literal(text: &str) -> Result<Vec<u32>, String> {
    decode_string(text).ok_or_else(|| format!("string literal {text} lacks its quotes"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> Value {
        Value::string(text)
    }

    fn ap(name: &str, args: &[Value]) -> Value {
        apply(name, &[], args).unwrap().unwrap()
    }

    #[test]
    fn last_positions_as_z3_defines_them() {
        let last = |a: &str, b: &str| ap("seq.last_indexof", &[s(a), s(b)]);
        assert_eq!(last("abcab", "ab"), Value::int(3));
        assert_eq!(last("aaa", "aa"), Value::int(1));
        assert_eq!(last("abc", ""), Value::int(3));
        assert_eq!(last("", ""), Value::int(0));
        assert_eq!(last("abc", "d"), Value::int(-1));
        assert_eq!(last("", "a"), Value::int(-1));
    }

    #[test]
    fn standard_corner_cases() {
        assert_eq!(ap("str.at", &[s("abc"), Value::int(3)]), s(""));
        assert_eq!(ap("str.at", &[s("abc"), Value::int(-1)]), s(""));
        assert_eq!(
            ap("str.substr", &[s("abcdef"), Value::int(2), Value::int(10)]),
            s("cdef")
        );
        assert_eq!(
            ap("str.substr", &[s("abc"), Value::int(1), Value::int(-1)]),
            s("")
        );
        assert_eq!(
            ap("str.indexof", &[s("abab"), s("b"), Value::int(2)]),
            Value::int(3)
        );
        assert_eq!(
            ap("str.indexof", &[s("ab"), s(""), Value::int(2)]),
            Value::int(2)
        );
        assert_eq!(
            ap("str.indexof", &[s("ab"), s(""), Value::int(3)]),
            Value::int(-1)
        );
        assert_eq!(ap("str.replace", &[s("abc"), s(""), s("x")]), s("xabc"));
        assert_eq!(ap("str.replace_all", &[s("aaa"), s("aa"), s("b")]), s("ba"));
        assert_eq!(ap("str.to_int", &[s("007")]), Value::int(7));
        assert_eq!(ap("str.to_int", &[s("")]), Value::int(-1));
        assert_eq!(ap("str.from_int", &[Value::int(-3)]), s(""));
        assert_eq!(ap("str.to_code", &[s("ab")]), Value::int(-1));
        assert_eq!(ap("str.from_code", &[Value::int(0x30000)]), s(""));
        assert_eq!(ap("str.<", &[s("ab"), s("b")]), Value::Bool(true));
        assert_eq!(ap("str.contains", &[s("abc"), s("bc")]), Value::Bool(true));
        assert_eq!(ap("str.contains", &[s(""), s("ab")]), Value::Bool(false));
        assert_eq!(ap("str.<=", &[s("b"), s("ab")]), Value::Bool(false));
    }

    #[test]
    fn regex_membership_through_operations() {
        let digit = ap("re.range", &[s("0"), s("9")]);
        let num = ap("re.+", &[digit]);
        assert_eq!(
            ap("str.in_re", &[s("2024"), num.clone()]),
            Value::Bool(true)
        );
        assert_eq!(ap("str.in.re", &[s("20a"), num]), Value::Bool(false));
        let lp = apply(
            "re.loop",
            &[1.into(), 2.into()],
            &[ap("str.to_re", &[s("ab")])],
        )
        .unwrap()
        .unwrap();
        assert_eq!(ap("str.in_re", &[s("abab"), lp.clone()]), Value::Bool(true));
        assert_eq!(ap("str.in_re", &[s("ababab"), lp]), Value::Bool(false));
    }

    #[test]
    fn replace_re_takes_the_leftmost_shortest_match() {
        let re_of = |text: &str| ap("str.to_re", &[s(text)]);
        let ab_plus = ap("re.+", &[re_of("ab")]);
        let rr = |x: &str, r: &Value, t: &str| ap("str.replace_re", &[s(x), r.clone(), s(t)]);
        let ra = |x: &str, r: &Value, t: &str| ap("str.replace_re_all", &[s(x), r.clone(), s(t)]);
        assert_eq!(rr("xabab", &ab_plus, "c"), s("xcab"));
        assert_eq!(ra("xabab", &ab_plus, "c"), s("xcc"));
        assert_eq!(rr("xyz", &ab_plus, "c"), s("xyz"));
        // The empty word: str.replace_re inserts at the front, str.replace_re_all skips it.
        let a_star = ap("re.*", &[re_of("a")]);
        assert_eq!(rr("baa", &a_star, "c"), s("cbaa"));
        assert_eq!(ra("baa", &a_star, "c"), s("bcc"));
        let none = constant("re.none").unwrap();
        assert_eq!(ra("abc", &none, "c"), s("abc"));
        let all = constant("re.all").unwrap();
        assert_eq!(rr("", &all, "c"), s("c"));
        assert_eq!(ra("ab", &all, "-"), s("--"));
    }

    #[test]
    fn literals_decode() {
        assert_eq!(decode_literal("\"a\"\"b\"").unwrap(), vec![97, 34, 98]);
        assert_eq!(
            decode_literal("\"\\u{2FFFF}\\u0041\"").unwrap(),
            vec![0x2ffff, 0x41]
        );
        assert_eq!(decode_literal("\"\\u{3FFFF}\"").unwrap().len(), 9);
        assert_eq!(decode_literal("\"\\x\"").unwrap(), vec![92, 120]);
    }
}
