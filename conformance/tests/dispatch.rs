//! The three shapes of generated decoder, the walk ([`bijoubuf_conformance::schema`]),
//! dispatch ([`bijoubuf_conformance::schema_dispatch`]) and the table
//! ([`bijoubuf_conformance::schema_table`]), give the same outcome on every
//! conformance vector's input and on inputs near it, and on values built here in Rust
//! and inputs near them (the form of the test Miri can run): the same value (re-encoded
//! to the same bytes, the same number of unknown records kept) or the same refusal (code,
//! byte offset and path), owned and borrowed.
//!
//! Near inputs: every byte set to each of [`BYTE_VALUES`] and flipped in one bit, every
//! cut, a byte appended (in a long input, near its two ends only); each under the
//! vector's configuration, and the vector's own input also under depth limits 1 to 4 and
//! with the unknown-field policy flipped. Under Miri, which interprets every instruction,
//! [`BYTE_VALUES`] is empty: each byte is only flipped.

use std::collections::BTreeSet;
use std::path::Path;

use bijoubuf_conformance::{CODES, Config, Expect, Outcome, generated};

/// Values each byte is set to: the small keys and lengths, a wire type's neighbours, the
/// last one-byte bijou64, the tier tags around it and the largest; none under Miri (see
/// the module docs).
const BYTE_VALUES: &[u8] = if cfg!(miri) {
    &[]
} else {
    &[0x00, 0x01, 0x02, 0x03, 0x7F, 0xF7, 0xF8, 0xFF]
};

/// Inputs longer than this (deep nesting, large runs) are mutated at their first and last
/// [`MUTATED`] bytes only.
const MUTATED: usize = 128;

/// Inputs longer than this are not mutated (only cut in half and run whole).
const LONG: usize = 4096;

/// The inputs near `bytes`, one at a time, each handed to `f`.
fn mutations(bytes: &[u8], mut f: impl FnMut(&[u8])) {
    let n = bytes.len();
    if n > LONG {
        f(&bytes[..n / 2]);
        return;
    }
    let mut b = bytes.to_vec();
    let at = (0..n.min(MUTATED)).chain(n.saturating_sub(MUTATED).max(MUTATED)..n);
    for i in at {
        for v in BYTE_VALUES.iter().copied().chain([bytes[i] ^ 0x04]) {
            if v != bytes[i] {
                b[i] = v;
                f(&b);
            }
        }
        b[i] = bytes[i];
        f(&bytes[..i]);
    }
    for v in [0x00, 0x04] {
        b.push(v);
        f(&b);
        b.pop();
    }
}

/// Walk, dispatch and table, owned and borrowed, on one input: `Err` names the first
/// disagreement. Returns the walk's owned outcome.
fn compare(type_name: &str, bytes: &[u8], cfg: &Config) -> Result<Outcome, String> {
    let run = |f: fn(&str, &[u8], &Config) -> Option<Outcome>| {
        f(type_name, bytes, cfg).ok_or_else(|| format!("no generated type {type_name}"))
    };
    let walk = run(generated::decode)?;
    let dispatch = run(generated::decode_dispatch)?;
    let walk_ref = run(generated::decode_borrowed)?;
    let dispatch_ref = run(generated::decode_borrowed_dispatch)?;
    let table = run(generated::decode_table)?;
    let table_ref = run(generated::decode_borrowed_table)?;
    if walk != dispatch {
        return Err(format!("owned: walk {walk:?}, dispatch {dispatch:?}"));
    }
    if walk_ref != dispatch_ref {
        return Err(format!(
            "borrowed: walk {walk_ref:?}, dispatch {dispatch_ref:?}"
        ));
    }
    if walk != table {
        return Err(format!("owned: walk {walk:?}, table {table:?}"));
    }
    if walk_ref != table_ref {
        return Err(format!("borrowed: walk {walk_ref:?}, table {table_ref:?}"));
    }
    Ok(walk)
}

#[test]
fn walk_dispatch_and_table_agree_on_the_vectors_and_near_them() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cases = bijoubuf_conformance::load_dir(&root.join("vectors")).expect("vector files load");
    let mut failures = Vec::new();
    let mut inputs = 0usize;
    let mut codes = BTreeSet::new();
    let mut accepted = 0usize;
    for case in &cases {
        if matches!(case.expect, Expect::EncodeRefused { .. }) {
            continue;
        }
        let mut check = |bytes: &[u8], cfg: &Config| {
            inputs += 1;
            match compare(&case.type_name, bytes, cfg) {
                Ok(Outcome::Refused(r)) => {
                    codes.insert(r.code);
                }
                Ok(Outcome::Accepted { .. }) => accepted += 1,
                Ok(Outcome::EncodeFailed(_)) => {}
                Err(e) if failures.len() < 20 => failures.push(format!(
                    "{} ({}) on {:02x?} with {cfg:?}: {e}",
                    case.id,
                    case.type_name,
                    &bytes[..bytes.len().min(64)]
                )),
                Err(_) => {}
            }
        };
        mutations(&case.bytes, |b| check(b, &case.config));
        for depth in 1..=4 {
            let cfg = Config {
                depth_limit: Some(depth),
                ..case.config
            };
            check(&case.bytes, &cfg);
        }
        let flipped = Config {
            preserving: !case.config.preserving,
            ..case.config
        };
        check(&case.bytes, &flipped);
        check(&case.bytes, &case.config);
    }
    assert!(
        failures.is_empty(),
        "walk, dispatch and table disagree:\n{}",
        failures.join("\n")
    );
    // The inputs reach both sides of the decoders: accepted values and refusals of
    // (nearly) every kind a decode can give.
    assert!(inputs > 10_000, "only {inputs} inputs");
    assert!(accepted > 1_000, "only {accepted} inputs accepted");
    // Every code but size-limit-exceeded: these decodes set no size limit.
    for code in CODES.iter().filter(|c| **c != "size-limit-exceeded") {
        assert!(
            codes.contains(*code),
            "no input refused with {code}: {codes:?}"
        );
    }
}

/// A varint run is sized before it is read, one slot per byte of the run, and a run of
/// long values gives the excess back once read (more than two slots per element); the
/// dispatch and table reads of a repeated field must leave the vector the walk leaves, capacity
/// included. Runs of one-byte values (no excess), of two-byte values (exactly two slots
/// per element: kept), of longer values and of mixed widths, for 64- and 32-bit elements.
#[test]
fn dispatch_and_table_give_back_a_runs_excess_capacity_as_the_walk_does() {
    use bijoubuf::Message;
    use bijoubuf_conformance::{schema, schema_dispatch, schema_table};

    // One-, two-, three- and nine-byte bijou64 values.
    let widths: [u64; 4] = [5, 300, 70_000, u64::MAX];
    let mut runs: Vec<Vec<u64>> = Vec::new();
    for n in 1..=12u64 {
        for w in widths {
            runs.push((0..n).map(|i| w - (i % 3)).collect());
        }
        runs.push((0..n).map(|i| widths[i as usize % 4]).collect());
    }
    let mut shrunk = 0;
    for run in &runs {
        let value = schema::conformance::Repeats {
            u64: run.clone(),
            i32: run.iter().map(|&v| v as i32).collect(),
            ..Default::default()
        };
        let bytes = value.encode_to_vec().expect("encodes");
        let walk = schema::conformance::Repeats::decode(&bytes).expect("walk decodes");
        let dispatch =
            schema_dispatch::conformance::Repeats::decode(&bytes).expect("dispatch decodes");
        let table = schema_table::conformance::Repeats::decode(&bytes).expect("table decodes");
        assert_eq!(walk.u64, dispatch.u64);
        assert_eq!(walk.i32, dispatch.i32);
        assert_eq!(walk.u64, table.u64);
        assert_eq!(walk.i32, table.i32);
        for (field, w, d, t) in [
            (
                "u64",
                walk.u64.capacity(),
                dispatch.u64.capacity(),
                table.u64.capacity(),
            ),
            (
                "i32",
                walk.i32.capacity(),
                dispatch.i32.capacity(),
                table.i32.capacity(),
            ),
        ] {
            assert_eq!(w, d, "{field} capacity, walk {w}, dispatch {d}, of {run:?}");
            assert_eq!(w, t, "{field} capacity, walk {w}, table {t}, of {run:?}");
        }
        if walk.u64.capacity() == run.len() && run.iter().any(|&v| v >= 70_000) {
            shrunk += 1;
        }
    }
    // The comparison reaches runs whose excess was given back.
    assert!(shrunk > 0, "no run of long values was shrunk by the walk");
}

/// Values built here, one or more per shape a decoder reads (oneof arms of every kind,
/// maps with string, scalar and message values, optional and repeated messages, nested
/// and recursive messages, strings short and long, ASCII and not, bytes, packed runs,
/// well-known types, unknown records): each type's name and the value's encoding.
///
/// Built in Rust rather than read from the vector files so that the test runs under
/// Miri, which cannot parse the vectors' TOML in reasonable time (conformance/README).
fn built_inputs() -> Vec<(&'static str, Vec<u8>)> {
    use bijoubuf::Message;
    use bijoubuf_conformance::schema::{conformance as c, evolution};
    use std::collections::BTreeMap;

    fn enc(m: &impl Message) -> Vec<u8> {
        m.encode_to_vec().expect("a value built here encodes")
    }
    let leaf = |a: u32, s: &str| c::Leaf {
        a,
        s: s.into(),
        ..Default::default()
    };
    let long = "a string longer than sixteen bytes, to leave the short copy";
    let mut out = Vec::new();

    let firsts = [
        None,
        Some(c::choice::First::A(7)),
        Some(c::choice::First::A(u32::MAX)),
        Some(c::choice::First::B("b".into())),
        Some(c::choice::First::B(format!("{long} – ünïcode"))),
        Some(c::choice::First::C(leaf(3, "in a oneof"))),
        Some(c::choice::First::C(c::Leaf::default())),
        Some(c::choice::First::D(-2.5)),
    ];
    let seconds = [
        None,
        Some(c::choice::Second::X(true)),
        Some(c::choice::Second::Y(vec![0, 0xFF, 7])),
        Some(c::choice::Second::Y(Vec::new())),
    ];
    for (i, first) in firsts.iter().enumerate() {
        let second = &seconds[i % seconds.len()];
        out.push((
            "conformance.Choice",
            enc(&c::Choice {
                first: first.clone(),
                after: i as u32,
                second: second.clone(),
                ..Default::default()
            }),
        ));
    }
    // Numbers past the table's index (read by its scan), keys at bijou64's tier edges;
    // one value with the low ones only, one with the high ones only.
    out.push((
        "conformance.Keys",
        enc(&c::Keys {
            k62: 1,
            k63: 2,
            k126: 3,
            k127: 4,
            ..Default::default()
        }),
    ));
    out.push((
        "conformance.Keys",
        enc(&c::Keys {
            k16511: 5,
            k4210814: 6,
            top: true,
            ..Default::default()
        }),
    ));
    out.push((
        "conformance.Bindings",
        enc(&c::Bindings {
            v: Some(c::bindings::V::S("v".into())),
            w: Some(c::bindings::W::Buf(vec![1, 2])),
            len: 300,
            ..Default::default()
        }),
    ));

    let node = |val: u32| c::Node {
        val,
        ..Default::default()
    };
    let mut named = BTreeMap::new();
    named.insert(0, node(1));
    named.insert(
        9,
        c::Node {
            child: Some(Box::new(node(2))),
            kids: vec![node(3), node(0)],
            ..Default::default()
        },
    );
    out.push((
        "conformance.Node",
        enc(&c::Node {
            child: Some(Box::new(c::Node {
                child: Some(Box::new(node(5))),
                named: named.clone(),
                ..Default::default()
            })),
            val: 70_000,
            kids: vec![
                node(4),
                c::Node::default(),
                c::Node {
                    named,
                    ..Default::default()
                },
            ],
            ..Default::default()
        }),
    ));

    let mut by_name = BTreeMap::new();
    by_name.insert(String::new(), leaf(0, ""));
    by_name.insert("k".into(), leaf(1, "x"));
    by_name.insert(long.into(), leaf(2, long));
    let middle = c::Middle {
        leaf: Some(leaf(9, "single")),
        leaves: vec![leaf(1, ""), c::Leaf::default(), leaf(u32::MAX, long)],
        by_name,
        ..Default::default()
    };
    out.push(("conformance.Middle", enc(&middle)));
    out.push((
        "conformance.Outer",
        enc(&c::Outer {
            mid: Some(middle),
            tail: 1,
            ..Default::default()
        }),
    ));

    let mut maps = c::Maps::default();
    maps.i32.extend([(-1, 1), (0, 0), (5, 300)]);
    maps.s64.extend([(i64::MIN, 2), (3, 4)]);
    maps.flag.extend([(false, 1), (true, 2)]);
    maps.str
        .extend([("".into(), 1), ("é".into(), 2), (long.into(), 3)]);
    maps.v_str.extend([(1, "one".into()), (2, long.into())]);
    maps.v_by.extend([(1, vec![]), (2, vec![9; 20])]);
    maps.v_db.extend([(1, 0.5), (2, -0.0)]);
    maps.v_fl.extend([(3, 1.5)]);
    maps.v_leaf
        .extend([(0, c::Leaf::default()), (4, leaf(4, "four"))]);
    maps.v_s64.extend([("neg".into(), -9)]);
    out.push(("conformance.Maps", enc(&maps)));

    out.push((
        "conformance.Scalars",
        enc(&c::Scalars {
            i32: -1,
            i64: i64::MIN,
            u32: 127,
            u64: u64::MAX,
            s32: -64,
            s64: 1 << 40,
            flag: true,
            color: 2,
            f32: 1,
            f64: u64::MAX,
            sf32: -1,
            sf64: 2,
            fl: 0.25,
            db: 1e300,
            str: long.into(),
            by: vec![0; 3],
            ..Default::default()
        }),
    ));
    out.push((
        "conformance.Optionals",
        enc(&c::Optionals {
            i32: Some(0),
            u64: Some(1),
            s64: Some(-1),
            flag: Some(false),
            fl: Some(0.0),
            str: Some(String::new()),
            by: Some(vec![1]),
            leaf: Some(c::Leaf::default()),
            ..Default::default()
        }),
    ));
    out.push((
        "conformance.Repeats",
        enc(&c::Repeats {
            i32: vec![-1, 0, 1],
            u64: vec![0, 300, u64::MAX],
            s32: vec![-3],
            flag: vec![true, false],
            f64: vec![1, 2],
            fl: vec![0.5, -1.0],
            db: vec![2.0],
            str: vec!["".into(), "s".into(), long.into()],
            by: vec![vec![], vec![1, 2, 3]],
            leaf: vec![c::Leaf::default(), leaf(8, "eight")],
            ..Default::default()
        }),
    ));

    let inner = |x: i32| c::Inner {
        x,
        y: Some(x > 0),
        ..Default::default()
    };
    out.push((
        "conformance.Required",
        enc(&c::Required {
            a: 1,
            b: Some(0),
            c: "c".into(),
            inner: Some(inner(0)),
            inners: vec![inner(1), inner(-1)],
            by_id: [(2, inner(2)), (3, inner(-3))].into(),
            ..Default::default()
        }),
    ));
    out.push((
        "conformance.Order",
        enc(&c::Order {
            id: 42,
            customer: Some(c::Customer {
                name: "ada".into(),
                ..Default::default()
            }),
            lines: vec![c::Line {
                sku: long.into(),
                qty: 2,
                ..Default::default()
            }],
            tags: [("a".into(), -1), ("b".into(), 1 << 33)].into(),
            ..Default::default()
        }),
    ));
    out.push((
        "conformance.Reading",
        enc(&c::Reading {
            sensor: 3,
            value: Some(20.5),
            samples: vec![1.0, 2.0, 3.0],
            unit: Some(c::reading::Unit::Other("kelvin".into())),
            offset: Some(-2),
            ..Default::default()
        }),
    ));
    out.push((
        "conformance.Wkt",
        enc(&c::Wkt {
            ts: Some(bijoubuf::wkt::Timestamp {
                seconds: 1_700_000_000,
                nanos: 5,
            }),
            str: Some(bijoubuf::wkt::StringValue {
                value: "wrapped".into(),
            }),
            mask: Some(bijoubuf::wkt::FieldMask {
                paths: vec!["a.b".into(), "c".into()],
            }),
            empty: Some(Default::default()),
            ..Default::default()
        }),
    ));
    // Fields 3, 4 and 6 are unknown to v1: records a preserving decode keeps.
    out.push((
        "evolution.v2.Record",
        enc(&evolution::v2::Record {
            id: 1,
            name: "r".into(),
            note_count: -2,
            tags: vec!["t".into(), long.into()],
            level: 3,
            archived: Some(true),
            ..Default::default()
        }),
    ));
    out
}

/// Walk, dispatch and table, owned and borrowed, agree on every value built in
/// [`built_inputs`] (each accepted and re-encoded to its own bytes) and on inputs near
/// them; and on each built input read as every other type, strict and preserving (other
/// types' records are unknown or of the wrong wire type there, so these reach the
/// unknown-record and mismatch paths of every shape).
///
/// This is the agreement test Miri can run: the table shape reads through offsets into
/// the generated value (`unsafe`), and here it reads oneof arms, maps, messages and
/// strings, not only the runs of the capacity test above.
#[test]
fn walk_dispatch_and_table_agree_on_values_built_here_and_near_them() {
    use bijoubuf_conformance::generated::TYPE_NAMES;

    let inputs = built_inputs();
    let preserving = Config {
        preserving: true,
        ..Config::default()
    };
    let mut failures = Vec::new();
    let mut tried = 0usize;
    let mut refused = BTreeSet::new();
    let mut kept_unknown = 0usize;
    let mut check = |ty: &str, bytes: &[u8], cfg: &Config| {
        tried += 1;
        match compare(ty, bytes, cfg) {
            Ok(Outcome::Refused(r)) => {
                refused.insert(r.code);
            }
            Ok(Outcome::Accepted { unknown, .. }) => kept_unknown += unknown,
            Ok(Outcome::EncodeFailed(_)) => {}
            Err(e) if failures.len() < 20 => {
                failures.push(format!("{ty} on {bytes:02x?} with {cfg:?}: {e}"))
            }
            Err(_) => {}
        }
    };
    for (ty, bytes) in &inputs {
        match compare(ty, bytes, &Config::default()) {
            Ok(Outcome::Accepted { reencoded, .. }) => {
                assert_eq!(&reencoded, bytes, "{ty}: re-encoding differs")
            }
            other => panic!("{ty}: a value built here is not accepted: {other:?}"),
        }
        mutations(bytes, |b| check(ty, b, &Config::default()));
        for other in TYPE_NAMES {
            check(other, bytes, &Config::default());
            check(other, bytes, &preserving);
        }
    }
    assert!(
        failures.is_empty(),
        "walk, dispatch and table disagree:\n{}",
        failures.join("\n")
    );
    // The inputs reach refusals of several kinds and records kept as unknown.
    eprintln!("{tried} inputs, refused with {refused:?}");
    assert!(
        tried > if cfg!(miri) { 2_000 } else { 10_000 },
        "only {tried} inputs"
    );
    assert!(refused.len() >= 8, "refusals of only {refused:?}");
    assert!(kept_unknown > 0, "no unknown record was kept");
}
