//! Generated types encode to the bytes the SPEC gives and decode back: every field kind
//! × presence, repeated, maps, oneofs, recursion, enums (negative and unnamed numbers),
//! preserved unknown fields.

use std::collections::BTreeMap;

use bijoubuf::{DecodeOptions, Message, UnknownFieldPolicy};
use bijoubuf_codegen_tests::kitchen::{
    self, Choice, Color, Empty, Maps, Optionals, Repeats, Scalars, Tree, choice, tree,
};
use bijoubuf_testkit::{
    assert_canonical_roundtrip, assert_canonical_roundtrip_with, assert_value_roundtrip,
};

fn full_scalars() -> Scalars {
    Scalars {
        i32: -5,
        i64: i64::MIN,
        u32: u32::MAX,
        u64: 300,
        s32: i32::MIN,
        s64: -1,
        flag: true,
        color: Color::Infrared.into(),
        f32: 7,
        f64: u64::MAX,
        sf32: -2,
        sf64: 9,
        fl: -0.0,
        db: f64::NAN,
        text: "héllo".into(),
        data: vec![0, 255],
    }
}

#[test]
fn hand_derived_bytes() {
    // i32 = -2: key 00, zigzag 3; text (15) after field 1: delta 13, (13 << 2) | LEN = 36.
    let v = Scalars {
        i32: -2,
        text: "a".into(),
        ..Scalars::default()
    };
    assert_eq!(v.encode_to_vec().unwrap(), [0x00, 0x03, 0x36, 0x01, b'a']);
    assert_eq!(v.encoded_len(), 5);
    // Defaults are omitted: the empty message is empty.
    assert!(Scalars::default().encode_to_vec().unwrap().is_empty());
    assert!(Empty::default().encode_to_vec().unwrap().is_empty());
    // Explicit presence writes the default: optional int32 = 0 is key 00, value 00.
    let o = Optionals {
        i32: Some(0),
        ..Optionals::default()
    };
    assert_eq!(o.encode_to_vec().unwrap(), [0x00, 0x00]);
    // A negative enum number is zigzag-encoded: -1 → 1; color is field 8 (key 1C).
    let c = Scalars {
        color: Color::Infrared as i32,
        ..Scalars::default()
    };
    assert_eq!(c.encode_to_vec().unwrap(), [0x1C, 0x01]);
    // Any NaN is written as the canonical one (db = 14, key 35).
    let n = Scalars {
        db: f64::from_bits(0x7FF0_0000_0000_0001),
        ..Scalars::default()
    };
    assert_eq!(
        n.encode_to_vec().unwrap(),
        [0x35, 0x7F, 0xF8, 0, 0, 0, 0, 0, 0]
    );
}

#[test]
fn every_kind_round_trips() {
    assert_value_roundtrip(&full_scalars());
    let o = Optionals {
        i32: Some(0),
        i64: Some(1),
        u32: Some(0),
        u64: Some(u64::MAX),
        s32: Some(-1),
        s64: Some(0),
        flag: Some(false),
        color: Some(0),
        f32: Some(0),
        f64: Some(1),
        sf32: Some(0),
        sf64: Some(-1),
        fl: Some(0.0),
        db: Some(-0.0),
        text: Some(String::new()),
        data: Some(Vec::new()),
        child: Some(full_scalars()),
    };
    assert_value_roundtrip(&o);
    let r = Repeats {
        i32: vec![0, -1, i32::MAX],
        i64: vec![i64::MIN],
        u32: vec![0, 0],
        u64: vec![1 << 40],
        s32: vec![-3],
        s64: vec![3],
        flag: vec![true, false],
        color: vec![1, 2, -1, 77],
        f32: vec![1, 2, 3],
        f64: vec![4],
        sf32: vec![-4],
        sf64: vec![-5, 5],
        fl: vec![1.5, f32::NAN, -0.0],
        db: vec![0.0],
        text: vec![String::new(), "x".into()],
        data: vec![vec![], vec![1]],
        msgs: vec![Scalars::default(), full_scalars()],
    };
    assert_value_roundtrip(&r);
    let m = Maps {
        i32: BTreeMap::from([(-1, "a".into()), (0, String::new())]),
        i64: BTreeMap::from([(i64::MIN, 0), (i64::MAX, -1)]),
        u32: BTreeMap::from([(0, vec![]), (u32::MAX, vec![1])]),
        u64: BTreeMap::from([(7, 0.5)]),
        s32: BTreeMap::from([(3, -0.0)]),
        s64: BTreeMap::from([(-3, false)]),
        f32: BTreeMap::from([(1, Color::Red.into())]),
        f64: BTreeMap::from([(2, 0)]),
        sf32: BTreeMap::from([(-9, 9)]),
        sf64: BTreeMap::from([(9, 0)]),
        flag: BTreeMap::from([(false, "f".into()), (true, "t".into())]),
        msgs: BTreeMap::from([
            (String::new(), Scalars::default()),
            ("k".into(), full_scalars()),
        ]),
        text: BTreeMap::from([("a".into(), 1), ("b".into(), 0)]),
    };
    assert_value_roundtrip(&m);
}

#[test]
fn oneof_members_each_round_trip_in_number_order() {
    for kind in [
        choice::Kind::A(0),
        choice::Kind::B("b".into()),
        choice::Kind::M(full_scalars()),
        choice::Kind::C(Color::Green.into()),
        choice::Kind::D(Vec::new()),
        choice::Kind::E(-0.0),
        choice::Kind::F(false),
        choice::Kind::G(i64::MIN),
        choice::Kind::H(0),
    ] {
        let v = Choice {
            name: "n".into(),
            kind: Some(kind),
            mid: 4,
            after: 1.0,
            ..Choice::default()
        };
        assert_value_roundtrip(&v);
    }
    // Member b (4) is written after the plain field mid (3): name = 1 (key 02),
    // mid = 3 (delta 1: key 04), b = 4 (delta 0: key 02).
    let v = Choice {
        name: "n".into(),
        kind: Some(choice::Kind::B("x".into())),
        mid: 1,
        ..Choice::default()
    };
    assert_eq!(
        v.encode_to_vec().unwrap(),
        [0x02, 0x01, b'n', 0x04, 0x01, 0x02, 0x01, b'x']
    );
    // A oneof member holding its default is still written (explicit presence).
    let z = Choice {
        kind: Some(choice::Kind::A(0)),
        ..Choice::default()
    };
    assert_eq!(z.encode_to_vec().unwrap(), [0x04, 0x00]);
}

#[test]
fn recursion_is_boxed_and_round_trips() {
    // Tree -> Leaf -> Tree through singular fields: both edges are boxed. Leaf is
    // nested in Tree, so `preserve_unknown_fields(".kitchen.Tree")` covers it too.
    let leaf = tree::Leaf {
        label: "l".into(),
        back: Some(Box::new(Tree {
            value: 3,
            ..Tree::default()
        })),
        shade: tree::Shade::Dark.into(),
        ..tree::Leaf::default()
    };
    let t = Tree {
        value: 1,
        child: Some(Box::new(Tree {
            value: 2,
            ..Tree::default()
        })),
        children: vec![
            Tree::default(),
            Tree {
                value: -1,
                ..Tree::default()
            },
        ],
        named: BTreeMap::from([(
            "x".into(),
            Tree {
                link: Some(tree::Link::Leaf(Box::new(leaf.clone()))),
                ..Tree::default()
            },
        )]),
        link: Some(tree::Link::Next(Box::new(Tree {
            value: 9,
            ..Tree::default()
        }))),
        ..Tree::default()
    };
    assert_value_roundtrip(&t);
    assert_value_roundtrip(&Tree {
        link: Some(tree::Link::Leaf(Box::new(leaf))),
        ..Tree::default()
    });
}

#[test]
fn enums_are_open_and_typed_on_request() {
    assert_eq!(Color::try_from(-1), Ok(Color::Infrared));
    assert_eq!(Color::try_from(42), Err(42));
    assert_eq!(i32::from(Color::Green), 2);
    assert_eq!(Color::Red.as_str_name(), "COLOR_RED");
    assert_eq!(Color::from_str_name("COLOR_GREEN"), Some(Color::Green));
    assert_eq!(Color::default(), Color::Unspecified);
    // A number the schema does not name decodes, is kept, and re-encodes (SPEC §3.6).
    let s = assert_canonical_roundtrip::<Scalars>(&[0x1C, 0x54]);
    assert_eq!((s.color, s.color()), (42, None));
    let s = Scalars {
        color: Color::Red.into(),
        ..Scalars::default()
    };
    assert_eq!(s.color(), Some(Color::Red));
    // Optional enum: absent reads as the default value.
    assert_eq!(Optionals::default().color(), Some(Color::Unspecified));
}

#[test]
fn preserved_unknown_fields_round_trip_byte_for_byte() {
    let preserve = DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve);
    // Tree { value: 1 } (known numbers 1..=6) with unknown 9 (VARINT 5, key 1C) and
    // 20 (LEN "zz", delta 10: key 2A) after it.
    let bytes = [0x00, 0x02, 0x1C, 0x05, 0x2A, 0x02, b'z', b'z'];
    let d = assert_canonical_roundtrip_with::<Tree>(&bytes, &preserve);
    assert!(d.has_unknown_fields());
    assert_eq!(d.message().unknown_fields.len(), 2);
    // Clearing them drops the records.
    let mut t = d.into_message();
    t.unknown_fields.clear();
    assert_eq!(t.encode_to_vec().unwrap(), [0x00, 0x02]);
    // Choice preserves too: unknown 20 (delta 18, key 48) after name.
    let bytes = [0x02, 0x01, b'n', 0x48, 0x01];
    assert_canonical_roundtrip_with::<Choice>(&bytes, &preserve);
}

#[test]
fn float_free_types_derive_eq_and_hash() {
    // Compiles only if the derives are there; Scalars, Choice and Maps hold floats and
    // derive neither (see the snapshot).
    fn eq_hash<T: Eq + std::hash::Hash>(_: &T) {}
    eq_hash(&Tree::default());
    eq_hash(&tree::Leaf::default());
    eq_hash(&Empty::default());
    eq_hash(&kitchen::Tree::default().link);
    let mut set = std::collections::HashSet::new();
    assert!(set.insert(Tree {
        value: 1,
        ..Tree::default()
    }));
    assert!(!set.insert(Tree {
        value: 1,
        ..Tree::default()
    }));
}
