//! `[default = …]` values: type-checked and written in protoc's text form.

use crate::ast::{Value, ValueKind};
use crate::model::ScalarType;

/// protoc's `%g`-style float text with `precision` significant digits.
fn format_g(v: f64, precision: usize) -> String {
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if v == 0.0 {
        return if v.is_sign_negative() {
            "-0".into()
        } else {
            "0".into()
        };
    }
    let sci = format!("{:.*e}", precision - 1, v);
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if exp < -4 || exp >= precision as i32 {
        let m = trim_zeros(mantissa);
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{m}e{sign}{:02}", exp.abs())
    } else {
        let decimals = (precision as i32 - 1 - exp).max(0) as usize;
        trim_zeros(&format!("{v:.decimals$}")).to_string()
    }
}

fn trim_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

/// Shortest of 15 or 17 significant digits that reads back exactly (protoc's SimpleDtoa).
pub(crate) fn format_double(v: f64) -> String {
    let short = format_g(v, 15);
    if short.parse::<f64>().ok() == Some(v) || v.is_nan() {
        short
    } else {
        format_g(v, 17)
    }
}

/// protoc's SimpleFtoa: 6 or 9 significant digits of the f32 value.
pub(crate) fn format_float(v: f32) -> String {
    let short = format_g(f64::from(v), 6);
    if short.parse::<f32>().ok() == Some(v) || v.is_nan() {
        short
    } else {
        format_g(f64::from(v), 9)
    }
}

/// The bytes of a C-escaped string: a bytes field's default as descriptors hold it
/// (protoc's `CEscape`), or `None` for an escape protoc neither writes nor reads.
///
/// ```
/// assert_eq!(bijoubuf_schema::c_unescape(r"\001a\x7f\n"), Some(vec![1, b'a', 0x7f, b'\n']));
/// assert_eq!(bijoubuf_schema::c_unescape(r"\400"), None);
/// ```
pub fn c_unescape(s: &str) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    let digits = |from: usize, max: usize, radix: u32| {
        b[from..]
            .iter()
            .take(max)
            .take_while(|c| char::from(**c).is_digit(radix))
            .count()
    };
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let c = *b.get(i + 1)?;
        i += 2;
        match c {
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'a' => out.push(7),
            b'b' => out.push(8),
            b'f' => out.push(12),
            b'v' => out.push(11),
            b'\\' | b'\'' | b'"' | b'?' => out.push(c),
            b'0'..=b'7' => {
                let n = digits(i - 1, 3, 8);
                let v = u32::from_str_radix(&s[i - 1..i - 1 + n], 8).ok()?;
                out.push(u8::try_from(v).ok()?);
                i += n - 1;
            }
            b'x' | b'X' => {
                let n = digits(i, 2, 16);
                if n == 0 {
                    return None;
                }
                out.push(u8::from_str_radix(&s[i..i + n], 16).ok()?);
                i += n;
            }
            _ => return None,
        }
    }
    Some(out)
}

/// protoc's C escaping of bytes defaults.
pub(crate) fn c_escape(bytes: &[u8]) -> String {
    let mut out = String::new();
    for &b in bytes {
        match b {
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            b'"' => out.push_str("\\\""),
            b'\'' => out.push_str("\\'"),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\{b:03o}")),
        }
    }
    out
}

/// An integer constant as i128 (wide enough for every 64-bit type).
pub(crate) fn int_of(v: &Value) -> Option<i128> {
    match v.kind {
        ValueKind::Int {
            negative,
            magnitude,
            ..
        } => {
            let m = i128::from(magnitude);
            Some(if negative { -m } else { m })
        }
        _ => None,
    }
}

/// A float constant: numbers, `inf`, `nan`.
pub(crate) fn float_of(v: &Value) -> Option<f64> {
    match &v.kind {
        ValueKind::Float(f) => Some(*f),
        // `-0` is negative zero, as protoc reads it ("-0" in descriptors).
        ValueKind::Int {
            negative: true,
            magnitude: 0,
            ..
        } => Some(-0.0),
        ValueKind::Int { .. } => int_of(v).map(|i| i as f64),
        ValueKind::Ident(w) if w == "inf" || w == "infinity" => Some(f64::INFINITY),
        ValueKind::Ident(w) if w == "nan" => Some(f64::NAN),
        _ => None,
    }
}

/// The range of an integer scalar type.
pub(crate) fn int_range(t: ScalarType) -> Option<(i128, i128)> {
    use ScalarType::*;
    Some(match t {
        Int32 | Sint32 | Sfixed32 => (i128::from(i32::MIN), i128::from(i32::MAX)),
        Int64 | Sint64 | Sfixed64 => (i128::from(i64::MIN), i128::from(i64::MAX)),
        Uint32 | Fixed32 => (0, i128::from(u32::MAX)),
        Uint64 | Fixed64 => (0, i128::from(u64::MAX)),
        _ => return None,
    })
}

/// Checks a scalar default; Ok is protoc's text form, Err says what was expected.
pub(crate) fn scalar_default(t: ScalarType, v: &Value) -> Result<String, String> {
    use ScalarType::*;
    if let Some((lo, hi)) = int_range(t) {
        return match int_of(v) {
            Some(i) if i >= lo && i <= hi => Ok(i.to_string()),
            // Also a decimal literal past 64 bits, which the parser reads as a double.
            _ => Err(format!("an integer in {lo}..={hi} for {}", t.keyword())),
        };
    }
    match t {
        Double => float_of(v)
            .map(format_double)
            .ok_or_else(|| "a number for double".to_string()),
        Float => float_of(v)
            .map(|f| format_float(f as f32))
            .ok_or_else(|| "a number for float".to_string()),
        Bool => match &v.kind {
            ValueKind::Ident(w) if w == "true" || w == "false" => Ok(w.clone()),
            _ => Err("`true` or `false`".into()),
        },
        String => match &v.kind {
            ValueKind::Str(b) => std::str::from_utf8(b)
                .map(str::to_string)
                .map_err(|_| "valid UTF-8 text".to_string()),
            _ => Err("a string".into()),
        },
        Bytes => match &v.kind {
            ValueKind::Str(b) => Ok(c_escape(b)),
            _ => Err("a string".into()),
        },
        _ => Err("a value".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_escaped_bytes_defaults() {
        assert_eq!(c_unescape(r"\001\002ab").unwrap(), [1, 2, b'a', b'b']);
        assert_eq!(c_unescape(r#"\n\t\\\"x"#).unwrap(), b"\n\t\\\"x");
        assert_eq!(c_unescape(r"\377").unwrap(), [255]);
        assert_eq!(c_unescape(r"\x41\a\v").unwrap(), [b'A', 7, 11]);
        assert!(c_unescape(r"\400").is_none());
        assert!(c_unescape(r"\x").is_none());
        assert!(c_unescape("\\").is_none());
        assert_eq!(
            c_unescape(&c_escape(&[0, 1, b'"', 0xff, b'\\'])).unwrap(),
            [0, 1, b'"', 0xff, b'\\']
        );
    }

    #[test]
    fn floats_like_protoc() {
        assert_eq!(format_double(1.5), "1.5");
        assert_eq!(format_double(1e10), "10000000000");
        assert_eq!(format_double(1e20), "1e+20");
        assert_eq!(format_double(0.1), "0.1");
        assert_eq!(format_double(1e-5), "1e-05");
        assert_eq!(format_double(-2.0), "-2");
        assert_eq!(format_float(0.1), "0.1");
        assert_eq!(format_double(f64::NEG_INFINITY), "-inf");
    }

    #[test]
    fn bytes_escape() {
        assert_eq!(c_escape(b"a\x01\"\n"), "a\\001\\\"\\n");
    }
}
