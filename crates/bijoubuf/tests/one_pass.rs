//! The one-pass encode (generated-style walks into a `Vec`'s room or the thread's frame)
//! against the two passes (`encode_two_passes`, the reference: every public encode tries
//! the one pass first, so comparing one public encode with another compares the one pass
//! with itself). Lengths at each bijou64 tier edge, nesting at and past the depth limit,
//! and the size limit of a length-delimited encode, which counts the message's bytes, not
//! the length prefix before them (SPEC §9, §9.2).
use bijoubuf::__private::encode_two_passes;
use bijoubuf::wkt::{ListValue, Struct, Value, value};
use bijoubuf::{EncodeError, EncodeOptions, Message};

/// A generated message of about `n` bytes: its length prefix is one byte below 248,
/// two from 248, three from 504 (SPEC §2.1).
fn value(n: usize) -> Value {
    let text = Value {
        kind: Some(value::Kind::StringValue("x".repeat(n))),
    };
    Value {
        kind: Some(value::Kind::ListValue(ListValue { values: vec![text] })),
    }
}

/// The length-delimited encodings of `m` with `opts`: into a new `Vec` (the thread's
/// frame, then one copy) and into a `Vec` with room to spare (straight into its room).
fn one_pass(m: &Value, opts: &EncodeOptions) -> [Result<Vec<u8>, EncodeError>; 2] {
    let new = {
        let mut v = Vec::new();
        m.encode_length_delimited_with(&mut v, opts).map(|()| v)
    };
    let roomy = {
        let mut v = Vec::with_capacity(m.encoded_len() + 64);
        m.encode_length_delimited_with(&mut v, opts).map(|()| v)
    };
    [new, roomy]
}

#[test]
fn the_size_limit_of_a_length_delimited_encode_counts_the_message_not_its_prefix() {
    for n in [
        1, 100, 245, 246, 247, 248, 249, 300, 501, 502, 503, 504, 505, 1000,
    ] {
        let m = value(n);
        let len = m.encoded_len();
        for max in [len - 1, len, len + 1] {
            let opts = EncodeOptions::new().max_size(Some(max));
            let want = encode_two_passes(&m, true, &opts);
            assert_eq!(want.is_ok(), max >= len, "n {n} max {max}");
            for (got, how) in one_pass(&m, &opts)
                .into_iter()
                .zip(["new Vec", "roomy Vec"])
            {
                match (&got, &want) {
                    (Ok(g), Ok(w)) => assert_eq!(g, w, "n {n} max {max} {how}"),
                    (Err(g), Err(w)) => assert_eq!(g.code(), w.code(), "n {n} max {max} {how}"),
                    _ => panic!("n {n} max {max} {how}: {got:?}, two passes {want:?}"),
                }
            }
        }
    }
}

/// Every public encode of `m` with `opts` (into a new `Vec`, a `Vec` with room, a sink;
/// plain and length-delimited) gives the two passes' bytes or error.
fn same_as_two_passes(m: &Value, opts: &EncodeOptions, what: &str) {
    for framed in [false, true] {
        let want = encode_two_passes(m, framed, opts);
        let room = want.as_ref().map_or(1 << 12, Vec::len) + 16;
        let new = {
            let mut v = Vec::new();
            encode(m, &mut v, framed, opts).map(|()| v)
        };
        let roomy = {
            let mut v = Vec::with_capacity(room);
            encode(m, &mut v, framed, opts).map(|()| v)
        };
        let mut got = vec![("new Vec", new), ("roomy Vec", roomy)];
        if !framed {
            let mut v = Vec::new();
            got.push(("sink", m.encode_to_sink_with(&mut v, opts).map(|()| v)));
        }
        for (how, got) in got {
            match (&got, &want) {
                (Ok(g), Ok(w)) => assert!(g == w, "{what} framed {framed} {how}: bytes differ"),
                (Err(g), Err(w)) => assert_eq!(g.code(), w.code(), "{what} framed {framed} {how}"),
                _ => panic!("{what} framed {framed} {how}: {got:?}, two passes {want:?}"),
            }
        }
    }
}

fn encode(
    m: &Value,
    v: &mut Vec<u8>,
    framed: bool,
    opts: &EncodeOptions,
) -> Result<(), EncodeError> {
    if framed {
        m.encode_length_delimited_with(v, opts)
    } else {
        m.encode_with(v, opts)
    }
}

fn text(n: usize) -> Value {
    Value {
        kind: Some(value::Kind::StringValue("s".repeat(n))),
    }
}

fn list(values: Vec<Value>) -> Value {
    Value {
        kind: Some(value::Kind::ListValue(ListValue { values })),
    }
}

/// Nested five deep (a map of messages, repeated messages, oneof messages), with lengths
/// at every level near `n`.
fn nested(n: usize) -> Value {
    let fields = [
        (
            "a".to_string(),
            list(vec![text(n), list(vec![text(n / 2)])]),
        ),
        ("c".to_string(), text(3)),
    ];
    Value {
        kind: Some(value::Kind::StructValue(Struct {
            fields: fields.into_iter().collect(),
        })),
    }
}

#[test]
fn lengths_at_each_tier_edge_are_the_two_passes_bytes() {
    // SPEC §2.1: one byte below 248, two from 248, three from 504, four from 66,040
    // (past the thread's frame: the two passes write it).
    for edge in [248, 504, 66_040] {
        for n in edge - 12..edge + 12 {
            same_as_two_passes(&nested(n), &EncodeOptions::new(), &format!("n {n}"));
        }
    }
}

#[test]
fn nesting_at_and_past_the_depth_limit_is_refused_as_by_the_two_passes() {
    let mut v = text(1);
    for _ in 0..6 {
        v = list(vec![v]);
    }
    let wide = list(vec![nested(300), v.clone(), nested(10)]);
    for max in 0..20 {
        let opts = EncodeOptions::new().max_depth(max);
        same_as_two_passes(&v, &opts, &format!("deep, max depth {max}"));
        same_as_two_passes(&wide, &opts, &format!("wide, max depth {max}"));
    }
}
