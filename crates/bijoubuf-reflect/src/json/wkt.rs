//! The special JSON forms of the well-known types (google.protobuf.*).
//!
//! On the wire these are ordinary messages (SPEC §4.4); only their JSON differs.

use bijoubuf_schema::ScalarType;

use super::from;
use super::time::{duration_text, parse_duration, parse_timestamp, timestamp_text};
use super::to::{self, Out};
use std::fmt::Write as _;

use super::tree::{Json, quote_into};
use super::{At, Depth, JsonError};
use crate::descriptor::{Kind, MessageDescriptor};
use crate::value::{DynamicMessage, MapKey, Value};

fn wrapper(name: &str) -> Option<ScalarType> {
    use ScalarType as S;
    Some(match name {
        "google.protobuf.DoubleValue" => S::Double,
        "google.protobuf.FloatValue" => S::Float,
        "google.protobuf.Int64Value" => S::Int64,
        "google.protobuf.UInt64Value" => S::Uint64,
        "google.protobuf.Int32Value" => S::Int32,
        "google.protobuf.UInt32Value" => S::Uint32,
        "google.protobuf.BoolValue" => S::Bool,
        "google.protobuf.StringValue" => S::String,
        "google.protobuf.BytesValue" => S::Bytes,
        _ => return None,
    })
}

/// Whether a message type has a special JSON form (inside an Any it goes under
/// `"value"`).
fn is_special(name: &str) -> bool {
    wrapper(name).is_some()
        || matches!(
            name,
            "google.protobuf.Timestamp"
                | "google.protobuf.Duration"
                | "google.protobuf.FieldMask"
                | "google.protobuf.Struct"
                | "google.protobuf.Value"
                | "google.protobuf.ListValue"
                | "google.protobuf.Any"
        )
}

fn int(m: &DynamicMessage, n: u32) -> i64 {
    match m.get(n) {
        Some(Value::I64(v)) => *v,
        Some(Value::I32(v)) => i64::from(*v),
        _ => 0,
    }
}

fn sub(desc: &MessageDescriptor, n: u32) -> Result<MessageDescriptor, JsonError> {
    match desc.field(n).map(|f| f.kind()) {
        Some(Kind::Message(m)) => Ok(m),
        _ => Err(JsonError::new(
            "",
            format!("{} field {n} is not a message", desc.full_name()),
        )),
    }
}

fn set(m: &mut DynamicMessage, n: u32, v: Value, at: &At<'_>) -> Result<(), JsonError> {
    m.set(n, v).map_err(|e| JsonError::at(at, e.to_string()))
}

/// Writes `m` (a message at `depth`, written at `level`) in its special form and returns
/// true, or returns false for an ordinary message.
pub(crate) fn special(
    m: &DynamicMessage,
    o: &mut Out,
    at: &At<'_>,
    depth: Depth,
    level: usize,
) -> Result<bool, JsonError> {
    let desc = m.descriptor();
    let name = desc.full_name();
    if let Some(ty) = wrapper(name) {
        let kind = Kind::Scalar(ty);
        match m.get(1) {
            Some(v) => to::element(o, &kind, v, at, depth, level)?,
            None => {
                let v = Value::default_of(crate::descriptor::Ty::Scalar(ty), desc);
                to::element(o, &kind, &v, at, depth, level)?;
            }
        }
        return Ok(true);
    }
    if name == "google.protobuf.Any" {
        any_into(m, o, at, depth, level)?;
        return Ok(true);
    }
    match name {
        "google.protobuf.Timestamp" => {
            let t = timestamp_text(int(m, 1), int(m, 2), at)?;
            quote_into(&mut o.text, &t);
        }
        "google.protobuf.Duration" => {
            let t = duration_text(int(m, 1), int(m, 2), at)?;
            quote_into(&mut o.text, &t);
        }
        "google.protobuf.FieldMask" => {
            let mut paths = Vec::new();
            if let Some(Value::List(items)) = m.get(1) {
                for (i, v) in items.iter().enumerate() {
                    if let Value::String(s) = v {
                        paths.push(mask_path_json(s, &At::Index(at, i))?);
                    }
                }
            }
            quote_into(&mut o.text, &paths.join(","));
        }
        "google.protobuf.Struct" => struct_into(o, m, at, depth, level)?,
        "google.protobuf.ListValue" => list_into(o, m, at, depth, level)?,
        "google.protobuf.Value" => value_into(o, m, at, depth, level)?,
        _ => return Ok(false),
    }
    Ok(true)
}

// The Struct family is written as it is walked, like every other message (`to`): a tree
// of the output built first cost about 32 bytes per element, 18.9 times the input for a
// ListValue of nulls whose text is 1.7 times as long.

/// google.protobuf.Struct (a message at `depth`, written at `level`): a JSON object of
/// its `fields` map, each value a google.protobuf.Value one level deeper.
fn struct_into(
    o: &mut Out,
    m: &DynamicMessage,
    at: &At<'_>,
    depth: Depth,
    level: usize,
) -> Result<(), JsonError> {
    o.text.push('{');
    let mut first = true;
    if let Some(Value::Map(entries)) = m.get(1) {
        for (k, v) in entries {
            // Struct keys are strings; another key type (a malformed descriptor) is
            // spelled as a map key would be.
            let owned;
            let key = match k {
                MapKey::String(s) => s.as_str(),
                _ => {
                    owned = to::key_string(k);
                    &owned
                }
            };
            o.item(&mut first, level);
            o.key(key);
            element_into(o, v, &At::Key(at, key), depth.next(), level + 1)?;
        }
    }
    o.close(first, level, '}');
    Ok(())
}

/// google.protobuf.ListValue (a message at `depth`, written at `level`): a JSON array of
/// its `values`, each a google.protobuf.Value one level deeper.
fn list_into(
    o: &mut Out,
    m: &DynamicMessage,
    at: &At<'_>,
    depth: Depth,
    level: usize,
) -> Result<(), JsonError> {
    o.text.push('[');
    let mut first = true;
    if let Some(Value::List(items)) = m.get(1) {
        for (i, v) in items.iter().enumerate() {
            o.item(&mut first, level);
            element_into(o, v, &At::Index(at, i), depth.next(), level + 1)?;
        }
    }
    o.close(first, level, ']');
    Ok(())
}

/// A Struct's or ListValue's element: a google.protobuf.Value at `depth`.
fn element_into(
    o: &mut Out,
    v: &Value,
    at: &At<'_>,
    depth: Depth,
    level: usize,
) -> Result<(), JsonError> {
    depth.check(at)?;
    match v {
        Value::Message(m) => value_into(o, m, at, depth, level),
        _ => Err(JsonError::at(at, "expected a google.protobuf.Value")),
    }
}

/// google.protobuf.Value (a message at `depth`, written at `level`): whichever member of
/// `kind` is set.
fn value_into(
    o: &mut Out,
    m: &DynamicMessage,
    at: &At<'_>,
    depth: Depth,
    level: usize,
) -> Result<(), JsonError> {
    match (m.get(1), m.get(2), m.get(3), m.get(4), m.get(5), m.get(6)) {
        // JSON `null` reads back as NULL_VALUE (0); another number has no spelling.
        (Some(Value::EnumNumber(0)), ..) => o.text.push_str("null"),
        (Some(v), ..) => {
            return Err(JsonError::at(
                at,
                format!("Value.null_value {v:?} has no JSON form (only NULL_VALUE, 0, is null)"),
            ));
        }
        (_, Some(Value::F64(x)), ..) => match serde_json::Number::from_f64(*x) {
            Some(n) => {
                let _ = write!(o.text, "{n}");
            }
            None => {
                return Err(JsonError::at(
                    at,
                    "a Value number must be finite (JSON has no NaN or Infinity)",
                ));
            }
        },
        (_, _, Some(Value::String(s)), ..) => quote_into(&mut o.text, s),
        (_, _, _, Some(Value::Bool(b)), ..) => o.text.push_str(if *b { "true" } else { "false" }),
        (_, _, _, _, Some(Value::Message(s)), _) | (_, _, _, _, _, Some(Value::Message(s))) => {
            let d = depth.next();
            d.check(at)?;
            match s.descriptor().full_name() {
                "google.protobuf.Struct" => struct_into(o, s, at, d, level)?,
                "google.protobuf.ListValue" => list_into(o, s, at, d, level)?,
                _ => {
                    return Err(JsonError::at(
                        at,
                        "a Value's struct or list is not a Struct or ListValue",
                    ));
                }
            }
        }
        _ => {
            return Err(JsonError::at(
                at,
                "a google.protobuf.Value with no kind set",
            ));
        }
    }
    Ok(())
}

/// An Any at `depth`: its payload is a message one level deeper (SPEC §9.3 counts it as
/// nested bytes), decoded with only the depth left, so a chain of Any holding Any stops
/// at the same limit as any other nesting instead of restarting it at each payload.
fn any_into(
    m: &DynamicMessage,
    o: &mut Out,
    at: &At<'_>,
    depth: Depth,
    level: usize,
) -> Result<(), JsonError> {
    let url = match m.get(1) {
        Some(Value::String(s)) => s.as_str(),
        _ => "",
    };
    let decoded;
    let inner = match m.get(2) {
        // Already decoded by `expand`.
        Some(Value::Message(done)) => &**done,
        other => {
            let bytes: &[u8] = match other {
                Some(Value::Bytes(b)) => b,
                _ => &[],
            };
            if url.is_empty() && bytes.is_empty() {
                o.text.push_str("{}");
                return Ok(());
            }
            let mut d = decode_payload(m.descriptor(), url, bytes, at, depth)?;
            expand(&mut d, at, depth.next())?;
            decoded = d;
            &decoded
        }
    };
    o.text.push('{');
    let mut first = true;
    o.item(&mut first, level);
    o.key("@type");
    quote_into(&mut o.text, url);
    let d = depth.next();
    if is_special(inner.descriptor().full_name()) {
        o.item(&mut first, level);
        o.key("value");
        to::message(o, inner, at, d, level + 1)?;
    } else {
        // The payload's own members, after "@type".
        d.check(at)?;
        to::members(o, inner, at, d, level, &mut first)?;
    }
    o.close(first, level, '}');
    Ok(())
}

/// The payload of an Any at `depth` whose type URL is `url`, decoded with the depth
/// left (the default limit, counted from the outermost message).
fn decode_payload(
    any: &MessageDescriptor,
    url: &str,
    bytes: &[u8],
    at: &At<'_>,
    depth: Depth,
) -> Result<DynamicMessage, JsonError> {
    let inner_desc = resolve(any, url, at)?;
    let left = depth.left();
    if left == 0 {
        return Err(depth.next().too_deep(at));
    }
    let opts = bijoubuf::DecodeOptions::new().max_depth(left);
    DynamicMessage::decode_with(&inner_desc, bytes, &opts)
        .map_err(|e| JsonError::at(at, format!("the Any value does not decode as {url}: {e}")))
}

/// In a message tree this module owns (decoded from an Any payload), replace each
/// Any's payload bytes by the message they decode to, dropping the bytes as soon as
/// they are decoded. Each payload is a copy of part of the one around it; kept all at
/// once, Any holding Any would cost the input's size once per level, while this way
/// at most two levels' bytes are alive. `m` sits at `depth`.
fn expand(m: &mut DynamicMessage, at: &At<'_>, depth: Depth) -> Result<(), JsonError> {
    depth.check(at)?;
    if m.descriptor().full_name() == "google.protobuf.Any" {
        let url = match m.get(1) {
            Some(Value::String(s)) => s.clone(),
            _ => String::new(),
        };
        let desc = m.descriptor().clone();
        if let Some((_, slot)) = m.fields.iter_mut().find(|(n, _)| *n == 2)
            && let Value::Bytes(b) = slot
        {
            let bytes = std::mem::take(b);
            let mut inner = decode_payload(&desc, &url, &bytes, at, depth)?;
            drop(bytes);
            expand(&mut inner, at, depth.next())?;
            *slot = Value::from(inner);
        }
        return Ok(());
    }
    for (_, v) in &mut m.fields {
        match v {
            Value::Message(inner) => expand(inner, at, depth.next())?,
            Value::List(items) => {
                for item in items {
                    if let Value::Message(inner) = item {
                        expand(inner, at, depth.next())?;
                    }
                }
            }
            Value::Map(entries) => {
                for (_, item) in entries {
                    if let Value::Message(inner) = item {
                        expand(inner, at, depth.next())?;
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn resolve(
    any: &MessageDescriptor,
    url: &str,
    at: &At<'_>,
) -> Result<MessageDescriptor, JsonError> {
    let name = url.rsplit('/').next().unwrap_or(url);
    if !url.contains('/') || name.is_empty() {
        return Err(JsonError::at(
            at,
            format!("type URL {url:?} is not of the form \"<host>/<message full name>\""),
        ));
    }
    any.pool().message(name).ok_or_else(|| {
        JsonError::at(
            at,
            format!("type URL {url:?} names no message of the schema"),
        )
    })
}

/// Parse the special JSON form of `desc`, or `None` for an ordinary message.
pub(crate) fn from_json(
    desc: &MessageDescriptor,
    j: &Json,
    at: &At<'_>,
    depth: Depth,
) -> Result<Option<DynamicMessage>, JsonError> {
    let name = desc.full_name();
    let mut m = DynamicMessage::new(desc.clone());
    if let Some(ty) = wrapper(name) {
        let v = from::scalar(ty, j, at)?;
        set(&mut m, 1, v, at)?;
        return Ok(Some(m));
    }
    let text = |what: &str| match j {
        Json::Str(s) => Ok(s.as_str()),
        _ => Err(JsonError::at(
            at,
            format!("expected {what} string, found {}", j.kind()),
        )),
    };
    match name {
        "google.protobuf.Timestamp" => {
            let (s, n) = parse_timestamp(text("an RFC 3339 timestamp")?).ok_or_else(|| {
                JsonError::at(at, "not an RFC 3339 timestamp between years 1 and 9999")
            })?;
            set(&mut m, 1, Value::I64(s), at)?;
            set(&mut m, 2, Value::I32(n), at)?;
        }
        "google.protobuf.Duration" => {
            let (s, n) = parse_duration(text("a duration (\"1.5s\")")?).ok_or_else(|| {
                JsonError::at(at, "not a duration such as \"1.5s\" within ±10000 years")
            })?;
            set(&mut m, 1, Value::I64(s), at)?;
            set(&mut m, 2, Value::I32(n), at)?;
        }
        "google.protobuf.FieldMask" => {
            let t = text("a field mask")?;
            let paths = if t.is_empty() {
                Vec::new()
            } else {
                t.split(',').map(|p| Value::String(snake(p))).collect()
            };
            set(&mut m, 1, Value::List(paths), at)?;
        }
        "google.protobuf.Struct" => {
            let Json::Obj(members) = j else {
                return Err(JsonError::at(
                    at,
                    format!("expected an object, found {}", j.kind()),
                ));
            };
            let value_desc = match desc.field(1).map(|f| f.kind()) {
                Some(Kind::Message(v)) => v,
                _ => return Err(JsonError::at(at, "Struct.fields is not a map of Value")),
            };
            let mut entries = Vec::with_capacity(members.len());
            for (k, v) in members {
                let p = At::Key(at, k);
                let value = value_from(&value_desc, v, &p, depth.next())?;
                entries.push((MapKey::String(k.clone()), Value::from(value)));
            }
            set(&mut m, 1, Value::Map(entries), at)?;
        }
        "google.protobuf.ListValue" => {
            let Json::Arr(items) = j else {
                return Err(JsonError::at(
                    at,
                    format!("expected an array, found {}", j.kind()),
                ));
            };
            let value_desc = sub(desc, 1)?;
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                out.push(Value::from(value_from(
                    &value_desc,
                    item,
                    &At::Index(at, i),
                    depth.next(),
                )?));
            }
            set(&mut m, 1, Value::List(out), at)?;
        }
        "google.protobuf.Value" => return value_from(desc, j, at, depth).map(Some),
        "google.protobuf.Any" => return any_from_json(desc, j, at, depth).map(Some),
        _ => return Ok(None),
    }
    Ok(Some(m))
}

/// google.protobuf.Value at `depth`.
fn value_from(
    desc: &MessageDescriptor,
    j: &Json,
    at: &At<'_>,
    depth: Depth,
) -> Result<DynamicMessage, JsonError> {
    depth.check(at)?;
    let mut m = DynamicMessage::new(desc.clone());
    match j {
        Json::Null => set(&mut m, 1, Value::EnumNumber(0), at)?,
        Json::Bool(b) => set(&mut m, 4, Value::Bool(*b), at)?,
        Json::Str(s) => set(&mut m, 3, Value::String(s.clone()), at)?,
        Json::Num(_) => {
            let x = from::scalar(ScalarType::Double, j, at)?;
            set(&mut m, 2, x, at)?;
        }
        Json::Obj(_) => {
            let s = from::message(&sub(desc, 5)?, j, at, depth.next())?;
            set(&mut m, 5, Value::from(s), at)?;
        }
        Json::Arr(_) => {
            let l = from::message(&sub(desc, 6)?, j, at, depth.next())?;
            set(&mut m, 6, Value::from(l), at)?;
        }
    }
    Ok(m)
}

/// An Any at `depth`: its payload is a message one level deeper, as when writing.
fn any_from_json(
    desc: &MessageDescriptor,
    j: &Json,
    at: &At<'_>,
    depth: Depth,
) -> Result<DynamicMessage, JsonError> {
    let Json::Obj(members) = j else {
        return Err(JsonError::at(
            at,
            format!("expected an object, found {}", j.kind()),
        ));
    };
    let mut m = DynamicMessage::new(desc.clone());
    let Some((_, ty)) = members.iter().find(|(k, _)| k == "@type") else {
        if members.is_empty() {
            return Ok(m);
        }
        return Err(JsonError::at(at, "an Any with fields needs \"@type\""));
    };
    let Json::Str(url) = ty else {
        return Err(JsonError::at(
            &At::Key(at, "@type"),
            "expected a type URL string",
        ));
    };
    let inner_desc = resolve(desc, url, at)?;
    // The other members, by reference: a copy per level would make Any holding Any cost
    // the input's size once per level.
    let mut rest = members.iter().filter(|(k, _)| k != "@type");
    let inner = if is_special(inner_desc.full_name()) {
        match (rest.next(), rest.next()) {
            (Some((k, v)), None) if k == "value" => {
                from::message(&inner_desc, v, &At::Key(at, "value"), depth.next())?
            }
            _ => {
                return Err(JsonError::at(
                    at,
                    format!(
                        "an Any holding {} has exactly one other key, \"value\"",
                        inner_desc.full_name()
                    ),
                ));
            }
        }
    } else {
        depth.next().check(at)?;
        from::fields(&inner_desc, rest, at, depth.next())?
    };
    // The payload sits one level below this Any: it may use the depth left.
    let bytes = inner
        .encode_with_max_depth(depth.left().max(1))
        .map_err(|e| JsonError::at(at, e.to_string()))?;
    set(&mut m, 1, Value::String(url.clone()), at)?;
    set(&mut m, 2, Value::Bytes(bytes), at)?;
    Ok(m)
}

// ----- FieldMask paths -----

/// One FieldMask path as its JSON spelling, or a refusal when proto3 JSON cannot spell
/// it: reading the mask back splits at commas and turns each capital into `_` plus the
/// lower-case letter, so only a non-empty path without commas whose lowerCamelCase form
/// converts back to exactly it survives (not `""`, `"a,b"`, `"fooBar"`, `"a__b"`,
/// `"a_1"`).
fn mask_path_json(p: &str, at: &At<'_>) -> Result<String, JsonError> {
    let c = camel(p);
    if p.is_empty() || p.contains(',') || snake(&c) != p {
        return Err(JsonError::at(
            at,
            format!("FieldMask path {p:?} has no proto3 JSON spelling that reads back as it"),
        ));
    }
    Ok(c)
}

/// `foo_bar.baz_qux` → `fooBar.bazQux`.
fn camel(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut up = false;
    for c in path.chars() {
        if c == '_' {
            up = true;
        } else if up {
            out.extend(c.to_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// `fooBar.bazQux` → `foo_bar.baz_qux`.
fn snake(path: &str) -> String {
    let mut out = String::with_capacity(path.len() + 4);
    for c in path.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_mask_paths() {
        assert_eq!(camel("user.display_name"), "user.displayName");
        assert_eq!(snake("user.displayName"), "user.display_name");
        assert_eq!(
            mask_path_json("user.display_name", &At::Root).as_deref(),
            Ok("user.displayName")
        );
        for bad in ["", "fooBar", "a,b", "a__b", "a_1", "a_", "a_\u{e9}"] {
            assert!(mask_path_json(bad, &At::Root).is_err(), "{bad:?}");
        }
    }
}
