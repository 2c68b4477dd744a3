//! Field records as bytes, for the tampering demonstrations: split a message into its
//! records, change them, and put them back together, in both bijoubuf's wire format and
//! protobuf's.
//!
//! This is what an attacker (or a careless relay) does to a message; nothing here
//! checks the canonical rules. The decoder does that.
//!
//! ```
//! use bijoubuf_examples::wire;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // bijoubuf: field 1 = "a" (LEN), field 3 = 7 (VARINT; key delta 1 -> 0x04).
//! let records = wire::split(&[0x02, 0x01, b'a', 0x04, 0x07])?;
//! assert_eq!(records.iter().map(|r| r.number).collect::<Vec<_>>(), [1, 3]);
//! // Insert field 2 between them: the keys after it are recomputed.
//! let mut more = records.clone();
//! more.insert(1, wire::Record::new(2, wire::VARINT, vec![0x05]));
//! assert_eq!(wire::join(&more)?, [0x02, 0x01, b'a', 0x00, 0x05, 0x00, 0x07]);
//! # Ok(()) }
//! ```

use std::fmt;

/// Wire type 0: one integer.
pub const VARINT: u8 = 0;
/// Wire type 1: eight bytes.
pub const I64: u8 = 1;
/// Wire type 2: a length, then that many bytes.
pub const LEN: u8 = 2;
/// Wire type 3 in bijoubuf (four bytes); protobuf uses 5 for the same.
pub const I32: u8 = 3;

/// Why a byte string could not be split into records, or records not joined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WireError {
    /// Where the problem is (the offset into the input, or the record's index for
    /// [`join`]).
    pub at: usize,
    /// What the problem is.
    pub what: &'static str,
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {}", self.what, self.at)
    }
}

impl std::error::Error for WireError {}

fn err<T>(at: usize, what: &'static str) -> Result<T, WireError> {
    Err(WireError { at, what })
}

/// One bijoubuf field record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The field number.
    pub number: u32,
    /// The wire type (0 to 3).
    pub wire_type: u8,
    /// The key bytes as they were read (empty for a record made with [`Record::new`]).
    /// Keys are deltas from the previous record's number, so these bytes mean this
    /// field only after the record they followed.
    pub key: Vec<u8>,
    /// The value bytes after the key, a LEN record's length prefix included.
    pub value: Vec<u8>,
}

impl Record {
    /// A record not read from anywhere: its key is computed by [`join`].
    pub fn new(number: u32, wire_type: u8, value: Vec<u8>) -> Self {
        Record {
            number,
            wire_type,
            key: Vec::new(),
            value,
        }
    }

    /// A LEN record holding `content` (the length prefix is added).
    pub fn len_field(number: u32, content: &[u8]) -> Self {
        let mut value = bijou64::encode(content.len() as u64).as_slice().to_vec();
        value.extend_from_slice(content);
        Record::new(number, LEN, value)
    }

    /// A LEN record's content, without its length prefix; `None` for other wire types.
    pub fn content(&self) -> Option<&[u8]> {
        if self.wire_type != LEN {
            return None;
        }
        let (_, n) = bijou64::decode(&self.value).ok()?;
        self.value.get(n..)
    }
}

/// Split a bijoubuf message into its records (SPEC §4.1: key = delta from the previous
/// number, shifted left 2, or'ed with the wire type).
///
/// # Errors
/// A [`WireError`] when the bytes end inside a record or a number leaves `u32`.
pub fn split(bytes: &[u8]) -> Result<Vec<Record>, WireError> {
    let mut records = Vec::new();
    let mut pos = 0;
    let mut prev: u64 = 0;
    while pos < bytes.len() {
        let start = pos;
        let Ok((key, n)) = bijou64::decode(&bytes[pos..]) else {
            return err(pos, "key ends early");
        };
        pos += n;
        let number = prev + 1 + (key >> 2);
        let Ok(number32) = u32::try_from(number) else {
            return err(start, "field number past u32");
        };
        let wire_type = (key & 3) as u8;
        let value_len = match wire_type {
            VARINT => match bijou64::decode(&bytes[pos..]) {
                Ok((_, n)) => n,
                Err(_) => return err(pos, "integer ends early"),
            },
            I64 => 8,
            I32 => 4,
            _ => match bijou64::decode(&bytes[pos..]) {
                Ok((len, n)) => n.saturating_add(usize::try_from(len).unwrap_or(usize::MAX)),
                Err(_) => return err(pos, "length ends early"),
            },
        };
        let Some(value) = bytes.get(pos..pos.saturating_add(value_len)) else {
            return err(pos, "value ends early");
        };
        records.push(Record {
            number: number32,
            wire_type,
            key: bytes[start..pos].to_vec(),
            value: value.to_vec(),
        });
        pos += value_len;
        prev = number;
    }
    Ok(records)
}

/// Join records, computing every key from the record before it.
///
/// # Errors
/// A [`WireError`] (at = the record's index) when a number is not above the previous
/// one: delta keys cannot go down or repeat, so such an order has no bijoubuf encoding.
pub fn join(records: &[Record]) -> Result<Vec<u8>, WireError> {
    let mut out = Vec::new();
    let mut prev = 0u32;
    for (i, r) in records.iter().enumerate() {
        if r.number <= prev {
            return err(i, "field number not above the previous one");
        }
        let key = (u64::from(r.number - prev - 1) << 2) | u64::from(r.wire_type);
        out.extend_from_slice(&bijou64::encode(key));
        out.extend_from_slice(&r.value);
        prev = r.number;
    }
    Ok(out)
}

/// Join records with the key bytes each was read with, in the order given: what a
/// byte-level cut and paste produces.
pub fn join_verbatim(records: &[Record]) -> Vec<u8> {
    records
        .iter()
        .flat_map(|r| r.key.iter().chain(&r.value))
        .copied()
        .collect()
}

/// Split a bijoubuf map's content whose keys and values are both LEN elements (strings,
/// bytes) into entries, each entry's bytes whole (key element, then value element).
///
/// # Errors
/// A [`WireError`] when an element ends early.
pub fn split_len_pairs(content: &[u8]) -> Result<Vec<Vec<u8>>, WireError> {
    let mut entries = Vec::new();
    let mut pos = 0;
    while pos < content.len() {
        let start = pos;
        for _ in 0..2 {
            let Ok((len, n)) = bijou64::decode(&content[pos..]) else {
                return err(pos, "element length ends early");
            };
            let end = usize::try_from(len)
                .ok()
                .and_then(|l| (pos + n).checked_add(l))
                .filter(|&e| e <= content.len());
            let Some(end) = end else {
                return err(pos, "element ends early");
            };
            pos = end;
        }
        entries.push(content[start..pos].to_vec());
    }
    Ok(entries)
}

/// The same value written one tier longer than bijou64 writes it, payload zero-padded
/// on the left: the LEB128 "overlong" trick, tried on bijou64. Each tier adds its
/// offset (SPEC §2.2), so this is not the same value: it decodes to
/// `value + OFFSETS[tier]`. Returns `None` when there is no longer tier.
pub fn bijou64_padded(value: u64) -> Option<Vec<u8>> {
    let tier = bijou64::encoded_len(value); // payload bytes of the next tier up
    if tier >= bijou64::MAX_LEN {
        return None;
    }
    let mut out = vec![0xF8 + (tier as u8 - 1)];
    out.extend_from_slice(&value.to_be_bytes()[8 - tier..]);
    Some(out)
}

/// Protobuf wire format, the comparison side.
pub mod protobuf {
    use super::{WireError, err};

    /// One protobuf field record, whole (tag and value).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct PbRecord {
        /// The field number.
        pub number: u32,
        /// The wire type (0 varint, 1 i64, 2 len, 5 i32).
        pub wire_type: u8,
        /// Offset of the value in the record's bytes (the tag's length).
        pub value_at: usize,
        /// The record's bytes.
        pub bytes: Vec<u8>,
    }

    /// Read one LEB128 varint; returns the value and its length. Overlong spellings are
    /// read like any other, as protobuf decoders do.
    pub fn read_varint(bytes: &[u8]) -> Option<(u64, usize)> {
        let mut v = 0u64;
        for (i, &b) in bytes.iter().enumerate().take(10) {
            v |= u64::from(b & 0x7F) << (7 * i);
            if b & 0x80 == 0 {
                return Some((v, i + 1));
            }
        }
        None
    }

    /// The shortest LEB128 spelling of `v`.
    pub fn varint(mut v: u64) -> Vec<u8> {
        let mut out = Vec::new();
        while v >= 0x80 {
            out.push((v as u8) | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
        out
    }

    /// `v` with one more byte than needed: a continuation bit on the last byte and a
    /// zero byte after it. The same number to any protobuf decoder.
    pub fn overlong_varint(v: u64) -> Vec<u8> {
        let mut out = varint(v);
        if let Some(last) = out.last_mut() {
            *last |= 0x80;
        }
        out.push(0);
        out
    }

    /// A record from its number, wire type and value bytes.
    pub fn record(number: u32, wire_type: u8, value: &[u8]) -> PbRecord {
        let mut bytes = varint((u64::from(number) << 3) | u64::from(wire_type));
        let value_at = bytes.len();
        bytes.extend_from_slice(value);
        PbRecord {
            number,
            wire_type,
            value_at,
            bytes,
        }
    }

    /// Split a protobuf message into its records.
    ///
    /// # Errors
    /// A [`WireError`] when the bytes end inside a record or use a group wire type.
    pub fn split(bytes: &[u8]) -> Result<Vec<PbRecord>, WireError> {
        let mut records = Vec::new();
        let mut pos = 0;
        while pos < bytes.len() {
            let start = pos;
            let Some((tag, n)) = read_varint(&bytes[pos..]) else {
                return err(pos, "tag ends early");
            };
            pos += n;
            let value_len = match tag & 7 {
                0 => match read_varint(&bytes[pos..]) {
                    Some((_, n)) => n,
                    None => return err(pos, "varint ends early"),
                },
                1 => 8,
                5 => 4,
                2 => match read_varint(&bytes[pos..]) {
                    Some((len, n)) => n.saturating_add(usize::try_from(len).unwrap_or(usize::MAX)),
                    None => return err(pos, "length ends early"),
                },
                _ => return err(start, "group wire types are not handled"),
            };
            let end = pos.saturating_add(value_len);
            if end > bytes.len() {
                return err(pos, "value ends early");
            }
            let Ok(number) = u32::try_from(tag >> 3) else {
                return err(start, "field number past u32");
            };
            records.push(PbRecord {
                number,
                wire_type: (tag & 7) as u8,
                value_at: n,
                bytes: bytes[start..end].to_vec(),
            });
            pos = end;
        }
        Ok(records)
    }

    /// The records' bytes, in order.
    pub fn join(records: &[PbRecord]) -> Vec<u8> {
        records
            .iter()
            .flat_map(|r| r.bytes.iter())
            .copied()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_then_join_gives_the_input_back() {
        // field 1 LEN "hi", field 2 VARINT 300 (F8 34), field 9 I32.
        let bytes = [0x02, 0x02, b'h', b'i', 0x00, 0xF8, 0x34, 0x1B, 0, 0, 0, 1];
        let records = split(&bytes).unwrap();
        let numbers: Vec<_> = records.iter().map(|r| (r.number, r.wire_type)).collect();
        assert_eq!(numbers, [(1, LEN), (2, VARINT), (9, I32)]);
        assert_eq!(records[0].content(), Some(&b"hi"[..]));
        assert_eq!(join(&records).unwrap(), bytes);
        assert_eq!(join_verbatim(&records), bytes);
    }

    #[test]
    fn join_refuses_an_order_delta_keys_cannot_express() {
        let a = Record::new(2, VARINT, vec![1]);
        let b = Record::new(1, VARINT, vec![1]);
        assert_eq!(join(&[a.clone(), b]).unwrap_err().at, 1);
        assert_eq!(join(&[a.clone(), a]).unwrap_err().at, 1);
    }

    #[test]
    fn split_reports_truncation_instead_of_panicking() {
        assert!(split(&[0x02, 0x05, b'a']).is_err());
        assert!(split(&[0xF9, 0x00]).is_err());
        assert!(protobuf::split(&[0x0A, 0x05, b'a']).is_err());
        assert!(protobuf::split(&[0x08, 0x80]).is_err());
    }

    #[test]
    fn padded_bijou64_is_a_different_number() {
        // 2500 = F9 07 CC (504 + 0x07CC); one tier up: FA 00 09 C4 = 66040 + 2500.
        assert_eq!(bijou64::encode(2500).as_slice(), [0xF9, 0x07, 0xCC]);
        let padded = bijou64_padded(2500).unwrap();
        assert_eq!(padded, [0xFA, 0x00, 0x09, 0xC4]);
        assert_eq!(bijou64::decode(&padded), Ok((68_540, 4)));
        assert_eq!(bijou64_padded(u64::MAX), None);
    }

    #[test]
    fn overlong_protobuf_varint_reads_as_the_same_number() {
        // 2500 = C4 13 in LEB128; overlong: C4 93 00.
        assert_eq!(protobuf::varint(2500), [0xC4, 0x13]);
        assert_eq!(protobuf::overlong_varint(2500), [0xC4, 0x93, 0x00]);
        assert_eq!(protobuf::read_varint(&[0xC4, 0x93, 0x00]), Some((2500, 3)));
    }

    #[test]
    fn map_entries_split_whole() {
        // "b" -> "x", "c" -> "" : 01 62 01 78 01 63 00
        let content = [0x01, b'b', 0x01, b'x', 0x01, b'c', 0x00];
        let entries = split_len_pairs(&content).unwrap();
        assert_eq!(
            entries,
            [vec![0x01, b'b', 0x01, b'x'], vec![0x01, b'c', 0x00]]
        );
        assert!(split_len_pairs(&[0x01, b'b']).is_err());
    }
}
