//! A JSON tree that keeps object members in order and refuses duplicate keys, read
//! with serde_json's tokenizer (for reading JSON; output is written as the message is
//! walked, `to`), and the string quoting both sides use.
//!
//! serde_json's own `Value` keeps the last of two equal keys and (without a crate
//! feature that would change every user's maps) sorts members by name. Proto3 JSON
//! input with a key twice is ambiguous, so it is refused here, naming the JSON path; and
//! output keeps fields in field-number order.

use std::fmt;
use std::fmt::Write as _;

use super::At;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

/// A JSON value; objects are member lists in document order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    Num(Num),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

/// A JSON number as read (exact integers stay exact), or a special form's number.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Num {
    U(u64),
    I(i64),
    F(f64),
}

impl Json {
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a bool",
            Json::Num(_) => "a number",
            Json::Str(_) => "a string",
            Json::Arr(_) => "an array",
            Json::Obj(_) => "an object",
        }
    }
}

/// Parse `text` as one JSON document of at most `max_nesting` nested arrays and objects;
/// a key twice in one object is an error that names the object's JSON path
/// (`$.a.b[2]`).
///
/// serde_json's own recursion limit (128) is replaced by `max_nesting`, which the caller
/// derives from the message depth limit: proto3 JSON spends up to two levels per message
/// (a repeated or map field's container, then the message's object), so a fixed 128
/// refused the JSON of messages the binary decoder accepts.
pub(crate) fn parse(text: &str, max_nesting: u32) -> Result<Json, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let v = Seed {
        at: &At::Root,
        nesting: 0,
        max_nesting,
    }
    .deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

struct Seed<'p> {
    at: &'p At<'p>,
    /// Arrays and objects around this value.
    nesting: u32,
    max_nesting: u32,
}

impl Seed<'_> {
    /// Refuse a container past the nesting limit, before reading into it.
    fn enter<E: de::Error>(&self) -> Result<u32, E> {
        let inner = self.nesting + 1;
        if inner > self.max_nesting {
            return Err(E::custom(format_args!(
                "arrays and objects nest deeper than {} (twice the message depth limit) at {}",
                self.max_nesting,
                self.at.path()
            )));
        }
        Ok(inner)
    }
}

impl<'de> DeserializeSeed<'de> for Seed<'_> {
    type Value = Json;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Json, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Seed<'_> {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Json, E> {
        Ok(Json::Bool(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Json, E> {
        Ok(Json::Num(Num::U(v)))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Json, E> {
        Ok(Json::Num(Num::I(v)))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Json, E> {
        Ok(Json::Num(Num::F(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Json, E> {
        Ok(Json::Str(v.to_string()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Json, E> {
        Ok(Json::Str(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let nesting = self.enter()?;
        let mut items = Vec::new();
        loop {
            let at = At::Index(self.at, items.len());
            let seed = Seed {
                at: &at,
                nesting,
                max_nesting: self.max_nesting,
            };
            match seq.next_element_seed(seed)? {
                Some(v) => items.push(v),
                None => break,
            }
        }
        Ok(Json::Arr(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let nesting = self.enter()?;
        let mut members: Vec<(String, Json)> = Vec::new();
        // Large objects (maps, Structs) check duplicates through a set: a linear scan
        // per key would make a 50 000-entry map quadratic.
        let mut keys: std::collections::HashSet<String> = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if is_duplicate(&members, &mut keys, &key) {
                return Err(duplicate(&key, self.at));
            }
            let at = At::Key(self.at, &key);
            let v = map.next_value_seed(Seed {
                at: &at,
                nesting,
                max_nesting: self.max_nesting,
            })?;
            members.push((key, v));
        }
        Ok(Json::Obj(members))
    }
}

// `visit_seq` and `visit_map` recurse once per level of nesting: their cold and bulky
// parts live in `#[inline(never)]` helpers, so that an unoptimized build's frames stay
// small enough for the depth cap on a 2 MiB thread.

/// Whether `key` is already one of `members` (through `keys` once there are many).
#[inline(never)]
fn is_duplicate(
    members: &[(String, Json)],
    keys: &mut std::collections::HashSet<String>,
    key: &str,
) -> bool {
    if members.len() < 16 {
        return members.iter().any(|(k, _)| k == key);
    }
    if keys.is_empty() {
        keys.extend(members.iter().map(|(k, _)| k.clone()));
    }
    !keys.insert(key.to_string())
}

#[cold]
#[inline(never)]
fn duplicate<E: de::Error>(key: &str, at: &At<'_>) -> E {
    E::custom(format_args!(
        "duplicate key {} in the object at {}",
        quote(key),
        at.path()
    ))
}

/// `$.name` for identifier-like keys, `$["odd key"]` otherwise.
pub(crate) fn member_path(parent: &str, key: &str) -> String {
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '@');
    if plain {
        format!("{parent}.{key}")
    } else {
        format!("{parent}[{}]", quote(key))
    }
}

/// A JSON string literal.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    quote_into(&mut out, s);
    out
}

/// `s` as a JSON string appended to `out`: `"` and `\` escaped, control characters as
/// `\b \f \n \r \t` or `\u00xx`, everything else as it is (serde_json's spelling).
pub(crate) fn quote_into(out: &mut String, s: &str) {
    out.push('"');
    let mut plain = 0;
    for (i, b) in s.bytes().enumerate() {
        let esc: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0C => "\\f",
            0..0x20 => "",
            _ => continue,
        };
        out.push_str(&s[plain..i]);
        if esc.is_empty() {
            let _ = write!(out, "\\u{b:04x}");
        } else {
            out.push_str(esc);
        }
        plain = i + 1;
    }
    out.push_str(&s[plain..]);
    out.push('"');
}

/// With `indent`: a line break and the indentation of `level`.
pub(crate) fn newline(out: &mut String, indent: Option<usize>, level: usize) {
    if let Some(n) = indent {
        out.push('\n');
        out.extend(std::iter::repeat_n(' ', n * level));
    }
}

/// Convert to serde_json's tree (member order is then serde_json's).
pub(crate) fn to_serde(v: &Json) -> serde_json::Value {
    use serde_json::Value as V;
    match v {
        Json::Null => V::Null,
        Json::Bool(b) => V::Bool(*b),
        Json::Num(Num::U(n)) => V::from(*n),
        Json::Num(Num::I(n)) => V::from(*n),
        Json::Num(Num::F(f)) => serde_json::Number::from_f64(*f).map_or(V::Null, V::Number),
        Json::Str(s) => V::String(s.clone()),
        Json::Arr(items) => V::Array(items.iter().map(to_serde).collect()),
        Json::Obj(members) => V::Object(
            members
                .iter()
                .map(|(k, v)| (k.clone(), to_serde(v)))
                .collect(),
        ),
    }
}

/// Convert from serde_json's tree (which has already merged duplicate keys).
pub(crate) fn from_serde(v: &serde_json::Value) -> Json {
    use serde_json::Value as V;
    match v {
        V::Null => Json::Null,
        V::Bool(b) => Json::Bool(*b),
        V::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => Json::Num(Num::U(u)),
            (_, Some(i), _) => Json::Num(Num::I(i)),
            (_, _, Some(f)) => Json::Num(Num::F(f)),
            _ => Json::Null,
        },
        V::String(s) => Json::Str(s.clone()),
        V::Array(items) => Json::Arr(items.iter().map(from_serde).collect()),
        V::Object(m) => Json::Obj(m.iter().map(|(k, v)| (k.clone(), from_serde(v))).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::quote;

    #[test]
    fn strings_are_quoted_as_serde_json_quotes_them() {
        let mut all_low: String = (0u8..0x20).map(char::from).collect();
        all_low.push_str("\"\\/\u{7f}é\u{2028}😀");
        for s in ["", "plain", "a\"b", "\\", "x\ny", "\u{1}\u{1f}", &all_low] {
            assert_eq!(quote(s), serde_json::to_string(s).unwrap(), "{s:?}");
        }
    }
}
