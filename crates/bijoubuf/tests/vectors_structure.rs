//! Accept and reject vectors for keys, presence, repeated fields, maps and oneofs
//! (SPEC §4, §5, §6, §10).
mod common;

use bijoubuf::{DecodeOptions, Message, UnknownFieldPolicy};
use bijoubuf_testkit::{
    Raw, assert_canonical_roundtrip, assert_canonical_roundtrip_with, assert_rejects,
    assert_rejects_with,
};
use common::*;

const MAX_FIELD: u64 = (1 << 29) - 1;

fn preserve() -> DecodeOptions {
    DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve)
}

#[test]
fn field_number_overflow_one_step_and_many() {
    // One key straight to 2^29 − 1 is fine (kept as unknown); to 2^29 it is not.
    let mut ok = Raw::new();
    ok.key(MAX_FIELD, Raw::VARINT).varint(1);
    assert_canonical_roundtrip_with::<Scalars>(&ok.finish(), &preserve());
    let mut bad = Raw::new();
    bad.raw_key(MAX_FIELD << 2).varint(1);
    assert_rejects_with::<Scalars>(&bad.finish(), &preserve(), "field-number-overflow", 0);
    assert_rejects::<Scalars>(&bad.finish(), "field-number-overflow", 0);
    // The largest key value at all.
    let mut huge = Raw::new();
    huge.raw_key(u64::MAX);
    assert_rejects::<Scalars>(&huge.finish(), "field-number-overflow", 0);
    // Small steps: from 2^29 − 1, the next key (delta 0) steps past.
    let mut many = Raw::new();
    many.key(MAX_FIELD - 1, Raw::VARINT).varint(1);
    many.key(MAX_FIELD, Raw::VARINT).varint(2);
    let at = many.mark();
    assert_canonical_roundtrip_with::<Scalars>(&many.finish(), &preserve());
    many.raw_key(0).varint(3);
    assert_rejects_with::<Scalars>(&many.finish(), &preserve(), "field-number-overflow", at);
}

#[test]
fn wire_type_mismatch_every_wire_type_against_every_schema_type() {
    // (field number, schema wire type, a valid payload for each wire type)
    let wires: [(u8, &[u8]); 4] = [
        (Raw::VARINT, &[0x01]),
        (Raw::I64, &[0, 0, 0, 0, 0, 0, 0, 1]),
        (Raw::LEN, &[0x01, 0x01]),
        (Raw::I32, &[0, 0, 0, 1]),
    ];
    let schema: [(u64, u8); 16] = [
        (1, 0),
        (2, 0),
        (3, 0),
        (4, 0),
        (5, 0),
        (6, 0),
        (7, 0),
        (8, 0),
        (9, 3),
        (10, 1),
        (11, 3),
        (12, 1),
        (13, 3),
        (14, 1),
        (15, 2),
        (16, 2),
    ];
    for (number, right) in schema {
        for (wire, payload) in wires {
            let mut raw = Raw::new();
            raw.key(number, wire).bytes(payload);
            if wire == right {
                assert_canonical_roundtrip::<Scalars>(&raw.finish());
                assert_canonical_roundtrip::<Optionals>(&raw.finish());
            } else {
                assert_rejects::<Scalars>(&raw.finish(), "wire-type-mismatch", 0);
                assert_rejects::<Optionals>(&raw.finish(), "wire-type-mismatch", 0);
            }
            // Repeated fields and maps are always LEN.
            let mut rep = Raw::new();
            rep.key(number, wire).bytes(payload);
            if wire != Raw::LEN {
                assert_rejects::<Repeats>(&rep.finish(), "wire-type-mismatch", 0);
                if number <= 13 {
                    assert_rejects::<Maps>(&rep.finish(), "wire-type-mismatch", 0);
                }
            }
        }
    }
    // A nested message field written as VARINT: offset of its key, path to it.
    let e = assert_rejects::<Optionals>(&[0x00, 0x02, 0x3C, 0x01], "wire-type-mismatch", 2);
    assert_eq!(e.path_string(), "Optionals.child");
}

#[test]
fn missing_required_field_top_level_and_nested() {
    // Req: id = 1 (zigzag 2), name = 3 "x" (key 06).
    let r = assert_canonical_roundtrip::<Req>(&[0x00, 0x02, 0x06, 0x01, b'x']);
    assert_eq!((r.id, r.name.as_str()), (1, "x"));
    // Required fields holding their defaults are present.
    assert_canonical_roundtrip::<Req>(&[0x00, 0x00, 0x06, 0x00]);
    let e = assert_rejects::<Req>(&[], "missing-required-field", 0);
    assert_eq!(e.path_string(), "Req.id");
    let e = assert_rejects::<Req>(&[0x00, 0x02], "missing-required-field", 2);
    assert_eq!(
        e.to_string(),
        "missing-required-field: Req.name is required but absent at byte 2"
    );
    // Nested: child (4, key 02 after 3) with an empty body: checked at its end (7).
    assert_canonical_roundtrip::<Req>(&[
        0x00, 0x02, 0x06, 0x01, b'x', 0x02, 0x04, 0x00, 0x00, 0x06, 0x00,
    ]);
    let e = assert_rejects::<Req>(
        &[0x00, 0x02, 0x06, 0x01, b'x', 0x02, 0x00],
        "missing-required-field",
        7,
    );
    assert_eq!(e.path_string(), "Req.child.id");
    // An unknown-field error after the last known field comes first in byte order.
    assert_rejects::<Req>(&[0x10, 0x00], "unknown-field", 0);
}

#[test]
fn oneof_conflict() {
    // a (2, key 04) = 1; b (4) = "x"; mid (3) between them.
    let c = assert_canonical_roundtrip::<Choice>(&[0x04, 0x02]);
    assert_eq!(c.kind, Some(Kind::A(1)));
    // Members hold defaults and are still present (explicit presence).
    assert_eq!(
        assert_canonical_roundtrip::<Choice>(&[0x04, 0x00]).kind,
        Some(Kind::A(0))
    );
    assert_eq!(
        assert_canonical_roundtrip::<Choice>(&[0x0E, 0x00]).kind,
        Some(Kind::B(String::new()))
    );
    assert_canonical_roundtrip::<Choice>(&[0x08, 0x05, 0x02, 0x01, b'x']);
    let e = assert_rejects::<Choice>(&[0x04, 0x02, 0x06, 0x01, b'x'], "oneof-conflict", 2);
    assert_eq!(e.path_string(), "Choice.b");
    // With mid in between: the conflict is at b's key (4).
    assert_rejects::<Choice>(
        &[0x04, 0x02, 0x00, 0x05, 0x02, 0x01, b'x'],
        "oneof-conflict",
        4,
    );
    // b then m (5, LEN, key 02 after 4): conflict even when m's body is bad.
    assert_rejects::<Choice>(&[0x0E, 0x00, 0x02, 0x01, 0xFF], "oneof-conflict", 2);
    assert_rejects::<Choice>(&[0x04, 0x02, 0x0A, 0x00], "oneof-conflict", 2);
}

#[test]
fn empty_repeated_and_empty_map() {
    for number in 1..=17u64 {
        let mut raw = Raw::new();
        raw.key(number, Raw::LEN).len(0);
        assert_rejects::<Repeats>(&raw.finish(), "empty-repeated", 0);
        if number <= 13 {
            assert_rejects::<Maps>(&raw.finish(), "empty-repeated", 0);
        }
    }
    // One empty element is not an empty record: one empty string, one empty message.
    assert_eq!(
        assert_canonical_roundtrip::<Repeats>(&[0x3A, 0x01, 0x00]).text,
        [""]
    );
    assert_eq!(
        assert_canonical_roundtrip::<Repeats>(&[0x42, 0x01, 0x00])
            .msgs
            .len(),
        1
    );
    // After another field the key moves.
    assert_rejects::<Repeats>(&[0x02, 0x01, 0x00, 0x02, 0x00], "empty-repeated", 3);
}

#[test]
fn packed_length_mismatch() {
    // Fixed-width repeated fields: f32 (9), f64 (10), sf32 (11), sf64 (12), fl (13), db (14).
    for (number, width) in [(9u64, 4usize), (10, 8), (11, 4), (12, 8), (13, 4), (14, 8)] {
        for len in 1..=2 * width {
            let mut raw = Raw::new();
            raw.key(number, Raw::LEN)
                .len(len as u64)
                .bytes(&vec![0x01; len]);
            if len % width == 0 {
                assert_canonical_roundtrip::<Repeats>(&raw.finish());
            } else {
                let e = assert_rejects::<Repeats>(&raw.finish(), "packed-length-mismatch", 1);
                assert_eq!(e.path().count(), 2);
            }
        }
    }
}

#[test]
fn packed_varint_run_ending_mid_element() {
    // Repeats.u64 (4, key 0E): 5 then 300 (F8 34).
    let r = assert_canonical_roundtrip::<Repeats>(&[0x0E, 0x03, 0x05, 0xF8, 0x34]);
    assert_eq!(r.u64, [5, 300]);
    let e = assert_rejects::<Repeats>(&[0x0E, 0x02, 0x05, 0xF8, 0x34], "truncated", 3);
    assert_eq!(e.path_string(), "Repeats.u64[1]");
    // A message element cut at the run's end.
    assert_rejects::<Repeats>(&[0x42, 0x02, 0x02, 0x00], "truncated", 2);
}

#[test]
fn packed_varint_run_cut_with_input_beyond_the_run() {
    // Repeats.u64 (4, key 0E) declares 2 bytes: 5, then a tag (F8) needing 2 bytes. The
    // input goes on past the run, so the run's fast path has a full window there: the
    // value is still cut by the run's end, `truncated` at its tag.
    let mut input = vec![0x0E, 0x02, 0x05, 0xF8, 0x34];
    input.extend_from_slice(&[0x00; 12]);
    let e = assert_rejects::<Repeats>(&input, "truncated", 3);
    assert_eq!(e.path_string(), "Repeats.u64[1]");
    // Cut by more than one byte: tags F9 (two payload bytes) and FF (eight), each right
    // at the run's end with a full window behind it.
    for tag in [0xF9, 0xFA, 0xFF] {
        let mut input = vec![0x0E, 0x02, 0x05, tag];
        input.extend_from_slice(&[0x00; 12]);
        let e = assert_rejects::<Repeats>(&input, "truncated", 3);
        assert_eq!(e.path_string(), "Repeats.u64[1]", "tag {tag:02X}");
    }
    // The same run fully inside: 5, 300, then a run of one string (15, key 2A) long enough
    // to keep a full window behind every element.
    let mut ok = vec![0x0E, 0x03, 0x05, 0xF8, 0x34, 0x2A, 0x0B, 0x0A];
    ok.extend_from_slice(b"0123456789");
    let r = assert_canonical_roundtrip::<Repeats>(&ok);
    assert_eq!(r.u64, [5, 300]);
    assert_eq!(r.text, ["0123456789"]);
}

#[test]
fn map_entry_truncated_between_key_and_value() {
    // Maps.text (13, key 32): "a" -> 1.
    assert_canonical_roundtrip::<Maps>(&[0x32, 0x03, 0x01, b'a', 0x02]);
    let e = assert_rejects::<Maps>(&[0x32, 0x02, 0x01, b'a', 0x02], "truncated", 4);
    assert_eq!(e.path_string(), "Maps.text[\"a\"]");
}

#[test]
fn map_key_order() {
    // Strings: "a" < "b"; out of order; equal.
    assert_canonical_roundtrip::<Maps>(&[0x32, 0x06, 0x01, b'a', 0x02, 0x01, b'b', 0x02]);
    let e = assert_rejects::<Maps>(
        &[0x32, 0x06, 0x01, b'b', 0x02, 0x01, b'a', 0x02],
        "map-key-order",
        5,
    );
    assert_eq!(e.path_string(), "Maps.text[\"a\"]");
    assert_rejects::<Maps>(
        &[0x32, 0x06, 0x01, b'a', 0x02, 0x01, b'a', 0x04],
        "map-key-order",
        5,
    );
    // UTF-8 order, not UTF-16: U+FFFD (EF BF BD) < U+10000 (F0 90 80 80).
    let fffd: &[u8] = &[0x03, 0xEF, 0xBF, 0xBD, 0x00];
    let sup: &[u8] = &[0x04, 0xF0, 0x90, 0x80, 0x80, 0x00];
    assert_canonical_roundtrip::<Maps>(&[&[0x32, 0x0B], fffd, sup].concat());
    assert_rejects::<Maps>(&[&[0x32, 0x0B], sup, fffd].concat(), "map-key-order", 8);
    // A prefix sorts first: "a" < "ab".
    assert_canonical_roundtrip::<Maps>(&[0x32, 0x07, 0x01, b'a', 0x00, 0x02, b'a', b'b', 0x00]);
    assert_rejects::<Maps>(
        &[0x32, 0x07, 0x02, b'a', b'b', 0x00, 0x01, b'a', 0x00],
        "map-key-order",
        6,
    );
    // Signed keys compare as signed: sfixed32 (9, key 22) -1 (FF FF FF FF) < 1.
    let m = assert_canonical_roundtrip::<Maps>(&[
        0x22, 0x18, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0,
        0, 0,
    ]);
    assert_eq!(m.sf32.keys().copied().collect::<Vec<_>>(), [-1, 1]);
    assert_rejects::<Maps>(
        &[
            0x22, 0x18, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0,
            0, 0, 0,
        ],
        "map-key-order",
        14,
    );
    // int64 (2, key 06): zigzag 2 (= 1) then 3 (= -2) is ascending as unsigned, not signed.
    assert_rejects::<Maps>(&[0x06, 0x04, 0x02, 0x00, 0x03, 0x00], "map-key-order", 4);
    assert_canonical_roundtrip::<Maps>(&[0x06, 0x04, 0x03, 0x00, 0x02, 0x00]);
    // Unsigned keys (uint64 map 4, key 0E; fixed64 map 8, key 1E).
    assert_rejects::<Maps>(
        &[
            0x0E, 0x12, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0, 0,
        ],
        "map-key-order",
        11,
    );
    assert_rejects::<Maps>(
        &[
            0x1E, 0x12, 0, 0, 0, 0, 0, 0, 0, 2, 0x00, 0, 0, 0, 0, 0, 0, 0, 2, 0x00,
        ],
        "map-key-order",
        11,
    );
    // Bool keys: false < true only.
    assert_rejects::<Maps>(&[0x2A, 0x04, 0x01, 0x00, 0x00, 0x00], "map-key-order", 4);
    assert_rejects::<Maps>(&[0x2A, 0x04, 0x00, 0x00, 0x00, 0x00], "map-key-order", 4);
}

#[test]
fn unknown_fields_rejected_everywhere_in_strict_mode() {
    // Known knows 2, 4, 6. Unknown at the start (1), between (3, 5), after (7).
    let cases: [(&[u8], usize); 4] = [
        (&[0x00, 0x01], 0),
        (&[0x04, 0x02, 0x00, 0x01], 2),
        (&[0x04, 0x02, 0x06, 0x00, 0x00, 0x01], 4),
        (&[0x04, 0x02, 0x10, 0x01], 2),
    ];
    for (bytes, at) in cases {
        assert_rejects::<Known>(bytes, "unknown-field", at);
        assert_canonical_roundtrip_with::<Known>(bytes, &preserve());
    }
    let e = assert_rejects::<Known>(&[0x04, 0x02, 0x10, 0x01], "unknown-field", 2);
    assert_eq!(
        e.to_string(),
        "unknown-field: Known.7 is not in the schema at byte 2"
    );
    // Inside a nested message: Known.child (4, key 0E) holding field 1.
    let e = assert_rejects::<Known>(&[0x0E, 0x02, 0x00, 0x01], "unknown-field", 2);
    assert_eq!(e.path_string(), "Known.child.1");
    // Inside a repeated message element (Repeats.msgs = 17, key 42): Scalars field 17.
    let e = assert_rejects::<Repeats>(&[0x42, 0x04, 0x00, 0x02, 0x40, 0x01], "unknown-field", 4);
    assert_eq!(e.path_string(), "Repeats.msgs[1].17");
    // Inside a map value (Maps.msgs = 12, key 2E): "k" -> Scalars { 17: 1 }.
    let e = assert_rejects::<Maps>(
        &[0x2E, 0x05, 0x01, b'k', 0x02, 0x40, 0x01],
        "unknown-field",
        5,
    );
    assert_eq!(e.path_string(), "Maps.msgs[\"k\"].17");
}

#[test]
fn a_valid_message_followed_by_junk() {
    assert_canonical_roundtrip::<Scalars>(&[0x00, 0x02]);
    // The junk must parse as records: a truncated key, an unknown field, a repeat.
    assert_rejects::<Scalars>(&[0x00, 0x02, 0xFF], "truncated", 2);
    assert_rejects::<Scalars>(&[0x00, 0x02, 0x7C, 0x00], "unknown-field", 2);
    assert_rejects::<Scalars>(&[0x00, 0x02, 0x00, 0x00], "default-value-present", 2);
}

#[test]
fn fields_cannot_repeat_or_go_backwards() {
    // The second record of i32 (1) then the key 00 means field 2, never field 1 again:
    // a repeat is unrepresentable, so Scalars { i32: 1, i64: 1 } is the only reading.
    let s = assert_canonical_roundtrip::<Scalars>(&[0x00, 0x02, 0x00, 0x02]);
    assert_eq!((s.i32, s.i64), (1, 1));
    // Maps and repeated fields are one record each, so a second record is another field.
    let r = assert_canonical_roundtrip::<Repeats>(&[0x02, 0x01, 0x02, 0x02, 0x01, 0x02]);
    assert_eq!((r.i32.as_slice(), r.i64.as_slice()), (&[1][..], &[1][..]));
}

#[test]
fn errors_report_decode_with_the_same_as_decode() {
    let bytes = [0x18, 0x02];
    let a = Scalars::decode(&bytes).unwrap_err();
    let b = Scalars::decode_with(&bytes, &DecodeOptions::new()).unwrap_err();
    assert_eq!(a, b);
}

#[test]
fn string_keys_in_paths_are_escaped() {
    // Maps.msgs (12, key 2E): key "a\"\\\n\u{7f}é" -> Scalars with a bad bool (7, key 18).
    let key = "a\"\\\n\u{7f}é".as_bytes();
    let mut entry = vec![key.len() as u8];
    entry.extend_from_slice(key);
    entry.extend_from_slice(&[0x02, 0x18, 0x02]);
    let mut bytes = vec![0x2E, entry.len() as u8];
    bytes.extend_from_slice(&entry);
    let at = bytes.len() - 1;
    let e = assert_rejects::<Maps>(&bytes, "invalid-bool", at);
    assert_eq!(e.path_string(), r#"Maps.msgs["a\"\\\u{a}\u{7f}é"].flag"#);
}
