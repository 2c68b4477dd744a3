//! Properties (SPEC §10): value → bytes → value, and for arbitrary (and mutated) bytes,
//! decode Ok ⇒ re-encode identical.
mod common;

use std::collections::BTreeMap;

use bijoubuf::Message;
use bijoubuf_testkit::{assert_value_roundtrip, check_arbitrary_bytes};
use common::*;
use proptest::collection::{btree_map, vec};
use proptest::prelude::*;

/// Floats from raw bits: every NaN payload, both zeros, subnormals, infinities.
fn f32_any() -> impl Strategy<Value = f32> {
    prop_oneof![any::<u32>().prop_map(f32::from_bits), Just(0.0), Just(-0.0)]
}

fn f64_any() -> impl Strategy<Value = f64> {
    prop_oneof![any::<u64>().prop_map(f64::from_bits), Just(0.0), Just(-0.0)]
}

/// Mostly small values so defaults and one-byte tiers are common.
fn u64_any() -> impl Strategy<Value = u64> {
    prop_oneof![0u64..4, 240u64..520, any::<u64>()]
}

fn i32_any() -> impl Strategy<Value = i32> {
    prop_oneof![-2i32..3, any::<i32>()]
}

fn i64_any() -> impl Strategy<Value = i64> {
    prop_oneof![-2i64..3, any::<i64>()]
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![Just(String::new()), "[a-c]{0,3}", any::<String>()]
}

fn data() -> impl Strategy<Value = Vec<u8>> {
    vec(any::<u8>(), 0..6)
}

prop_compose! {
    fn scalars()(
        a in (i32_any(), i64_any(), u64_any(), u64_any(), i32_any(), i64_any(), any::<bool>(), i32_any()),
        b in (any::<u32>(), u64_any(), i32_any(), i64_any(), f32_any(), f64_any(), text(), data()),
    ) -> Scalars {
        Scalars {
            i32: a.0, i64: a.1, u32: a.2 as u32, u64: a.3, s32: a.4, s64: a.5, flag: a.6,
            color: a.7, f32: b.0, f64: b.1, sf32: b.2, sf64: b.3, fl: b.4, db: b.5,
            text: b.6, data: b.7, ..Default::default()
        }
    }
}

prop_compose! {
    fn optionals()(
        a in (
            proptest::option::of(i32_any()), proptest::option::of(i64_any()),
            proptest::option::of(any::<u32>()), proptest::option::of(u64_any()),
            proptest::option::of(i32_any()), proptest::option::of(i64_any()),
            proptest::option::of(any::<bool>()), proptest::option::of(i32_any()),
        ),
        b in (
            proptest::option::of(any::<u32>()), proptest::option::of(u64_any()),
            proptest::option::of(i32_any()), proptest::option::of(i64_any()),
            proptest::option::of(f32_any()), proptest::option::of(f64_any()),
            proptest::option::of(text()), proptest::option::of(data()),
        ),
        child in proptest::option::of(scalars()),
    ) -> Optionals {
        Optionals {
            i32: a.0, i64: a.1, u32: a.2, u64: a.3, s32: a.4, s64: a.5, flag: a.6, color: a.7,
            f32: b.0, f64: b.1, sf32: b.2, sf64: b.3, fl: b.4, db: b.5, text: b.6, data: b.7,
            child, ..Default::default()
        }
    }
}

prop_compose! {
    fn repeats()(
        a in (
            vec(i32_any(), 0..3), vec(i64_any(), 0..3), vec(any::<u32>(), 0..3),
            vec(u64_any(), 0..3), vec(i32_any(), 0..3), vec(i64_any(), 0..3),
            vec(any::<bool>(), 0..3), vec(i32_any(), 0..3),
        ),
        b in (
            vec(any::<u32>(), 0..3), vec(any::<u64>(), 0..3), vec(any::<i32>(), 0..3),
            vec(any::<i64>(), 0..3), vec(f32_any(), 0..3), vec(f64_any(), 0..3),
            vec(text(), 0..3), vec(data(), 0..3),
        ),
        msgs in vec(scalars(), 0..3),
    ) -> Repeats {
        Repeats {
            i32: a.0, i64: a.1, u32: a.2, u64: a.3, s32: a.4, s64: a.5, flag: a.6, color: a.7,
            f32: b.0, f64: b.1, sf32: b.2, sf64: b.3, fl: b.4, db: b.5, text: b.6, data: b.7,
            msgs, ..Default::default()
        }
    }
}

prop_compose! {
    fn maps()(
        a in (
            btree_map(i32_any(), text(), 0..3), btree_map(i64_any(), i64_any(), 0..3),
            btree_map(any::<u32>(), data(), 0..3), btree_map(u64_any(), f64_any(), 0..3),
            btree_map(i32_any(), f32_any(), 0..3), btree_map(i64_any(), any::<bool>(), 0..3),
            btree_map(any::<u32>(), i32_any(), 0..3),
        ),
        b in (
            btree_map(any::<u64>(), any::<u32>(), 0..3), btree_map(any::<i32>(), any::<i64>(), 0..3),
            btree_map(any::<i64>(), any::<u32>(), 0..3), btree_map(any::<bool>(), text(), 0..3),
            btree_map(text(), scalars(), 0..3), btree_map(text(), i32_any(), 0..3),
        ),
    ) -> Maps {
        Maps {
            i32: a.0, i64: a.1, u32: a.2, u64: a.3, s32: a.4, s64: a.5, f32: a.6,
            f64: b.0, sf32: b.1, sf64: b.2, flag: b.3, msgs: b.4, text: b.5,
            ..Default::default()
        }
    }
}

fn tree() -> impl Strategy<Value = Tree> {
    let leaf = i32_any().prop_map(|value| Tree {
        value,
        ..Default::default()
    });
    leaf.prop_recursive(4, 24, 3, |inner| {
        (
            i32_any(),
            proptest::option::of(inner.clone()),
            vec(inner.clone(), 0..3),
            btree_map("[a-c]{0,2}", inner, 0..3),
        )
            .prop_map(|(value, child, children, named)| Tree {
                value,
                child: child.map(Box::new),
                children,
                named: named.into_iter().collect::<BTreeMap<_, _>>(),
                ..Default::default()
            })
    })
}

fn choice() -> impl Strategy<Value = Choice> {
    let kind = proptest::option::of(prop_oneof![
        i32_any().prop_map(Kind::A),
        text().prop_map(Kind::B),
        scalars().prop_map(Kind::M),
    ]);
    (text(), kind, any::<u32>(), f64_any()).prop_map(|(name, kind, mid, after)| Choice {
        name,
        kind,
        mid,
        after,
        ..Default::default()
    })
}

fn req() -> impl Strategy<Value = Req> {
    let leaf = (i32_any(), proptest::option::of(text()), text()).prop_map(|(id, note, name)| Req {
        id,
        note,
        name,
        ..Default::default()
    });
    leaf.prop_recursive(3, 6, 1, |inner| {
        (i32_any(), text(), inner).prop_map(|(id, name, child)| Req {
            id,
            name,
            child: Some(Box::new(child)),
            ..Default::default()
        })
    })
}

fn wider() -> impl Strategy<Value = Wider> {
    let fields = || {
        (
            u64_any(),
            i32_any(),
            text(),
            any::<u32>(),
            u64_any(),
            data(),
            u64_any(),
        )
    };
    let leaf = fields().prop_map(|(x, a, s, f, d, e, g)| Wider {
        x,
        a,
        s,
        f,
        d,
        e,
        g,
        ..Default::default()
    });
    leaf.prop_recursive(3, 6, 1, move |inner| {
        (fields(), proptest::option::of(inner)).prop_map(|((x, a, s, f, d, e, g), child)| Wider {
            x,
            a,
            s,
            f,
            d,
            e,
            g,
            child: child.map(Box::new),
            ..Default::default()
        })
    })
}

/// Apply one mutation: flip a byte, cut the tail, insert a byte, or delete one.
fn mutate(mut bytes: Vec<u8>, op: u8, at: usize, b: u8) -> Vec<u8> {
    if bytes.is_empty() {
        return vec![b];
    }
    let i = at % bytes.len();
    match op % 4 {
        0 => bytes[i] ^= b | 1,
        1 => bytes.truncate(i),
        2 => bytes.insert(i, b),
        _ => {
            bytes.remove(i);
        }
    }
    bytes
}

proptest! {
    #[test]
    fn scalars_values(v in scalars()) { assert_value_roundtrip(&v); }
    #[test]
    fn optionals_values(v in optionals()) { assert_value_roundtrip(&v); }
    #[test]
    fn repeats_values(v in repeats()) { assert_value_roundtrip(&v); }
    #[test]
    fn maps_values(v in maps()) { assert_value_roundtrip(&v); }
    #[test]
    fn tree_values(v in tree()) { assert_value_roundtrip(&v); }
    #[test]
    fn choice_values(v in choice()) { assert_value_roundtrip(&v); }
    #[test]
    fn req_values(v in req()) { assert_value_roundtrip(&v); }
    #[test]
    fn wider_values_survive_an_older_reader(v in wider()) {
        let bytes = assert_value_roundtrip(&v);
        let opts = bijoubuf::DecodeOptions::new()
            .unknown_fields(bijoubuf::UnknownFieldPolicy::Preserve);
        let old = bijoubuf_testkit::assert_canonical_roundtrip_with::<Known>(&bytes, &opts);
        prop_assert_eq!(Wider::decode(&old.message().encode_to_vec().unwrap()).unwrap(), v);
    }

    #[test]
    fn arbitrary_bytes(bytes in vec(any::<u8>(), 0..48)) {
        check_arbitrary_bytes::<Scalars>(&bytes);
        check_arbitrary_bytes::<Optionals>(&bytes);
        check_arbitrary_bytes::<Repeats>(&bytes);
        check_arbitrary_bytes::<Maps>(&bytes);
        check_arbitrary_bytes::<Tree>(&bytes);
        check_arbitrary_bytes::<Choice>(&bytes);
        check_arbitrary_bytes::<Req>(&bytes);
        check_arbitrary_bytes::<Known>(&bytes);
        check_arbitrary_bytes::<Wider>(&bytes);
    }

    #[test]
    fn mutated_encodings(
        r in repeats(), m in maps(), t in tree(), c in choice(),
        op in any::<u8>(), at in any::<usize>(), b in any::<u8>(),
    ) {
        check_arbitrary_bytes::<Repeats>(&mutate(r.encode_to_vec().unwrap(), op, at, b));
        check_arbitrary_bytes::<Maps>(&mutate(m.encode_to_vec().unwrap(), op, at, b));
        check_arbitrary_bytes::<Tree>(&mutate(t.encode_to_vec().unwrap(), op, at, b));
        check_arbitrary_bytes::<Choice>(&mutate(c.encode_to_vec().unwrap(), op, at, b));
    }
}
