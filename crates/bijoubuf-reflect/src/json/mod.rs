//! The proto3 JSON mapping for [`DynamicMessage`].
//!
//! Output: fields by JSON name in field-number order, 64-bit integers as strings, bytes
//! as standard base64, enums by value name (a number for a value the schema does not
//! name), `"NaN"`, `"Infinity"`, `"-Infinity"` for non-finite floats, and the special
//! forms of the well-known types: Timestamp (RFC 3339), Duration (`"1.5s"`), wrappers
//! (the bare value), Struct / Value / ListValue (plain JSON), FieldMask (comma-joined
//! lowerCamelCase paths) and Any (`"@type"` plus the message, or plus `"value"` for a
//! well-known type).
//!
//! Input accepts both the JSON name and the schema name of a field, 64-bit integers as
//! strings or numbers, standard or URL-safe base64 with or without padding, enum names
//! or numbers, and `null` for "absent". It refuses unknown field names, values out of
//! range for their type, a key twice in one object (serde_json's `Value` would silently
//! keep the last one) and two members of one oneof; the error names the JSON path.
//!
//! Numbers: a `double` is written with the shortest digits that read back (`0.1`,
//! `1e+20`); a `float` as protobuf's JSON writes it: rounded (ties to even) to the fewest
//! significant digits that read back as the same f32 (`0.29101562` for 0.291015625),
//! positional for decimal exponents −4 to 15 (`1.0`, `0.0001`, `16777216.0`), otherwise
//! with a signed exponent of at least two digits (`1e+20`, `3.4028235e+38`, `1.5e-07`).
//! The Go and TypeScript implementations write the same text for every f32.
//!
//! # Next to protobuf's JSON
//!
//! Checked against Python `protobuf` 7.36 (`json_format`): values written by one and
//! read by the other come back unchanged, except as listed here. A `double` keeps
//! serde_json's spelling, which may differ from Python's in form but never in value
//! (`1.5e-7` for `1.5e-07`, `0.00001` for `1e-05`). The differences that are choices
//! follow from bijoubuf's wire format (`conformance/SPEC.md`):
//!
//! - **Enums are open in proto2 too** (SPEC §3.6). A number the enum does not name is
//!   read into a proto2 enum field and written back as that number; protobuf refuses
//!   it (`Invalid enum value 99`), since its proto2 enums are closed and such numbers go
//!   to unknown fields on the wire. In bijoubuf a message holds one value per field
//!   whatever the syntax, so JSON and bytes agree.
//! - **A `google.protobuf.Value` with no kind set is refused on output**; protobuf
//!   writes it as `null`, which reads back as `null_value`, another message with other
//!   bytes. bijoubuf writes no JSON that reads back as something else. Likewise a
//!   `NullValue` other than 0 has no JSON form here (protobuf writes `null`).
//! - **Subnormal `float`s** are written with their shortest digits (`1e-45`); Python
//!   starts from six significant digits (`1.4013e-45`). Both read back as the same f32.
//!
//! Both refuse a key twice in one object, unknown field names, numbers out of range
//! and a Value number that is not finite.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let compiled = bijoubuf_schema::compile_sources(&[(
//!     "m.proto",
//!     "syntax = \"proto3\"; message M { int64 big = 1; bytes raw = 2; }",
//! )])?;
//! let pool = bijoubuf_reflect::DescriptorPool::new(&compiled.schema);
//! let m = pool.message("M").ok_or("no M")?;
//! let msg = bijoubuf_reflect::json::from_str(&m, r#"{"big": 5, "raw": "3q2-7w"}"#)?;
//! assert_eq!(bijoubuf_reflect::json::to_string(&msg)?, r#"{"big":"5","raw":"3q2+7w=="}"#);
//! let err = bijoubuf_reflect::json::from_str(&m, r#"{"big": 1, "big": 2}"#).unwrap_err();
//! assert!(err.to_string().contains("duplicate key \"big\""));
//! # Ok(()) }
//! ```

mod from;
mod time;
mod to;
mod tree;
mod wkt;

use std::fmt;

use crate::descriptor::MessageDescriptor;
use crate::value::DynamicMessage;

/// Why a JSON document does not map to (or a message cannot be written as) proto3 JSON.
///
/// Its [`code`](Self::code) says which way: `invalid-json` when reading
/// ([`from_str`], [`from_value`]: the text or a value does not map to the message),
/// `json-unrepresentable` when writing ([`to_string`], [`to_value`]: the message has
/// a value proto3 JSON cannot spell).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    code: &'static str,
    path: String,
    message: String,
}

impl JsonError {
    /// An error at `at`, whose path is spelled out now.
    #[cold]
    pub(crate) fn at(at: &At<'_>, message: impl Into<String>) -> Self {
        JsonError::new(&at.path(), message)
    }

    pub(crate) fn new(path: &str, message: impl Into<String>) -> Self {
        JsonError {
            code: "invalid-json",
            path: path.to_string(),
            message: message.into(),
        }
    }

    /// The same error, raised while writing a message as JSON.
    #[cold]
    fn unrepresentable(self) -> Self {
        JsonError {
            code: "json-unrepresentable",
            ..self
        }
    }

    /// The stable kebab-case code (see the type's docs): `invalid-json` or
    /// `json-unrepresentable`.
    pub fn code(&self) -> &'static str {
        self.code
    }

    /// The JSON path of the offending value, `$` being the document (`$.lines[3].sku`).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What is wrong there.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for JsonError {}

/// Settings shared by reading and writing proto3 JSON.
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let compiled = bijoubuf_schema::compile_sources(&[(
///     "m.proto",
///     "syntax = \"proto3\"; message M { repeated M m = 1; }",
/// )])?;
/// let pool = bijoubuf_reflect::DescriptorPool::new(&compiled.schema);
/// let m = pool.message("M").ok_or("no M")?;
/// let deep = format!("{}{{}}{}", r#"{"m":["#.repeat(149), "]}".repeat(149));
/// // 150 levels are past the default limit (100), within a configured one.
/// assert!(bijoubuf_reflect::json::from_str(&m, &deep).is_err());
/// let opts = bijoubuf_reflect::json::JsonOptions::new().max_depth(150);
/// let msg = bijoubuf_reflect::json::from_str_with(&m, &deep, &opts)?;
/// assert_eq!(bijoubuf_reflect::json::to_string_with(&msg, &opts)?, deep);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JsonOptions {
    max_depth: u32,
    indent: Option<usize>,
}

impl JsonOptions {
    /// Depth limit [`bijoubuf::DEFAULT_MAX_DEPTH`], compact output.
    pub const fn new() -> Self {
        JsonOptions {
            max_depth: bijoubuf::DEFAULT_MAX_DEPTH,
            indent: None,
        }
    }

    /// How deep messages may nest (the top level is depth 1), counting the messages
    /// inside `google.protobuf.Any` payloads, as the binary decoder's
    /// [`bijoubuf::DecodeOptions::max_depth`] counts nested bytes: 0 counts as 1, and
    /// above [`bijoubuf::MAX_DEPTH_LIMIT`] as that cap. Reading also refuses JSON whose
    /// arrays and objects nest deeper than twice this (a message costs at most two: a
    /// repeated or map field's container and its own object), before building anything.
    pub const fn max_depth(mut self, depth: u32) -> Self {
        self.max_depth = if depth == 0 {
            1
        } else if depth > bijoubuf::MAX_DEPTH_LIMIT {
            bijoubuf::MAX_DEPTH_LIMIT
        } else {
            depth
        };
        self
    }

    /// Write indented by `spaces` per level (reading ignores it).
    pub const fn pretty(mut self, spaces: usize) -> Self {
        self.indent = Some(spaces);
        self
    }

    fn top(&self) -> Depth {
        Depth {
            at: 1,
            max: self.max_depth,
        }
    }
}

impl Default for JsonOptions {
    fn default() -> Self {
        JsonOptions::new()
    }
}

/// Where a value sits in a JSON document, as a chain up to the document, so that a path
/// is only spelled out for an error: a string per element or member would be an
/// allocation per element or member, in both directions.
pub(crate) enum At<'p> {
    Root,
    Index(&'p At<'p>, usize),
    Key(&'p At<'p>, &'p str),
}

impl At<'_> {
    /// The path as [`JsonError::path`] spells it (`$.lines[3].sku`).
    #[cold]
    pub(crate) fn path(&self) -> String {
        match self {
            At::Root => "$".to_string(),
            At::Index(parent, i) => format!("{}[{i}]", parent.path()),
            At::Key(parent, k) => tree::member_path(&parent.path(), k),
        }
    }
}

/// The nesting depth of a message being read or written, and the limit.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Depth {
    at: u32,
    max: u32,
}

impl Depth {
    /// One message further in.
    pub(crate) fn next(self) -> Depth {
        Depth {
            at: self.at.saturating_add(1),
            max: self.max,
        }
    }

    /// Levels left below this one.
    pub(crate) fn left(self) -> u32 {
        self.max.saturating_sub(self.at)
    }

    /// Refuse a message past the limit.
    pub(crate) fn check(self, at: &At<'_>) -> Result<(), JsonError> {
        if self.at > self.max {
            return Err(self.too_deep(at));
        }
        Ok(())
    }

    #[cold]
    pub(crate) fn too_deep(self, at: &At<'_>) -> JsonError {
        JsonError::at(
            at,
            format!(
                "messages nest deeper than {} (counting those inside Any payloads)",
                self.max
            ),
        )
    }
}

/// `msg` as compact proto3 JSON text.
///
/// Whatever this writes reads back with [`from_str`] as a message with the same
/// encoding; a value the text could not carry is refused rather than written as
/// something else.
///
/// # Errors
/// A value with no JSON form: a Timestamp or Duration out of range, a `Value` with no
/// kind set, a `NullValue` other than `NULL_VALUE` (0), a FieldMask path that
/// lowerCamelCase cannot spell and read back (`""`, `"fooBar"`, `"a,b"`, `"a__b"`,
/// `"a_1"`), an `Any` whose type URL the schema does not define or whose bytes do not
/// decode, and messages nested deeper than the default depth limit (100), counting the
/// messages inside `Any` payloads.
pub fn to_string(msg: &DynamicMessage) -> Result<String, JsonError> {
    to_string_with(msg, &JsonOptions::new())
}

/// `msg` as proto3 JSON text, indented by two spaces.
///
/// # Errors
/// As [`to_string`].
pub fn to_string_pretty(msg: &DynamicMessage) -> Result<String, JsonError> {
    to_string_with(msg, &JsonOptions::new().pretty(2))
}

/// `msg` as proto3 JSON text with `opts`' depth limit and indentation.
///
/// # Errors
/// As [`to_string`], with `opts`' depth limit.
pub fn to_string_with(msg: &DynamicMessage, opts: &JsonOptions) -> Result<String, JsonError> {
    let mut o = to::Out::new(opts.indent);
    to::message(&mut o, msg, &At::Root, opts.top(), 0).map_err(JsonError::unrepresentable)?;
    Ok(o.text)
}

/// `msg` as a `serde_json::Value` (whose object member order is serde_json's, sorted by
/// name, not field order).
///
/// # Errors
/// As [`to_string`].
pub fn to_value(msg: &DynamicMessage) -> Result<serde_json::Value, JsonError> {
    // The text read back with this module's reader, which nests as deep as the writer
    // may (serde_json's own reader stops at 128 levels).
    let text = to_string(msg)?;
    let tree = tree::parse(&text, 2 * bijoubuf::MAX_DEPTH_LIMIT)
        .map_err(|e| JsonError::new("", e.to_string()).unrepresentable())?;
    Ok(tree::to_serde(&tree))
}

/// Parse proto3 JSON text as a message of type `desc`; refuses duplicate keys.
///
/// # Errors
/// Syntax errors, duplicate keys, unknown field names, values of the wrong type or out
/// of range, two members of one oneof, messages nested deeper than the default depth
/// limit (100, counting those inside `Any`); the error names the JSON path.
pub fn from_str(desc: &MessageDescriptor, text: &str) -> Result<DynamicMessage, JsonError> {
    from_str_with(desc, text, &JsonOptions::new())
}

/// [`from_str`] with `opts`' depth limit.
///
/// # Errors
/// As [`from_str`].
pub fn from_str_with(
    desc: &MessageDescriptor,
    text: &str,
    opts: &JsonOptions,
) -> Result<DynamicMessage, JsonError> {
    let json =
        tree::parse(text, 2 * opts.max_depth).map_err(|e| JsonError::new("", e.to_string()))?;
    from::message(desc, &json, &At::Root, opts.top())
}

/// Map an already parsed `serde_json::Value` to a message of type `desc`. serde_json has
/// merged duplicate keys by then; prefer [`from_str`] for untrusted text.
///
/// # Errors
/// As [`from_str`], except duplicates.
pub fn from_value(
    desc: &MessageDescriptor,
    value: &serde_json::Value,
) -> Result<DynamicMessage, JsonError> {
    from::message(
        desc,
        &tree::from_serde(value),
        &At::Root,
        JsonOptions::new().top(),
    )
}
