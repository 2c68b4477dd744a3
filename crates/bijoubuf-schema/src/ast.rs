//! The syntax tree: what a .proto file says, before names are resolved.

use crate::model::{Comments, Syntax};
use crate::span::Span;

/// A name and where it is written.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Ident {
    pub(crate) name: String,
    pub(crate) span: Span,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct File {
    /// From the first token to the end of the last.
    pub(crate) span: Span,
    pub(crate) syntax: Syntax,
    pub(crate) syntax_span: Option<Span>,
    pub(crate) syntax_comments: Comments,
    pub(crate) package: Option<Package>,
    pub(crate) imports: Vec<Import>,
    pub(crate) options: Vec<OptionStmt>,
    pub(crate) messages: Vec<Message>,
    pub(crate) enums: Vec<Enum>,
    pub(crate) services: Vec<Service>,
    pub(crate) extends: Vec<Extend>,
}

#[derive(Clone, Debug)]
pub(crate) struct Package {
    pub(crate) name: Ident,
    pub(crate) span: Span,
    pub(crate) comments: Comments,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ImportKind {
    Normal,
    Public,
    Weak,
    /// `import option "…";` (edition 2024): for the options of the file only.
    Option,
}

#[derive(Clone, Debug)]
pub(crate) struct Import {
    pub(crate) path: String,
    pub(crate) path_span: Span,
    pub(crate) kind: ImportKind,
    /// The `public` or `weak` keyword.
    pub(crate) kind_span: Option<Span>,
    pub(crate) span: Span,
    pub(crate) comments: Comments,
}

/// One part of an option name: `foo` or `(foo.bar)`.
#[derive(Clone, Debug)]
pub(crate) struct NamePart {
    pub(crate) name: String,
    pub(crate) is_extension: bool,
    pub(crate) span: Span,
}

#[derive(Clone, Debug)]
pub(crate) struct OptionStmt {
    pub(crate) name: Vec<NamePart>,
    pub(crate) value: Value,
    pub(crate) span: Span,
    /// Comments of an `option …;` statement (none for `[…]` entries).
    pub(crate) comments: Comments,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ValueKind {
    /// `true`, `inf`, an enum value name, …
    Ident(String),
    /// An integer with its sign kept apart so `-9223372036854775808` fits.
    Int {
        negative: bool,
        magnitude: u64,
        /// Written in decimal (text format refuses hex and octal for floating-point
        /// fields).
        decimal: bool,
    },
    Float(f64),
    Str(Vec<u8>),
    /// Text-format message `{ a: 1 b { c: 2 } }`.
    Aggregate(Vec<AggregateField>),
    /// `[1, 2]` (only inside aggregates).
    List(Vec<Value>),
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Value {
    pub(crate) kind: ValueKind,
    pub(crate) span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct AggregateField {
    /// Field name, or the full name of an extension written `[a.b.c]`.
    pub(crate) name: String,
    pub(crate) is_extension: bool,
    pub(crate) name_span: Span,
    pub(crate) value: Value,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Label {
    Optional,
    Repeated,
    Required,
}

#[derive(Clone, Debug)]
pub(crate) struct Field {
    pub(crate) label: Option<(Label, Span)>,
    /// The type as written (`int32`, `Foo.Bar`, `.pkg.Baz`; for a map the entry's name).
    pub(crate) ty: Ident,
    /// `map<K, V>`: the key and value types as written.
    pub(crate) map: Option<(Ident, Ident)>,
    pub(crate) name: Ident,
    pub(crate) number: i64,
    pub(crate) number_span: Span,
    pub(crate) options: Vec<OptionStmt>,
    /// The `[…]` list.
    pub(crate) options_span: Option<Span>,
    pub(crate) oneof: Option<usize>,
    pub(crate) span: Span,
    pub(crate) comments: Comments,
}

#[derive(Clone, Debug)]
pub(crate) struct Oneof {
    pub(crate) name: Ident,
    pub(crate) options: Vec<OptionStmt>,
    pub(crate) span: Span,
    pub(crate) comments: Comments,
}

/// `a`, `a to b` or `a to max` (inclusive; `max` replaced by the parser's number for
/// it, which a MessageSet's ranges change).
#[derive(Clone, Debug)]
pub(crate) struct Range {
    pub(crate) start: i64,
    pub(crate) end: i64,
    pub(crate) span: Span,
    pub(crate) start_span: Span,
    pub(crate) end_span: Span,
    /// The end was written `max` (`end` then holds the parser's default for it).
    pub(crate) max: bool,
}

#[derive(Clone, Debug)]
pub(crate) struct ExtensionRanges {
    pub(crate) ranges: Vec<Range>,
    pub(crate) options: Vec<OptionStmt>,
    pub(crate) options_span: Option<Span>,
    pub(crate) span: Span,
    pub(crate) comments: Comments,
}

#[derive(Clone, Debug)]
pub(crate) struct Reserved {
    pub(crate) ranges: Vec<Range>,
    pub(crate) names: Vec<Ident>,
    pub(crate) span: Span,
    pub(crate) comments: Comments,
}

#[derive(Clone, Debug)]
pub(crate) struct Message {
    pub(crate) name: Ident,
    pub(crate) fields: Vec<Field>,
    pub(crate) oneofs: Vec<Oneof>,
    pub(crate) messages: Vec<Message>,
    pub(crate) enums: Vec<Enum>,
    pub(crate) extends: Vec<Extend>,
    pub(crate) extension_ranges: Vec<ExtensionRanges>,
    pub(crate) reserved: Vec<Reserved>,
    pub(crate) options: Vec<OptionStmt>,
    /// Synthesized by the parser for a `map<K, V>` field.
    pub(crate) map_entry: bool,
    /// `export` (true) or `local` (false) as written (edition 2024).
    pub(crate) visibility: Option<(bool, Span)>,
    pub(crate) span: Span,
    pub(crate) comments: Comments,
}

#[derive(Clone, Debug)]
pub(crate) struct EnumValue {
    pub(crate) name: Ident,
    pub(crate) number: i64,
    pub(crate) number_span: Span,
    pub(crate) options: Vec<OptionStmt>,
    pub(crate) options_span: Option<Span>,
    pub(crate) span: Span,
    pub(crate) comments: Comments,
}

#[derive(Clone, Debug)]
pub(crate) struct Enum {
    pub(crate) name: Ident,
    /// `export` (true) or `local` (false) as written (edition 2024).
    pub(crate) visibility: Option<(bool, Span)>,
    pub(crate) values: Vec<EnumValue>,
    pub(crate) options: Vec<OptionStmt>,
    pub(crate) reserved: Vec<Reserved>,
    pub(crate) span: Span,
    pub(crate) comments: Comments,
}

#[derive(Clone, Debug)]
pub(crate) struct Extend {
    pub(crate) extendee: Ident,
    pub(crate) fields: Vec<Field>,
    pub(crate) span: Span,
    pub(crate) comments: Comments,
}

#[derive(Clone, Debug)]
pub(crate) struct Method {
    pub(crate) name: Ident,
    pub(crate) input: Ident,
    /// The `stream` keyword before the request type.
    pub(crate) input_stream: Option<Span>,
    pub(crate) output: Ident,
    pub(crate) output_stream: Option<Span>,
    pub(crate) options: Vec<OptionStmt>,
    /// Written with a `{ … }` body (protoc then writes an options message, even empty).
    pub(crate) has_body: bool,
    pub(crate) span: Span,
    pub(crate) comments: Comments,
}

#[derive(Clone, Debug)]
pub(crate) struct Service {
    pub(crate) name: Ident,
    pub(crate) methods: Vec<Method>,
    pub(crate) options: Vec<OptionStmt>,
    pub(crate) span: Span,
    pub(crate) comments: Comments,
}
