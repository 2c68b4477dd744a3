//! One reject vector (or more) per error code, decoded through generated types: code,
//! byte offset and field path must match the SPEC (§10, §11). Each sits beside the
//! valid input it was mutated from.
//!
//! Keys (SPEC §4.1): a first record for field `n` has key `((n - 1) << 2) | wire`.

use bijoubuf::{DecodeOptions, Message, UnknownFieldPolicy};
use bijoubuf_codegen_tests::kitchen::{Choice, Maps, Optionals, Repeats, Scalars, Tree};
use bijoubuf_codegen_tests::legacy::Record;
use bijoubuf_testkit::{Raw, assert_canonical_roundtrip, assert_rejects, assert_rejects_with};

/// u64::MAX and the smallest overflowing tier-8 bijou64.
const U64_MAX: [u8; 9] = [0xFF, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0x07];
const OVERFLOW: [u8; 9] = [0xFF, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0x08];
/// 2^32 − 1 and 2^32 as bijou64.
const U32_MAX: [u8; 5] = [0xFB, 0xFE, 0xFE, 0xFE, 0x07];
const U32_MAX_PLUS_1: [u8; 5] = [0xFB, 0xFE, 0xFE, 0xFE, 0x08];

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

fn preserve() -> DecodeOptions {
    DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve)
}

#[test]
fn truncated() {
    // uint64 (4, key 0C) 300 = F8 34.
    assert_eq!(
        assert_canonical_roundtrip::<Scalars>(&[0x0C, 0xF8, 0x34]).u64,
        300
    );
    assert_rejects::<Scalars>(&[0x0C, 0xF8], "truncated", 1);
    assert_rejects::<Scalars>(&[0x0C], "truncated", 1);
    // A string whose length runs past the end: at the length prefix.
    assert_rejects::<Scalars>(&[0x3A, 0x03, b'h', b'i'], "truncated", 1);
    // Inside a nested message, at the nested message's declared end.
    assert_canonical_roundtrip::<Optionals>(&[0x42, 0x03, 0x0C, 0xF8, 0x34]);
    let e = assert_rejects::<Optionals>(&[0x42, 0x02, 0x0C, 0xF8, 0x34], "truncated", 3);
    assert_eq!(e.path_string(), "Optionals.child.u64");
}

#[test]
fn varint_overflow() {
    assert_eq!(
        assert_canonical_roundtrip::<Scalars>(&cat(&[&[0x0C], &U64_MAX])).u64,
        u64::MAX
    );
    assert_rejects::<Scalars>(&cat(&[&[0x0C], &OVERFLOW]), "varint-overflow", 1);
    // In a packed run (Repeats.u64 = 4, key 0E): at the element.
    let e = assert_rejects::<Repeats>(
        &cat(&[&[0x0E, 0x0A, 0x01], &OVERFLOW]),
        "varint-overflow",
        3,
    );
    assert_eq!(e.path_string(), "Repeats.u64[1]");
}

#[test]
fn integer_out_of_range() {
    // uint32 (08), int32 (00), sint32 (10), enum (1C).
    for key in [0x08u8, 0x00, 0x10, 0x1C] {
        assert_canonical_roundtrip::<Scalars>(&cat(&[&[key], &U32_MAX]));
        assert_rejects::<Scalars>(&cat(&[&[key], &U32_MAX_PLUS_1]), "integer-out-of-range", 1);
    }
    // A map key (Maps.i32 = 1, key 02).
    let e = assert_rejects::<Maps>(
        &cat(&[&[0x02, 0x06], &U32_MAX_PLUS_1, &[0x00]]),
        "integer-out-of-range",
        2,
    );
    assert_eq!(e.path_string(), "Maps.i32");
}

#[test]
fn invalid_bool() {
    // bool (7, key 18).
    assert!(assert_canonical_roundtrip::<Scalars>(&[0x18, 0x01]).flag);
    let e = assert_rejects::<Scalars>(&[0x18, 0x02], "invalid-bool", 1);
    assert_eq!(
        e.to_string(),
        "invalid-bool: Scalars.flag holds a bool other than 0 or 1 at byte 1"
    );
    // Optional bool: 0 is a value there, 2 is not.
    assert_eq!(
        assert_canonical_roundtrip::<Optionals>(&[0x18, 0x00]).flag,
        Some(false)
    );
    assert_rejects::<Optionals>(&[0x18, 0x02], "invalid-bool", 1);
}

#[test]
fn field_number_overflow() {
    let max = (1u64 << 29) - 1;
    let mut bad = Raw::new();
    bad.raw_key(max << 2).varint(1);
    assert_rejects::<Scalars>(&bad.finish(), "field-number-overflow", 0);
    assert_rejects_with::<Tree>(&bad.finish(), &preserve(), "field-number-overflow", 0);
}

#[test]
fn wire_type_mismatch() {
    // int32 (1) written as I64, string (15) written as VARINT.
    assert_rejects::<Scalars>(&[0x01, 0, 0, 0, 0, 0, 0, 0, 1], "wire-type-mismatch", 0);
    let e = assert_rejects::<Scalars>(&[0x38, 0x01], "wire-type-mismatch", 0);
    assert_eq!(e.path_string(), "Scalars.text");
    // A repeated field is always LEN.
    assert_rejects::<Repeats>(&[0x00, 0x01], "wire-type-mismatch", 0);
    // A oneof member (Choice.a = 2) with the wrong wire type.
    assert_rejects::<Choice>(&[0x06, 0x01, 0x01], "wire-type-mismatch", 0);
}

#[test]
fn default_value_present() {
    let e = assert_rejects::<Scalars>(&[0x04, 0x00], "default-value-present", 0);
    assert_eq!(
        e.to_string(),
        "default-value-present: Scalars.i64 holds its default at byte 0"
    );
    // +0.0 is the float default; -0.0 is not.
    assert_rejects::<Scalars>(&[0x33, 0, 0, 0, 0], "default-value-present", 0);
    assert_eq!(
        assert_canonical_roundtrip::<Scalars>(&[0x33, 0x80, 0, 0, 0])
            .fl
            .to_bits(),
        0x8000_0000
    );
    // Empty string; but an explicit-presence empty string is a value.
    assert_rejects::<Scalars>(&[0x3A, 0x00], "default-value-present", 0);
    assert_eq!(
        assert_canonical_roundtrip::<Optionals>(&[0x3A, 0x00])
            .text
            .as_deref(),
        Some("")
    );
}

#[test]
fn missing_required_field() {
    // Record: id = 1, name = 3, inner = 12 (all required).
    let e = assert_rejects::<Record>(&[], "missing-required-field", 0);
    assert_eq!(e.path_string(), "Record.id");
    // id = 1 present, name absent: reported at the end of the content.
    let e = assert_rejects::<Record>(&[0x00, 0x02], "missing-required-field", 2);
    assert_eq!(e.path_string(), "Record.name");
    // id, name present; inner (12) present but its required token missing.
    let e = assert_rejects::<Record>(
        &[0x00, 0x02, 0x06, 0x01, b'n', 0x22, 0x00],
        "missing-required-field",
        7,
    );
    assert_eq!(e.path_string(), "Record.inner.token");
    // All present: token is fixed64 (1, key 01).
    let ok = [
        &[0x00, 0x02, 0x06, 0x01, b'n', 0x22, 0x09, 0x01][..],
        &[0, 0, 0, 0, 0, 0, 0, 7],
    ]
    .concat();
    let r = assert_canonical_roundtrip::<Record>(&ok);
    assert_eq!((r.id, r.name.as_str(), r.inner.token), (1, "n", 7));
}

#[test]
fn oneof_conflict() {
    // a = 2 (key 04) then b = 4 (key 06): the second member's key.
    let e = assert_rejects::<Choice>(&[0x04, 0x02, 0x06, 0x01, b'x'], "oneof-conflict", 2);
    assert_eq!(e.path_string(), "Choice.b");
    // Even with the plain field `mid` (3) between them.
    assert_rejects::<Choice>(
        &[0x04, 0x02, 0x00, 0x01, 0x02, 0x01, b'x'],
        "oneof-conflict",
        4,
    );
    // The conflict is found before the second member's value is read.
    assert_rejects::<Choice>(&[0x04, 0x02, 0x06, 0xFF], "oneof-conflict", 2);
}

#[test]
fn empty_repeated() {
    assert_rejects::<Repeats>(&[0x02, 0x00], "empty-repeated", 0);
    assert_rejects::<Maps>(&[0x02, 0x00], "empty-repeated", 0);
}

#[test]
fn packed_length_mismatch() {
    // fixed32 (9, key 22): 3 bytes is not a multiple of 4; at the length prefix.
    assert_canonical_roundtrip::<Repeats>(&[0x22, 0x04, 0, 0, 0, 1]);
    assert_rejects::<Repeats>(&[0x22, 0x03, 0, 0, 1], "packed-length-mismatch", 1);
    // double (14, key 36): 4 bytes is not a multiple of 8.
    assert_rejects::<Repeats>(&[0x36, 0x04, 0, 0, 0, 1], "packed-length-mismatch", 1);
}

#[test]
fn map_key_order() {
    // Maps.i32 (1, key 02): {1: ""} then key 1 again: the second entry's key at 4.
    assert_canonical_roundtrip::<Maps>(&[0x02, 0x04, 0x02, 0x00, 0x04, 0x00]);
    let e = assert_rejects::<Maps>(&[0x02, 0x04, 0x02, 0x00, 0x02, 0x00], "map-key-order", 4);
    assert_eq!(e.path_string(), "Maps.i32[1]");
    // Descending string keys (Maps.text = 13, key 32).
    assert_rejects::<Maps>(
        &[0x32, 0x06, 0x01, b'b', 0x00, 0x01, b'a', 0x00],
        "map-key-order",
        5,
    );
}

#[test]
fn invalid_utf8() {
    let e = assert_rejects::<Scalars>(&[0x3A, 0x02, b'a', 0xFF], "invalid-utf8", 3);
    assert_eq!(e.path_string(), "Scalars.text");
    // bytes are not checked.
    assert_canonical_roundtrip::<Scalars>(&[0x3E, 0x01, 0xFF]);
    // A repeated string's element.
    let e = assert_rejects::<Repeats>(&[0x3A, 0x04, 0x01, b'a', 0x01, 0x80], "invalid-utf8", 5);
    assert_eq!(e.path_string(), "Repeats.text[1]");
}

#[test]
fn non_canonical_nan() {
    assert!(
        assert_canonical_roundtrip::<Scalars>(&[0x33, 0x7F, 0xC0, 0, 0])
            .fl
            .is_nan()
    );
    assert_rejects::<Scalars>(&[0x33, 0x7F, 0xC0, 0, 1], "non-canonical-nan", 1);
    assert_rejects::<Scalars>(
        &[0x35, 0xFF, 0xF8, 0, 0, 0, 0, 0, 0],
        "non-canonical-nan",
        1,
    );
    // A map value (Maps.u64 = 4, key 0E): entry key 0 at 2, value at 3.
    let bad = [0x0E, 0x09, 0x00, 0x7F, 0xF8, 0, 0, 0, 0, 0, 1];
    assert_rejects::<Maps>(&bad, "non-canonical-nan", 3);
}

#[test]
fn unknown_field() {
    // Field 18 (key 44) is not in Scalars.
    let e = assert_rejects::<Scalars>(&[0x44, 0x00], "unknown-field", 0);
    assert_eq!(e.path_string(), "Scalars.18");
    // Between two known fields, and inside a nested message.
    assert_rejects::<Scalars>(&[0x00, 0x02, 0x3C, 0x00, 0x00, 0x02], "unknown-field", 2);
    let e = assert_rejects::<Optionals>(&[0x42, 0x02, 0x44, 0x00], "unknown-field", 2);
    assert_eq!(e.path_string(), "Optionals.child.18");
    // Tree preserves unknown fields when asked: field 9 (key 1C after value = 1).
    let bytes = [0x00, 0x02, 0x1C, 0x05];
    assert_rejects::<Tree>(&bytes, "unknown-field", 2);
    let kept = bijoubuf_testkit::assert_canonical_roundtrip_with::<Tree>(&bytes, &preserve());
    assert_eq!(kept.message().unknown_fields.len(), 1);
    // Scalars keeps no unknown fields, so even a preserving decode refuses them, at
    // the key and with the number in the path (after field 1, key 44 is field 19).
    let e =
        assert_rejects_with::<Scalars>(&[0x00, 0x02, 0x44, 0x00], &preserve(), "unknown-field", 2);
    assert_eq!(e.path_string(), "Scalars.19");
    // Choice keeps its own unknown fields but its member m (5, key 12) is a Scalars:
    // an unknown record inside m is refused, one beside it is kept.
    let inside = [0x12, 0x02, 0x44, 0x00];
    let e = assert_rejects_with::<Choice>(&inside, &preserve(), "unknown-field", 2);
    assert_eq!(e.path_string(), "Choice.m.18");
    let beside = [0x12, 0x00, 0x3C, 0x00];
    let kept = bijoubuf_testkit::assert_canonical_roundtrip_with::<Choice>(&beside, &preserve());
    assert_eq!(kept.message().unknown_fields.len(), 1);
}

#[test]
fn depth_limit_exceeded() {
    // Tree.child (2, key 06): top, child, grandchild, great-grandchild = depth 4.
    let bytes = [0x06, 0x04, 0x06, 0x02, 0x06, 0x00];
    let opts = DecodeOptions::new().max_depth(4);
    assert!(Tree::decode_with(&bytes, &opts).is_ok());
    let opts = DecodeOptions::new().max_depth(3);
    let e = assert_rejects_with::<Tree>(&bytes, &opts, "depth-limit-exceeded", 4);
    assert_eq!(e.path_string(), "Tree.child.child.child");
    // The default limit: depth 100 decodes, 101 does not.
    let nest = |levels: usize| {
        let mut inner: Vec<u8> = Vec::new();
        for _ in 1..levels {
            let mut outer = vec![0x06];
            outer.extend_from_slice(bijou64::encode(inner.len() as u64).as_slice());
            outer.extend_from_slice(&inner);
            inner = outer;
        }
        inner
    };
    assert!(Tree::decode(&nest(100)).is_ok());
    assert_eq!(
        Tree::decode(&nest(101)).unwrap_err().code(),
        "depth-limit-exceeded"
    );
}

#[test]
fn size_limit_exceeded() {
    let opts = DecodeOptions::new().max_size(Some(2));
    assert!(Scalars::decode_with(&[0x0C, 0x01], &opts).is_ok());
    assert_rejects_with::<Scalars>(&[0x0C, 0xF8, 0x34], &opts, "size-limit-exceeded", 0);
}
