//! Encoding into a byte sink (a hasher, a writer) without a buffer of the message's size.
//!
//! [`Message::encode_to_sink`](crate::Message::encode_to_sink) first writes the encoding
//! in one pass into a frame of [`CHUNK`] bytes, with no size pass: each length prefix is
//! written after the content it counts, in a byte reserved for it, and content of 248
//! bytes or more is moved right by the one or two bytes its wider prefix takes. An
//! encoding that fits goes to the sink as one piece. One that does not (or a value with
//! preserved unknown records, or nested at the depth limit) is encoded as every encode
//! is: the size pass, then the write pass into a chunk on the stack ([`SMALL_CHUNK`]
//! bytes for an encoding that fits it, else [`CHUNK`]), handed to the sink each time it
//! is full; a `string` or `bytes` value spanning more than a chunk goes to the sink in
//! whole chunks' worth straight from the message. Either way an encoding of at most
//! [`CHUNK`] bytes reaches the sink as one piece. The sink receives exactly the bytes
//! [`encode_to_vec`](crate::Message::encode_to_vec) returns, in order, in pieces: no
//! allocation for the output, no copy of long values, and memory touched once. That is
//! what content addressing wants: [`content_id`](crate::Message::content_id) (feature
//! `blake3`) is BLAKE3 of the canonical bytes, and any hasher of the `digest` traits
//! (feature `digest`) takes an encoding the same way.
//!
//! ```
//! use bijoubuf::Message;
//! use bijoubuf::wkt::Timestamp;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let t = Timestamp { seconds: 1, nanos: 5 };
//! let mut pieces: Vec<u8> = Vec::new();
//! t.encode_to_sink(&mut pieces)?;
//! assert_eq!(pieces, t.encode_to_vec()?);
//!
//! let mut file = Vec::new(); // any `std::io::Write`
//! t.encode_to_writer(&mut file)?;
//! assert_eq!(file, pieces);
//! # Ok(()) }
//! ```

use core::mem::MaybeUninit;

use crate::__private::{Encode, Outcome, Sizer, Spill, Writer, encode_direct, within_limit};
use crate::error::{EncodeError, EncodeErrorKind};
use crate::options::EncodeOptions;

/// The size of the chunk an encoding longer than [`SMALL_CHUNK`] is written through, on
/// the stack.
///
/// Every piece a sink is given is a whole number of chunks but the last (a long value
/// is handed over in whole chunks' worth straight from the message); an encoding of at
/// most `CHUNK` bytes is one piece.
///
/// Why 64 KiB: each time the chunk fills, a spilling write leaves the writer's fast
/// path, and a packed run that straddles the edge is finished element by element (the
/// numeric dataset, 62 KB, took 2.4 % more instructions through 16 KiB chunks than
/// encode-then-hash, 0.1 % fewer through one 64 KiB piece); a hasher given the whole
/// encoding at once hashes it as `blake3::hash` does. `benches/RESULTS.md` has the
/// measurements.
pub const CHUNK: usize = 64 * 1024;

/// The chunk an encoding of at most this many bytes is written through instead of
/// [`CHUNK`]: one piece, from a smaller frame.
///
/// Why: a 64 KiB frame costs a short message more than its encoding does. The stack
/// below the caller is touched a page at a time to reach it, and hashing a 146-byte
/// GoogleMessage1 through one took 11 % longer than through a 16 KiB frame.
pub const SMALL_CHUNK: usize = 16 * 1024;

/// A destination that takes an encoding in pieces, in order: a hasher, a writer, a
/// network buffer. Implemented for `Vec<u8>` (appends), `blake3::Hasher` (feature
/// `blake3`) and, through [`DigestSink`], every hasher of the `digest` traits (feature
/// `digest`).
pub trait ByteSink {
    /// Take the next `bytes` of the encoding.
    fn accept(&mut self, bytes: &[u8]);
}

impl<S: ByteSink + ?Sized> ByteSink for &mut S {
    fn accept(&mut self, bytes: &[u8]) {
        (**self).accept(bytes);
    }
}

impl ByteSink for alloc::vec::Vec<u8> {
    fn accept(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

#[cfg(feature = "blake3")]
impl ByteSink for blake3::Hasher {
    fn accept(&mut self, bytes: &[u8]) {
        self.update(bytes);
    }
}

/// A hasher of the `digest` 0.11 traits (SHA-2, SHA-3, BLAKE2, …) as a [`ByteSink`]
/// (feature `digest`): `message.encode_to_sink(&mut DigestSink(&mut hasher))`, or
/// [`Message::encode_to_digest`](crate::Message::encode_to_digest).
#[cfg(feature = "digest")]
#[derive(Debug)]
pub struct DigestSink<'d, D: ?Sized>(pub &'d mut D);

#[cfg(feature = "digest")]
impl<D: digest::Update + ?Sized> ByteSink for DigestSink<'_, D> {
    fn accept(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
}

/// A sink that counts what it has taken, so the encode can check the total.
struct Counted<'s, S: ?Sized> {
    sink: &'s mut S,
    taken: usize,
}

impl<S: ByteSink + ?Sized> Spill for Counted<'_, S> {
    fn spill(&mut self, bytes: &[u8]) {
        self.taken += bytes.len();
        self.sink.accept(bytes);
    }
}

/// Encode `m` into `sink` in one pass through a frame, or through a chunk on the stack
/// (see the module docs).
///
/// The depth and size limits are checked before the sink sees a byte (by the one pass,
/// which gives up at the depth limit and leaves the refusal to the size pass);
/// a `SizeMismatch` or `FieldOrder` error (a hand-written `Message` whose passes
/// disagree) is found after the sink has taken some of the output.
pub(crate) fn encode_into<M: Encode, S: ByteSink + ?Sized>(
    m: &M,
    sink: &mut S,
    opts: &EncodeOptions,
) -> Result<(), EncodeError> {
    encode_checked(m, sink, opts, |_| Ok(()))
}

/// [`encode_into`], with `room` asked whether the sink takes the encoding's length
/// before it is given a byte.
pub(crate) fn encode_checked<M: Encode, S: ByteSink + ?Sized>(
    m: &M,
    sink: &mut S,
    opts: &EncodeOptions,
    room: impl FnOnce(usize) -> Result<(), EncodeError>,
) -> Result<(), EncodeError> {
    let mut room = Some(room);
    // One pass into a frame first (see `frame`): given up, it has handed nothing over.
    let one_pass = frame::with(|f| {
        let Outcome::Wrote { bytes, .. } = encode_direct(m, f, opts.max_depth, false) else {
            return None;
        };
        Some(within_limit(bytes.len(), opts).and_then(|()| {
            room.take().map_or(Ok(()), |room| room(bytes.len()))?;
            // The empty encoding is no piece at all, as through the two passes.
            if !bytes.is_empty() {
                sink.accept(bytes);
            }
            Ok(())
        }))
    });
    if let Some(done) = one_pass.flatten() {
        return done;
    }
    let mut s = Sizer::new(opts.max_depth);
    let len = s.top(m);
    s.check()?;
    within_limit(len, opts)?;
    room.take().map_or(Ok(()), |room| room(len))?;
    let mut counted = Counted { sink, taken: 0 };
    if len <= SMALL_CHUNK {
        write_through::<M, SMALL_CHUNK>(m, &s, len, &mut counted)?;
    } else {
        write_through::<M, CHUNK>(m, &s, len, &mut counted)?;
    }
    if counted.taken != len {
        return Err(EncodeError::new(EncodeErrorKind::SizeMismatch, 0));
    }
    Ok(())
}

/// The frame the one-pass writer (`__private::direct`) encodes into before anything
/// reaches the sink: an encoding that fits is handed over as one piece, with no size
/// pass. `encode` and `encode_to_vec` use it too, for a buffer with less room of its own
/// (a new `Vec`), and copy the encoding out of it.
///
/// With `std`, each thread keeps one frame of [`CHUNK`] bytes on the heap for its next
/// encode (allocated at its first, never zeroed): a frame on the stack would be touched
/// a page at a time to reach it on every call, which cost a short message 11 % (see
/// [`SMALL_CHUNK`]). A thread that finds its frame in use (an encode inside a sink)
/// makes another for the time of the call. Without `std` the frame is [`SMALL_CHUNK`]
/// bytes on the stack.
pub(crate) mod frame {
    use core::mem::MaybeUninit;

    /// The frame's length.
    #[cfg(feature = "std")]
    pub(crate) const LEN: usize = super::CHUNK;
    /// The frame's length.
    #[cfg(not(feature = "std"))]
    pub(crate) const LEN: usize = super::SMALL_CHUNK;

    /// Run `f` on the frame; `None` when there is none to be had.
    #[cfg(feature = "std")]
    pub(crate) fn with<R>(f: impl FnOnce(&mut [MaybeUninit<u8>]) -> R) -> Option<R> {
        use alloc::vec::Vec;
        use core::cell::Cell;
        std::thread_local! {
            static FRAME: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
        }
        let mut v = FRAME.try_with(Cell::take).ok()?;
        v.clear();
        v.reserve_exact(super::CHUNK);
        let r = f(v.spare_capacity_mut().get_mut(..super::CHUNK)?);
        let _ = FRAME.try_with(|c| c.set(v));
        Some(r)
    }

    #[cfg(feature = "std")]
    std::thread_local! {
        /// Whether this thread's last encode into a buffer without room was longer than
        /// the frame (see `api::encode_framed`).
        static LONG: core::cell::Cell<bool> = const { core::cell::Cell::new(false) };
    }

    /// Whether this thread's last encode that went past the frame's attempt was longer
    /// than the frame; `false` without `std` (no thread state: the frame is always tried).
    #[inline]
    pub(crate) fn last_was_long() -> bool {
        #[cfg(feature = "std")]
        {
            LONG.try_with(core::cell::Cell::get).unwrap_or(false)
        }
        #[cfg(not(feature = "std"))]
        {
            false
        }
    }

    /// Record whether an encode that the two passes wrote was longer than the frame.
    #[inline]
    pub(crate) fn set_last_was_long(long: bool) {
        #[cfg(feature = "std")]
        {
            let _ = LONG.try_with(|c| c.set(long));
        }
        #[cfg(not(feature = "std"))]
        {
            let _ = long;
        }
    }

    /// Run `f` on the frame, on the stack of a function of its own.
    #[cfg(not(feature = "std"))]
    #[inline(never)]
    pub(crate) fn with<R>(f: impl FnOnce(&mut [MaybeUninit<u8>]) -> R) -> Option<R> {
        let mut frame = [const { MaybeUninit::<u8>::uninit() }; super::SMALL_CHUNK];
        Some(f(&mut frame))
    }
}

/// The write pass of `m` (sized by `s` at `len` bytes) through a chunk of `N` bytes on
/// this function's own frame, handed to `spill` whenever it fills and at the end.
///
/// Not inlined: each chunk size gets its own frame, so a short message does not pay
/// for the long one's (see [`SMALL_CHUNK`]).
#[inline(never)]
fn write_through<M: Encode, const N: usize>(
    m: &M,
    s: &Sizer<'_>,
    len: usize,
    spill: &mut dyn Spill,
) -> Result<(), EncodeError> {
    let mut chunk = [const { MaybeUninit::<u8>::uninit() }; N];
    let out = chunk.get_mut(..len.min(N)).unwrap_or_default();
    let mut w = Writer::new_spilling(out, s, spill);
    w.top(m)?;
    w.spill_out();
    Ok(())
}

/// BLAKE3 of `m`'s encoding, as [`Message::content_id`](crate::Message::content_id)
/// computes it.
///
/// An encoding that comes as one piece (at most [`CHUNK`] bytes) is hashed with
/// `blake3::hash`, which hashes a whole input in one tree; a longer one goes through a
/// `blake3::Hasher` piece by piece. The id is the same (BLAKE3's tree does not depend
/// on how its input is cut).
#[cfg(feature = "blake3")]
pub(crate) fn content_id<M: Encode>(m: &M) -> Result<blake3::Hash, EncodeError> {
    let len = core::cell::Cell::new(0);
    let mut id = IdSink {
        len: &len,
        hasher: None,
        whole: None,
    };
    encode_checked(m, &mut id, &EncodeOptions::new(), |n| {
        len.set(n);
        Ok(())
    })?;
    Ok(match (id.whole, id.hasher) {
        (Some(h), None) => h,
        (None, Some(h)) => h.finalize(),
        // Nothing was handed over: the empty encoding.
        _ => blake3::hash(&[]),
    })
}

/// The sink of [`content_id`]: the one piece hashed whole, or every piece through a
/// hasher.
#[cfg(feature = "blake3")]
struct IdSink<'c> {
    /// The encoding's length, known from the size pass before any piece comes.
    len: &'c core::cell::Cell<usize>,
    hasher: Option<blake3::Hasher>,
    whole: Option<blake3::Hash>,
}

#[cfg(feature = "blake3")]
impl ByteSink for IdSink<'_> {
    fn accept(&mut self, bytes: &[u8]) {
        if self.hasher.is_none() && self.whole.is_none() && bytes.len() == self.len.get() {
            self.whole = Some(blake3::hash(bytes));
            return;
        }
        self.hasher
            .get_or_insert_with(blake3::Hasher::new)
            .update(bytes);
    }
}

/// An `io::Write` as a sink: the first error is kept and what follows is dropped.
#[cfg(feature = "std")]
struct WriteSink<W> {
    w: W,
    error: Option<std::io::Error>,
}

#[cfg(feature = "std")]
impl<W: std::io::Write> ByteSink for WriteSink<W> {
    fn accept(&mut self, bytes: &[u8]) {
        if self.error.is_none()
            && let Err(e) = self.w.write_all(bytes)
        {
            self.error = Some(e);
        }
    }
}

/// Encode `m` into `w` in chunks; an encode error is `InvalidInput` wrapping the
/// [`EncodeError`].
#[cfg(feature = "std")]
pub(crate) fn encode_to_writer<M: Encode, W: std::io::Write>(
    m: &M,
    w: W,
    opts: &EncodeOptions,
) -> std::io::Result<()> {
    let mut sink = WriteSink { w, error: None };
    let encoded = encode_into(m, &mut sink, opts);
    if let Some(e) = sink.error {
        return Err(e);
    }
    encoded.map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))
}
