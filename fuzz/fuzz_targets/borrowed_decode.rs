//! Arbitrary bytes against every conformance type's borrowed twin under every decoder
//! configuration: the twin answers exactly as the owned type does (verdict, code, offset,
//! path, re-encoding), and an accepted twin converts to an owned value with the same bytes.
#![no_main]

use bijoubuf_conformance::Config;
use bijoubuf_conformance::generated::{TYPE_NAMES, decode, decode_borrowed};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [sel, flags, limit, bytes @ ..] = data else {
        return;
    };
    let ty = TYPE_NAMES[*sel as usize % TYPE_NAMES.len()];
    let cfg = Config::from_fuzz(*flags, *limit);
    let owned = decode(ty, bytes, &cfg);
    let borrowed = decode_borrowed(ty, bytes, &cfg);
    assert_eq!(owned, borrowed, "{ty} {cfg:?}");
});
