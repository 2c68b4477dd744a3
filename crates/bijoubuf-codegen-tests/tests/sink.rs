//! Encoding into a sink (`encode_to_sink`, `encode_to_writer`, `content_id`,
//! `encode_to_digest`) hands over exactly the bytes of `encode_to_vec`, in order, for
//! values small and large enough to cross the stack chunk's edge anywhere, and with
//! nested lengths on each side of the bijou64 tiers' edges (the one-pass writer moves
//! content to widen a prefix there).

use std::io;

use bijoubuf::sink::{ByteSink, CHUNK, SMALL_CHUNK};
use bijoubuf::{
    DecodeOptions, EncodeErrorKind, EncodeOptions, Message, MessageRef, UnknownFieldPolicy,
};
use bijoubuf_codegen_tests::kitchen::{Repeats, RepeatsRef, Scalars, Tree};
use bijoubuf_codegen_tests::runtime_shapes::{Known, Wider};
use proptest::collection::vec;
use proptest::prelude::*;
use sha2::Digest as _;

/// A sink that keeps each piece apart, to see where the chunk was cut.
#[derive(Default)]
struct Pieces(Vec<Vec<u8>>);

impl ByteSink for Pieces {
    fn accept(&mut self, bytes: &[u8]) {
        self.0.push(bytes.to_vec());
    }
}

fn scalars(id: u64, text: String) -> Scalars {
    Scalars {
        u64: id,
        s64: -(id as i64),
        text,
        ..Scalars::default()
    }
}

/// Big runs of varints and fixed words, strings, blobs both shorter and longer than the
/// chunk, and nested messages: any of them may straddle a chunk's end.
fn big_repeats() -> impl Strategy<Value = Repeats> {
    (
        vec(any::<u64>(), 0..1500),
        vec(any::<u64>(), 0..1500),
        vec(".{0,40}", 0..200),
        vec(vec(any::<u8>(), 0..(2 * CHUNK + 3)), 0..3),
        vec((any::<u64>(), ".{0,300}"), 0..40),
        vec(any::<f64>(), 0..300),
    )
        .prop_map(|(u64, f64, text, data, msgs, db)| Repeats {
            u64,
            f64,
            text,
            data,
            msgs: msgs.into_iter().map(|(i, t)| scalars(i, t)).collect(),
            db,
            ..Repeats::default()
        })
}

fn check_all_sinks(r: &Repeats) -> Result<(), TestCaseError> {
    same_as_two_passes(r, &EncodeOptions::new(), "repeats");
    let want = r.encode_to_vec().unwrap();
    let mut pieces = Pieces::default();
    r.encode_to_sink(&mut pieces).unwrap();
    prop_assert_eq!(pieces.0.concat(), want.clone());
    // Every piece but the last is whole chunks (a hasher's fast path); none is empty.
    if let Some((last, rest)) = pieces.0.split_last() {
        prop_assert!(!last.is_empty() && last.len() <= CHUNK);
        for p in rest {
            prop_assert!(!p.is_empty() && p.len() % CHUNK == 0, "{}", p.len());
        }
    }
    let mut out = Vec::new();
    r.encode_to_writer(&mut out).unwrap();
    prop_assert_eq!(&out, &want);
    prop_assert_eq!(r.content_id().unwrap(), blake3::hash(&want));
    let mut sha = sha2::Sha256::new();
    r.encode_to_digest(&mut sha).unwrap();
    prop_assert_eq!(sha.finalize(), sha2::Sha256::digest(&want));
    // The borrowed twin hands over the same bytes.
    let twin = RepeatsRef::from(r);
    let mut again = Vec::new();
    twin.encode_to_sink(&mut again).unwrap();
    prop_assert_eq!(&again, &want);
    prop_assert_eq!(twin.content_id().unwrap(), blake3::hash(&want));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn every_sink_takes_the_bytes_of_encode_to_vec(r in big_repeats()) {
        check_all_sinks(&r)?;
    }
}

#[test]
fn chunk_edges_at_every_offset_of_a_varint_and_a_string() {
    // A blob sized so that the next record (a multi-byte varint, then a string) starts
    // on each of the last bytes of the first chunk.
    for pad in CHUNK - 24..CHUNK + 2 {
        let r = Repeats {
            data: vec![vec![0xAB; pad]],
            u64: vec![u64::MAX, 300, 1 << 40],
            text: vec!["x".repeat(20), String::new(), "y".repeat(CHUNK)],
            ..Repeats::default()
        };
        check_all_sinks(&r).unwrap();
    }
    check_all_sinks(&Repeats::default()).unwrap();
}

/// A value whose encoding is exactly `len` bytes: one blob, sized to fit.
fn of_len(len: usize) -> Repeats {
    (len.saturating_sub(12)..=len)
        .rev()
        .map(|n| Repeats {
            data: vec![vec![0x5A; n]],
            ..Repeats::default()
        })
        .find(|r| r.encoded_len() == len)
        .expect("some blob length gives the encoding this length")
}

#[test]
fn one_piece_up_to_the_chunk_either_side_of_the_small_chunk() {
    // Each side of the small frame's edge and of the chunk's: one piece up to CHUNK
    // bytes (content_id hashes it whole), whole chunks and a last piece past it
    // (content_id goes through a hasher); the id is BLAKE3 of the bytes either way.
    let edges = [SMALL_CHUNK, CHUNK];
    for len in edges.iter().flat_map(|&e| e - 2..=e + 2) {
        let r = of_len(len);
        let want = r.encode_to_vec().unwrap();
        assert_eq!(want.len(), len);
        let mut pieces = Pieces::default();
        r.encode_to_sink(&mut pieces).unwrap();
        let sizes: Vec<usize> = pieces.0.iter().map(Vec::len).collect();
        if len <= CHUNK {
            assert_eq!(sizes, [len], "{len}");
        } else {
            assert_eq!(sizes, [CHUNK, len - CHUNK], "{len}");
        }
        assert_eq!(pieces.0.concat(), want, "{len}");
        assert_eq!(r.content_id().unwrap(), blake3::hash(&want), "{len}");
    }
}

#[test]
fn the_empty_encoding_has_the_empty_id() {
    let r = Repeats::default();
    assert!(r.encode_to_vec().unwrap().is_empty());
    assert_eq!(r.content_id().unwrap(), blake3::hash(&[]));
}

#[test]
fn limits_are_checked_before_the_sink_sees_a_byte() {
    let r = Repeats {
        u64: vec![1; 100],
        ..Repeats::default()
    };
    let mut pieces = Pieces::default();
    let opts = EncodeOptions::new().max_size(Some(10));
    let e = r.encode_to_sink_with(&mut pieces, &opts).unwrap_err();
    assert_eq!(e.kind(), EncodeErrorKind::SizeLimitExceeded);
    assert!(pieces.0.is_empty());
}

#[test]
fn the_size_limit_is_the_two_passes_at_its_edge_and_past_the_frame() {
    // SPEC §9.4: an encoding of exactly max_size bytes is written, one more is refused
    // (the length prefix of a length-delimited encoding is not counted), whether the
    // one pass wrote it into the buffer, into the frame, or gave up for the size pass.
    for len in [
        10,
        240,
        260,
        1000,
        SMALL_CHUNK + 3,
        CHUNK - 1,
        CHUNK,
        CHUNK + 1,
    ] {
        let r = of_len(len);
        for max in [len.saturating_sub(1), len, len + 1] {
            let opts = EncodeOptions::new().max_size(Some(max));
            same_as_two_passes(&r, &opts, &format!("len {len}, max {max}"));
            let e = r.encode_to_vec_with(&opts);
            assert_eq!(e.is_ok(), len <= max, "len {len}, max {max}");
        }
    }
}

#[test]
fn a_message_nested_at_the_depth_limit_is_refused_with_room_to_spare() {
    // SPEC §9.3: the one pass gives up at the limit and the size pass refuses, into a
    // buffer with more than enough room as into an empty one; each limit around the
    // chain's depth.
    let mut t = Tree::default();
    for i in 0..9 {
        t = Tree {
            value: i,
            child: Some(Box::new(t)),
            named: [("n".repeat(300), Tree::default())].into(),
            ..Tree::default()
        };
    }
    for max in 0..14 {
        same_as_two_passes(
            &t,
            &EncodeOptions::new().max_depth(max),
            &format!("max {max}"),
        );
    }
}

/// A writer that takes `room` bytes and then fails.
struct Full {
    room: usize,
    taken: Vec<u8>,
}

impl io::Write for Full {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.room == 0 {
            return Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"));
        }
        let n = buf.len().min(self.room);
        self.room -= n;
        self.taken.extend_from_slice(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_writer_error_comes_back_and_nothing_follows_it() {
    let r = Repeats {
        data: vec![vec![7; 3 * CHUNK]],
        ..Repeats::default()
    };
    let want = r.encode_to_vec().unwrap();
    let mut full = Full {
        room: CHUNK + 5,
        taken: Vec::new(),
    };
    let e = r.encode_to_writer(&mut full).unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::StorageFull);
    assert_eq!(full.taken, want[..CHUNK + 5]);
}

/// Every way into a buffer (`encode_to_vec`, `encode` into a `Vec` of each capacity
/// around the encoding's length, after bytes it already holds, into a slice, and the
/// length-delimited variants) against the two passes alone: the same bytes, or the same
/// error with the buffer as it was. The one pass writes into a `Vec`'s spare capacity
/// when it has any, else into a frame and copies; these capacities put it on each side
/// of the room it needs.
fn same_as_two_passes<M: Message>(m: &M, opts: &EncodeOptions, what: &str) {
    use bijoubuf::__private::encode_two_passes;
    for framed in [false, true] {
        let want = encode_two_passes(m, framed, opts);
        let what = format!("{what}, framed {framed}");
        let to_vec = if framed {
            let mut v = Vec::new();
            m.encode_length_delimited_with(&mut v, opts).map(|()| v)
        } else {
            m.encode_to_vec_with(opts)
        };
        assert_eq!(
            to_vec.as_ref().map_err(|e| e.kind()),
            want.as_ref().map_err(|e| e.kind()),
            "to_vec: {what}"
        );
        let len = want.as_ref().map_or_else(|_| m.encoded_len(), Vec::len);
        let head: &[u8] = &[0xC1, 0xC2, 0xC3];
        let caps = [
            0,
            1,
            len / 2,
            len.saturating_sub(1),
            len,
            len + 1,
            2 * len + 8,
        ];
        for (skip, cap) in [0, head.len()]
            .into_iter()
            .flat_map(|skip| caps.map(|c| (skip, c)))
        {
            let mut buf = Vec::with_capacity(skip + cap);
            buf.extend_from_slice(&head[..skip]);
            let room = buf.capacity() - buf.len();
            let r = if framed {
                m.encode_length_delimited_with(&mut buf, opts)
            } else {
                m.encode_with(&mut buf, opts)
            };
            let what = format!("{what}, head {skip}, room {room}");
            match &want {
                Ok(want) => {
                    r.unwrap_or_else(|e| panic!("{what}: {e}"));
                    assert_eq!(&buf[..skip], &head[..skip], "{what}");
                    assert_eq!(&buf[skip..], &want[..], "{what}");
                }
                Err(e) => {
                    assert_eq!(r.map_err(|e| e.kind()), Err(e.kind()), "{what}");
                    assert_eq!(buf, &head[..skip], "{what}");
                }
            }
        }
        // A slice: filled from the front, or refused whole when short.
        for room in [len.saturating_sub(1), len, len + 2] {
            let mut space = vec![0xEE; room];
            let mut rest = &mut space[..];
            let r = if framed {
                m.encode_length_delimited_with(&mut rest, opts)
            } else {
                m.encode_with(&mut rest, opts)
            };
            let left = rest.len();
            match (&want, r) {
                (Ok(want), Ok(())) => {
                    assert_eq!(&space[..want.len()], &want[..], "slice {room}: {what}");
                    assert_eq!(left, room - want.len(), "slice {room}: {what}");
                }
                (Ok(want), Err(e)) => {
                    assert!(room < want.len(), "slice {room}: {what}: {e}");
                    assert_eq!(e.kind(), EncodeErrorKind::BufferTooSmall);
                    assert_eq!((left, space), (room, vec![0xEE; room]), "{what}");
                }
                (Err(want), r) => {
                    assert_eq!(r.map_err(|e| e.kind()), Err(want.kind()), "{what}");
                }
            }
        }
    }
}

/// The sink's bytes and id against `encode_to_vec`'s, and every buffer's against the
/// two passes', for any message type.
fn same_as_vec<M: Message>(m: &M, what: &str) {
    same_as_two_passes(m, &EncodeOptions::new(), what);
    let want = m.encode_to_vec().unwrap();
    let mut pieces = Pieces::default();
    m.encode_to_sink(&mut pieces).unwrap();
    assert_eq!(pieces.0.concat(), want, "{what}");
    assert_eq!(m.content_id().unwrap(), blake3::hash(&want), "{what}");
}

#[test]
fn nested_lengths_at_each_tier_edge_and_the_frame_edge() {
    // SPEC §2.1: a length prefix is one byte below 248, two from 248, three from 504.
    // An encoding of up to CHUNK bytes is written in one pass, each prefix after its
    // content; the lengths here put a nested message, a map, a packed run and the
    // record holding them on each side of those edges, and the whole encoding on each
    // side of the frame's.
    let sizes = (236..260).chain(492..516).chain(CHUNK - 48..CHUNK + 4);
    for n in sizes {
        let r = Repeats {
            msgs: vec![scalars(1, "t".repeat(n)), scalars(2, String::new())],
            u64: vec![300; n / 2],
            ..Repeats::default()
        };
        same_as_vec(&r, &format!("repeats {n}"));
        let leaf = Tree {
            value: 7,
            named: [("k".repeat(n), Tree::default())].into(),
            ..Tree::default()
        };
        let t = Tree {
            child: Some(Box::new(leaf.clone())),
            children: vec![leaf, Tree::default()],
            ..Tree::default()
        };
        same_as_vec(&t, &format!("tree {n}"));
    }
}

#[test]
fn a_nested_message_with_unknown_records_gives_the_bytes_of_encode_to_vec() {
    // The one-pass writer leaves preserved unknown records (SPEC §8.2) to the two
    // passes: the child here holds fields its version does not know.
    let newer = Wider {
        a: 1,
        child: Some(Box::new(Wider {
            x: 5,
            s: "hi".into(),
            a: 2,
            f: 9,
            ..Wider::default()
        })),
        ..Wider::default()
    };
    let opts = DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve);
    let older = Known::decode_with(&newer.encode_to_vec().unwrap(), &opts)
        .unwrap()
        .into_message();
    assert!(!older.child.as_ref().unwrap().unknown_fields().is_empty());
    same_as_vec(&older, "known with a newer child");
    assert_eq!(
        older.encode_to_vec().unwrap(),
        newer.encode_to_vec().unwrap()
    );
}

#[test]
fn depth_is_refused_through_the_sink_as_through_a_vec() {
    // SPEC §9.3: a chain of 5 messages encodes with a depth limit of 5, not of 4.
    let mut t = Tree::default();
    for i in 0..4 {
        t = Tree {
            value: i,
            child: Some(Box::new(t)),
            ..Tree::default()
        };
    }
    for max in [4, 5] {
        let opts = EncodeOptions::new().max_depth(max);
        same_as_two_passes(&t, &opts, &format!("max depth {max}"));
        let mut pieces = Pieces::default();
        let sunk = t.encode_to_sink_with(&mut pieces, &opts);
        assert_eq!(sunk.is_ok(), max == 5, "max depth {max}");
        match t.encode_to_vec_with(&opts) {
            Ok(want) => {
                sunk.unwrap();
                assert_eq!(pieces.0.concat(), want, "max depth {max}");
            }
            Err(e) => {
                assert_eq!(sunk.unwrap_err().kind(), e.kind(), "max depth {max}");
                assert_eq!(e.kind(), EncodeErrorKind::DepthLimitExceeded);
                assert!(pieces.0.is_empty());
            }
        }
    }
}

#[test]
fn encode_to_vec_alternating_long_and_short_encodings_gives_the_two_passes_bytes() {
    // A thread remembers that its last encode past the frame was long and skips the
    // frame's attempt next time; every order of long and short must still give the two
    // passes' bytes, with the frame tried again once a short one has gone through.
    let opts = EncodeOptions::new();
    let frame = 64 * 1024;
    let lens = [
        frame + 10,
        frame + 10,
        100,
        frame - 10,
        frame + 300,
        10,
        3 * frame,
        frame,
        frame + 1,
    ];
    for (i, len) in lens.into_iter().enumerate() {
        let m = of_len(len);
        let two = bijoubuf::__private::encode_two_passes(&m, false, &opts).unwrap();
        assert_eq!(m.encode_to_vec().unwrap(), two, "step {i}, {len} bytes");
        let framed = bijoubuf::__private::encode_two_passes(&m, true, &opts).unwrap();
        assert_eq!(
            m.encode_length_delimited_to_vec().unwrap(),
            framed,
            "step {i}, {len} bytes, framed"
        );
    }
}

/// A run of generated elements large enough in memory for the encoder to prefetch each
/// next one (`Wides.items`, of `Optionals`, which holds its `Scalars` inline) is written
/// alike by every encode: the one pass into spare capacity and through the frame, the
/// two passes, a slice, every sink; and it decodes back. Elements with every field set,
/// with none (nothing to prefetch) and with long strings (wide length prefixes, which the
/// one pass moves content for) alternate, and preserved unknown records ride along.
#[test]
fn a_run_of_prefetched_generated_elements_is_written_alike_by_every_encode() {
    use bijoubuf_codegen_tests::runtime_shapes::{Optionals, Scalars as Shape, Wides};
    const _: () = assert!(
        std::mem::size_of::<Optionals>() >= bijoubuf::__private::PREFETCH_MIN_ELEMENT,
        "Wides.items must be prefetched"
    );
    let item = |i: usize| -> Optionals {
        if i % 4 == 3 {
            return Optionals::default();
        }
        Optionals {
            i64: Some(-(i as i64) << (i % 60)),
            text: Some("é".repeat(i * 29 % 200)),
            data: (!i.is_multiple_of(3)).then(|| vec![i as u8; i * 13 % 90]),
            db: Some(i as f64 / 3.0),
            child: (i % 2 == 1).then(|| Shape {
                text: "k".repeat(i % 17),
                u64: 1 << (i % 64),
                data: vec![7; i % 5],
                ..Shape::default()
            }),
            ..Optionals::default()
        }
    };
    for n in [1usize, 2, 3, 8, 45] {
        let v = Wides {
            items: (0..n).map(item).collect(),
            tail: Some(Shape {
                i32: n as i32,
                ..Shape::default()
            }),
            ..Wides::default()
        };
        let what = format!("{n} wide elements");
        same_as_vec(&v, &what);
        let bytes = v.encode_to_vec().unwrap();
        assert_eq!(Wides::decode(&bytes).unwrap(), v, "{what}");
        // The same run decoded preserving after a record `Wides` does not know (number 9):
        // re-encoded, the unknown record comes back after the known ones.
        let mut wider = bytes.clone();
        wider.extend_from_slice(&[(9 - 2 - 1) << 2, 5]); // step 6, varint (wire 0); 5
        let kept = Wides::decode_with(
            &wider,
            &DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve),
        )
        .unwrap()
        .into_message();
        same_as_vec(&kept, &format!("{what}, with an unknown record"));
        assert_eq!(kept.encode_to_vec().unwrap(), wider, "{what}");
    }
}
