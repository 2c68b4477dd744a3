//! Encoding into a sink (`encode_to_sink`, `encode_to_writer`, `content_id`,
//! `encode_to_digest`) hands over exactly the bytes of `encode_to_vec`, in order, for
//! values small and large enough to cross the stack chunk's edge anywhere.

use std::io;

use bijoubuf::sink::{ByteSink, CHUNK, SMALL_CHUNK};
use bijoubuf::{EncodeErrorKind, EncodeOptions, Message, MessageRef};
use bijoubuf_codegen_tests::kitchen::{Repeats, RepeatsRef, Scalars};
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
