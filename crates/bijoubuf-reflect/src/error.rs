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
            EncodeError::Refused(e, p) => write!(f, "{e} (in {p})"),
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
