//! The dynamic decoder under every configuration: preserving or strict, small depth and
//! size limits, streams. Accepted ⇒ re-encodes to the same bytes and agrees with
//! generated code; never a panic.
#![no_main]

use bijoubuf_conformance::generated::TYPE_NAMES;
use bijoubuf_conformance::{Config, props};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [sel, flags, limit, bytes @ ..] = data else {
        return;
    };
    let ty = TYPE_NAMES[*sel as usize % TYPE_NAMES.len()];
    let cfg = Config::from_fuzz(*flags, *limit);
    if let Err(e) = props::check_bytes(ty, bytes, &cfg) {
        panic!("{e}");
    }
});
