//! Counterexamples: each canonical or forward finding shown failing with real bytes.
//!
//! For a finding's [`Subject`], a message of the writer's type is built with the
//! subject's fields set (trying a short list of values per type: 1, −1, a set 0, the
//! extremes, a NaN, a non-UTF-8 byte…), encoded with bijoubuf-reflect, and decoded by
//! the other schema's strict decoder. The first value the reader refuses, or reads as
//! another value, is the counterexample. A finding for which no value fails is a bug in
//! the checker: the tests ask for a counterexample for every rule.

use std::fmt;

use bijoubuf::{DecodeOptions, UnknownFieldPolicy};
use bijoubuf_reflect::{
    DecodeError, DescriptorPool, DynamicMessage, FieldDescriptor, FieldShape, Kind, MapKey,
    MessageDescriptor, PathSegment, Value,
};
use bijoubuf_schema::{Presence, ScalarType};

use crate::finding::{Finding, Side, Subject, Witness};

/// What the reader did with the writer's bytes.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Refused by the strict decoder.
    Refused(DecodeError),
    /// Accepted, but a field the writer set reads as another value.
    Misread {
        /// The field as the writer set it.
        written: String,
        /// The field as the reader read it.
        read: String,
    },
}

/// Bytes one schema writes that the other schema's decoder refuses or misreads.
#[derive(Clone, Debug, PartialEq)]
pub struct Counterexample {
    /// The schema that wrote the bytes.
    pub writer: Side,
    /// The written message, e.g. `shop.Order { id: 1 }`.
    pub message: String,
    /// Its canonical bytes under the writer's schema.
    pub bytes: Vec<u8>,
    /// What the other schema's strict decoder did.
    pub outcome: Outcome,
}

impl fmt::Display for Counterexample {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} bytes {} ({}) ",
            self.writer.name(),
            hex(&self.bytes),
            self.message
        )?;
        let reader = self.writer.other().name();
        match &self.outcome {
            Outcome::Refused(e) => {
                write!(
                    f,
                    "are refused by the {reader} schema: {} at byte {}",
                    e.code(),
                    e.offset()
                )?;
                let path = e.path_string();
                if !path.is_empty() {
                    write!(f, ", path {path}")?;
                }
                Ok(())
            }
            Outcome::Misread { written, read } => write!(
                f,
                "are read by the {reader} schema as {read}, not {written}"
            ),
        }
    }
}

/// The bytes in hex, cut after 24 bytes.
fn hex(bytes: &[u8]) -> String {
    let mut s: Vec<String> = bytes.iter().take(24).map(|b| format!("{b:02x}")).collect();
    if bytes.len() > 24 {
        s.push("…".into());
    }
    if s.is_empty() {
        return "(empty)".into();
    }
    s.join(" ")
}

/// The counterexample of `finding` (canonical and forward findings), or `None` when it
/// has no subject or no tried value fails.
pub fn counterexample(
    finding: &Finding,
    old: &DescriptorPool,
    new: &DescriptorPool,
) -> Option<Counterexample> {
    let s = finding.subject.as_ref()?;
    let (wpool, rpool) = match s.writer {
        Side::Old => (old, new),
        Side::New => (new, old),
    };
    let w = wpool.message(&s.writer_message)?;
    let r = rpool.message(&s.reader_message)?;
    match &s.witness {
        Witness::Fields(numbers) => (0..CANDIDATES).find_map(|i| {
            let mut msg = base(&w, DEPTH);
            for &n in numbers {
                let field = w.field(n)?;
                let v = candidate(&field, i, DEPTH)?;
                msg.set(n, v).ok()?;
            }
            confirm(s, &msg, &r, numbers)
        }),
        Witness::Empty => confirm(s, &base(&w, DEPTH), &r, &[]),
        Witness::EnumNumber { field, number } => {
            let fd = w.field(*field)?;
            let mut msg = base(&w, DEPTH);
            let v = match fd.shape() {
                FieldShape::Repeated => Value::List(vec![Value::EnumNumber(*number)]),
                _ => Value::EnumNumber(*number),
            };
            msg.set(*field, v).ok()?;
            confirm(s, &msg, &r, &[*field])
        }
        Witness::Reserved { number } => reserved(s, &w, &r, *number),
    }
}

const CANDIDATES: usize = 8;
const DEPTH: u32 = 3;

/// Decode `msg`'s bytes with the reader and see it fail.
fn confirm(
    s: &Subject,
    msg: &DynamicMessage,
    r: &MessageDescriptor,
    numbers: &[u32],
) -> Option<Counterexample> {
    let bytes = msg.encode().ok()?;
    let outcome = match DynamicMessage::decode(r, &bytes) {
        Err(e) => {
            if !relevant(&e, msg.descriptor(), r, numbers) {
                return None;
            }
            Outcome::Refused(e)
        }
        Ok(read) => {
            let n = numbers.iter().find(|&&n| {
                let (Some(wf), Some(wv)) = (msg.descriptor().field(n), msg.get(n)) else {
                    return false;
                };
                match (r.field(n), read.get(n)) {
                    (Some(rf), Some(rv)) => !same(wv, rv, &wf.kind(), &rf.kind()),
                    _ => true,
                }
            })?;
            let wk = msg.descriptor().field(*n).map(|f| f.kind());
            let rk = r.field(*n).map(|f| f.kind());
            Outcome::Misread {
                written: msg
                    .get(*n)
                    .map_or("unset".into(), |v| show_as(v, wk.as_ref())),
                read: read
                    .get(*n)
                    .map_or("unset".into(), |v| show_as(v, rk.as_ref())),
            }
        }
    };
    Some(Counterexample {
        writer: s.writer,
        message: show_message(msg),
        bytes,
        outcome,
    })
}

/// Whether the error is about one of the subject's fields (and not about some other
/// part of the message the search filled in).
fn relevant(
    e: &DecodeError,
    w: &MessageDescriptor,
    r: &MessageDescriptor,
    numbers: &[u32],
) -> bool {
    if numbers.is_empty() {
        return true;
    }
    let Some(first) = e.path().nth(1) else {
        return false;
    };
    numbers.iter().any(|&n| match first {
        PathSegment::Unknown(u) => *u == n,
        PathSegment::Field(name) => {
            r.field(n).is_some_and(|f| f.name() == *name)
                || w.field(n)
                    .is_some_and(|f| r.field_by_name(f.name()).is_some_and(|g| g.name() == *name))
        }
        _ => false,
    })
}

/// A reserved number: a record an old preserving decoder keeps (the old schema gives
/// the number no meaning), of a wire type or value the new field does not accept.
fn reserved(
    s: &Subject,
    w: &MessageDescriptor,
    r: &MessageDescriptor,
    number: u32,
) -> Option<Counterexample> {
    let rf = r.field(number)?;
    let reader_wire = field_wire_type(&rf);
    // A VARINT 0 where the reader expects another wire type, else a fixed 4 bytes.
    let (wire, payload): (u8, &[u8]) = if reader_wire == 0 {
        (3, &[0, 0, 0, 0])
    } else {
        (0, &[0])
    };
    let key = (u64::from(number - 1) << 2) | u64::from(wire);
    let mut bytes = bijou64::encode(key).as_slice().to_vec();
    bytes.extend_from_slice(payload);
    let keep = DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve);
    let kept = DynamicMessage::decode_with(w, &bytes, &keep).ok()?;
    // Stored as it came: the preserving writer re-encodes the same bytes.
    if kept.encode().ok()? != bytes {
        return None;
    }
    let e = DynamicMessage::decode(r, &bytes).err()?;
    Some(Counterexample {
        writer: s.writer,
        message: format!("{} with unknown field {number} kept", w.full_name()),
        bytes,
        outcome: Outcome::Refused(e),
    })
}

fn field_wire_type(f: &FieldDescriptor) -> u8 {
    match f.shape() {
        FieldShape::Repeated | FieldShape::Map(_) => 2,
        FieldShape::Single(_) => match f.kind() {
            Kind::Message(_) => 2,
            Kind::Enum(_) => 0,
            Kind::Scalar(s) => crate::scalar::wire_type(crate::scalar::WireScalar::Scalar(s)),
        },
    }
}

/// A message of type `desc` with its required fields set (so it can be encoded).
fn base(desc: &MessageDescriptor, depth: u32) -> DynamicMessage {
    let mut msg = DynamicMessage::new(desc.clone());
    for f in desc.fields() {
        if f.shape() == FieldShape::Single(Presence::Required)
            && let Some(v) = candidate(&f, 0, depth)
        {
            let _ = msg.set(f.number(), v);
        }
    }
    msg
}

/// The `i`th value tried for field `f`.
fn candidate(f: &FieldDescriptor, i: usize, depth: u32) -> Option<Value> {
    let elem = element(&f.kind(), i, depth)?;
    Some(match f.shape() {
        FieldShape::Single(_) => elem,
        FieldShape::Repeated => Value::List(vec![elem]),
        FieldShape::Map(k) => {
            let key = map_key(k, i)?;
            Value::Map([(key, elem)].into_iter().collect())
        }
    })
}

fn element(kind: &Kind, i: usize, depth: u32) -> Option<Value> {
    Some(match kind {
        Kind::Enum(_) => Value::EnumNumber(*[1, -1, 0, 2, i32::MAX].get(i)?),
        Kind::Message(m) => {
            if depth == 0 {
                return None;
            }
            let mut msg = base(m, depth - 1);
            if i == 0 {
                // One field set, so the message is not empty.
                if let Some(f) = m.fields().next()
                    && let Some(v) = candidate(&f, 0, depth - 1)
                {
                    let _ = msg.set(f.number(), v);
                }
            } else if i > 1 {
                return None;
            }
            Value::from(msg)
        }
        Kind::Scalar(s) => scalar(*s, i)?,
    })
}

fn scalar(s: ScalarType, i: usize) -> Option<Value> {
    use ScalarType as S;
    Some(match s {
        S::Int32 | S::Sint32 | S::Sfixed32 => Value::I32(*[1, -1, 0, i32::MAX, i32::MIN].get(i)?),
        S::Int64 | S::Sint64 | S::Sfixed64 => {
            Value::I64(*[1, -1, 0, i64::MAX, i64::MIN, 1 << 40].get(i)?)
        }
        S::Uint32 | S::Fixed32 => Value::U32(*[1, 2, 0, u32::MAX].get(i)?),
        S::Uint64 | S::Fixed64 => Value::U64(*[1, 2, 0, u64::MAX].get(i)?),
        S::Bool => Value::Bool(*[true, false].get(i)?),
        S::Float => Value::F32(*[1.0, -0.0, 0.0, f32::NAN, 1.5].get(i)?),
        S::Double => Value::F64(*[1.0, -0.0, 0.0, f64::NAN, 1.5].get(i)?),
        S::String => Value::String((*["a", "", "\u{0}", "é"].get(i)?).into()),
        S::Bytes => Value::Bytes([&b"a"[..], b"", &[0xff], &[0]].get(i)?.to_vec()),
    })
}

fn map_key(k: ScalarType, i: usize) -> Option<MapKey> {
    Some(match scalar(k, i)? {
        Value::Bool(v) => MapKey::Bool(v),
        Value::I32(v) => MapKey::I32(v),
        Value::I64(v) => MapKey::I64(v),
        Value::U32(v) => MapKey::U32(v),
        Value::U64(v) => MapKey::U64(v),
        Value::String(v) => MapKey::String(v),
        _ => return None,
    })
}

/// The number a value stands for (bools are 0 and 1, enums their number).
fn integer(v: &Value) -> Option<i128> {
    Some(match v {
        Value::Bool(b) => i128::from(*b),
        Value::I32(x) | Value::EnumNumber(x) => i128::from(*x),
        Value::I64(x) => i128::from(*x),
        Value::U32(x) => i128::from(*x),
        Value::U64(x) => i128::from(*x),
        _ => return None,
    })
}

/// Whether a value written with kind `ka` and read with kind `kb` is the same value:
/// the same number, float bits, bytes (a string and bytes with the same bytes are the
/// same), fields, elements or entries. An enum number the writer names is the same only
/// if the reader gives that name the same number.
pub fn same(a: &Value, b: &Value, ka: &Kind, kb: &Kind) -> bool {
    if let (Kind::Enum(ea), Kind::Enum(eb)) = (ka, kb)
        && let (Value::EnumNumber(x), Value::EnumNumber(y)) = (a, b)
    {
        let renamed = ea
            .name_of(*x)
            .is_some_and(|name| eb.number_of(name).is_some_and(|m| m != *y));
        return x == y && !renamed;
    }
    match (a, b) {
        (Value::F32(x), Value::F32(y)) => x.to_bits() == y.to_bits(),
        (Value::F64(x), Value::F64(y)) => x.to_bits() == y.to_bits(),
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Bytes(x), Value::Bytes(y)) => x == y,
        (Value::String(x), Value::Bytes(y)) | (Value::Bytes(y), Value::String(x)) => {
            x.as_bytes() == y.as_slice()
        }
        (Value::Message(x), Value::Message(y)) => same_message(x, y),
        (Value::List(x), Value::List(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q, ka, kb))
        }
        (Value::Map(x), Value::Map(y)) => {
            x.len() == y.len()
                && x.iter().zip(y).all(|((kx, vx), (ky, vy))| {
                    let (kx, ky) = (kx.to_value(), ky.to_value());
                    same_scalar(&kx, &ky) && same(vx, vy, ka, kb)
                })
        }
        _ => same_scalar(a, b),
    }
}

fn same_scalar(a: &Value, b: &Value) -> bool {
    match (integer(a), integer(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// Same field numbers holding the same values, no unknown fields on either side.
pub fn same_message(x: &DynamicMessage, y: &DynamicMessage) -> bool {
    let xs: Vec<(FieldDescriptor, &Value)> = x.fields().collect();
    let ys: Vec<(FieldDescriptor, &Value)> = y.fields().collect();
    xs.len() == ys.len()
        && x.unknown_fields().is_empty()
        && y.unknown_fields().is_empty()
        && xs.iter().zip(&ys).all(|((fa, a), (fb, b))| {
            fa.number() == fb.number() && same(a, b, &fa.kind(), &fb.kind())
        })
}

/// [`show`], with an enum number followed by the name the schema gives it.
fn show_as(v: &Value, kind: Option<&Kind>) -> String {
    match (v, kind) {
        (Value::EnumNumber(n), Some(Kind::Enum(e))) => match e.name_of(*n) {
            Some(name) => format!("{name} ({n})"),
            None => format!("unnamed enum number {n}"),
        },
        _ => show(v),
    }
}

/// A value in a short text form: `1`, `"a"`, `[1]`, `{"k": 1}`, `M { a: 1 }`.
pub fn show(v: &Value) -> String {
    match v {
        Value::Bool(x) => x.to_string(),
        Value::I32(x) => x.to_string(),
        Value::I64(x) => x.to_string(),
        Value::U32(x) => x.to_string(),
        Value::U64(x) => x.to_string(),
        Value::F32(x) => format!("{x:?}"),
        Value::F64(x) => format!("{x:?}"),
        Value::String(x) => format!("{x:?}"),
        Value::Bytes(x) => format!("bytes [{}]", hex(x)),
        Value::EnumNumber(x) => format!("enum {x}"),
        Value::Message(m) => show_message(m),
        Value::List(xs) => format!("[{}]", xs.iter().map(show).collect::<Vec<_>>().join(", ")),
        Value::Scalars(xs) => format!(
            "[{}]",
            xs.iter().map(|x| show(&x)).collect::<Vec<_>>().join(", ")
        ),
        Value::Map(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, v)| format!("{}: {}", show(&k.to_value()), show(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// A message in [`show`]'s form.
pub fn show_message(m: &DynamicMessage) -> String {
    let fields: Vec<String> = m
        .fields()
        .map(|(f, v)| format!("{}: {}", f.name(), show(v)))
        .collect();
    if fields.is_empty() {
        format!("{} {{}}", m.descriptor().name())
    } else {
        format!("{} {{ {} }}", m.descriptor().name(), fields.join(", "))
    }
}
