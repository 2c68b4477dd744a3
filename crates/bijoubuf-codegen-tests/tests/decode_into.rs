//! `Message::decode_into`: decoding into an existing value keeps the capacity of its
//! strings, byte strings and repeated fields (nested messages' too), gives exactly what
//! `decode` gives on success, and refuses exactly what `decode` refuses, with the same
//! code, offset and path.

use std::collections::BTreeMap;

use bijoubuf::Message;
use bijoubuf_codegen_tests::kitchen::{
    Choice, Maps, Optionals, Repeats, Scalars, Tree, choice, tree,
};
use bijoubuf_codegen_tests::legacy::Record;

mod counting;

use counting::allocations;

#[global_allocator]
static GLOBAL: counting::Counting = counting::Counting;

fn scalars(text: &str, data: &[u8]) -> Scalars {
    Scalars {
        i32: -5,
        u64: 300,
        flag: true,
        db: 1.5,
        text: text.into(),
        data: data.to_vec(),
        ..Scalars::default()
    }
}

fn repeats(n: usize) -> Repeats {
    Repeats {
        u32: (0..n as u32).collect(),
        text: (0..n).map(|i| format!("t{i}")).collect(),
        msgs: (0..n).map(|i| scalars(&"x".repeat(i + 1), &[1])).collect(),
        ..Repeats::default()
    }
}

#[test]
fn capacity_is_kept_across_decodes() {
    let long = Optionals {
        text: Some("a long string that sets the capacity".into()),
        child: Some(scalars(&"y".repeat(100), &[7; 64])),
        ..Optionals::default()
    };
    let short = Optionals {
        text: Some("short".into()),
        child: Some(scalars("z", &[1])),
        ..Optionals::default()
    };
    let mut v = Optionals::default();
    v.decode_into(&long.encode_to_vec().unwrap()).unwrap();
    assert_eq!(v, long);
    let text_cap = v.text.as_ref().unwrap().capacity();
    let child = v.child.as_ref().unwrap();
    let (child_text, child_text_cap) = (child.text.as_ptr(), child.text.capacity());
    let (child_data, child_data_cap) = (child.data.as_ptr(), child.data.capacity());
    let bytes = short.encode_to_vec().unwrap();
    // Everything fits: no allocation at all.
    let (n, r) = allocations(|| v.decode_into(&bytes));
    r.unwrap();
    assert_eq!(n, 0);
    assert_eq!(v, short);
    assert_eq!(v.text.as_ref().unwrap().capacity(), text_cap);
    let child = v.child.as_ref().unwrap();
    assert_eq!(
        (child.text.as_ptr(), child.text.capacity()),
        (child_text, child_text_cap)
    );
    assert_eq!(
        (child.data.as_ptr(), child.data.capacity()),
        (child_data, child_data_cap)
    );
    // `decode` allocates for the same input: the count sees allocations.
    let (n, _) = allocations(|| Optionals::decode(&bytes));
    assert!(n >= 3, "{n}");

    // Repeated fields keep their vectors.
    let mut r = Repeats::default();
    r.decode_into(&repeats(40).encode_to_vec().unwrap())
        .unwrap();
    let caps = (r.u32.capacity(), r.text.capacity(), r.msgs.capacity());
    let small = repeats(3);
    r.decode_into(&small.encode_to_vec().unwrap()).unwrap();
    assert_eq!(r, small);
    assert_eq!(
        (r.u32.capacity(), r.text.capacity(), r.msgs.capacity()),
        caps
    );
}

#[test]
fn stale_values_do_not_survive_a_successful_decode() {
    let full = Optionals {
        i32: Some(4),
        text: Some("x".into()),
        data: Some(vec![1]),
        child: Some(scalars("c", &[2])),
        ..Optionals::default()
    };
    let mut v = full.clone();
    v.decode_into(&[]).unwrap();
    assert_eq!(v, Optionals::default());
    let mut s = scalars("text", &[9]);
    s.decode_into(&scalars("", &[]).encode_to_vec().unwrap())
        .unwrap();
    assert_eq!(s, scalars("", &[]));
    // Implicit-presence scalars, strings and bytes absent from the input become their
    // defaults.
    let mut s = scalars("text", &[9]);
    s.decode_into(&[]).unwrap();
    assert_eq!(s, Scalars::default());
    let mut c = Choice {
        kind: Some(choice::Kind::B("b".into())),
        ..Choice::default()
    };
    let other = Choice {
        name: "n".into(),
        kind: Some(choice::Kind::A(3)),
        ..Choice::default()
    };
    c.decode_into(&other.encode_to_vec().unwrap()).unwrap();
    assert_eq!(c, other);
    let mut m = Maps {
        text: BTreeMap::from([("old".into(), 1)]),
        ..Maps::default()
    };
    m.decode_into(&[]).unwrap();
    assert_eq!(m, Maps::default());
}

#[test]
fn stale_unknown_fields_do_not_survive_a_successful_decode() {
    use bijoubuf::{DecodeOptions, UnknownFieldPolicy};
    let preserve = DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve);
    // Tree { value: 1, children: [Tree { value: 2 }] }, each with unknown 9 (VARINT 5;
    // key 1C after 1, key 14 after 3): the element's record is kept by a read in place
    // (the pushed default), the top's by the top-level decode.
    let element = [0x00, 0x04, 0x1C, 0x05];
    let bytes = [
        &[
            0x00,
            0x02,
            0x06,
            1 + element.len() as u8,
            element.len() as u8,
        ][..],
        &element,
        &[0x14, 0x05],
    ]
    .concat();
    let kept = Tree::decode_with(&bytes, &preserve).unwrap().into_message();
    assert_eq!(kept.unknown_fields.len(), 1);
    assert_eq!(kept.children[0].unknown_fields.len(), 1);
    assert_eq!(kept.encode_to_vec().unwrap(), bytes);
    // Read in place over it without records: none are left, at either level.
    let plain = Tree {
        value: 3,
        children: vec![Tree::default()],
        ..Tree::default()
    };
    let mut v = kept.clone();
    v.decode_into(&plain.encode_to_vec().unwrap()).unwrap();
    assert!(v.unknown_fields.is_empty() && v.children[0].unknown_fields.is_empty());
    assert_eq!(v, plain);
    agree(&kept, &plain.encode_to_vec().unwrap());
    // And records are still refused (not kept) by `decode_into`, as by `decode`.
    agree(&kept, &bytes);
}

#[test]
fn oneofs_are_read_in_place_and_judged_like_decode() {
    // A oneof read in place is emptied first and each member read into its field: every
    // member over every start, and a second member refused as `decode` refuses it.
    let choice = |kind| Choice {
        name: "n".into(),
        kind: Some(kind),
        ..Choice::default()
    };
    let choices = [
        Choice::default(),
        choice(choice::Kind::A(3)),
        choice(choice::Kind::B("b".into())),
        choice(choice::Kind::M(scalars("m", &[5]))),
        choice(choice::Kind::D(vec![8])),
        choice(choice::Kind::F(true)),
    ];
    let leaf = tree::Leaf {
        label: "x".into(),
        ..tree::Leaf::default()
    };
    let next = Tree {
        value: 1,
        ..Tree::default()
    };
    let trees = [
        Tree::default(),
        Tree {
            link: Some(tree::Link::Next(Box::new(next.clone()))),
            ..Tree::default()
        },
        Tree {
            link: Some(tree::Link::Leaf(Box::new(leaf.clone()))),
            ..Tree::default()
        },
    ];
    for start in &choices {
        for c in &choices {
            let mut v = start.clone();
            v.decode_into(&c.encode_to_vec().unwrap()).unwrap();
            assert_eq!(&v, c);
        }
    }
    for start in &trees {
        for t in &trees {
            let mut v = start.clone();
            v.decode_into(&t.encode_to_vec().unwrap()).unwrap();
            assert_eq!(&v, t);
        }
    }
    // Second members: b (4) after a (2), d (8) after m (5), m after a, leaf (6) after
    // next (5); keys are (delta - 1) << 2 | wire type.
    let m = scalars("m", &[5]).encode_to_vec().unwrap();
    let leaf_bytes = leaf.encode_to_vec().unwrap();
    let conflicts = [
        [choices[1].encode_to_vec().unwrap(), vec![0x06, 0x01, b'b']].concat(),
        [choices[3].encode_to_vec().unwrap(), vec![0x0A, 0x01, 0x07]].concat(),
        [
            choices[1].encode_to_vec().unwrap(),
            vec![0x0A, m.len() as u8],
            m,
        ]
        .concat(),
    ];
    for bytes in &conflicts {
        let e = Choice::decode(bytes).unwrap_err();
        assert_eq!(e.code(), "oneof-conflict", "{bytes:02x?}");
        for start in &choices {
            agree(start, bytes);
        }
    }
    let bytes = [
        trees[1].encode_to_vec().unwrap(),
        vec![0x02, leaf_bytes.len() as u8],
        leaf_bytes,
    ]
    .concat();
    assert_eq!(Tree::decode(&bytes).unwrap_err().code(), "oneof-conflict");
    for start in &trees {
        agree(start, &bytes);
    }
}

/// `decode_into` on a value that starts as `start` agrees with `decode`.
fn agree<M: Message + Clone + std::fmt::Debug>(start: &M, bytes: &[u8]) {
    let mut v = start.clone();
    let into = v.decode_into(bytes);
    match (M::decode(bytes), into) {
        (Ok(d), Ok(())) => {
            // Compared by encoding: a NaN value is not equal to itself.
            assert_eq!(v.encode_to_vec().unwrap(), d.encode_to_vec().unwrap());
        }
        (Err(a), Err(b)) => assert_eq!(
            (a.kind(), a.offset(), a.path_string()),
            (b.kind(), b.offset(), b.path_string()),
            "{bytes:02x?}"
        ),
        (a, b) => panic!("decode {a:?} but decode_into {b:?} for {bytes:02x?}"),
    }
}

#[test]
fn every_single_byte_change_is_judged_like_decode() {
    let opt = Optionals {
        i32: Some(0),
        text: Some("héllo".into()),
        data: Some(vec![1, 2, 3]),
        child: Some(scalars("in", &[4])),
        ..Optionals::default()
    };
    let rep = repeats(3);
    let tree = Tree {
        value: 1,
        child: Some(Box::new(Tree {
            value: 2,
            ..Tree::default()
        })),
        children: vec![Tree::default()],
        named: BTreeMap::from([("n".into(), Tree::default())]),
        ..Tree::default()
    };
    let legacy =
        Record::decode(&Record::default().encode_to_vec().unwrap_or_default()).unwrap_or_default();
    let inputs = [
        opt.encode_to_vec().unwrap(),
        rep.encode_to_vec().unwrap(),
        tree.encode_to_vec().unwrap(),
    ];
    for (k, base) in inputs.iter().enumerate() {
        for i in 0..base.len() {
            agree(&opt, &base[..i]);
            for byte in [0x00, 0x01, 0x02, 0x05, 0x7F, 0x80, 0xF8, 0xFF] {
                let mut b = base.clone();
                b[i] = byte;
                match k {
                    0 => {
                        agree(&opt, &b);
                        agree(&Optionals::default(), &b);
                    }
                    1 => {
                        agree(&rep, &b);
                        agree(&repeats(10), &b);
                    }
                    _ => {
                        agree(&tree, &b);
                        agree(&Tree::default(), &b);
                    }
                }
                agree(&legacy, &b);
            }
        }
    }
}

#[test]
fn depth_is_judged_like_decode() {
    use bijoubuf_testkit::{Via, nested_chain};
    let deep = Tree::decode(&nested_chain(100, Via::Child).0).unwrap();
    for via in [Via::Child, Via::Repeated, Via::MapValue] {
        let (ok, _) = nested_chain(100, via);
        let (over, at) = nested_chain(101, via);
        for start in [&Tree::default(), &deep] {
            agree(start, &ok);
            agree(start, &over);
        }
        let mut v = deep.clone();
        let e = v.decode_into(&over).unwrap_err();
        assert_eq!((e.code(), e.offset()), ("depth-limit-exceeded", at));
        v.decode_into(&ok).unwrap();
    }
    // Two chains of 60 side by side (child, then one element of children): each starts at
    // depth 2 only if the first gave its levels back.
    let (chain, _) = nested_chain(60, Via::Child);
    let len = |n: usize| bijou64::encode(n as u64).as_slice().to_vec();
    let element = [len(chain.len()), chain.clone()].concat();
    let bytes = [
        vec![0x06],
        len(chain.len()),
        chain.clone(),
        vec![0x02],
        len(element.len()),
        element,
    ]
    .concat();
    let both = Tree::decode(&bytes).unwrap();
    assert!(both.child.is_some() && both.children.len() == 1);
    for start in [&Tree::default(), &deep, &both] {
        agree(start, &bytes);
    }
}

/// A `Maps` value whose string-keyed maps hold `n` entries each.
fn maps(n: usize) -> Maps {
    Maps {
        text: (0..n).map(|i| (format!("k{i:02}"), i as i32)).collect(),
        msgs: (0..n)
            .map(|i| (format!("m{i:02}"), scalars(&"v".repeat(i + 1), &[i as u8])))
            .collect(),
        ..Maps::default()
    }
}

#[test]
fn maps_are_read_into_the_tree_they_replace() {
    // A map field read in place is filled in its own tree (emptied first), up to six
    // entries by inserting, past six by a tree built aside: every start, small or large,
    // meets every input, small or large, as `decode` does.
    let mut emptied = maps(3);
    // A tree whose entries were all removed: empty, yet it may still hold its node.
    emptied.text.retain(|_, _| false);
    emptied.msgs.retain(|_, _| false);
    let starts = [
        Maps::default(),
        maps(1),
        maps(6),
        maps(7),
        maps(20),
        emptied,
    ];
    for n in [0, 1, 5, 6, 7, 12] {
        let bytes = maps(n).encode_to_vec().unwrap();
        for start in &starts {
            let mut v = start.clone();
            v.decode_into(&bytes).unwrap();
            assert_eq!(
                v,
                maps(n),
                "{n} entries into {} and {}",
                start.text.len(),
                start.msgs.len()
            );
            // Every cut and a refused byte at every offset, against `decode`.
            for i in 0..bytes.len() {
                agree(start, &bytes[..i]);
                for byte in [0x00, 0x01, 0x7F, 0xFF] {
                    let mut b = bytes.clone();
                    b[i] = byte;
                    agree(start, &b);
                }
            }
        }
    }
}
