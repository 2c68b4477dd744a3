//! The public encode and decode API, written once for owned message types and borrowed
//! twins: [`AnyMessage<'a>`] holds every method's body, and [`Message`] and
//! [`MessageRef<'a>`] forward to it, so that `Order::decode(&bytes)`,
//! `OrderRef::decode(&bytes)` and `m.encode_to_vec()` need only the trait the type
//! implements in scope.
//!
//! Encoding into a buffer ([`encode`](Message::encode), [`encode_to_vec`](Message::encode_to_vec),
//! the `_with` and length-delimited variants) tries one pass first, with no size pass
//! (see `__private::direct`): straight into a `Vec`'s spare capacity when it has any (a
//! reused buffer), else into the thread's 64 KiB frame and then one copy into a region
//! claimed at the exact length (`encode_to_vec` returns a `Vec` of exactly the
//! encoding's capacity). When that gives up (room too short and the encoding longer
//! than the frame, a hand-written `Message`, preserved unknown records, nesting at the
//! depth limit) it encodes with the two passes, which give the same bytes and report
//! the errors. Either way the limits are checked before the buffer takes a byte, and
//! nothing is appended on error. An encoding longer than both the room and the frame
//! pays for the attempt, about a frame's worth of writing, before the two passes; the
//! thread then remembers that its last such encoding was long and goes straight to the
//! two passes next time, until one fits the frame again. So a thread that encodes only
//! long messages with `encode_to_vec` pays the attempt once, and a thread alternating
//! short and long ones pays it at each change from short to long (`benches/RESULTS.md`).
//! A reused `Vec` with room for the encoding never pays it.

use alloc::vec::Vec;

use crate::__private::{self, Decode, Encode, NoTable, Reader, Sizer};
use crate::error::{EncodeErrorKind as EK, ErrorKind as K};
use crate::{
    BufMut, ByteSink, DecodeError, DecodeOptions, Decoded, EncodeError, EncodeOptions,
    MAX_DEPTH_LIMIT, UnknownFields, sink, stream,
};
#[cfg(doc)]
use crate::{Message, MessageRef};

/// A reader over all of `bytes` as a top-level `M` read with `opts`, or the refusal of an
/// input longer than the size limit (SPEC §9.4), at byte 0 and rooted at `M`'s name.
#[inline]
fn top_reader<'a, M: Decode<'a>>(
    bytes: &'a [u8],
    opts: &DecodeOptions,
) -> Result<Reader<'a>, DecodeError> {
    match opts.max_size {
        // SPEC §9.4
        Some(max) if bytes.len() > max => {
            Err(DecodeError::new(K::SizeLimitExceeded, 0).in_message(__private::name::<M>()))
        }
        _ => Ok(Reader::new(bytes, 0, bytes.len(), opts)),
    }
}

/// [`AnyMessage::decode_with`]'s value alone, without the count of unknown records: for
/// a caller that hands the value on (the gRPC codec). `decode_with` moves the value once
/// more, into its [`Decoded`] (benches/RESULTS-rpc.md, "The codec's decode: one copy of
/// the value fewer").
#[inline]
pub fn decode_value_with<'a, M: Decode<'a>>(
    bytes: &'a [u8],
    opts: &DecodeOptions,
) -> Result<M, DecodeError> {
    top_reader::<M>(bytes, opts)?.top()
}

/// Any message type, owned (`Foo`, a [`Message`]) or borrowed (`FooRef<'a>`, a
/// [`MessageRef<'a>`]), decoded from input that lives for `'a`: the public API of both,
/// for code generic over either.
///
/// Every type that implements the generated code's contract has it (a blanket impl),
/// an owned type for every `'a`. Each method is the one of the same name on [`Message`],
/// which documents it; [`Message`] and [`MessageRef`] forward to these.
///
/// Name it in bounds by path (`M: bijoubuf::AnyMessage<'a>`); a bound brings its
/// methods into scope without an import. Importing it next to [`Message`] or
/// [`MessageRef`] makes calls on a concrete type (`Foo::decode`) ambiguous, since the
/// type then has each method twice; so does a glob import of the crate root
/// (`use bijoubuf::*`): import the traits by name.
///
/// ```
/// use bijoubuf::{AnyMessage, DecodeError, EncodeError};
///
/// /// Decode and re-encode: the canonical encoding is the input itself.
/// fn round_trip<'a, M: AnyMessage<'a>>(bytes: &'a [u8]) -> Result<bool, Box<dyn std::error::Error>> {
///     let m = M::decode(bytes)?;
///     Ok(m.encode_to_vec()? == bytes)
/// }
/// // An empty `Timestamp` is its zero: no bytes at all.
/// assert!(round_trip::<bijoubuf::wkt::Timestamp>(&[]).unwrap());
/// ```
pub trait AnyMessage<'a>: Decode<'a> {
    /// [`Message::unknown_fields`].
    #[inline]
    fn unknown_fields(&self) -> &UnknownFields {
        self.__unknown()
    }

    /// [`Message::decode`].
    fn decode(bytes: &'a [u8]) -> Result<Self, DecodeError> {
        let mut r = Reader::new(bytes, 0, bytes.len(), &DecodeOptions::new());
        r.top()
    }

    /// [`Message::decode_with`].
    fn decode_with(bytes: &'a [u8], opts: &DecodeOptions) -> Result<Decoded<Self>, DecodeError> {
        let mut r = top_reader::<Self>(bytes, opts)?;
        let m = r.top()?;
        Ok(Decoded::new(m, r.unknown_count()))
    }

    /// [`Message::decode_into`].
    fn decode_into(&mut self, bytes: &'a [u8]) -> Result<(), DecodeError> {
        let mut r = Reader::new(bytes, 0, bytes.len(), &DecodeOptions::new());
        r.top_into(self)
    }

    /// [`Message::decode_length_delimited`].
    fn decode_length_delimited(bytes: &'a [u8]) -> Result<(Self, usize), DecodeError> {
        Self::decode_length_delimited_with(bytes, &DecodeOptions::new())
            .map(|(d, n)| (d.into_message(), n))
    }

    /// [`Message::decode_length_delimited_with`].
    fn decode_length_delimited_with(
        bytes: &'a [u8],
        opts: &DecodeOptions,
    ) -> Result<(Decoded<Self>, usize), DecodeError> {
        stream::decode_frame(bytes, 0, opts)
    }

    /// [`Message::encoded_len`].
    fn encoded_len(&self) -> usize {
        let mut s = Sizer::<NoTable>::new(MAX_DEPTH_LIMIT);
        s.top(self)
    }

    /// [`Message::encode`].
    fn encode<B: BufMut + ?Sized>(&self, buf: &mut B) -> Result<(), EncodeError> {
        encode_framed(self, buf, false, &EncodeOptions::new())
    }

    /// [`Message::encode_with`].
    fn encode_with<B: BufMut + ?Sized>(
        &self,
        buf: &mut B,
        opts: &EncodeOptions,
    ) -> Result<(), EncodeError> {
        encode_framed(self, buf, false, opts)
    }

    /// [`Message::encode_to_vec`].
    fn encode_to_vec(&self) -> Result<Vec<u8>, EncodeError> {
        self.encode_to_vec_with(&EncodeOptions::new())
    }

    /// [`Message::encode_to_vec_with`].
    fn encode_to_vec_with(&self, opts: &EncodeOptions) -> Result<Vec<u8>, EncodeError> {
        let mut v = Vec::new();
        encode_framed(self, &mut v, false, opts)?;
        Ok(v)
    }

    /// [`Message::encode_length_delimited`].
    fn encode_length_delimited<B: BufMut + ?Sized>(&self, buf: &mut B) -> Result<(), EncodeError> {
        encode_framed(self, buf, true, &EncodeOptions::new())
    }

    /// [`Message::encode_length_delimited_with`].
    fn encode_length_delimited_with<B: BufMut + ?Sized>(
        &self,
        buf: &mut B,
        opts: &EncodeOptions,
    ) -> Result<(), EncodeError> {
        encode_framed(self, buf, true, opts)
    }

    /// [`Message::encode_length_delimited_to_vec`].
    fn encode_length_delimited_to_vec(&self) -> Result<Vec<u8>, EncodeError> {
        let mut v = Vec::new();
        encode_framed(self, &mut v, true, &EncodeOptions::new())?;
        Ok(v)
    }

    /// [`Message::encode_to_sink`].
    fn encode_to_sink<S: ByteSink + ?Sized>(&self, sink: &mut S) -> Result<(), EncodeError> {
        sink::encode_into(self, sink, &EncodeOptions::new())
    }

    /// [`Message::encode_to_sink_with`].
    fn encode_to_sink_with<S: ByteSink + ?Sized>(
        &self,
        sink: &mut S,
        opts: &EncodeOptions,
    ) -> Result<(), EncodeError> {
        sink::encode_into(self, sink, opts)
    }

    /// [`Message::encode_to_writer`].
    #[cfg(feature = "std")]
    fn encode_to_writer<W: std::io::Write>(&self, w: W) -> std::io::Result<()> {
        sink::encode_to_writer(self, w, &EncodeOptions::new())
    }

    /// [`Message::content_id`].
    #[cfg(feature = "blake3")]
    fn content_id(&self) -> Result<blake3::Hash, EncodeError> {
        sink::content_id(self)
    }

    /// [`Message::encode_to_buf_mut`].
    #[cfg(feature = "bytes")]
    fn encode_to_buf_mut<B: bytes::BufMut + ?Sized>(&self, buf: &mut B) -> Result<(), EncodeError> {
        crate::bytes_buf::encode_to_buf_mut(self, buf, &EncodeOptions::new())
    }

    /// [`Message::encode_to_digest`].
    #[cfg(feature = "digest")]
    fn encode_to_digest<D: digest::Update + ?Sized>(
        &self,
        hasher: &mut D,
    ) -> Result<(), EncodeError> {
        sink::encode_into(self, &mut sink::DigestSink(hasher), &EncodeOptions::new())
    }
}

impl<'a, M: Decode<'a>> AnyMessage<'a> for M {}

/// Encode `m` (after its length when `framed`) into `buf`: in one pass when it can
/// (see the module docs), else with the size pass first.
fn encode_framed<M: Encode, B: BufMut + ?Sized>(
    m: &M,
    buf: &mut B,
    framed: bool,
    opts: &EncodeOptions,
) -> Result<(), EncodeError> {
    // 1. Straight into the buffer's room (a reused `Vec`'s capacity).
    let room = buf.__room();
    if room > 0 {
        let mut one = __private::OnePass::new(m, framed, opts);
        let put = buf.__put_front(&mut one);
        match one.outcome {
            // Written and taken, or refused by the size limit.
            Some(__private::Outcome::Wrote { .. }) => return put,
            Some(__private::Outcome::Refused) => {
                return encode_sized(m, buf, framed, opts).map(drop);
            }
            Some(__private::Outcome::Full) | None => {}
        }
    }
    // 2. Into the thread's frame when that is more room than the buffer had, then one
    // copy into a region of the buffer claimed at the exact size; not when this
    // thread's last encoding that came here was longer than the frame (an encoding
    // longer than the frame pays for a frame's worth of writing before the two passes:
    // a thread encoding long messages pays it once, not on every call).
    if room < sink::frame::LEN && !sink::frame::last_was_long() {
        let one =
            sink::frame::with(
                |f| match __private::encode_direct(m, f, opts.max_depth, framed) {
                    __private::Outcome::Wrote { bytes, content } => Some(
                        __private::within_limit(content, opts)
                            .and_then(|()| buf.__put(bytes.len(), &mut __private::Copied(bytes))),
                    ),
                    __private::Outcome::Full | __private::Outcome::Refused => None,
                },
            );
        if let Some(done) = one.flatten() {
            return done;
        }
    }
    // 3. Longer than the frame, or only the two passes take it.
    let len = encode_sized(m, buf, framed, opts)?;
    sink::frame::set_last_was_long(len > sink::frame::LEN);
    Ok(())
}

/// `m`'s encoding (after its length when `framed`) by the two passes only: the
/// reference the one pass is tested against, byte for byte and error for error. Not API.
#[doc(hidden)]
pub fn encode_two_passes<M: Encode>(
    m: &M,
    framed: bool,
    opts: &EncodeOptions,
) -> Result<Vec<u8>, EncodeError> {
    let mut v = Vec::new();
    encode_sized(m, &mut v, framed, opts)?;
    Ok(v)
}

/// Size `m`, check the limits, then write it (after its length when `framed`) into a
/// buffer claimed once at the exact size: the two passes, which the one pass must match
/// byte for byte.
fn encode_sized<M: Encode, B: BufMut + ?Sized>(
    m: &M,
    buf: &mut B,
    framed: bool,
    opts: &EncodeOptions,
) -> Result<usize, EncodeError> {
    let mut s = Sizer::new(opts.max_depth);
    let len = s.top(m);
    s.check()?;
    if let Some(max) = opts.max_size
        && len > max
    {
        // SPEC §9, §9.4: the bytes a decoder with this size limit would refuse.
        return Err(EncodeError::over_limit(EK::SizeLimitExceeded, len, max));
    }
    let prefix = if framed {
        bijou64::encoded_len(len as u64)
    } else {
        0
    };
    buf.__put(
        prefix + len,
        &mut __private::Encoding::new(m, &s, len, framed),
    )?;
    Ok(prefix + len)
}
