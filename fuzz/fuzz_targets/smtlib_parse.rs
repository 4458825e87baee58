//! The SMT-LIB parser, printer and sort inference: any text parses or fails with a located
//! error, never a panic; what parses prints to text that parses to the same tree.
#![no_main]

use libfuzzer_sys::fuzz_target;
use smtlib::{infer_sorts_lenient, Tree};

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(tree) = Tree::parse(source) {
        let _ = infer_sorts_lenient(&tree);
        let printed = tree.print();
        let again = Tree::parse(&printed).expect("printed SMT-LIB parses");
        assert_eq!(again.print(), printed);
    }
});
