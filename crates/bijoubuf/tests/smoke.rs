//! First end-to-end checks: every message type round-trips a populated value.
mod common;

use bijoubuf_testkit::assert_value_roundtrip;
use common::*;

#[test]
fn scalars_roundtrip() {
    let v = Scalars {
        i32: -5,
        u64: 300,
        text: "hé".into(),
        fl: -0.0,
        ..Default::default()
    };
    let bytes = assert_value_roundtrip(&v);
    assert!(!bytes.is_empty());
}
