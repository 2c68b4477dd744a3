//! The strict decoder: one forward pass in the check order of SPEC §10.1, the same
//! accept/reject decisions, codes, offsets and paths as generated code.
//!
//! Every element is read by the runtime: the raw reads of its `Reader` (bijou64,
//! fixed-width words, length prefixes checked against the bound) and the codec of each
//! scalar type (ranges, bools, the one NaN, UTF-8), so both decoders apply one
//! implementation of each element rule. The walk over a message's records (keys,
//! wire types, oneofs, depth, defaults, map order, required fields) is still this
//! module's own, over the descriptor instead of a struct.

use bijoubuf::__private::{MAX_FIELD_NUMBER, ReadCodec, Reader, WireType, element_reader};
use bijoubuf::{
    DecodeError, DecodeOptions, ErrorKind, PathSegment, UnknownField, UnknownFieldPolicy,
    UnknownValue,
};
use bijoubuf_schema::{Presence, ScalarType};

use crate::descriptor::{MessageDescriptor, Shape, Ty};
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

/// One decode: the whole input (offsets are absolute) and the options.
pub(crate) struct Decoder<'a> {
    buf: &'a [u8],
    max_depth: u32,
    preserve: bool,
    keep: Option<KeepFilter<'a>>,
}

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
    let d = Decoder {
        buf: bytes,
        max_depth: opts.get_max_depth().max(1),
        preserve: opts.get_unknown_fields() == UnknownFieldPolicy::Preserve,
        keep,
    };
    d.message(desc, start, end, 1)
        .map_err(|e| e.seg(PathSegment::MessageName(desc.name().to_string())))
}

impl<'a> Decoder<'a> {
    /// Run one of the runtime's element reads over `[*pos, end)` and move past what it
    /// read: the rules of SPEC §2–§3 and §7 have one implementation, the runtime's,
    /// with the same codes and offsets generated code reports.
    #[inline]
    fn with_reader<T>(
        &self,
        pos: &mut usize,
        end: usize,
        read: impl FnOnce(&mut Reader<'a>) -> Result<T, bijoubuf::DecodeError>,
    ) -> Result<T, DecodeError> {
        let mut r = element_reader(self.buf, *pos, end);
        let v = read(&mut r)?;
        *pos = r.position();
        Ok(v)
    }

    /// One element of codec `C` (SPEC §3, §7).
    #[inline]
    fn read<C: ReadCodec<'a>>(&self, pos: &mut usize, end: usize) -> Result<C::Value, DecodeError> {
        self.with_reader(pos, end, C::read)
    }

    /// One bijou64 (SPEC §2.4: `truncated` / `varint-overflow` at its tag).
    fn varint(&self, pos: &mut usize, end: usize) -> Result<u64, DecodeError> {
        self.with_reader(pos, end, Reader::varint)
    }

    /// `N` raw bytes; `truncated` at their first byte when the bound ends first.
    fn fixed<const N: usize>(&self, pos: &mut usize, end: usize) -> Result<[u8; N], DecodeError> {
        self.with_reader(pos, end, Reader::fixed::<N>)
    }

    /// A length prefix, checked against the bytes left before anything is allocated
    /// (SPEC §9.4): past the bound it is `truncated` at the prefix (SPEC §10 O1).
    fn length(&self, pos: &mut usize, end: usize) -> Result<usize, DecodeError> {
        self.with_reader(pos, end, Reader::length)
    }

    fn len_bytes(&self, pos: &mut usize, end: usize) -> Result<&'a [u8], DecodeError> {
        self.with_reader(pos, end, Reader::len_bytes)
    }

    /// The records of one message in `[start, end)` at `depth` (SPEC §10.1).
    fn message(
        &self,
        desc: &MessageDescriptor,
        start: usize,
        end: usize,
        depth: u32,
    ) -> Result<DynamicMessage, DecodeError> {
        let info = desc.info();
        let mut msg = DynamicMessage::new(desc.clone());
        // Room for every field the schema declares, but no more than the records the
        // bytes can hold (each at least two bytes): a vector's default first growth
        // would cost a tiny message many times its size.
        msg.fields
            .reserve_exact(info.fields.len().min((end - start) / 2));
        // SPEC §8.2: the preserving set is part of the configuration; by default every
        // type outside google.protobuf.
        let preserve = self.preserve
            && self
                .keep
                .map_or_else(|| keeps_by_default(desc), |k| k(desc));
        let mut oneof_seen = vec![false; info.oneofs.len()];
        let mut pos = start;
        let mut prev: u64 = 0;
        while pos < end {
            // Step 1: the key.
            let k_at = pos;
            let k = self.varint(&mut pos, end)?;
            // SPEC §4.1: 64-bit arithmetic cannot wrap (k >> 2 < 2^62).
            let n = prev + 1 + (k >> 2);
            if n > MAX_FIELD_NUMBER as u64 {
                // SPEC §4.3
                return Err(DecodeError::new(ErrorKind::FieldNumberOverflow, k_at));
            }
            let wire = (k & 3) as u8;
            let number = n as u32;
            prev = n;
            let Some(i) = desc.field_index(number) else {
                let seg = || PathSegment::Unknown(number);
                if !preserve {
                    // SPEC §8.1
                    return Err(DecodeError::new(ErrorKind::UnknownField, k_at).seg(seg()));
                }
                // SPEC §8.2: keep number, wire type and the payload, uninterpreted.
                let value = self
                    .unknown_payload(wire, &mut pos, end)
                    .map_err(|e| e.seg(seg()))?;
                msg.unknown.push(UnknownField { number, value });
                continue;
            };
            let f = &info.fields[i];
            if wire != f.wire() as u8 {
                // SPEC §4.4
                return Err(DecodeError::new(ErrorKind::WireTypeMismatch, k_at).field(&f.name));
            }
            if let Some(o) = f.oneof
                && let Some(seen) = oneof_seen.get_mut(o)
            {
                if *seen {
                    // SPEC §5.4
                    return Err(DecodeError::new(ErrorKind::OneofConflict, k_at).field(&f.name));
                }
                *seen = true;
            }
            if f.opens_message() && depth >= self.max_depth {
                // SPEC §9.3: checked at the key, before the payload.
                return Err(DecodeError::new(ErrorKind::DepthLimitExceeded, k_at).field(&f.name));
            }
            // Step 2: the payload.
            let v = self
                .payload(desc, i, k_at, &mut pos, end, depth)
                .map_err(|e| e.field(&f.name))?;
            msg.insert_unchecked(number, v);
        }
        // Step 5: required fields, lowest number first (SPEC §5.3).
        for f in &info.fields {
            if f.shape == Shape::Single(Presence::Required) && msg.get(f.number).is_none() {
                return Err(DecodeError::new(ErrorKind::MissingRequiredField, end).field(&f.name));
            }
        }
        if msg.fields.capacity() > 2 * msg.fields.len() {
            // A sparse message of a large type: give back what the guess over-reserved.
            msg.fields.shrink_to_fit();
        }
        Ok(msg)
    }

    fn unknown_payload(
        &self,
        wire: u8,
        pos: &mut usize,
        end: usize,
    ) -> Result<UnknownValue, DecodeError> {
        Ok(match wire {
            0 => UnknownValue::Varint(self.varint(pos, end)?),
            1 => UnknownValue::I64(u64::from_be_bytes(self.fixed::<8>(pos, end)?)),
            2 => UnknownValue::Len(self.len_bytes(pos, end)?.to_vec()),
            _ => UnknownValue::I32(u32::from_be_bytes(self.fixed::<4>(pos, end)?)),
        })
    }

    /// The payload of a known field's record (SPEC §10.1 step 2).
    fn payload(
        &self,
        desc: &MessageDescriptor,
        i: usize,
        k_at: usize,
        pos: &mut usize,
        end: usize,
        depth: u32,
    ) -> Result<Value, DecodeError> {
        let f = &desc.info().fields[i];
        match f.shape {
            Shape::Single(presence) => {
                let v = self.element(desc, f.ty, pos, end, depth)?;
                if presence == Presence::Implicit && f.oneof.is_none() && v.is_default() {
                    // SPEC §5.1: after the value was read and validated.
                    return Err(DecodeError::new(ErrorKind::DefaultValuePresent, k_at));
                }
                Ok(v)
            }
            Shape::Repeated => {
                let run_end = self.open_run(fixed_width(f.ty), k_at, pos, end)?;
                let count = self.count_elements(element_wire(f.ty), *pos, run_end);
                // Numbers, bools and enums unboxed, in a vector of exactly the run's
                // element count: memory stays within a small multiple of the run.
                if let Some(mut list) = ScalarList::for_ty(f.ty, count) {
                    let mut r = element_reader(self.buf, *pos, run_end);
                    return match read_run(f.ty, &mut r, &mut list) {
                        Ok(()) => {
                            *pos = r.position();
                            Ok(Value::Scalars(list))
                        }
                        // The run reader stops at the failing element: its index.
                        Err(e) => Err(e.seg(PathSegment::Index(list.len()))),
                    };
                }
                // Strings, bytes and messages: every element at least one byte.
                let mut items =
                    Vec::with_capacity(self.count_elements(WireType::Len, *pos, run_end));
                while *pos < run_end {
                    match self.element(desc, f.ty, pos, run_end, depth) {
                        Ok(v) => items.push(v),
                        Err(e) => return Err(e.seg(PathSegment::Index(items.len()))),
                    }
                }
                Ok(Value::List(items))
            }
            Shape::Map(key_ty) => {
                // Map entries have no fixed width, whatever the value type.
                let run_end = self.open_run(None, k_at, pos, end)?;
                // Sized from a count of the run's entries: each is at least two bytes,
                // so the vector never outgrows what the input paid for.
                let count = self.count_entries(
                    crate::descriptor::scalar_wire(key_ty),
                    element_wire(f.ty),
                    *pos,
                    run_end,
                );
                let mut entries: Vec<(MapKey, Value)> = Vec::with_capacity(count);
                while *pos < run_end {
                    // SPEC §10.1 step 4: key element, order, value element.
                    let key_at = *pos;
                    let k = self.map_key(key_ty, pos, run_end)?;
                    if let Some((last, _)) = entries.last()
                        && k <= *last
                    {
                        // SPEC §6.4
                        return Err(
                            DecodeError::new(ErrorKind::MapKeyOrder, key_at).seg(key_segment(k))
                        );
                    }
                    match self.element(desc, f.ty, pos, run_end, depth) {
                        Ok(v) => entries.push((k, v)),
                        Err(e) => return Err(e.seg(key_segment(k))),
                    }
                }
                // Strictly ascending, as `Value::Map` holds them.
                Ok(Value::Map(entries))
            }
        }
    }

    /// The number of elements of wire form `wire` in `[pos, end)`, each skipped by its
    /// wire form alone (a bijou64's tag gives its length, SPEC §2.3): exact for a
    /// well-formed run and never more than the bytes it spans, so a vector of that
    /// capacity is paid for by the input. Counting stops where decoding will stop.
    fn count_elements(&self, wire: WireType, mut pos: usize, end: usize) -> usize {
        match wire {
            WireType::I32 => return (end - pos) / 4,
            WireType::I64 => return (end - pos) / 8,
            WireType::Varint | WireType::Len => {}
        }
        let mut n = 0;
        while pos < end {
            match self.skip(wire, pos, end) {
                Some(next) => pos = next,
                None => break,
            }
            n += 1;
        }
        n
    }

    /// The number of map entries (key element, value element) in `[pos, end)`, each
    /// element skipped by its wire form alone; counting stops at the first element that
    /// does not fit, where decoding will stop too.
    fn count_entries(&self, key: WireType, value: WireType, mut pos: usize, end: usize) -> usize {
        let mut n = 0;
        while pos < end {
            for wire in [key, value] {
                match self.skip(wire, pos, end) {
                    Some(next) => pos = next,
                    None => return n,
                }
            }
            n += 1;
        }
        n
    }

    /// The position after one element of wire form `wire` at `pos`, if it ends by `end`.
    fn skip(&self, wire: WireType, pos: usize, end: usize) -> Option<usize> {
        let next = match wire {
            WireType::Varint => pos + 1 + bijou64::payload_len(*self.buf.get(pos)?),
            WireType::I32 => pos + 4,
            WireType::I64 => pos + 8,
            WireType::Len => {
                let (len, n) = bijou64::decode(self.buf.get(pos..end)?).ok()?;
                (pos + n).checked_add(usize::try_from(len).ok()?)?
            }
        };
        (next <= end).then_some(next)
    }

    /// Open a repeated or map record: its length, `empty-repeated` (SPEC §6.1) and
    /// `packed-length-mismatch` (SPEC §6.2); returns the end of the run.
    fn open_run(
        &self,
        width: Option<usize>,
        k_at: usize,
        pos: &mut usize,
        end: usize,
    ) -> Result<usize, DecodeError> {
        let len_at = *pos;
        let len = self.length(pos, end)?;
        if len == 0 {
            return Err(DecodeError::new(ErrorKind::EmptyRepeated, k_at));
        }
        if let Some(w) = width
            && len % w != 0
        {
            return Err(DecodeError::new(ErrorKind::PackedLengthMismatch, len_at));
        }
        Ok(*pos + len)
    }

    /// A map key element (SPEC §6.3): integers, bool, string.
    fn map_key(&self, ty: ScalarType, pos: &mut usize, end: usize) -> Result<MapKey, DecodeError> {
        Ok(match self.scalar(ty, pos, end)? {
            Value::Bool(v) => MapKey::Bool(v),
            Value::I32(v) => MapKey::I32(v),
            Value::I64(v) => MapKey::I64(v),
            Value::U32(v) => MapKey::U32(v),
            Value::U64(v) => MapKey::U64(v),
            Value::String(v) => MapKey::String(v),
            // The schema compiler refuses other key types; read them as unordered bytes.
            _ => MapKey::String(String::new()),
        })
    }

    /// One element of type `ty` (SPEC §6.2); a message is one level deeper.
    fn element(
        &self,
        desc: &MessageDescriptor,
        ty: Ty,
        pos: &mut usize,
        end: usize,
        depth: u32,
    ) -> Result<Value, DecodeError> {
        match ty {
            Ty::Scalar(s) => self.scalar(s, pos, end),
            // SPEC §3.6: open, any int32 number.
            Ty::Enum(_) => self
                .read::<bijoubuf::__private::Enum>(pos, end)
                .map(Value::EnumNumber),
            Ty::Message(m) => {
                let len = self.length(pos, end)?;
                let start = *pos;
                *pos = start + len;
                let inner = desc.sibling(m);
                // SPEC §9.1: the nested message is exactly its LEN content.
                self.message(&inner, start, start + len, depth + 1)
                    .map(Value::from)
            }
        }
    }

    /// One scalar element, read and checked by the runtime's codec for its type.
    fn scalar(&self, s: ScalarType, pos: &mut usize, end: usize) -> Result<Value, DecodeError> {
        use ScalarType as S;
        use bijoubuf::__private as c;
        Ok(match s {
            S::Uint64 => Value::U64(self.read::<c::UInt64>(pos, end)?),
            S::Uint32 => Value::U32(self.read::<c::UInt32>(pos, end)?),
            S::Int64 => Value::I64(self.read::<c::Int64>(pos, end)?),
            S::Sint64 => Value::I64(self.read::<c::SInt64>(pos, end)?),
            S::Int32 => Value::I32(self.read::<c::Int32>(pos, end)?),
            S::Sint32 => Value::I32(self.read::<c::SInt32>(pos, end)?),
            S::Bool => Value::Bool(self.read::<c::Bool>(pos, end)?),
            S::Fixed32 => Value::U32(self.read::<c::Fixed32>(pos, end)?),
            S::Sfixed32 => Value::I32(self.read::<c::SFixed32>(pos, end)?),
            S::Fixed64 => Value::U64(self.read::<c::Fixed64>(pos, end)?),
            S::Sfixed64 => Value::I64(self.read::<c::SFixed64>(pos, end)?),
            S::Float => Value::F32(self.read::<c::Float>(pos, end)?),
            S::Double => Value::F64(self.read::<c::Double>(pos, end)?),
            S::String => Value::String(self.read::<c::Str>(pos, end)?),
            S::Bytes => Value::Bytes(self.read::<c::Bytes>(pos, end)?),
        })
    }
}

/// Read a packed run of `ty` elements up to the reader's bound into `list` (made by
/// `ScalarList::for_ty(ty, _)`) with the runtime's run reader for the type, the one
/// generated code uses. On error `list` holds the elements before the failing one.
fn read_run(ty: Ty, r: &mut Reader<'_>, list: &mut ScalarList) -> Result<(), DecodeError> {
    use ScalarType as S;
    use bijoubuf::__private as c;
    match (ty, list) {
        (Ty::Enum(_), ScalarList::Enum(v)) => c::Enum::read_run(r, v),
        (Ty::Scalar(S::Bool), ScalarList::Bool(v)) => c::Bool::read_run(r, v),
        (Ty::Scalar(S::Int32), ScalarList::I32(v)) => c::Int32::read_run(r, v),
        (Ty::Scalar(S::Sint32), ScalarList::I32(v)) => c::SInt32::read_run(r, v),
        (Ty::Scalar(S::Sfixed32), ScalarList::I32(v)) => c::SFixed32::read_run(r, v),
        (Ty::Scalar(S::Int64), ScalarList::I64(v)) => c::Int64::read_run(r, v),
        (Ty::Scalar(S::Sint64), ScalarList::I64(v)) => c::SInt64::read_run(r, v),
        (Ty::Scalar(S::Sfixed64), ScalarList::I64(v)) => c::SFixed64::read_run(r, v),
        (Ty::Scalar(S::Uint32), ScalarList::U32(v)) => c::UInt32::read_run(r, v),
        (Ty::Scalar(S::Fixed32), ScalarList::U32(v)) => c::Fixed32::read_run(r, v),
        (Ty::Scalar(S::Uint64), ScalarList::U64(v)) => c::UInt64::read_run(r, v),
        (Ty::Scalar(S::Fixed64), ScalarList::U64(v)) => c::Fixed64::read_run(r, v),
        (Ty::Scalar(S::Float), ScalarList::F32(v)) => c::Float::read_run(r, v),
        (Ty::Scalar(S::Double), ScalarList::F64(v)) => c::Double::read_run(r, v),
        // `for_ty` pairs each type with its list; anything else is a bug here, refused
        // at the run's first byte rather than read wrongly.
        _ => Err(DecodeError::new(ErrorKind::WireTypeMismatch, r.position())),
    }
}

/// The wire form of one element of type `ty` (SPEC §4.4).
fn element_wire(ty: Ty) -> WireType {
    match ty {
        Ty::Scalar(s) => crate::descriptor::scalar_wire(s),
        Ty::Enum(_) => WireType::Varint,
        Ty::Message(_) => WireType::Len,
    }
}

/// The element width of a fixed-width type, whose packed runs must be a multiple of it
/// (SPEC §6.2).
fn fixed_width(ty: Ty) -> Option<usize> {
    match ty {
        Ty::Scalar(s) => match crate::descriptor::scalar_wire(s) {
            WireType::I32 => Some(4),
            WireType::I64 => Some(8),
            _ => None,
        },
        _ => None,
    }
}
