//! [`shrink_lists`]: ddmin over the items of every n-ary argument list (`and`, `or`, `+`,
//! `distinct`, `str.++`, the assumptions of `check_sat_assuming`, the pairs of `substitute`),
//! never below the operation's minimum arity.

use crate::calls::{list_len, remove_list_items};
use crate::session::Session;
use reduce::ddmin;

pub fn shrink_lists(s: &mut Session) {
    let current = s.current.clone();
    // One unit per list item: (entry, item).
    let mut units: Vec<(usize, usize)> = Vec::new();
    for (i, entry) in current.iter().enumerate() {
        if let Some((len, min)) = list_len(&entry.call) {
            if len > min {
                units.extend((0..len).map(|k| (i, k)));
            }
        }
    }
    if units.is_empty() {
        return;
    }
    let (format, validity) = (s.format, s.validity);
    ddmin(s.reducer, "args", units.len(), |keep| {
        let mut candidate = current.clone();
        let mut start = 0;
        while start < units.len() {
            let entry = units[start].0;
            let end = start + units[start..].iter().take_while(|u| u.0 == entry).count();
            let mask = &keep[start..end];
            if mask.contains(&false) {
                let (_, min) = list_len(&current[entry].call)?;
                if mask.iter().filter(|k| **k).count() < min {
                    return None;
                }
                candidate[entry].call = remove_list_items(&current[entry].call, mask);
            }
            start = end;
        }
        Session::render_checked(format, validity, &candidate)
    });
    s.sync();
}
