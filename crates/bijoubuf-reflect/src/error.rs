//! Errors: decode rejections with the SPEC's code, offset and path, and encode refusals.

use std::fmt;

use bijoubuf::ErrorKind;

use crate::value::MapKey;

/// One step of an error's field path (SPEC §11.3).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PathSegment {
    /// The top-level message's short type name: `Outer`.
    Message(String),
    /// A field by schema name: `.inner`.
    Field(String),
    /// A field the schema does not know, by number: `.7`.
    Unknown(u32),
    /// An element of a repeated field: `[3]`.
    Index(usize),
    /// A map entry: `["k"]`, `[5]`, `[-1]`, `[true]`.
    Key(MapKey),
}

impl fmt::Display for PathSegment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathSegment::Message(name) => f.write_str(name),
            PathSegment::Field(name) => write!(f, ".{name}"),
            PathSegment::Unknown(n) => write!(f, ".{n}"),
            PathSegment::Index(i) => write!(f, "[{i}]"),
            PathSegment::Key(MapKey::String(s)) => {
                f.write_str("[\"")?;
                write_escaped(f, s)?;
                f.write_str("\"]")
            }
            PathSegment::Key(MapKey::Bool(b)) => write!(f, "[{b}]"),
            PathSegment::Key(MapKey::I32(v)) => write!(f, "[{v}]"),
            PathSegment::Key(MapKey::I64(v)) => write!(f, "[{v}]"),
            PathSegment::Key(MapKey::U32(v)) => write!(f, "[{v}]"),
            PathSegment::Key(MapKey::U64(v)) => write!(f, "[{v}]"),
        }
    }
}

/// SPEC §11.3: `"` and `\` take a backslash, U+0000–U+001F and U+007F are written
/// `\u{hex}` (lower-case, no leading zeros), every other character is itself.
fn write_escaped(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    for c in s.chars() {
        match c {
            '"' | '\\' => write!(f, "\\{c}")?,
            '\u{0}'..='\u{1f}' | '\u{7f}' => write!(f, "\\u{{{:x}}}", c as u32)?,
            _ => fmt::Write::write_char(f, c)?,
        }
    }
    Ok(())
}

/// Why a byte string was refused: a [`bijoubuf::ErrorKind`] (the same codes generated
/// code reports), the absolute byte offset and the field path.
#[derive(Clone, PartialEq, Eq)]
pub struct DecodeError {
    kind: ErrorKind,
    offset: usize,
    /// Innermost first; segments are appended while the error travels outwards.
    rev_path: Vec<PathSegment>,
}

impl DecodeError {
    #[cold]
    pub(crate) fn new(kind: ErrorKind, offset: usize) -> Self {
        DecodeError {
            kind,
            offset,
            rev_path: Vec::new(),
        }
    }

    #[cold]
    pub(crate) fn push(mut self, seg: PathSegment) -> Self {
        self.rev_path.push(seg);
        self
    }

    #[cold]
    pub(crate) fn field(self, name: &str) -> Self {
        self.push(PathSegment::Field(name.to_string()))
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The stable kebab-case code (SPEC §11.1).
    pub fn code(&self) -> &'static str {
        self.kind.code()
    }

    /// The absolute byte offset (SPEC §11.1 says which byte).
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The path, outermost first.
    pub fn path(&self) -> impl Iterator<Item = &PathSegment> + '_ {
        self.rev_path.iter().rev()
    }

    /// The path as text: `Order.lines[3].sku`.
    pub fn path_string(&self) -> String {
        self.path().map(ToString::to_string).collect()
    }

    /// The words between path and offset in [`Display`](fmt::Display): the
    /// runtime's own table, so both decoders print alike.
    pub fn what(&self) -> &'static str {
        self.kind.what()
    }
}

impl fmt::Debug for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DecodeError")
            .field("code", &self.code())
            .field("offset", &self.offset)
            .field("path", &self.path_string())
            .finish()
    }
}

impl fmt::Display for DecodeError {
    /// `<code>: <path> <what> at byte <offset>` (SPEC §11.4).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.code())?;
        if self.rev_path.is_empty() {
            f.write_str("input")?;
        }
        for seg in self.path() {
            write!(f, "{seg}")?;
        }
        write!(f, " {} at byte {}", self.what(), self.offset)
    }
}

impl std::error::Error for DecodeError {}

/// Why a [`DynamicMessage`](crate::DynamicMessage) could not be encoded (SPEC §9: an
/// encoder refuses what a decoder would refuse).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeError {
    /// Nested deeper than the depth limit (default 100); the path of the too-deep
    /// field.
    DepthLimitExceeded(String),
    /// A proto2 `required` field is unset; its path.
    MissingRequiredField(String),
    /// Preserved unknown fields that could not be decoded again: a number the schema
    /// declares, a repeated number, numbers out of order or out of range; the path.
    UnknownFieldConflict(String),
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::DepthLimitExceeded(p) => {
                write!(
                    f,
                    "depth-limit-exceeded: {p} nests deeper than the depth limit"
                )
            }
            EncodeError::MissingRequiredField(p) => {
                write!(f, "missing-required-field: {p} is required but unset")
            }
            EncodeError::UnknownFieldConflict(p) => write!(
                f,
                "unknown-field-order: preserved unknown fields of {p} are out of order or collide with the schema"
            ),
        }
    }
}

impl std::error::Error for EncodeError {}

/// Why a value does not fit a field ([`DynamicMessage::set`](crate::DynamicMessage::set)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeError {
    pub(crate) message: String,
}

impl fmt::Display for TypeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TypeError {}
