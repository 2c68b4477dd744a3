//! The edition features of a set's files, read from the set's bytes: `prost_types`
//! descriptors have no `features` (their descriptor.proto predates editions), so a set
//! decoded into them has lost what decides a field's presence.
//!
//! Only what bijoubuf's model depends on is kept: `field_presence` (file and field
//! level, the only places descriptor.proto lets it be set) and `message_encoding`
//! (DELIMITED, group encoding, is refused).

/// `FeatureSet.field_presence` values.
pub(super) const IMPLICIT: u64 = 2;
pub(super) const LEGACY_REQUIRED: u64 = 3;
/// `FeatureSet.message_encoding = DELIMITED`.
pub(super) const DELIMITED: u64 = 2;

/// The two features of one element, as set on it (not inherited).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Set {
    pub(super) presence: Option<u64>,
    pub(super) encoding: Option<u64>,
}

/// The features set in a message: its fields' (by index) and its nested messages'.
#[derive(Clone, Debug, Default)]
pub(super) struct MessageFeatures {
    pub(super) fields: Vec<Set>,
    pub(super) nested: Vec<MessageFeatures>,
}

/// The features set in a file.
#[derive(Clone, Debug, Default)]
pub(super) struct FileFeatures {
    pub(super) file: Set,
    pub(super) messages: Vec<MessageFeatures>,
}

/// A record: field number, wire type, payload (length-delimited) and value (varint).
type Record<'a> = (u64, u8, &'a [u8], u64);

/// The records of `b`; `None` if the bytes are not a message.
fn records(b: &[u8]) -> Option<Vec<Record<'_>>> {
    fn varint(b: &[u8], i: &mut usize) -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let x = *b.get(*i)?;
            *i += 1;
            v |= u64::from(x & 0x7f) << shift;
            if x < 0x80 {
                return Some(v);
            }
        }
        None
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let key = varint(b, &mut i)?;
        let wire = (key & 7) as u8;
        match wire {
            0 => {
                let v = varint(b, &mut i)?;
                out.push((key >> 3, wire, &b[..0], v));
            }
            1 | 5 => {
                let n = if wire == 1 { 8 } else { 4 };
                let end = i.checked_add(n).filter(|&e| e <= b.len())?;
                out.push((key >> 3, wire, &b[i..end], 0));
                i = end;
            }
            2 => {
                let len = usize::try_from(varint(b, &mut i)?).ok()?;
                let end = i.checked_add(len).filter(|&e| e <= b.len())?;
                out.push((key >> 3, wire, &b[i..end], 0));
                i = end;
            }
            _ => return None,
        }
    }
    Some(out)
}

/// The payloads of the length-delimited records numbered `n`.
fn messages(b: &[u8], n: u64) -> Vec<&[u8]> {
    records(b)
        .unwrap_or_default()
        .into_iter()
        .filter(|r| r.0 == n && r.1 == 2)
        .map(|r| r.2)
        .collect()
}

/// The features set in options messages whose `features` field is `number` (the last
/// value of each wins, as when protobuf merges them).
fn set(options: &[&[u8]], number: u64) -> Set {
    let mut out = Set::default();
    for o in options {
        for f in messages(o, number) {
            for (n, wire, _, v) in records(f).unwrap_or_default() {
                match (n, wire) {
                    (1, 0) => out.presence = Some(v),
                    (5, 0) => out.encoding = Some(v),
                    _ => {}
                }
            }
        }
    }
    out
}

fn message(b: &[u8]) -> MessageFeatures {
    MessageFeatures {
        // DescriptorProto.field (2): FieldDescriptorProto.options (8),
        // FieldOptions.features (21).
        fields: messages(b, 2)
            .into_iter()
            .map(|f| set(&messages(f, 8), 21))
            .collect(),
        nested: messages(b, 3).into_iter().map(message).collect(),
    }
}

/// The features of each file of an encoded `FileDescriptorSet`, in order.
pub(super) fn read(set_bytes: &[u8]) -> Vec<FileFeatures> {
    messages(set_bytes, 1)
        .into_iter()
        .map(|file| FileFeatures {
            // FileDescriptorProto.options (8), FileOptions.features (50).
            file: set(&messages(file, 8), 50),
            messages: messages(file, 4).into_iter().map(message).collect(),
        })
        .collect()
}
