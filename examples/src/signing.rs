//! Ed25519 signatures over canonical bytes.
//!
//! The signer encodes the message (one value, one byte string) and signs
//! `b"bijoubuf-sig-v1:" + full type name + 0x00 + bytes`, the name being the generated
//! type's [`Message::FULL_NAME`] (`examples.ledger.v1.Transfer`). The prefix names the
//! scheme and the type, so a signature made for one message type can never be presented as a
//! signature over another type whose bytes happen to be the same.
//!
//! The verifier decodes strictly *first* and verifies the signature over the bytes it
//! decoded. Because the strict decoder accepts only the canonical encoding, "verify the
//! bytes" and "verify the value" are the same check: there is no second byte string
//! for the same value that could carry the same signature.
//!
//! The envelope is decoded as its borrowed type, `SignedMessageRef<'a>`: the body and
//! the signature are slices of the received bytes, checked by the same strict decoder, so
//! verifying copies nothing before the body itself is decoded.

use std::fmt;

use bijoubuf::{DecodeError, DecodeOptions, EncodeError, Message, MessageRef};
use ed25519_dalek::{Signature, Signer as _, SigningKey, VerifyingKey};

use crate::signed::{SignedMessage, SignedMessageRef};

/// The scheme's prefix: bump the version when the signed input changes shape.
pub const DOMAIN_PREFIX: &[u8] = b"bijoubuf-sig-v1:";

/// A fixed key for the examples, so that their output is the same on every run.
/// Never use a key whose seed is in source code for anything real.
pub fn demo_key() -> SigningKey {
    const SEED: &[u8; 32] = b"bijoubuf example key: not secret";
    SigningKey::from_bytes(SEED)
}

/// The bytes a signature covers: [`DOMAIN_PREFIX`], the type name, a zero byte (type
/// names never hold one, so the name cannot run into the body), then the body.
pub fn signing_input(type_name: &str, body: &[u8]) -> Vec<u8> {
    let mut input = Vec::with_capacity(DOMAIN_PREFIX.len() + type_name.len() + 1 + body.len());
    input.extend_from_slice(DOMAIN_PREFIX);
    input.extend_from_slice(type_name.as_bytes());
    input.push(0);
    input.extend_from_slice(body);
    input
}

/// Sign `body` as a message of type `type_name`.
pub fn sign_bytes(key: &SigningKey, type_name: &str, body: &[u8]) -> [u8; 64] {
    key.sign(&signing_input(type_name, body)).to_bytes()
}

/// Encode `message` canonically, sign it, and wrap both in a [`SignedMessage`], returned
/// encoded.
///
/// # Errors
/// An [`EncodeError`] if the message cannot be encoded (nesting past the depth limit).
pub fn sign<M: Message>(key: &SigningKey, message: &M) -> Result<Vec<u8>, EncodeError> {
    let body = message.encode_to_vec()?;
    let signature = sign_bytes(key, M::FULL_NAME, &body).to_vec();
    SignedMessage { body, signature }.encode_to_vec()
}

/// Why a signed message was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VerifyError {
    /// The envelope itself is not a canonical `SignedMessage`.
    Envelope(DecodeError),
    /// The body is not the canonical encoding of the expected type.
    Body(DecodeError),
    /// The body is canonical but the signature does not match it (or is not 64 bytes).
    BadSignature,
}

impl VerifyError {
    /// A stable code: the decoder's code, or `bad-signature`.
    pub fn code(&self) -> &'static str {
        match self {
            VerifyError::Envelope(e) | VerifyError::Body(e) => e.code(),
            VerifyError::BadSignature => "bad-signature",
        }
    }

    /// The decode error, when decoding refused the input.
    pub fn decode_error(&self) -> Option<&DecodeError> {
        match self {
            VerifyError::Envelope(e) | VerifyError::Body(e) => Some(e),
            VerifyError::BadSignature => None,
        }
    }
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Envelope(e) => write!(f, "envelope refused: {e}"),
            VerifyError::Body(e) => write!(f, "body refused: {e}"),
            VerifyError::BadSignature => {
                f.write_str("bad-signature: the signature does not match the body")
            }
        }
    }
}

impl std::error::Error for VerifyError {}

/// Check `signature` over `body` as type `type_name`. Uses Ed25519's strict
/// verification, which also refuses the signature encodings that make Ed25519
/// signatures malleable.
///
/// # Errors
/// [`VerifyError::BadSignature`].
pub fn verify_bytes(
    key: &VerifyingKey,
    type_name: &str,
    body: &[u8],
    signature: &[u8],
) -> Result<(), VerifyError> {
    let signature = Signature::from_slice(signature).map_err(|_| VerifyError::BadSignature)?;
    key.verify_strict(&signing_input(type_name, body), &signature)
        .map_err(|_| VerifyError::BadSignature)
}

/// Verify an encoded [`SignedMessage`] carrying an `M`: decode the envelope and the body
/// strictly, then check the signature over the body bytes.
///
/// # Errors
/// [`VerifyError::Envelope`] or [`VerifyError::Body`] with the decoder's error (code,
/// offset within that byte string, field path), or [`VerifyError::BadSignature`].
pub fn verify<M: Message>(key: &VerifyingKey, signed: &[u8]) -> Result<M, VerifyError> {
    verify_with(key, signed, &DecodeOptions::new())
}

/// [`verify`] with decode options for the body, e.g. to keep fields a newer schema
/// added ([`UnknownFieldPolicy::Preserve`](bijoubuf::UnknownFieldPolicy::Preserve)).
/// A preserving decode re-encodes to the very bytes it read, so the signature checked
/// over the received body also holds for the message passed on.
///
/// # Errors
/// See [`verify`].
pub fn verify_with<M: Message>(
    key: &VerifyingKey,
    signed: &[u8],
    options: &DecodeOptions,
) -> Result<M, VerifyError> {
    // Borrowed: `body` and `signature` point into `signed`.
    let envelope = SignedMessageRef::decode(signed).map_err(VerifyError::Envelope)?;
    let message = M::decode_with(envelope.body, options)
        .map_err(VerifyError::Body)?
        .into_message();
    verify_bytes(key, M::FULL_NAME, envelope.body, envelope.signature)?;
    Ok(message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signing_input_is_prefix_name_zero_body() {
        assert_eq!(
            signing_input("a.B", &[7, 8]),
            b"bijoubuf-sig-v1:a.B\x00\x07\x08".to_vec()
        );
    }

    #[test]
    fn the_envelope_is_read_in_place_and_judged_like_the_owned_type() {
        let transfer = crate::ledger::Transfer::default();
        let signed = sign(&demo_key(), &transfer).unwrap();
        let envelope = SignedMessageRef::decode(&signed).unwrap();
        let range = signed.as_ptr_range();
        assert!(range.contains(&envelope.signature.as_ptr()));
        assert_eq!(envelope.signature.len(), 64);
        assert_eq!(envelope.to_owned(), SignedMessage::decode(&signed).unwrap());
        let back: crate::ledger::Transfer = verify(&demo_key().verifying_key(), &signed).unwrap();
        assert_eq!(back, transfer);
        // A trailing byte is refused by both, alike.
        let mut bad = signed.clone();
        bad.push(0);
        assert_eq!(
            SignedMessageRef::decode(&bad).unwrap_err().to_string(),
            SignedMessage::decode(&bad).unwrap_err().to_string()
        );
    }

    #[test]
    fn the_demo_key_is_fixed() {
        assert_eq!(demo_key().to_bytes(), *b"bijoubuf example key: not secret");
    }
}
