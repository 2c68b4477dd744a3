//! Length-delimited streams read incrementally (SPEC §9.2): frames from a
//! [`std::io::Read`] and, with the `tokio` feature, from a `tokio::io::AsyncRead`, one
//! frame at a time in one reused buffer.
//!
//! The checks are those of the slice iterator [`Frames`](crate::Frames): a prefix that
//! overflows is `varint-overflow`, a prefix or a frame the stream ends inside is
//! `truncated`, both at the first byte of the prefix; a size limit refuses a frame at its
//! prefix, once the prefix is read and before any of the frame's bytes are awaited (SPEC
//! §9.4). Offsets count from the first byte of the stream.
//!
//! Memory: the buffer starts at [`FIRST_CHUNK`] bytes and grows only when it is full of
//! bytes the stream has delivered, at most doubling, so a declared length is never
//! allocated ahead of the bytes that pay for it. Once it holds the largest frame seen it
//! is reused: reading frames no larger than that allocates nothing.

#[cfg(feature = "tokio")]
mod tokio;

use std::fmt;
use std::io::{self, Read};
use std::vec::Vec;

#[cfg(feature = "tokio")]
pub use self::tokio::AsyncFrameReader;

use crate::__private::{Decode, Reader};
use crate::Message;
use crate::error::{DecodeError, ErrorKind};
use crate::options::{DecodeOptions, Decoded};

/// The size a frame reader's buffer starts at: one read from the source fills it, so a
/// stream of small frames costs one read call per this many bytes.
pub const FIRST_CHUNK: usize = 64 * 1024;

/// One frame of a stream, borrowed from the reader's buffer until the next frame is read.
#[derive(Debug, Clone, Copy)]
pub struct Frame<'a> {
    index: u64,
    offset: u64,
    prefix: usize,
    bytes: &'a [u8],
    opts: DecodeOptions,
}

impl<'a> Frame<'a> {
    /// The frame's position in the stream: 0 for the first.
    pub fn index(&self) -> u64 {
        self.index
    }

    /// The stream offset of the first byte of the frame's length prefix.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The message's bytes (the frame without its length prefix).
    pub fn message_bytes(&self) -> &'a [u8] {
        &self.bytes[self.prefix..]
    }

    /// The whole frame as it was read: the length prefix and the message's bytes.
    pub fn frame_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Decode the frame as a message of type `M` with the reader's options; offsets in
    /// the error count from the start of the stream. `M` may be a borrowed type
    /// ([`MessageRef`](crate::MessageRef)) that borrows from this frame.
    pub fn decode<M: Decode<'a>>(&self) -> Result<Decoded<M>, StreamError> {
        let mut r = Reader::new(self.bytes, self.prefix, self.bytes.len(), &self.opts);
        match r.top::<M>() {
            Ok(m) => Ok(Decoded::new(m, r.unknown_count())),
            Err(e) => Err(self.error(e)),
        }
    }

    /// Decode the frame into `m`, reusing its allocations as
    /// [`Message::decode_into`] does, with the reader's options.
    pub fn decode_into<M: Message>(&self, m: &mut M) -> Result<(), StreamError> {
        let mut r = Reader::new(self.bytes, self.prefix, self.bytes.len(), &self.opts);
        r.top_into(m).map_err(|e| self.error(e))
    }

    /// `e`, found in this frame with offsets counted from the frame's first byte, as a
    /// stream error with offsets counted from the stream's.
    #[cold]
    fn error(&self, e: DecodeError) -> StreamError {
        StreamError::decode(self.index, e.shifted(self.offset))
    }
}

/// Why a frame of a stream could not be read: the frame's index, the absolute offset,
/// and either the [`DecodeError`] (with its offset counted from the stream's start) or
/// the I/O error of the source.
pub struct StreamError {
    index: u64,
    offset: u64,
    source: Source,
}

enum Source {
    Decode(DecodeError),
    Io(io::Error),
}

impl StreamError {
    #[cold]
    fn decode(index: u64, e: DecodeError) -> Self {
        StreamError {
            index,
            offset: e.offset() as u64,
            source: Source::Decode(e),
        }
    }

    /// The index of the frame that failed (0 for the first).
    pub fn index(&self) -> u64 {
        self.index
    }

    /// The absolute stream offset: where the decode error is (SPEC §11), or how far the
    /// stream had been read when the source failed.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The stable kebab-case code: the [`DecodeError`]'s (`truncated`,
    /// `invalid-utf8`, …; SPEC §11.1) when the frame was refused, `read-failed` when
    /// reading the source failed.
    pub fn code(&self) -> &'static str {
        match &self.source {
            Source::Decode(e) => e.code(),
            Source::Io(_) => "read-failed",
        }
    }

    /// The decode error, when the frame was refused (not when reading failed).
    pub fn decode_error(&self) -> Option<&DecodeError> {
        match &self.source {
            Source::Decode(e) => Some(e),
            Source::Io(_) => None,
        }
    }

    /// The source's error, when reading failed.
    pub fn io_error(&self) -> Option<&io::Error> {
        match &self.source {
            Source::Io(e) => Some(e),
            Source::Decode(_) => None,
        }
    }

    /// Root a frame-level error's empty path at the message type, as the slice decoder
    /// does (SPEC §9.2).
    #[cold]
    fn in_message(mut self, name: &'static str) -> Self {
        if let Source::Decode(e) = self.source {
            self.source = Source::Decode(if e.path().next().is_none() {
                e.in_message(name)
            } else {
                e
            });
        }
        self
    }
}

impl fmt::Debug for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("StreamError");
        d.field("index", &self.index).field("offset", &self.offset);
        match &self.source {
            Source::Decode(e) => d.field("decode", e),
            Source::Io(e) => d.field("io", e),
        };
        d.finish()
    }
}

impl fmt::Display for StreamError {
    /// `frame 3: invalid-utf8: Person.name is not valid UTF-8 at byte 1291`, or
    /// `frame 3: reading the stream failed at byte 1280: …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.source {
            Source::Decode(e) => write!(f, "frame {}: {e}", self.index),
            Source::Io(e) => write!(
                f,
                "frame {}: reading the stream failed at byte {}: {e}",
                self.index, self.offset
            ),
        }
    }
}

impl std::error::Error for StreamError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.source {
            Source::Decode(e) => Some(e),
            Source::Io(e) => Some(e),
        }
    }
}

/// What the buffer holds next.
enum Step {
    /// A whole frame at the head: its prefix and content lengths.
    Ready { prefix: usize, len: usize },
    /// The head needs at least this many bytes before the next step can be decided.
    More(u64),
    /// The stream ended cleanly, at a frame boundary.
    End,
}

/// The buffer and the position shared by the blocking and the async reader: everything
/// but the read call.
#[derive(Debug)]
struct Window {
    /// Bytes `head..filled` are delivered and not yet handed out; the rest is room.
    buf: Vec<u8>,
    head: usize,
    filled: usize,
    /// The source has reported its end.
    eof: bool,
    /// The stream offset of `buf[head]`.
    pos: u64,
    /// The index of the next frame.
    index: u64,
    failed: bool,
    opts: DecodeOptions,
}

impl Window {
    fn new(opts: DecodeOptions) -> Self {
        Window {
            buf: Vec::new(),
            head: 0,
            filled: 0,
            eof: false,
            pos: 0,
            index: 0,
            failed: false,
            opts,
        }
    }

    /// A frame-level error of the frame at the head, reported at its prefix (SPEC §9.2).
    #[cold]
    fn at_prefix(&self, kind: ErrorKind) -> StreamError {
        let at = usize::try_from(self.pos).unwrap_or(usize::MAX);
        StreamError::decode(self.index, DecodeError::new(kind, at))
    }

    #[cold]
    fn io(&mut self, e: io::Error) -> StreamError {
        self.failed = true;
        StreamError {
            index: self.index,
            offset: self.pos + (self.filled - self.head) as u64,
            source: Source::Io(e),
        }
    }

    fn step(&self) -> Result<Step, StreamError> {
        let avail = &self.buf[self.head..self.filled];
        if avail.is_empty() {
            return Ok(if self.eof { Step::End } else { Step::More(1) });
        }
        let (len, n) = match bijou64::decode(avail) {
            Ok(v) => v,
            Err(bijou64::Error::Overflow) => {
                return Err(self.at_prefix(ErrorKind::VarintOverflow));
            }
            // SPEC §9.2: a stream that ends inside a prefix is truncated at the prefix.
            Err(_) if self.eof => return Err(self.at_prefix(ErrorKind::Truncated)),
            Err(_) => return Ok(Step::More(avail.len() as u64 + 1)),
        };
        if let Some(max) = self.opts.max_size
            && len > max as u64
        {
            // SPEC §9.4: at the prefix, before the frame's bytes are awaited.
            return Err(self.at_prefix(ErrorKind::SizeLimitExceeded));
        }
        let total = len.saturating_add(n as u64);
        if avail.len() as u64 >= total {
            // `len` fits: it is at most the bytes in the buffer.
            Ok(Step::Ready {
                prefix: n,
                len: len as usize,
            })
        } else if self.eof {
            // SPEC §9.2: a partial frame is truncated at its length prefix.
            Err(self.at_prefix(ErrorKind::Truncated))
        } else {
            Ok(Step::More(total))
        }
    }

    /// Make room to read towards `total` bytes at the head. Grows the buffer only when it
    /// is full of delivered bytes, at most doubling it: what is allocated is paid for by
    /// what arrived (SPEC §9.4), and a length prefix alone allocates nothing.
    fn make_room(&mut self, total: u64) {
        if self.filled < self.buf.len() {
            return;
        }
        if self.head > 0 {
            self.buf.copy_within(self.head..self.filled, 0);
            self.filled -= self.head;
            self.head = 0;
            if self.filled < self.buf.len() {
                return;
            }
        }
        let doubled = (self.buf.len() as u64).saturating_mul(2);
        let want = total.min(doubled).max(FIRST_CHUNK as u64);
        // `want` is at most twice the buffer, which is in memory, or FIRST_CHUNK.
        self.buf.resize(want as usize, 0);
    }

    /// Hand out the frame at the head (after `Step::Ready`).
    fn take(&mut self, prefix: usize, len: usize) -> Frame<'_> {
        let start = self.head;
        let end = start + prefix + len;
        let frame = Frame {
            index: self.index,
            offset: self.pos,
            prefix,
            bytes: &self.buf[start..end],
            opts: self.opts,
        };
        self.head = end;
        self.pos += (prefix + len) as u64;
        self.index += 1;
        frame
    }

    /// Record a read of `n` bytes into the room (0: the source ended).
    fn filled(&mut self, n: usize) {
        if n == 0 {
            self.eof = true;
        } else {
            self.filled += n;
        }
    }

    fn room(&mut self) -> &mut [u8] {
        &mut self.buf[self.filled..]
    }
}

/// The messages of a length-delimited stream read from an [`io::Read`] (SPEC §9.2), one
/// frame at a time: memory is one buffer that holds the largest frame, whatever the
/// stream's length.
///
/// The reader does its own buffering (reads of at least [`FIRST_CHUNK`] bytes), so a
/// `File` or `Stdin` need no `BufReader`. After the first error every call returns
/// `None`.
///
/// ```
/// use bijoubuf::{DecodeOptions, FrameReader};
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// // Two frames: an empty message, then a message holding one VARINT record.
/// let stream: &[u8] = &[0x00, 0x02, 0x00, 0x01];
/// let mut frames = FrameReader::new(stream, DecodeOptions::new());
/// let mut sizes = Vec::new();
/// while let Some(frame) = frames.next_frame() {
///     let frame = frame?;
///     sizes.push((frame.offset(), frame.message_bytes().len()));
/// }
/// assert_eq!(sizes, [(0, 0), (1, 2)]);
/// # Ok(()) }
/// ```
///
/// Typed: `while let Some(m) = frames.next_message::<Person>() { let person = m?; … }`,
/// or [`next_into`](Self::next_into) to reuse one value's allocations.
#[derive(Debug)]
pub struct FrameReader<R> {
    inner: R,
    w: Window,
}

impl<R: Read> FrameReader<R> {
    /// Read frames from `inner`, each decoded with `opts` (a size limit applies per frame).
    pub fn new(inner: R, opts: DecodeOptions) -> Self {
        FrameReader {
            inner,
            w: Window::new(opts),
        }
    }

    /// The next frame, undecoded: `None` at the end of the stream (at a frame boundary)
    /// and after an error. Frame-level errors (`truncated`, `varint-overflow`,
    /// `size-limit-exceeded` at the prefix) have an empty path; typed reads root it at
    /// the message type.
    pub fn next_frame(&mut self) -> Option<Result<Frame<'_>, StreamError>> {
        if self.w.failed {
            return None;
        }
        loop {
            match self.w.step() {
                Ok(Step::Ready { prefix, len }) => return Some(Ok(self.w.take(prefix, len))),
                Ok(Step::End) => return None,
                Ok(Step::More(total)) => {
                    self.w.make_room(total);
                    let n = loop {
                        match self.inner.read(self.w.room()) {
                            Ok(n) => break n,
                            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                            Err(e) => return Some(Err(self.w.io(e))),
                        }
                    };
                    self.w.filled(n);
                }
                Err(e) => {
                    self.w.failed = true;
                    return Some(Err(e));
                }
            }
        }
    }

    /// The next frame decoded as an `M`: `None` at the end of the stream and after an
    /// error. The first error ends the stream.
    pub fn next_message<M: Message>(&mut self) -> Option<Result<Decoded<M>, StreamError>> {
        let r = match self.next_frame()? {
            Ok(frame) => frame.decode::<M>(),
            Err(e) => Err(e.in_message(crate::__private::name::<M>())),
        };
        self.w.failed |= r.is_err();
        Some(r)
    }

    /// The next frame decoded into `m`, reusing its allocations
    /// ([`Message::decode_into`]); `None` at the end of the stream and after an error.
    pub fn next_into<M: Message>(&mut self, m: &mut M) -> Option<Result<(), StreamError>> {
        let r = match self.next_frame()? {
            Ok(frame) => frame.decode_into(m),
            Err(e) => Err(e.in_message(crate::__private::name::<M>())),
        };
        self.w.failed |= r.is_err();
        Some(r)
    }

    /// The stream offset of the next frame (the stream's length once it has ended).
    pub fn offset(&self) -> u64 {
        self.w.pos
    }

    /// The number of frames handed out so far.
    pub fn frames_read(&self) -> u64 {
        self.w.index
    }

    /// The bytes the buffer holds room for: the largest frame so far, rounded up to a
    /// doubling of [`FIRST_CHUNK`].
    pub fn buffer_capacity(&self) -> usize {
        self.w.buf.len()
    }

    /// The source, and the bytes read from it past the last frame handed out.
    pub fn into_inner(self) -> (R, Vec<u8>) {
        let mut rest = self.w.buf;
        rest.truncate(self.w.filled);
        rest.drain(..self.w.head);
        (self.inner, rest)
    }
}
