//! Unknown fields kept by a preserving decode (SPEC §8.2).

use alloc::boxed::Box;
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
///
/// Every generated message holds one and almost none holds a record, so an empty set
/// is one null pointer: 8 bytes in each message where a vector would take 24
/// (benches/RESULTS.md, "Unknown fields in 8 bytes").
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct UnknownFields {
    /// `None` when there is no record: never `Some` of an empty vector, so that equal
    /// sets compare and hash equal. The vector is boxed for the pointer's size: the extra
    /// allocation is paid only by a message that holds a record.
    #[allow(clippy::box_collection)]
    records: Option<Box<Vec<UnknownField>>>,
}

impl UnknownFields {
    /// No records.
    pub const fn new() -> Self {
        UnknownFields { records: None }
    }

    /// True when the message held no unknown field.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.records.is_none()
    }

    /// The number of unknown records.
    pub fn len(&self) -> usize {
        self.as_slice().len()
    }

    /// The records, in ascending number order.
    #[inline]
    pub fn as_slice(&self) -> &[UnknownField] {
        match &self.records {
            Some(records) => records,
            None => &[],
        }
    }

    /// Drop every record (the message then encodes without them).
    pub fn clear(&mut self) {
        self.records = None;
    }

    pub(crate) fn push(&mut self, f: UnknownField) {
        self.records.get_or_insert_with(Box::default).push(f);
    }
}

impl core::fmt::Debug for UnknownFields {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("UnknownFields")
            .field("records", &self.as_slice())
            .finish()
    }
}

impl From<UnknownFields> for Vec<UnknownField> {
    /// The records, in ascending number order.
    fn from(u: UnknownFields) -> Self {
        u.records.map_or_else(Vec::new, |records| *records)
    }
}

impl<'a> IntoIterator for &'a UnknownFields {
    type Item = &'a UnknownField;
    type IntoIter = core::slice::Iter<'a, UnknownField>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}
