//! The canonical encoder: a size pass that records every nested length in pre-order,
//! then a write pass that reads them back, so encoding is linear in the output
//! (the same two-pass design as the runtime's writer).

use bijoubuf::__private::{MAX_FIELD_NUMBER, WireType, canonical_f32, canonical_f64};
use bijoubuf::{UnknownField, UnknownValue};
use bijoubuf_schema::{Presence, ScalarType};

use crate::descriptor::{FieldInfo, MessageDescriptor, Shape, Ty};
use crate::error::EncodeError;
use crate::value::{DynamicMessage, MapKey, Value};

/// Encode `m` as a top-level message, refusing nesting deeper than `max_depth`.
pub(crate) fn encode(m: &DynamicMessage, max_depth: u32) -> Result<Vec<u8>, EncodeError> {
    let mut s = Sizer {
        table: Vec::new(),
        max_depth,
    };
    let len = s
        .message(m, 1)
        .map_err(|f| f.finish(m.descriptor().name()))?;
    let mut w = Writer {
        table: &s.table,
        slot: 0,
        out: Vec::with_capacity(len),
    };
    w.message(m);
    debug_assert_eq!(w.out.len(), len, "size and write passes agree");
    Ok(w.out)
}

/// A refusal on its way out of the size pass; the path is collected innermost first.
struct Fail {
    kind: fn(String) -> EncodeError,
    rev_path: Vec<String>,
}

impl Fail {
    fn new(kind: fn(String) -> EncodeError) -> Self {
        Fail {
            kind,
            rev_path: Vec::new(),
        }
    }

    fn at(mut self, seg: String) -> Self {
        self.rev_path.push(seg);
        self
    }

    fn finish(self, top: &str) -> EncodeError {
        let mut path = top.to_string();
        for seg in self.rev_path.iter().rev() {
            path.push_str(seg);
        }
        (self.kind)(path)
    }
}

fn key_value(number: u32, prev: u32, wire: WireType) -> u64 {
    // SPEC §4.1: Δ = n − prev − 1, numbers strictly ascending.
    (((number - prev - 1) as u64) << 2) | wire as u64
}

/// One record of the merged known + unknown sequence of a message.
enum Rec<'a> {
    Known(&'a FieldInfo, &'a Value),
    Unknown(&'a UnknownField),
}

/// The records of `m` in ascending number order (SPEC §8.2: preserved records are
/// re-emitted among the known ones), with values that would not be written skipped.
fn records(m: &DynamicMessage) -> Vec<Rec<'_>> {
    let info = m.descriptor().info();
    let mut known = m.fields.iter().filter_map(|(n, v)| {
        let i = m.descriptor().field_index(*n)?;
        let f = &info.fields[i];
        let skip = match f.shape {
            Shape::Single(Presence::Implicit) => f.oneof.is_none() && v.is_default(),
            Shape::Single(_) => false,
            Shape::Repeated | Shape::Map(_) => v.is_default(),
        };
        (!skip).then_some((f, v))
    });
    let mut out = Vec::with_capacity(m.fields.len() + m.unknown.len());
    let mut unknown = m.unknown.iter().peekable();
    let mut next_known = known.next();
    loop {
        match (next_known, unknown.peek()) {
            (Some((f, _)), Some(u)) if u.number < f.number => {
                out.push(Rec::Unknown(u));
                unknown.next();
            }
            (Some((f, v)), _) => {
                out.push(Rec::Known(f, v));
                next_known = known.next();
            }
            (None, Some(u)) => {
                out.push(Rec::Unknown(u));
                unknown.next();
            }
            (None, None) => break,
        }
    }
    out
}

struct Sizer {
    table: Vec<usize>,
    max_depth: u32,
}

impl Sizer {
    fn message(&mut self, m: &DynamicMessage, depth: u32) -> Result<usize, Fail> {
        let desc = m.descriptor();
        let info = desc.info();
        for f in &info.fields {
            if f.shape == Shape::Single(Presence::Required) && m.get(f.number).is_none() {
                return Err(Fail::new(EncodeError::MissingRequiredField).at(format!(".{}", f.name)));
            }
        }
        // SPEC §8.2: a preserved set that could not be decoded again is refused.
        let mut last = 0;
        for u in &m.unknown {
            if u.number <= last
                || u.number > MAX_FIELD_NUMBER
                || desc.field_index(u.number).is_some()
            {
                return Err(Fail::new(EncodeError::UnknownFieldConflict));
            }
            last = u.number;
        }
        let mut prev = 0;
        let mut n = 0;
        for rec in records(m) {
            match rec {
                Rec::Unknown(u) => {
                    n += bijou64::encoded_len(key_value(u.number, prev, unknown_wire(&u.value)));
                    n += unknown_len(&u.value);
                    prev = u.number;
                }
                Rec::Known(f, v) => {
                    n += bijou64::encoded_len(key_value(f.number, prev, f.wire()));
                    n += self
                        .payload(desc, f, v, depth)
                        .map_err(|e| e.at(format!(".{}", f.name)))?;
                    prev = f.number;
                }
            }
        }
        Ok(n)
    }

    fn payload(
        &mut self,
        desc: &MessageDescriptor,
        f: &FieldInfo,
        v: &Value,
        depth: u32,
    ) -> Result<usize, Fail> {
        match (f.shape, v) {
            (Shape::Repeated, Value::List(items)) => {
                let slot = self.reserve();
                let mut n = 0;
                for (i, item) in items.iter().enumerate() {
                    n += self
                        .element(desc, f.ty, item, depth)
                        .map_err(|e| e.at(format!("[{i}]")))?;
                }
                self.table[slot] = n;
                Ok(bijou64::encoded_len(n as u64) + n)
            }
            (Shape::Repeated, Value::Scalars(items)) => {
                let slot = self.reserve();
                let mut n = 0;
                for item in items.iter() {
                    n += self.element(desc, f.ty, &item, depth)?;
                }
                self.table[slot] = n;
                Ok(bijou64::encoded_len(n as u64) + n)
            }
            (Shape::Map(kt), Value::Map(entries)) => {
                let slot = self.reserve();
                let mut n = 0;
                for (k, item) in entries {
                    n += self.element(desc, Ty::Scalar(kt), &k.to_value(), depth)?;
                    n += self
                        .element(desc, f.ty, item, depth)
                        .map_err(|e| e.at(key_segment(k)))?;
                }
                self.table[slot] = n;
                Ok(bijou64::encoded_len(n as u64) + n)
            }
            _ => self.element(desc, f.ty, v, depth),
        }
    }

    fn reserve(&mut self) -> usize {
        self.table.push(0);
        self.table.len() - 1
    }

    fn element(
        &mut self,
        _desc: &MessageDescriptor,
        ty: Ty,
        v: &Value,
        depth: u32,
    ) -> Result<usize, Fail> {
        if let Value::Message(m) = v {
            let slot = self.reserve();
            if depth >= self.max_depth {
                // SPEC §9: an encoder refuses what the default decoder would refuse.
                return Err(Fail::new(EncodeError::DepthLimitExceeded));
            }
            let n = self.message(m, depth + 1)?;
            self.table[slot] = n;
            return Ok(bijou64::encoded_len(n as u64) + n);
        }
        Ok(match form(ty, v) {
            Form::Varint(x) => bijou64::encoded_len(x),
            Form::Fixed4(_) => 4,
            Form::Fixed8(_) => 8,
            Form::Len(b) => bijou64::encoded_len(b.len() as u64) + b.len(),
        })
    }
}

struct Writer<'t> {
    table: &'t [usize],
    slot: usize,
    out: Vec<u8>,
}

impl Writer<'_> {
    fn varint(&mut self, v: u64) {
        self.out.extend_from_slice(bijou64::encode(v).as_slice());
    }

    fn next_size(&mut self) -> usize {
        let n = self.table.get(self.slot).copied().unwrap_or_default();
        self.slot += 1;
        n
    }

    fn message(&mut self, m: &DynamicMessage) {
        let mut prev = 0;
        for rec in records(m) {
            match rec {
                Rec::Unknown(u) => {
                    self.varint(key_value(u.number, prev, unknown_wire(&u.value)));
                    match &u.value {
                        UnknownValue::Varint(x) => self.varint(*x),
                        UnknownValue::I64(x) => self.out.extend_from_slice(&x.to_be_bytes()),
                        UnknownValue::I32(x) => self.out.extend_from_slice(&x.to_be_bytes()),
                        UnknownValue::Len(b) => {
                            self.varint(b.len() as u64);
                            self.out.extend_from_slice(b);
                        }
                    }
                    prev = u.number;
                }
                Rec::Known(f, v) => {
                    self.varint(key_value(f.number, prev, f.wire()));
                    self.payload(f, v);
                    prev = f.number;
                }
            }
        }
    }

    fn payload(&mut self, f: &FieldInfo, v: &Value) {
        match (f.shape, v) {
            (Shape::Repeated, Value::List(items)) => {
                let n = self.next_size();
                self.varint(n as u64);
                for item in items {
                    self.element(f.ty, item);
                }
            }
            (Shape::Repeated, Value::Scalars(items)) => {
                let n = self.next_size();
                self.varint(n as u64);
                for item in items.iter() {
                    self.element(f.ty, &item);
                }
            }
            (Shape::Map(kt), Value::Map(entries)) => {
                let n = self.next_size();
                self.varint(n as u64);
                for (k, item) in entries {
                    self.element(Ty::Scalar(kt), &k.to_value());
                    self.element(f.ty, item);
                }
            }
            _ => self.element(f.ty, v),
        }
    }

    fn element(&mut self, ty: Ty, v: &Value) {
        if let Value::Message(m) = v {
            let n = self.next_size();
            self.varint(n as u64);
            self.message(m);
            return;
        }
        match form(ty, v) {
            Form::Varint(x) => self.varint(x),
            Form::Fixed4(b) => self.out.extend_from_slice(&b),
            Form::Fixed8(b) => self.out.extend_from_slice(&b),
            Form::Len(b) => {
                self.varint(b.len() as u64);
                self.out.extend_from_slice(b);
            }
        }
    }
}

/// How one non-message element is written (SPEC §3, §6.2).
enum Form<'a> {
    Varint(u64),
    Fixed4([u8; 4]),
    Fixed8([u8; 8]),
    Len(&'a [u8]),
}

fn form(ty: Ty, v: &Value) -> Form<'_> {
    use ScalarType as S;
    let s = match ty {
        Ty::Scalar(s) => Some(s),
        _ => None,
    };
    match (s, v) {
        (_, Value::Bool(b)) => Form::Varint(*b as u64),
        (Some(S::Sfixed32), Value::I32(x)) => Form::Fixed4(x.to_be_bytes()),
        (_, Value::I32(x) | Value::EnumNumber(x)) => Form::Varint(bijou64::zigzag::encode_i32(*x)),
        (Some(S::Sfixed64), Value::I64(x)) => Form::Fixed8(x.to_be_bytes()),
        (_, Value::I64(x)) => Form::Varint(bijou64::zigzag::encode_i64(*x)),
        (Some(S::Fixed32), Value::U32(x)) => Form::Fixed4(x.to_be_bytes()),
        (_, Value::U32(x)) => Form::Varint(*x as u64),
        (Some(S::Fixed64), Value::U64(x)) => Form::Fixed8(x.to_be_bytes()),
        (_, Value::U64(x)) => Form::Varint(*x),
        // SPEC §3.5: every NaN is written as the one canonical pattern.
        (_, Value::F32(x)) => Form::Fixed4(canonical_f32(*x).to_be_bytes()),
        (_, Value::F64(x)) => Form::Fixed8(canonical_f64(*x).to_be_bytes()),
        (_, Value::String(x)) => Form::Len(x.as_bytes()),
        (_, Value::Bytes(x)) => Form::Len(x),
        // Messages are handled by the callers; lists and maps are not elements.
        (_, Value::Message(_) | Value::List(_) | Value::Scalars(_) | Value::Map(_)) => {
            Form::Len(&[])
        }
    }
}

fn unknown_wire(v: &UnknownValue) -> WireType {
    match v {
        UnknownValue::Varint(_) => WireType::Varint,
        UnknownValue::I64(_) => WireType::I64,
        UnknownValue::Len(_) => WireType::Len,
        UnknownValue::I32(_) => WireType::I32,
    }
}

fn unknown_len(v: &UnknownValue) -> usize {
    match v {
        UnknownValue::Varint(x) => bijou64::encoded_len(*x),
        UnknownValue::I64(_) => 8,
        UnknownValue::I32(_) => 4,
        UnknownValue::Len(b) => bijou64::encoded_len(b.len() as u64) + b.len(),
    }
}

fn key_segment(k: &MapKey) -> String {
    crate::error::key_segment(k.clone()).to_string()
}
