//! JSON tree → message.

use std::collections::BTreeMap;

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
use bijoubuf_schema::ScalarType;

use super::tree::{Json, Num};
use super::wkt;
use super::{At, Depth, JsonError};
use crate::descriptor::{FieldShape, Kind, MessageDescriptor};
use crate::value::{DynamicMessage, MapKey, Value};

/// A JSON value as a message of type `desc` at `depth`.
pub(crate) fn message(
    desc: &MessageDescriptor,
    j: &Json,
    at: &At<'_>,
    depth: Depth,
) -> Result<DynamicMessage, JsonError> {
    depth.check(at)?;
    if let Some(m) = wkt::from_json(desc, j, at, depth)? {
        return Ok(m);
    }
    let Json::Obj(members) = j else {
        return Err(not_an_object(desc, j, at));
    };
    fields(desc, members, at, depth)
}

// The functions a nested message recurses through (`message`, `fields`, `element`,
// `repeated`, `map`) keep their error paths and scalar work in `#[inline(never)]`
// helpers: an unoptimized build gives every local and temporary of a function its own
// stack slot, and a chain at the depth cap (500) must fit a 2 MiB thread's stack.

#[cold]
#[inline(never)]
fn not_an_object(desc: &MessageDescriptor, j: &Json, at: &At<'_>) -> JsonError {
    JsonError::at(
        at,
        format!(
            "expected an object for {}, found {}",
            desc.full_name(),
            j.kind()
        ),
    )
}

#[cold]
#[inline(never)]
fn not_a(what: &str, j: &Json, at: &At<'_>) -> JsonError {
    JsonError::at(at, format!("expected {what}, found {}", j.kind()))
}

#[cold]
#[inline(never)]
fn given_twice(name: &str, other: &str, at: &At<'_>) -> JsonError {
    JsonError::at(at, format!("field {name} is also given as {other:?}"))
}

#[cold]
#[inline(never)]
fn oneof_twice(o: &str, other: &str, at: &At<'_>) -> JsonError {
    JsonError::at(
        at,
        format!("oneof {o} already has a member set ({other:?})"),
    )
}

#[cold]
#[inline(never)]
fn at_error(at: &At<'_>, e: impl std::fmt::Display) -> JsonError {
    JsonError::at(at, e.to_string())
}

/// The members of an object as the fields of a `desc` message at `depth` (checked by
/// the caller).
pub(crate) fn fields<'j>(
    desc: &MessageDescriptor,
    members: impl IntoIterator<Item = &'j (String, Json)>,
    at: &At<'_>,
    depth: Depth,
) -> Result<DynamicMessage, JsonError> {
    let mut msg = DynamicMessage::new(desc.clone());
    let mut seen: Vec<(u32, &str)> = Vec::new();
    let mut oneofs: Vec<(String, &str)> = Vec::new();
    for (key, v) in members {
        let here = At::Key(at, key);
        let Some(f) = desc.field_by_json_name(key) else {
            return Err(at_error(&here, unknown_field(desc, key)));
        };
        if let Some((_, other)) = seen.iter().find(|(n, _)| *n == f.number()) {
            return Err(given_twice(f.name(), other, &here));
        }
        seen.push((f.number(), key));
        let kind = f.kind();
        // `null` means absent, except where it is the value (google.protobuf.Value).
        if *v == Json::Null && !null_is_value(&kind) {
            continue;
        }
        if let Some(o) = f.oneof_name() {
            if let Some((_, other)) = oneofs.iter().find(|(name, _)| name == o) {
                return Err(oneof_twice(o, other, &here));
            }
            oneofs.push((o.to_string(), key));
        }
        let value = match f.shape() {
            FieldShape::Single(_) => element(&kind, v, &here, depth)?,
            FieldShape::Repeated => repeated(&kind, v, &here, depth)?,
            FieldShape::Map(key_ty) => map(key_ty, &kind, v, &here, depth)?,
        };
        if let Err(e) = msg.set(f.number(), value) {
            return Err(at_error(&here, e));
        }
    }
    Ok(msg)
}

/// A repeated field's array, its elements of type `kind`, in a message at `depth`.
fn repeated(kind: &Kind, v: &Json, here: &At<'_>, depth: Depth) -> Result<Value, JsonError> {
    let Json::Arr(items) = v else {
        return Err(not_a("an array", v, here));
    };
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        out.push(element(kind, item, &At::Index(here, i), depth)?);
    }
    Ok(Value::List(out))
}

/// A map field's object, its values of type `kind`, in a message at `depth`.
fn map(
    key_ty: ScalarType,
    kind: &Kind,
    v: &Json,
    here: &At<'_>,
    depth: Depth,
) -> Result<Value, JsonError> {
    let Json::Obj(entries) = v else {
        return Err(not_a("an object for a map", v, here));
    };
    let mut out = BTreeMap::new();
    for (k, item) in entries {
        let p = At::Key(here, k);
        let mk = map_key(key_ty, k, &p)?;
        let value = element(kind, item, &p, depth)?;
        if out.insert(mk, value).is_some() {
            // "1" and "01" name the same integer key.
            return Err(JsonError::at(&p, "the same map key twice"));
        }
    }
    Ok(Value::Map(out.into_iter().collect()))
}

fn null_is_value(kind: &Kind) -> bool {
    match kind {
        Kind::Message(m) => m.full_name() == "google.protobuf.Value",
        Kind::Enum(e) => e.full_name() == "google.protobuf.NullValue",
        Kind::Scalar(_) => false,
    }
}

fn map_key(ty: ScalarType, k: &str, at: &At<'_>) -> Result<MapKey, JsonError> {
    let j = Json::Str(k.to_string());
    Ok(match ty {
        ScalarType::Bool => match k {
            "true" => MapKey::Bool(true),
            "false" => MapKey::Bool(false),
            _ => {
                return Err(JsonError::at(
                    at,
                    "a bool map key must be \"true\" or \"false\"",
                ));
            }
        },
        ScalarType::String => MapKey::String(k.to_string()),
        _ => match scalar(ty, &j, at)? {
            Value::I32(v) => MapKey::I32(v),
            Value::I64(v) => MapKey::I64(v),
            Value::U32(v) => MapKey::U32(v),
            Value::U64(v) => MapKey::U64(v),
            _ => return Err(JsonError::at(at, "not a valid map key type")),
        },
    })
}

/// One element of type `kind`, in a message at `depth`.
pub(crate) fn element(
    kind: &Kind,
    j: &Json,
    at: &At<'_>,
    depth: Depth,
) -> Result<Value, JsonError> {
    match kind {
        Kind::Message(m) => message(m, j, at, depth.next()).map(Value::from),
        _ => leaf(kind, j, at),
    }
}

/// One element of a scalar or enum type `kind`.
#[inline(never)]
fn leaf(kind: &Kind, j: &Json, at: &At<'_>) -> Result<Value, JsonError> {
    match kind {
        Kind::Scalar(s) => scalar(*s, j, at),
        Kind::Message(_) => Err(JsonError::at(at, "a message is not a leaf")),
        Kind::Enum(e) => match j {
            Json::Null if e.full_name() == "google.protobuf.NullValue" => Ok(Value::EnumNumber(0)),
            Json::Str(name) => e.number_of(name).map(Value::EnumNumber).ok_or_else(|| {
                JsonError::at(at, format!("{name:?} is not a value of {}", e.full_name()))
            }),
            Json::Num(_) => {
                let n = integer(j, at)?;
                i32::try_from(n).map(Value::EnumNumber).map_err(|_| {
                    JsonError::at(at, format!("enum number {n} is outside the int32 range"))
                })
            }
            _ => Err(JsonError::at(
                at,
                format!("expected an enum name or number, found {}", j.kind()),
            )),
        },
    }
}

/// One scalar with its range checks.
pub(crate) fn scalar(s: ScalarType, j: &Json, at: &At<'_>) -> Result<Value, JsonError> {
    use ScalarType as S;
    let range = |n: i128| JsonError::at(at, format!("{n} is out of range for {}", s.keyword()));
    Ok(match s {
        S::Bool => match j {
            Json::Bool(b) => Value::Bool(*b),
            _ => return Err(expected(at, "true or false", j)),
        },
        S::String => match j {
            Json::Str(v) => Value::String(v.clone()),
            _ => return Err(expected(at, "a string", j)),
        },
        S::Bytes => {
            match j {
                Json::Str(v) => Value::Bytes(base64(v).ok_or_else(|| {
                    JsonError::at(at, "bytes must be standard or URL-safe base64")
                })?),
                _ => return Err(expected(at, "a base64 string", j)),
            }
        }
        S::Int32 | S::Sint32 | S::Sfixed32 => {
            let n = integer(j, at)?;
            Value::I32(i32::try_from(n).map_err(|_| range(n))?)
        }
        S::Int64 | S::Sint64 | S::Sfixed64 => {
            let n = integer(j, at)?;
            Value::I64(i64::try_from(n).map_err(|_| range(n))?)
        }
        S::Uint32 | S::Fixed32 => {
            let n = integer(j, at)?;
            Value::U32(u32::try_from(n).map_err(|_| range(n))?)
        }
        S::Uint64 | S::Fixed64 => {
            let n = integer(j, at)?;
            Value::U64(u64::try_from(n).map_err(|_| range(n))?)
        }
        S::Double => Value::F64(float(j, at)?),
        S::Float => {
            let x = float(j, at)?;
            // In range means "rounds to a finite float": the shortest decimal of f32::MAX
            // (3.4028235e38) lies just above it as an f64 and must read back as f32::MAX.
            if x.is_finite() && !(x as f32).is_finite() {
                return Err(JsonError::at(at, format!("{x} is out of range for float")));
            }
            Value::F32(x as f32)
        }
    })
}

fn expected(at: &At<'_>, what: &str, j: &Json) -> JsonError {
    JsonError::at(at, format!("expected {what}, found {}", j.kind()))
}

/// An integer given as a JSON number or a decimal string (exact; a float must have no
/// fractional part).
pub(crate) fn integer(j: &Json, at: &At<'_>) -> Result<i128, JsonError> {
    let not_int = || JsonError::at(at, "expected an integer");
    match j {
        Json::Num(Num::U(u)) => Ok(i128::from(*u)),
        Json::Num(Num::I(i)) => Ok(i128::from(*i)),
        Json::Num(Num::F(f)) => float_to_int(*f).ok_or_else(not_int),
        Json::Str(t) => {
            if let Ok(n) = t.parse::<i128>() {
                return Ok(n);
            }
            // "1e3" and "5.0" are integers too; "inf" and "nan" (which Rust reads) are not.
            let numeric = !t.is_empty()
                && t.chars()
                    .all(|c| c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E'));
            match t.parse::<f64>() {
                Ok(f) if numeric => float_to_int(f).ok_or_else(not_int),
                _ => Err(not_int()),
            }
        }
        _ => Err(expected(at, "an integer", j)),
    }
}

fn float_to_int(f: f64) -> Option<i128> {
    // Beyond 2^100 the value is out of every integer range anyway; keep the cast exact.
    (f.is_finite() && f.fract() == 0.0 && f.abs() < 1e30).then_some(f as i128)
}

/// A float given as a JSON number, a numeric string, or "NaN" / "Infinity" /
/// "-Infinity".
fn float(j: &Json, at: &At<'_>) -> Result<f64, JsonError> {
    match j {
        Json::Num(Num::U(u)) => Ok(*u as f64),
        Json::Num(Num::I(i)) => Ok(*i as f64),
        Json::Num(Num::F(f)) => Ok(*f),
        Json::Str(t) => match t.as_str() {
            "NaN" => Ok(f64::NAN),
            "Infinity" => Ok(f64::INFINITY),
            "-Infinity" => Ok(f64::NEG_INFINITY),
            other => match other.parse::<f64>() {
                // Rust also reads "inf" and "nan"; proto3 JSON spells them out.
                Ok(f) if f.is_finite() => Ok(f),
                _ => Err(JsonError::at(at, format!("{other:?} is not a number"))),
            },
        },
        _ => Err(expected(at, "a number", j)),
    }
}

/// Standard or URL-safe base64, with or without padding.
fn base64(s: &str) -> Option<Vec<u8>> {
    let url = s.contains(['-', '_']);
    let padded = s.ends_with('=');
    let engine = match (url, padded) {
        (false, true) => &STANDARD,
        (false, false) => &STANDARD_NO_PAD,
        (true, true) => &URL_SAFE,
        (true, false) => &URL_SAFE_NO_PAD,
    };
    engine.decode(s).ok()
}

/// Why `key` names no field of `desc`, with the close JSON name a typo probably meant.
#[cold]
fn unknown_field(desc: &MessageDescriptor, key: &str) -> String {
    let names: Vec<String> = desc.fields().map(|f| f.json_name().to_string()).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let hint = match bijoubuf_schema::similar(key, &refs) {
        Some(name) => format!(" (did you mean {name:?}?)"),
        None => String::new(),
    };
    format!("{} has no field named {key:?}{hint}", desc.full_name())
}
