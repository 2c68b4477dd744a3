//! Values and [`DynamicMessage`].

use bijoubuf::UnknownField;
use bijoubuf_schema::{Presence, ScalarType};

use crate::descriptor::{FieldDescriptor, FieldInfo, MessageDescriptor, Shape, Ty};
use crate::error::TypeError;

/// A field value. Which variant a field takes follows its schema type:
/// `int32`/`sint32`/`sfixed32` → [`I32`](Value::I32), `int64`/`sint64`/`sfixed64` →
/// [`I64`](Value::I64), `uint32`/`fixed32` → [`U32`](Value::U32), `uint64`/`fixed64` →
/// [`U64`](Value::U64), `float` → [`F32`](Value::F32), `double` → [`F64`](Value::F64),
/// enums → [`EnumNumber`](Value::EnumNumber); repeated fields of those types hold a
/// [`Scalars`](Value::Scalars) list, other repeated fields a [`List`](Value::List), and
/// maps a [`Map`](Value::Map). [`DynamicMessage::set`] also takes a `List` of numbers,
/// bools or enum numbers and stores it as `Scalars`.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `bool`.
    Bool(bool),
    /// `int32`, `sint32`, `sfixed32`.
    I32(i32),
    /// `int64`, `sint64`, `sfixed64`.
    I64(i64),
    /// `uint32`, `fixed32`.
    U32(u32),
    /// `uint64`, `fixed64`.
    U64(u64),
    /// `float`.
    F32(f32),
    /// `double`.
    F64(f64),
    /// `string`.
    String(String),
    /// `bytes`.
    Bytes(Vec<u8>),
    /// An enum number (enums are open, SPEC §3.6).
    EnumNumber(i32),
    /// A nested message (boxed: a `Value` stays small, which is what a list or map of
    /// them costs per element).
    Message(Box<DynamicMessage>),
    /// The elements of a repeated `string`, `bytes` or message field.
    List(Vec<Value>),
    /// The elements of a repeated numeric, `bool` or enum field, unboxed: a packed run
    /// costs the decoder a few bytes per element, not a whole `Value` each.
    Scalars(ScalarList),
    /// The entries of a map field, keys strictly ascending in canonical key order
    /// (SPEC §6.4). [`DynamicMessage::set`] sorts entries given in another order and
    /// refuses a key given twice.
    Map(Vec<(MapKey, Value)>),
}

/// The elements of a repeated numeric, `bool` or enum field, one vector per element
/// type (the variant follows the field's type as [`Value`]'s do).
#[derive(Debug, Clone, PartialEq)]
pub enum ScalarList {
    /// `bool` elements.
    Bool(Vec<bool>),
    /// `int32`, `sint32`, `sfixed32` elements.
    I32(Vec<i32>),
    /// `int64`, `sint64`, `sfixed64` elements.
    I64(Vec<i64>),
    /// `uint32`, `fixed32` elements.
    U32(Vec<u32>),
    /// `uint64`, `fixed64` elements.
    U64(Vec<u64>),
    /// `float` elements.
    F32(Vec<f32>),
    /// `double` elements.
    F64(Vec<f64>),
    /// Enum numbers.
    Enum(Vec<i32>),
}

impl ScalarList {
    /// An empty list for elements of type `ty` with room for `n`; `None` for element
    /// types that are not numbers, bools or enums.
    pub(crate) fn for_ty(ty: Ty, n: usize) -> Option<ScalarList> {
        Some(match ty {
            Ty::Enum(_) => ScalarList::Enum(Vec::with_capacity(n)),
            Ty::Message(_) => return None,
            Ty::Scalar(s) => match scalar_variant(s) {
                Variant::Bool => ScalarList::Bool(Vec::with_capacity(n)),
                Variant::I32 => ScalarList::I32(Vec::with_capacity(n)),
                Variant::I64 => ScalarList::I64(Vec::with_capacity(n)),
                Variant::U32 => ScalarList::U32(Vec::with_capacity(n)),
                Variant::U64 => ScalarList::U64(Vec::with_capacity(n)),
                Variant::F32 => ScalarList::F32(Vec::with_capacity(n)),
                Variant::F64 => ScalarList::F64(Vec::with_capacity(n)),
                Variant::String | Variant::Bytes => return None,
            },
        })
    }

    /// Append `v` if it is an element of this list's type; gives it back otherwise.
    pub(crate) fn push(&mut self, v: Value) -> Result<(), Value> {
        match (self, v) {
            (ScalarList::Bool(l), Value::Bool(x)) => l.push(x),
            (ScalarList::I32(l), Value::I32(x)) => l.push(x),
            (ScalarList::I64(l), Value::I64(x)) => l.push(x),
            (ScalarList::U32(l), Value::U32(x)) => l.push(x),
            (ScalarList::U64(l), Value::U64(x)) => l.push(x),
            (ScalarList::F32(l), Value::F32(x)) => l.push(x),
            (ScalarList::F64(l), Value::F64(x)) => l.push(x),
            (ScalarList::Enum(l), Value::EnumNumber(x)) => l.push(x),
            (_, v) => return Err(v),
        }
        Ok(())
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        match self {
            ScalarList::Bool(l) => l.len(),
            ScalarList::I32(l) | ScalarList::Enum(l) => l.len(),
            ScalarList::I64(l) => l.len(),
            ScalarList::U32(l) => l.len(),
            ScalarList::U64(l) => l.len(),
            ScalarList::F32(l) => l.len(),
            ScalarList::F64(l) => l.len(),
        }
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Element `i` as a [`Value`].
    pub fn get(&self, i: usize) -> Option<Value> {
        Some(match self {
            ScalarList::Bool(l) => Value::Bool(*l.get(i)?),
            ScalarList::I32(l) => Value::I32(*l.get(i)?),
            ScalarList::I64(l) => Value::I64(*l.get(i)?),
            ScalarList::U32(l) => Value::U32(*l.get(i)?),
            ScalarList::U64(l) => Value::U64(*l.get(i)?),
            ScalarList::F32(l) => Value::F32(*l.get(i)?),
            ScalarList::F64(l) => Value::F64(*l.get(i)?),
            ScalarList::Enum(l) => Value::EnumNumber(*l.get(i)?),
        })
    }

    /// The elements as [`Value`]s, in order.
    pub fn iter(&self) -> ScalarIter<'_> {
        ScalarIter {
            list: self,
            next: 0,
        }
    }

    /// Whether these are elements of type `ty`.
    fn fits(&self, ty: Ty) -> bool {
        ScalarList::for_ty(ty, 0)
            .is_some_and(|e| std::mem::discriminant(&e) == std::mem::discriminant(self))
    }
}

/// The elements of a [`ScalarList`] as [`Value`]s.
#[derive(Debug, Clone)]
pub struct ScalarIter<'a> {
    list: &'a ScalarList,
    next: usize,
}

impl Iterator for ScalarIter<'_> {
    type Item = Value;

    fn next(&mut self) -> Option<Value> {
        let v = self.list.get(self.next)?;
        self.next += 1;
        Some(v)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.list.len().saturating_sub(self.next);
        (n, Some(n))
    }
}

impl ExactSizeIterator for ScalarIter<'_> {}

impl From<DynamicMessage> for Value {
    fn from(m: DynamicMessage) -> Self {
        Value::Message(Box::new(m))
    }
}

/// A map key. Within one map every key has the same variant, and the derived order is
/// SPEC §6.4's: signed numeric order for signed types, `false < true`, and UTF-8 byte
/// order for strings — the order entries are written in.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MapKey {
    /// `bool` key.
    Bool(bool),
    /// `int32`, `sint32`, `sfixed32` key.
    I32(i32),
    /// `int64`, `sint64`, `sfixed64` key.
    I64(i64),
    /// `uint32`, `fixed32` key.
    U32(u32),
    /// `uint64`, `fixed64` key.
    U64(u64),
    /// `string` key.
    String(String),
}

impl MapKey {
    /// The key as a [`Value`] of the same type.
    pub fn to_value(&self) -> Value {
        match self {
            MapKey::Bool(v) => Value::Bool(*v),
            MapKey::I32(v) => Value::I32(*v),
            MapKey::I64(v) => Value::I64(*v),
            MapKey::U32(v) => Value::U32(*v),
            MapKey::U64(v) => Value::U64(*v),
            MapKey::String(v) => Value::String(v.clone()),
        }
    }

    pub(crate) fn fits(&self, s: ScalarType) -> bool {
        matches!(
            (self, scalar_variant(s)),
            (MapKey::Bool(_), Variant::Bool)
                | (MapKey::I32(_), Variant::I32)
                | (MapKey::I64(_), Variant::I64)
                | (MapKey::U32(_), Variant::U32)
                | (MapKey::U64(_), Variant::U64)
                | (MapKey::String(_), Variant::String)
        )
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Variant {
    Bool,
    I32,
    I64,
    U32,
    U64,
    F32,
    F64,
    String,
    Bytes,
}

fn scalar_variant(s: ScalarType) -> Variant {
    use ScalarType as S;
    match s {
        S::Bool => Variant::Bool,
        S::Int32 | S::Sint32 | S::Sfixed32 => Variant::I32,
        S::Int64 | S::Sint64 | S::Sfixed64 => Variant::I64,
        S::Uint32 | S::Fixed32 => Variant::U32,
        S::Uint64 | S::Fixed64 => Variant::U64,
        S::Float => Variant::F32,
        S::Double => Variant::F64,
        S::String => Variant::String,
        S::Bytes => Variant::Bytes,
    }
}

impl Value {
    /// Whether this is the implicit-presence default of its type (SPEC §5.1): zero,
    /// `false`, empty, +0.0 only (−0.0 and NaN are values).
    pub fn is_default(&self) -> bool {
        match self {
            Value::Bool(v) => !*v,
            Value::I32(v) | Value::EnumNumber(v) => *v == 0,
            Value::I64(v) => *v == 0,
            Value::U32(v) => *v == 0,
            Value::U64(v) => *v == 0,
            Value::F32(v) => v.to_bits() == 0,
            Value::F64(v) => v.to_bits() == 0,
            Value::String(v) => v.is_empty(),
            Value::Bytes(v) => v.is_empty(),
            Value::Message(_) => false,
            Value::List(v) => v.is_empty(),
            Value::Scalars(v) => v.is_empty(),
            Value::Map(v) => v.is_empty(),
        }
    }

    /// The default value of a field's element type (scalars and enums; a message field
    /// defaults to an empty message).
    pub(crate) fn default_of(ty: Ty, msg: &MessageDescriptor) -> Value {
        match ty {
            Ty::Enum(_) => Value::EnumNumber(0),
            Ty::Message(i) => Value::from(DynamicMessage::new(msg.sibling(i))),
            Ty::Scalar(s) => match scalar_variant(s) {
                Variant::Bool => Value::Bool(false),
                Variant::I32 => Value::I32(0),
                Variant::I64 => Value::I64(0),
                Variant::U32 => Value::U32(0),
                Variant::U64 => Value::U64(0),
                Variant::F32 => Value::F32(0.0),
                Variant::F64 => Value::F64(0.0),
                Variant::String => Value::String(String::new()),
                Variant::Bytes => Value::Bytes(Vec::new()),
            },
        }
    }

    /// Whether this value is an element of type `ty` (in message `msg`'s pool).
    pub(crate) fn fits(&self, ty: Ty, msg: &MessageDescriptor) -> bool {
        match (ty, self) {
            (Ty::Enum(_), Value::EnumNumber(_)) => true,
            (Ty::Message(i), Value::Message(m)) => *m.descriptor() == msg.sibling(i),
            (Ty::Scalar(s), v) => matches!(
                (scalar_variant(s), v),
                (Variant::Bool, Value::Bool(_))
                    | (Variant::I32, Value::I32(_))
                    | (Variant::I64, Value::I64(_))
                    | (Variant::U32, Value::U32(_))
                    | (Variant::U64, Value::U64(_))
                    | (Variant::F32, Value::F32(_))
                    | (Variant::F64, Value::F64(_))
                    | (Variant::String, Value::String(_))
                    | (Variant::Bytes, Value::Bytes(_))
            ),
            _ => false,
        }
    }
}

/// A message whose type is known only at run time: a [`MessageDescriptor`], the set
/// fields by number, and the unknown fields a preserving decode kept.
///
/// Holds only what would be written: an implicit-presence field set to its default,
/// an empty list and an empty map are the same as absent, and setting a oneof member
/// clears the other members, so every `DynamicMessage` has exactly one encoding.
#[derive(Debug, Clone, PartialEq)]
pub struct DynamicMessage {
    desc: MessageDescriptor,
    /// Set fields, sorted by number: a decode appends in ascending order, and a small
    /// vector costs far less per message than a tree node.
    pub(crate) fields: Vec<(u32, Value)>,
    pub(crate) unknown: Vec<UnknownField>,
}

impl DynamicMessage {
    /// An empty message (every field absent).
    pub fn new(desc: MessageDescriptor) -> Self {
        DynamicMessage {
            desc,
            fields: Vec::new(),
            unknown: Vec::new(),
        }
    }

    /// The message type.
    pub fn descriptor(&self) -> &MessageDescriptor {
        &self.desc
    }

    /// The value of field `number`, if set.
    pub fn get(&self, number: u32) -> Option<&Value> {
        self.slot(number).ok().map(|i| &self.fields[i].1)
    }

    fn slot(&self, number: u32) -> Result<usize, usize> {
        self.fields.binary_search_by_key(&number, |(n, _)| *n)
    }

    /// The value of the field named `name`, if set.
    pub fn get_by_name(&self, name: &str) -> Option<&Value> {
        let f = self.desc.field_by_name(name)?;
        self.get(f.number())
    }

    /// Every set field with its value, in field-number order.
    pub fn fields(&self) -> impl Iterator<Item = (FieldDescriptor, &Value)> + '_ {
        self.fields
            .iter()
            .filter_map(|(n, v)| Some((self.desc.field(*n)?, v)))
    }

    /// Set field `number`. The value must have the field's type ([`Value`] lists
    /// which variant each type takes); a default of an implicit-presence field, an
    /// empty list or an empty map clears the field; a oneof member clears its siblings.
    ///
    /// # Errors
    /// An unknown field number or a value of the wrong type.
    pub fn set(&mut self, number: u32, value: Value) -> Result<(), TypeError> {
        let Some(i) = self.desc.field_index(number) else {
            return Err(TypeError {
                code: "no-such-field",
                message: format!("{} has no field {number}", self.desc.full_name()),
            });
        };
        let info = &self.desc.info().fields[i];
        // One representation per value: numbers, bools and enums are kept unboxed.
        let value = match (info.shape, value) {
            (Shape::Repeated, Value::List(items)) => match ScalarList::for_ty(info.ty, items.len())
            {
                Some(mut list) => {
                    for item in items {
                        if let Err(item) = list.push(item) {
                            return Err(TypeError {
                                code: "type-mismatch",
                                message: format!(
                                    "{}.{} cannot hold {item:?}",
                                    self.desc.full_name(),
                                    info.name
                                ),
                            });
                        }
                    }
                    Value::Scalars(list)
                }
                None => Value::List(items),
            },
            (Shape::Map(_), Value::Map(mut entries)) => {
                entries.sort_by(|a, b| a.0.cmp(&b.0));
                if let Some(w) = entries.windows(2).find(|w| w[0].0 == w[1].0) {
                    return Err(TypeError {
                        code: "duplicate-map-key",
                        message: format!(
                            "{}.{} is given key {:?} twice",
                            self.desc.full_name(),
                            info.name,
                            w[0].0
                        ),
                    });
                }
                Value::Map(entries)
            }
            (_, v) => v,
        };
        if !value_fits(info, &value, &self.desc) {
            return Err(TypeError {
                code: "type-mismatch",
                message: format!(
                    "{}.{} cannot hold {value:?}",
                    self.desc.full_name(),
                    info.name
                ),
            });
        }
        let clears = match info.shape {
            Shape::Single(Presence::Implicit) if info.oneof.is_none() => value.is_default(),
            Shape::Repeated | Shape::Map(_) => value.is_default(),
            Shape::Single(_) => false,
        };
        if let Some(o) = info.oneof {
            let siblings: Vec<u32> = self
                .desc
                .info()
                .fields
                .iter()
                .filter(|f| f.oneof == Some(o) && f.number != number)
                .map(|f| f.number)
                .collect();
            self.fields.retain(|(n, _)| !siblings.contains(n));
        }
        match (clears, self.slot(number)) {
            (true, Ok(i)) => {
                self.fields.remove(i);
            }
            (true, Err(_)) => {}
            (false, Ok(i)) => self.fields[i].1 = value,
            (false, Err(i)) => self.fields.insert(i, (number, value)),
        }
        Ok(())
    }

    /// Clear field `number`; returns its value if it was set.
    pub fn clear(&mut self, number: u32) -> Option<Value> {
        let i = self.slot(number).ok()?;
        Some(self.fields.remove(i).1)
    }

    /// Unknown field records kept by a preserving decode, in number order.
    pub fn unknown_fields(&self) -> &[UnknownField] {
        &self.unknown
    }

    /// Drop the unknown fields of this message (not of nested ones).
    pub fn clear_unknown_fields(&mut self) {
        self.unknown.clear();
    }

    /// The number of unknown field records here and in every nested message.
    pub fn unknown_field_count(&self) -> usize {
        fn walk(v: &Value) -> usize {
            match v {
                Value::Message(m) => m.unknown_field_count(),
                Value::List(l) => l.iter().map(walk).sum(),
                Value::Map(m) => m.iter().map(|(_, v)| walk(v)).sum(),
                _ => 0,
            }
        }
        self.unknown.len() + self.fields.iter().map(|(_, v)| walk(v)).sum::<usize>()
    }
}

fn value_fits(info: &FieldInfo, value: &Value, msg: &MessageDescriptor) -> bool {
    match (info.shape, value) {
        (Shape::Single(_), v) => v.fits(info.ty, msg),
        (Shape::Repeated, Value::List(items)) => {
            ScalarList::for_ty(info.ty, 0).is_none() && items.iter().all(|v| v.fits(info.ty, msg))
        }
        (Shape::Repeated, Value::Scalars(list)) => list.fits(info.ty),
        (Shape::Map(k), Value::Map(entries)) => entries
            .iter()
            .all(|(key, v)| key.fits(k) && v.fits(info.ty, msg)),
        _ => false,
    }
}
