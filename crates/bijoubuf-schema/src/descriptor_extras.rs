//! What an encoded `FileDescriptorProto` holds beyond `prost_types`' copy of
//! descriptor.proto: the edition, `features` at every level, `export`/`local`
//! visibility and `import option`. Read from the bytes along the same paths as
//! source-code info (field number, index, …), so the writer finds them as it finds
//! comments.

use std::collections::HashMap;

/// The parts of a file's descriptor `prost_types` drops.
#[derive(Debug, Default)]
pub(crate) struct Extras {
    /// `FileDescriptorProto.edition` (1000 is 2023).
    pub(crate) edition: Option<u64>,
    /// `import option` files, as the bytes say them (the writer refuses what is not
    /// UTF-8).
    pub(crate) option_dependency: Vec<Vec<u8>>,
    /// The `features` set on each element (the file's path is empty): field number and
    /// value of each feature, in order.
    pub(crate) features: HashMap<Vec<i32>, Vec<(u32, u64)>>,
    /// `visibility` of messages and enums: 1 `local`, 2 `export`.
    pub(crate) visibility: HashMap<Vec<i32>, u64>,
}

/// The kinds of descriptor along a path.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    File,
    Message,
    Field,
    Oneof,
    Enum,
    Value,
    Service,
    Method,
}

impl Kind {
    /// The kind of the elements of list field `number`, if it is one.
    fn child(self, number: u32) -> Option<Kind> {
        Some(match (self, number) {
            (Kind::File, 4) | (Kind::Message, 3) => Kind::Message,
            (Kind::File, 5) | (Kind::Message, 4) => Kind::Enum,
            (Kind::File, 6) => Kind::Service,
            (Kind::File, 7) | (Kind::Message, 2 | 6) => Kind::Field,
            (Kind::Message, 8) => Kind::Oneof,
            (Kind::Enum, 2) => Kind::Value,
            (Kind::Service, 2) => Kind::Method,
            _ => return None,
        })
    }

    /// The field numbers of the options, and of `features` inside them.
    fn options(self) -> (u32, u32) {
        match self {
            Kind::File => (8, 50),
            Kind::Message => (7, 12),
            Kind::Field => (8, 21),
            Kind::Oneof => (2, 1),
            Kind::Enum => (3, 7),
            Kind::Value => (3, 2),
            Kind::Service => (3, 34),
            Kind::Method => (4, 35),
        }
    }

    fn visibility(self) -> Option<u32> {
        match self {
            Kind::Message => Some(11),
            Kind::Enum => Some(6),
            _ => None,
        }
    }
}

/// A record's value.
pub(crate) enum Value<'a> {
    Varint(u64),
    Bytes(&'a [u8]),
    Other,
}

/// The records of `bytes` (prost's reader), or `None` if they do not parse.
pub(crate) fn records(mut bytes: &[u8]) -> Option<Vec<(u32, Value<'_>)>> {
    use prost::encoding::{WireType, decode_key, decode_varint};
    let mut out = Vec::new();
    while !bytes.is_empty() {
        let (number, wire_type) = decode_key(&mut bytes).ok()?;
        let value = match wire_type {
            WireType::Varint => Value::Varint(decode_varint(&mut bytes).ok()?),
            WireType::LengthDelimited => {
                let len = usize::try_from(decode_varint(&mut bytes).ok()?).ok()?;
                let (payload, rest) = (bytes.get(..len)?, bytes.get(len..)?);
                bytes = rest;
                Value::Bytes(payload)
            }
            WireType::SixtyFourBit => {
                bytes = bytes.get(8..)?;
                Value::Other
            }
            WireType::ThirtyTwoBit => {
                bytes = bytes.get(4..)?;
                Value::Other
            }
            WireType::StartGroup | WireType::EndGroup => return None,
        };
        out.push((number, value));
    }
    Some(out)
}

/// The extras of an encoded `FileDescriptorProto`, or `None` if it does not parse.
pub(crate) fn read(bytes: &[u8]) -> Option<Extras> {
    let mut extras = Extras::default();
    walk(Kind::File, bytes, &mut Vec::new(), &mut extras)?;
    Some(extras)
}

fn walk(kind: Kind, bytes: &[u8], path: &mut Vec<i32>, extras: &mut Extras) -> Option<()> {
    let mut counts: HashMap<u32, i32> = HashMap::new();
    let (options, features) = kind.options();
    for (number, value) in records(bytes)? {
        match value {
            Value::Varint(v) if kind == Kind::File && number == 14 => extras.edition = Some(v),
            Value::Varint(v) if kind.visibility() == Some(number) => {
                extras.visibility.insert(path.clone(), v);
            }
            Value::Bytes(b) if kind == Kind::File && number == 15 => {
                extras.option_dependency.push(b.to_vec());
            }
            Value::Bytes(b) if number == options => {
                for (n, v) in records(b)? {
                    if let (true, Value::Bytes(set)) = (n == features, v) {
                        for (feature, v) in records(set)? {
                            if let Value::Varint(v) = v {
                                extras
                                    .features
                                    .entry(path.clone())
                                    .or_default()
                                    .push((feature, v));
                            }
                        }
                    }
                }
            }
            Value::Bytes(b) => {
                if let Some(child) = kind.child(number) {
                    let index = counts.entry(number).or_default();
                    path.extend([number as i32, *index]);
                    *index += 1;
                    walk(child, b, path, extras)?;
                    path.truncate(path.len() - 2);
                }
            }
            _ => {}
        }
    }
    Some(())
}

/// `features.NAME = VALUE` of feature `number` set to `value`, if this crate knows it.
pub(crate) fn feature(number: u32, value: u64) -> Option<String> {
    let (name, values): (&str, &[&str]) = match number {
        1 => (
            "field_presence",
            &["", "EXPLICIT", "IMPLICIT", "LEGACY_REQUIRED"],
        ),
        2 => ("enum_type", &["", "OPEN", "CLOSED"]),
        3 => ("repeated_field_encoding", &["", "PACKED", "EXPANDED"]),
        4 => ("utf8_validation", &["", "", "VERIFY", "NONE"]),
        5 => ("message_encoding", &["", "LENGTH_PREFIXED", "DELIMITED"]),
        6 => ("json_format", &["", "ALLOW", "LEGACY_BEST_EFFORT"]),
        7 => (
            "enforce_naming_style",
            &["", "STYLE2024", "STYLE_LEGACY", "STYLE2026"],
        ),
        8 => (
            "default_symbol_visibility",
            &["", "EXPORT_ALL", "EXPORT_TOP_LEVEL", "LOCAL_ALL", "STRICT"],
        ),
        9 => (
            "enforce_proto_limits",
            &["", "LEGACY_NO_EXPLICIT_LIMITS", "PROTO_LIMITS2026"],
        ),
        _ => return None,
    };
    let spelled = values.get(usize::try_from(value).ok()?)?;
    (!spelled.is_empty()).then(|| format!("features.{name} = {spelled}"))
}
