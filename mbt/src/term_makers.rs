//! Actions of Z3's term, symbol and sort makers that the other actions do not reach: the
//! makers of fixed floating-point formats whatever the round's formats ([`SortMakers`], the
//! sort judged by `sort_fp_fixed` itself and by its readers, a literal of it by
//! `check_literal`). Each is cheap (no solver check): what it makes stays out of the round's
//! pool, so no assertion grows with a wide format.

use crate::actions::Action;
use crate::failure::Failure;
use crate::gen;
use crate::round_state::RoundState;
use model::read::Reader;
use model::{Call, Check, Sort};
use rand::Rng;

/// Sorts made by Z3's other makers, each read back: a fixed floating-point format by its own
/// maker (`sort_fp_fixed`, any of `model::call::FIXED_FP_FORMATS`: the round's formats are
/// small, so the double and quadruple makers are met only here), its widths read back
/// (`Z3_fpa_get_ebits`, `Z3_fpa_get_sbits`), and a literal of it through every numeral
/// constructor (`check_literal`). In rounds with floating point only.
pub struct SortMakers;
impl Action for SortMakers {
    fn name(&self) -> &'static str {
        "sort_makers"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.budget.main_left > 0
            && gen::input_sorts(cx)
                .iter()
                .any(|s| matches!(s, Sort::FloatingPoint(..)))
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let makers = model::call::FIXED_FP_FORMATS;
        let (maker, e, s) = makers[cx.rng.random_range(0..makers.len())];
        let Some(sort) = cx.run(Call::SortFpFixed(maker.into()))?.sort() else {
            return Ok(false);
        };
        for reader in [Reader::FpEbits, Reader::FpSbits] {
            cx.run(Call::ReadSort {
                function: reader.name().into(),
                sort,
            })?;
        }
        let Some(value) = gen::numeral_value(&mut cx.rng, &Sort::FloatingPoint(e, s)) else {
            return Ok(true);
        };
        // Not in the pool: a wide format's terms would make the round's checks expensive.
        if let Some(t) = cx.run(Call::Lit { sort, value })?.term() {
            cx.run(Call::Check(Check::Literal(t)))?;
        }
        Ok(true)
    }
}
