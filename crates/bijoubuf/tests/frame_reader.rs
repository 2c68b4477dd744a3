//! Streams read from an `io::Read` (SPEC §9.2): the same frames, messages and errors as
//! the slice iterator `Frames`, whatever the source's read sizes; errors carry the frame's
//! index and the absolute offset; I/O errors are reported, not swallowed.
mod common;

use std::io::{self, Read};

use bijoubuf::{DecodeOptions, FIRST_CHUNK, FrameReader, Frames, Message, StreamError};
use common::*;
use proptest::prelude::*;

/// A source that hands out at most `chunk` bytes per read, interrupting every other
/// read first, and optionally fails once `fail_at` bytes have been read.
struct Chunky<'a> {
    bytes: &'a [u8],
    chunk: usize,
    fail_at: Option<usize>,
    read: usize,
    interrupt: bool,
}

impl<'a> Chunky<'a> {
    fn new(bytes: &'a [u8], chunk: usize) -> Self {
        Chunky {
            bytes,
            chunk,
            fail_at: None,
            read: 0,
            interrupt: false,
        }
    }
}

impl Read for Chunky<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.interrupt = !self.interrupt;
        if self.interrupt {
            return Err(io::ErrorKind::Interrupted.into());
        }
        if self.fail_at.is_some_and(|at| self.read >= at) {
            return Err(io::Error::other("disk on fire"));
        }
        let mut n = self.chunk.min(buf.len()).min(self.bytes.len());
        if let Some(at) = self.fail_at {
            n = n.min(at - self.read);
        }
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        self.read += n;
        Ok(n)
    }
}

/// What a frame came to: the message, or the error's code, offset and path.
type Outcome = Result<Scalars, (&'static str, usize, String)>;

fn via_slice(stream: &[u8], opts: DecodeOptions) -> Vec<Outcome> {
    Frames::<Scalars>::new(stream, opts)
        .map(|r| {
            r.map(|d| d.into_message())
                .map_err(|e| (e.code(), e.offset(), e.path_string()))
        })
        .collect()
}

fn via_reader(source: impl Read, opts: DecodeOptions) -> Vec<Outcome> {
    let mut frames = FrameReader::new(source, opts);
    let mut out = Vec::new();
    let mut index = 0;
    while let Some(r) = frames.next_message::<Scalars>() {
        out.push(r.map(|d| d.into_message()).map_err(|e: StreamError| {
            assert_eq!(e.index(), index, "the error names the frame");
            let d = e.decode_error().expect("a decode error");
            assert_eq!(e.offset(), d.offset() as u64);
            (d.code(), d.offset(), d.path_string())
        }));
        index += 1;
    }
    assert!(
        frames.next_message::<Scalars>().is_none(),
        "ended stays ended"
    );
    out
}

fn frame(body: &[u8]) -> Vec<u8> {
    let mut v = bijou64::encode(body.len() as u64).as_slice().to_vec();
    v.extend_from_slice(body);
    v
}

#[test]
fn the_same_outcomes_as_frames_over_a_slice() {
    let big = Scalars {
        text: "x".repeat(3 * FIRST_CHUNK + 17),
        ..Default::default()
    }
    .encode_to_vec()
    .unwrap();
    let streams: Vec<Vec<u8>> = vec![
        vec![],
        vec![0x00],
        vec![0x02, 0x00, 0x02, 0x02, 0x18, 0x02], // invalid-bool at 5
        vec![0x02, 0x00, 0x02, 0x03, 0x00],       // truncated frame at 3
        vec![0x02, 0x00, 0x02, 0xF8],             // truncated prefix at 3
        vec![0x02, 0x00, 0x02, 0x04, 0x00, 0x02, 0x00, 0x02],
        [&[0xFF][..], &[0xFF; 8]].concat(), // varint-overflow at 0
        [frame(&big), frame(&[0x00, 0x05]), frame(&big)].concat(),
    ];
    for opts in [DecodeOptions::new(), DecodeOptions::new().max_size(Some(3))] {
        for s in &streams {
            let want = via_slice(s, opts);
            for chunk in [1, 2, 7, 1 << 20] {
                assert_eq!(via_reader(Chunky::new(s, chunk), opts), want, "{s:02x?}");
            }
        }
    }
}

#[test]
fn errors_carry_the_frame_index_and_absolute_offset() {
    // Frame 0 (0..3) and frame 1 (3..6) hold i32 = 1; frame 2's bool is 2 at byte 8.
    let stream = [0x02, 0x00, 0x02, 0x02, 0x00, 0x02, 0x02, 0x18, 0x02];
    let mut frames = FrameReader::new(Chunky::new(&stream, 1), DecodeOptions::new());
    for i in 0..2 {
        let f = frames.next_frame().unwrap().unwrap();
        assert_eq!((f.index(), f.offset()), (i, 3 * i));
        assert_eq!(f.frame_bytes(), &stream[3 * i as usize..3 * i as usize + 3]);
        assert_eq!(f.decode::<Scalars>().unwrap().into_message().i32, 1);
    }
    let e = frames.next_message::<Scalars>().unwrap().unwrap_err();
    assert_eq!((e.index(), e.offset()), (2, 8));
    assert_eq!(e.code(), "invalid-bool");
    assert_eq!(
        e.to_string(),
        "frame 2: invalid-bool: Scalars.flag holds a bool other than 0 or 1 at byte 8"
    );
    assert!(frames.next_frame().is_none());
    // A frame-level error from the untyped reader has no path; typed, the type's name.
    let mut frames = FrameReader::new(&[0x02, 0x00, 0x02, 0x05][..], DecodeOptions::new());
    frames.next_frame().unwrap().unwrap();
    let e = frames.next_frame().unwrap().unwrap_err();
    let d = e.decode_error().unwrap();
    assert_eq!(
        (d.code(), d.offset(), d.path_string()),
        ("truncated", 3, "".into())
    );
    assert_eq!(e.code(), "truncated");
}

#[test]
fn a_failing_source_is_an_io_error_at_the_bytes_read() {
    let stream = [0x02, 0x00, 0x02, 0x02, 0x00, 0x02];
    let mut source = Chunky::new(&stream, 2);
    source.fail_at = Some(4);
    let mut frames = FrameReader::new(source, DecodeOptions::new());
    assert!(frames.next_message::<Scalars>().unwrap().is_ok());
    let e = frames.next_message::<Scalars>().unwrap().unwrap_err();
    assert_eq!((e.index(), e.offset()), (1, 4));
    assert_eq!(e.io_error().unwrap().to_string(), "disk on fire");
    assert!(e.decode_error().is_none());
    assert_eq!(e.code(), "read-failed");
    assert!(
        e.to_string()
            .starts_with("frame 1: reading the stream failed at byte 4")
    );
    assert!(frames.next_frame().is_none());
}

#[test]
fn a_declared_length_over_the_limit_is_refused_before_its_bytes_are_read() {
    // A prefix declaring 2^40 bytes, and a source that fails if asked for more.
    let prefix = bijou64::encode(1 << 40);
    let mut source = Chunky::new(prefix.as_slice(), 1);
    source.fail_at = Some(prefix.as_slice().len());
    let opts = DecodeOptions::new().max_size(Some(1 << 20));
    let mut frames = FrameReader::new(source, opts);
    let e = frames.next_message::<Scalars>().unwrap().unwrap_err();
    let d = e.decode_error().unwrap();
    assert_eq!((d.code(), d.offset()), ("size-limit-exceeded", 0));
    assert_eq!(d.path_string(), "Scalars");
    assert_eq!(frames.buffer_capacity(), FIRST_CHUNK);
}

#[test]
fn a_declared_length_allocates_only_what_arrives() {
    // Without a limit: 2^40 declared, 100 KiB delivered. The buffer grows by doublings
    // the delivered bytes pay for, and the stream ends `truncated` at the prefix.
    let mut stream = bijou64::encode(1 << 40).as_slice().to_vec();
    stream.resize(stream.len() + 100 * 1024, 0x00);
    let mut frames = FrameReader::new(Chunky::new(&stream, 1 << 20), DecodeOptions::new());
    let e = frames.next_message::<Scalars>().unwrap().unwrap_err();
    assert_eq!(e.decode_error().unwrap().code(), "truncated");
    assert_eq!(e.offset(), 0);
    assert!(
        frames.buffer_capacity() <= 2 * stream.len(),
        "{}",
        frames.buffer_capacity()
    );
}

#[test]
fn the_buffer_holds_the_largest_frame_and_is_reused() {
    let big = Scalars {
        data: vec![7; 5 * FIRST_CHUNK],
        ..Default::default()
    };
    let small = Scalars {
        i32: 3,
        ..Default::default()
    };
    let mut stream = Vec::new();
    for m in [&small, &big, &small, &big, &small] {
        m.encode_length_delimited(&mut stream).unwrap();
    }
    let mut frames = FrameReader::new(Chunky::new(&stream, 4096), DecodeOptions::new());
    let mut value = Scalars::default();
    let mut caps = Vec::new();
    while let Some(r) = frames.next_into(&mut value) {
        r.unwrap();
        caps.push(frames.buffer_capacity());
    }
    assert_eq!(value, small);
    assert_eq!(frames.frames_read(), 5);
    assert_eq!(frames.offset(), stream.len() as u64);
    // Grown once for the first big frame (within a doubling of it), then unchanged.
    assert!(caps[1] >= big.encoded_len() && caps[1] <= 2 * big.encoded_len() + FIRST_CHUNK);
    assert!(caps[1..].iter().all(|&c| c == caps[1]), "{caps:?}");
    let (_, rest) = frames.into_inner();
    assert!(rest.is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random streams (valid frames with bytes flipped, cut or appended) read in random
    /// read sizes: the reader's outcomes are the slice iterator's.
    #[test]
    fn any_stream_any_read_size(
        bodies in prop::collection::vec((any::<i32>(), any::<bool>(), ".{0,40}"), 0..6),
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..3),
        cut in any::<prop::sample::Index>(),
        chunk in 1usize..64,
        limit in prop::option::of(0usize..48),
    ) {
        let mut stream = Vec::new();
        for (i, flag, text) in bodies {
            let m = Scalars { i32: i, flag, text, ..Default::default() };
            m.encode_length_delimited(&mut stream).unwrap();
        }
        if !stream.is_empty() {
            for (at, b) in flips {
                let at = at.index(stream.len());
                stream[at] = b;
            }
            let keep = cut.index(stream.len() + 1);
            stream.truncate(keep);
        }
        let opts = DecodeOptions::new().max_size(limit);
        prop_assert_eq!(via_reader(Chunky::new(&stream, chunk), opts), via_slice(&stream, opts));
    }
}
