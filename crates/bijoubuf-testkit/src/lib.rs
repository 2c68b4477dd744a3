//! Test oracles for bijoubuf messages, and a raw record builder for writing any byte
//! sequence by hand, canonical or not.
//!
//! The oracles check the properties every message type must have (SPEC §9, §10):
//! bytes that decode re-encode to the same bytes, values that encode decode to an equal
//! value, and [`Message::encoded_len`] is exact. [`Raw`] writes keys, wire types,
//! lengths and payloads exactly as told (wrong wire types, raw deltas, bogus lengths), so
//! tests can build every non-canonical input and know each byte's offset.
//!
//! ```
//! use bijoubuf_testkit::Raw;
//! // field 1 VARINT 7, then field 3 LEN "hi"
//! let mut raw = Raw::new();
//! raw.key(1, Raw::VARINT).varint(7);
//! let at = raw.mark();
//! raw.key(3, Raw::LEN).len_bytes(b"hi");
//! assert_eq!(at, 2);
//! assert_eq!(raw.finish(), [0x00, 0x07, 0x06, 0x02, b'h', b'i']);
//! ```

use std::fmt::Debug;

use bijoubuf::{DecodeError, DecodeOptions, Decoded, EncodeOptions, Message, UnknownFieldPolicy};

/// Decode `bytes` strictly; then re-encoding must give `bytes` back, `encoded_len` must be
/// exact, and decoding the re-encoding must give an equal value. Returns the value.
///
/// # Panics
/// When `bytes` does not decode or any property fails.
#[track_caller]
pub fn assert_canonical_roundtrip<M: Message + PartialEq + Debug>(bytes: &[u8]) -> M {
    let m = match M::decode(bytes) {
        Ok(m) => m,
        Err(e) => panic!("expected {} to accept {:02x?}, got {e}", M::NAME, bytes),
    };
    check_reencode(&m, bytes);
    m
}

/// [`assert_canonical_roundtrip`] with options (e.g. preserving unknown fields).
#[track_caller]
pub fn assert_canonical_roundtrip_with<M: Message + PartialEq + Debug>(
    bytes: &[u8],
    opts: &DecodeOptions,
) -> Decoded<M> {
    let d = match M::decode_with(bytes, opts) {
        Ok(d) => d,
        Err(e) => panic!("expected {} to accept {:02x?}, got {e}", M::NAME, bytes),
    };
    check_reencode(d.message(), bytes);
    d
}

#[track_caller]
fn check_reencode<M: Message + PartialEq + Debug>(m: &M, bytes: &[u8]) {
    let again = m
        .encode_to_vec()
        .unwrap_or_else(|e| panic!("decoded value does not re-encode: {e}"));
    assert_eq!(again, bytes, "re-encoding of {m:?} differs from the input");
    assert_eq!(m.encoded_len(), bytes.len(), "encoded_len of {m:?}");
}

/// Encode `value`; `encoded_len` must be exact, the bytes must decode (strictly, and
/// with unknown fields preserved) to an equal value, the decoded value must re-encode to
/// the same bytes, and the length-delimited form must round-trip too. Every way of
/// encoding (`encode_to_vec`, `encode` into a reused buffer, the sink, the
/// length-delimited form) must give the bytes of the two passes alone (size, then
/// write), which the one pass replaces where it can. Values holding a
/// NaN are not equal to themselves, so for them equality is checked on the bytes.
/// Returns the bytes.
///
/// # Panics
/// When any property fails.
#[track_caller]
pub fn assert_value_roundtrip<M: Message + PartialEq + Debug>(value: &M) -> Vec<u8> {
    let bytes = value
        .encode_to_vec()
        .unwrap_or_else(|e| panic!("encode refused {value:?}: {e}"));
    assert_eq!(value.encoded_len(), bytes.len(), "encoded_len of {value:?}");
    // Through a sink (one pass into a frame, or the two passes): the same bytes.
    let mut sunk = Vec::new();
    value
        .encode_to_sink(&mut sunk)
        .unwrap_or_else(|e| panic!("encode_to_sink refused {value:?}: {e}"));
    assert_eq!(sunk, bytes, "encode_to_sink of {value:?}");
    // `encode_to_vec` (the one pass, through a frame) against the two passes alone, and
    // `encode` into a reused buffer with exactly the room (the one pass in its spare
    // capacity) and one byte short of it (given up, then through the frame).
    let opts = EncodeOptions::new();
    let two = bijoubuf::__private::encode_two_passes(value, false, &opts)
        .unwrap_or_else(|e| panic!("the two passes refused {value:?}: {e}"));
    assert_eq!(
        bytes, two,
        "encode_to_vec against the two passes of {value:?}"
    );
    for room in [bytes.len(), bytes.len().saturating_sub(1)] {
        let mut reused = Vec::with_capacity(room);
        value
            .encode(&mut reused)
            .unwrap_or_else(|e| panic!("encode refused {value:?}: {e}"));
        assert_eq!(
            reused, bytes,
            "encode into room for {room} bytes of {value:?}"
        );
    }
    let back = M::decode_with(
        &bytes,
        &DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve),
    )
    .unwrap_or_else(|e| panic!("decode refused the encoding of {value:?}: {e}"))
    .into_message();
    #[allow(clippy::eq_op)] // a value with a NaN is not equal to itself
    let reflexive = value == value;
    if reflexive {
        assert_eq!(&back, value, "decode(encode(v)) != v");
    }
    check_reencode(&back, &bytes);
    if value.unknown_fields().is_empty() {
        let strict = M::decode(&bytes)
            .unwrap_or_else(|e| panic!("strict decode refused the encoding of {value:?}: {e}"));
        check_reencode(&strict, &bytes);
    }
    let framed = value
        .encode_length_delimited_to_vec()
        .unwrap_or_else(|e| panic!("framed encode refused {value:?}: {e}"));
    let two = bijoubuf::__private::encode_two_passes(value, true, &opts)
        .unwrap_or_else(|e| panic!("the two passes refused {value:?}: {e}"));
    assert_eq!(
        framed, two,
        "framed encode against the two passes of {value:?}"
    );
    let mut stream = framed.clone();
    stream.extend_from_slice(&framed);
    let (first, used) = M::decode_length_delimited_with(
        &stream,
        &DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve),
    )
    .unwrap_or_else(|e| panic!("framed decode refused {value:?}: {e}"));
    assert_eq!(used, framed.len(), "frame length");
    check_reencode(first.message(), &bytes);
    bytes
}

/// The property for arbitrary input: if `bytes` decodes (strictly or preserving unknown
/// fields), the value re-encodes to exactly `bytes`. Returns whether either decode
/// accepted.
///
/// # Panics
/// When an accepted input does not re-encode identically.
#[track_caller]
pub fn check_arbitrary_bytes<M: Message + PartialEq + Debug>(bytes: &[u8]) -> bool {
    let mut accepted = false;
    if let Ok(m) = M::decode(bytes) {
        check_reencode(&m, bytes);
        accepted = true;
    }
    let preserve = DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve);
    if let Ok(d) = M::decode_with(bytes, &preserve) {
        check_reencode(d.message(), bytes);
        accepted = true;
    }
    accepted
}

/// Decode `bytes` strictly and require the error `code` at byte `offset`. Returns the
/// error for further checks (its path, its message).
///
/// # Panics
/// When the input is accepted, or refused with another code or offset.
#[track_caller]
pub fn assert_rejects<M: Message + Debug>(bytes: &[u8], code: &str, offset: usize) -> DecodeError {
    assert_rejects_with::<M>(bytes, &DecodeOptions::new(), code, offset)
}

/// [`assert_rejects`] with options.
#[track_caller]
pub fn assert_rejects_with<M: Message + Debug>(
    bytes: &[u8],
    opts: &DecodeOptions,
    code: &str,
    offset: usize,
) -> DecodeError {
    match M::decode_with(bytes, opts) {
        Ok(d) => panic!(
            "expected {} to refuse {:02x?} with {code} at {offset}, got {:?}",
            M::NAME,
            bytes,
            d.message()
        ),
        Err(e) => {
            assert_eq!(
                (e.code(), e.offset()),
                (code, offset),
                "{} on {:02x?}: got `{e}`",
                M::NAME,
                bytes
            );
            e
        }
    }
}

/// A byte builder that writes records exactly as told.
///
/// [`key`](Raw::key) computes the delta from the previous key written at this level;
/// [`raw_key`](Raw::raw_key) writes any key value. Nothing is checked: the point is to
/// write what an encoder never would.
#[derive(Debug, Clone, Default)]
pub struct Raw {
    bytes: Vec<u8>,
    prev: u64,
}

impl Raw {
    /// Wire type 0.
    pub const VARINT: u8 = 0;
    /// Wire type 1.
    pub const I64: u8 = 1;
    /// Wire type 2.
    pub const LEN: u8 = 2;
    /// Wire type 3.
    pub const I32: u8 = 3;

    /// An empty builder (previous field number 0).
    pub fn new() -> Self {
        Raw::default()
    }

    /// The number of bytes written so far: the offset of whatever comes next.
    pub fn mark(&self) -> usize {
        self.bytes.len()
    }

    /// A key for field `number` with wire type `wire` (only the low two bits are used),
    /// as a delta from the previous key. `number` must be above the previous number.
    pub fn key(&mut self, number: u64, wire: u8) -> &mut Self {
        let delta = number - self.prev - 1;
        self.raw_key((delta << 2) | (wire as u64 & 3))
    }

    /// A key with any value (delta and wire type packed as `(delta << 2) | wire`).
    pub fn raw_key(&mut self, value: u64) -> &mut Self {
        self.prev = self.prev.wrapping_add(1).wrapping_add(value >> 2);
        self.varint(value)
    }

    /// A bijou64.
    pub fn varint(&mut self, v: u64) -> &mut Self {
        self.bytes.extend_from_slice(bijou64::encode(v).as_slice());
        self
    }

    /// A zigzag-encoded signed value.
    pub fn zigzag(&mut self, v: i64) -> &mut Self {
        self.varint(bijou64::zigzag::encode_i64(v))
    }

    /// Four big-endian bytes.
    pub fn fixed32(&mut self, v: u32) -> &mut Self {
        self.bytes(&v.to_be_bytes())
    }

    /// Eight big-endian bytes.
    pub fn fixed64(&mut self, v: u64) -> &mut Self {
        self.bytes(&v.to_be_bytes())
    }

    /// A length prefix (any value: it need not match what follows).
    pub fn len(&mut self, n: u64) -> &mut Self {
        self.varint(n)
    }

    /// Raw bytes, as given.
    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.bytes.extend_from_slice(b);
        self
    }

    /// A correct length prefix and then `b`.
    pub fn len_bytes(&mut self, b: &[u8]) -> &mut Self {
        self.len(b.len() as u64).bytes(b)
    }

    /// Write `inner` as a nested message (correct length prefix + its bytes) and return
    /// the absolute offset at which its content starts, so offsets recorded with
    /// `inner.mark()` become `start + mark`.
    pub fn nested(&mut self, inner: &Raw) -> usize {
        self.len(inner.bytes.len() as u64);
        let start = self.mark();
        self.bytes(&inner.bytes);
        start
    }

    /// The bytes written.
    pub fn finish(&self) -> Vec<u8> {
        self.bytes.clone()
    }
}

/// How each level of a [`nested_chain`] holds the next: through field 2, 3 or 4 of a
/// message shaped like `message T { … T child = 2; repeated T more = 3; map<string, T>
/// named = 4; }` (field 1 and the names are free).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    /// A singular message field (field 2).
    Child,
    /// The one element of a repeated message field (field 3).
    Repeated,
    /// The value of a map entry with key `""` (field 4).
    MapValue,
}

/// The bytes of `depth` messages, each held by the one before as `via` says, the
/// innermost empty; and the offset of the innermost message's key (where a decoder
/// refuses the chain when `depth` is one past its limit, SPEC §9.3).
pub fn nested_chain(depth: usize, via: Via) -> (Vec<u8>, usize) {
    let len = |n: usize| bijou64::encode(n as u64).as_slice().to_vec();
    let mut inner: Vec<u8> = Vec::new();
    // The bytes each level writes before the next: the innermost key's offset is the
    // sum of every level's but the innermost's.
    let mut prefixes = Vec::new();
    for _ in 1..depth {
        // Keys after none: field n is Δ = n − 1, wire LEN: ((n − 1) << 2) | 2.
        let mut outer = match via {
            Via::Child => [vec![0x06], len(inner.len())].concat(),
            Via::Repeated => {
                let element = len(inner.len());
                [vec![0x0A], len(element.len() + inner.len()), element].concat()
            }
            Via::MapValue => {
                // The entry: key "" (a zero length), then the value's length.
                let entry = [vec![0x00], len(inner.len())].concat();
                [vec![0x0E], len(entry.len() + inner.len()), entry].concat()
            }
        };
        prefixes.push(outer.len());
        outer.extend_from_slice(&inner);
        inner = outer;
    }
    let at = prefixes.iter().skip(1).sum();
    (inner, at)
}
