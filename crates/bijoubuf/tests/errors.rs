//! Error values: `ErrorKind`'s text is its code, `DecodeError` equality compares code,
//! offset and path, `Debug` names all three, and `EncodeError` says what it needs.
mod common;

use bijoubuf::{DecodeError, EncodeErrorKind, ErrorKind, Message};
use bijoubuf_testkit::assert_rejects;
use common::*;

const KINDS: [ErrorKind; 17] = [
    ErrorKind::Truncated,
    ErrorKind::VarintOverflow,
    ErrorKind::IntegerOutOfRange,
    ErrorKind::InvalidBool,
    ErrorKind::FieldNumberOverflow,
    ErrorKind::WireTypeMismatch,
    ErrorKind::DefaultValuePresent,
    ErrorKind::MissingRequiredField,
    ErrorKind::OneofConflict,
    ErrorKind::EmptyRepeated,
    ErrorKind::PackedLengthMismatch,
    ErrorKind::MapKeyOrder,
    ErrorKind::InvalidUtf8,
    ErrorKind::NonCanonicalNan,
    ErrorKind::UnknownField,
    ErrorKind::DepthLimitExceeded,
    ErrorKind::SizeLimitExceeded,
];

#[test]
fn error_kind_displays_as_its_code() {
    for k in KINDS {
        assert_eq!(k.to_string(), k.code());
        assert!(!k.code().is_empty());
    }
}

#[test]
fn decode_errors_are_equal_exactly_when_code_offset_and_path_are() {
    let a = DecodeError::new(ErrorKind::Truncated, 3);
    assert_eq!(a, DecodeError::new(ErrorKind::Truncated, 3));
    assert_eq!(a, a.clone());
    // Each of the three parts on its own makes a difference.
    assert_ne!(a, DecodeError::new(ErrorKind::VarintOverflow, 3));
    assert_ne!(a, DecodeError::new(ErrorKind::Truncated, 4));
    // Same code and offset, different paths: `Scalars.u32` (u32, field 3, after i32,
    // field 1, holds its default at byte 2) against the empty path.
    let u32_default =
        assert_rejects::<Scalars>(&[0x00, 0x02, 0x04, 0x00], "default-value-present", 2);
    assert_eq!(u32_default.path_string(), "Scalars.u32");
    assert_ne!(
        u32_default,
        DecodeError::new(ErrorKind::DefaultValuePresent, 2)
    );
    assert_eq!(u32_default, u32_default.clone());
}

#[test]
fn debug_names_code_offset_and_path() {
    let e = assert_rejects::<Scalars>(&[0x00, 0x02, 0x04, 0x00], "default-value-present", 2);
    let text = format!("{e:?}");
    for part in ["DecodeError", "default-value-present", "2", "Scalars.u32"] {
        assert!(text.contains(part), "{text}");
    }
}

#[test]
fn encode_error_text_names_what_failed() {
    let a = Scalars {
        i32: 1,
        ..Default::default()
    };
    let mut small = [0u8; 1];
    let mut dst: &mut [u8] = &mut small;
    let e = a.encode(&mut dst).unwrap_err();
    assert_eq!(e.kind(), EncodeErrorKind::BufferTooSmall);
    assert_eq!(
        e.to_string(),
        "buffer-too-small: the encoding needs 2 bytes"
    );
}
