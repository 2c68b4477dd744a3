//! proto3 JSON text for every conformance type: refused with an error, or encoded to
//! bytes both engines accept unchanged and whose JSON reads back to the same bytes;
//! never a panic.
#![no_main]

use bijoubuf_conformance::generated::TYPE_NAMES;
use bijoubuf_conformance::props;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&sel, text)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let ty = TYPE_NAMES[sel as usize % TYPE_NAMES.len()];
    if let Err(e) = props::check_json_text(ty, text) {
        panic!("{e}");
    }
});
