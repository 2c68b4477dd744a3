//! `bijoubuf decode-raw` on arbitrary bytes: never a panic, and every error offset points
//! into the input.
#![no_main]

#[allow(dead_code, unreachable_pub)]
#[path = "../../crates/bijoubuf-cli/src/raw.rs"]
mod raw;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut out = String::new();
    if let Err(e) = raw::render(data, &mut out) {
        assert!(e.offset <= data.len(), "{} at {} past {}", e.code, e.offset, data.len());
    }
});
