//! Message → JSON text, written as the message is walked: no tree of the output is built
//! (a tree costs tens of bytes per element of a long run before any text exists), for
//! the well-known types' special forms too (`wkt`).

use std::fmt::Write as _;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

use super::tree;
use super::wkt;
use super::{At, Depth, JsonError};
use crate::descriptor::{FieldShape, Kind};
use crate::value::{DynamicMessage, MapKey, Value};

/// The output text and its layout.
pub(crate) struct Out {
    pub(crate) text: String,
    indent: Option<usize>,
}

impl Out {
    pub(crate) fn new(indent: Option<usize>) -> Self {
        Out {
            text: String::new(),
            indent,
        }
    }

    /// Before the `first`-th member or element of a container at `level`: the comma and
    /// the line break.
    pub(crate) fn item(&mut self, first: &mut bool, level: usize) {
        if !std::mem::take(first) {
            self.text.push(',');
        }
        tree::newline(&mut self.text, self.indent, level + 1);
    }

    /// A member's key and colon, after [`item`](Self::item).
    pub(crate) fn key(&mut self, key: &str) {
        tree::quote_into(&mut self.text, key);
        self.text.push(':');
        if self.indent.is_some() {
            self.text.push(' ');
        }
    }

    /// The end of a container at `level` (`first` still set: it had no items).
    pub(crate) fn close(&mut self, first: bool, level: usize, c: char) {
        if !first {
            tree::newline(&mut self.text, self.indent, level);
        }
        self.text.push(c);
    }
}

/// Message `m` (at `depth`, written at indentation `level`); `at` is where it sits in the
/// output, for errors.
pub(crate) fn message(
    o: &mut Out,
    m: &DynamicMessage,
    at: &At<'_>,
    depth: Depth,
    level: usize,
) -> Result<(), JsonError> {
    depth.check(at)?;
    if wkt::special(m, o, at, depth, level)? {
        return Ok(());
    }
    o.text.push('{');
    let mut first = true;
    members(o, m, at, depth, level, &mut first)?;
    o.close(first, level, '}');
    Ok(())
}

/// The members of ordinary message `m` (at `depth`) into an object at `level` that is
/// open already; `first` says whether it holds any member yet.
pub(crate) fn members(
    o: &mut Out,
    m: &DynamicMessage,
    at: &At<'_>,
    depth: Depth,
    level: usize,
    first: &mut bool,
) -> Result<(), JsonError> {
    for (f, v) in m.fields() {
        let name = f.json_name();
        let here = At::Key(at, name);
        let kind = f.kind();
        o.item(first, level);
        o.key(name);
        let inner = level + 1;
        match (f.shape(), v) {
            (FieldShape::Repeated, Value::List(items)) => {
                o.text.push('[');
                let mut none = true;
                for (i, item) in items.iter().enumerate() {
                    o.item(&mut none, inner);
                    element(o, &kind, item, &At::Index(&here, i), depth, inner + 1)?;
                }
                o.close(none, inner, ']');
            }
            (FieldShape::Repeated, Value::Scalars(items)) => {
                o.text.push('[');
                let mut none = true;
                for (i, item) in items.iter().enumerate() {
                    o.item(&mut none, inner);
                    element(o, &kind, &item, &At::Index(&here, i), depth, inner + 1)?;
                }
                o.close(none, inner, ']');
            }
            (FieldShape::Map(_), Value::Map(entries)) => {
                o.text.push('{');
                let mut none = true;
                // Integer keys are spelled into one buffer per map, not a string each.
                let mut digits = String::new();
                for (k, item) in entries {
                    let key = key_text(k, &mut digits);
                    o.item(&mut none, inner);
                    o.key(key);
                    element(o, &kind, item, &At::Key(&here, key), depth, inner + 1)?;
                }
                o.close(none, inner, '}');
            }
            _ => element(o, &kind, v, &here, depth, inner)?,
        }
    }
    Ok(())
}

/// A map key as the JSON object key's text: a string key itself, any other spelled into
/// `digits`.
fn key_text<'k>(k: &'k MapKey, digits: &'k mut String) -> &'k str {
    digits.clear();
    // `write!` into a `String` cannot fail.
    let _ = match k {
        MapKey::String(s) => return s,
        MapKey::Bool(b) => write!(digits, "{b}"),
        MapKey::I32(v) => write!(digits, "{v}"),
        MapKey::I64(v) => write!(digits, "{v}"),
        MapKey::U32(v) => write!(digits, "{v}"),
        MapKey::U64(v) => write!(digits, "{v}"),
    };
    digits
}

/// A map key as the JSON object key.
pub(crate) fn key_string(k: &MapKey) -> String {
    match k {
        MapKey::String(s) => s.clone(),
        _ => {
            let mut digits = String::new();
            key_text(k, &mut digits);
            digits
        }
    }
}

/// One value of element type `kind`, in a message at `depth`, written at `level`.
pub(crate) fn element(
    o: &mut Out,
    kind: &Kind,
    v: &Value,
    at: &At<'_>,
    depth: Depth,
    level: usize,
) -> Result<(), JsonError> {
    let t = &mut o.text;
    // `write!` into a `String` cannot fail.
    match v {
        Value::Bool(b) => t.push_str(if *b { "true" } else { "false" }),
        Value::I32(x) => {
            let _ = write!(t, "{x}");
        }
        Value::U32(x) => {
            let _ = write!(t, "{x}");
        }
        // 64-bit integers are strings: JSON numbers are doubles in many readers.
        Value::I64(x) => {
            let _ = write!(t, "\"{x}\"");
        }
        Value::U64(x) => {
            let _ = write!(t, "\"{x}\"");
        }
        Value::F32(x) => float(t, f64::from(*x), |t| f32_text(t, *x)),
        Value::F64(x) => float(t, *x, |t| match serde_json::Number::from_f64(*x) {
            Some(n) => {
                let _ = write!(t, "{n}");
            }
            None => {
                let _ = write!(t, "{x}");
            }
        }),
        Value::String(s) => tree::quote_into(t, s),
        Value::Bytes(b) => {
            t.push('"');
            STANDARD.encode_string(b, t);
            t.push('"');
        }
        Value::EnumNumber(n) => match kind {
            // JSON `null` reads back as NULL_VALUE (0); another number has no spelling.
            Kind::Enum(e) if e.full_name() == "google.protobuf.NullValue" => {
                if *n != 0 {
                    return Err(JsonError::at(
                        at,
                        format!("NullValue {n} has no JSON form (only NULL_VALUE, 0, is null)"),
                    ));
                }
                t.push_str("null");
            }
            Kind::Enum(e) => match e.name_of(*n) {
                Some(name) => tree::quote_into(t, name),
                None => {
                    let _ = write!(t, "{n}");
                }
            },
            _ => {
                let _ = write!(t, "{n}");
            }
        },
        Value::Message(m) => message(o, m, at, depth.next(), level)?,
        Value::List(_) | Value::Scalars(_) | Value::Map(_) => {
            return Err(JsonError::at(at, "a list or map where an element belongs"));
        }
    }
    Ok(())
}

/// A finite `float` as protobuf's JSON prints it (Python `json_format`, checked value by
/// value): the value rounded to the fewest significant digits that read back as the same
/// f32, a tie rounded to the even digit (`0.29101562` for 0.291015625, where the shortest
/// digits could as well end in 3; `1.26217745e-29` for 2⁻⁹⁶, whose eight-digit rounding
/// reads back as another f32), written positionally for decimal exponents −4 to 15 with
/// `.0` on an integral value (`1.0`, `0.0001`, `16777216.0`), otherwise with a signed
/// exponent of at least two digits (`1e+20`, `3.4028235e+38`, `1.5e-07`, `1e-45`). Rust's
/// own `{}` writes no exponent, so `1e20` came out as 21 digits that JSON tools read as
/// an integer. The Go and TypeScript implementations write the same text for every f32.
///
/// "Reads back" is through a double, as the readers here and Python's read a float
/// (`7.0385307e-26` for the f32 whose shortest spelling, `7.038531e-26`, reads as its
/// neighbour that way). The one difference from Python: it starts from one significant
/// digit, where Python starts from six, so a subnormal whose rounding to fewer digits
/// reads back gets fewer (`1e-45` for Python's `1.4013e-45`); both read back as the same
/// f32.
fn f32_text(t: &mut String, x: f32) {
    if x.is_sign_negative() {
        t.push('-');
    }
    if x == 0.0 {
        t.push_str("0.0");
        return;
    }
    let x = x.abs();
    // `{:.*e}` rounds the exact value, ties to even. "Reads back" is as JSON readers read
    // a float, this one and Python's among them: to the nearest double, then to the
    // nearest f32. That rounds twice, so a shortest spelling may read back as the f32 next
    // to `x` (`7.038531e-26`) and one more digit is needed. Nine digits always read back.
    // One buffer for every length tried.
    let mut sci = String::with_capacity(16);
    for p in 1..=9 {
        sci.clear();
        let _ = write!(sci, "{x:.*e}", p - 1);
        if p == 9 || sci.parse::<f64>().map(|y| y as f32) == Ok(x) {
            break;
        }
    }
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let e: i32 = exp.parse().unwrap_or(0);
    let mut digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    while digits.len() > 1 && digits.ends_with('0') {
        digits.pop();
    }
    let n = digits.len() as i32;
    if (-4..16).contains(&e) {
        if e < 0 {
            t.push_str("0.");
            t.extend(std::iter::repeat_n('0', (-e - 1) as usize));
            t.push_str(&digits);
        } else if n <= e + 1 {
            t.push_str(&digits);
            t.extend(std::iter::repeat_n('0', (e + 1 - n) as usize));
            t.push_str(".0");
        } else {
            let (int, frac) = digits.split_at((e + 1) as usize);
            t.push_str(int);
            t.push('.');
            t.push_str(frac);
        }
    } else {
        let (first, rest) = digits.split_at(1);
        t.push_str(first);
        if !rest.is_empty() {
            t.push('.');
            t.push_str(rest);
        }
        let _ = write!(t, "e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs());
    }
}

/// A float: its text when finite, else the quoted names proto3 JSON gives the others.
fn float(t: &mut String, x: f64, finite: impl FnOnce(&mut String)) {
    if x.is_nan() {
        t.push_str("\"NaN\"");
    } else if x == f64::INFINITY {
        t.push_str("\"Infinity\"");
    } else if x == f64::NEG_INFINITY {
        t.push_str("\"-Infinity\"");
    } else {
        finite(t);
    }
}
