//! Borrowed twins (`FooRef<'a>`): the same decoder as the owned types (same values, same
//! errors), the same bytes on encode, conversions both ways, and decoding that allocates
//! nothing for a message without repeated or map fields (a counting global allocator
//! measures it).

use std::collections::BTreeMap;

use bijoubuf::{DecodeOptions, Message, MessageRef, UnknownFieldPolicy};
use bijoubuf_codegen_tests::kitchen::{
    Choice, ChoiceRef, Color, Maps, MapsRef, Optionals, OptionalsRef, Repeats, RepeatsRef, Scalars,
    ScalarsRef, Tree, TreeRef, choice, tree,
};

mod counting;

use counting::allocations;

#[global_allocator]
static GLOBAL: counting::Counting = counting::Counting;

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
        db: 1.5,
        text: "héllo".into(),
        data: vec![0, 255],
    }
}

fn full_optionals() -> Optionals {
    Optionals {
        i32: Some(0),
        u64: Some(u64::MAX),
        flag: Some(false),
        color: Some(2),
        fl: Some(-1.5),
        text: Some(String::new()),
        data: Some(vec![1, 2, 3]),
        child: Some(full_scalars()),
        ..Optionals::default()
    }
}

fn full_repeats() -> Repeats {
    Repeats {
        i32: vec![-1, 0, 1],
        // Varint runs reserve one slot per byte of the run; values of two bytes or
        // less on average keep that one allocation (see the test below).
        u64: vec![1, 300, 7],
        flag: vec![true, false],
        f64: vec![1, 2],
        db: vec![0.5, -0.0],
        text: vec!["a".into(), String::new(), "ü".into()],
        data: vec![vec![], vec![9]],
        msgs: vec![full_scalars(), Scalars::default()],
        ..Repeats::default()
    }
}

fn full_maps() -> Maps {
    Maps {
        i32: BTreeMap::from([(-1, "x".into()), (3, String::new())]),
        u32: BTreeMap::from([(1, vec![7])]),
        flag: BTreeMap::from([(false, "f".into()), (true, "t".into())]),
        msgs: BTreeMap::from([("k".into(), full_scalars())]),
        text: BTreeMap::from([(String::new(), 0), ("z".into(), -4)]),
        ..Maps::default()
    }
}

fn full_tree() -> Tree {
    Tree {
        value: 1,
        child: Some(Box::new(Tree {
            value: 2,
            ..Tree::default()
        })),
        children: vec![Tree::default()],
        named: BTreeMap::from([("n".into(), Tree::default())]),
        link: Some(tree::Link::Leaf(Box::new(tree::Leaf {
            label: "leaf".into(),
            back: None,
            shade: 1,
            ..tree::Leaf::default()
        }))),
        ..Tree::default()
    }
}

#[test]
fn borrowed_values_encode_like_their_owned_twins() {
    fn check<'a, M>(owned: &'a M::Owned, twin: M, bytes: &'a [u8])
    where
        M: MessageRef<'a> + PartialEq + std::fmt::Debug,
        M::Owned: PartialEq + std::fmt::Debug + for<'b> From<&'b M>,
    {
        assert_eq!(twin.encode_to_vec().unwrap(), bytes);
        assert_eq!(twin.encoded_len(), bytes.len());
        let decoded = M::decode(bytes).unwrap();
        assert_eq!(decoded, twin);
        assert_eq!(&M::Owned::from(&decoded), owned);
    }
    let o = full_optionals();
    let b = o.encode_to_vec().unwrap();
    check::<OptionalsRef<'_>>(&o, o.borrowed(), &b);
    let r = full_repeats();
    let b = r.encode_to_vec().unwrap();
    check::<RepeatsRef<'_>>(&r, RepeatsRef::from(&r), &b);
    let m = full_maps();
    let b = m.encode_to_vec().unwrap();
    check::<MapsRef<'_>>(&m, m.borrowed(), &b);
    let t = full_tree();
    let b = t.encode_to_vec().unwrap();
    check::<TreeRef<'_>>(&t, t.borrowed(), &b);
    for kind in [
        choice::Kind::B("bee".into()),
        choice::Kind::M(full_scalars()),
        choice::Kind::D(vec![4]),
        choice::Kind::A(0),
    ] {
        let c = Choice {
            name: "n".into(),
            kind: Some(kind),
            mid: 3,
            after: 0.25,
            ..Choice::default()
        };
        let b = c.encode_to_vec().unwrap();
        check::<ChoiceRef<'_>>(&c, c.borrowed(), &b);
    }
}

#[test]
fn borrowed_fields_point_into_the_input() {
    let o = full_optionals();
    let bytes = o.encode_to_vec().unwrap();
    let twin = OptionalsRef::decode(&bytes).unwrap();
    let range = bytes.as_ptr_range();
    let child = twin.child.as_ref().unwrap();
    for s in [child.text.as_bytes(), child.data, twin.data.unwrap()] {
        assert!(
            range.contains(&s.as_ptr()),
            "{s:?} is not a slice of the input"
        );
    }
    assert_eq!(child.text, "héllo");
    assert_eq!(twin.to_owned(), o);
    assert_eq!(Optionals::from(twin), o);
}

#[test]
fn a_message_without_repeated_or_map_fields_decodes_without_allocating() {
    let o = full_optionals();
    let bytes = o.encode_to_vec().unwrap();
    let (n, twin) = allocations(|| OptionalsRef::decode(&bytes));
    assert_eq!(n, 0, "borrowed decode allocated");
    assert_eq!(twin.unwrap().to_owned(), o);
    // The owned type allocates for its strings and bytes: the count sees allocations.
    let (owned_n, _) = allocations(|| Optionals::decode(&bytes));
    assert!(owned_n >= 3, "owned decode made {owned_n} allocations");

    let s = full_scalars();
    let bytes = s.encode_to_vec().unwrap();
    let (n, twin) = allocations(|| ScalarsRef::decode(&bytes));
    assert_eq!((n, twin.unwrap().to_owned()), (0, s));

    let c = Choice {
        name: "n".into(),
        kind: Some(choice::Kind::M(full_scalars())),
        mid: 3,
        after: 0.25,
        ..Choice::default()
    };
    let bytes = c.encode_to_vec().unwrap();
    let (n, twin) = allocations(|| ChoiceRef::decode(&bytes));
    assert_eq!((n, twin.unwrap().to_owned()), (0, c));
}

#[test]
fn repeated_and_map_fields_allocate_once_per_field() {
    let r = full_repeats();
    let bytes = r.encode_to_vec().unwrap();
    let (n, twin) = allocations(|| RepeatsRef::decode(&bytes));
    // Eight repeated fields are set; their message elements borrow too. Two are
    // fixed-width runs (`f64`, `db`), read in place.
    assert_eq!(twin.unwrap().to_owned(), r);
    assert_eq!(
        n, 6,
        "{n} allocations for 6 repeated fields and 2 fixed-width runs"
    );

    // The one exception: a varint run whose values average more than two bytes gives
    // its excess slots back (the runtime reserves one slot per byte of the run rather
    // than counting the elements first), one reallocation more.
    let long = Repeats {
        u64: vec![u64::MAX, 1 << 40],
        ..Repeats::default()
    };
    let bytes = long.encode_to_vec().unwrap();
    let (n, twin) = allocations(|| RepeatsRef::decode(&bytes));
    assert_eq!(twin.unwrap().to_owned(), long);
    assert!(n <= 2, "{n} allocations for one long-valued varint run");

    // A twin's map is one vector of entries.
    let m = full_maps();
    let bytes = m.encode_to_vec().unwrap();
    let (n, twin) = allocations(|| MapsRef::decode(&bytes));
    assert_eq!(twin.unwrap().to_owned(), m);
    assert!(n <= 5, "{n} allocations for 5 map fields");

    // However many entries it has: no tree nodes, no staging vector.
    let big = Maps {
        i32: (0..300).map(|i| (i * 7 - 1000, format!("v{i}"))).collect(),
        ..Maps::default()
    };
    let bytes = big.encode_to_vec().unwrap();
    let (n, twin) = allocations(|| MapsRef::decode(&bytes));
    let twin = twin.unwrap();
    assert_eq!(n, 1, "{n} allocations for one map of 300 entries");
    assert_eq!(twin.i32.len(), 300);
    assert_eq!(twin.i32.get(&(7 * 150 - 1000)), Some(&"v150"));
    assert_eq!(twin.i32.get(&2), None);
    assert_eq!(twin.to_owned(), big);
}

#[test]
fn a_twin_decoded_into_keeps_its_vectors() {
    // Twins read into themselves as owned types do (their nested twins in vectors and
    // options are read where they lie): a second decode of input no larger than the
    // first reuses every vector, so it allocates nothing, and gives what `decode` gives.
    let r = full_repeats();
    let bytes = r.encode_to_vec().unwrap();
    let mut twin = RepeatsRef::decode(&bytes).unwrap();
    let small = Repeats {
        i32: vec![4],
        text: vec!["b".into()],
        msgs: vec![Scalars::default()],
        ..Repeats::default()
    };
    let small_bytes = small.encode_to_vec().unwrap();
    let (n, res) = allocations(|| twin.decode_into(&small_bytes));
    res.unwrap();
    assert_eq!(n, 0, "{n} allocations decoding into a twin with room");
    assert_eq!(twin, RepeatsRef::decode(&small_bytes).unwrap());
    assert_eq!(twin.to_owned(), small);

    // A refused input leaves some valid value; the next decode gives `decode`'s.
    assert!(twin.decode_into(&bytes[..bytes.len() - 1]).is_err());
    twin.decode_into(&bytes).unwrap();
    assert_eq!(twin.to_owned(), r);
}

/// Owned and borrowed decodes of `bytes` agree: both accept the same value (compared
/// through the owned conversion) or both refuse with the same code, offset and path.
fn agree<'a, M>(bytes: &'a [u8], opts: &DecodeOptions)
where
    M: MessageRef<'a> + std::fmt::Debug,
    M::Owned: std::fmt::Debug + for<'b> From<&'b M>,
{
    let owned = M::Owned::decode_with(bytes, opts);
    let twin = M::decode_with(bytes, opts);
    match (owned, twin) {
        (Ok(o), Ok(t)) => {
            // Compared by encoding: a NaN value is not equal to itself.
            assert_eq!(t.unknown_field_count(), o.unknown_field_count());
            let a = o.message().encode_to_vec().unwrap();
            assert_eq!(t.message().encode_to_vec().unwrap(), a);
            assert_eq!(M::Owned::from(t.message()).encode_to_vec().unwrap(), a);
        }
        (Err(o), Err(t)) => {
            assert_eq!(
                (o.kind(), o.offset(), o.path_string()),
                (t.kind(), t.offset(), t.path_string()),
                "{bytes:02x?}"
            );
        }
        (o, t) => panic!("owned {o:?} but borrowed {t:?} for {bytes:02x?}"),
    }
}

fn fixed_repeats() -> Repeats {
    Repeats {
        f32: vec![0, u32::MAX, 7],
        f64: vec![1 << 40, 2],
        sf32: vec![-1, i32::MIN],
        sf64: vec![i64::MAX],
        fl: vec![1.5, f32::NAN, -0.0, f32::INFINITY],
        db: vec![0.5, -0.0, f64::NAN],
        ..Repeats::default()
    }
}

/// Where a decoded run's bytes start, or `None` for a run made from values.
fn wire_start<T: bijoubuf::FixedWidth>(run: &bijoubuf::FixedRun<'_, T>) -> Option<*const u8> {
    run.__parts().ok().map(|b| b.as_ptr())
}

#[test]
fn fixed_width_runs_are_read_in_place() {
    let r = fixed_repeats();
    let bytes = r.encode_to_vec().unwrap();
    let (n, twin) = allocations(|| RepeatsRef::decode(&bytes));
    assert_eq!(n, 0, "{n} allocations for six fixed-width runs");
    let twin = twin.unwrap();
    let range = bytes.as_ptr_range();
    for p in [
        wire_start(&twin.f32),
        wire_start(&twin.f64),
        wire_start(&twin.sf32),
        wire_start(&twin.sf64),
        wire_start(&twin.fl),
        wire_start(&twin.db),
    ] {
        assert!(range.contains(&p.expect("a decoded run views the input")));
    }
    assert_eq!(twin.f32.to_vec(), r.f32);
    assert_eq!(twin.sf32.get(1), Some(i32::MIN));
    assert_eq!(twin.sf64.iter().collect::<Vec<_>>(), r.sf64);
    assert!(twin.db.get(2).unwrap().is_nan());
    // The bytes go back as they came, and a twin lent from the owned value (a view of
    // its vectors) writes the same.
    assert_eq!(twin.encode_to_vec().unwrap(), bytes);
    assert_eq!(r.borrowed().encode_to_vec().unwrap(), bytes);
    assert!(r.borrowed().db.__parts().is_err());
    assert_eq!(
        twin.to_owned().encode_to_vec().unwrap(),
        bytes,
        "the owned conversion holds the same values"
    );
    // Lengths and sizes agree whichever way the runs are held.
    assert_eq!(twin.encoded_len(), bytes.len());
    assert_eq!(r.borrowed().encoded_len(), bytes.len());
}

#[test]
fn a_fixed_width_run_is_refused_as_the_owned_decoder_refuses_it() {
    // A NaN other than the one (SPEC §3.5) in the middle of a `double` run, and a run
    // whose length is not a whole number of elements (SPEC §6.2).
    let r = Repeats {
        db: vec![1.0, f64::NAN, 2.0],
        ..Repeats::default()
    };
    let good = r.encode_to_vec().unwrap();
    let nan = good
        .windows(8)
        .position(|w| w == f64::NAN.to_be_bytes())
        .expect("the canonical NaN is in the run");
    let mut bad = good.clone();
    bad[nan + 7] = 1;
    let owned = Repeats::decode(&bad).unwrap_err();
    let twin = RepeatsRef::decode(&bad).unwrap_err();
    assert_eq!(owned.kind(), bijoubuf::ErrorKind::NonCanonicalNan);
    assert_eq!(
        (twin.kind(), twin.offset(), twin.path_string()),
        (owned.kind(), owned.offset(), owned.path_string())
    );
    assert!(
        owned.path_string().contains("db[1]"),
        "{}",
        owned.path_string()
    );
    // Every byte change of every fixed-width run, judged alike.
    let base = fixed_repeats().encode_to_vec().unwrap();
    for i in 0..base.len() {
        for v in [0x00, 0x01, 0x7F, 0x80, 0xC0, 0xFF] {
            let mut b = base.clone();
            b[i] = v;
            agree::<RepeatsRef<'_>>(&b, &DecodeOptions::new());
        }
    }
}

#[test]
fn every_single_byte_change_is_judged_alike() {
    let strict = DecodeOptions::new();
    let preserve = DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve);
    let inputs: Vec<(&str, Vec<u8>)> = vec![
        ("optionals", full_optionals().encode_to_vec().unwrap()),
        ("repeats", full_repeats().encode_to_vec().unwrap()),
        ("maps", full_maps().encode_to_vec().unwrap()),
        ("tree", full_tree().encode_to_vec().unwrap()),
    ];
    let mut refused = 0;
    for (name, base) in &inputs {
        for i in 0..base.len() {
            for v in [0x00, 0x01, 0x02, 0x05, 0x7F, 0x80, 0xC0, 0xF8, 0xFF] {
                let mut b = base.clone();
                b[i] = v;
                for opts in [&strict, &preserve] {
                    match *name {
                        "optionals" => agree::<OptionalsRef<'_>>(&b, opts),
                        "repeats" => agree::<RepeatsRef<'_>>(&b, opts),
                        "maps" => agree::<MapsRef<'_>>(&b, opts),
                        _ => agree::<TreeRef<'_>>(&b, opts),
                    }
                }
                refused += usize::from(Optionals::decode(&b).is_err());
            }
            // Every truncation too.
            agree::<TreeRef<'_>>(&base[..i], &strict);
        }
    }
    assert!(refused > 0);
}

#[test]
fn unknown_fields_are_kept_by_a_preserving_decode() {
    // Tree keeps unknown fields: field 9 (an unknown VARINT) after `value`.
    let mut bytes = Tree {
        value: 1,
        ..Tree::default()
    }
    .encode_to_vec()
    .unwrap();
    // key delta 7 from field 1 → field 9: (7 << 2) | VARINT = 0x1C, value 5.
    bytes.extend([0x1C, 0x05]);
    let preserve = DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve);
    let d = TreeRef::decode_with(&bytes, &preserve).unwrap();
    assert_eq!(d.unknown_field_count(), 1);
    assert_eq!(d.message().unknown_fields().len(), 1);
    assert_eq!(d.message().encode_to_vec().unwrap(), bytes);
    assert_eq!(d.message().to_owned().encode_to_vec().unwrap(), bytes);
    // Strict: refused like the owned type.
    let e = TreeRef::decode(&bytes).unwrap_err();
    assert_eq!(e.to_string(), Tree::decode(&bytes).unwrap_err().to_string());
    // A type without unknown-field storage refuses them under `Preserve` too.
    let mut s = ScalarsRef::default().encode_to_vec().unwrap();
    s.extend([0x44, 0x01]);
    agree::<ScalarsRef<'_>>(&s, &preserve);
    assert!(ScalarsRef::decode_with(&s, &preserve).is_err());
}

#[test]
fn twin_field_types_borrow() {
    // Compile-time: the field types of the twins.
    let text: &str = "t";
    let data: &[u8] = b"d";
    let s = ScalarsRef {
        text,
        data,
        ..ScalarsRef::default()
    };
    let leaf = tree::LeafRef {
        label: text,
        ..tree::LeafRef::default()
    };
    let t = TreeRef {
        link: Some(tree::LinkRef::Leaf(Box::new(leaf))),
        ..TreeRef::default()
    };
    let c = ChoiceRef {
        kind: Some(choice::KindRef::B(text)),
        ..ChoiceRef::default()
    };
    assert_eq!(s.to_owned().text, "t");
    assert!(t.encoded_len() > 0 && c.encoded_len() > 0);
}

/// Decode, re-encode, frame and read back through the one public API both kinds share.
fn through_any<'a, M: bijoubuf::AnyMessage<'a>>(
    bytes: &'a [u8],
    frame: &'a mut Vec<u8>,
) -> Vec<u8> {
    let m = M::decode(bytes).expect("decodes");
    let again = m.encode_to_vec().expect("encodes");
    assert_eq!(m.encoded_len(), again.len());
    m.encode_length_delimited(frame).expect("frames");
    let (n, used) = M::decode_length_delimited(frame).expect("frame decodes");
    assert_eq!(used, frame.len());
    assert_eq!(n.encode_to_vec().expect("encodes"), again);
    again
}

#[test]
fn owned_types_and_twins_share_one_generic_api() {
    let bytes = full_scalars().encode_to_vec().unwrap();
    let (mut f1, mut f2) = (Vec::new(), Vec::new());
    assert_eq!(through_any::<Scalars>(&bytes, &mut f1), bytes);
    assert_eq!(through_any::<ScalarsRef<'_>>(&bytes, &mut f2), bytes);
    assert_eq!(f1, f2);
    // With both public traits imported, each concrete type still has each method once.
    let owned = Scalars::decode(&bytes).unwrap();
    let twin = ScalarsRef::decode(&bytes).unwrap();
    assert_eq!(
        owned.encode_to_vec().unwrap(),
        twin.encode_to_vec().unwrap()
    );
    assert_eq!(
        owned.encode_length_delimited_to_vec().unwrap(),
        twin.encode_length_delimited_to_vec().unwrap()
    );
    // A refusal is the same through either: code, offset and path.
    // Field 1 written holding its default: `default-value-present`.
    let bad = [0x00, 0x00];
    let (a, b) = (
        Scalars::decode(&bad).unwrap_err(),
        ScalarsRef::decode(&bad).unwrap_err(),
    );
    assert_eq!(a, b);
    assert_eq!(a.code(), "default-value-present");
}
