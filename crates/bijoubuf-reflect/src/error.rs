//! Errors: decode rejections with the SPEC's code, offset and path, and encode refusals.

use std::fmt;

use bijoubuf::{DecodeError, PathSegment};

use crate::value::MapKey;

/// Path building on the runtime's [`DecodeError`]: the dynamic decoder reports the
/// same error type, codes, offsets and path segments as generated code.
pub(crate) trait Located {
    /// Append `seg` as the next outer segment.
    fn seg(self, seg: PathSegment) -> Self;
}

impl Located for DecodeError {
    #[cold]
    fn seg(self, seg: PathSegment) -> Self {
        bijoubuf::__private::push_segment(self, seg)
    }
}

/// The path segment of a map entry with key `k` (SPEC §11.3).
pub(crate) fn key_segment(k: MapKey) -> PathSegment {
    match k {
        MapKey::Bool(b) => PathSegment::BoolKey(b),
        MapKey::I32(v) => PathSegment::IntKey(i64::from(v)),
        MapKey::I64(v) => PathSegment::IntKey(v),
        MapKey::U32(v) => PathSegment::UintKey(u64::from(v)),
        MapKey::U64(v) => PathSegment::UintKey(v),
        MapKey::String(s) => PathSegment::StrKey(s),
    }
}

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
    /// Another refusal of the runtime's encoder, which these values cannot reach but
    /// for a descriptor the schema checks would refuse (a field number out of range:
    /// `field-order`); the path of the message.
    Refused(bijoubuf::EncodeError, String),
}

impl EncodeError {
    /// The stable code of the refusal (SPEC §11.1), the start of its text: what a
    /// program matches on instead of the message.
    pub fn code(&self) -> &'static str {
        match self {
            EncodeError::DepthLimitExceeded(_) => "depth-limit-exceeded",
            EncodeError::MissingRequiredField(_) => "missing-required-field",
            EncodeError::UnknownFieldConflict(_) => "unknown-field-order",
            EncodeError::Refused(e, _) => e.code(),
        }
    }

    /// What is wrong, without the leading code: the error's `Display` is
    /// `{code}: {detail}`, and a report that prints the code on its own prints this
    /// after it.
    pub fn detail(&self) -> String {
        match self {
            EncodeError::DepthLimitExceeded(p) => {
                format!("{p} nests deeper than the depth limit")
            }
            EncodeError::MissingRequiredField(p) => format!("{p} is required but unset"),
            EncodeError::UnknownFieldConflict(p) => format!(
                "preserved unknown fields of {p} are out of order or collide with the schema"
            ),
            EncodeError::Refused(e, p) => {
                // The runtime's errors display as `{code}: {what}` too.
                let text = e.to_string();
                let what = text
                    .strip_prefix(e.code())
                    .and_then(|r| r.strip_prefix(": "))
                    .unwrap_or(&text);
                format!("{what} (in {p})")
            }
        }
    }

    /// The field path the refusal names.
    pub fn path(&self) -> &str {
        match self {
            EncodeError::DepthLimitExceeded(p)
            | EncodeError::MissingRequiredField(p)
            | EncodeError::UnknownFieldConflict(p)
            | EncodeError::Refused(_, p) => p,
        }
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self.detail())
    }
}

impl std::error::Error for EncodeError {}

/// Why a value does not fit a field ([`DynamicMessage::set`](crate::DynamicMessage::set)).
///
/// Its [`code`](Self::code) is one of `no-such-field` (the message declares no field
/// of that number), `type-mismatch` (the value, or an element of a list, is not of the
/// field's type) and `duplicate-map-key` (a map value names a key twice).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeError {
    pub(crate) code: &'static str,
    pub(crate) message: String,
}

impl TypeError {
    /// The stable kebab-case code of the refusal (see the type's docs): what a program
    /// matches on instead of the message.
    pub fn code(&self) -> &'static str {
        self.code
    }
}

impl fmt::Display for TypeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TypeError {}
