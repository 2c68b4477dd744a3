//! Message → JSON tree.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

use super::tree::{Json, Num};
use super::wkt;
use super::{At, Depth, JsonError};
use crate::descriptor::{FieldShape, Kind};
use crate::value::{DynamicMessage, MapKey, Value};

/// A message as JSON; `at` is where it sits in the output (for errors), `depth` its
/// nesting depth and the limit.
pub(crate) fn message(m: &DynamicMessage, at: &At<'_>, depth: Depth) -> Result<Json, JsonError> {
    depth.check(at)?;
    if let Some(special) = wkt::to_json(m, at, depth)? {
        return Ok(special);
    }
    let mut members = Vec::new();
    for (f, v) in m.fields() {
        let name = f.json_name().to_string();
        let here = At::Key(at, &name);
        let kind = f.kind();
        let j = match (f.shape(), v) {
            (FieldShape::Repeated, Value::List(items)) => Json::Arr(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| element(&kind, item, &At::Index(&here, i), depth))
                    .collect::<Result<_, _>>()?,
            ),
            (FieldShape::Repeated, Value::Scalars(items)) => Json::Arr(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| element(&kind, &item, &At::Index(&here, i), depth))
                    .collect::<Result<_, _>>()?,
            ),
            (FieldShape::Map(_), Value::Map(entries)) => Json::Obj(
                entries
                    .iter()
                    .map(|(k, item)| {
                        let key = key_string(k);
                        let j = element(&kind, item, &At::Key(&here, &key), depth)?;
                        Ok((key, j))
                    })
                    .collect::<Result<_, JsonError>>()?,
            ),
            _ => element(&kind, v, &here, depth)?,
        };
        members.push((name, j));
    }
    Ok(Json::Obj(members))
}

/// A map key as the JSON object key.
pub(crate) fn key_string(k: &MapKey) -> String {
    match k {
        MapKey::Bool(b) => b.to_string(),
        MapKey::I32(v) => v.to_string(),
        MapKey::I64(v) => v.to_string(),
        MapKey::U32(v) => v.to_string(),
        MapKey::U64(v) => v.to_string(),
        MapKey::String(s) => s.clone(),
    }
}

/// One value of element type `kind`, in a message at `depth`.
pub(crate) fn element(
    kind: &Kind,
    v: &Value,
    at: &At<'_>,
    depth: Depth,
) -> Result<Json, JsonError> {
    Ok(match v {
        Value::Bool(b) => Json::Bool(*b),
        Value::I32(x) => Json::Num(Num::I(i64::from(*x))),
        Value::U32(x) => Json::Num(Num::U(u64::from(*x))),
        // 64-bit integers are strings: JSON numbers are doubles in many readers.
        Value::I64(x) => Json::Str(x.to_string()),
        Value::U64(x) => Json::Str(x.to_string()),
        // Rust writes -0.0f32 as "-0", which JSON readers take for the integer 0.
        Value::F32(x) if *x == 0.0 && x.is_sign_negative() => Json::Num(Num::Text("-0.0".into())),
        Value::F32(x) => float(f64::from(*x), || x.to_string()),
        Value::F64(x) => float(*x, || {
            serde_json::Number::from_f64(*x).map_or_else(|| x.to_string(), |n| n.to_string())
        }),
        Value::String(s) => Json::Str(s.clone()),
        Value::Bytes(b) => Json::Str(STANDARD.encode(b)),
        Value::EnumNumber(n) => match kind {
            // JSON `null` reads back as NULL_VALUE (0); another number has no spelling.
            Kind::Enum(e) if e.full_name() == "google.protobuf.NullValue" => {
                if *n != 0 {
                    return Err(JsonError::at(
                        at,
                        format!("NullValue {n} has no JSON form (only NULL_VALUE, 0, is null)"),
                    ));
                }
                Json::Null
            }
            Kind::Enum(e) => match e.name_of(*n) {
                Some(name) => Json::Str(name.to_string()),
                None => Json::Num(Num::I(i64::from(*n))),
            },
            _ => Json::Num(Num::I(i64::from(*n))),
        },
        Value::Message(m) => message(m, at, depth.next())?,
        Value::List(_) | Value::Scalars(_) | Value::Map(_) => {
            return Err(JsonError::at(at, "a list or map where an element belongs"));
        }
    })
}

fn float(x: f64, finite: impl FnOnce() -> String) -> Json {
    if x.is_nan() {
        Json::Str("NaN".into())
    } else if x == f64::INFINITY {
        Json::Str("Infinity".into())
    } else if x == f64::NEG_INFINITY {
        Json::Str("-Infinity".into())
    } else {
        Json::Num(Num::Text(finite()))
    }
}
