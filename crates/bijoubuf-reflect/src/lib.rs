//! bijoubuf-reflect: messages whose type is known only at run time.
//!
//! A [`DescriptorPool`] indexes a checked [`bijoubuf_schema::Schema`]; a
//! [`DynamicMessage`] holds the fields of one message type as [`Value`]s. Decoding is the
//! strict canonical decode of SPEC §10 with the same accept/reject decisions, error codes
//! ([`bijoubuf::ErrorKind`]), offsets and paths as generated code; encoding writes the
//! one canonical byte string (SPEC §9). Both go through the runtime's own field reads
//! and size and write passes, walking a descriptor's fields in number order as generated
//! code walks a struct's, so each record-level rule has one implementation. Unknown fields can be kept
//! ([`bijoubuf::UnknownFieldPolicy::Preserve`]) and are re-emitted byte for byte.
//!
//! The [`json`] module maps messages to and from proto3 JSON, including the special
//! forms of the well-known types (Timestamp, Duration, wrappers, Struct, FieldMask,
//! Any).
//!
//! ```
//! use bijoubuf_reflect::{DescriptorPool, DynamicMessage, Value};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let compiled = bijoubuf_schema::compile_sources(&[(
//!     "person.proto",
//!     "syntax = \"proto3\"; message Person { string name = 1; int32 age = 2; }",
//! )])?;
//! let pool = DescriptorPool::new(&compiled.schema);
//! let person = pool.message("Person").ok_or("no Person")?;
//!
//! // name = "Ada" (key 02, length 3), age = 36 (key 00, zigzag 72).
//! let bytes = [0x02, 0x03, b'A', b'd', b'a', 0x00, 0x48];
//! let msg = DynamicMessage::decode(&person, &bytes)?;
//! assert_eq!(msg.get_by_name("age"), Some(&Value::I32(36)));
//! assert_eq!(msg.encode()?, bytes);
//!
//! // age written holding its default is refused, as generated code refuses it.
//! let err = DynamicMessage::decode(&person, &[0x04, 0x00]).unwrap_err();
//! assert_eq!(err.to_string(), "default-value-present: Person.age holds its default at byte 0");
//!
//! let json = bijoubuf_reflect::json::to_string_pretty(&msg)?;
//! let back = bijoubuf_reflect::json::from_str(&person, &json)?;
//! assert_eq!(back, msg);
//! # Ok(()) }
//! ```
#![forbid(unsafe_code)]

mod decode;
mod descriptor;
mod descriptor_set;
mod encode;
mod error;
pub mod json;
mod value;

pub use bijoubuf::{DecodeError, PathSegment};
pub use descriptor::{
    DescriptorPool, EnumDescriptor, FieldDescriptor, FieldShape, Kind, MessageDescriptor,
};
pub use descriptor_set::DescriptorError;
pub use error::{EncodeError, TypeError};
pub use value::{DynamicMessage, MapKey, ScalarIter, ScalarList, Value};

use bijoubuf::DecodeOptions;

impl DynamicMessage {
    /// Decode `bytes` as one whole message of type `desc` with the default options:
    /// strict (unknown fields refused), depth limit 100, no size limit.
    ///
    /// # Errors
    /// The first violation in byte order (SPEC §10.1), with code, offset and path.
    pub fn decode(desc: &MessageDescriptor, bytes: &[u8]) -> Result<Self, DecodeError> {
        decode::decode(desc, bytes, &DecodeOptions::new(), None)
    }

    /// Decode with `opts` (depth and size limits, unknown-field policy). After a
    /// preserving decode, [`unknown_field_count`](Self::unknown_field_count) tells
    /// whether unknown fields were present (SPEC §8.2).
    ///
    /// A preserving decode keeps unknown fields in every message type except the
    /// well-known types (package `google.protobuf`), which refuse them with
    /// `unknown-field` as the runtime's generated well-known types do, so that both
    /// decoders give one verdict for every input.
    /// [`decode_preserving_in`](Self::decode_preserving_in) chooses another set.
    ///
    /// # Errors
    /// As [`decode`](Self::decode).
    pub fn decode_with(
        desc: &MessageDescriptor,
        bytes: &[u8],
        opts: &DecodeOptions,
    ) -> Result<Self, DecodeError> {
        decode::decode(desc, bytes, opts, None)
    }

    /// [`decode_with`](Self::decode_with), preserving unknown fields only inside the
    /// message types `keep` selects (SPEC §8.2: the preserving set is part of the decoder
    /// configuration; this is how generated code configured with
    /// `preserve_unknown_fields` behaves). Other types, the well-known types included
    /// only if `keep` says so, refuse unknown fields whatever `opts` says; with a strict
    /// `opts` every type refuses them.
    ///
    /// # Errors
    /// As [`decode`](Self::decode).
    pub fn decode_preserving_in(
        desc: &MessageDescriptor,
        bytes: &[u8],
        opts: &DecodeOptions,
        keep: &dyn Fn(&MessageDescriptor) -> bool,
    ) -> Result<Self, DecodeError> {
        decode::decode(desc, bytes, opts, Some(keep))
    }

    /// Decode one length-delimited frame at the start of `bytes` (SPEC §9.2); returns
    /// the message and the number of bytes the frame used, so a stream is read by
    /// calling this on the rest. A size limit in `opts` applies to the frame's declared
    /// length; offsets in errors count from the start of `bytes`.
    ///
    /// # Errors
    /// As [`decode`](Self::decode); an incomplete or overflowing prefix, or a frame
    /// longer than the bytes left, is reported at offset 0.
    pub fn decode_length_delimited(
        desc: &MessageDescriptor,
        bytes: &[u8],
        opts: &DecodeOptions,
    ) -> Result<(Self, usize), DecodeError> {
        decode::decode_frame(desc, bytes, opts)
    }

    /// One length-delimited frame: a bijou64 length, then [`encode`](Self::encode)'s
    /// bytes (SPEC §9.2).
    ///
    /// # Errors
    /// As [`encode`](Self::encode).
    pub fn encode_length_delimited(&self) -> Result<Vec<u8>, EncodeError> {
        let body = self.encode()?;
        let mut out = bijou64::encode(body.len() as u64).as_slice().to_vec();
        out.extend_from_slice(&body);
        Ok(out)
    }

    /// The canonical encoding (SPEC §9).
    ///
    /// # Errors
    /// Values the default decoder would refuse: nesting deeper than 100, an unset
    /// proto2 `required` field, preserved unknown fields that collide with the schema.
    pub fn encode(&self) -> Result<Vec<u8>, EncodeError> {
        encode::encode(self, bijoubuf::DEFAULT_MAX_DEPTH)
    }

    /// [`encode`](Self::encode) for readers configured with another depth limit
    /// (SPEC §9.3): refuses nesting deeper than `max_depth`, taken as the decoder takes
    /// [`DecodeOptions::max_depth`]: at least 1, at most [`bijoubuf::MAX_DEPTH_LIMIT`]
    /// (what no decoder reads is never written, and encoding recurses once per level).
    ///
    /// # Errors
    /// As [`encode`](Self::encode).
    pub fn encode_with_max_depth(&self, max_depth: u32) -> Result<Vec<u8>, EncodeError> {
        encode::encode(self, max_depth.clamp(1, bijoubuf::MAX_DEPTH_LIMIT))
    }
}
