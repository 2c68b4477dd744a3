//! bijoubuf runtime: canonical Protobuf-style messages, where every value has exactly one
//! byte string and the decoder refuses every other.
//!
//! This crate sits between [`bijou64`] (the varint every integer, key and length is
//! written with) and the code that `bijoubuf-build` generates from `.proto` schemas:
//! generated structs implement [`Message`], and applications call [`Message::encode`],
//! [`Message::decode`] and friends. The format itself is specified in
//! `conformance/SPEC.md`; each check in this crate cites its section.
//!
//! - **Strict by default.** [`Message::decode`] refuses every non-canonical input with a
//!   [`DecodeError`] that names a stable code, the absolute byte offset and the field
//!   path; unknown fields are refused unless [`DecodeOptions`] asks to preserve them, in
//!   which case re-encoding reproduces the input byte for byte.
//! - **Linear encoding.** A size pass computes every nested length once, then a write
//!   pass fills a buffer of exactly [`Message::encoded_len`] bytes (see
//!   [`__private`]'s writer docs for why).
//! - **Bounded.** No panic on any input; a length is checked against the remaining bytes
//!   before anything is allocated, and a repeated or map run reserves at most 16 bytes
//!   per byte of its content before its elements are checked; nesting is limited
//!   ([`DEFAULT_MAX_DEPTH`], configurable up to [`MAX_DEPTH_LIMIT`]) on both sides, with
//!   [`DecodeOptions`] and [`EncodeOptions`].
//! - `no_std` + `alloc`; the `std` feature (default) adds [`FrameReader`], which reads a
//!   length-delimited stream from an `std::io::Read` one frame at a time in one reused
//!   buffer, and the `tokio` feature its async twin `AsyncFrameReader` over a
//!   `tokio::io::AsyncRead`.
//!
//! # Encoding in linear time
//!
//! A LEN record's length prefix precedes its content, and a nested message's length
//! depends on everything below it. Computing a sub-message's length afresh at every level
//! (what a single recursive pass does) costs O(depth) per byte. Encoding here runs two
//! passes instead: a size pass walks the value once, bottom-up, and records the length of
//! every nested message, non-fixed repeated run and map in a table in pre-order (one
//! vector, allocated only when the value has such composites); the write
//! pass walks the value in the same order, takes each length from the table when it
//! writes the prefix, and fills a buffer claimed once at the exact total size. Writing
//! back to front would avoid the table but needs a buffer of its own and a copy, and
//! the delta keys (SPEC §4.1) would have to be known before the field they precede; the
//! table keeps both passes forward and lets [`BufMut`] be any contiguous destination.
//!
//! Where the encoding fits a bounded region (a reused `Vec`'s spare capacity, or a
//! per-thread frame of 64 KiB), encode runs one pass instead: a byte reserved for each
//! length, the content written, then the length, the content moved right when the
//! length needs more bytes. That costs at most one move per nesting level a byte sits
//! under (bounded by the depth limit) and no size pass; the two passes remain for
//! everything else and give the same bytes (`__private`'s `direct` docs).
//!
//! # Decoding
//!
//! One forward pass, no lookups: generated code asks for each known field once, in
//! ascending number order, and the cursor disposes of (or keeps) anything in between.
//! Because keys are deltas, no record can come out of order or twice; what structure
//! cannot exclude is checked next to the read it guards (SPEC §10), and the first
//! violation in byte order is reported.
//!
//! # The traits
//!
//! An owned message type `Foo` implements [`Message`]; a borrowed twin `FooRef<'a>`
//! (`bijoubuf-build`'s `borrowed` option) implements [`MessageRef<'a>`]. Both rest on
//! one hidden contract with generated code, declared once in `__private` (not API):
//! `Encode`, the walk both encoding passes run, and `Decode<'a>`, the decode from
//! input that lives for `'a` (an owned type implements it for every `'a`).
//!
//! ```text
//! Message      : Encode<Schema = Self> + for<'a> Decode<'a>   names, field numbers
//! MessageRef<'a>: Decode<'a>            (Decode<'a>: Encode)    Schema = the owned twin
//! AnyMessage<'a>: every type with the contract (blanket impl)   the public API's bodies
//! ```
//!
//! The public encode and decode API is written once, on [`AnyMessage<'a>`]: the
//! methods of [`Message`] and [`MessageRef`] forward to it, so `Order::decode(&bytes)`,
//! `OrderRef::decode(&bytes)` and `order.encode_to_vec()` need only the trait the type
//! implements in scope, and code generic over owned and borrowed types alike bounds
//! on `AnyMessage<'a>`.
//!
//! # Example
//!
//! Generated code looks like this hand-written message (`message Point { sint32 x = 1;
//! sint32 y = 2; string label = 3; }`):
//!
//! ```
//! use bijoubuf::__private::{Decode, Encode, Pass, Reader, SInt32, Str};
//! use bijoubuf::{DecodeError, ErrorKind, Message, UnknownFields};
//!
//! #[derive(Debug, Default, PartialEq)]
//! struct Point { x: i32, y: i32, label: String, unknown_fields: UnknownFields }
//!
//! // The schema's facts; every method of `Message` is provided. A type without
//! // unknown-field storage leaves out `KEEPS_UNKNOWN_FIELDS` and `__unknown` below.
//! impl Message for Point {
//!     const NAME: &'static str = "Point";
//!     const FIELD_NUMBERS: &'static [u32] = &[1, 2, 3];
//!     const KEEPS_UNKNOWN_FIELDS: bool = true;
//! }
//!
//! // The hidden contract (not API), the same for owned types and borrowed twins.
//! impl Encode for Point {
//!     type Schema = Self;
//!     fn __unknown(&self) -> &UnknownFields { &self.unknown_fields }
//!     // One walk over the fields for both encoding passes: the size pass sums the
//!     // fields' lengths, the write pass writes them.
//!     fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
//!         p.implicit::<SInt32>(1, &self.x)
//!             + p.implicit::<SInt32>(2, &self.y)
//!             + p.implicit::<Str>(3, &self.label)
//!     }
//! }
//!
//! impl<'a> Decode<'a> for Point {
//!     fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
//!         let x = r.implicit::<SInt32>(1, "x")?;
//!         let y = r.implicit::<SInt32>(2, "y")?;
//!         let label = r.implicit::<Str>(3, "label")?;
//!         let unknown_fields = r.finish()?;
//!         Ok(Point { x, y, label, unknown_fields })
//!     }
//! }
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let p = Point { x: -2, y: 0, label: "a".into(), ..Point::default() };
//! let bytes = p.encode_to_vec()?;
//! // x: key 0x00 (field 1, VARINT), zigzag(-2) = 3; y is the default and omitted;
//! // label: key delta 1 -> (1 << 2) | LEN = 0x06, length 1, "a".
//! assert_eq!(bytes, [0x00, 0x03, 0x06, 0x01, b'a']);
//! assert_eq!(Point::decode(&bytes)?, p);
//!
//! // The same field written holding its default is refused, with code, path and offset.
//! let err = Point::decode(&[0x04, 0x00]).unwrap_err();
//! assert_eq!(err.kind(), ErrorKind::DefaultValuePresent);
//! assert_eq!(err.to_string(), "default-value-present: Point.y holds its default at byte 0");
//! # Ok(()) }
//! ```
#![cfg_attr(not(feature = "std"), no_std)]
// `unsafe` is refused except where an item allows it with a measured reason: the ASCII
// fast path in `__private::codec`; encoding into a `Vec`'s spare capacity without
// zero-filling it (`buf`, and the writer's byte copy in `__private::writer`).
#![deny(unsafe_code)]

extern crate alloc;

mod api;
mod buf;
#[cfg(feature = "bytes")]
mod bytes_buf;
mod error;
pub mod fixed_run;
#[cfg(feature = "std")]
mod frame_reader;
mod options;
pub mod sink;
pub mod sorted_map;
mod stream;
mod unknown;
pub mod wkt;

#[doc(hidden)]
pub mod __private;

use alloc::vec::Vec;

pub use api::AnyMessage;
pub use buf::BufMut;
pub use error::{DecodeError, EncodeError, EncodeErrorKind, ErrorKind, PathSegment};
pub use fixed_run::{FixedRun, FixedWidth};
#[cfg(feature = "tokio")]
pub use frame_reader::AsyncFrameReader;
#[cfg(feature = "std")]
pub use frame_reader::{FIRST_CHUNK, Frame, FrameReader, StreamError};
pub use options::{
    DEFAULT_MAX_DEPTH, DecodeOptions, Decoded, EncodeOptions, MAX_DEPTH_LIMIT, UnknownFieldPolicy,
};
pub use sink::ByteSink;
pub use sorted_map::SortedMap;
pub use stream::Frames;
pub use unknown::{UnknownField, UnknownFields, UnknownValue};

/// The prefix of the type URLs [`Message::type_url`] makes, as protobuf's libraries
/// write them. [`Any`](wkt::Any) unpacking reads only what follows the last `/` of a
/// URL, so URLs with another host are understood too.
pub const TYPE_URL_PREFIX: &str = "type.googleapis.com/";

/// A message type: encoded and decoded canonically.
///
/// Implementations come from the code generator, which also implements the hidden
/// contract this trait builds on (`__private::Encode` and `__private::Decode<'a>` for
/// every `'a`: the walk and the decode, not API). The schema's facts are declared here;
/// the methods are provided, written once on [`AnyMessage`] for owned and borrowed
/// types alike.
pub trait Message: __private::Encode<Schema = Self> + for<'a> __private::Decode<'a> {
    /// The short type name, the root of error paths (`Person` in `Person.age`).
    const NAME: &'static str;

    /// The fully-qualified type name: the package, enclosing messages and the name,
    /// dotted (`shop.v1.Order`, `shop.v1.Order.Line`), with no leading dot. What an
    /// [`Any`](wkt::Any)'s type URL ends with ([`type_url`](Self::type_url)).
    ///
    /// Generated code always sets it; a hand-written type in no package may leave it
    /// to default to [`NAME`](Self::NAME).
    const FULL_NAME: &'static str = Self::NAME;

    /// The proto package the type is declared in (`shop.v1`), empty for none.
    const PACKAGE: &'static str = "";

    /// [`FULL_NAME`](Self::FULL_NAME) as a function, as prost's `Name::full_name` is.
    fn full_name() -> &'static str {
        Self::FULL_NAME
    }

    /// The type URL an [`Any`](wkt::Any) holding this type carries:
    /// `type.googleapis.com/` followed by [`FULL_NAME`](Self::FULL_NAME), the prefix
    /// protobuf's own libraries write ([`TYPE_URL_PREFIX`]).
    fn type_url() -> alloc::string::String {
        let mut url =
            alloc::string::String::with_capacity(TYPE_URL_PREFIX.len() + Self::FULL_NAME.len());
        url.push_str(TYPE_URL_PREFIX);
        url.push_str(Self::FULL_NAME);
        url
    }

    /// The field numbers the schema declares for this message, ascending (oneof members
    /// included). Preserved unknown fields may not use them (SPEC §8.2).
    const FIELD_NUMBERS: &'static [u32];

    /// Whether values of this type keep unknown field records. A type that does not (its
    /// `unknown_fields` is always empty) is decoded strictly even under
    /// [`UnknownFieldPolicy::Preserve`]: an unknown record in it is `unknown-field` at
    /// the record's key, like in strict mode (SPEC §8.1), instead of being dropped.
    ///
    /// `false` by default, as the hidden contract's default for the stored records is
    /// the empty set; a type with unknown-field storage sets it to `true` (generated
    /// code does for the types the `preserve_unknown_fields` option selects).
    const KEEPS_UNKNOWN_FIELDS: bool = false;

    /// Unknown field records kept by a preserving decode (empty otherwise).
    fn unknown_fields(&self) -> &UnknownFields {
        self.__unknown()
    }

    /// The exact number of bytes [`encode`](Self::encode) writes for this value.
    ///
    /// Exact for every value some [`EncodeOptions`] accept; for a value nested deeper
    /// than [`MAX_DEPTH_LIMIT`], which none do, the number is not meaningful.
    fn encoded_len(&self) -> usize {
        <Self as AnyMessage<'_>>::encoded_len(self)
    }

    /// Append the encoding to `buf`.
    ///
    /// Refuses values the default decoder would refuse: nesting deeper than
    /// [`DEFAULT_MAX_DEPTH`] (SPEC §9.3). Nothing is written on error.
    fn encode<B: BufMut + ?Sized>(&self, buf: &mut B) -> Result<(), EncodeError> {
        <Self as AnyMessage<'_>>::encode(self, buf)
    }

    /// [`encode`](Self::encode) with limits: refuses values nesting deeper than
    /// `opts`' depth limit (`depth-limit-exceeded`) and encodings longer than its size
    /// limit (`size-limit-exceeded`), SPEC §9. Nothing is written on error.
    fn encode_with<B: BufMut + ?Sized>(
        &self,
        buf: &mut B,
        opts: &EncodeOptions,
    ) -> Result<(), EncodeError> {
        <Self as AnyMessage<'_>>::encode_with(self, buf, opts)
    }

    /// [`encode_with`](Self::encode_with) into a new `Vec`.
    fn encode_to_vec_with(&self, opts: &EncodeOptions) -> Result<Vec<u8>, EncodeError> {
        <Self as AnyMessage<'_>>::encode_to_vec_with(self, opts)
    }

    /// The encoding in a new `Vec`.
    fn encode_to_vec(&self) -> Result<Vec<u8>, EncodeError> {
        <Self as AnyMessage<'_>>::encode_to_vec(self)
    }

    /// Append a bijou64 length and then the encoding: one frame of a stream (SPEC §9.2).
    fn encode_length_delimited<B: BufMut + ?Sized>(&self, buf: &mut B) -> Result<(), EncodeError> {
        <Self as AnyMessage<'_>>::encode_length_delimited(self, buf)
    }

    /// [`encode_length_delimited`](Self::encode_length_delimited) with limits; a size
    /// limit applies to the frame's content, as a decoder's does (SPEC §9.4).
    fn encode_length_delimited_with<B: BufMut + ?Sized>(
        &self,
        buf: &mut B,
        opts: &EncodeOptions,
    ) -> Result<(), EncodeError> {
        <Self as AnyMessage<'_>>::encode_length_delimited_with(self, buf, opts)
    }

    /// One length-delimited frame in a new `Vec`.
    fn encode_length_delimited_to_vec(&self) -> Result<Vec<u8>, EncodeError> {
        <Self as AnyMessage<'_>>::encode_length_delimited_to_vec(self)
    }

    /// Hand the encoding to `sink` in pieces, through a chunk on the stack instead of a
    /// buffer of the encoding's size: exactly the bytes
    /// [`encode_to_vec`](Self::encode_to_vec) returns, in order ([`sink`] says how).
    ///
    /// Limits are checked before the sink sees a byte; only a hand-written `Message`
    /// whose passes disagree fails (`size-mismatch`) after the sink has taken some.
    fn encode_to_sink<S: ByteSink + ?Sized>(&self, sink: &mut S) -> Result<(), EncodeError> {
        <Self as AnyMessage<'_>>::encode_to_sink(self, sink)
    }

    /// [`encode_to_sink`](Self::encode_to_sink) with limits, as
    /// [`encode_with`](Self::encode_with).
    fn encode_to_sink_with<S: ByteSink + ?Sized>(
        &self,
        sink: &mut S,
        opts: &EncodeOptions,
    ) -> Result<(), EncodeError> {
        <Self as AnyMessage<'_>>::encode_to_sink_with(self, sink, opts)
    }

    /// Write the encoding to `w` in pieces, one `write_all` each (whole
    /// [`sink::CHUNK`]s but the last), with no buffer of the encoding's size. An
    /// [`EncodeError`] comes back as an `io::Error` of kind `InvalidInput` that wraps it;
    /// the first write error ends the writing and is returned.
    #[cfg(feature = "std")]
    fn encode_to_writer<W: std::io::Write>(&self, w: W) -> std::io::Result<()> {
        <Self as AnyMessage<'_>>::encode_to_writer(self, w)
    }

    /// The value's content id: BLAKE3 of its canonical encoding, hashed as it is
    /// encoded (no buffer). Equal values have equal ids, and since the encoding is the
    /// value's only one, every implementation agrees on it.
    #[cfg(feature = "blake3")]
    fn content_id(&self) -> Result<blake3::Hash, EncodeError> {
        <Self as AnyMessage<'_>>::content_id(self)
    }

    /// Put the encoding into any `bytes::BufMut` (feature `bytes`), in pieces, after
    /// checking that it has room for all of it (`buffer-too-small` otherwise, with
    /// nothing written). A `BytesMut` is also a [`BufMut`] for [`encode`](Self::encode).
    #[cfg(feature = "bytes")]
    fn encode_to_buf_mut<B: bytes::BufMut + ?Sized>(&self, buf: &mut B) -> Result<(), EncodeError> {
        <Self as AnyMessage<'_>>::encode_to_buf_mut(self, buf)
    }

    /// Decode the rest of `buf` (any `bytes::Buf`; feature `bytes`) as one message, as
    /// [`decode`](Self::decode) does, and consume it. A buffer whose rest is one chunk
    /// (`Bytes`, `BytesMut`, a slice) is read in place and left as it was on error; one
    /// split across chunks is copied once and consumed either way.
    #[cfg(feature = "bytes")]
    fn decode_buf<B: bytes::Buf + ?Sized>(buf: &mut B) -> Result<Self, DecodeError> {
        bytes_buf::decode_buf(buf)
    }

    /// Decode the length-delimited frame at the front of `buf` (feature `bytes`) and
    /// consume it, as [`decode_length_delimited`](Self::decode_length_delimited) does;
    /// offsets count from the frame's first byte. A frame within the buffer's first
    /// chunk is read in place (and nothing consumed on error); one split across chunks
    /// is copied once.
    #[cfg(feature = "bytes")]
    fn decode_length_delimited_buf<B: bytes::Buf + ?Sized>(
        buf: &mut B,
    ) -> Result<Self, DecodeError> {
        bytes_buf::decode_frame_buf(buf)
    }

    /// Feed the encoding to a hasher of the `digest` 0.11 traits (SHA-2, SHA-3, BLAKE2, …;
    /// `sha2` 0.11's `Sha256`, not `sha2` 0.10's) as it is encoded.
    #[cfg(feature = "digest")]
    fn encode_to_digest<D: digest::Update + ?Sized>(
        &self,
        hasher: &mut D,
    ) -> Result<(), EncodeError> {
        <Self as AnyMessage<'_>>::encode_to_digest(self, hasher)
    }

    /// Decode `bytes` as one whole message with the default options: strict, depth 100.
    fn decode(bytes: &[u8]) -> Result<Self, DecodeError> {
        <Self as AnyMessage<'_>>::decode(bytes)
    }

    /// Decode `bytes` with `opts`; the result tells whether unknown fields were kept.
    fn decode_with(bytes: &[u8], opts: &DecodeOptions) -> Result<Decoded<Self>, DecodeError> {
        <Self as AnyMessage<'_>>::decode_with(bytes, opts)
    }

    /// Decode `bytes` into `self` with the default options, keeping the capacity of its
    /// strings, byte strings and repeated fields (and of nested messages' fields) for the
    /// next value: for streams of messages. The checks, errors, offsets and paths are
    /// [`decode`](Self::decode)'s.
    ///
    /// On success `self` is exactly what `decode` returns. On error `self` is some valid
    /// value but not a meaningful one: fields before the failing record may hold the new
    /// input's values, the others the old ones. Decode again or reset it before use.
    /// An optional field the input leaves out, a map and a oneof are replaced rather than
    /// reused.
    fn decode_into(&mut self, bytes: &[u8]) -> Result<(), DecodeError> {
        <Self as AnyMessage<'_>>::decode_into(self, bytes)
    }

    /// Decode one length-delimited frame at the start of `bytes` (SPEC §9.2); returns the
    /// message and the number of bytes the frame used. Offsets in errors count from the
    /// start of `bytes`.
    fn decode_length_delimited(bytes: &[u8]) -> Result<(Self, usize), DecodeError> {
        <Self as AnyMessage<'_>>::decode_length_delimited(bytes)
    }

    /// [`decode_length_delimited`](Self::decode_length_delimited) with options; a size
    /// limit applies to the frame's length and is reported at its length prefix. To read
    /// a whole stream with offsets counted from its start, use [`Frames`].
    fn decode_length_delimited_with(
        bytes: &[u8],
        opts: &DecodeOptions,
    ) -> Result<(Decoded<Self>, usize), DecodeError> {
        <Self as AnyMessage<'_>>::decode_length_delimited_with(bytes, opts)
    }
}

/// A borrowed message type: `FooRef<'a>`, generated next to an owned `Foo` for the
/// types `bijoubuf-build`'s `borrowed` option selects, whose `string` and `bytes` fields
/// are `&'a str` and `&'a [u8]` slices of the input it was decoded from.
///
/// Decoding runs the same strict decoder as [`Message::decode`]: every check, with the
/// same error codes, offsets and paths; a borrowed value encodes to exactly the bytes of
/// its owned twin. A message without repeated or map fields decodes without allocating;
/// each repeated field allocates one vector. Unknown fields are kept under
/// [`UnknownFieldPolicy::Preserve`] as for the owned twin (copied into
/// [`UnknownFields`], so only an input that has them pays for the copy).
///
/// Generated code converts both ways: `Foo::borrowed(&self) -> FooRef<'_>`,
/// `FooRef::to_owned(&self) -> Foo`, and the matching `From` impls.
pub trait MessageRef<'a>: __private::Decode<'a> {
    /// The owned twin.
    type Owned: Message;

    /// The owned twin's [`Message::FULL_NAME`] (`shop.v1.Order`).
    const FULL_NAME: &'static str = <Self::Owned as Message>::FULL_NAME;

    /// The owned twin's [`Message::PACKAGE`].
    const PACKAGE: &'static str = <Self::Owned as Message>::PACKAGE;

    /// The owned twin's [`Message::type_url`].
    fn type_url() -> alloc::string::String {
        <Self::Owned as Message>::type_url()
    }

    /// Unknown field records kept by a preserving decode (empty otherwise).
    fn unknown_fields(&self) -> &UnknownFields {
        self.__unknown()
    }

    /// Decode `bytes` as one whole message with the default options: strict, depth 100.
    fn decode(bytes: &'a [u8]) -> Result<Self, DecodeError> {
        <Self as AnyMessage<'a>>::decode(bytes)
    }

    /// Decode `bytes` with `opts`; the result tells whether unknown fields were kept.
    fn decode_with(bytes: &'a [u8], opts: &DecodeOptions) -> Result<Decoded<Self>, DecodeError> {
        <Self as AnyMessage<'a>>::decode_with(bytes, opts)
    }

    /// Decode `bytes` into `self`, as [`Message::decode_into`] does (a borrowed value
    /// has no strings to reuse; its repeated fields' vectors keep their capacity).
    fn decode_into(&mut self, bytes: &'a [u8]) -> Result<(), DecodeError> {
        <Self as AnyMessage<'a>>::decode_into(self, bytes)
    }

    /// Decode one length-delimited frame at the start of `bytes`, as
    /// [`Message::decode_length_delimited`] does.
    fn decode_length_delimited(bytes: &'a [u8]) -> Result<(Self, usize), DecodeError> {
        <Self as AnyMessage<'a>>::decode_length_delimited(bytes)
    }

    /// Decode one length-delimited frame at the start of `bytes` (SPEC §9.2), as
    /// [`Message::decode_length_delimited_with`] does.
    fn decode_length_delimited_with(
        bytes: &'a [u8],
        opts: &DecodeOptions,
    ) -> Result<(Decoded<Self>, usize), DecodeError> {
        <Self as AnyMessage<'a>>::decode_length_delimited_with(bytes, opts)
    }

    /// The exact number of bytes [`encode`](Self::encode) writes for this value.
    fn encoded_len(&self) -> usize {
        <Self as AnyMessage<'a>>::encoded_len(self)
    }

    /// Append the encoding to `buf`, as [`Message::encode`] does.
    fn encode<B: BufMut + ?Sized>(&self, buf: &mut B) -> Result<(), EncodeError> {
        <Self as AnyMessage<'a>>::encode(self, buf)
    }

    /// Append the encoding to `buf` with limits, as [`Message::encode_with`] does.
    fn encode_with<B: BufMut + ?Sized>(
        &self,
        buf: &mut B,
        opts: &EncodeOptions,
    ) -> Result<(), EncodeError> {
        <Self as AnyMessage<'a>>::encode_with(self, buf, opts)
    }

    /// The encoding in a new `Vec`.
    fn encode_to_vec(&self) -> Result<Vec<u8>, EncodeError> {
        <Self as AnyMessage<'a>>::encode_to_vec(self)
    }

    /// The encoding in a new `Vec`, with limits, as [`Message::encode_to_vec_with`].
    fn encode_to_vec_with(&self, opts: &EncodeOptions) -> Result<Vec<u8>, EncodeError> {
        <Self as AnyMessage<'a>>::encode_to_vec_with(self, opts)
    }

    /// Append one length-delimited frame, as [`Message::encode_length_delimited`] does.
    fn encode_length_delimited<B: BufMut + ?Sized>(&self, buf: &mut B) -> Result<(), EncodeError> {
        <Self as AnyMessage<'a>>::encode_length_delimited(self, buf)
    }

    /// Append one length-delimited frame with limits, as
    /// [`Message::encode_length_delimited_with`] does.
    fn encode_length_delimited_with<B: BufMut + ?Sized>(
        &self,
        buf: &mut B,
        opts: &EncodeOptions,
    ) -> Result<(), EncodeError> {
        <Self as AnyMessage<'a>>::encode_length_delimited_with(self, buf, opts)
    }

    /// One length-delimited frame in a new `Vec`.
    fn encode_length_delimited_to_vec(&self) -> Result<Vec<u8>, EncodeError> {
        <Self as AnyMessage<'a>>::encode_length_delimited_to_vec(self)
    }

    /// Hand the encoding to `sink` in pieces, as [`Message::encode_to_sink`] does.
    fn encode_to_sink<S: ByteSink + ?Sized>(&self, sink: &mut S) -> Result<(), EncodeError> {
        <Self as AnyMessage<'a>>::encode_to_sink(self, sink)
    }

    /// [`encode_to_sink`](Self::encode_to_sink) with limits, as
    /// [`Message::encode_to_sink_with`] does.
    fn encode_to_sink_with<S: ByteSink + ?Sized>(
        &self,
        sink: &mut S,
        opts: &EncodeOptions,
    ) -> Result<(), EncodeError> {
        <Self as AnyMessage<'a>>::encode_to_sink_with(self, sink, opts)
    }

    /// Write the encoding to `w` in pieces, as [`Message::encode_to_writer`] does.
    #[cfg(feature = "std")]
    fn encode_to_writer<W: std::io::Write>(&self, w: W) -> std::io::Result<()> {
        <Self as AnyMessage<'a>>::encode_to_writer(self, w)
    }

    /// The owned twin's content id, as [`Message::content_id`] computes it.
    #[cfg(feature = "blake3")]
    fn content_id(&self) -> Result<blake3::Hash, EncodeError> {
        <Self as AnyMessage<'a>>::content_id(self)
    }

    /// Put the encoding into a `bytes::BufMut`, as [`Message::encode_to_buf_mut`] does.
    #[cfg(feature = "bytes")]
    fn encode_to_buf_mut<B: bytes::BufMut + ?Sized>(&self, buf: &mut B) -> Result<(), EncodeError> {
        <Self as AnyMessage<'a>>::encode_to_buf_mut(self, buf)
    }

    /// Feed the encoding to a `digest` hasher, as [`Message::encode_to_digest`] does.
    #[cfg(feature = "digest")]
    fn encode_to_digest<D: digest::Update + ?Sized>(
        &self,
        hasher: &mut D,
    ) -> Result<(), EncodeError> {
        <Self as AnyMessage<'a>>::encode_to_digest(self, hasher)
    }
}
