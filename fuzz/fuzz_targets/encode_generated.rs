//! Arbitrary values of generated types, encoded by generated code: the strict decoder
//! takes the bytes back to the same value, `encoded_len` is the number of bytes written,
//! `encode_to_sink` and the two passes hand over the same bytes, and a preserving decode
//! of a wider message's bytes re-encodes (unknown records interleaved) to those bytes.
//!
//! The types are the runtime's test shapes (`runtime_shapes.proto` in
//! `bijoubuf-codegen-tests`): every scalar kind with implicit and explicit presence,
//! strings and bytes, repeated fields of every element kind, maps of every key kind,
//! a oneof split by a plain field, recursion through singular, repeated and map fields,
//! proto2 `required`, and a run of elements wide enough to be prefetched (`Wides`).
//! `value_roundtrip` starts from reflection's values and bytes; this target starts from
//! a generated type's value, so the encoder is the first code to see it.
#![no_main]

use std::collections::BTreeMap;

use bijoubuf::sink::ByteSink;
use bijoubuf::{DecodeOptions, Message, UnknownFieldPolicy};
use bijoubuf_codegen_tests::runtime_shapes::{
    Choice, Known, Maps, Optionals, Repeats, Req, Scalars, Tree, Wider, Wides, choice,
};
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;

/// How deep a recursive value may go (each level may hold several children).
const DEPTH: u32 = 4;
/// The most elements one repeated field or map takes.
const MAX_ELEMENTS: usize = 24;

/// A sink that collects the pieces, refusing empty ones.
#[derive(Default)]
struct Pieces(Vec<u8>);

impl ByteSink for Pieces {
    fn accept(&mut self, bytes: &[u8]) {
        assert!(!bytes.is_empty(), "an empty piece");
        self.0.extend_from_slice(bytes);
    }
}

/// A value the fuzzer chooses, with the widths' edges and small values more often than
/// uniform bytes would give them.
fn u64_of(u: &mut Unstructured) -> Result<u64> {
    Ok(match u.int_in_range(0u8..=7)? {
        0 => u.int_in_range(0..=300)?,
        // Around each bijou64 tier's first value.
        1 => {
            let o = bijou64::OFFSETS[u.int_in_range(0..=bijou64::OFFSETS.len() - 1)?];
            o.wrapping_add(u.int_in_range(0..=2)?).wrapping_sub(1)
        }
        2 => u64::MAX - u.int_in_range(0..=2)?,
        _ => u.arbitrary()?,
    })
}

fn i64_of(u: &mut Unstructured) -> Result<i64> {
    let v = u64_of(u)? as i64;
    Ok(if u.arbitrary()? { v.wrapping_neg() } else { v })
}

fn i32_of(u: &mut Unstructured) -> Result<i32> {
    Ok(i64_of(u)? as i32)
}

fn u32_of(u: &mut Unstructured) -> Result<u32> {
    Ok(u64_of(u)? as u32)
}

/// Any bits, NaNs of every payload included (the encoder writes one NaN).
fn f32_of(u: &mut Unstructured) -> Result<f32> {
    Ok(f32::from_bits(u32_of(u)?))
}

fn f64_of(u: &mut Unstructured) -> Result<f64> {
    Ok(f64::from_bits(u64_of(u)?))
}

/// Short strings mostly, some longer than a chunk's piece of a sink.
fn string_of(u: &mut Unstructured) -> Result<String> {
    let s: String = u.arbitrary()?;
    Ok(if u.ratio(1, 16)? { s.repeat(300) } else { s })
}

fn bytes_of(u: &mut Unstructured) -> Result<Vec<u8>> {
    let b: Vec<u8> = u.arbitrary()?;
    Ok(if u.ratio(1, 16)? { b.repeat(300) } else { b })
}

fn vec_of<T>(
    u: &mut Unstructured,
    mut el: impl FnMut(&mut Unstructured) -> Result<T>,
) -> Result<Vec<T>> {
    let n = u.int_in_range(0..=MAX_ELEMENTS)?;
    let mut v = Vec::with_capacity(n);
    for _ in 0..n {
        v.push(el(u)?);
    }
    Ok(v)
}

fn map_of<K: Ord, V>(
    u: &mut Unstructured,
    mut k: impl FnMut(&mut Unstructured) -> Result<K>,
    mut v: impl FnMut(&mut Unstructured) -> Result<V>,
) -> Result<BTreeMap<K, V>> {
    let n = u.int_in_range(0..=MAX_ELEMENTS)?;
    let mut m = BTreeMap::new();
    for _ in 0..n {
        m.insert(k(u)?, v(u)?);
    }
    Ok(m)
}

fn opt<T>(
    u: &mut Unstructured,
    f: impl FnOnce(&mut Unstructured) -> Result<T>,
) -> Result<Option<T>> {
    Ok(if u.arbitrary()? { Some(f(u)?) } else { None })
}

/// Zero (the implicit default, not written) about half the time.
fn or_default<T: Default>(
    u: &mut Unstructured,
    f: impl FnOnce(&mut Unstructured) -> Result<T>,
) -> Result<T> {
    Ok(if u.arbitrary()? { f(u)? } else { T::default() })
}

fn scalars(u: &mut Unstructured) -> Result<Scalars> {
    Ok(Scalars {
        i32: or_default(u, i32_of)?,
        i64: or_default(u, i64_of)?,
        u32: or_default(u, u32_of)?,
        u64: or_default(u, u64_of)?,
        s32: or_default(u, i32_of)?,
        s64: or_default(u, i64_of)?,
        flag: u.arbitrary()?,
        color: or_default(u, i32_of)?,
        f32: or_default(u, u32_of)?,
        f64: or_default(u, u64_of)?,
        sf32: or_default(u, i32_of)?,
        sf64: or_default(u, i64_of)?,
        fl: or_default(u, f32_of)?,
        db: or_default(u, f64_of)?,
        text: or_default(u, string_of)?,
        data: or_default(u, bytes_of)?,
        ..Scalars::default()
    })
}

fn optionals(u: &mut Unstructured) -> Result<Optionals> {
    Ok(Optionals {
        i32: opt(u, i32_of)?,
        i64: opt(u, i64_of)?,
        u32: opt(u, u32_of)?,
        u64: opt(u, u64_of)?,
        s32: opt(u, i32_of)?,
        s64: opt(u, i64_of)?,
        flag: opt(u, |u| u.arbitrary())?,
        color: opt(u, i32_of)?,
        f32: opt(u, u32_of)?,
        f64: opt(u, u64_of)?,
        sf32: opt(u, i32_of)?,
        sf64: opt(u, i64_of)?,
        fl: opt(u, f32_of)?,
        db: opt(u, f64_of)?,
        text: opt(u, string_of)?,
        data: opt(u, bytes_of)?,
        child: opt(u, scalars)?,
        ..Optionals::default()
    })
}

fn repeats(u: &mut Unstructured) -> Result<Repeats> {
    Ok(Repeats {
        i32: vec_of(u, i32_of)?,
        i64: vec_of(u, i64_of)?,
        u32: vec_of(u, u32_of)?,
        u64: vec_of(u, u64_of)?,
        s32: vec_of(u, i32_of)?,
        s64: vec_of(u, i64_of)?,
        flag: vec_of(u, |u| u.arbitrary())?,
        color: vec_of(u, i32_of)?,
        f32: vec_of(u, u32_of)?,
        f64: vec_of(u, u64_of)?,
        sf32: vec_of(u, i32_of)?,
        sf64: vec_of(u, i64_of)?,
        fl: vec_of(u, f32_of)?,
        db: vec_of(u, f64_of)?,
        text: vec_of(u, string_of)?,
        data: vec_of(u, bytes_of)?,
        msgs: vec_of(u, scalars)?,
        ..Repeats::default()
    })
}

fn maps(u: &mut Unstructured) -> Result<Maps> {
    Ok(Maps {
        i32: map_of(u, i32_of, string_of)?,
        i64: map_of(u, i64_of, i64_of)?,
        u32: map_of(u, u32_of, bytes_of)?,
        u64: map_of(u, u64_of, f64_of)?,
        s32: map_of(u, i32_of, f32_of)?,
        s64: map_of(u, i64_of, |u| u.arbitrary())?,
        f32: map_of(u, u32_of, i32_of)?,
        f64: map_of(u, u64_of, u32_of)?,
        sf32: map_of(u, i32_of, i64_of)?,
        sf64: map_of(u, i64_of, u32_of)?,
        flag: map_of(u, |u| u.arbitrary(), string_of)?,
        msgs: map_of(u, string_of, scalars)?,
        text: map_of(u, string_of, i32_of)?,
        ..Maps::default()
    })
}

fn tree(u: &mut Unstructured, depth: u32) -> Result<Tree> {
    let deeper = depth > 0;
    Ok(Tree {
        value: or_default(u, i32_of)?,
        child: if deeper {
            opt(u, |u| tree(u, depth - 1).map(Box::new))?
        } else {
            None
        },
        children: if deeper {
            let n = u.int_in_range(0..=3)?;
            (0..n).map(|_| tree(u, depth - 1)).collect::<Result<_>>()?
        } else {
            Vec::new()
        },
        named: if deeper {
            let n = u.int_in_range(0..=3)?;
            let mut m = BTreeMap::new();
            for _ in 0..n {
                m.insert(string_of(u)?, tree(u, depth - 1)?);
            }
            m
        } else {
            BTreeMap::new()
        },
        ..Tree::default()
    })
}

fn choice(u: &mut Unstructured) -> Result<Choice> {
    Ok(Choice {
        name: or_default(u, string_of)?,
        kind: match u.int_in_range(0u8..=3)? {
            0 => None,
            // A set member is written even when it holds the default.
            1 => Some(choice::Kind::A(or_default(u, i32_of)?)),
            2 => Some(choice::Kind::B(or_default(u, string_of)?)),
            _ => Some(choice::Kind::M(scalars(u)?)),
        },
        mid: or_default(u, u32_of)?,
        after: or_default(u, f64_of)?,
        ..Choice::default()
    })
}

fn req(u: &mut Unstructured, depth: u32) -> Result<Req> {
    Ok(Req {
        id: i32_of(u)?,
        note: opt(u, string_of)?,
        name: string_of(u)?,
        child: if depth > 0 {
            opt(u, |u| req(u, depth - 1).map(Box::new))?
        } else {
            None
        },
        ..Req::default()
    })
}

fn wider(u: &mut Unstructured, depth: u32) -> Result<Wider> {
    Ok(Wider {
        x: or_default(u, u64_of)?,
        a: or_default(u, i32_of)?,
        s: or_default(u, string_of)?,
        child: if depth > 0 {
            opt(u, |u| wider(u, depth - 1).map(Box::new))?
        } else {
            None
        },
        f: or_default(u, u32_of)?,
        d: or_default(u, u64_of)?,
        e: or_default(u, bytes_of)?,
        g: or_default(u, u64_of)?,
        ..Wider::default()
    })
}

/// A run of elements large enough in memory for the encoder to prefetch each next one
/// (`Optionals` holds its `Scalars` inline; `tests/sink.rs` in `bijoubuf-codegen-tests`
/// asserts the size).
fn wides(u: &mut Unstructured) -> Result<Wides> {
    Ok(Wides {
        items: vec_of(u, optionals)?,
        tail: opt(u, scalars)?,
        ..Wides::default()
    })
}

/// Encode `v` every way and check what the decoder makes of it; returns the bytes.
fn check<M: Message + std::fmt::Debug>(v: &M) -> Vec<u8> {
    let bytes = v.encode_to_vec().expect("a generated value encodes");
    assert_eq!(v.encoded_len(), bytes.len(), "encoded_len of {v:?}");
    let two = bijoubuf::__private::encode_two_passes(v, false, &bijoubuf::EncodeOptions::new())
        .expect("the two passes encode what the one pass did");
    assert_eq!(two, bytes, "the two passes against the one pass of {v:?}");
    let mut sink = Pieces::default();
    v.encode_to_sink(&mut sink).expect("encodes into a sink");
    assert_eq!(sink.0, bytes, "encode_to_sink of {v:?}");
    let mut appended = vec![0xA5];
    v.encode(&mut appended).expect("encodes after other bytes");
    assert_eq!(&appended[1..], &bytes[..], "encode after a byte");
    let back = M::decode(&bytes).unwrap_or_else(|e| panic!("own encoding of {v:?} refused: {e}"));
    // Floats compare by value, and NaN != NaN; the bytes compare the NaN spelling.
    assert_eq!(format!("{back:?}"), format!("{v:?}"), "decode(encode(v))");
    assert_eq!(back.encode_to_vec().unwrap(), bytes, "re-encoding");
    bytes
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(pick) = u.int_in_range(0u8..=9) else {
        return;
    };
    let _ = match pick {
        0 => scalars(&mut u).map(|v| check(&v)),
        1 => optionals(&mut u).map(|v| check(&v)),
        2 => repeats(&mut u).map(|v| check(&v)),
        3 => maps(&mut u).map(|v| check(&v)),
        4 => tree(&mut u, DEPTH).map(|v| check(&v)),
        5 => choice(&mut u).map(|v| check(&v)),
        6 => req(&mut u, 2).map(|v| check(&v)),
        7 => {
            // A `Known` that keeps `Wider`'s other fields as unknown records writes them
            // back among its own, in number order: the same bytes.
            wider(&mut u, 3).map(|w| {
                let bytes = check(&w);
                let opts = DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve);
                let known = Known::decode_with(&bytes, &opts)
                    .expect("a wider message decodes, preserving")
                    .into_message();
                assert_eq!(
                    known.encode_to_vec().unwrap(),
                    bytes,
                    "unknown records re-emitted"
                );
                assert_eq!(
                    known.encoded_len(),
                    bytes.len(),
                    "encoded_len with unknowns"
                );
                let mut sink = Pieces::default();
                known.encode_to_sink(&mut sink).unwrap();
                assert_eq!(sink.0, bytes, "encode_to_sink with unknowns");
                bytes
            })
        }
        8 => wides(&mut u).map(|v| check(&v)),
        _ => {
            // A framed value: a bijou64 length, then the same bytes.
            repeats(&mut u).map(|v| {
                let bytes = check(&v);
                let framed = v.encode_length_delimited_to_vec().unwrap();
                let (back, n) = Repeats::decode_length_delimited(&framed).unwrap();
                assert_eq!(n, framed.len());
                assert_eq!(back.encode_to_vec().unwrap(), bytes);
                assert!(framed.ends_with(&bytes));
                bytes
            })
        }
    };
});
