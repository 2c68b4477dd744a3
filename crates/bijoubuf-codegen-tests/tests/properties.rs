//! Properties over generated types, with hand-written proptest strategies:
//! `decode(encode(v)) == v` with an exact `encoded_len`, and for arbitrary bytes,
//! `decode(b) == Ok(v)` implies `encode(v) == b`.

use std::collections::BTreeMap;

use bijoubuf_codegen_tests::kitchen::{
    Choice, Maps, Optionals, Repeats, Scalars, Tree, choice, tree,
};
use bijoubuf_codegen_tests::legacy::{Record, record};
use bijoubuf_testkit::{assert_value_roundtrip, check_arbitrary_bytes};
use proptest::collection::{btree_map, vec};
use proptest::prelude::*;

/// Floats biased towards the values with special encodings.
fn f32s() -> impl Strategy<Value = f32> {
    prop_oneof![
        Just(0.0f32),
        Just(-0.0),
        Just(f32::NAN),
        Just(f32::INFINITY),
        any::<f32>()
    ]
}

fn f64s() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(0.0f64),
        Just(-0.0),
        Just(f64::NAN),
        Just(f64::NEG_INFINITY),
        any::<f64>()
    ]
}

/// Enum numbers: named ones, unnamed ones, the extremes.
fn colors() -> impl Strategy<Value = i32> {
    prop_oneof![-1..=2i32, Just(i32::MIN), Just(i32::MAX), any::<i32>()]
}

fn scalars() -> impl Strategy<Value = Scalars> {
    (
        (
            any::<i32>(),
            any::<i64>(),
            any::<u32>(),
            any::<u64>(),
            any::<i32>(),
            any::<i64>(),
        ),
        (
            any::<bool>(),
            colors(),
            any::<u32>(),
            any::<u64>(),
            any::<i32>(),
            any::<i64>(),
        ),
        (f32s(), f64s(), ".{0,8}", vec(any::<u8>(), 0..8)),
    )
        .prop_map(
            |(
                (i32, i64, u32, u64, s32, s64),
                (flag, color, f32, f64, sf32, sf64),
                (fl, db, text, data),
            )| {
                Scalars {
                    i32,
                    i64,
                    u32,
                    u64,
                    s32,
                    s64,
                    flag,
                    color,
                    f32,
                    f64,
                    sf32,
                    sf64,
                    fl,
                    db,
                    text,
                    data,
                }
            },
        )
}

fn optionals() -> impl Strategy<Value = Optionals> {
    (
        (
            any::<Option<i32>>(),
            any::<Option<i64>>(),
            any::<Option<u32>>(),
            any::<Option<u64>>(),
        ),
        (
            any::<Option<i32>>(),
            any::<Option<i64>>(),
            any::<Option<bool>>(),
            proptest::option::of(colors()),
        ),
        (
            any::<Option<u32>>(),
            any::<Option<u64>>(),
            any::<Option<i32>>(),
            any::<Option<i64>>(),
        ),
        (
            proptest::option::of(f32s()),
            proptest::option::of(f64s()),
            proptest::option::of(".{0,4}"),
        ),
        (
            proptest::option::of(vec(any::<u8>(), 0..4)),
            proptest::option::of(scalars()),
        ),
    )
        .prop_map(
            |(
                (i32, i64, u32, u64),
                (s32, s64, flag, color),
                (f32, f64, sf32, sf64),
                (fl, db, text),
                (data, child),
            )| {
                Optionals {
                    i32,
                    i64,
                    u32,
                    u64,
                    s32,
                    s64,
                    flag,
                    color,
                    f32,
                    f64,
                    sf32,
                    sf64,
                    fl,
                    db,
                    text,
                    data,
                    child,
                }
            },
        )
}

fn repeats() -> impl Strategy<Value = Repeats> {
    (
        (
            vec(any::<i32>(), 0..4),
            vec(any::<i64>(), 0..4),
            vec(any::<u32>(), 0..4),
            vec(any::<u64>(), 0..4),
        ),
        (
            vec(any::<i32>(), 0..4),
            vec(any::<i64>(), 0..4),
            vec(any::<bool>(), 0..4),
            vec(colors(), 0..4),
        ),
        (
            vec(any::<u32>(), 0..4),
            vec(any::<u64>(), 0..4),
            vec(any::<i32>(), 0..4),
            vec(any::<i64>(), 0..4),
        ),
        (
            vec(f32s(), 0..4),
            vec(f64s(), 0..4),
            vec(".{0,4}", 0..3),
            vec(vec(any::<u8>(), 0..3), 0..3),
        ),
        vec(scalars(), 0..3),
    )
        .prop_map(
            |(
                (i32, i64, u32, u64),
                (s32, s64, flag, color),
                (f32, f64, sf32, sf64),
                (fl, db, text, data),
                msgs,
            )| {
                Repeats {
                    i32,
                    i64,
                    u32,
                    u64,
                    s32,
                    s64,
                    flag,
                    color,
                    f32,
                    f64,
                    sf32,
                    sf64,
                    fl,
                    db,
                    text,
                    data,
                    msgs,
                }
            },
        )
}

fn maps() -> impl Strategy<Value = Maps> {
    (
        (
            btree_map(any::<i32>(), ".{0,3}", 0..3),
            btree_map(any::<i64>(), any::<i64>(), 0..3),
        ),
        (
            btree_map(any::<u32>(), vec(any::<u8>(), 0..3), 0..3),
            btree_map(any::<u64>(), f64s(), 0..3),
        ),
        (
            btree_map(any::<i32>(), f32s(), 0..3),
            btree_map(any::<i64>(), any::<bool>(), 0..3),
        ),
        (
            btree_map(any::<u32>(), colors(), 0..3),
            btree_map(any::<u64>(), any::<u32>(), 0..3),
        ),
        (
            btree_map(any::<i32>(), any::<i64>(), 0..3),
            btree_map(any::<i64>(), any::<u32>(), 0..3),
        ),
        (
            btree_map(any::<bool>(), ".{0,3}", 0..3),
            btree_map(".{0,3}", scalars(), 0..2),
            btree_map(".{0,3}", any::<i32>(), 0..3),
        ),
    )
        .prop_map(
            |((i32, i64), (u32, u64), (s32, s64), (f32, f64), (sf32, sf64), (flag, msgs, text))| {
                Maps {
                    i32,
                    i64,
                    u32,
                    u64,
                    s32,
                    s64,
                    f32,
                    f64,
                    sf32,
                    sf64,
                    flag,
                    msgs,
                    text,
                }
            },
        )
}

fn choices() -> impl Strategy<Value = Choice> {
    let kind = proptest::option::of(prop_oneof![
        any::<i32>().prop_map(choice::Kind::A),
        ".{0,4}".prop_map(choice::Kind::B),
        scalars().prop_map(choice::Kind::M),
        colors().prop_map(choice::Kind::C),
        vec(any::<u8>(), 0..3).prop_map(choice::Kind::D),
        f64s().prop_map(choice::Kind::E),
        any::<bool>().prop_map(choice::Kind::F),
        any::<i64>().prop_map(choice::Kind::G),
        any::<u32>().prop_map(choice::Kind::H),
    ]);
    (".{0,4}", kind, any::<u32>(), f64s()).prop_map(|(name, kind, mid, after)| Choice {
        name,
        kind,
        mid,
        after,
        ..Choice::default()
    })
}

fn trees() -> impl Strategy<Value = Tree> {
    let leaf = any::<i32>().prop_map(|value| Tree {
        value,
        ..Tree::default()
    });
    leaf.prop_recursive(4, 24, 3, |inner| {
        (
            any::<i32>(),
            proptest::option::of(inner.clone()),
            vec(inner.clone(), 0..3),
            btree_map(".{0,3}", inner.clone(), 0..2),
            proptest::option::of(prop_oneof![
                inner.clone().prop_map(|t| tree::Link::Next(Box::new(t))),
                (".{0,3}", proptest::option::of(inner), 0..3i32).prop_map(
                    |(label, back, shade)| {
                        tree::Link::Leaf(Box::new(tree::Leaf {
                            label,
                            back: back.map(Box::new),
                            shade,
                            ..tree::Leaf::default()
                        }))
                    }
                ),
            ]),
        )
            .prop_map(|(value, child, children, named, link)| Tree {
                value,
                child: child.map(Box::new),
                children,
                named,
                link,
                ..Tree::default()
            })
    })
}

fn records() -> impl Strategy<Value = Record> {
    (
        (
            any::<i32>(),
            proptest::option::of(".{0,3}"),
            ".{0,3}",
            any::<Option<i64>>(),
        ),
        (
            proptest::option::of(prop_oneof![Just(1), Just(5), Just(10), any::<i32>()]),
            proptest::option::of(f64s()),
        ),
        (
            any::<Option<bool>>(),
            proptest::option::of(vec(any::<u8>(), 0..3)),
            vec(any::<u32>(), 0..3),
            any::<u64>(),
        ),
    )
        .prop_map(
            |((id, note, name, count), (level, ratio), (enabled, magic, tags, token))| Record {
                id,
                note,
                name,
                child: None,
                count,
                level,
                ratio,
                enabled,
                magic,
                tags,
                plain_level: None,
                inner: record::Inner {
                    token,
                    ..record::Inner::default()
                },
                ..Record::default()
            },
        )
}

proptest! {
    #[test]
    fn scalars_round_trip(v in scalars()) { assert_value_roundtrip(&v); }

    #[test]
    fn optionals_round_trip(v in optionals()) { assert_value_roundtrip(&v); }

    #[test]
    fn repeats_round_trip(v in repeats()) { assert_value_roundtrip(&v); }

    #[test]
    fn maps_round_trip(v in maps()) { assert_value_roundtrip(&v); }

    #[test]
    fn choices_round_trip(v in choices()) { assert_value_roundtrip(&v); }

    #[test]
    fn trees_round_trip(v in trees()) { assert_value_roundtrip(&v); }

    #[test]
    fn records_round_trip(v in records()) { assert_value_roundtrip(&v); }

    #[test]
    fn arbitrary_bytes_decode_only_canonically(bytes in vec(any::<u8>(), 0..48)) {
        check_arbitrary_bytes::<Scalars>(&bytes);
        check_arbitrary_bytes::<Optionals>(&bytes);
        check_arbitrary_bytes::<Repeats>(&bytes);
        check_arbitrary_bytes::<Maps>(&bytes);
        check_arbitrary_bytes::<Choice>(&bytes);
        check_arbitrary_bytes::<Tree>(&bytes);
        check_arbitrary_bytes::<Record>(&bytes);
    }

    #[test]
    fn mutated_encodings_decode_only_canonically(v in trees(), at in any::<prop::sample::Index>(), byte in any::<u8>()) {
        // Random bytes rarely decode; a one-byte mutation of a valid encoding often does.
        let mut bytes = bijoubuf::Message::encode_to_vec(&v).unwrap();
        if !bytes.is_empty() {
            let i = at.index(bytes.len());
            bytes[i] = byte;
        }
        check_arbitrary_bytes::<Tree>(&bytes);
    }
}

#[test]
fn map_with_several_string_keys_round_trips() {
    // Entries are written in key order (SPEC §6.4); a fixed case beside the random ones.
    let m = Maps {
        text: BTreeMap::from([("a".into(), 1), ("b".into(), 2)]),
        ..Maps::default()
    };
    // text = 13 (key 32), 6 bytes of entries: "a" (01 61) → zigzag 1 (02), "b" → 2 (04).
    let bytes = assert_value_roundtrip(&m);
    assert_eq!(bytes, [0x32, 0x06, 0x01, b'a', 0x02, 0x01, b'b', 0x04]);
}
