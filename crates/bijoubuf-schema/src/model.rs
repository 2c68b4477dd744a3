//! The checked schema model a code generator consumes.
//!
//! Every name is resolved (types are full names without a leading dot), every rule is
//! checked, and every element keeps its span and comments. Fields of a message are kept
//! in field-number order; [`FieldDef::index`] gives the declaration order.

use std::collections::HashMap;

use serde::Serialize;

use crate::span::Span;

/// `proto2`, `proto3`, or an edition.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum Syntax {
    /// `syntax = "proto2";` or no syntax statement.
    #[default]
    Proto2,
    /// `syntax = "proto3";`
    Proto3,
    /// `edition = "2023";`: fields have explicit presence and enums are open unless
    /// `features` say otherwise.
    Edition2023,
    /// `edition = "2024";` (the same features as 2023 as far as bijoubuf is concerned).
    Edition2024,
    /// `edition = "2026";` (protoc 36.2's newest): 2024's rules, with types local to
    /// their file unless marked `export` (`default_symbol_visibility = STRICT`).
    Edition2026,
}

impl Syntax {
    /// Whether the file is written in an edition (its rules come from `features`).
    pub fn is_edition(self) -> bool {
        matches!(
            self,
            Syntax::Edition2023 | Syntax::Edition2024 | Syntax::Edition2026
        )
    }

    /// Whether the file is written in edition 2024 or later (visibility, `import
    /// option`, the naming style, the options 2024 removes).
    pub fn is_2024_or_later(self) -> bool {
        matches!(self, Syntax::Edition2024 | Syntax::Edition2026)
    }

    /// descriptor.proto's `Edition` number of the file's syntax or edition
    /// (`EDITION_PROTO2` = 998, `EDITION_PROTO3` = 999, `EDITION_2023` = 1000, …).
    pub(crate) fn edition_number(self) -> i32 {
        match self {
            Syntax::Proto2 => 998,
            Syntax::Proto3 => 999,
            Syntax::Edition2023 => 1000,
            Syntax::Edition2024 => 1001,
            Syntax::Edition2026 => 1002,
        }
    }
}

/// Comments attached to a declaration, with protoc's rules.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Comments {
    /// The comment block right before the declaration.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leading: Option<String>,
    /// The comment after the declaration (same line, or next line then a blank line).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trailing: Option<String>,
    /// Blocks before the leading comment separated from it by blank lines.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub detached: Vec<String>,
}

impl Comments {
    /// Whether no comment is attached.
    pub fn is_empty(&self) -> bool {
        self.leading.is_none() && self.trailing.is_none() && self.detached.is_empty()
    }
}

/// The scalar field types (SPEC §3: how each is written on the wire).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum ScalarType {
    /// `double`: 8 bytes, big-endian IEEE 754.
    Double,
    /// `float`: 4 bytes, big-endian IEEE 754.
    Float,
    /// `int32`: zigzag then bijou64.
    Int32,
    /// `int64`: zigzag then bijou64.
    Int64,
    /// `uint32`: bijou64.
    Uint32,
    /// `uint64`: bijou64.
    Uint64,
    /// `sint32`: zigzag then bijou64.
    Sint32,
    /// `sint64`: zigzag then bijou64.
    Sint64,
    /// `fixed32`: 4 bytes, big-endian.
    Fixed32,
    /// `fixed64`: 8 bytes, big-endian.
    Fixed64,
    /// `sfixed32`: 4 bytes, big-endian two's complement.
    Sfixed32,
    /// `sfixed64`: 8 bytes, big-endian two's complement.
    Sfixed64,
    /// `bool`: one byte, 0 or 1.
    Bool,
    /// `string`: UTF-8 bytes.
    String,
    /// `bytes`: any bytes.
    Bytes,
}

impl ScalarType {
    /// The scalar type a descriptor's `FieldDescriptorProto.type` names; `None` for
    /// message, enum and group fields.
    pub fn from_descriptor_type(t: prost_types::field_descriptor_proto::Type) -> Option<Self> {
        use ScalarType as S;
        use prost_types::field_descriptor_proto::Type;
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

    /// The type for a keyword such as `sint64`.
    pub fn from_keyword(word: &str) -> Option<Self> {
        use ScalarType::*;
        Some(match word {
            "double" => Double,
            "float" => Float,
            "int32" => Int32,
            "int64" => Int64,
            "uint32" => Uint32,
            "uint64" => Uint64,
            "sint32" => Sint32,
            "sint64" => Sint64,
            "fixed32" => Fixed32,
            "fixed64" => Fixed64,
            "sfixed32" => Sfixed32,
            "sfixed64" => Sfixed64,
            "bool" => Bool,
            "string" => String,
            "bytes" => Bytes,
            _ => return None,
        })
    }

    /// The keyword, e.g. `"sint64"`.
    pub fn keyword(self) -> &'static str {
        use ScalarType::*;
        match self {
            Double => "double",
            Float => "float",
            Int32 => "int32",
            Int64 => "int64",
            Uint32 => "uint32",
            Uint64 => "uint64",
            Sint32 => "sint32",
            Sint64 => "sint64",
            Fixed32 => "fixed32",
            Fixed64 => "fixed64",
            Sfixed32 => "sfixed32",
            Sfixed64 => "sfixed64",
            Bool => "bool",
            String => "string",
            Bytes => "bytes",
        }
    }

    /// Whether a repeated field of this type can be packed (numbers, bools, enums).
    pub fn is_packable(self) -> bool {
        !matches!(self, ScalarType::String | ScalarType::Bytes)
    }

    /// Whether the type may be a map key (integers, bool, string).
    pub fn is_valid_map_key(self) -> bool {
        !matches!(
            self,
            ScalarType::Double | ScalarType::Float | ScalarType::Bytes
        )
    }
}

/// A field's resolved type.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum FieldType {
    /// A scalar.
    Scalar(ScalarType),
    /// A message, by full name (`pkg.Outer.Inner`).
    Message(String),
    /// An enum, by full name.
    Enum(String),
}

/// How a field's presence is tracked (SPEC §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Presence {
    /// No presence: the default value is not written (proto3 singular scalars; also
    /// reported for repeated and map fields).
    Implicit,
    /// Presence is tracked: proto2 `optional`, proto3 `optional`, message fields, oneof
    /// members, extensions.
    Explicit,
    /// proto2 `required`.
    Required,
}

/// Singular, repeated or map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Cardinality {
    /// At most one value.
    Single,
    /// A list.
    Repeated,
    /// `map<key, value>`; the field's [`FieldDef::ty`] names the synthesized entry message.
    Map {
        /// Key type.
        key: ScalarType,
        /// Value type.
        value: FieldType,
    },
}

/// A resolved option constant.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum OptionValue {
    /// `true` / `false`.
    Bool(bool),
    /// A signed integer field's value.
    Int(i64),
    /// An unsigned integer field's value.
    Uint(u64),
    /// A float or double field's value.
    Float(f64),
    /// A string field's value.
    String(String),
    /// A bytes field's value.
    Bytes(Vec<u8>),
    /// An enum value: its name and number.
    Enum {
        /// Value name.
        name: String,
        /// Value number.
        number: i32,
    },
    /// A message: its set fields (by field name or `[extension.full.name]`).
    Message(Vec<(String, OptionValue)>),
    /// Several values of a repeated field in one aggregate.
    List(Vec<OptionValue>),
}

/// One `option … = …;` (or `[…]` entry) after resolution.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OptionDef {
    /// The name as written, e.g. `deprecated` or `(my.ext).path`.
    pub name: String,
    /// Full name of the extension for a custom option (the first `(…)` part).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extension: Option<String>,
    /// The value, type-checked against the option's field.
    pub value: OptionValue,
    /// The statement's span.
    pub span: Span,
    /// Field numbers from the options message to the value (for source-code info).
    #[serde(skip)]
    pub(crate) path: Vec<i32>,
    #[serde(skip)]
    pub(crate) comments: Comments,
}

/// A field (or an extension).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FieldDef {
    /// Name as declared.
    pub name: String,
    /// Full name (`pkg.Msg.field`; for an extension, its scope plus name).
    pub full_name: String,
    /// Field number, 1..=2^29−1 (SPEC §4.3).
    pub number: u32,
    /// Position in declaration order within its message or extend scope.
    pub index: usize,
    /// JSON name (the `json_name` option, else protoc's lowerCamelCase).
    pub json_name: String,
    /// Whether `json_name` was given explicitly.
    pub custom_json_name: bool,
    /// The resolved type (for a map: the entry message).
    pub ty: FieldType,
    /// Singular, repeated or map.
    pub cardinality: Cardinality,
    /// Presence tracking.
    pub presence: Presence,
    /// Index into the message's [`MessageDef::oneofs`] (real or synthetic).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub oneof: Option<usize>,
    /// proto3 `optional` (its synthetic oneof is in [`MessageDef::oneofs`]).
    pub proto3_optional: bool,
    /// proto2 `[default = …]` in protoc's text form (enum: the value name).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
    /// `[packed = …]` if given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub packed: Option<bool>,
    /// `[deprecated = true]`.
    pub deprecated: bool,
    /// For an extension: the full name of the extended message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extendee: Option<String>,
    /// All options as written, resolved.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<OptionDef>,
    /// Comments.
    #[serde(skip_serializing_if = "Comments::is_empty")]
    pub comments: Comments,
    /// The declaration.
    pub span: Span,
    #[serde(skip)]
    pub(crate) parts: FieldSpans,
    #[serde(skip)]
    pub(crate) encoded_options: Vec<u8>,
    /// Whether protobuf's binary form packs the field: `[packed]`, else proto3's and
    /// editions' default (used to encode option values as protoc does).
    #[serde(skip)]
    pub(crate) packed_on_wire: bool,
}

/// Spans of a field's parts (for source-code info).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct FieldSpans {
    pub(crate) label: Option<Span>,
    pub(crate) ty: Span,
    pub(crate) name: Span,
    pub(crate) number: Span,
    pub(crate) extendee: Option<Span>,
    pub(crate) options: Option<Span>,
    /// `[default = v]`: the value.
    pub(crate) default: Option<Span>,
    /// `[json_name = "n"]`: the entry and its value.
    pub(crate) json_name: Option<(Span, Span)>,
}

/// A `reserved` or `extensions` statement's places (for source-code info): the statement,
/// each range (whole, start, end), each name.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct RangeStmt {
    pub(crate) span: Span,
    pub(crate) comments: Comments,
    pub(crate) ranges: Vec<[Span; 3]>,
    pub(crate) names: Vec<Span>,
}

/// An `extend` block's place (for source-code info).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct ExtendDecl {
    pub(crate) span: Span,
    pub(crate) comments: Comments,
    pub(crate) fields: usize,
}

/// Spans of file-level statements (for source-code info).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct FileDecls {
    pub(crate) root: Span,
    pub(crate) syntax: Option<(Span, Comments)>,
    pub(crate) package: Option<(Span, Comments)>,
    pub(crate) imports: Vec<(Span, Comments)>,
    /// `import option` statements.
    pub(crate) option_imports: Vec<(Span, Comments)>,
    /// `public`/`weak` keywords: (is public, span).
    pub(crate) import_kinds: Vec<(bool, Span)>,
    pub(crate) extends: Vec<ExtendDecl>,
}

/// A oneof; members point at it with [`FieldDef::oneof`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OneofDef {
    /// Name (for a synthetic oneof of a proto3 `optional` field: `_<field>`).
    pub name: String,
    /// Synthesized for a proto3 `optional` field.
    pub synthetic: bool,
    /// Member field numbers in declaration order.
    pub fields: Vec<u32>,
    #[serde(skip)]
    pub(crate) name_span: Option<Span>,
    #[serde(skip)]
    pub(crate) encoded_options: Vec<u8>,
    /// Options.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<OptionDef>,
    /// Comments.
    #[serde(skip_serializing_if = "Comments::is_empty")]
    pub comments: Comments,
    /// The declaration.
    pub span: Span,
}

/// An inclusive range of numbers (`reserved 5 to 9;` is `5..=9`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct NumberRange {
    /// First number.
    pub start: i64,
    /// Last number (inclusive).
    pub end: i64,
}

/// A message.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MessageDef {
    /// Short name.
    pub name: String,
    /// Full name (`pkg.Outer.Inner`).
    pub full_name: String,
    /// Fields in field-number order.
    pub fields: Vec<FieldDef>,
    /// Oneofs: declared ones first, then synthetic ones.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub oneofs: Vec<OneofDef>,
    /// Nested messages (including map entries) in declaration order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub messages: Vec<MessageDef>,
    /// Nested enums.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub enums: Vec<EnumDef>,
    /// Extensions declared inside this message.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extensions: Vec<FieldDef>,
    /// `extensions …` ranges.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extension_ranges: Vec<NumberRange>,
    /// Reserved numbers.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reserved_ranges: Vec<NumberRange>,
    /// Reserved names.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reserved_names: Vec<String>,
    /// Synthesized entry message of a map field.
    pub map_entry: bool,
    /// `export` (true) or `local` (false) as written (edition 2024).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visibility: Option<bool>,
    /// `option deprecated = true;`
    pub deprecated: bool,
    /// Options.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<OptionDef>,
    /// Comments.
    #[serde(skip_serializing_if = "Comments::is_empty")]
    pub comments: Comments,
    /// The declaration.
    pub span: Span,
    #[serde(skip)]
    pub(crate) name_span: Span,
    #[serde(skip)]
    pub(crate) extension_range_decls: Vec<RangeStmt>,
    #[serde(skip)]
    pub(crate) reserved_decls: Vec<RangeStmt>,
    #[serde(skip)]
    pub(crate) extend_decls: Vec<ExtendDecl>,
    /// Encoded options of each extension range (a statement's options repeat for each of
    /// its ranges).
    #[serde(skip)]
    pub(crate) extension_range_options: Vec<Vec<u8>>,
    /// Per extension range: the `[…]` span and the interpreted options.
    #[serde(skip)]
    pub(crate) extension_range_option_defs: Vec<(Option<Span>, Vec<OptionDef>)>,
    #[serde(skip)]
    pub(crate) encoded_options: Vec<u8>,
}

impl MessageDef {
    /// The field with this number.
    pub fn field(&self, number: u32) -> Option<&FieldDef> {
        self.fields
            .binary_search_by_key(&number, |f| f.number)
            .ok()
            .map(|i| &self.fields[i])
    }

    /// The field with this name.
    pub fn field_by_name(&self, name: &str) -> Option<&FieldDef> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// Fields in declaration order.
    pub fn fields_in_declaration_order(&self) -> Vec<&FieldDef> {
        let mut v: Vec<&FieldDef> = self.fields.iter().collect();
        v.sort_by_key(|f| f.index);
        v
    }

    /// The span of the message's name in its declaration.
    pub fn name_span(&self) -> Span {
        self.name_span
    }

    /// `option message_set_wire_format = true;`: protobuf's MessageSet, whose extensions
    /// have their own wire form. Schemas with one compile and write descriptor sets as
    /// protoc does; bijoubuf's format has no such form, so code generators refuse them.
    pub fn message_set_wire_format(&self) -> bool {
        self.options.iter().any(|o| {
            o.extension.is_none()
                && o.name == "message_set_wire_format"
                && o.value == OptionValue::Bool(true)
        })
    }
}

/// An enum value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EnumValueDef {
    /// Name.
    pub name: String,
    /// Number.
    pub number: i32,
    /// `[deprecated = true]`.
    pub deprecated: bool,
    /// Options.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<OptionDef>,
    /// Comments.
    #[serde(skip_serializing_if = "Comments::is_empty")]
    pub comments: Comments,
    /// The declaration.
    pub span: Span,
    #[serde(skip)]
    pub(crate) name_span: Span,
    #[serde(skip)]
    pub(crate) number_span: Span,
    #[serde(skip)]
    pub(crate) options_span: Option<Span>,
    #[serde(skip)]
    pub(crate) encoded_options: Vec<u8>,
}

/// An enum.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EnumDef {
    /// Short name.
    pub name: String,
    /// Full name.
    pub full_name: String,
    /// Values in declaration order.
    pub values: Vec<EnumValueDef>,
    /// `option allow_alias = true;`
    pub allow_alias: bool,
    /// `export` (true) or `local` (false) as written (edition 2024).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visibility: Option<bool>,
    /// Declared in a proto2 file: unknown numbers are not values of the enum.
    pub closed: bool,
    /// `option deprecated = true;`
    pub deprecated: bool,
    /// Reserved numbers.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reserved_ranges: Vec<NumberRange>,
    /// Reserved names.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reserved_names: Vec<String>,
    /// Options.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<OptionDef>,
    /// Comments.
    #[serde(skip_serializing_if = "Comments::is_empty")]
    pub comments: Comments,
    /// The declaration.
    pub span: Span,
    #[serde(skip)]
    pub(crate) name_span: Span,
    #[serde(skip)]
    pub(crate) reserved_decls: Vec<RangeStmt>,
    #[serde(skip)]
    pub(crate) encoded_options: Vec<u8>,
}

impl EnumDef {
    /// The first value with this number.
    pub fn value(&self, number: i32) -> Option<&EnumValueDef> {
        self.values.iter().find(|v| v.number == number)
    }

    /// The span of the enum's name in its declaration.
    pub fn name_span(&self) -> Span {
        self.name_span
    }
}

/// An rpc method.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MethodDef {
    /// Name.
    pub name: String,
    /// Full name of the request message.
    pub input_type: String,
    /// Full name of the response message.
    pub output_type: String,
    /// `stream` request.
    pub client_streaming: bool,
    /// `stream` response.
    pub server_streaming: bool,
    #[serde(skip)]
    pub(crate) spans: [Span; 3],
    #[serde(skip)]
    pub(crate) stream_spans: [Option<Span>; 2],
    /// Options.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<OptionDef>,
    /// Comments.
    #[serde(skip_serializing_if = "Comments::is_empty")]
    pub comments: Comments,
    /// The declaration.
    pub span: Span,
    #[serde(skip)]
    pub(crate) encoded_options: Vec<u8>,
    /// Written with a `{ … }` body: the descriptor then carries an options message.
    #[serde(skip)]
    pub(crate) has_body: bool,
}

/// A service: in descriptors always; as code when the generators are asked for services.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ServiceDef {
    /// Short name.
    pub name: String,
    /// Full name.
    pub full_name: String,
    /// Methods.
    pub methods: Vec<MethodDef>,
    #[serde(skip)]
    pub(crate) name_span: Span,
    /// Options.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<OptionDef>,
    /// Comments.
    #[serde(skip_serializing_if = "Comments::is_empty")]
    pub comments: Comments,
    /// The declaration.
    pub span: Span,
    #[serde(skip)]
    pub(crate) encoded_options: Vec<u8>,
}

/// One .proto file.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FileDef {
    /// Name as imported (`google/protobuf/timestamp.proto`).
    pub name: String,
    /// Package (empty when none).
    pub package: String,
    /// Syntax.
    pub syntax: Syntax,
    /// Imports in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dependencies: Vec<String>,
    /// Indexes into `dependencies` of `import public`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub public_dependencies: Vec<usize>,
    /// Indexes into `dependencies` of `import weak`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub weak_dependencies: Vec<usize>,
    /// `import option "…";` (edition 2024): files whose definitions only the file's
    /// options use; not in `dependencies`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub option_dependencies: Vec<String>,
    /// Top-level messages.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub messages: Vec<MessageDef>,
    /// Top-level enums.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub enums: Vec<EnumDef>,
    /// Services.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub services: Vec<ServiceDef>,
    /// Top-level extensions.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extensions: Vec<FieldDef>,
    /// File options.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<OptionDef>,
    /// Whether the file was asked for (not only imported).
    pub requested: bool,
    #[serde(skip)]
    pub(crate) source: crate::SourceInfo,
    #[serde(skip)]
    pub(crate) decls: FileDecls,
    #[serde(skip)]
    pub(crate) encoded_options: Vec<u8>,
}

impl FileDef {
    /// The file's text as it was read: what every span of the file indexes into.
    pub fn source_text(&self) -> &str {
        self.source.text.inner()
    }
}

/// A message or an enum found by full name.
#[derive(Clone, Copy, Debug)]
pub enum TypeDef<'a> {
    /// A message.
    Message(&'a MessageDef),
    /// An enum.
    Enum(&'a EnumDef),
}

/// Where a type lives: file index, then nested message indexes, then maybe an enum index.
#[derive(Clone, Debug)]
pub(crate) struct TypePath {
    pub(crate) file: usize,
    pub(crate) messages: Vec<usize>,
    pub(crate) enumeration: Option<usize>,
}

/// A checked set of files: the requested ones and everything they import, dependencies
/// first.
#[derive(Clone, Debug, Serialize)]
pub struct Schema {
    pub(crate) files: Vec<FileDef>,
    #[serde(skip)]
    pub(crate) types: HashMap<String, TypePath>,
}

impl Schema {
    /// Every file, dependencies before the files that import them.
    pub fn files(&self) -> &[FileDef] {
        &self.files
    }

    /// A file by name.
    pub fn file(&self, name: &str) -> Option<&FileDef> {
        self.files.iter().find(|f| f.name == name)
    }

    /// A message or enum by full name (no leading dot).
    pub fn lookup(&self, full_name: &str) -> Option<TypeDef<'_>> {
        let path = self
            .types
            .get(full_name.strip_prefix('.').unwrap_or(full_name))?;
        let file = self.files.get(path.file)?;
        let mut msg: Option<&MessageDef> = None;
        for &i in &path.messages {
            msg = Some(match msg {
                None => file.messages.get(i)?,
                Some(m) => m.messages.get(i)?,
            });
        }
        match (path.enumeration, msg) {
            (Some(e), None) => file.enums.get(e).map(TypeDef::Enum),
            (Some(e), Some(m)) => m.enums.get(e).map(TypeDef::Enum),
            (None, Some(m)) => Some(TypeDef::Message(m)),
            (None, None) => None,
        }
    }

    /// A message by full name.
    pub fn message(&self, full_name: &str) -> Option<&MessageDef> {
        match self.lookup(full_name)? {
            TypeDef::Message(m) => Some(m),
            TypeDef::Enum(_) => None,
        }
    }

    /// An enum by full name.
    pub fn enumeration(&self, full_name: &str) -> Option<&EnumDef> {
        match self.lookup(full_name)? {
            TypeDef::Enum(e) => Some(e),
            TypeDef::Message(_) => None,
        }
    }
}
