//! Regular languages of the SMT-LIB string theory as a small [`Regex`] algebra, with
//! membership decided by Brzozowski derivatives (complement and intersection included).
//!
//! The SMT-LIB operators (`re.+`, `re.opt`, `re.loop`, `re.diff`, ...) are built from the core
//! forms by the constructor functions below, which also simplify so derivatives stay small.

use std::fmt;
use std::rc::Rc;

/// The largest code point of the SMT-LIB string theory.
pub const MAX_CHAR: u32 = 0x2FFFF;

/// A regular expression over code points.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Regex {
    /// The empty language (`re.none`).
    Nothing,
    /// The language of the empty word only.
    Epsilon,
    /// One character in the inclusive range.
    Range(u32, u32),
    Concat(Rc<Regex>, Rc<Regex>),
    Union(Rc<Regex>, Rc<Regex>),
    Inter(Rc<Regex>, Rc<Regex>),
    Star(Rc<Regex>),
    Complement(Rc<Regex>),
    /// Between `lo` and `hi` repetitions (`re.loop`, `re.^`), kept as counts: unrolling
    /// `(_ re.^ 1000000000)` would never end.
    Loop(Rc<Regex>, u32, u32),
}

/// The most nodes a derivative may have while deciding membership: beyond it the language
/// is too large to decide here ("too large" error), never a hang or an exhausted memory.
pub const MAX_DERIVATIVE_SIZE: usize = 200_000;

pub fn nothing() -> Regex {
    Regex::Nothing
}

pub fn all_char() -> Regex {
    Regex::Range(0, MAX_CHAR)
}

pub fn all() -> Regex {
    star(all_char())
}

/// `str.to_re`: exactly the given word.
pub fn word(chars: &[u32]) -> Regex {
    chars
        .iter()
        .rev()
        .fold(Regex::Epsilon, |acc, &c| concat(Regex::Range(c, c), acc))
}

/// `re.range` on single characters; the empty language when `lo > hi`.
pub fn range(lo: u32, hi: u32) -> Regex {
    if lo > hi {
        Regex::Nothing
    } else {
        Regex::Range(lo, hi)
    }
}

pub fn concat(a: Regex, b: Regex) -> Regex {
    match (a, b) {
        (Regex::Nothing, _) | (_, Regex::Nothing) => Regex::Nothing,
        (Regex::Epsilon, x) | (x, Regex::Epsilon) => x,
        // Keep concatenations right-nested so derivatives only look at the head.
        (Regex::Concat(x, y), z) => concat(unrc(x), concat(unrc(y), z)),
        (a, b) => Regex::Concat(Rc::new(a), Rc::new(b)),
    }
}

pub fn union(a: Regex, b: Regex) -> Regex {
    match (a, b) {
        (Regex::Nothing, x) | (x, Regex::Nothing) => x,
        (a, b) if a == b => a,
        (a, b) => {
            let (a, b) = if a <= b { (a, b) } else { (b, a) };
            Regex::Union(Rc::new(a), Rc::new(b))
        }
    }
}

pub fn inter(a: Regex, b: Regex) -> Regex {
    match (a, b) {
        (Regex::Nothing, _) | (_, Regex::Nothing) => Regex::Nothing,
        (a, b) if a == b => a,
        (a, b) => {
            let (a, b) = if a <= b { (a, b) } else { (b, a) };
            Regex::Inter(Rc::new(a), Rc::new(b))
        }
    }
}

pub fn star(a: Regex) -> Regex {
    match a {
        Regex::Nothing | Regex::Epsilon => Regex::Epsilon,
        Regex::Star(_) => a,
        a => Regex::Star(Rc::new(a)),
    }
}

pub fn complement(a: Regex) -> Regex {
    match a {
        Regex::Complement(x) => unrc(x),
        a => Regex::Complement(Rc::new(a)),
    }
}

pub fn plus(a: Regex) -> Regex {
    concat(a.clone(), star(a))
}

pub fn opt(a: Regex) -> Regex {
    union(Regex::Epsilon, a)
}

pub fn diff(a: Regex, b: Regex) -> Regex {
    inter(a, complement(b))
}

/// `(_ re.loop lo hi)`: between `lo` and `hi` repetitions; empty when `lo > hi`.
pub fn repeat(a: Regex, lo: u32, hi: u32) -> Regex {
    match a {
        _ if lo > hi => Regex::Nothing,
        _ if hi == 0 => Regex::Epsilon,
        Regex::Nothing if lo == 0 => Regex::Epsilon,
        Regex::Nothing => Regex::Nothing,
        Regex::Epsilon => Regex::Epsilon,
        _ if lo == 1 && hi == 1 => a,
        // With the empty word in `a`, fewer repetitions are among more: a^j is in a^k.
        a if a.nullable() => Regex::Loop(Rc::new(a), 0, hi),
        a => Regex::Loop(Rc::new(a), lo, hi),
    }
}

fn unrc(r: Rc<Regex>) -> Regex {
    Rc::unwrap_or_clone(r)
}

impl Regex {
    /// Whether the empty word is in the language.
    pub fn nullable(&self) -> bool {
        match self {
            Regex::Nothing | Regex::Range(..) => false,
            Regex::Epsilon | Regex::Star(_) => true,
            Regex::Concat(a, b) | Regex::Inter(a, b) => a.nullable() && b.nullable(),
            Regex::Union(a, b) => a.nullable() || b.nullable(),
            Regex::Complement(a) => !a.nullable(),
            Regex::Loop(a, lo, _) => *lo == 0 || a.nullable(),
        }
    }

    /// The number of nodes, counted up to `limit + 1`.
    fn size(&self, limit: usize) -> usize {
        let mut stack = vec![self];
        let mut n = 0;
        while let Some(r) = stack.pop() {
            n += 1;
            if n > limit {
                break;
            }
            match r {
                Regex::Concat(a, b) | Regex::Union(a, b) | Regex::Inter(a, b) => {
                    stack.push(a);
                    stack.push(b);
                }
                Regex::Star(a) | Regex::Complement(a) | Regex::Loop(a, ..) => stack.push(a),
                _ => {}
            }
        }
        n
    }

    /// The Brzozowski derivative by character `c`.
    pub fn derive(&self, c: u32) -> Regex {
        match self {
            Regex::Nothing | Regex::Epsilon => Regex::Nothing,
            Regex::Range(lo, hi) => {
                if (*lo..=*hi).contains(&c) {
                    Regex::Epsilon
                } else {
                    Regex::Nothing
                }
            }
            Regex::Concat(a, b) => {
                let first = concat(a.derive(c), (**b).clone());
                if a.nullable() {
                    union(first, b.derive(c))
                } else {
                    first
                }
            }
            Regex::Union(a, b) => union(a.derive(c), b.derive(c)),
            Regex::Inter(a, b) => inter(a.derive(c), b.derive(c)),
            Regex::Star(a) => concat(a.derive(c), self.clone()),
            Regex::Complement(a) => complement(a.derive(c)),
            // d(a^k) = d(a) a^(k-1) for k >= 1 (a without the empty word; with it, `repeat`
            // made lo 0 and the same holds for the union of powers).
            Regex::Loop(a, lo, hi) => concat(
                a.derive(c),
                repeat((**a).clone(), lo.saturating_sub(1), hi - 1),
            ),
        }
    }

    /// Whether `word` is in the language; `Err` when a derivative grows beyond
    /// [`MAX_DERIVATIVE_SIZE`] nodes.
    pub fn matches(&self, word: &[u32]) -> Result<bool, String> {
        let mut current = self.clone();
        for &c in word {
            if current == Regex::Nothing {
                return Ok(false);
            }
            current = current.derive_bounded(c)?;
        }
        Ok(current.nullable())
    }

    /// The end of the shortest word of the language that starts at `start` in `word` (one
    /// of at least one character when `nonempty`), if there is one.
    pub fn shortest_match(
        &self,
        word: &[u32],
        start: usize,
        nonempty: bool,
    ) -> Result<Option<usize>, String> {
        let mut current = self.clone();
        if !nonempty && current.nullable() {
            return Ok(Some(start));
        }
        for (k, &c) in word.get(start..).unwrap_or_default().iter().enumerate() {
            if current == Regex::Nothing {
                return Ok(None);
            }
            current = current.derive_bounded(c)?;
            if current.nullable() {
                return Ok(Some(start + k + 1));
            }
        }
        Ok(None)
    }

    /// The derivative by `c`, or `Err` when it has more than [`MAX_DERIVATIVE_SIZE`] nodes.
    fn derive_bounded(&self, c: u32) -> Result<Regex, String> {
        let next = self.derive(c);
        if next.size(MAX_DERIVATIVE_SIZE) > MAX_DERIVATIVE_SIZE {
            return Err(format!(
                "regular expression membership too large to decide: a derivative grows \
                 beyond {MAX_DERIVATIVE_SIZE} nodes"
            ));
        }
        Ok(next)
    }
}

impl fmt::Display for Regex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ch = |c: u32| super::value::string_literal(&[c]);
        match self {
            Regex::Nothing => f.write_str("re.none"),
            Regex::Epsilon => f.write_str("(str.to_re \"\")"),
            Regex::Range(lo, hi) if lo == hi => write!(f, "(str.to_re {})", ch(*lo)),
            Regex::Range(lo, hi) => write!(f, "(re.range {} {})", ch(*lo), ch(*hi)),
            Regex::Concat(a, b) => write!(f, "(re.++ {a} {b})"),
            Regex::Union(a, b) => write!(f, "(re.union {a} {b})"),
            Regex::Inter(a, b) => write!(f, "(re.inter {a} {b})"),
            Regex::Star(a) => write!(f, "(re.* {a})"),
            Regex::Complement(a) => write!(f, "(re.comp {a})"),
            Regex::Loop(a, lo, hi) => write!(f, "((_ re.loop {lo} {hi}) {a})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &str) -> Vec<u32> {
        s.chars().map(u32::from).collect()
    }

    #[test]
    fn membership() {
        let ab_star = star(word(&w("ab")));
        assert!(ab_star.matches(&w("")).unwrap());
        assert!(ab_star.matches(&w("abab")).unwrap());
        assert!(!ab_star.matches(&w("aba")).unwrap());
        let digits = plus(range('0' as u32, '9' as u32));
        assert!(digits.matches(&w("0123")).unwrap());
        assert!(!digits.matches(&w("")).unwrap());
        assert!(complement(digits.clone()).matches(&w("12a")).unwrap());
        let two_or_three = repeat(all_char(), 2, 3);
        assert!(two_or_three.matches(&w("xyz")).unwrap());
        assert!(!two_or_three.matches(&w("x")).unwrap());
        assert!(!two_or_three.matches(&w("wxyz")).unwrap());
        assert!(diff(all(), digits).matches(&w("")).unwrap());
        assert!(!range(5, 3).matches(&[4]).unwrap());
        assert!(inter(plus(all_char()), opt(word(&w("q"))))
            .matches(&w("q"))
            .unwrap());
        assert!(!nothing().matches(&w("")).unwrap());
    }

    #[test]
    fn shortest_matches() {
        let ab_plus = plus(word(&w("ab")));
        let s = w("xabab");
        assert_eq!(ab_plus.shortest_match(&s, 1, false), Ok(Some(3)));
        assert_eq!(ab_plus.shortest_match(&s, 0, false), Ok(None));
        let a_star = star(word(&w("a")));
        assert_eq!(a_star.shortest_match(&s, 0, false), Ok(Some(0)));
        assert_eq!(a_star.shortest_match(&s, 0, true), Ok(None));
        assert_eq!(a_star.shortest_match(&s, 1, true), Ok(Some(2)));
        assert_eq!(a_star.shortest_match(&s, 5, false), Ok(Some(5)));
    }

    #[test]
    fn huge_loops_are_decided_without_unrolling() {
        let a = word(&w("a"));
        let power = repeat(a.clone(), 1_000_000_000, 1_000_000_000);
        assert!(!power.matches(&w("aaa")).unwrap());
        let many = repeat(a.clone(), 2, 1_000_000_000);
        assert!(many.matches(&w("aaa")).unwrap());
        assert!(!many.matches(&w("a")).unwrap());
        assert!(!many.matches(&w("aab")).unwrap());
        // A nullable body: any count up to hi.
        let opt_a = repeat(opt(a.clone()), 3, 5);
        assert!(opt_a.matches(&w("")).unwrap());
        assert!(opt_a.matches(&w("aaaaa")).unwrap());
        assert!(!opt_a.matches(&w("aaaaaa")).unwrap());
        assert!(repeat(word(&w("ab")), 2, 2).matches(&w("abab")).unwrap());
    }
}
