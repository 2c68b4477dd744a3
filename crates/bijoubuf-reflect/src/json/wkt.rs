//! The special JSON forms of the well-known types (google.protobuf.*).
//!
//! On the wire these are ordinary messages (SPEC §4.4); only their JSON differs.

use bijoubuf_schema::ScalarType;

use super::JsonError;
use super::from;
use super::to;
use super::tree::{Json, Num};
use crate::descriptor::{Kind, MessageDescriptor};
use crate::value::{DynamicMessage, MapKey, Value};

/// Seconds of 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, the Timestamp range.
const TS_MIN: i64 = -62_135_596_800;
const TS_MAX: i64 = 253_402_300_799;
/// ±10000 years, the Duration range.
const DUR_MAX: i64 = 315_576_000_000;

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

fn set(m: &mut DynamicMessage, n: u32, v: Value, path: &str) -> Result<(), JsonError> {
    m.set(n, v).map_err(|e| JsonError::new(path, e.to_string()))
}

/// The special JSON of `m`, or `None` for an ordinary message.
pub(crate) fn to_json(m: &DynamicMessage, path: &str) -> Result<Option<Json>, JsonError> {
    let desc = m.descriptor();
    let name = desc.full_name();
    if let Some(ty) = wrapper(name) {
        let kind = Kind::Scalar(ty);
        let v = match m.get(1) {
            Some(v) => v.clone(),
            None => Value::default_of(crate::descriptor::Ty::Scalar(ty), desc),
        };
        return to::element(&kind, &v, path).map(Some);
    }
    Ok(Some(match name {
        "google.protobuf.Timestamp" => Json::Str(timestamp_text(int(m, 1), int(m, 2), path)?),
        "google.protobuf.Duration" => Json::Str(duration_text(int(m, 1), int(m, 2), path)?),
        "google.protobuf.FieldMask" => {
            let paths: Vec<String> = match m.get(1) {
                Some(Value::List(items)) => items
                    .iter()
                    .filter_map(|v| match v {
                        Value::String(s) => Some(camel(s)),
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            };
            Json::Str(paths.join(","))
        }
        "google.protobuf.Struct" => match m.get(1) {
            Some(Value::Map(entries)) => Json::Obj(
                entries
                    .iter()
                    .map(|(k, v)| {
                        let key = to::key_string(k);
                        let p = super::tree::member_path(path, &key);
                        Ok((key, value_json(v, &p)?))
                    })
                    .collect::<Result<_, JsonError>>()?,
            ),
            _ => Json::Obj(Vec::new()),
        },
        "google.protobuf.ListValue" => match m.get(1) {
            Some(Value::List(items)) => Json::Arr(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, v)| value_json(v, &format!("{path}[{i}]")))
                    .collect::<Result<_, _>>()?,
            ),
            _ => Json::Arr(Vec::new()),
        },
        "google.protobuf.Value" => value_of(m, path)?,
        "google.protobuf.Any" => any_to_json(m, path)?,
        _ => return Ok(None),
    }))
}

fn value_json(v: &Value, path: &str) -> Result<Json, JsonError> {
    match v {
        Value::Message(m) => value_of(m, path),
        _ => Err(JsonError::new(path, "expected a google.protobuf.Value")),
    }
}

/// google.protobuf.Value: whichever member of `kind` is set.
fn value_of(m: &DynamicMessage, path: &str) -> Result<Json, JsonError> {
    Ok(
        match (m.get(1), m.get(2), m.get(3), m.get(4), m.get(5), m.get(6)) {
            (Some(_), ..) => Json::Null,
            (_, Some(Value::F64(x)), ..) => {
                if !x.is_finite() {
                    return Err(JsonError::new(
                        path,
                        "a Value number must be finite (JSON has no NaN or Infinity)",
                    ));
                }
                Json::Num(Num::F(*x))
            }
            (_, _, Some(Value::String(s)), ..) => Json::Str(s.clone()),
            (_, _, _, Some(Value::Bool(b)), ..) => Json::Bool(*b),
            (_, _, _, _, Some(Value::Message(s)), _) | (_, _, _, _, _, Some(Value::Message(s))) => {
                to::message(s, path)?
            }
            _ => {
                return Err(JsonError::new(
                    path,
                    "a google.protobuf.Value with no kind set",
                ));
            }
        },
    )
}

fn any_to_json(m: &DynamicMessage, path: &str) -> Result<Json, JsonError> {
    let url = match m.get(1) {
        Some(Value::String(s)) => s.as_str(),
        _ => "",
    };
    let bytes: &[u8] = match m.get(2) {
        Some(Value::Bytes(b)) => b,
        _ => &[],
    };
    if url.is_empty() && bytes.is_empty() {
        return Ok(Json::Obj(Vec::new()));
    }
    let inner_desc = resolve(m.descriptor(), url, path)?;
    let inner = DynamicMessage::decode(&inner_desc, bytes).map_err(|e| {
        JsonError::new(path, format!("the Any value does not decode as {url}: {e}"))
    })?;
    let mut members = vec![("@type".to_string(), Json::Str(url.to_string()))];
    let j = to::message(&inner, path)?;
    match j {
        Json::Obj(fields) if !is_special(inner_desc.full_name()) => members.extend(fields),
        other => members.push(("value".to_string(), other)),
    }
    Ok(Json::Obj(members))
}

fn resolve(any: &MessageDescriptor, url: &str, path: &str) -> Result<MessageDescriptor, JsonError> {
    let name = url.rsplit('/').next().unwrap_or(url);
    if !url.contains('/') || name.is_empty() {
        return Err(JsonError::new(
            path,
            format!("type URL {url:?} is not of the form \"<host>/<message full name>\""),
        ));
    }
    any.pool().message(name).ok_or_else(|| {
        JsonError::new(
            path,
            format!("type URL {url:?} names no message of the schema"),
        )
    })
}

/// Parse the special JSON form of `desc`, or `None` for an ordinary message.
pub(crate) fn from_json(
    desc: &MessageDescriptor,
    j: &Json,
    path: &str,
) -> Result<Option<DynamicMessage>, JsonError> {
    let name = desc.full_name();
    let mut m = DynamicMessage::new(desc.clone());
    if let Some(ty) = wrapper(name) {
        let v = from::scalar(ty, j, path)?;
        set(&mut m, 1, v, path)?;
        return Ok(Some(m));
    }
    let text = |what: &str| match j {
        Json::Str(s) => Ok(s.as_str()),
        _ => Err(JsonError::new(
            path,
            format!("expected {what} string, found {}", j.kind()),
        )),
    };
    match name {
        "google.protobuf.Timestamp" => {
            let (s, n) = parse_timestamp(text("an RFC 3339 timestamp")?).ok_or_else(|| {
                JsonError::new(path, "not an RFC 3339 timestamp between years 1 and 9999")
            })?;
            set(&mut m, 1, Value::I64(s), path)?;
            set(&mut m, 2, Value::I32(n), path)?;
        }
        "google.protobuf.Duration" => {
            let (s, n) = parse_duration(text("a duration (\"1.5s\")")?).ok_or_else(|| {
                JsonError::new(path, "not a duration such as \"1.5s\" within ±10000 years")
            })?;
            set(&mut m, 1, Value::I64(s), path)?;
            set(&mut m, 2, Value::I32(n), path)?;
        }
        "google.protobuf.FieldMask" => {
            let t = text("a field mask")?;
            let paths = if t.is_empty() {
                Vec::new()
            } else {
                t.split(',').map(|p| Value::String(snake(p))).collect()
            };
            set(&mut m, 1, Value::List(paths), path)?;
        }
        "google.protobuf.Struct" => {
            let Json::Obj(members) = j else {
                return Err(JsonError::new(
                    path,
                    format!("expected an object, found {}", j.kind()),
                ));
            };
            let value_desc = match desc.field(1).map(|f| f.kind()) {
                Some(Kind::Message(v)) => v,
                _ => return Err(JsonError::new(path, "Struct.fields is not a map of Value")),
            };
            let mut entries = std::collections::BTreeMap::new();
            for (k, v) in members {
                let p = super::tree::member_path(path, k);
                let value = value_from(&value_desc, v, &p)?;
                entries.insert(MapKey::String(k.clone()), Value::Message(value));
            }
            set(&mut m, 1, Value::Map(entries), path)?;
        }
        "google.protobuf.ListValue" => {
            let Json::Arr(items) = j else {
                return Err(JsonError::new(
                    path,
                    format!("expected an array, found {}", j.kind()),
                ));
            };
            let value_desc = sub(desc, 1)?;
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                out.push(Value::Message(value_from(
                    &value_desc,
                    item,
                    &format!("{path}[{i}]"),
                )?));
            }
            set(&mut m, 1, Value::List(out), path)?;
        }
        "google.protobuf.Value" => return value_from(desc, j, path).map(Some),
        "google.protobuf.Any" => return any_from_json(desc, j, path).map(Some),
        _ => return Ok(None),
    }
    Ok(Some(m))
}

fn value_from(desc: &MessageDescriptor, j: &Json, path: &str) -> Result<DynamicMessage, JsonError> {
    let mut m = DynamicMessage::new(desc.clone());
    match j {
        Json::Null => set(&mut m, 1, Value::EnumNumber(0), path)?,
        Json::Bool(b) => set(&mut m, 4, Value::Bool(*b), path)?,
        Json::Str(s) => set(&mut m, 3, Value::String(s.clone()), path)?,
        Json::Num(_) => {
            let x = from::scalar(ScalarType::Double, j, path)?;
            set(&mut m, 2, x, path)?;
        }
        Json::Obj(_) => {
            let s = from::message(&sub(desc, 5)?, j, path)?;
            set(&mut m, 5, Value::Message(s), path)?;
        }
        Json::Arr(_) => {
            let l = from::message(&sub(desc, 6)?, j, path)?;
            set(&mut m, 6, Value::Message(l), path)?;
        }
    }
    Ok(m)
}

fn any_from_json(
    desc: &MessageDescriptor,
    j: &Json,
    path: &str,
) -> Result<DynamicMessage, JsonError> {
    let Json::Obj(members) = j else {
        return Err(JsonError::new(
            path,
            format!("expected an object, found {}", j.kind()),
        ));
    };
    let mut m = DynamicMessage::new(desc.clone());
    let Some((_, ty)) = members.iter().find(|(k, _)| k == "@type") else {
        if members.is_empty() {
            return Ok(m);
        }
        return Err(JsonError::new(path, "an Any with fields needs \"@type\""));
    };
    let Json::Str(url) = ty else {
        return Err(JsonError::new(
            &format!("{path}.@type"),
            "expected a type URL string",
        ));
    };
    let inner_desc = resolve(desc, url, path)?;
    let rest: Vec<(String, Json)> = members
        .iter()
        .filter(|(k, _)| k != "@type")
        .cloned()
        .collect();
    let inner = if is_special(inner_desc.full_name()) {
        match rest.as_slice() {
            [(k, v)] if k == "value" => from::message(&inner_desc, v, &format!("{path}.value"))?,
            _ => {
                return Err(JsonError::new(
                    path,
                    format!(
                        "an Any holding {} has exactly one other key, \"value\"",
                        inner_desc.full_name()
                    ),
                ));
            }
        }
    } else {
        from::fields(&inner_desc, &rest, path)?
    };
    let bytes = inner
        .encode()
        .map_err(|e| JsonError::new(path, e.to_string()))?;
    set(&mut m, 1, Value::String(url.clone()), path)?;
    set(&mut m, 2, Value::Bytes(bytes), path)?;
    Ok(m)
}

// ----- Timestamp and Duration text -----

fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    // Days since 1970-01-01 in the proleptic Gregorian calendar, years counted from
    // March so the leap day ends the year.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// 0, 3, 6 or 9 fractional digits, as proto3 JSON writes them.
fn fraction(nanos: i64) -> String {
    if nanos == 0 {
        String::new()
    } else if nanos % 1_000_000 == 0 {
        format!(".{:03}", nanos / 1_000_000)
    } else if nanos % 1000 == 0 {
        format!(".{:06}", nanos / 1000)
    } else {
        format!(".{nanos:09}")
    }
}

fn timestamp_text(seconds: i64, nanos: i64, path: &str) -> Result<String, JsonError> {
    if !(TS_MIN..=TS_MAX).contains(&seconds) || !(0..1_000_000_000).contains(&nanos) {
        return Err(JsonError::new(
            path,
            format!("Timestamp {seconds}s {nanos}ns is outside 0001-01-01 to 9999-12-31"),
        ));
    }
    let (y, mo, d) = civil_from_days(seconds.div_euclid(86_400));
    let t = seconds.rem_euclid(86_400);
    Ok(format!(
        "{y:04}-{mo:02}-{d:02}T{:02}:{:02}:{:02}{}Z",
        t / 3600,
        t / 60 % 60,
        t % 60,
        fraction(nanos)
    ))
}

fn digits(s: &[u8]) -> Option<i64> {
    if s.is_empty() || !s.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(s).ok()?.parse().ok()
}

/// `.123` (1 to 9 digits) → nanoseconds; returns the rest of the input.
fn parse_fraction(s: &[u8]) -> Option<(i64, &[u8])> {
    let Some(rest) = s.strip_prefix(b".") else {
        return Some((0, s));
    };
    let n = rest.iter().take_while(|c| c.is_ascii_digit()).count();
    if n == 0 || n > 9 {
        return None;
    }
    let v = digits(&rest[..n])? * 10_i64.pow(9 - n as u32);
    Some((v, &rest[n..]))
}

fn parse_timestamp(text: &str) -> Option<(i64, i32)> {
    let b = text.as_bytes();
    if b.len() < 20
        || b[4] != b'-'
        || b[7] != b'-'
        || !matches!(b[10], b'T' | b't')
        || b[13] != b':'
        || b[16] != b':'
    {
        return None;
    }
    let (y, mo, d) = (digits(&b[0..4])?, digits(&b[5..7])?, digits(&b[8..10])?);
    let (h, mi, s) = (
        digits(&b[11..13])?,
        digits(&b[14..16])?,
        digits(&b[17..19])?,
    );
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let month_days = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if y < 1
        || !(1..=12).contains(&mo)
        || d < 1
        || d > month_days[(mo - 1) as usize]
        || h > 23
        || mi > 59
        || s > 59
    {
        return None;
    }
    let (nanos, rest) = parse_fraction(&b[19..])?;
    let offset = match rest {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), oh1, oh2, b':', om1, om2] => {
            let (oh, om) = (digits(&[*oh1, *oh2])?, digits(&[*om1, *om2])?);
            if oh > 23 || om > 59 {
                return None;
            }
            let o = oh * 3600 + om * 60;
            if *sign == b'-' { -o } else { o }
        }
        _ => return None,
    };
    let seconds = days_from_civil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + s - offset;
    if !(TS_MIN..=TS_MAX).contains(&seconds) {
        return None;
    }
    Some((seconds, nanos as i32))
}

fn duration_text(seconds: i64, nanos: i64, path: &str) -> Result<String, JsonError> {
    let same_sign = seconds == 0 || nanos == 0 || (seconds < 0) == (nanos < 0);
    if seconds.abs() > DUR_MAX || nanos.abs() >= 1_000_000_000 || !same_sign {
        return Err(JsonError::new(
            path,
            format!("Duration {seconds}s {nanos}ns is out of range or mixes signs"),
        ));
    }
    let sign = if seconds < 0 || nanos < 0 { "-" } else { "" };
    Ok(format!("{sign}{}{}s", seconds.abs(), fraction(nanos.abs())))
}

fn parse_duration(text: &str) -> Option<(i64, i32)> {
    let b = text.as_bytes();
    let (neg, b) = match b.strip_prefix(b"-") {
        Some(rest) => (true, rest),
        None => (false, b),
    };
    let b = b.strip_suffix(b"s")?;
    let n = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let secs = digits(&b[..n])?;
    let (nanos, rest) = parse_fraction(&b[n..])?;
    if !rest.is_empty() || secs > DUR_MAX {
        return None;
    }
    if neg {
        Some((-secs, -(nanos as i32)))
    } else {
        Some((secs, nanos as i32))
    }
}

// ----- FieldMask paths -----

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
    fn civil_days_round_trip_at_the_range_ends() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(1, 1, 1) * 86_400, TS_MIN);
        assert_eq!(days_from_civil(9999, 12, 31) * 86_400 + 86_399, TS_MAX);
        for z in [-719_162, -1, 0, 59, 365, 11_016, 2_932_896] {
            let (y, m, d) = civil_from_days(z);
            assert_eq!(days_from_civil(y, m, d), z, "day {z}");
        }
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn timestamps() {
        assert_eq!(
            timestamp_text(0, 0, "").as_deref(),
            Ok("1970-01-01T00:00:00Z")
        );
        assert_eq!(
            timestamp_text(1_700_000_000, 500_000_000, "").as_deref(),
            Ok("2023-11-14T22:13:20.500Z")
        );
        assert_eq!(
            timestamp_text(-1, 1000, "").as_deref(),
            Ok("1969-12-31T23:59:59.000001Z")
        );
        assert!(timestamp_text(TS_MAX + 1, 0, "").is_err());
        assert_eq!(
            parse_timestamp("2023-11-14T22:13:20.5Z"),
            Some((1_700_000_000, 500_000_000))
        );
        assert_eq!(
            parse_timestamp("2023-11-14T23:13:20+01:00"),
            Some((1_700_000_000, 0))
        );
        assert_eq!(parse_timestamp("0001-01-01T00:00:00Z"), Some((TS_MIN, 0)));
        for bad in [
            "2023-02-29T00:00:00Z",
            "2023-11-14 22:13:20Z",
            "2023-11-14T22:13:20",
            "2023-11-14T22:13:20.Z",
            "2023-11-14T22:13:20.1234567890Z",
            "0000-12-31T00:00:00Z",
        ] {
            assert_eq!(parse_timestamp(bad), None, "{bad}");
        }
    }

    #[test]
    fn durations() {
        assert_eq!(duration_text(1, 500_000_000, "").as_deref(), Ok("1.500s"));
        assert_eq!(duration_text(0, -1, "").as_deref(), Ok("-0.000000001s"));
        assert_eq!(duration_text(-3, 0, "").as_deref(), Ok("-3s"));
        assert!(duration_text(1, -1, "").is_err());
        assert_eq!(parse_duration("1.5s"), Some((1, 500_000_000)));
        assert_eq!(parse_duration("-0.000000001s"), Some((0, -1)));
        for bad in ["1.5", "s", "-s", "1.s", "+1s", "315576000001s"] {
            assert_eq!(parse_duration(bad), None, "{bad}");
        }
    }

    #[test]
    fn field_mask_paths() {
        assert_eq!(camel("user.display_name"), "user.displayName");
        assert_eq!(snake("user.displayName"), "user.display_name");
    }
}
