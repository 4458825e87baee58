//! The typing probe (`untrace::executor::typing`): the linked Z3 types every operation as the
//! model does, and a model that types one otherwise is caught. Its own test binary, because it
//! changes the model's process-wide typing of `^`.

use untrace::executor::typing::probe;

#[test]
fn the_linked_z3_agrees_and_a_changed_typing_is_caught() {
    // Operations the loaded libz3 cannot build at all (a newer release's) are left out.
    let disagreements: Vec<_> = probe()
        .into_iter()
        .filter(|d| untrace::executor::ops::op_available(d.op))
        .collect();
    assert_eq!(disagreements, Vec::new());
    // Pretend the loaded Z3 were a version that types `^` on Ints the other way.
    let real = model::ops::int_power_is_real();
    model::ops::set_int_power_is_real(!real);
    let found: Vec<_> = probe()
        .into_iter()
        .filter(|d| untrace::executor::ops::op_available(d.op))
        .collect();
    model::ops::set_int_power_is_real(real);
    assert!(!found.is_empty());
    assert!(found.iter().all(|d| d.op == "^"), "{found:?}");
    let text = found[0].to_string();
    assert!(text.starts_with("^ (Int, Int): Z3 says "), "{text}");
}
