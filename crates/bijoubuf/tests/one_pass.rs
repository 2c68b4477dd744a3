//! The one-pass encode (generated-style walks into a `Vec`'s room or the thread's frame)
//! against the two passes, where the options make a difference: the size limit of a
//! length-delimited encode counts the message's bytes, not the length prefix before
//! them (SPEC §9, §9.2), whichever way the encode went.
use bijoubuf::__private::encode_two_passes;
use bijoubuf::wkt::{ListValue, Value, value};
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
