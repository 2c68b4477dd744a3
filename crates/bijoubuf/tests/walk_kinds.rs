//! The three ways a message's one field walk is run (`WalkKind`: the checked passes,
//! the plain passes generated code uses, and the write pass through a register copy of
//! the writer) write the same bytes for every field shape, with and without nesting,
//! and `encoded_len`, `encode_to_sink` and the strict decoder agree with them.
use std::collections::BTreeMap;

use bijoubuf::__private::{
    BoxMsg, Fixed32, Int32, Int64, Of, Pass, Reader, Str, UInt32, UInt64, WalkKind,
};
use bijoubuf::{DecodeError, Message, UnknownFields};

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
    const FIELD_NUMBERS: &'static [u32] = &[1, 2, 3, 4, 5, 6, 7, 8, 70];
    const __WALK: WalkKind = match KIND {
        0 => WalkKind::Checked,
        1 => WalkKind::Plain,
        _ => WalkKind::Local,
    };

    fn unknown_fields(&self) -> &UnknownFields {
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

    fn __decode(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
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
    let mut sink = Vec::new();
    v.encode_to_sink(&mut sink).unwrap();
    assert_eq!(sink, want, "walk kind {KIND} through a sink");
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
