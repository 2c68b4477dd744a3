//! Packing a message into an [`Any`] and unpacking it with a type check.
//!
//! An `Any` is a type URL and the packed message's canonical bytes. Unpacking compares
//! the fully-qualified name after the URL's last `/` with the requested type's
//! [`Message::FULL_NAME`] before it decodes anything, so bytes of one type are never
//! read as another (whose field numbers and wire types might happen to fit).

use alloc::string::String;
use core::fmt;

use super::Any;
use crate::{DecodeError, DecodeOptions, EncodeError, Message};

impl Any {
    /// Pack `message`: its canonical encoding, under its
    /// [`type_url`](Message::type_url) (`type.googleapis.com/shop.v1.Order`).
    ///
    /// ```
    /// use bijoubuf::wkt::{Any, Duration, Timestamp};
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let t = Timestamp { seconds: 1, nanos: 0 };
    /// let any = Any::pack(&t)?;
    /// assert_eq!(any.type_url, "type.googleapis.com/google.protobuf.Timestamp");
    /// assert!(any.is::<Timestamp>());
    /// assert_eq!(any.unpack::<Timestamp>()?, t);
    /// // The wrong type is refused before a byte is decoded, naming both types.
    /// let e = any.unpack::<Duration>().unwrap_err();
    /// assert_eq!(
    ///     e.to_string(),
    ///     "any-type-mismatch: expected google.protobuf.Duration, \
    ///      the Any holds \"type.googleapis.com/google.protobuf.Timestamp\""
    /// );
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// What [`Message::encode`] refuses (nesting past the default depth limit).
    pub fn pack<M: Message>(message: &M) -> Result<Any, EncodeError> {
        Ok(Any {
            type_url: M::type_url(),
            value: message.encode_to_vec()?,
        })
    }

    /// [`pack`](Self::pack) under the name prost gives it.
    ///
    /// # Errors
    /// As [`pack`](Self::pack).
    pub fn from_msg<M: Message>(message: &M) -> Result<Any, EncodeError> {
        Self::pack(message)
    }

    /// The fully-qualified type name the URL ends with (after its last `/`), or `None`
    /// when the URL has no `/` or nothing after it (protobuf's form is
    /// `<host>/<full name>`).
    pub fn type_name(&self) -> Option<&str> {
        match self.type_url.rsplit_once('/') {
            Some((_, name)) if !name.is_empty() => Some(name),
            _ => None,
        }
    }

    /// Whether this `Any` holds an `M`: its type URL names `M::FULL_NAME` (any host).
    pub fn is<M: Message>(&self) -> bool {
        self.type_name() == Some(M::FULL_NAME)
    }

    /// Decode the packed message as an `M`, strictly, after checking that the type URL
    /// names `M`.
    ///
    /// # Errors
    /// [`AnyError::TypeMismatch`] when the URL names another type (or is malformed),
    /// before anything is decoded; [`AnyError::Decode`] when the bytes are not a
    /// canonical `M` (offsets count from the start of [`value`](Any::value)).
    pub fn unpack<M: Message>(&self) -> Result<M, AnyError> {
        self.check::<M>()?;
        M::decode(&self.value).map_err(AnyError::Decode)
    }

    /// [`unpack`](Self::unpack) with decode options (unknown-field policy, limits).
    ///
    /// # Errors
    /// As [`unpack`](Self::unpack).
    pub fn unpack_with<M: Message>(&self, opts: &DecodeOptions) -> Result<M, AnyError> {
        self.check::<M>()?;
        M::decode_with(&self.value, opts)
            .map(crate::Decoded::into_message)
            .map_err(AnyError::Decode)
    }

    /// [`unpack`](Self::unpack) under the name prost gives it.
    ///
    /// # Errors
    /// As [`unpack`](Self::unpack).
    pub fn to_msg<M: Message>(&self) -> Result<M, AnyError> {
        self.unpack()
    }

    fn check<M: Message>(&self) -> Result<(), AnyError> {
        if self.is::<M>() {
            Ok(())
        } else {
            Err(AnyError::TypeMismatch {
                expected: M::FULL_NAME,
                found: self.type_url.clone(),
            })
        }
    }
}

/// Why [`Any::unpack`] refused.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum AnyError {
    /// The type URL does not name the requested type (or is not `<host>/<full name>`).
    TypeMismatch {
        /// The requested type's full name.
        expected: &'static str,
        /// The `Any`'s type URL, as it is.
        found: String,
    },
    /// The type matched, but the packed bytes are not a canonical value of it.
    Decode(DecodeError),
}

impl AnyError {
    /// A stable code: `any-type-mismatch`, or the decode error's own code.
    pub fn code(&self) -> &'static str {
        match self {
            AnyError::TypeMismatch { .. } => "any-type-mismatch",
            AnyError::Decode(e) => e.kind().code(),
        }
    }
}

impl fmt::Display for AnyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyError::TypeMismatch { expected, found } => write!(
                f,
                "any-type-mismatch: expected {expected}, the Any holds {found:?}"
            ),
            AnyError::Decode(e) => e.fmt(f),
        }
    }
}

impl core::error::Error for AnyError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            AnyError::TypeMismatch { .. } => None,
            AnyError::Decode(e) => Some(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use alloc::string::ToString;
    use alloc::vec;

    use super::*;
    use crate::ErrorKind;
    use crate::wkt::{Duration, Empty, FieldMask, Timestamp};

    #[test]
    fn a_packed_message_unpacks_to_itself_and_only_as_its_type() {
        let t = Timestamp {
            seconds: -5,
            nanos: 7,
        };
        let any = Any::pack(&t).unwrap();
        assert_eq!(any.value, t.encode_to_vec().unwrap());
        assert_eq!(any.type_name(), Some("google.protobuf.Timestamp"));
        assert!(any.is::<Timestamp>());
        assert!(!any.is::<Duration>());
        assert_eq!(any.unpack::<Timestamp>(), Ok(t.clone()));
        assert_eq!(any.to_msg::<Timestamp>(), Ok(t));
        // Duration has Timestamp's fields and wire types: without the check these bytes
        // would decode as one.
        assert!(Duration::decode(&any.value).is_ok());
        let e = any.unpack::<Duration>().unwrap_err();
        assert_eq!(
            e,
            AnyError::TypeMismatch {
                expected: "google.protobuf.Duration",
                found: "type.googleapis.com/google.protobuf.Timestamp".into()
            }
        );
        assert_eq!(e.code(), "any-type-mismatch");
        assert_eq!(
            e.to_string(),
            "any-type-mismatch: expected google.protobuf.Duration, \
             the Any holds \"type.googleapis.com/google.protobuf.Timestamp\""
        );
    }

    #[test]
    fn only_the_name_after_the_last_slash_counts() {
        let mut any = Any::pack(&Empty {}).unwrap();
        any.type_url = "example.com/a/b/google.protobuf.Empty".into();
        assert_eq!(any.unpack::<Empty>(), Ok(Empty {}));
        for url in [
            "google.protobuf.Empty",
            "type.googleapis.com/",
            "",
            "type.googleapis.com/google.protobuf.Empty/",
            "type.googleapis.com/.google.protobuf.Empty",
            "type.googleapis.com/google.protobuf.Emptyy",
        ] {
            any.type_url = url.into();
            assert!(!any.is::<Empty>(), "{url}");
            let e = any.unpack::<Empty>().unwrap_err();
            assert_eq!(e.code(), "any-type-mismatch", "{url}");
        }
    }

    #[test]
    fn bytes_that_are_not_the_type_are_a_decode_error() {
        // A FieldMask holding its default: field 1 written empty (SPEC §6.1).
        let any = Any {
            type_url: FieldMask::type_url(),
            value: vec![0x02, 0x00],
        };
        let e = any.unpack::<FieldMask>().unwrap_err();
        match &e {
            AnyError::Decode(d) => assert_eq!(d.kind(), ErrorKind::EmptyRepeated),
            other => panic!("{other:?}"),
        }
        assert_eq!(e.code(), "empty-repeated");
        assert!(core::error::Error::source(&e).is_some());
        let e = any
            .unpack_with::<FieldMask>(&DecodeOptions::new())
            .unwrap_err();
        assert_eq!(e.code(), "empty-repeated");
    }
}
