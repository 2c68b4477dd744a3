//! Arbitrary bytes against every conformance type: accepted ⇒ re-encodes to the same
//! bytes, and generated code and bijoubuf-reflect agree on every verdict.
#![no_main]

use bijoubuf_conformance::generated::TYPE_NAMES;
use bijoubuf_conformance::{Config, props};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&sel, bytes)) = data.split_first() else {
        return;
    };
    let ty = TYPE_NAMES[sel as usize % TYPE_NAMES.len()];
    if let Err(e) = props::check_bytes(ty, bytes, &Config::default()) {
        panic!("{e}");
    }
});
