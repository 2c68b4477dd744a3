//! Arbitrary values of every conformance type: decode(encode(v)) == v on both engines,
//! and generated code's encoded_len is exact.
#![no_main]

use bijoubuf_conformance::generated::TYPE_NAMES;
use bijoubuf_conformance::props;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&sel, entropy)) = data.split_first() else {
        return;
    };
    let ty = TYPE_NAMES[sel as usize % TYPE_NAMES.len()];
    if let Err(e) = props::check_value(ty, entropy) {
        panic!("{e}");
    }
});
