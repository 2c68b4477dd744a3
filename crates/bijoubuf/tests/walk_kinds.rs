//! The three ways a message's one field walk is run (`WalkKind`: the checked passes,
//! the plain passes generated code uses, and the write pass through a register copy of
//! the writer) write the same bytes for every field shape, with and without nesting,
//! and `encoded_len`, `encode_to_sink` and the strict decoder agree with them.
use std::collections::BTreeMap;

use bijoubuf::__private::{
    BoxMsg, Fixed32, Int32, Int64, Of, Pass, Reader, Str, UInt32, UInt64, WalkKind,
};
use bijoubuf::sink::{ByteSink, CHUNK, SMALL_CHUNK};
use bijoubuf::{DecodeError, DecodeOptions, Message, UnknownFieldPolicy, UnknownFields};

/// Every field shape of the `Pass` trait, run through the walk kind `KIND` (0 checked,
/// 1 plain, 2 local).
#[derive(Clone, Debug, Default, PartialEq)]
struct Every<const KIND: u8> {
    /// 1, implicit presence.
    a: i32,
    /// 2, explicit presence (written when empty).
    name: String,
    /// 3, explicit presence in an `Option`.
    opt: Option<u64>,
    /// 4, a varint run (its length comes from the size table).
    ids: Vec<u64>,
    /// 5, a fixed-width run (its length is the word count times four).
    words: Vec<u32>,
    /// 6, a map through `Pass::map`.
    names: BTreeMap<u32, String>,
    /// 7, a map through `Pass::map_el`, from a slice of pairs in key order.
    pairs: Vec<(i32, i64)>,
    /// 8, a nested message of the same kind.
    child: Option<Box<Every<KIND>>>,
    /// 70: a key of more than one byte.
    far: i32,
    unknown_fields: UnknownFields,
}

impl<const KIND: u8> Message for Every<KIND> {
    const NAME: &'static str = "Every";
    const KEEPS_UNKNOWN_FIELDS: bool = true;
    const FIELD_NUMBERS: &'static [u32] = &[1, 2, 3, 4, 5, 6, 7, 8, 70];
}

impl<const KIND: u8> bijoubuf::__private::Encode for Every<KIND> {
    type Schema = Self;

    const WALK: WalkKind = match KIND {
        0 => WalkKind::Checked,
        1 => WalkKind::Plain,
        _ => WalkKind::Local,
    };

    fn __unknown(&self) -> &UnknownFields {
        &self.unknown_fields
    }

    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        p.implicit::<Int32>(1, &self.a)
            + p.explicit::<Str>(2, &self.name)
            + p.optional::<UInt64>(3, self.opt.as_ref())
            + p.repeated::<UInt64>(4, &self.ids)
            + p.repeated::<Fixed32>(5, &self.words)
            + p.map::<UInt32, Str>(6, &self.names)
            + p.map_el(7, &self.pairs[..], &Of::<Int32>::NEW, &Of::<Int64>::NEW)
            + p.optional::<BoxMsg<Every<KIND>>>(8, self.child.as_ref())
            + p.implicit::<Int32>(70, &self.far)
    }
}

impl<'a, const KIND: u8> bijoubuf::__private::Decode<'a> for Every<KIND> {
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let a = r.implicit::<Int32>(1, "a")?;
        let name = r.optional::<Str>(2, "name")?.unwrap_or_default();
        let opt = r.optional::<UInt64>(3, "opt")?;
        let ids = r.repeated::<UInt64>(4, "ids")?;
        let words = r.repeated::<Fixed32>(5, "words")?;
        let names = r.map::<UInt32, Str>(6, "names")?;
        let pairs = r.map::<Int32, Int64>(7, "pairs")?.into_iter().collect();
        let child = r.optional::<BoxMsg<Every<KIND>>>(8, "child")?;
        let far = r.implicit::<Int32>(70, "far")?;
        let unknown_fields = r.finish()?;
        Ok(Every {
            a,
            name,
            opt,
            ids,
            words,
            names,
            pairs,
            child,
            far,
            unknown_fields,
        })
    }
}

/// The same value as another walk kind.
fn as_kind<const FROM: u8, const TO: u8>(v: &Every<FROM>) -> Every<TO> {
    Every {
        a: v.a,
        name: v.name.clone(),
        opt: v.opt,
        ids: v.ids.clone(),
        words: v.words.clone(),
        names: v.names.clone(),
        pairs: v.pairs.clone(),
        child: v.child.as_deref().map(|c| Box::new(as_kind(c))),
        far: v.far,
        unknown_fields: UnknownFields::new(),
    }
}

/// Values from empty to every field set, nested two deep, with long strings.
fn samples() -> Vec<Every<0>> {
    let full = |depth: usize| Every::<0> {
        a: -5,
        name: "x".repeat(40 * depth + 1),
        opt: Some(0),
        ids: vec![0, 1, 247, 248, 1 << 40, u64::MAX],
        words: vec![0, 7, u32::MAX],
        names: [(0, String::new()), (9, "nine".repeat(70))].into(),
        pairs: vec![(-3, 4), (0, 0), (12, -1)],
        child: None,
        far: 300,
        unknown_fields: UnknownFields::new(),
    };
    let mut nested = full(2);
    nested.child = Some(Box::new(Every {
        child: Some(Box::new(full(0))),
        ..full(1)
    }));
    let only_child = Every::<0> {
        child: Some(Box::new(Every::default())),
        ..Every::default()
    };
    vec![Every::default(), full(0), nested, only_child]
}

fn check<const KIND: u8>(v: &Every<KIND>, want: &[u8]) {
    let bytes = v.encode_to_vec().unwrap();
    assert_eq!(bytes, want, "walk kind {KIND}");
    assert_eq!(v.encoded_len(), want.len(), "walk kind {KIND}");
    let mut sink = Pieces::default();
    v.encode_to_sink(&mut sink).unwrap();
    sink.check(want);
    let mut framed = Vec::new();
    v.encode_length_delimited(&mut framed).unwrap();
    assert!(framed.ends_with(want) && framed.len() > want.len());
    assert_eq!(&Every::<KIND>::decode(want).unwrap(), v, "walk kind {KIND}");
}

#[test]
fn every_walk_kind_writes_the_same_bytes() {
    for v in samples() {
        let want = v.encode_to_vec().unwrap();
        check::<0>(&v, &want);
        check::<1>(&as_kind(&v), &want);
        check::<2>(&as_kind(&v), &want);
    }
}

/// A sink that keeps each piece apart, to see where the encoding was cut.
#[derive(Default)]
struct Pieces(Vec<Vec<u8>>);

impl ByteSink for Pieces {
    fn accept(&mut self, bytes: &[u8]) {
        self.0.push(bytes.to_vec());
    }
}

impl Pieces {
    /// The pieces are `want` in order; none is empty; every piece but the last is whole
    /// chunks of the size the encode chose (a hasher's fast path).
    fn check(&self, want: &[u8]) {
        assert_eq!(self.0.concat(), want);
        let chunk = if want.len() <= SMALL_CHUNK {
            SMALL_CHUNK
        } else {
            CHUNK
        };
        if let Some((last, rest)) = self.0.split_last() {
            assert!(
                !last.is_empty() && last.len() <= chunk,
                "last {}",
                last.len()
            );
            for p in rest {
                assert!(!p.is_empty() && p.len() % chunk == 0, "piece {}", p.len());
            }
        }
    }
}

#[test]
fn a_sink_gets_whole_chunks_wherever_a_record_crosses_the_chunk_edge() {
    // A string sized so that the records after it (multi-byte varints, a map, a child
    // with a string longer than a chunk) start on each of the last bytes of the first
    // chunk, for both chunk sizes.
    for chunk in [SMALL_CHUNK, CHUNK] {
        for pad in chunk - 24..chunk + 2 {
            let v = Every::<0> {
                name: "x".repeat(pad),
                ids: vec![u64::MAX, 300, 1 << 40],
                names: [(1, "y".repeat(20)), (2, String::new())].into(),
                child: Some(Box::new(Every {
                    name: "z".repeat(CHUNK + 3),
                    words: vec![1, 2, 3],
                    ..Every::default()
                })),
                far: -1,
                ..Every::default()
            };
            let want = v.encode_to_vec().unwrap();
            check::<0>(&v, &want);
            check::<1>(&as_kind(&v), &want);
            check::<2>(&as_kind(&v), &want);
        }
    }
}

/// A message with no fields: its encoding is empty.
#[derive(Debug, Default, PartialEq)]
struct Nothing {
    unknown_fields: UnknownFields,
}

impl Message for Nothing {
    const NAME: &'static str = "Nothing";
    const KEEPS_UNKNOWN_FIELDS: bool = true;
    const FIELD_NUMBERS: &'static [u32] = &[];
}

impl bijoubuf::__private::Encode for Nothing {
    type Schema = Self;

    fn __unknown(&self) -> &UnknownFields {
        &self.unknown_fields
    }

    fn __walk<'v, P: Pass<'v>>(&'v self, _: &mut P) -> P::Out {
        P::Out::default()
    }
}

impl<'a> bijoubuf::__private::Decode<'a> for Nothing {
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let unknown_fields = r.finish()?;
        Ok(Nothing { unknown_fields })
    }
}

#[test]
fn an_empty_encoding_hands_a_sink_nothing() {
    let mut sink = Pieces::default();
    Nothing::default().encode_to_sink(&mut sink).unwrap();
    assert!(sink.0.is_empty(), "{} pieces", sink.0.len());
}

/// `Every`'s fields 1, 2 and 70 only: decoded from `Every`'s bytes while preserving, its
/// fields 3 to 8 are unknown records that lie between field 2 and field 70.
#[derive(Debug, Default, PartialEq)]
struct Narrow<const KIND: u8> {
    a: i32,
    name: String,
    far: i32,
    unknown_fields: UnknownFields,
}

impl<const KIND: u8> Message for Narrow<KIND> {
    const NAME: &'static str = "Narrow";
    const KEEPS_UNKNOWN_FIELDS: bool = true;
    const FIELD_NUMBERS: &'static [u32] = &[1, 2, 70];
}

impl<const KIND: u8> bijoubuf::__private::Encode for Narrow<KIND> {
    type Schema = Self;

    const WALK: WalkKind = Every::<KIND>::WALK;

    fn __unknown(&self) -> &UnknownFields {
        &self.unknown_fields
    }

    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        p.implicit::<Int32>(1, &self.a)
            + p.explicit::<Str>(2, &self.name)
            + p.implicit::<Int32>(70, &self.far)
    }
}

impl<'a, const KIND: u8> bijoubuf::__private::Decode<'a> for Narrow<KIND> {
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let a = r.implicit::<Int32>(1, "a")?;
        let name = r.optional::<Str>(2, "name")?.unwrap_or_default();
        let far = r.implicit::<Int32>(70, "far")?;
        let unknown_fields = r.finish()?;
        Ok(Narrow {
            a,
            name,
            far,
            unknown_fields,
        })
    }
}

fn reencodes_with_unknowns<const KIND: u8>(want: &[u8]) {
    let opts = DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve);
    let n = Narrow::<KIND>::decode_with(want, &opts)
        .unwrap()
        .into_message();
    assert!(!n.unknown_fields.is_empty());
    assert_eq!(n.encode_to_vec().unwrap(), want, "walk kind {KIND}");
    assert_eq!(n.encoded_len(), want.len(), "walk kind {KIND}");
    let mut sink = Pieces::default();
    n.encode_to_sink(&mut sink).unwrap();
    sink.check(want);
}

#[test]
fn every_walk_kind_writes_preserved_records_in_number_order() {
    // A type whose walk is plain or local runs the checked passes when it holds
    // unknown records, which are written among its fields in number order.
    for v in samples().into_iter().skip(1) {
        let want = v.encode_to_vec().unwrap();
        reencodes_with_unknowns::<0>(&want);
        reencodes_with_unknowns::<1>(&want);
        reencodes_with_unknowns::<2>(&want);
    }
}
