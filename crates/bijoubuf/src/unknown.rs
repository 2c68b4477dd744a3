//! Unknown fields kept by a preserving decode (SPEC §8.2).

use alloc::vec::Vec;

/// The payload of an unknown field record, by wire type (SPEC §4.2).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum UnknownValue {
    /// Wire type 0: one bijou64.
    Varint(u64),
    /// Wire type 1: eight bytes, read as a big-endian word.
    I64(u64),
    /// Wire type 2: the payload bytes (without the length prefix).
    Len(Vec<u8>),
    /// Wire type 3: four bytes, read as a big-endian word.
    I32(u32),
}

impl UnknownValue {
    /// The wire type number (0 VARINT, 1 I64, 2 LEN, 3 I32).
    pub fn wire_type(&self) -> u8 {
        match self {
            UnknownValue::Varint(_) => 0,
            UnknownValue::I64(_) => 1,
            UnknownValue::Len(_) => 2,
            UnknownValue::I32(_) => 3,
        }
    }

    /// Bytes of the payload on the wire (the length prefix included for LEN).
    pub(crate) fn encoded_len(&self) -> usize {
        match self {
            UnknownValue::Varint(v) => bijou64::encoded_len(*v),
            UnknownValue::I64(_) => 8,
            UnknownValue::I32(_) => 4,
            UnknownValue::Len(b) => bijou64::encoded_len(b.len() as u64) + b.len(),
        }
    }
}

/// One unknown field record: its number and payload.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct UnknownField {
    /// The field number (1..=2^29−1).
    pub number: u32,
    /// The payload.
    pub value: UnknownValue,
}

/// The unknown field records of one message, in ascending number order.
///
/// Only a preserving decode fills this; encoding re-emits the records among the known
/// fields in number order, so decode → encode gives back the input byte for byte.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct UnknownFields {
    records: Vec<UnknownField>,
}

impl UnknownFields {
    /// No records.
    pub const fn new() -> Self {
        UnknownFields {
            records: Vec::new(),
        }
    }

    /// True when the message held no unknown field.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The number of unknown records.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// The records, in ascending number order.
    pub fn as_slice(&self) -> &[UnknownField] {
        &self.records
    }

    /// Drop every record (the message then encodes without them).
    pub fn clear(&mut self) {
        self.records.clear();
    }

    pub(crate) fn push(&mut self, f: UnknownField) {
        self.records.push(f);
    }
}

impl From<UnknownFields> for Vec<UnknownField> {
    /// The records, in ascending number order.
    fn from(u: UnknownFields) -> Self {
        u.records
    }
}

impl<'a> IntoIterator for &'a UnknownFields {
    type Item = &'a UnknownField;
    type IntoIter = core::slice::Iter<'a, UnknownField>;
    fn into_iter(self) -> Self::IntoIter {
        self.records.iter()
    }
}
