//! Repeated runs and maps take different decode paths by element kind and size (bulk
//! fixed-width words, varint runs sized by their bytes, small maps inserted directly and
//! larger ones collected first); these tests cross each path's edges with valid and
//! invalid input. The reader's element reads check the current message's bound with the
//! same comparison that reads the bytes, so the last tests cut values at a nested bound
//! with more input after it.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::{Double, Fixed32, Msg, Pass, Reader, UInt64};
use crate::wkt::{ListValue, Struct, Value, value::Kind};
use crate::{DecodeError, DecodeOptions, Message, UnknownFieldPolicy, UnknownFields};

/// `message Runs { repeated double d = 1; repeated fixed32 f = 2; repeated uint64 u = 3; }`
#[derive(Clone, Debug, Default, PartialEq)]
struct Runs {
    d: Vec<f64>,
    f: Vec<u32>,
    u: Vec<u64>,
    unknown_fields: UnknownFields,
}

impl Message for Runs {
    const NAME: &'static str = "Runs";
    const KEEPS_UNKNOWN_FIELDS: bool = true;
    const FIELD_NUMBERS: &'static [u32] = &[1, 2, 3];
}

impl crate::__private::Encode for Runs {
    type Schema = Self;

    fn __unknown(&self) -> &UnknownFields {
        &self.unknown_fields
    }
    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        p.repeated::<Double>(1, &self.d)
            + p.repeated::<Fixed32>(2, &self.f)
            + p.repeated::<UInt64>(3, &self.u)
    }
}

impl<'a> crate::__private::Decode<'a> for Runs {
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let d = r.repeated::<Double>(1, "d")?;
        let f = r.repeated::<Fixed32>(2, "f")?;
        let u = r.repeated::<UInt64>(3, "u")?;
        let unknown_fields = r.finish()?;
        Ok(Runs {
            d,
            f,
            u,
            unknown_fields,
        })
    }
}

/// A record's key byte for field 1 (LEN), its length prefix, then `content`.
fn record(content: &[u8]) -> Vec<u8> {
    let mut out = vec![0x02];
    out.extend_from_slice(bijou64::encode(content.len() as u64).as_slice());
    out.extend_from_slice(content);
    out
}

#[test]
fn fixed_width_runs_decode_every_word() {
    for n in 1..=40u32 {
        let d: Vec<f64> = (0..n)
            .map(|i| match i % 5 {
                0 => -0.0,
                1 => f64::INFINITY,
                2 => f64::from_bits(super::NAN_F64),
                _ => f64::from(i) * -1.5,
            })
            .collect();
        let f: Vec<u32> = (0..n).map(|i| i.wrapping_mul(0x9E37_79B9)).collect();
        let v = Runs {
            d,
            f,
            ..Runs::default()
        };
        let bytes = v.encode_to_vec().unwrap();
        let back = Runs::decode(&bytes).unwrap();
        let bits = |x: &[f64]| x.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&back.d), bits(&v.d), "n = {n}");
        assert_eq!(back.f, v.f, "n = {n}");
    }
}

#[test]
fn fixed_width_runs_are_written_word_by_word_big_endian() {
    for n in 1..=20u32 {
        // Every NaN is written as the canonical one (SPEC §3.5), in a run as alone.
        let d: Vec<f64> = (0..n)
            .map(|i| match i % 3 {
                0 => f64::from_bits(0xFFF0_0000_0000_0001 + u64::from(i)),
                _ => f64::from(i) - 7.25,
            })
            .collect();
        let f: Vec<u32> = (0..n).map(|i| 0x0102_0304u32.wrapping_mul(i + 1)).collect();
        let bytes = Runs {
            d: d.clone(),
            f: f.clone(),
            ..Runs::default()
        }
        .encode_to_vec()
        .unwrap();
        let mut words = Vec::new();
        for x in &d {
            let bits = if x.is_nan() {
                super::NAN_F64
            } else {
                x.to_bits()
            };
            words.extend_from_slice(&bits.to_be_bytes());
        }
        let mut expected = record(&words);
        let mut f_words = Vec::new();
        for x in &f {
            f_words.extend_from_slice(&x.to_be_bytes());
        }
        // Field 2 follows field 1: key delta 0, LEN.
        expected.extend_from_slice(&record(&f_words));
        assert_eq!(bytes, expected, "n = {n}");
    }
}

#[test]
fn a_non_canonical_nan_in_a_double_run_is_reported_at_its_word() {
    for n in 1..=12usize {
        for bad in 0..n {
            let mut content = Vec::new();
            for i in 0..n {
                let bits: u64 = if i == bad {
                    0x7FF8_0000_0000_0001
                } else {
                    i as u64
                };
                content.extend_from_slice(&bits.to_be_bytes());
            }
            let bytes = record(&content);
            let e = Runs::decode(&bytes).unwrap_err();
            let start = bytes.len() - content.len();
            assert_eq!(e.code(), "non-canonical-nan");
            assert_eq!(e.offset(), start + 8 * bad, "n = {n}, bad = {bad}");
            assert_eq!(e.path_string(), format!("Runs.d[{bad}]"));
        }
    }
}

#[test]
fn a_varint_run_keeps_at_most_two_slots_per_element() {
    // One-byte values: one slot per byte is exact.
    let small = Runs {
        u: (0..100).collect(),
        ..Runs::default()
    };
    let back = Runs::decode(&small.encode_to_vec().unwrap()).unwrap();
    assert_eq!(back, small);
    assert_eq!(back.u.capacity(), 100);
    // Nine-byte values: one slot per byte would be nine per element; the excess is
    // given back.
    let big = Runs {
        u: vec![u64::MAX; 100],
        ..Runs::default()
    };
    let back = Runs::decode(&big.encode_to_vec().unwrap()).unwrap();
    assert_eq!(back, big);
    assert!(
        back.u.capacity() <= 2 * back.u.len(),
        "{}",
        back.u.capacity()
    );
    // Two-byte values (248..504) fill the run's slots exactly twice over: kept.
    let two = Runs {
        u: vec![300; 100],
        ..Runs::default()
    };
    let back = Runs::decode(&two.encode_to_vec().unwrap()).unwrap();
    assert_eq!(back, two);
    assert_eq!(back.u.capacity(), 200);
}

fn key(i: usize) -> String {
    format!("k{i:02}")
}

fn number(x: f64) -> Value {
    Value {
        kind: Some(Kind::NumberValue(x)),
    }
}

/// One `Struct.fields` entry: key element, then the value element (`Value` with
/// `number_value` = field 2, key 05, eight bytes).
fn entry(k: &str, bits: u64) -> Vec<u8> {
    let mut out = bijou64::encode(k.len() as u64).as_slice().to_vec();
    out.extend_from_slice(k.as_bytes());
    out.push(9);
    out.push(0x05);
    out.extend_from_slice(&bits.to_be_bytes());
    out
}

/// A `Struct` from `entries`, and the offset of each entry's first byte.
fn struct_bytes(entries: &[Vec<u8>]) -> (Vec<u8>, Vec<usize>) {
    let bytes = record(&entries.concat());
    let mut at = bytes.len() - entries.iter().map(Vec::len).sum::<usize>();
    let mut offsets = Vec::new();
    for e in entries {
        offsets.push(at);
        at += e.len();
    }
    (bytes, offsets)
}

#[test]
fn maps_of_every_size_round_trip() {
    for n in 0..=24 {
        let fields: BTreeMap<String, Value> = (0..n).map(|i| (key(i), number(i as f64))).collect();
        let v = Struct { fields };
        let bytes = v.encode_to_vec().unwrap();
        assert_eq!(Struct::decode(&bytes).unwrap(), v, "n = {n}");
        if n > 0 {
            let entries: Vec<Vec<u8>> = (0..n)
                .map(|i| entry(&key(i), (i as f64).to_bits()))
                .collect();
            assert_eq!(struct_bytes(&entries).0, bytes, "n = {n}");
        }
    }
}

#[test]
fn map_key_order_is_checked_at_every_entry_of_every_size() {
    for n in 2..=24 {
        for bad in 1..n {
            let ok: Vec<Vec<u8>> = (0..n).map(|i| entry(&key(i), 0)).collect();
            // The key of entry `bad` repeats the previous key, or steps back below it.
            for k in [key(bad - 1), format!("k{:02}", bad - 1).replace('k', "j")] {
                let mut entries = ok.clone();
                entries[bad] = entry(&k, 0);
                let (bytes, offsets) = struct_bytes(&entries);
                let e = Struct::decode(&bytes).unwrap_err();
                assert_eq!(e.code(), "map-key-order", "n = {n}, bad = {bad}");
                assert_eq!(e.offset(), offsets[bad], "n = {n}, bad = {bad}");
                assert_eq!(e.path_string(), format!("Struct.fields[\"{k}\"]"));
            }
        }
    }
}

#[test]
fn a_bad_value_is_reported_in_its_entry_for_every_size() {
    for n in 1..=24 {
        for bad in 0..n {
            let entries: Vec<Vec<u8>> = (0..n)
                .map(|i| entry(&key(i), if i == bad { 0x7FF0_0000_0000_0001 } else { 0 }))
                .collect();
            let (bytes, offsets) = struct_bytes(&entries);
            let e = Struct::decode(&bytes).unwrap_err();
            assert_eq!(e.code(), "non-canonical-nan", "n = {n}, bad = {bad}");
            // Key: prefix + three bytes; value: its length prefix and key, then the word.
            assert_eq!(e.offset(), offsets[bad] + 4 + 2, "n = {n}, bad = {bad}");
            assert_eq!(
                e.path_string(),
                format!("Struct.fields[\"{}\"].number_value", key(bad))
            );
        }
    }
}

#[test]
fn a_map_cut_inside_an_entry_is_truncated() {
    for n in 1..=24 {
        let entries: Vec<Vec<u8>> = (0..n).map(|i| entry(&key(i), 0)).collect();
        let (full, offsets) = struct_bytes(&entries);
        // Cut the last entry after its key: the value's length prefix is missing. The
        // record's length says so, so the map's own bound ends the entry.
        let cut = &entries.concat()[..full.len() - offsets[0] - 10];
        let bytes = record(cut);
        let e = Struct::decode(&bytes).unwrap_err();
        assert_eq!(e.code(), "truncated", "n = {n}");
        assert_eq!(e.offset(), bytes.len(), "n = {n}");
    }
}

#[test]
fn a_value_cut_by_its_message_is_truncated_with_input_after() {
    // `Struct.fields["k"]` holds a `Value` whose last element runs past the `Value`'s
    // length; a second entry follows, so the input goes on past the bound.
    let after = entry("zz", 0);
    for (content, cut_at, field) in [
        // string_value (3, key 0A): length 5, two bytes left in the Value.
        (&[0x0A, 0x05, b'a', b'b'][..], 1, "string_value"),
        // number_value (2, key 05): three of its eight bytes.
        (&[0x05, 1, 2, 3][..], 1, "number_value"),
        // null_value (1, key 00): a two-byte bijou64 whose payload is past the bound.
        (&[0x00, 0xF8][..], 1, "null_value"),
    ] {
        let mut first = vec![1, b'k', content.len() as u8];
        first.extend_from_slice(content);
        let (bytes, offsets) = struct_bytes(&[first, after.clone()]);
        let e = Struct::decode(&bytes).unwrap_err();
        assert_eq!(e.code(), "truncated", "{field}");
        // The entry's key (two bytes) and the value's length prefix come first.
        assert_eq!(e.offset(), offsets[0] + 3 + cut_at, "{field}");
        assert_eq!(e.path_string(), format!("Struct.fields[\"k\"].{field}"));
    }
}

/// `message Outer { google.protobuf.Struct s = 1; repeated Runs runs = 4; }`, written by
/// hand with the default walk kind (checked): its `encoded_len` walks it through the
/// checked size pass, while the generated `Struct` inside it goes through the plain one.
#[derive(Clone, Debug, Default, PartialEq)]
struct Outer {
    s: Option<Struct>,
    runs: Vec<Runs>,
    unknown_fields: UnknownFields,
}

impl Message for Outer {
    const NAME: &'static str = "Outer";
    const KEEPS_UNKNOWN_FIELDS: bool = true;
    const FIELD_NUMBERS: &'static [u32] = &[1, 4];
}

impl crate::__private::Encode for Outer {
    type Schema = Self;

    fn __unknown(&self) -> &UnknownFields {
        &self.unknown_fields
    }
    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        p.optional::<Msg<Struct>>(1, self.s.as_ref()) + p.repeated::<Msg<Runs>>(4, &self.runs)
    }
}

impl<'a> crate::__private::Decode<'a> for Outer {
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let s = r.optional::<Msg<Struct>>(1, "s")?;
        let runs = r.repeated::<Msg<Runs>>(4, "runs")?;
        let unknown_fields = r.finish()?;
        Ok(Outer {
            s,
            runs,
            unknown_fields,
        })
    }
}

/// A `Struct` nested `depth` times through `struct_value`, with a list and numbers.
fn deep_struct(depth: usize) -> Struct {
    let mut fields = BTreeMap::new();
    fields.insert(String::from("n"), number(depth as f64));
    let list = (0..depth).map(|i| number(i as f64 * 1e9)).collect();
    fields.insert(
        String::from("l"),
        Value {
            kind: Some(Kind::ListValue(ListValue { values: list })),
        },
    );
    if depth > 0 {
        let inner = Value {
            kind: Some(Kind::StructValue(deep_struct(depth - 1))),
        };
        fields.insert(String::from("s"), inner);
    }
    Struct { fields }
}

#[test]
fn encoded_len_is_what_encode_writes_with_and_without_generated_len() {
    for depth in 0..12 {
        let v = Outer {
            s: Some(deep_struct(depth)),
            runs: (0..depth as u64)
                .map(|i| Runs {
                    u: vec![i << (5 * i); 3],
                    ..Runs::default()
                })
                .collect(),
            ..Outer::default()
        };
        let bytes = v.encode_to_vec().unwrap();
        assert_eq!(v.encoded_len(), bytes.len(), "depth {depth}");
        let s = v.s.as_ref().unwrap();
        assert_eq!(
            s.encoded_len(),
            s.encode_to_vec().unwrap().len(),
            "depth {depth}"
        );
        // With unknown records kept and re-emitted in number order among the known
        // ones: field 2 = 5 between `s` and `runs`, field 66 = "hi" after them (keys are
        // deltas from the record before).
        let only_s = Outer {
            s: v.s.clone(),
            ..Outer::default()
        };
        let mut more = only_s.encode_to_vec().unwrap();
        more.extend_from_slice(&[0x00, 0x05]);
        let mut last = 2;
        if !v.runs.is_empty() {
            let only_runs = Outer {
                runs: v.runs.clone(),
                ..Outer::default()
            };
            let runs = only_runs.encode_to_vec().unwrap();
            more.push(((4 - 2 - 1) << 2) | 2);
            more.extend_from_slice(&runs[1..]);
            last = 4;
        }
        // Field 66 after `runs` has a one-byte key (delta 61); counted from any earlier
        // number it would take two.
        let key = bijou64::encode(((66 - last - 1) << 2) | 2);
        more.extend_from_slice(key.as_slice());
        more.extend_from_slice(&[0x02, b'h', b'i']);
        let preserve = DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve);
        let kept = Outer::decode_with(&more, &preserve).unwrap().into_message();
        assert_eq!(kept.unknown_fields.as_slice().len(), 2);
        assert_eq!(kept.encode_to_vec().unwrap(), more);
        assert_eq!(kept.encoded_len(), more.len(), "depth {depth}");
    }
}

#[test]
fn unknown_records_past_the_largest_field_number_are_refused() {
    // SPEC §4.3, §8.2: a record numbered above 2^29−1 has no key a decoder accepts, so
    // the encoder refuses it as it refuses records out of order.
    for (number, ok) in [
        (super::MAX_FIELD_NUMBER, true),
        (super::MAX_FIELD_NUMBER + 1, false),
    ] {
        let mut v = Runs {
            u: vec![7],
            ..Runs::default()
        };
        v.unknown_fields.push(crate::UnknownField {
            number,
            value: crate::UnknownValue::Varint(1),
        });
        match v.encode_to_vec() {
            Ok(bytes) => {
                assert!(ok, "{number} encoded");
                let preserve = DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve);
                let back = Runs::decode_with(&bytes, &preserve).unwrap().into_message();
                assert_eq!(back, v);
            }
            Err(e) => {
                assert!(!ok, "{number}: {e}");
                assert_eq!(e.code(), "unknown-field-order");
            }
        }
    }
}

/// `message Leaf { repeated uint64 u = 1; }`, walked as generated code declares it.
#[derive(Clone, Debug, Default, PartialEq)]
struct Leaf {
    u: Vec<u64>,
}

impl Message for Leaf {
    const NAME: &'static str = "Leaf";
    const FIELD_NUMBERS: &'static [u32] = &[1];
}

impl crate::__private::Encode for Leaf {
    type Schema = Self;
    const WALK: super::WalkKind = super::WalkKind::Plain;

    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        p.repeated::<UInt64>(1, &self.u)
    }
}

impl<'a> crate::__private::Decode<'a> for Leaf {
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let u = r.repeated::<UInt64>(1, "u")?;
        r.finish()?;
        Ok(Leaf { u })
    }
}

/// `message Wide { string text = 1; bytes data = 2; repeated uint64 u = 3; Leaf inner = 4;
/// repeated fixed32 pad = 5; }`, with a field of 24 words that is never encoded, so that
/// the type is large enough for a run of it to be prefetched (`prefetch::MIN_ELEMENT`).
#[derive(Clone, Debug, Default, PartialEq)]
struct Wide {
    text: String,
    data: Vec<u8>,
    u: Vec<u64>,
    inner: Option<Leaf>,
    pad: Vec<u32>,
    room: [u64; 24],
}

const _: () = assert!(core::mem::size_of::<Wide>() >= super::prefetch::MIN_ELEMENT);

impl Message for Wide {
    const NAME: &'static str = "Wide";
    const FIELD_NUMBERS: &'static [u32] = &[1, 2, 3, 4, 5];
}

impl crate::__private::Encode for Wide {
    type Schema = Self;
    // As generated code declares it, so that the one pass writes it (a checked walk
    // is left to the two passes).
    const WALK: super::WalkKind = super::WalkKind::Plain;

    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        p.implicit::<super::Str>(1, &self.text)
            + p.implicit::<super::Bytes>(2, &self.data)
            + p.repeated::<UInt64>(3, &self.u)
            + p.optional::<Msg<Leaf>>(4, self.inner.as_ref())
            + p.repeated::<Fixed32>(5, &self.pad)
    }
}

impl<'a> crate::__private::Decode<'a> for Wide {
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let text = r.implicit::<super::Str>(1, "text")?;
        let data = r.implicit::<super::Bytes>(2, "data")?;
        let u = r.repeated::<UInt64>(3, "u")?;
        let inner = r.optional::<Msg<Leaf>>(4, "inner")?;
        let pad = r.repeated::<Fixed32>(5, "pad")?;
        r.finish()?;
        Ok(Wide {
            text,
            data,
            u,
            inner,
            pad,
            room: [0; 24],
        })
    }
}

/// `message Wides { repeated Wide items = 1; }`
#[derive(Clone, Debug, Default, PartialEq)]
struct Wides {
    items: Vec<Wide>,
}

impl Message for Wides {
    const NAME: &'static str = "Wides";
    const FIELD_NUMBERS: &'static [u32] = &[1];
}

impl crate::__private::Encode for Wides {
    type Schema = Self;
    const WALK: super::WalkKind = super::WalkKind::Plain;

    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        p.repeated::<Msg<Wide>>(1, &self.items)
    }
}

impl<'a> crate::__private::Decode<'a> for Wides {
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let items = r.repeated::<Msg<Wide>>(1, "items")?;
        r.finish()?;
        Ok(Wides { items })
    }
}

/// A run of elements large enough to be prefetched (each next element's strings, byte
/// strings, runs and nested message asked for before the current one is written) is
/// written alike by the one pass into spare capacity, by the one pass through the
/// thread's frame, and by the two passes, and decodes to the value; elements with empty
/// strings and runs (which are not prefetched) and long ones (wide length prefixes,
/// which move the one pass's content) alternate.
#[test]
fn a_run_of_prefetched_elements_is_written_alike_by_every_encode() {
    for n in [1usize, 2, 3, 7, 40] {
        let v = Wides {
            items: (0..n)
                .map(|i| Wide {
                    text: "t".repeat(i * 37 % 300),
                    data: vec![i as u8; i * 11 % 70],
                    u: (0..(i % 4) as u64).map(|k| k << (9 * k)).collect(),
                    inner: (i % 3 == 1).then(|| Leaf {
                        u: vec![i as u64; 2],
                    }),
                    pad: vec![i as u32; i % 5],
                    room: [0; 24],
                })
                .collect(),
        };
        let two = super::encode_two_passes(&v, false, &crate::EncodeOptions::new()).unwrap();
        assert_eq!(
            v.encode_to_vec().unwrap(),
            two,
            "{n} elements, through the frame"
        );
        let mut spare = Vec::with_capacity(two.len() + 64);
        v.encode(&mut spare).unwrap();
        assert_eq!(spare, two, "{n} elements, into spare capacity");
        assert_eq!(v.encoded_len(), two.len(), "{n} elements");
        assert_eq!(Wides::decode(&two).unwrap(), v, "{n} elements");
    }
}
