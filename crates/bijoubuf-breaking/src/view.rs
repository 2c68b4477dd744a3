//! The part of a schema the checker compares, read from a `FileDescriptorSet`.
//!
//! Both sides go through descriptors (a checked [`Schema`](bijoubuf_schema::Schema)
//! converts to one), so an old schema given as `.proto` files and one given as a
//! descriptor set are compared by the same code. Presence follows SPEC §5 as the
//! descriptor states it.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use bijoubuf_schema::{Presence, ScalarType};
use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{DescriptorProto, EnumDescriptorProto, FieldDescriptorProto, FileDescriptorSet};

/// Why a descriptor set cannot be compared. One [`code`](Self::code),
/// `invalid-descriptor-set`; the message says what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewError {
    message: String,
}

impl ViewError {
    /// The stable kebab-case code: `invalid-descriptor-set`.
    pub fn code(&self) -> &'static str {
        "invalid-descriptor-set"
    }
}

impl fmt::Display for ViewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid descriptor set: {}", self.message)
    }
}

impl std::error::Error for ViewError {}

fn err(message: String) -> ViewError {
    ViewError { message }
}

/// Record type `name` (a message when `message`), refusing a second definition: two
/// types of one name would let the two sides of a comparison read different ones.
fn define(kinds: &mut HashMap<String, bool>, name: &str, message: bool) -> Result<(), ViewError> {
    if kinds.insert(name.to_string(), message).is_some() {
        return Err(err(format!("type {name:?} is defined twice")));
    }
    Ok(())
}

/// A field's element type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Elem {
    Scalar(ScalarType),
    Enum(String),
    Message(String),
}

/// Singular, repeated or map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Card {
    Single,
    Repeated,
    /// The field's [`FieldV::elem`] is the value type.
    Map(ScalarType),
}

#[derive(Clone, Debug)]
pub(crate) struct FieldV {
    pub(crate) name: String,
    pub(crate) number: u32,
    pub(crate) json_name: String,
    pub(crate) elem: Elem,
    pub(crate) card: Card,
    pub(crate) presence: Presence,
    /// Index of a real (not synthetic) oneof.
    pub(crate) oneof: Option<usize>,
}

impl FieldV {
    /// Explicit presence or required, for a singular field (SPEC §5).
    pub(crate) fn tracks_presence(&self) -> bool {
        self.card == Card::Single && self.presence != Presence::Implicit
    }
}

#[derive(Clone, Debug)]
pub(crate) struct MsgV {
    pub(crate) full_name: String,
    pub(crate) file: usize,
    /// In field-number order.
    pub(crate) fields: Vec<FieldV>,
    pub(crate) oneofs: Vec<String>,
    pub(crate) reserved: Vec<(i64, i64)>,
    pub(crate) reserved_names: Vec<String>,
    pub(crate) map_entry: bool,
    /// Field name → index into `fields`.
    pub(crate) by_name: HashMap<String, usize>,
}

impl MsgV {
    pub(crate) fn field(&self, number: u32) -> Option<&FieldV> {
        self.fields
            .binary_search_by_key(&number, |f| f.number)
            .ok()
            .map(|i| &self.fields[i])
    }

    pub(crate) fn field_by_name(&self, name: &str) -> Option<&FieldV> {
        self.by_name.get(name).map(|&i| &self.fields[i])
    }

    pub(crate) fn is_reserved(&self, number: u32) -> bool {
        let n = i64::from(number);
        self.reserved.iter().any(|&(a, b)| a <= n && n <= b)
    }
}

#[derive(Clone, Debug)]
pub(crate) struct EnumV {
    pub(crate) full_name: String,
    pub(crate) file: usize,
    pub(crate) values: Vec<(String, i32)>,
}

impl EnumV {
    pub(crate) fn number_of(&self, name: &str) -> Option<i32> {
        self.values.iter().find(|v| v.0 == name).map(|v| v.1)
    }

    pub(crate) fn name_of(&self, number: i32) -> Option<&str> {
        self.values
            .iter()
            .find(|v| v.1 == number)
            .map(|v| v.0.as_str())
    }
}

#[derive(Clone, Debug)]
pub(crate) struct FileV {
    pub(crate) name: String,
    pub(crate) package: String,
    /// Compared (not only imported).
    pub(crate) requested: bool,
}

/// Messages and enums by full name (sorted, so findings come in a stable order).
#[derive(Clone, Debug, Default)]
pub(crate) struct View {
    pub(crate) files: Vec<FileV>,
    pub(crate) messages: BTreeMap<String, MsgV>,
    pub(crate) enums: BTreeMap<String, EnumV>,
}

impl View {
    /// The view of `set`; files for which `requested` says no are only looked up.
    pub(crate) fn new(
        set: &FileDescriptorSet,
        requested: &dyn Fn(&str) -> bool,
    ) -> Result<View, ViewError> {
        let mut view = View::default();
        let mut kinds: HashMap<String, bool> = HashMap::new(); // true: message
        for (i, file) in set.file.iter().enumerate() {
            let proto3 = match file.syntax() {
                "" | "proto2" => false,
                "proto3" => true,
                other => {
                    return Err(err(format!(
                        "{}: syntax {other:?} is not supported",
                        file.name()
                    )));
                }
            };
            // Files are compared by name: one name twice has no single old side.
            if view.files.iter().any(|f| f.name == file.name()) {
                return Err(err(format!("file {:?} appears twice", file.name())));
            }
            view.files.push(FileV {
                name: file.name().to_string(),
                package: file.package().to_string(),
                requested: requested(file.name()),
            });
            let prefix = match file.package() {
                "" => String::new(),
                p => format!("{p}."),
            };
            for e in &file.enum_type {
                view.add_enum(e, &prefix, i, &mut kinds)?;
            }
            for m in &file.message_type {
                view.add_message(m, &prefix, i, proto3, &mut kinds)?;
            }
        }
        // Every type name must resolve, and to the kind the field says.
        for m in view.messages.values() {
            for f in &m.fields {
                let (name, want) = match &f.elem {
                    Elem::Message(n) => (n, true),
                    Elem::Enum(n) => (n, false),
                    Elem::Scalar(_) => continue,
                };
                if kinds.get(name) != Some(&want) {
                    return Err(err(format!(
                        "{}.{}: type {name:?} is not defined",
                        m.full_name, f.name
                    )));
                }
            }
        }
        Ok(view)
    }

    fn add_enum(
        &mut self,
        e: &EnumDescriptorProto,
        prefix: &str,
        file: usize,
        kinds: &mut HashMap<String, bool>,
    ) -> Result<(), ViewError> {
        let full_name = format!("{prefix}{}", e.name());
        define(kinds, &full_name, false)?;
        // Numbers may repeat (aliases); a name may not: each side could take a different
        // number for it.
        let mut names: Vec<&str> = e.value.iter().map(|v| v.name()).collect();
        names.sort_unstable();
        if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
            return Err(err(format!(
                "{full_name}: enum value name {:?} is used twice",
                w[0]
            )));
        }
        self.enums.insert(
            full_name.clone(),
            EnumV {
                full_name,
                file,
                values: e
                    .value
                    .iter()
                    .map(|v| (v.name().to_string(), v.number()))
                    .collect(),
            },
        );
        Ok(())
    }

    fn add_message(
        &mut self,
        m: &DescriptorProto,
        prefix: &str,
        file: usize,
        proto3: bool,
        kinds: &mut HashMap<String, bool>,
    ) -> Result<(), ViewError> {
        let full_name = format!("{prefix}{}", m.name());
        define(kinds, &full_name, true)?;
        let inner = format!("{full_name}.");
        for e in &m.enum_type {
            self.add_enum(e, &inner, file, kinds)?;
        }
        for n in &m.nested_type {
            self.add_message(n, &inner, file, proto3, kinds)?;
        }
        let synthetic: Vec<bool> = (0..m.oneof_decl.len())
            .map(|i| {
                m.field
                    .iter()
                    .any(|f| f.oneof_index == Some(i as i32) && f.proto3_optional())
            })
            .collect();
        let mut fields = Vec::with_capacity(m.field.len());
        for f in &m.field {
            fields.push(self.field(m, f, &full_name, proto3, &synthetic)?);
        }
        fields.sort_by_key(|f| f.number);
        // A set that gives a number or a name twice has no single meaning to compare: each
        // side could take a different one of the two.
        if let Some(w) = fields.windows(2).find(|w| w[0].number == w[1].number) {
            return Err(err(format!(
                "{full_name}: field number {} is used twice",
                w[0].number
            )));
        }
        let by_name: HashMap<String, usize> = fields
            .iter()
            .enumerate()
            .map(|(i, f)| (f.name.clone(), i))
            .collect();
        if by_name.len() != fields.len() {
            return Err(err(format!("{full_name}: a field name is used twice")));
        }
        self.messages.insert(
            full_name.clone(),
            MsgV {
                full_name,
                file,
                fields,
                oneofs: m.oneof_decl.iter().map(|o| o.name().to_string()).collect(),
                // Descriptor ranges are end-exclusive.
                reserved: m
                    .reserved_range
                    .iter()
                    .map(|r| (i64::from(r.start()), i64::from(r.end()) - 1))
                    .collect(),
                reserved_names: m.reserved_name.clone(),
                map_entry: m.options.as_ref().and_then(|o| o.map_entry) == Some(true),
                by_name,
            },
        );
        Ok(())
    }

    fn field(
        &self,
        m: &DescriptorProto,
        f: &FieldDescriptorProto,
        owner: &str,
        proto3: bool,
        synthetic: &[bool],
    ) -> Result<FieldV, ViewError> {
        let path = || format!("{owner}.{}", f.name());
        let number = u32::try_from(f.number())
            .ok()
            .filter(|n| (1..=(1 << 29) - 1).contains(n))
            .ok_or_else(|| {
                err(format!(
                    "{}: field number {} is out of range",
                    path(),
                    f.number()
                ))
            })?;
        let type_name = || f.type_name().trim_start_matches('.').to_string();
        let elem = match f.r#type() {
            Type::Message => Elem::Message(type_name()),
            Type::Enum => Elem::Enum(type_name()),
            Type::Group => {
                return Err(err(format!(
                    "{}: groups are not part of bijoubuf v1",
                    path()
                )));
            }
            t => Elem::Scalar(scalar(t)),
        };
        let oneof = match f.oneof_index {
            None => None,
            Some(i) => match usize::try_from(i).ok().filter(|&i| i < synthetic.len()) {
                Some(i) if synthetic[i] => None,
                Some(i) => Some(i),
                None => {
                    return Err(err(format!("{}: oneof index {i} is out of range", path())));
                }
            },
        };
        let repeated = f.label() == Label::Repeated;
        let (card, elem) = match (&elem, repeated) {
            (Elem::Message(entry), true) => match map_entry(m, owner, entry) {
                Some(entry) => {
                    let key = entry.field.iter().find(|x| x.number() == 1);
                    let value = entry.field.iter().find(|x| x.number() == 2);
                    let (Some(key), Some(value)) = (key, value) else {
                        return Err(err(format!("{}: map entry without key and value", path())));
                    };
                    let value = match value.r#type() {
                        Type::Message => {
                            Elem::Message(value.type_name().trim_start_matches('.').into())
                        }
                        Type::Enum => Elem::Enum(value.type_name().trim_start_matches('.').into()),
                        t => Elem::Scalar(scalar(t)),
                    };
                    let key = match key.r#type() {
                        Type::Message
                        | Type::Enum
                        | Type::Group
                        | Type::Double
                        | Type::Float
                        | Type::Bytes => {
                            return Err(err(format!(
                                "{}: a map key must be an integer, bool or string",
                                path()
                            )));
                        }
                        t => scalar(t),
                    };
                    (Card::Map(key), value)
                }
                None => (Card::Repeated, elem),
            },
            (_, true) => (Card::Repeated, elem),
            (_, false) => (Card::Single, elem),
        };
        // SPEC §5: which singular fields track presence.
        let presence = match f.label() {
            Label::Required => Presence::Required,
            Label::Repeated => Presence::Implicit,
            Label::Optional => {
                if !proto3
                    || f.proto3_optional()
                    || oneof.is_some()
                    || matches!(elem, Elem::Message(_))
                {
                    Presence::Explicit
                } else {
                    Presence::Implicit
                }
            }
        };
        let json_name = match f.json_name() {
            "" => bijoubuf_schema::default_json_name(f.name()),
            j => j.to_string(),
        };
        let _ = self;
        Ok(FieldV {
            name: f.name().to_string(),
            number,
            json_name,
            elem,
            card,
            presence,
            oneof,
        })
    }
}

/// The nested map-entry message `entry` of `m`, if that is what it names.
fn map_entry<'a>(m: &'a DescriptorProto, owner: &str, entry: &str) -> Option<&'a DescriptorProto> {
    let short = entry.strip_prefix(owner)?.strip_prefix('.')?;
    m.nested_type
        .iter()
        .find(|n| n.name() == short)
        .filter(|n| n.options.as_ref().and_then(|o| o.map_entry) == Some(true))
}

fn scalar(t: Type) -> ScalarType {
    // Message, enum and group fields are handled before callers ask.
    ScalarType::from_descriptor_type(t).unwrap_or(ScalarType::Bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use prost_types::{FieldDescriptorProto, FileDescriptorProto, OneofDescriptorProto};

    fn set(field: FieldDescriptorProto) -> FileDescriptorSet {
        FileDescriptorSet {
            file: vec![FileDescriptorProto {
                name: Some("a.proto".into()),
                syntax: Some("proto3".into()),
                message_type: vec![DescriptorProto {
                    name: Some("M".into()),
                    field: vec![field],
                    oneof_decl: vec![OneofDescriptorProto {
                        name: Some("o".into()),
                        options: None,
                    }],
                    ..Default::default()
                }],
                ..Default::default()
            }],
        }
    }

    fn field() -> FieldDescriptorProto {
        FieldDescriptorProto {
            name: Some("f".into()),
            number: Some(1),
            label: Some(Label::Optional as i32),
            r#type: Some(Type::Int32 as i32),
            ..Default::default()
        }
    }

    #[test]
    fn malformed_descriptor_sets_are_errors_not_panics() {
        assert!(View::new(&set(field()), &|_| true).is_ok());
        let bad_oneof = FieldDescriptorProto {
            oneof_index: Some(3),
            ..field()
        };
        let e = View::new(&set(bad_oneof), &|_| true).unwrap_err();
        assert_eq!(e.code(), "invalid-descriptor-set");
        assert_eq!(
            crate::CheckError::from(e.clone()).code(),
            "invalid-descriptor-set"
        );
        assert_eq!(
            e.to_string(),
            "invalid descriptor set: M.f: oneof index 3 is out of range"
        );
        let bad_number = FieldDescriptorProto {
            number: Some(0),
            ..field()
        };
        assert!(View::new(&set(bad_number), &|_| true).is_err());
        let bad_type = FieldDescriptorProto {
            r#type: Some(Type::Message as i32),
            type_name: Some(".Nope".into()),
            ..field()
        };
        let e = View::new(&set(bad_type), &|_| true).unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid descriptor set: M.f: type \"Nope\" is not defined"
        );
    }
}
