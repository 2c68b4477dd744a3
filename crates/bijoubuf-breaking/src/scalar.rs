//! The scalar compatibility table: what a value written as one scalar type becomes when
//! read as another, decided by SPEC §3's wire forms (not protobuf's).
//!
//! | from → to | verdict | why (SPEC) |
//! |---|---|---|
//! | `int32`, `sint32`, enum ↔ each other; → `int64`, `sint64` | identical | one zigzag transform for every signed type and for enum numbers (§3.2, §3.6) |
//! | `int64`, `sint64` → `int32`, `sint32`, enum | narrowed | values outside `i32` are `integer-out-of-range` (§3.2) |
//! | `uint32` → `uint64`; `bool` → `uint32`, `uint64` | identical | plain bijou64; `false`/`true` are 0/1 (§3.1, §3.3) |
//! | `uint64` → `uint32`; `uint32`, `uint64` → `bool` | narrowed | `integer-out-of-range`, `invalid-bool` (§3.1, §3.3) |
//! | zigzag type (`int*`, `sint*`, enum) ↔ plain type (`uint*`, `bool`) | reinterpreted | `01` is −1 one way and 1 (or `true`) the other (§3.2) |
//! | `fixed32` ↔ `sfixed32`, `fixed64` ↔ `sfixed64` | reinterpreted | same 4/8 bytes, unsigned vs two's complement (§3.4) |
//! | `float` ↔ `fixed32`/`sfixed32`, `double` ↔ `fixed64`/`sfixed64` | reinterpreted | bit patterns read as numbers; non-canonical NaNs refused (§3.5) |
//! | `string` → `bytes` | identical | the same length-prefixed bytes (§7) |
//! | `bytes` → `string` | narrowed | ill-formed UTF-8 is `invalid-utf8` (§7) |
//! | any two types of different wire types (§4.4) | wire type | a record is `wire-type-mismatch`; inside a repeated field or map the element run is misread or refused |
//!
//! "Identical" means every canonical payload of the first type is a canonical payload of
//! the second that stands for the same number (or the same bytes), so a strict reader
//! accepts it and re-encodes it byte for byte.

use bijoubuf_schema::ScalarType;
use serde::Serialize;

/// A field's element type as the wire sees it: a scalar, or an enum (written as its
/// number, an `int32`, SPEC §3.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WireScalar {
    /// A scalar type.
    Scalar(ScalarType),
    /// Any enum type.
    Enum,
}

impl WireScalar {
    /// Every scalar type and the enum, in SPEC §3's table order.
    pub const ALL: [WireScalar; 16] = {
        use ScalarType as S;
        [
            WireScalar::Scalar(S::Int32),
            WireScalar::Scalar(S::Int64),
            WireScalar::Scalar(S::Sint32),
            WireScalar::Scalar(S::Sint64),
            WireScalar::Scalar(S::Uint32),
            WireScalar::Scalar(S::Uint64),
            WireScalar::Scalar(S::Bool),
            WireScalar::Enum,
            WireScalar::Scalar(S::Fixed32),
            WireScalar::Scalar(S::Sfixed32),
            WireScalar::Scalar(S::Float),
            WireScalar::Scalar(S::Fixed64),
            WireScalar::Scalar(S::Sfixed64),
            WireScalar::Scalar(S::Double),
            WireScalar::Scalar(S::String),
            WireScalar::Scalar(S::Bytes),
        ]
    };

    /// The schema keyword (`enum` for any enum).
    pub fn keyword(self) -> &'static str {
        match self {
            WireScalar::Scalar(s) => s.keyword(),
            WireScalar::Enum => "enum",
        }
    }
}

/// What happens to a value written as one type and read as another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Compat {
    /// Every value reads back as the same value and re-encodes to the same bytes.
    Identical,
    /// Some values are refused by the reader (range, `bool`, UTF-8).
    Narrowed,
    /// Some values are accepted as a different value.
    Reinterpreted,
    /// The wire type differs (SPEC §4.4).
    WireType,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    /// bijou64(zigzag(v)); the bound is the bit width.
    Zigzag(u8),
    /// bijou64(v); 1 bit for bool.
    Plain(u8),
    Fixed {
        width: u8,
        kind: FixedKind,
    },
    Len {
        utf8: bool,
    },
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum FixedKind {
    Unsigned,
    Signed,
    Float,
}

fn form(t: WireScalar) -> Form {
    use ScalarType as S;
    let s = match t {
        WireScalar::Enum => return Form::Zigzag(32),
        WireScalar::Scalar(s) => s,
    };
    match s {
        S::Int32 | S::Sint32 => Form::Zigzag(32),
        S::Int64 | S::Sint64 => Form::Zigzag(64),
        S::Uint32 => Form::Plain(32),
        S::Uint64 => Form::Plain(64),
        S::Bool => Form::Plain(1),
        S::Fixed32 => Form::Fixed {
            width: 4,
            kind: FixedKind::Unsigned,
        },
        S::Sfixed32 => Form::Fixed {
            width: 4,
            kind: FixedKind::Signed,
        },
        S::Float => Form::Fixed {
            width: 4,
            kind: FixedKind::Float,
        },
        S::Fixed64 => Form::Fixed {
            width: 8,
            kind: FixedKind::Unsigned,
        },
        S::Sfixed64 => Form::Fixed {
            width: 8,
            kind: FixedKind::Signed,
        },
        S::Double => Form::Fixed {
            width: 8,
            kind: FixedKind::Float,
        },
        S::String => Form::Len { utf8: true },
        S::Bytes => Form::Len { utf8: false },
    }
}

/// SPEC §4.4's wire type of a singular field of this type.
pub fn wire_type(t: WireScalar) -> u8 {
    match form(t) {
        Form::Zigzag(_) | Form::Plain(_) => 0,
        Form::Fixed { width: 8, .. } => 1,
        Form::Len { .. } => 2,
        Form::Fixed { .. } => 3,
    }
}

/// What a value written as `from` becomes when a strict reader reads it as `to`
/// (the table in this module's docs).
pub fn compat(from: WireScalar, to: WireScalar) -> Compat {
    if from == to {
        return Compat::Identical;
    }
    match (form(from), form(to)) {
        (Form::Zigzag(a), Form::Zigzag(b)) | (Form::Plain(a), Form::Plain(b)) => {
            if a <= b {
                Compat::Identical
            } else {
                Compat::Narrowed
            }
        }
        (Form::Zigzag(_), Form::Plain(_)) | (Form::Plain(_), Form::Zigzag(_)) => {
            Compat::Reinterpreted
        }
        (Form::Fixed { width: a, kind: x }, Form::Fixed { width: b, kind: y }) if a == b => {
            if x == y {
                Compat::Identical
            } else {
                Compat::Reinterpreted
            }
        }
        (Form::Len { utf8: a }, Form::Len { utf8: b }) => {
            if a && !b {
                Compat::Identical
            } else {
                Compat::Narrowed
            }
        }
        _ => Compat::WireType,
    }
}

/// proto3 JSON's form of a type, and the range of values it can hold.
#[derive(Clone, Copy, PartialEq, Eq)]
enum JsonForm {
    /// A JSON number holding an integer in `lo..=hi`.
    Number(i128, i128),
    /// A decimal string (64-bit integers) in `lo..=hi`.
    Decimal(i128, i128),
    /// A number, or `"NaN"`/`"Infinity"`; `true` for double.
    Float(bool),
    Bool,
    String,
    Base64,
    EnumName,
}

fn json_form(t: WireScalar) -> JsonForm {
    use ScalarType as S;
    let s = match t {
        WireScalar::Enum => return JsonForm::EnumName,
        WireScalar::Scalar(s) => s,
    };
    let (i32min, i32max) = (i128::from(i32::MIN), i128::from(i32::MAX));
    let (i64min, i64max) = (i128::from(i64::MIN), i128::from(i64::MAX));
    match s {
        S::Int32 | S::Sint32 | S::Sfixed32 => JsonForm::Number(i32min, i32max),
        S::Uint32 | S::Fixed32 => JsonForm::Number(0, i128::from(u32::MAX)),
        S::Int64 | S::Sint64 | S::Sfixed64 => JsonForm::Decimal(i64min, i64max),
        S::Uint64 | S::Fixed64 => JsonForm::Decimal(0, i128::from(u64::MAX)),
        S::Float => JsonForm::Float(false),
        S::Double => JsonForm::Float(true),
        S::Bool => JsonForm::Bool,
        S::String => JsonForm::String,
        S::Bytes => JsonForm::Base64,
    }
}

/// Whether every proto3 JSON value of `from` is written the same way and means the
/// same value as `to`.
pub fn json_compatible(from: WireScalar, to: WireScalar) -> bool {
    match (json_form(from), json_form(to)) {
        (JsonForm::Number(a, b), JsonForm::Number(c, d))
        | (JsonForm::Decimal(a, b), JsonForm::Decimal(c, d)) => c <= a && b <= d,
        (JsonForm::Float(a), JsonForm::Float(b)) => !a || b,
        (x, y) => x == y,
    }
}

/// The Rust type generated code holds (bijoubuf-codegen's type mapping); enum fields
/// hold their number as `i32` but gain a typed getter, so they differ from `int32`.
pub fn rust_type(t: WireScalar) -> &'static str {
    use ScalarType as S;
    match t {
        WireScalar::Enum => "i32 (enum)",
        WireScalar::Scalar(s) => match s {
            S::Int32 | S::Sint32 | S::Sfixed32 => "i32",
            S::Int64 | S::Sint64 | S::Sfixed64 => "i64",
            S::Uint32 | S::Fixed32 => "u32",
            S::Uint64 | S::Fixed64 => "u64",
            S::Float => "f32",
            S::Double => "f64",
            S::Bool => "bool",
            S::String => "String",
            S::Bytes => "Vec<u8>",
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ScalarType as S;

    fn c(a: ScalarType, b: ScalarType) -> Compat {
        compat(WireScalar::Scalar(a), WireScalar::Scalar(b))
    }

    #[test]
    fn signed_types_share_one_form() {
        assert_eq!(c(S::Int32, S::Sint32), Compat::Identical);
        assert_eq!(c(S::Sint64, S::Int64), Compat::Identical);
        assert_eq!(c(S::Int32, S::Int64), Compat::Identical);
        assert_eq!(c(S::Int64, S::Sint32), Compat::Narrowed);
        assert_eq!(
            compat(WireScalar::Enum, WireScalar::Scalar(S::Sint32)),
            Compat::Identical
        );
        assert_eq!(c(S::Int32, S::Uint32), Compat::Reinterpreted);
        assert_eq!(c(S::Bool, S::Uint64), Compat::Identical);
        assert_eq!(c(S::Uint32, S::Bool), Compat::Narrowed);
    }

    #[test]
    fn wire_type_changes_are_their_own_verdict() {
        assert_eq!(c(S::Int32, S::Fixed32), Compat::WireType);
        assert_eq!(c(S::Fixed32, S::Fixed64), Compat::WireType);
        assert_eq!(c(S::String, S::Bytes), Compat::Identical);
        assert_eq!(c(S::Bytes, S::String), Compat::Narrowed);
        assert_eq!(c(S::Float, S::Fixed32), Compat::Reinterpreted);
    }
}
