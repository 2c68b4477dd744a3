//! The strict decoder: the runtime's walk over a descriptor instead of a struct.
//!
//! A message is read exactly as generated `__decode` reads one: the runtime's `Reader`
//! is asked for each field the descriptor declares, once, in ascending field number
//! (`implicit_el`, `optional_el`, `oneof_el`, `repeated_el`, `map_el`), then `finish`,
//! then `require` for each proto2 `required` field. Keys, wire types, unknown records,
//! oneof conflicts, the depth limit, implicit defaults, empty runs, map key order,
//! required fields and unread records are therefore checked by one implementation, the
//! runtime's, with the same codes, offsets and paths; this module only says, per field,
//! which element type the descriptor gives it ([`Dyn`], [`DynKey`]) and builds the
//! [`DynamicMessage`].

use bijoubuf::__private::{
    self as c, DynFieldName, Element, KeyElement, ReadCodec, Reader, WireType, message_reader,
};
use bijoubuf::{DecodeError, DecodeOptions, ErrorKind, PathSegment};
use bijoubuf_schema::{Presence, ScalarType};

use crate::descriptor::{FieldInfo, MessageDescriptor, Shape, Ty, fixed_width, scalar_wire};
use crate::error::{Located, key_segment};
use crate::value::{DynamicMessage, MapKey, ScalarList, Value};

/// Whether a preserving decode keeps unknown fields in `desc` when no set is given: in
/// every type except the well-known types (package `google.protobuf`), which refuse
/// them as the runtime's own well-known types, having no place for them, do.
pub(crate) fn keeps_by_default(desc: &MessageDescriptor) -> bool {
    !desc.full_name().starts_with("google.protobuf.")
}

/// Which message types keep unknown fields when the options ask to preserve them.
pub(crate) type KeepFilter<'f> = &'f dyn Fn(&MessageDescriptor) -> bool;

/// Decode `bytes` as one whole top-level message of type `desc` (SPEC §9.1).
pub(crate) fn decode(
    desc: &MessageDescriptor,
    bytes: &[u8],
    opts: &DecodeOptions,
    keep: Option<KeepFilter<'_>>,
) -> Result<DynamicMessage, DecodeError> {
    let top = || PathSegment::MessageName(desc.name().to_string());
    if let Some(max) = opts.get_max_size()
        && bytes.len() > max
    {
        // SPEC §9.4: before any other check.
        return Err(DecodeError::new(ErrorKind::SizeLimitExceeded, 0).seg(top()));
    }
    decode_range(desc, bytes, 0, bytes.len(), opts, keep)
}

/// One length-delimited frame at the start of `bytes` (SPEC §9.2): the message and the
/// bytes the frame used. Frame errors are reported at the length prefix (offset 0);
/// offsets count from the start of `bytes`.
pub(crate) fn decode_frame(
    desc: &MessageDescriptor,
    bytes: &[u8],
    opts: &DecodeOptions,
) -> Result<(DynamicMessage, usize), DecodeError> {
    let top = || PathSegment::MessageName(desc.name().to_string());
    let (len, n) = bijou64::decode(bytes).map_err(|e| {
        let kind = match e {
            bijou64::Error::Overflow => ErrorKind::VarintOverflow,
            _ => ErrorKind::Truncated,
        };
        DecodeError::new(kind, 0).seg(top())
    })?;
    if let Some(max) = opts.get_max_size()
        && len > max as u64
    {
        // SPEC §9.4: per frame, after the prefix, before the frame's bytes.
        return Err(DecodeError::new(ErrorKind::SizeLimitExceeded, 0).seg(top()));
    }
    if len > (bytes.len() - n) as u64 {
        return Err(DecodeError::new(ErrorKind::Truncated, 0).seg(top()));
    }
    let end = n + len as usize;
    decode_range(desc, bytes, n, end, opts, None).map(|m| (m, end))
}

fn decode_range(
    desc: &MessageDescriptor,
    bytes: &[u8],
    start: usize,
    end: usize,
    opts: &DecodeOptions,
    keep: Option<KeepFilter<'_>>,
) -> Result<DynamicMessage, DecodeError> {
    let walk = Walk { keep };
    let mut r = message_reader(bytes, start, end, opts);
    r.top_with(walk.keeps(desc), |r| walk.message(desc, r))
        .map_err(|e| e.seg(PathSegment::MessageName(desc.name().to_string())))
}

/// One decode's configuration beyond the reader's: the preserving set (SPEC §8.2).
struct Walk<'k> {
    keep: Option<KeepFilter<'k>>,
}

impl Walk<'_> {
    /// SPEC §8.2: the preserving set is part of the configuration; by default every
    /// type outside google.protobuf. The reader applies it only when preserving.
    fn keeps(&self, desc: &MessageDescriptor) -> bool {
        self.keep
            .map_or_else(|| keeps_by_default(desc), |k| k(desc))
    }

    /// The fields of one message, asked for as generated `__decode` asks (SPEC §10.1).
    ///
    /// This frame, and the one reading the field that holds the next message, are on
    /// the stack once per nesting level, so each shape is read by a function of its own,
    /// kept out of line, and what happens before and after the fields lives in functions
    /// of its own too: in an unoptimized build, where the frames of inlined calls are
    /// not shared, one frame holding every shape's reads made decoding at the depth cap
    /// overflow a 2 MiB stack.
    fn message(
        &self,
        desc: &MessageDescriptor,
        r: &mut Reader<'_>,
    ) -> Result<DynamicMessage, DecodeError> {
        let (mut msg, mut taken) = start(desc, r);
        for f in &desc.info().fields {
            let read = match (f.shape, f.oneof) {
                (Shape::Single(_), Some(o)) => self.oneof(desc, f, r, &mut taken, o),
                (Shape::Single(Presence::Implicit), None) => self.implicit(desc, f, r),
                (Shape::Single(_), None) => self.optional(desc, f, r),
                (Shape::Repeated, _) => self.repeated(desc, f, r),
                (Shape::Map(key), _) => self.map(desc, f, key, r),
            };
            match read {
                Ok(Some(v)) => msg.fields.push((f.number, v)),
                Ok(None) => {}
                Err(e) => return Err(e),
            }
        }
        end(msg, r)
    }

    fn element<'w, 'd>(&'w self, desc: &'d MessageDescriptor, f: &FieldInfo) -> Dyn<'w, 'd> {
        Dyn {
            walk: self,
            desc,
            ty: f.ty,
        }
    }

    #[inline(never)]
    fn implicit(
        &self,
        desc: &MessageDescriptor,
        f: &FieldInfo,
        r: &mut Reader<'_>,
    ) -> Result<Option<Value>, DecodeError> {
        r.implicit_el(f.number, DynFieldName(&f.name), &self.element(desc, f))
    }

    #[inline(never)]
    fn optional(
        &self,
        desc: &MessageDescriptor,
        f: &FieldInfo,
        r: &mut Reader<'_>,
    ) -> Result<Option<Value>, DecodeError> {
        r.optional_el(f.number, DynFieldName(&f.name), &self.element(desc, f))
    }

    /// A member of oneof `o` (SPEC §5.4); `taken` holds which oneofs have a member.
    #[inline(never)]
    fn oneof(
        &self,
        desc: &MessageDescriptor,
        f: &FieldInfo,
        r: &mut Reader<'_>,
        taken: &mut [bool],
        o: usize,
    ) -> Result<Option<Value>, DecodeError> {
        // Descriptor sets are checked on load: the index names a oneof.
        let Some(t) = taken.get_mut(o) else {
            return self.optional(desc, f, r);
        };
        let v = r.oneof_el(f.number, DynFieldName(&f.name), *t, &self.element(desc, f))?;
        *t |= v.is_some();
        Ok(v)
    }

    #[inline(never)]
    fn repeated(
        &self,
        desc: &MessageDescriptor,
        f: &FieldInfo,
        r: &mut Reader<'_>,
    ) -> Result<Option<Value>, DecodeError> {
        if let Some(list) = scalar_run(f, r)? {
            return Ok((!list.is_empty()).then_some(Value::Scalars(list)));
        }
        match r.repeated_el(f.number, DynFieldName(&f.name), &self.element(desc, f)) {
            Ok(items) => Ok((!items.is_empty()).then_some(Value::List(items))),
            Err(e) => Err(e),
        }
    }

    #[inline(never)]
    fn map(
        &self,
        desc: &MessageDescriptor,
        f: &FieldInfo,
        key: ScalarType,
        r: &mut Reader<'_>,
    ) -> Result<Option<Value>, DecodeError> {
        let name = DynFieldName(&f.name);
        match r.map_el(f.number, name, &DynKey(key), &self.element(desc, f)) {
            // Strictly ascending, as `Value::Map` holds them.
            Ok(entries) => Ok((!entries.is_empty()).then_some(Value::Map(entries))),
            Err(e) => Err(e),
        }
    }

    /// A nested message of type `index` (a sibling of `desc` in its pool), boxed as
    /// [`Value::Message`] holds it: a result one pointer wide keeps every frame on the
    /// way small.
    #[inline(never)]
    fn nested(
        &self,
        desc: &MessageDescriptor,
        index: usize,
        r: &mut Reader<'_>,
    ) -> Result<Box<DynamicMessage>, DecodeError> {
        let inner = desc.sibling(index);
        r.nested_with(self.keeps(&inner), |r| {
            self.message(&inner, r).map(Box::new)
        })
    }
}

/// An empty message of type `desc` with room for the fields `r`'s bytes can hold, and
/// the oneofs' "a member was present" flags (SPEC §5.4).
#[inline(never)]
fn start(desc: &MessageDescriptor, r: &Reader<'_>) -> (DynamicMessage, Vec<bool>) {
    let info = desc.info();
    let mut msg = DynamicMessage::new(desc.clone());
    // Room for every field the schema declares, but no more than the records the bytes
    // can hold (each at least two bytes): a vector's default first growth would cost a
    // tiny message many times its size.
    msg.fields
        .reserve_exact(info.fields.len().min(r.remaining() / 2));
    (msg, vec![false; info.oneofs.len()])
}

/// The end of a message's fields: its unknown records (SPEC §8), then its required
/// fields (SPEC §5.3: the lowest absent one, at the end of the content).
#[inline(never)]
fn end(mut msg: DynamicMessage, r: &mut Reader<'_>) -> Result<DynamicMessage, DecodeError> {
    msg.unknown = r.finish()?.into();
    for f in &msg.descriptor().info().fields {
        if f.shape == Shape::Single(Presence::Required) && msg.get(f.number).is_none() {
            r.require(None::<()>, DynFieldName(&f.name))?;
        }
    }
    if msg.fields.capacity() > 2 * msg.fields.len() {
        // A sparse message of a large type: give back what the guess over-reserved.
        msg.fields.shrink_to_fit();
    }
    Ok(msg)
}

/// A repeated field of numbers, bools or enums, read unboxed by the runtime's run
/// reader for its codec (the one generated code uses); `None` for other element types.
#[inline(never)]
fn scalar_run(f: &FieldInfo, r: &mut Reader<'_>) -> Result<Option<ScalarList>, DecodeError> {
    use ScalarType as S;
    let (n, name) = (f.number, DynFieldName(&f.name));
    Ok(Some(match f.ty {
        Ty::Enum(_) => ScalarList::Enum(r.repeated::<c::Enum>(n, name)?),
        Ty::Message(_) => return Ok(None),
        Ty::Scalar(s) => match s {
            S::Bool => ScalarList::Bool(r.repeated::<c::Bool>(n, name)?),
            S::Int32 => ScalarList::I32(r.repeated::<c::Int32>(n, name)?),
            S::Sint32 => ScalarList::I32(r.repeated::<c::SInt32>(n, name)?),
            S::Sfixed32 => ScalarList::I32(r.repeated::<c::SFixed32>(n, name)?),
            S::Int64 => ScalarList::I64(r.repeated::<c::Int64>(n, name)?),
            S::Sint64 => ScalarList::I64(r.repeated::<c::SInt64>(n, name)?),
            S::Sfixed64 => ScalarList::I64(r.repeated::<c::SFixed64>(n, name)?),
            S::Uint32 => ScalarList::U32(r.repeated::<c::UInt32>(n, name)?),
            S::Fixed32 => ScalarList::U32(r.repeated::<c::Fixed32>(n, name)?),
            S::Uint64 => ScalarList::U64(r.repeated::<c::UInt64>(n, name)?),
            S::Fixed64 => ScalarList::U64(r.repeated::<c::Fixed64>(n, name)?),
            S::Float => ScalarList::F32(r.repeated::<c::Float>(n, name)?),
            S::Double => ScalarList::F64(r.repeated::<c::Double>(n, name)?),
            S::String | S::Bytes => return Ok(None),
        },
    }))
}

/// The element a descriptor gives a field: a scalar type, an enum or a message type,
/// read with the runtime's codec for it (a message: by this walk, one level deeper).
struct Dyn<'w, 'd> {
    walk: &'w Walk<'w>,
    desc: &'d MessageDescriptor,
    ty: Ty,
}

impl<'a> Element<'a> for Dyn<'_, '_> {
    type Value = Value;

    fn wire(&self) -> WireType {
        self.ty.wire()
    }

    fn fixed(&self) -> Option<usize> {
        self.ty.fixed()
    }

    fn opens_message(&self) -> bool {
        matches!(self.ty, Ty::Message(_))
    }

    fn read(&self, r: &mut Reader<'a>) -> Result<Value, DecodeError> {
        match self.ty {
            Ty::Scalar(s) => scalar(s, r),
            // SPEC §3.6: open, any int32 number.
            Ty::Enum(_) => c::Enum::read(r).map(Value::EnumNumber),
            Ty::Message(m) => self.walk.nested(self.desc, m, r).map(Value::Message),
        }
    }

    fn is_default(&self, v: &Value) -> bool {
        v.is_default()
    }
}

/// A map key element of scalar type (SPEC §6.3), ordered as [`MapKey`] orders.
struct DynKey(ScalarType);

impl<'a> Element<'a> for DynKey {
    type Value = MapKey;

    fn wire(&self) -> WireType {
        scalar_wire(self.0)
    }

    fn fixed(&self) -> Option<usize> {
        fixed_width(self.0)
    }

    fn opens_message(&self) -> bool {
        false
    }

    fn read(&self, r: &mut Reader<'a>) -> Result<MapKey, DecodeError> {
        Ok(match scalar(self.0, r)? {
            Value::Bool(v) => MapKey::Bool(v),
            Value::I32(v) => MapKey::I32(v),
            Value::I64(v) => MapKey::I64(v),
            Value::U32(v) => MapKey::U32(v),
            Value::U64(v) => MapKey::U64(v),
            Value::String(v) => MapKey::String(v),
            // Unreachable: both ways to build a pool refuse other key types (the schema
            // compiler, and `from_file_descriptor_set` with `is_valid_map_key`, SPEC §6.3).
            _ => MapKey::String(String::new()),
        })
    }

    fn is_default(&self, v: &MapKey) -> bool {
        v.to_value().is_default()
    }
}

impl KeyElement<'_> for DynKey {
    fn segment(&self, v: &MapKey) -> PathSegment {
        key_segment(v.clone())
    }
}

/// One scalar element, read and checked by the runtime's codec for its type.
fn scalar(s: ScalarType, r: &mut Reader<'_>) -> Result<Value, DecodeError> {
    use ScalarType as S;
    Ok(match s {
        S::Uint64 => Value::U64(c::UInt64::read(r)?),
        S::Uint32 => Value::U32(c::UInt32::read(r)?),
        S::Int64 => Value::I64(c::Int64::read(r)?),
        S::Sint64 => Value::I64(c::SInt64::read(r)?),
        S::Int32 => Value::I32(c::Int32::read(r)?),
        S::Sint32 => Value::I32(c::SInt32::read(r)?),
        S::Bool => Value::Bool(c::Bool::read(r)?),
        S::Fixed32 => Value::U32(c::Fixed32::read(r)?),
        S::Sfixed32 => Value::I32(c::SFixed32::read(r)?),
        S::Fixed64 => Value::U64(c::Fixed64::read(r)?),
        S::Sfixed64 => Value::I64(c::SFixed64::read(r)?),
        S::Float => Value::F32(c::Float::read(r)?),
        S::Double => Value::F64(c::Double::read(r)?),
        S::String => Value::String(c::Str::read(r)?),
        S::Bytes => Value::Bytes(c::Bytes::read(r)?),
    })
}
