//! A [`DescriptorPool`] from a protobuf `FileDescriptorSet` (what `protoc
//! --descriptor_set_out` and `bijoubuf compile --descriptor-set-out` write), for tools
//! that receive schemas as descriptors instead of `.proto` text.
//!
//! Presence follows SPEC §5 from the descriptor: proto2 singular fields and proto3
//! fields that are `optional`, message-typed or in a oneof have explicit presence;
//! `LABEL_REQUIRED` is required; repeated fields whose type is a map-entry message are
//! maps.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use bijoubuf_schema::{Presence, ScalarType};
use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{DescriptorProto, EnumDescriptorProto, FileDescriptorSet};

use crate::descriptor::{DescriptorPool, EnumInfo, FieldInfo, MsgInfo, Pool, Shape, Ty, TypeIdx};

/// Why a descriptor set cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DescriptorError {
    message: String,
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

struct Msg<'a> {
    full_name: String,
    proto: &'a DescriptorProto,
    proto3: bool,
}

impl DescriptorPool {
    /// Index the messages and enums of a decoded `FileDescriptorSet`.
    ///
    /// # Errors
    /// Groups and editions (not part of bijoubuf v1), type names that resolve to
    /// nothing, field numbers outside 1..=2^29−1, and map entries without key and value.
    pub fn from_file_descriptor_set(set: &FileDescriptorSet) -> Result<Self, DescriptorError> {
        let mut by_name = HashMap::new();
        let mut msgs: Vec<Msg<'_>> = Vec::new();
        let mut enums: Vec<(String, &EnumDescriptorProto)> = Vec::new();
        for file in &set.file {
            let proto3 = match file.syntax.as_deref() {
                None | Some("") | Some("proto2") => false,
                Some("proto3") => true,
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
                by_name.insert(name.clone(), TypeIdx::Enum(enums.len()));
                enums.push((name, e));
            }
            for m in &file.message_type {
                collect(m, &prefix, proto3, &mut msgs, &mut enums, &mut by_name);
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
            for f in &m.proto.field {
                let path = format!("{}.{}", m.full_name, f.name());
                fields.push(field_info(m, f, &path, &resolve, &msgs)?);
            }
            fields.sort_by_key(|f: &FieldInfo| f.number);
            if fields.windows(2).any(|w| w[0].number == w[1].number) {
                return Err(err(format!(
                    "{}: a field number is used twice",
                    m.full_name
                )));
            }
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
    /// bytes.
    ///
    /// # Errors
    /// Bytes that are not a `FileDescriptorSet`, and everything
    /// [`from_file_descriptor_set`](Self::from_file_descriptor_set) refuses.
    pub fn decode_file_descriptor_set(bytes: &[u8]) -> Result<Self, DescriptorError> {
        let set = <FileDescriptorSet as prost::Message>::decode(bytes)
            .map_err(|e| err(format!("not a FileDescriptorSet: {e}")))?;
        Self::from_file_descriptor_set(&set)
    }
}

fn is_map_entry(m: &DescriptorProto) -> bool {
    m.options
        .as_ref()
        .and_then(|o| o.map_entry)
        .unwrap_or(false)
}

fn collect<'a>(
    m: &'a DescriptorProto,
    prefix: &str,
    proto3: bool,
    msgs: &mut Vec<Msg<'a>>,
    enums: &mut Vec<(String, &'a EnumDescriptorProto)>,
    by_name: &mut HashMap<String, TypeIdx>,
) {
    let full_name = format!("{prefix}{}", m.name());
    by_name.insert(full_name.clone(), TypeIdx::Message(msgs.len()));
    msgs.push(Msg {
        full_name: full_name.clone(),
        proto: m,
        proto3,
    });
    let inner = format!("{full_name}.");
    for e in &m.enum_type {
        let name = format!("{inner}{}", e.name());
        by_name.insert(name.clone(), TypeIdx::Enum(enums.len()));
        enums.push((name, e));
    }
    for n in &m.nested_type {
        collect(n, &inner, proto3, msgs, enums, by_name);
    }
}

fn scalar(t: Type) -> Option<ScalarType> {
    use ScalarType as S;
    Some(match t {
        Type::Double => S::Double,
        Type::Float => S::Float,
        Type::Int64 => S::Int64,
        Type::Uint64 => S::Uint64,
        Type::Int32 => S::Int32,
        Type::Fixed64 => S::Fixed64,
        Type::Fixed32 => S::Fixed32,
        Type::Bool => S::Bool,
        Type::String => S::String,
        Type::Bytes => S::Bytes,
        Type::Uint32 => S::Uint32,
        Type::Sfixed32 => S::Sfixed32,
        Type::Sfixed64 => S::Sfixed64,
        Type::Sint32 => S::Sint32,
        Type::Sint64 => S::Sint64,
        Type::Group | Type::Message | Type::Enum => return None,
    })
}

fn element(
    f: &prost_types::FieldDescriptorProto,
    path: &str,
    resolve: &impl Fn(&str, &str) -> Result<TypeIdx, DescriptorError>,
) -> Result<Ty, DescriptorError> {
    let t = f.r#type();
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
    let oneof = f.oneof_index.and_then(|i| usize::try_from(i).ok());
    let (ty, shape) = match f.label() {
        Label::Repeated => match ty {
            Ty::Message(i) if is_map_entry(msgs[i].proto) => {
                let entry = msgs[i].proto;
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
            let implicit = m.proto3
                && !f.proto3_optional()
                && oneof.is_none()
                && !matches!(ty, Ty::Message(_));
            let p = if implicit {
                Presence::Implicit
            } else {
                Presence::Explicit
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
