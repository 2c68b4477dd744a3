//! A [`DescriptorPool`] from a protobuf `FileDescriptorSet` (what `protoc
//! --descriptor_set_out` and `bijoubuf compile --descriptor-set-out` write), for tools
//! that receive schemas as descriptors instead of `.proto` text.
//!
//! Presence follows SPEC §5 from the descriptor: proto2 singular fields and proto3
//! fields that are `optional`, message-typed or in a oneof have explicit presence;
//! `LABEL_REQUIRED` is required; repeated fields whose type is a map-entry message are
//! maps. In an edition (2023, 2024) the `field_presence` feature decides, set on the
//! field or else on the file (explicit by default), as bijoubuf-schema resolves it:
//! message fields and oneof members always track presence, LEGACY_REQUIRED is
//! required. `prost_types` descriptors cannot hold features, so editions are read from
//! a set's bytes ([`DescriptorPool::decode_file_descriptor_set`]).

mod editions;

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use bijoubuf_schema::{Presence, ScalarType};
use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{DescriptorProto, EnumDescriptorProto, FileDescriptorSet};

use crate::descriptor::{DescriptorPool, EnumInfo, FieldInfo, MsgInfo, Pool, Shape, Ty, TypeIdx};

/// Why a descriptor set cannot be used. One [`code`](Self::code),
/// `invalid-descriptor-set`; the message says what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DescriptorError {
    message: String,
}

impl DescriptorError {
    /// The stable kebab-case code: `invalid-descriptor-set`.
    pub fn code(&self) -> &'static str {
        "invalid-descriptor-set"
    }
}

impl fmt::Display for DescriptorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid descriptor set: {}", self.message)
    }
}

impl std::error::Error for DescriptorError {}

fn err(message: impl Into<String>) -> DescriptorError {
    DescriptorError {
        message: message.into(),
    }
}

/// How a file decides presence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rules {
    Proto2,
    Proto3,
    /// An edition, with the features its file sets.
    Edition(editions::Set),
}

struct Msg<'a> {
    full_name: String,
    proto: &'a DescriptorProto,
    rules: Rules,
    /// In an edition: the features set in the message (by field index).
    features: Option<&'a editions::MessageFeatures>,
}

impl DescriptorPool {
    /// Index the messages and enums of a decoded `FileDescriptorSet`.
    ///
    /// Every index and reference the pool relies on is checked here, so that a bad one
    /// is an error now instead of a check silently skipped while decoding.
    ///
    /// # Errors
    /// Groups (not part of bijoubuf v1), edition files (their features are not in
    /// `prost_types` descriptors: use
    /// [`decode_file_descriptor_set`](Self::decode_file_descriptor_set)), type names defined twice or that
    /// resolve to nothing or to the wrong kind, field types and labels that are not
    /// values of their enums, field numbers outside 1..=2^29−1 or used twice, field or
    /// JSON names used twice in a message, enum value names used twice, a `oneof_index`
    /// naming no oneof of the message, a repeated, map or required oneof member, a
    /// proto3 `optional` field outside a oneof of its own, and map entries that are not
    /// exactly an optional key 1 and value 2.
    pub fn from_file_descriptor_set(set: &FileDescriptorSet) -> Result<Self, DescriptorError> {
        Self::from_set(set, None)
    }

    /// The pool of `set`; `features` are its files' edition features, read from its
    /// bytes (without them, an edition file is refused).
    fn from_set(
        set: &FileDescriptorSet,
        features: Option<&[editions::FileFeatures]>,
    ) -> Result<Self, DescriptorError> {
        let mut by_name = HashMap::new();
        let mut msgs: Vec<Msg<'_>> = Vec::new();
        let mut enums: Vec<(String, &EnumDescriptorProto)> = Vec::new();
        for (fi, file) in set.file.iter().enumerate() {
            let file_features = features.and_then(|f| f.get(fi));
            let rules = match file.syntax.as_deref() {
                None | Some("") | Some("proto2") => Rules::Proto2,
                Some("proto3") => Rules::Proto3,
                Some("editions") => match file_features {
                    Some(f) => Rules::Edition(f.file),
                    None => {
                        return Err(err(format!(
                            "{}: an edition's features are not in prost_types descriptors; \
                             build the pool from the set's bytes \
                             (DescriptorPool::decode_file_descriptor_set)",
                            file.name()
                        )));
                    }
                },
                Some(other) => {
                    return Err(err(format!(
                        "{}: syntax {other:?} is not supported",
                        file.name()
                    )));
                }
            };
            let prefix = match file.package() {
                "" => String::new(),
                p => format!("{p}."),
            };
            for e in &file.enum_type {
                let name = format!("{prefix}{}", e.name());
                define(&mut by_name, &name, TypeIdx::Enum(enums.len()))?;
                enums.push((name, e));
            }
            for (i, m) in file.message_type.iter().enumerate() {
                let features = file_features.and_then(|f| f.messages.get(i));
                let at = Scope {
                    prefix: &prefix,
                    rules,
                    features,
                };
                collect(m, &at, &mut msgs, &mut enums, &mut by_name)?;
            }
        }
        let resolve = |field: &str, name: &str| -> Result<TypeIdx, DescriptorError> {
            by_name
                .get(name.strip_prefix('.').unwrap_or(name))
                .copied()
                .ok_or_else(|| err(format!("{field}: type {name:?} is not defined")))
        };
        let mut messages = Vec::with_capacity(msgs.len());
        for m in &msgs {
            let mut fields = Vec::with_capacity(m.proto.field.len());
            for (i, f) in m.proto.field.iter().enumerate() {
                let path = format!("{}.{}", m.full_name, f.name());
                let set = m
                    .features
                    .and_then(|mf| mf.fields.get(i))
                    .copied()
                    .unwrap_or_default();
                fields.push(field_info(m, f, set, &path, &resolve, &msgs)?);
            }
            fields.sort_by_key(|f: &FieldInfo| f.number);
            if fields.windows(2).any(|w| w[0].number == w[1].number) {
                return Err(err(format!(
                    "{}: a field number is used twice",
                    m.full_name
                )));
            }
            check_names(&m.full_name, &fields)?;
            check_oneofs(m)?;
            let synthetic: Vec<bool> = (0..m.proto.oneof_decl.len())
                .map(|i| {
                    m.proto
                        .field
                        .iter()
                        .any(|f| f.oneof_index == Some(i as i32) && f.proto3_optional())
                })
                .collect();
            messages.push(MsgInfo {
                full_name: m.full_name.clone(),
                name: m.proto.name().to_string(),
                numbers: fields.iter().map(|f| f.number).collect(),
                fields,
                oneofs: m
                    .proto
                    .oneof_decl
                    .iter()
                    .zip(synthetic)
                    .map(|(o, s)| (o.name().to_string(), s))
                    .collect(),
                map_entry: is_map_entry(m.proto),
            });
        }
        for (full_name, e) in &enums {
            let mut names: Vec<&str> = e.value.iter().map(|v| v.name()).collect();
            names.sort_unstable();
            if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
                return Err(err(format!(
                    "{full_name}: value name {:?} is used twice",
                    w[0]
                )));
            }
        }
        let enums = enums
            .iter()
            .map(|(full_name, e)| EnumInfo {
                full_name: full_name.clone(),
                name: e.name().to_string(),
                values: e
                    .value
                    .iter()
                    .map(|v| (v.name().to_string(), v.number()))
                    .collect(),
            })
            .collect();
        Ok(DescriptorPool::from_pool(Arc::new(Pool {
            messages,
            enums,
            by_name,
        })))
    }

    /// [`from_file_descriptor_set`](Self::from_file_descriptor_set) from its encoded
    /// bytes, editions included: their features are read from the bytes, where
    /// `prost_types` descriptors have no room for them.
    ///
    /// # Errors
    /// Bytes that are not a `FileDescriptorSet`, and everything
    /// [`from_file_descriptor_set`](Self::from_file_descriptor_set) refuses.
    pub fn decode_file_descriptor_set(bytes: &[u8]) -> Result<Self, DescriptorError> {
        let set = <FileDescriptorSet as prost::Message>::decode(bytes)
            .map_err(|e| err(format!("not a FileDescriptorSet: {e}")))?;
        Self::from_set(&set, Some(&editions::read(bytes)))
    }
}

fn is_map_entry(m: &DescriptorProto) -> bool {
    m.options
        .as_ref()
        .and_then(|o| o.map_entry)
        .unwrap_or(false)
}

/// Enter a type name; a name defined twice would leave one of the two unreachable.
fn define(
    by_name: &mut HashMap<String, TypeIdx>,
    name: &str,
    idx: TypeIdx,
) -> Result<(), DescriptorError> {
    if by_name.insert(name.to_string(), idx).is_some() {
        return Err(err(format!("type {name:?} is defined twice")));
    }
    Ok(())
}

/// Field names and JSON names within one message name one field each (lookups by name
/// and the JSON mapping rely on it).
fn check_names(message: &str, fields: &[FieldInfo]) -> Result<(), DescriptorError> {
    for (what, key) in [
        (
            "field name",
            (|f: &FieldInfo| f.name.as_str()) as fn(&FieldInfo) -> &str,
        ),
        ("JSON name", |f: &FieldInfo| f.json_name.as_str()),
    ] {
        let mut names: Vec<&str> = fields.iter().map(key).collect();
        names.sort_unstable();
        if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
            return Err(err(format!("{message}: {what} {:?} is used twice", w[0])));
        }
    }
    Ok(())
}

/// Every `oneof_index` names a oneof of the message (the decoder's `oneof-conflict`
/// check, SPEC §5.4, indexes by it); oneof members are singular and not required; a
/// proto3 `optional` field is the only member of its (synthetic) oneof.
fn check_oneofs(m: &Msg<'_>) -> Result<(), DescriptorError> {
    let decls = m.proto.oneof_decl.len();
    let mut members = vec![0usize; decls];
    for f in &m.proto.field {
        let path = format!("{}.{}", m.full_name, f.name());
        let Some(i) = f.oneof_index else {
            if f.proto3_optional() {
                return Err(err(format!(
                    "{path}: a proto3 optional field needs its synthetic oneof"
                )));
            }
            continue;
        };
        let Some(n) = usize::try_from(i).ok().and_then(|i| members.get_mut(i)) else {
            return Err(err(format!(
                "{path}: oneof_index {i} names no oneof ({} has {decls})",
                m.full_name
            )));
        };
        *n += 1;
        if f.label() != Label::Optional {
            return Err(err(format!(
                "{path}: a oneof member must be a singular field, not {:?}",
                f.label()
            )));
        }
    }
    for f in &m.proto.field {
        if let (true, Some(i)) = (f.proto3_optional(), f.oneof_index)
            && members[i as usize] != 1
        {
            return Err(err(format!(
                "{}.{}: a proto3 optional field shares its oneof",
                m.full_name,
                f.name()
            )));
        }
    }
    Ok(())
}

/// Where a message is declared: its scope's name prefix, its file's rules, and the
/// features set in it.
struct Scope<'s, 'a> {
    prefix: &'s str,
    rules: Rules,
    features: Option<&'a editions::MessageFeatures>,
}

fn collect<'a>(
    m: &'a DescriptorProto,
    at: &Scope<'_, 'a>,
    msgs: &mut Vec<Msg<'a>>,
    enums: &mut Vec<(String, &'a EnumDescriptorProto)>,
    by_name: &mut HashMap<String, TypeIdx>,
) -> Result<(), DescriptorError> {
    let full_name = format!("{}{}", at.prefix, m.name());
    define(by_name, &full_name, TypeIdx::Message(msgs.len()))?;
    msgs.push(Msg {
        full_name: full_name.clone(),
        proto: m,
        rules: at.rules,
        features: at.features,
    });
    let inner = format!("{full_name}.");
    for e in &m.enum_type {
        let name = format!("{inner}{}", e.name());
        define(by_name, &name, TypeIdx::Enum(enums.len()))?;
        enums.push((name, e));
    }
    for (i, n) in m.nested_type.iter().enumerate() {
        let scope = Scope {
            prefix: &inner,
            rules: at.rules,
            features: at.features.and_then(|f| f.nested.get(i)),
        };
        collect(n, &scope, msgs, enums, by_name)?;
    }
    Ok(())
}

fn scalar(t: Type) -> Option<ScalarType> {
    ScalarType::from_descriptor_type(t)
}

fn element(
    f: &prost_types::FieldDescriptorProto,
    path: &str,
    resolve: &impl Fn(&str, &str) -> Result<TypeIdx, DescriptorError>,
) -> Result<Ty, DescriptorError> {
    // `r#type()` would read a missing or unknown number as `double`.
    let t = match f.r#type {
        Some(n) => Type::try_from(n).map_err(|_| {
            err(format!(
                "{path}: field type {n} is not a FieldDescriptorProto.Type"
            ))
        })?,
        // descriptor.proto lets a resolved `type_name` stand for the type.
        None => match resolve(path, f.type_name())? {
            TypeIdx::Enum(_) => Type::Enum,
            TypeIdx::Message(_) => Type::Message,
        },
    };
    if t == Type::Group {
        return Err(err(format!("{path}: groups are not part of bijoubuf")));
    }
    if let Some(s) = scalar(t) {
        return Ok(Ty::Scalar(s));
    }
    match (t, resolve(path, f.type_name())?) {
        (Type::Enum, TypeIdx::Enum(i)) => Ok(Ty::Enum(i)),
        (Type::Message, TypeIdx::Message(i)) => Ok(Ty::Message(i)),
        _ => Err(err(format!(
            "{path}: type {:?} is of the wrong kind",
            f.type_name()
        ))),
    }
}

fn field_info(
    m: &Msg<'_>,
    f: &prost_types::FieldDescriptorProto,
    features: editions::Set,
    path: &str,
    resolve: &impl Fn(&str, &str) -> Result<TypeIdx, DescriptorError>,
    msgs: &[Msg<'_>],
) -> Result<FieldInfo, DescriptorError> {
    let number = u32::try_from(f.number())
        .ok()
        .filter(|n| (1..=(1 << 29) - 1).contains(n))
        .ok_or_else(|| {
            err(format!(
                "{path}: field number {} is out of range",
                f.number()
            ))
        })?;
    let ty = element(f, path, resolve)?;
    // In range: checked by `check_oneofs`.
    let oneof = f.oneof_index.and_then(|i| usize::try_from(i).ok());
    let label = match f.label {
        None => Label::Optional,
        Some(n) => Label::try_from(n).map_err(|_| {
            err(format!(
                "{path}: label {n} is not a FieldDescriptorProto.Label"
            ))
        })?,
    };
    let (ty, shape) = match label {
        Label::Repeated => match ty {
            Ty::Message(i) if is_map_entry(msgs[i].proto) => {
                let entry = msgs[i].proto;
                // Exactly `optional key = 1; optional value = 2;`, as protoc writes them.
                if entry.field.len() != 2
                    || entry
                        .field
                        .iter()
                        .any(|e| e.label.is_some_and(|l| l != Label::Optional as i32))
                {
                    return Err(err(format!(
                        "{path}: a map entry is exactly an optional key 1 and value 2"
                    )));
                }
                let part = |n: i32| {
                    entry
                        .field
                        .iter()
                        .find(|e| e.number() == n)
                        .ok_or_else(|| err(format!("{path}: map entry without field {n}")))
                };
                // SPEC §6.3: integer, bool or string keys (their order is §6.4's).
                let key = scalar(part(1)?.r#type())
                    .filter(|k| k.is_valid_map_key())
                    .ok_or_else(|| {
                        err(format!(
                            "{path}: map key type is not an integer, bool or string"
                        ))
                    })?;
                (element(part(2)?, path, resolve)?, Shape::Map(key))
            }
            _ => (ty, Shape::Repeated),
        },
        Label::Required => (ty, Shape::Single(Presence::Required)),
        Label::Optional => {
            let p = match m.rules {
                Rules::Proto2 => Presence::Explicit,
                Rules::Proto3 => {
                    let implicit =
                        !f.proto3_optional() && oneof.is_none() && !matches!(ty, Ty::Message(_));
                    if implicit {
                        Presence::Implicit
                    } else {
                        Presence::Explicit
                    }
                }
                Rules::Edition(file) => edition_presence(features, file, &ty, oneof, path)?,
            };
            (ty, Shape::Single(p))
        }
    };
    Ok(FieldInfo {
        name: f.name().to_string(),
        json_name: f.json_name.clone().unwrap_or_else(|| lower_camel(f.name())),
        number,
        ty,
        shape,
        oneof,
    })
}

/// A singular field's presence in an edition: its `field_presence`, else its file's,
/// else EXPLICIT; message fields and oneof members track presence whatever it says,
/// unless LEGACY_REQUIRED.
fn edition_presence(
    field: editions::Set,
    file: editions::Set,
    ty: &Ty,
    oneof: Option<usize>,
    path: &str,
) -> Result<Presence, DescriptorError> {
    if matches!(ty, Ty::Message(_)) && field.encoding.or(file.encoding) == Some(editions::DELIMITED)
    {
        return Err(err(format!(
            "{path}: message_encoding = DELIMITED (group encoding) is not part of bijoubuf"
        )));
    }
    Ok(match field.presence.or(file.presence) {
        Some(editions::LEGACY_REQUIRED) => Presence::Required,
        Some(editions::IMPLICIT) if oneof.is_none() && !matches!(ty, Ty::Message(_)) => {
            Presence::Implicit
        }
        _ => Presence::Explicit,
    })
}

/// protoc's default JSON name: underscores dropped, the next letter upper-cased.
fn lower_camel(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut up = false;
    for c in name.chars() {
        if c == '_' {
            up = true;
        } else if up {
            out.extend(c.to_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}
