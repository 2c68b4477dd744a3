//! Run-time descriptors: an indexed copy of a checked [`Schema`] that decoding, encoding
//! and the JSON mapping walk without string lookups.
//!
//! Handles ([`MessageDescriptor`], [`FieldDescriptor`], [`EnumDescriptor`]) are an
//! `Arc` to the pool plus an index: cheap to clone, `Send + Sync`, and equal when they
//! name the same definition of the same pool.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use bijoubuf::__private::WireType;
use bijoubuf_schema::{
    Cardinality, EnumDef, FieldDef, FieldType, MessageDef, Presence, ScalarType, Schema,
};

/// Every message and enum of a schema, indexed; the root of all descriptor handles.
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let compiled = bijoubuf_schema::compile_sources(&[(
///     "p.proto",
///     "syntax = \"proto3\"; package p; message M { uint32 a = 1; }",
/// )])?;
/// let pool = bijoubuf_reflect::DescriptorPool::new(&compiled.schema);
/// let m = pool.message("p.M").ok_or("no p.M")?;
/// assert_eq!(m.name(), "M");
/// assert_eq!(m.field(1).map(|f| f.name().to_string()).as_deref(), Some("a"));
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct DescriptorPool {
    inner: Arc<Pool>,
}

#[derive(Debug)]
pub(crate) struct Pool {
    pub(crate) messages: Vec<MsgInfo>,
    pub(crate) enums: Vec<EnumInfo>,
    pub(crate) by_name: HashMap<String, TypeIdx>,
}

#[derive(Debug, Clone, Copy)]
pub(crate) enum TypeIdx {
    Message(usize),
    Enum(usize),
}

#[derive(Debug)]
pub(crate) struct MsgInfo {
    pub(crate) full_name: String,
    pub(crate) name: String,
    /// In field-number order.
    pub(crate) fields: Vec<FieldInfo>,
    /// The fields' numbers, ascending: the numbers preserved unknown records may not use
    /// (SPEC §8.2), as the runtime's encoder takes them.
    pub(crate) numbers: Vec<u32>,
    /// Oneof names, real and synthetic, indexed by [`FieldInfo::oneof`].
    pub(crate) oneofs: Vec<(String, bool)>,
    pub(crate) map_entry: bool,
}

/// The element type of a field (for a map: the value type).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ty {
    Scalar(ScalarType),
    Message(usize),
    Enum(usize),
}

impl Ty {
    /// The wire type of a singular record of this type (SPEC §4.4).
    pub(crate) fn wire(self) -> WireType {
        match self {
            Ty::Scalar(s) => scalar_wire(s),
            Ty::Enum(_) => WireType::Varint,
            Ty::Message(_) => WireType::Len,
        }
    }

    /// The element width of a fixed-width scalar type (SPEC §6.2), else `None`.
    pub(crate) fn fixed(self) -> Option<usize> {
        match self {
            Ty::Scalar(s) => fixed_width(s),
            _ => None,
        }
    }
}

/// Singular, repeated or map (with the key type).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    Single(Presence),
    Repeated,
    Map(ScalarType),
}

#[derive(Debug)]
pub(crate) struct FieldInfo {
    pub(crate) name: String,
    pub(crate) json_name: String,
    pub(crate) number: u32,
    pub(crate) ty: Ty,
    pub(crate) shape: Shape,
    pub(crate) oneof: Option<usize>,
}

/// The element width of a fixed-width scalar type, whose packed runs must be a multiple
/// of it (SPEC §6.2).
pub(crate) fn fixed_width(s: ScalarType) -> Option<usize> {
    match scalar_wire(s) {
        WireType::I32 => Some(4),
        WireType::I64 => Some(8),
        _ => None,
    }
}

/// The wire type of a singular record of scalar type `s` (SPEC §4.4).
pub(crate) fn scalar_wire(s: ScalarType) -> WireType {
    use ScalarType as S;
    match s {
        S::Int32 | S::Int64 | S::Uint32 | S::Uint64 | S::Sint32 | S::Sint64 | S::Bool => {
            WireType::Varint
        }
        S::Fixed64 | S::Sfixed64 | S::Double => WireType::I64,
        S::Fixed32 | S::Sfixed32 | S::Float => WireType::I32,
        S::String | S::Bytes => WireType::Len,
    }
}

#[derive(Debug)]
pub(crate) struct EnumInfo {
    pub(crate) full_name: String,
    pub(crate) name: String,
    pub(crate) values: Vec<(String, i32)>,
}

impl DescriptorPool {
    pub(crate) fn from_pool(inner: Arc<Pool>) -> Self {
        DescriptorPool { inner }
    }

    /// Index every message and enum of `schema` (including imported files).
    pub fn new(schema: &Schema) -> Self {
        let mut by_name = HashMap::new();
        let mut msg_defs: Vec<&MessageDef> = Vec::new();
        let mut enum_defs: Vec<&EnumDef> = Vec::new();
        for file in schema.files() {
            for e in &file.enums {
                by_name.insert(e.full_name.clone(), TypeIdx::Enum(enum_defs.len()));
                enum_defs.push(e);
            }
            for m in &file.messages {
                collect(m, &mut msg_defs, &mut enum_defs, &mut by_name);
            }
        }
        let resolve = |t: &FieldType| -> Ty {
            match t {
                FieldType::Scalar(s) => Ty::Scalar(*s),
                FieldType::Message(n) => match by_name.get(n.as_str()) {
                    Some(TypeIdx::Message(i)) => Ty::Message(*i),
                    // A checked schema resolves every name; an unresolved one can only
                    // come from a model built by hand, and reads as bytes.
                    _ => Ty::Scalar(ScalarType::Bytes),
                },
                FieldType::Enum(n) => match by_name.get(n.as_str()) {
                    Some(TypeIdx::Enum(i)) => Ty::Enum(*i),
                    _ => Ty::Scalar(ScalarType::Int32),
                },
            }
        };
        let messages = msg_defs
            .iter()
            .map(|m| MsgInfo {
                full_name: m.full_name.clone(),
                name: m.name.clone(),
                fields: m.fields.iter().map(|f| field_info(f, &resolve)).collect(),
                numbers: m.fields.iter().map(|f| f.number).collect(),
                oneofs: m
                    .oneofs
                    .iter()
                    .map(|o| (o.name.clone(), o.synthetic))
                    .collect(),
                map_entry: m.map_entry,
            })
            .collect();
        let enums = enum_defs
            .iter()
            .map(|e| EnumInfo {
                full_name: e.full_name.clone(),
                name: e.name.clone(),
                values: e
                    .values
                    .iter()
                    .map(|v| (v.name.clone(), v.number))
                    .collect(),
            })
            .collect();
        DescriptorPool {
            inner: Arc::new(Pool {
                messages,
                enums,
                by_name,
            }),
        }
    }

    /// A message by full name (`pkg.Outer.Inner`, a leading dot allowed).
    pub fn message(&self, full_name: &str) -> Option<MessageDescriptor> {
        let name = full_name.strip_prefix('.').unwrap_or(full_name);
        match self.inner.by_name.get(name)? {
            TypeIdx::Message(i) => Some(MessageDescriptor {
                pool: self.inner.clone(),
                index: *i,
            }),
            TypeIdx::Enum(_) => None,
        }
    }

    /// An enum by full name.
    pub fn enumeration(&self, full_name: &str) -> Option<EnumDescriptor> {
        let name = full_name.strip_prefix('.').unwrap_or(full_name);
        match self.inner.by_name.get(name)? {
            TypeIdx::Enum(i) => Some(EnumDescriptor {
                pool: self.inner.clone(),
                index: *i,
            }),
            TypeIdx::Message(_) => None,
        }
    }

    /// Every message (map entries included), in schema order.
    pub fn messages(&self) -> impl Iterator<Item = MessageDescriptor> + '_ {
        (0..self.inner.messages.len()).map(|index| MessageDescriptor {
            pool: self.inner.clone(),
            index,
        })
    }
}

impl fmt::Debug for DescriptorPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DescriptorPool")
            .field("messages", &self.inner.messages.len())
            .field("enums", &self.inner.enums.len())
            .finish()
    }
}

fn collect<'a>(
    m: &'a MessageDef,
    msgs: &mut Vec<&'a MessageDef>,
    enums: &mut Vec<&'a EnumDef>,
    by_name: &mut HashMap<String, TypeIdx>,
) {
    by_name.insert(m.full_name.clone(), TypeIdx::Message(msgs.len()));
    msgs.push(m);
    for e in &m.enums {
        by_name.insert(e.full_name.clone(), TypeIdx::Enum(enums.len()));
        enums.push(e);
    }
    for n in &m.messages {
        collect(n, msgs, enums, by_name);
    }
}

fn field_info(f: &FieldDef, resolve: &impl Fn(&FieldType) -> Ty) -> FieldInfo {
    let (ty, shape) = match &f.cardinality {
        Cardinality::Single => (resolve(&f.ty), Shape::Single(f.presence)),
        Cardinality::Repeated => (resolve(&f.ty), Shape::Repeated),
        Cardinality::Map { key, value } => (resolve(value), Shape::Map(*key)),
    };
    FieldInfo {
        name: f.name.clone(),
        json_name: f.json_name.clone(),
        number: f.number,
        ty,
        shape,
        oneof: f.oneof,
    }
}

/// A message type of a [`DescriptorPool`].
#[derive(Clone)]
pub struct MessageDescriptor {
    pub(crate) pool: Arc<Pool>,
    pub(crate) index: usize,
}

impl MessageDescriptor {
    pub(crate) fn info(&self) -> &MsgInfo {
        &self.pool.messages[self.index]
    }

    pub(crate) fn sibling(&self, index: usize) -> MessageDescriptor {
        MessageDescriptor {
            pool: self.pool.clone(),
            index,
        }
    }

    pub(crate) fn enum_at(&self, index: usize) -> EnumDescriptor {
        EnumDescriptor {
            pool: self.pool.clone(),
            index,
        }
    }

    /// The pool this message belongs to (to resolve other types, e.g. an `Any`'s).
    pub fn pool(&self) -> DescriptorPool {
        DescriptorPool {
            inner: self.pool.clone(),
        }
    }

    /// Full name, e.g. `shop.v1.Order`.
    pub fn full_name(&self) -> &str {
        &self.info().full_name
    }

    /// Short name, e.g. `Order`: the root of error paths (SPEC §11.3).
    pub fn name(&self) -> &str {
        &self.info().name
    }

    /// Whether this is the synthesized entry message of a map field.
    pub fn is_map_entry(&self) -> bool {
        self.info().map_entry
    }

    /// The fields, in field-number order.
    pub fn fields(&self) -> impl Iterator<Item = FieldDescriptor> + '_ {
        (0..self.info().fields.len()).map(|index| FieldDescriptor {
            msg: self.clone(),
            index,
        })
    }

    /// The position of field `number` in [`fields`](Self::fields).
    pub(crate) fn field_index(&self, number: u32) -> Option<usize> {
        self.info()
            .fields
            .binary_search_by_key(&number, |f| f.number)
            .ok()
    }

    /// The field numbered `number`.
    pub fn field(&self, number: u32) -> Option<FieldDescriptor> {
        self.field_index(number).map(|index| FieldDescriptor {
            msg: self.clone(),
            index,
        })
    }

    /// The field with this schema name.
    pub fn field_by_name(&self, name: &str) -> Option<FieldDescriptor> {
        self.fields().find(|f| f.name() == name)
    }

    /// The field with this JSON name or, failing that, this schema name (the proto3
    /// JSON parsers accept both).
    pub fn field_by_json_name(&self, name: &str) -> Option<FieldDescriptor> {
        self.fields()
            .find(|f| f.json_name() == name)
            .or_else(|| self.field_by_name(name))
    }
}

impl PartialEq for MessageDescriptor {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.pool, &other.pool) && self.index == other.index
    }
}

impl Eq for MessageDescriptor {}

impl fmt::Debug for MessageDescriptor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MessageDescriptor({})", self.full_name())
    }
}

/// What a field holds, element-wise (for a map: the value type).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// A scalar type.
    Scalar(ScalarType),
    /// A message type.
    Message(MessageDescriptor),
    /// An enum type (open: any `int32` number is a value, SPEC §3.6).
    Enum(EnumDescriptor),
}

/// Singular, repeated or map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldShape {
    /// One value, with its presence kind (SPEC §5).
    Single(Presence),
    /// A list (SPEC §6.1).
    Repeated,
    /// A map with this key type (SPEC §6.3); the value type is the field's [`Kind`].
    Map(ScalarType),
}

/// A field of a [`MessageDescriptor`].
#[derive(Clone, PartialEq, Eq)]
pub struct FieldDescriptor {
    pub(crate) msg: MessageDescriptor,
    pub(crate) index: usize,
}

impl FieldDescriptor {
    pub(crate) fn info(&self) -> &FieldInfo {
        &self.msg.info().fields[self.index]
    }

    /// The message this field belongs to.
    pub fn containing_message(&self) -> &MessageDescriptor {
        &self.msg
    }

    /// Schema name.
    pub fn name(&self) -> &str {
        &self.info().name
    }

    /// JSON name (`json_name` option, else lowerCamelCase of the name).
    pub fn json_name(&self) -> &str {
        &self.info().json_name
    }

    /// Field number.
    pub fn number(&self) -> u32 {
        self.info().number
    }

    /// Singular (with presence), repeated or map.
    pub fn shape(&self) -> FieldShape {
        match self.info().shape {
            Shape::Single(p) => FieldShape::Single(p),
            Shape::Repeated => FieldShape::Repeated,
            Shape::Map(k) => FieldShape::Map(k),
        }
    }

    /// The element type (a map's value type).
    pub fn kind(&self) -> Kind {
        match self.info().ty {
            Ty::Scalar(s) => Kind::Scalar(s),
            Ty::Message(i) => Kind::Message(self.msg.sibling(i)),
            Ty::Enum(i) => Kind::Enum(self.msg.enum_at(i)),
        }
    }

    /// The oneof this field is a member of (synthetic oneofs of proto3 `optional`
    /// fields excluded).
    pub fn oneof_name(&self) -> Option<&str> {
        let i = self.info().oneof?;
        match self.msg.info().oneofs.get(i) {
            Some((name, false)) => Some(name),
            _ => None,
        }
    }
}

impl fmt::Debug for FieldDescriptor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "FieldDescriptor({}.{})",
            self.msg.full_name(),
            self.name()
        )
    }
}

/// An enum type of a [`DescriptorPool`].
#[derive(Clone)]
pub struct EnumDescriptor {
    pub(crate) pool: Arc<Pool>,
    pub(crate) index: usize,
}

impl EnumDescriptor {
    fn info(&self) -> &EnumInfo {
        &self.pool.enums[self.index]
    }

    /// Full name.
    pub fn full_name(&self) -> &str {
        &self.info().full_name
    }

    /// Short name.
    pub fn name(&self) -> &str {
        &self.info().name
    }

    /// The first value name with this number (aliases share a number).
    pub fn name_of(&self, number: i32) -> Option<&str> {
        self.info()
            .values
            .iter()
            .find(|(_, n)| *n == number)
            .map(|(s, _)| s.as_str())
    }

    /// The number of the value with this name.
    pub fn number_of(&self, name: &str) -> Option<i32> {
        self.info()
            .values
            .iter()
            .find(|(s, _)| s == name)
            .map(|(_, n)| *n)
    }
}

impl PartialEq for EnumDescriptor {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.pool, &other.pool) && self.index == other.index
    }
}

impl Eq for EnumDescriptor {}

impl fmt::Debug for EnumDescriptor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "EnumDescriptor({})", self.full_name())
    }
}
