//! Depth and size limits, and length-delimited framing (SPEC §9).
mod common;

use bijoubuf::{BufMut, DEFAULT_MAX_DEPTH, DecodeOptions, EncodeErrorKind, ErrorKind, Message};
use bijoubuf_testkit::{assert_canonical_roundtrip, assert_rejects, assert_rejects_with};
use common::*;

/// A chain of `depth` Trees (the top one is depth 1), each holding `value = 1`.
fn chain(depth: usize) -> Tree {
    let mut t = Tree {
        value: 1,
        ..Default::default()
    };
    for _ in 1..depth {
        t = Tree {
            value: 1,
            child: Some(Box::new(t)),
            ..Default::default()
        };
    }
    t
}

/// The bytes of a chain of `depth` empty Trees linked through `child` (2, key 06), and
/// the offset of the key that opens the deepest one.
fn chain_bytes(depth: usize) -> (Vec<u8>, usize) {
    let mut inner: Vec<u8> = Vec::new();
    let mut last_key_from_inner = 0;
    for _ in 1..depth {
        let mut outer = vec![0x06];
        outer.extend_from_slice(bijou64::encode(inner.len() as u64).as_slice());
        let shift = outer.len();
        outer.extend_from_slice(&inner);
        // The deepest key moves right by this level's key and prefix.
        last_key_from_inner = if inner.is_empty() {
            0
        } else {
            last_key_from_inner + shift
        };
        inner = outer;
    }
    (inner, last_key_from_inner)
}

#[test]
fn depth_100_encodes_and_decodes() {
    let t = chain(DEFAULT_MAX_DEPTH as usize);
    let bytes = bijoubuf_testkit::assert_value_roundtrip(&t);
    let (raw, _) = chain_bytes(100);
    assert_canonical_roundtrip::<Tree>(&raw);
    assert!(bytes.len() > raw.len());
}

#[test]
fn depth_101_is_refused_by_the_encoder() {
    let t = chain(DEFAULT_MAX_DEPTH as usize + 1);
    let e = t.encode_to_vec().unwrap_err();
    assert_eq!(e.kind(), EncodeErrorKind::DepthLimitExceeded);
    let mut buf = Vec::new();
    assert!(t.encode(&mut buf).is_err());
    assert!(buf.is_empty(), "nothing is written on error");
    assert!(t.encode_length_delimited_to_vec().is_err());
}

#[test]
fn depth_101_is_refused_by_the_decoder_at_the_opening_key() {
    let (bytes, key) = chain_bytes(101);
    assert_eq!(bytes[key], 0x06);
    let e = assert_rejects::<Tree>(&bytes, "depth-limit-exceeded", key);
    assert_eq!(e.path().count(), 101);
    // Through a repeated element and a map value the offset is the record's key.
    let one = DecodeOptions::new().max_depth(1);
    // Tree.value = 1, then children (3, key 06 after 1) = [empty], named (4) = {"k": empty}.
    assert_rejects_with::<Tree>(
        &[0x00, 0x02, 0x06, 0x01, 0x00],
        &one,
        "depth-limit-exceeded",
        2,
    );
    assert_rejects_with::<Tree>(
        &[0x00, 0x02, 0x0A, 0x03, 0x01, b'k', 0x00],
        &one,
        "depth-limit-exceeded",
        2,
    );
    assert_canonical_roundtrip::<Tree>(&[0x00, 0x02, 0x0A, 0x03, 0x01, b'k', 0x00]);
}

#[test]
fn a_configured_depth_limit() {
    let (bytes, key) = chain_bytes(3);
    let opts = DecodeOptions::new().max_depth(3);
    assert!(Tree::decode_with(&bytes, &opts).is_ok());
    let opts = DecodeOptions::new().max_depth(2);
    assert_rejects_with::<Tree>(&bytes, &opts, "depth-limit-exceeded", key);
    // Limit 1: only the top level.
    let opts = DecodeOptions::new().max_depth(1);
    assert_rejects_with::<Tree>(&bytes, &opts, "depth-limit-exceeded", 0);
    assert!(Tree::decode_with(&[0x00, 0x02], &opts).is_ok());
}

#[test]
fn size_limit() {
    let bytes = [0x00, 0x02, 0x00, 0x02];
    let opts = DecodeOptions::new().max_size(Some(4));
    assert!(Scalars::decode_with(&bytes, &opts).is_ok());
    let opts = DecodeOptions::new().max_size(Some(3));
    let e = assert_rejects_with::<Scalars>(&bytes, &opts, "size-limit-exceeded", 0);
    assert_eq!(e.kind(), ErrorKind::SizeLimitExceeded);
    // Framed: the frame's length counts, reported at its prefix.
    let mut framed = vec![0x04];
    framed.extend_from_slice(&bytes);
    assert!(
        Scalars::decode_length_delimited_with(&framed, &DecodeOptions::new().max_size(Some(4)))
            .is_ok()
    );
    let e = Scalars::decode_length_delimited_with(&framed, &opts).unwrap_err();
    assert_eq!((e.code(), e.offset()), ("size-limit-exceeded", 0));
}

#[test]
fn length_delimited_with_a_two_byte_prefix() {
    // A body of 248..=503 bytes has a two-byte prefix, F8 then length − 248 (SPEC §2.1).
    let m = Scalars {
        text: "x".repeat(300),
        ..Default::default()
    };
    let body = m.encode_to_vec().unwrap();
    assert!((248..=503).contains(&body.len()), "{}", body.len());
    let mut stream = Vec::new();
    m.encode_length_delimited(&mut stream).unwrap();
    assert_eq!(stream[..2], [0xF8, (body.len() - 248) as u8]);
    assert_eq!(stream[2..], body[..]);
    assert_eq!(m.encode_length_delimited_to_vec().unwrap(), stream);
    let (back, n) = Scalars::decode_length_delimited(&stream).unwrap();
    assert_eq!((back, n), (m, stream.len()));
}

#[test]
fn length_delimited_stream() {
    let a = Scalars {
        i32: 1,
        ..Default::default()
    };
    let b = Scalars {
        text: "b".into(),
        ..Default::default()
    };
    let mut stream = Vec::new();
    a.encode_length_delimited(&mut stream).unwrap();
    b.encode_length_delimited(&mut stream).unwrap();
    assert_eq!(stream, [0x02, 0x00, 0x02, 0x03, 0x3A, 0x01, b'b']);
    let (x, n) = Scalars::decode_length_delimited(&stream).unwrap();
    assert_eq!((x, n), (a, 3));
    let (y, m) = Scalars::decode_length_delimited(&stream[n..]).unwrap();
    assert_eq!((y, m), (b, 4));
    // A trailing partial frame: truncated at its length prefix.
    let e = Scalars::decode_length_delimited(&stream[n..stream.len() - 1]).unwrap_err();
    assert_eq!((e.code(), e.offset()), ("truncated", 0));
    let e = Scalars::decode_length_delimited(&[]).unwrap_err();
    assert_eq!((e.code(), e.offset()), ("truncated", 0));
    let e = Scalars::decode_length_delimited(&[0xF8]).unwrap_err();
    assert_eq!((e.code(), e.offset()), ("truncated", 0));
    let e = Scalars::decode_length_delimited(&[0xFF; 9]).unwrap_err();
    assert_eq!((e.code(), e.offset()), ("varint-overflow", 0));
    // Offsets inside a frame count from the slice start.
    let e = Scalars::decode_length_delimited(&[0x02, 0x18, 0x02]).unwrap_err();
    assert_eq!((e.code(), e.offset()), ("invalid-bool", 2));
}

#[test]
fn encode_into_a_slice() {
    let a = Scalars {
        i32: 1,
        ..Default::default()
    };
    let mut buf = [0u8; 4];
    let mut dst: &mut [u8] = &mut buf;
    a.encode(&mut dst).unwrap();
    assert_eq!(dst.len(), 2);
    let mut small = [0u8; 1];
    let mut dst: &mut [u8] = &mut small;
    let e = a.encode(&mut dst).unwrap_err();
    assert_eq!((e.kind(), e.needed()), (EncodeErrorKind::BufferTooSmall, 2));
    assert_eq!(buf[..2], [0x00, 0x02]);
    // The trait is usable as a bound.
    fn into<B: BufMut>(m: &Scalars, b: &mut B) -> bool {
        m.encode(b).is_ok()
    }
    assert!(into(&a, &mut Vec::new()));
}

#[test]
fn wide_values_use_the_spilled_size_table() {
    // More nested composites than the inline table holds.
    let t = Tree {
        children: (0..200).map(|i| chain(1 + i % 5)).collect(),
        ..Default::default()
    };
    bijoubuf_testkit::assert_value_roundtrip(&t);
}

#[test]
fn depth_is_checked_at_the_key_before_the_payload() {
    // SPEC §9.3 example, on Tree.child (2, key 06), limit 3.
    let opts = DecodeOptions::new().max_depth(3);
    assert!(Tree::decode_with(&[0x06, 0x02, 0x06, 0x00], &opts).is_ok());
    let e = assert_rejects_with::<Tree>(
        &[0x06, 0x04, 0x06, 0x02, 0x06, 0x00],
        &opts,
        "depth-limit-exceeded",
        4,
    );
    assert_eq!(e.path_string(), "Tree.child.child.child");
    // Before the length is read: a too-deep record with a bogus length is still a depth
    // error; and an empty message or an empty repeated record is still opened.
    let one = DecodeOptions::new().max_depth(1);
    assert_rejects_with::<Tree>(&[0x06, 0x09], &one, "depth-limit-exceeded", 0);
    assert_rejects_with::<Tree>(&[0x06, 0x00], &one, "depth-limit-exceeded", 0);
    let e = assert_rejects_with::<Tree>(&[0x0A, 0x00], &one, "depth-limit-exceeded", 0);
    assert_eq!(e.path_string(), "Tree.children");
    assert_rejects_with::<Tree>(&[0x0E, 0x00], &one, "depth-limit-exceeded", 0);
    // A oneof member of message type (Choice.m = 5, key 12) opens a message too.
    let e = assert_rejects_with::<Choice>(&[0x12, 0x00], &one, "depth-limit-exceeded", 0);
    assert_eq!(e.path_string(), "Choice.m");
    assert!(Choice::decode(&[0x12, 0x00]).is_ok());
    // Without the limit the same inputs fail for their own reasons.
    assert_rejects::<Tree>(&[0x06, 0x09], "truncated", 1);
    assert_rejects::<Tree>(&[0x0A, 0x00], "empty-repeated", 0);
}

#[test]
fn frames_report_offsets_from_the_stream_start() {
    use bijoubuf::Frames;
    let stream = [0x02, 0x00, 0x02, 0x02, 0x18, 0x02];
    let mut frames = Frames::<Scalars>::new(&stream, DecodeOptions::new());
    let first = frames.next().unwrap().unwrap().into_message();
    assert_eq!(first.i32, 1);
    assert_eq!(frames.offset(), 3);
    let e = frames.next().unwrap().unwrap_err();
    assert_eq!((e.code(), e.offset()), ("invalid-bool", 5));
    assert!(frames.next().is_none());
    // A trailing partial frame, and the per-frame size limit, at the frame's prefix.
    let stream = [0x02, 0x00, 0x02, 0x03, 0x00];
    let errs: Vec<_> = Frames::<Scalars>::new(&stream, DecodeOptions::new()).collect();
    assert_eq!(errs.len(), 2);
    let e = errs[1].as_ref().unwrap_err();
    assert_eq!((e.code(), e.offset()), ("truncated", 3));
    let stream = [0x02, 0x00, 0x02, 0x04, 0x00, 0x02, 0x00, 0x02];
    let limited = DecodeOptions::new().max_size(Some(3));
    let out: Vec<_> = Frames::<Scalars>::new(&stream, limited).collect();
    let e = out[1].as_ref().unwrap_err();
    assert_eq!((e.code(), e.offset()), ("size-limit-exceeded", 3));
    assert_eq!(Frames::<Scalars>::new(&[], DecodeOptions::new()).count(), 0);
}

#[test]
fn configured_encoder_limits() {
    use bijoubuf::EncodeOptions;
    // Depth: the same counting as the decoder's (the top level is depth 1).
    let three = EncodeOptions::new().max_depth(3);
    let bytes = chain(3).encode_to_vec_with(&three).unwrap();
    assert_eq!(bytes, chain(3).encode_to_vec().unwrap());
    let e = chain(4).encode_to_vec_with(&three).unwrap_err();
    assert_eq!(e.kind(), EncodeErrorKind::DepthLimitExceeded);
    assert_eq!((e.code(), e.limit()), ("depth-limit-exceeded", 3));
    assert_eq!(
        e.to_string(),
        "depth-limit-exceeded: the value nests messages deeper than 3"
    );
    // Deeper than the default is allowed when asked for.
    let deep = EncodeOptions::new().max_depth(150);
    assert!(chain(150).encode_to_vec_with(&deep).is_ok());
    assert!(chain(151).encode_to_vec_with(&deep).is_err());
    // Size: the encoding's length, refused before anything is written.
    let t = chain(3);
    let n = t.encoded_len();
    let exact = EncodeOptions::new().max_size(Some(n));
    assert_eq!(t.encode_to_vec_with(&exact).unwrap().len(), n);
    let short = EncodeOptions::new().max_size(Some(n - 1));
    let mut buf = vec![0xAA];
    let e = t.encode_with(&mut buf, &short).unwrap_err();
    assert_eq!(e.kind(), EncodeErrorKind::SizeLimitExceeded);
    assert_eq!(
        (e.code(), e.needed(), e.limit()),
        ("size-limit-exceeded", n, n - 1)
    );
    assert_eq!(buf, [0xAA], "nothing is written on error");
    // Framed: the limit is on the frame's content, as the decoder's is.
    let mut framed = Vec::new();
    t.encode_length_delimited_with(&mut framed, &exact).unwrap();
    assert_eq!(framed.len(), n + 1);
    let (back, used) =
        Tree::decode_length_delimited_with(&framed, &DecodeOptions::new().max_size(Some(n)))
            .unwrap();
    assert_eq!((back.into_message(), used), (t.clone(), n + 1));
    assert!(t.encode_length_delimited_with(&mut framed, &short).is_err());
    assert_eq!(framed.len(), n + 1);
}

#[test]
fn depth_limits_are_capped_on_both_sides() {
    use bijoubuf::{EncodeOptions, MAX_DEPTH_LIMIT};
    let cap = MAX_DEPTH_LIMIT as usize;
    assert_eq!(
        DecodeOptions::new().max_depth(u32::MAX).get_max_depth(),
        MAX_DEPTH_LIMIT
    );
    assert_eq!(
        EncodeOptions::new().max_depth(u32::MAX).get_max_depth(),
        MAX_DEPTH_LIMIT
    );
    assert_eq!(EncodeOptions::new().max_depth(0).get_max_depth(), 1);
    // On a thread with the stack Rust gives spawned threads (2 MiB), in a debug build
    // too (see `MAX_DEPTH_LIMIT`).
    let run = move || {
        let most = DecodeOptions::new().max_depth(u32::MAX);
        let most_enc = EncodeOptions::new().max_depth(u32::MAX);
        // At the cap both sides work, and `encoded_len` is exact.
        let (bytes, _) = chain_bytes(cap);
        let t = Tree::decode_with(&bytes, &most).unwrap().into_message();
        assert_eq!(t.encode_to_vec_with(&most_enc).unwrap(), bytes);
        assert_eq!(t.encoded_len(), bytes.len());
        drop(t);
        let v = chain(cap);
        let enc = v.encode_to_vec_with(&most_enc).unwrap();
        assert_eq!(v.encoded_len(), enc.len());
        assert!(Tree::decode_with(&enc, &most).is_ok());
        drop(v);
        // One past the cap: refused at the opening key, whatever limit was asked for.
        let (bytes, key) = chain_bytes(cap + 1);
        assert_rejects_with::<Tree>(&bytes, &most, "depth-limit-exceeded", key);
        let e = chain(cap + 1).encode_to_vec_with(&most_enc).unwrap_err();
        assert_eq!(
            (e.kind(), e.limit()),
            (EncodeErrorKind::DepthLimitExceeded, cap)
        );
        // Far past the cap (an uncapped decoder recursed once per level here and
        // overflowed the stack): refused, the decoder never going deeper than the cap.
        let (bytes, _) = chain_bytes(cap * 6);
        let e = Tree::decode_with(&bytes, &most).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::DepthLimitExceeded);
        assert_eq!(e.path().count(), cap + 1);
    };
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(run)
        .unwrap()
        .join()
        .unwrap();
}
