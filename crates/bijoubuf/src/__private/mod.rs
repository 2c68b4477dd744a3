//! Building blocks for generated code. **Not API**: no stability promise, hidden from the
//! docs, may change in any release together with the code generator.
//!
//! Generated code implements [`Message`](crate::Message) with three straight-line
//! functions over these types, one call per field in ascending field number:
//!
//! ```ignore
//! fn __size<'v>(&'v self, s: &mut Sizer<'v>) -> usize {
//!     s.implicit::<Int32>(1, &self.id) + s.optional::<Msg<Child>>(2, self.child.as_ref())
//! }
//! fn __write<'v>(&'v self, w: &mut Writer<'_, 'v>) {
//!     w.implicit::<Int32>(1, &self.id);
//!     w.optional::<Msg<Child>>(2, self.child.as_ref());
//! }
//! fn __decode(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
//!     let id = r.implicit::<Int32>(1, "id")?;
//!     let child = r.optional::<Msg<Child>>(2, "child")?;
//!     let unknown_fields = r.finish()?;
//!     Ok(Self { id, child, unknown_fields })
//! }
//! ```
//!
//! `__size` and `__write` must visit the same fields in the same order; `__decode` must
//! request known fields in ascending number order and call [`Reader::finish`] before
//! [`Reader::require`].

mod codec;
mod reader;
mod varint;
mod writer;

pub use crate::error::{DecodeError, ErrorKind};
pub use codec::{
    Bool, BoxMsg, Bytes, Codec, Double, Enum, Fixed32, Fixed64, Float, Int32, Int64, MapKey, Msg,
    NAN_F32, NAN_F64, SFixed32, SFixed64, SInt32, SInt64, Str, UInt32, UInt64, canonical_f32,
    canonical_f64, utf8,
};
pub use reader::{MAX_FIELD_NUMBER, Reader, WireType};
pub use varint::{varint_len, write_varint};
pub use writer::{INLINE_SIZES, SizeTable, Sizer, Writer};
