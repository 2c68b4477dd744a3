//! Accept and reject vectors for the integer, bool, float and string obligations
//! (SPEC §2, §3, §7, §10). Each reject vector names its code and byte offset; each sits
//! beside the valid input it was mutated from.
//!
//! Keys used below (SPEC §4.1): Scalars field `n` as the first record has key
//! `((n - 1) << 2) | wire`: i32 `00`, u32 `08`, u64 `0C`, s32 `10`, flag `18`, color `1C`,
//! f32 `23`, f64 `25`, sf32 `2B`, fl `33`, db `35`, text `3A`, data `3E`.
mod common;

use bijoubuf::{DecodeOptions, ErrorKind, Message, UnknownFieldPolicy};
use bijoubuf_testkit::{Raw, assert_canonical_roundtrip, assert_rejects};
use common::*;

/// u64::MAX as bijou64: tier 8, payload u64::MAX − OFFSETS[8].
const U64_MAX: [u8; 9] = [0xFF, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0x07];
/// The smallest tier-8 payload that overflows.
const OVERFLOW: [u8; 9] = [0xFF, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0x08];
/// 2^32 − 1 and 2^32 as bijou64 (tier 4).
const U32_MAX: [u8; 5] = [0xFB, 0xFE, 0xFE, 0xFE, 0x07];
const U32_MAX_PLUS_1: [u8; 5] = [0xFB, 0xFE, 0xFE, 0xFE, 0x08];

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

#[test]
fn truncated_value_key_fixed_and_length() {
    // uint64 300 = F8 34.
    let s = assert_canonical_roundtrip::<Scalars>(&[0x0C, 0xF8, 0x34]);
    assert_eq!(s.u64, 300);
    assert_rejects::<Scalars>(&[0x0C, 0xF8], "truncated", 1);
    // A key with no value after it: the value would start at 1.
    assert_rejects::<Scalars>(&[0x0C], "truncated", 1);
    // A key cut inside its own bijou64.
    assert_rejects::<Scalars>(&[0xF8], "truncated", 0);
    assert_rejects::<Scalars>(&[0x00, 0x02, 0xF9, 0x00], "truncated", 2);
    // Fixed width: 4 and 8 bytes.
    assert_canonical_roundtrip::<Scalars>(&[0x23, 0, 0, 0, 1]);
    assert_rejects::<Scalars>(&[0x23, 0, 0, 0], "truncated", 1);
    assert_canonical_roundtrip::<Scalars>(&[0x25, 0, 0, 0, 0, 0, 0, 0, 1]);
    assert_rejects::<Scalars>(&[0x25, 0, 0, 0, 0, 0, 0, 1], "truncated", 1);
    // A length past the end: reported at the length prefix.
    assert_canonical_roundtrip::<Scalars>(&[0x3A, 0x02, b'h', b'i']);
    assert_rejects::<Scalars>(&[0x3A, 0x03, b'h', b'i'], "truncated", 1);
    assert_rejects::<Scalars>(&[0x3E, 0x03, 1, 2], "truncated", 1);
}

#[test]
fn huge_length_is_refused_before_allocating() {
    // A tier-8 length (about 7.2e16) with two bytes of input.
    let bytes = cat(&[&[0x3A], &[0xFF, 0, 0, 0, 0, 0, 0, 0, 0], b"hi"]);
    assert_rejects::<Scalars>(&bytes, "truncated", 1);
    let bytes = cat(&[&[0x3E], &U64_MAX, b"hi"]);
    assert_rejects::<Scalars>(&bytes, "truncated", 1);
}

#[test]
fn truncated_inside_nested_message_at_its_declared_length() {
    // Optionals.child (17, LEN, key 42) holding Scalars { u64: 300 }.
    assert_canonical_roundtrip::<Optionals>(&[0x42, 0x03, 0x0C, 0xF8, 0x34]);
    // The child says 2 bytes; its u64 needs 2 after its key: ends at the child's end.
    let e = assert_rejects::<Optionals>(&[0x42, 0x02, 0x0C, 0xF8, 0x34], "truncated", 3);
    assert_eq!(e.path_string(), "Optionals.child.u64");
    // The same with input to spare after it: the bound, not the input's end, cuts it.
    let mut long = vec![0x42, 0x02, 0x0C, 0xF8, 0x34];
    long.extend_from_slice(&[0x00; 12]);
    assert_rejects::<Optionals>(&long, "truncated", 3);
    let mut ok = vec![0x42, 0x03, 0x0C, 0xF8, 0x34];
    ok.push(0xF8); // a key cut by the end of the input
    assert_rejects::<Optionals>(&ok, "truncated", 5);
}

#[test]
fn varint_overflow() {
    let s = assert_canonical_roundtrip::<Scalars>(&cat(&[&[0x0C], &U64_MAX]));
    assert_eq!(s.u64, u64::MAX);
    assert_rejects::<Scalars>(&cat(&[&[0x0C], &OVERFLOW]), "varint-overflow", 1);
    assert_rejects::<Scalars>(&cat(&[&[0x0C], &[0xFF; 9]]), "varint-overflow", 1);
    // In a key, and in a length.
    assert_rejects::<Scalars>(&[0xFF; 9], "varint-overflow", 0);
    assert_rejects::<Scalars>(&cat(&[&[0x3A], &OVERFLOW]), "varint-overflow", 1);
    // In a packed run element (Repeats.u64 = 4, key 0E).
    let bytes = cat(&[&[0x0E, 0x0A, 0x01], &OVERFLOW]);
    assert_rejects::<Repeats>(&bytes, "varint-overflow", 3);
}

#[test]
fn integer_out_of_range_for_every_32_bit_type() {
    // uint32 (key 08): 2^32 − 1 fits, 2^32 does not.
    let s = assert_canonical_roundtrip::<Scalars>(&cat(&[&[0x08], &U32_MAX]));
    assert_eq!(s.u32, u32::MAX);
    assert_rejects::<Scalars>(&cat(&[&[0x08], &U32_MAX_PLUS_1]), "integer-out-of-range", 1);
    // int32 (00), sint32 (10), enum (1C): zigzag 2^32 − 1 is i32::MIN.
    for key in [0x00u8, 0x10, 0x1C] {
        assert_canonical_roundtrip::<Scalars>(&cat(&[&[key], &U32_MAX]));
        assert_rejects::<Scalars>(&cat(&[&[key], &U32_MAX_PLUS_1]), "integer-out-of-range", 1);
    }
    let s = assert_canonical_roundtrip::<Scalars>(&cat(&[&[0x00], &U32_MAX]));
    assert_eq!(s.i32, i32::MIN);
    // The 64-bit types take the same value.
    assert_canonical_roundtrip::<Scalars>(&cat(&[&[0x04], &U32_MAX_PLUS_1]));
    // In a packed run: the element's first byte (Repeats.u32 = 3, key 0A).
    assert_canonical_roundtrip::<Repeats>(&cat(&[&[0x0A, 0x06, 0x01], &U32_MAX]));
    assert_rejects::<Repeats>(
        &cat(&[&[0x0A, 0x06, 0x01], &U32_MAX_PLUS_1]),
        "integer-out-of-range",
        3,
    );
    // As a map key: Maps.i32 (1, key 02) entry key, value "".
    assert_canonical_roundtrip::<Maps>(&cat(&[&[0x02, 0x06], &U32_MAX, &[0x00]]));
    let e = assert_rejects::<Maps>(
        &cat(&[&[0x02, 0x06], &U32_MAX_PLUS_1, &[0x00]]),
        "integer-out-of-range",
        2,
    );
    assert_eq!(e.path_string(), "Maps.i32");
}

#[test]
fn invalid_bool() {
    assert!(assert_canonical_roundtrip::<Scalars>(&[0x18, 0x01]).flag);
    assert_rejects::<Scalars>(&[0x18, 0x02], "invalid-bool", 1);
    assert_rejects::<Scalars>(&[0x18, 0xF8, 0x00], "invalid-bool", 1);
    // Explicit presence: false is a value.
    assert_eq!(
        assert_canonical_roundtrip::<Optionals>(&[0x18, 0x00]).flag,
        Some(false)
    );
    assert_rejects::<Optionals>(&[0x18, 0x02], "invalid-bool", 1);
    // Repeated (Repeats.flag = 7, key 1A) and as a map value (Maps.s64 = 6, key 16).
    assert_canonical_roundtrip::<Repeats>(&[0x1A, 0x02, 0x01, 0x00]);
    assert_rejects::<Repeats>(&[0x1A, 0x02, 0x01, 0x02], "invalid-bool", 3);
    assert_canonical_roundtrip::<Maps>(&[0x16, 0x02, 0x00, 0x01]);
    let e = assert_rejects::<Maps>(&[0x16, 0x02, 0x00, 0x03], "invalid-bool", 3);
    assert_eq!(e.path_string(), "Maps.s64[0]");
    // As a map key (Maps.flag = 11, key 2A).
    assert_canonical_roundtrip::<Maps>(&[0x2A, 0x04, 0x00, 0x00, 0x01, 0x00]);
    assert_rejects::<Maps>(&[0x2A, 0x02, 0x02, 0x00], "invalid-bool", 2);
}

#[test]
fn invalid_utf8_every_class() {
    let ok = assert_canonical_roundtrip::<Scalars>(&[0x3A, 0x04, 0xF0, 0x9F, 0x98, 0x80]);
    assert_eq!(ok.text, "\u{1F600}");
    let bad: [&[u8]; 6] = [
        &[0xC0, 0xAF],             // overlong '/'
        &[0xED, 0xA0, 0x80],       // surrogate U+D800
        &[0xF4, 0x90, 0x80, 0x80], // above U+10FFFF
        &[0xE2],                   // truncated sequence
        &[0x80],                   // lone continuation byte
        &[0xFF],                   // never valid
    ];
    for b in bad {
        // Content at 2; the invalid sequence after one valid byte is at 3.
        assert_rejects::<Scalars>(&cat(&[&[0x3A, b.len() as u8], b]), "invalid-utf8", 2);
        let e = assert_rejects::<Scalars>(
            &cat(&[&[0x3A, b.len() as u8 + 1, b'a'], b]),
            "invalid-utf8",
            3,
        );
        assert_eq!(e.path_string(), "Scalars.text");
    }
    // bytes are not checked.
    assert_canonical_roundtrip::<Scalars>(&[0x3E, 0x02, 0xC0, 0xAF]);
    // Repeated strings (Repeats.text = 15, key 3A): element [1], content at 5.
    assert_canonical_roundtrip::<Repeats>(&[0x3A, 0x04, 0x01, b'a', 0x01, b'b']);
    let e = assert_rejects::<Repeats>(&[0x3A, 0x04, 0x01, b'a', 0x01, 0x80], "invalid-utf8", 5);
    assert_eq!(e.path_string(), "Repeats.text[1]");
    // A string map key (Maps.text = 13, key 32) and value (Maps.i32 = 1, key 02).
    assert_rejects::<Maps>(&[0x32, 0x03, 0x01, 0x80, 0x00], "invalid-utf8", 3);
    let e = assert_rejects::<Maps>(&[0x02, 0x03, 0x02, 0x01, 0x80], "invalid-utf8", 4);
    assert_eq!(e.path_string(), "Maps.i32[1]");
}

#[test]
fn non_canonical_nan_f32_and_f64_everywhere() {
    let s = assert_canonical_roundtrip::<Scalars>(&[0x33, 0x7F, 0xC0, 0, 0]);
    assert!(s.fl.is_nan());
    assert_canonical_roundtrip::<Scalars>(&[0x33, 0x7F, 0x80, 0, 0]); // +inf
    assert_canonical_roundtrip::<Scalars>(&[0x33, 0xFF, 0x80, 0, 0]); // -inf
    for bad in [
        [0x7F, 0xC0, 0, 1], // payload
        [0xFF, 0xC0, 0, 0], // sign bit
        [0x7F, 0x80, 0, 1], // signalling
        [0xFF, 0xFF, 0xFF, 0xFF],
    ] {
        assert_rejects::<Scalars>(&cat(&[&[0x33], &bad]), "non-canonical-nan", 1);
        assert_rejects::<Optionals>(&cat(&[&[0x33], &bad]), "non-canonical-nan", 1);
        // Repeated (Repeats.fl = 13, key 32): second element at 6.
        let bytes = cat(&[&[0x32, 0x08, 0x3F, 0x80, 0, 0], &bad]);
        assert_rejects::<Repeats>(&bytes, "non-canonical-nan", 6);
    }
    let s = assert_canonical_roundtrip::<Scalars>(&[0x35, 0x7F, 0xF8, 0, 0, 0, 0, 0, 0]);
    assert!(s.db.is_nan());
    for bad in [
        [0x7F, 0xF8, 0, 0, 0, 0, 0, 1],
        [0xFF, 0xF8, 0, 0, 0, 0, 0, 0],
        [0x7F, 0xF0, 0, 0, 0, 0, 0, 1],
    ] {
        assert_rejects::<Scalars>(&cat(&[&[0x35], &bad]), "non-canonical-nan", 1);
        // Map value (Maps.u64 = 4, key 0E): entry key 0 at 2, value at 3.
        let bytes = cat(&[&[0x0E, 0x09, 0x00], &bad]);
        assert_rejects::<Maps>(&bytes, "non-canonical-nan", 3);
    }
    assert_canonical_roundtrip::<Maps>(&[0x0E, 0x09, 0x00, 0x7F, 0xF8, 0, 0, 0, 0, 0, 0]);
}

#[test]
fn nan_is_written_canonically() {
    let v = Scalars {
        fl: f32::from_bits(0xFFC0_0001),
        db: f64::from_bits(0x7FF0_0000_0000_0001),
        ..Default::default()
    };
    let bytes = v.encode_to_vec().unwrap();
    assert_eq!(
        bytes,
        [0x33, 0x7F, 0xC0, 0, 0, 0x01, 0x7F, 0xF8, 0, 0, 0, 0, 0, 0]
    );
}

#[test]
fn implicit_defaults_are_refused_for_every_type() {
    // Each Scalars field n as the only record holding its default.
    let defaults: [(u8, &[u8]); 16] = [
        (0x00, &[0x00]),
        (0x04, &[0x00]),
        (0x08, &[0x00]),
        (0x0C, &[0x00]),
        (0x10, &[0x00]),
        (0x14, &[0x00]),
        (0x18, &[0x00]),
        (0x1C, &[0x00]),
        (0x23, &[0, 0, 0, 0]),
        (0x25, &[0, 0, 0, 0, 0, 0, 0, 0]),
        (0x2B, &[0, 0, 0, 0]),
        (0x2D, &[0, 0, 0, 0, 0, 0, 0, 0]),
        (0x33, &[0, 0, 0, 0]),
        (0x35, &[0, 0, 0, 0, 0, 0, 0, 0]),
        (0x3A, &[0x00]),
        (0x3E, &[0x00]),
    ];
    for (key, value) in defaults {
        let bytes = cat(&[&[key], value]);
        let e = assert_rejects::<Scalars>(&bytes, "default-value-present", 0);
        assert_eq!(e.kind(), ErrorKind::DefaultValuePresent);
        // The same record in an explicit-presence field is a value.
        assert_canonical_roundtrip::<Optionals>(&bytes);
        // After another field the offset moves with the key.
        let e = assert_rejects::<Optionals>(
            &cat(&[&[0x42, bytes.len() as u8], &bytes]),
            "default-value-present",
            2,
        );
        assert!(e.path_string().starts_with("Optionals.child."));
    }
    // −0.0 is not the default (float 13, double 14).
    assert_eq!(
        assert_canonical_roundtrip::<Scalars>(&[0x33, 0x80, 0, 0, 0])
            .fl
            .to_bits(),
        0x8000_0000
    );
    assert_canonical_roundtrip::<Scalars>(&[0x35, 0x80, 0, 0, 0, 0, 0, 0, 0]);
}

#[test]
fn display_names_code_path_and_offset() {
    // u32 (3) after i32 (1): key for 3 is delta 1 -> 04.
    let e = assert_rejects::<Scalars>(&[0x00, 0x02, 0x04, 0x00], "default-value-present", 2);
    assert_eq!(
        e.to_string(),
        "default-value-present: Scalars.u32 holds its default at byte 2"
    );
    let path: Vec<String> = e.path().map(|s| s.to_string()).collect();
    assert_eq!(path, ["Scalars", ".u32"]);
}

#[test]
fn tier_edges_roundtrip_in_values_lengths_and_keys() {
    for &v in &[
        0u64,
        1,
        247,
        248,
        503,
        504,
        66_039,
        66_040,
        16_843_255,
        16_843_256,
        u64::MAX - 1,
    ] {
        let s = Scalars {
            u64: v,
            ..Default::default()
        };
        bijoubuf_testkit::assert_value_roundtrip(&s);
    }
    for len in [247usize, 248, 503, 504] {
        let s = Scalars {
            data: vec![7; len],
            ..Default::default()
        };
        let bytes = bijoubuf_testkit::assert_value_roundtrip(&s);
        assert_eq!(bytes.len(), 1 + bijou64::encoded_len(len as u64) + len);
    }
    // Keys of every tier: unknown fields far apart, preserved.
    let preserve = DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve);
    for n in [62u64, 63, 126, 127, 16_510, 16_511, (1 << 29) - 1] {
        let mut raw = Raw::new();
        raw.key(n, Raw::VARINT).varint(1);
        let d =
            bijoubuf_testkit::assert_canonical_roundtrip_with::<Scalars>(&raw.finish(), &preserve);
        assert_eq!(d.message().unknown_fields.as_slice()[0].number, n as u32);
    }
}

#[test]
fn strings_and_bytes_of_every_short_length_are_written_exactly() {
    // The writer copies 8..=32 bytes with overlapping fixed-size moves; every length
    // around those edges must come out byte for byte. Scalars.text is 7 (key 3A), then
    // Scalars.data 8 (key 02: the next number after text).
    for n in 1..=40usize {
        let content: Vec<u8> = (0..n).map(|i| b'a' + (i * 7 % 26) as u8).collect();
        let text = String::from_utf8(content.clone()).unwrap();
        let v = Scalars {
            text: text.clone(),
            data: content.iter().rev().copied().collect(),
            ..Scalars::default()
        };
        let mut expected = vec![0x3A, n as u8];
        expected.extend_from_slice(&content);
        expected.extend_from_slice(&[0x02, n as u8]);
        expected.extend(content.iter().rev());
        assert_eq!(v.encode_to_vec().unwrap(), expected, "length {n}");
        assert_eq!(Scalars::decode(&expected).unwrap(), v, "length {n}");
    }
}
