//! The checked model as a `FileDescriptorSet`, with source-code info.
//!
//! Descriptors are built as [`wire`] messages, which keep each options message as the
//! bytes the option interpreter wrote: standard options and custom options (extensions)
//! alike. Encoded, they are the set protoc writes; decoded as `prost_types`, they are the
//! older view without extensions (which `prost_types` messages cannot hold).

mod canonical;
mod wire;

use prost::Message as _;
use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::source_code_info::Location;
use prost_types::{FileDescriptorSet, SourceCodeInfo};
use wire::{
    DescriptorProto, EnumDescriptorProto, EnumValueDescriptorProto, FieldDescriptorProto,
    FileDescriptorProto, MethodDescriptorProto, OneofDescriptorProto, RawOptions,
    ServiceDescriptorProto,
};

use crate::SourceInfo;
use crate::model::{
    Cardinality, Comments, EnumDef, ExtendDecl, FieldDef, FieldType, FileDef, MessageDef,
    OptionDef, Presence, RangeStmt, ScalarType, Schema, Syntax,
};
use crate::span::Span;

/// An options message, present when any option was set.
fn options_of(bytes: &[u8]) -> Option<RawOptions> {
    (!bytes.is_empty()).then(|| wire::written_options(bytes))
}

fn scalar_type(s: ScalarType) -> Type {
    use ScalarType::*;
    match s {
        Double => Type::Double,
        Float => Type::Float,
        Int32 => Type::Int32,
        Int64 => Type::Int64,
        Uint32 => Type::Uint32,
        Uint64 => Type::Uint64,
        Sint32 => Type::Sint32,
        Sint64 => Type::Sint64,
        Fixed32 => Type::Fixed32,
        Fixed64 => Type::Fixed64,
        Sfixed32 => Type::Sfixed32,
        Sfixed64 => Type::Sfixed64,
        Bool => Type::Bool,
        String => Type::String,
        Bytes => Type::Bytes,
    }
}

/// Records source locations in the order protoc does (pre-order).
struct Locs<'a> {
    src: &'a SourceInfo,
    /// The file is proto3 (for `proto3_optional` on extensions).
    proto3: bool,
    path: Vec<i32>,
    out: Vec<Location>,
}

impl Locs<'_> {
    fn span(&self, span: Span) -> Vec<i32> {
        let text = self.src.text.inner();
        let (l1, c1) = self.src.lines.line_col(text, span.start);
        let (l2, c2) = self.src.lines.line_col(text, span.end);
        let v = |x: usize| i32::try_from(x).unwrap_or(i32::MAX);
        if l1 == l2 {
            vec![v(l1), v(c1), v(c2)]
        } else {
            vec![v(l1), v(c1), v(l2), v(c2)]
        }
    }

    fn add(&mut self, extra: &[i32], span: Span, comments: Option<&Comments>) {
        let mut path = self.path.clone();
        path.extend_from_slice(extra);
        let c = comments.cloned().unwrap_or_default();
        self.out.push(Location {
            path,
            span: self.span(span),
            leading_comments: c.leading,
            trailing_comments: c.trailing,
            leading_detached_comments: c.detached,
        });
    }

    fn push(&mut self, parts: &[i32]) {
        self.path.extend_from_slice(parts);
    }

    fn pop(&mut self, n: usize) {
        self.path.truncate(self.path.len() - n);
    }
}

/// Locations in the order protoc's parser records them: each where its text starts,
/// an element before its parts, so a oneof comes before its fields and an `extend`
/// block or option statement among the declarations around it. Two exceptions: an
/// extension's extendee (written once, before the block) is recorded for each of its
/// fields, right after the field's own location; and the options of an `extensions`
/// statement (written once, after its ranges) are recorded for each range in turn,
/// the bracket then its options.
fn protoc_location_order(locations: Vec<Location>) -> Vec<Location> {
    let start = |l: &Location| (l.span.first().copied(), l.span.get(1).copied());
    let mut keyed: Vec<_> = locations
        .into_iter()
        .map(|l| {
            let p = &l.path;
            let n = p.len();
            let extendee = p.last() == Some(&2)
                && ((n == 3 && p[0] == 7) || (n >= 5 && n % 2 == 1 && p[0] == 4 && p[n - 3] == 6));
            // (start, path length, not an extendee, range, own start, own length)
            let own = (start(&l), n);
            ((own.0, n, !extendee, 0, own), l)
        })
        .collect();
    for i in 1..keyed.len() {
        let path = &keyed[i].1.path;
        // An extendee location sorts with its field (the path one shorter).
        let field = (!keyed[i].0.2)
            .then(|| {
                (0..i)
                    .rev()
                    .find(|&j| keyed[j].1.path[..] == path[..path.len() - 1])
            })
            .flatten();
        // An extension range's options sort with that range's copy of the bracket,
        // ranges in order.
        let bracket = range_options_path(path).and_then(|len| {
            let range = path[len - 2];
            (0..=i)
                .rev()
                .find(|&j| keyed[j].1.path[..] == path[..len])
                .map(|j| (j, range))
        });
        if let Some(j) = field {
            keyed[i].0.0 = keyed[j].0.0;
        }
        if let Some((j, range)) = bracket {
            keyed[i].0.0 = keyed[j].0.0;
            keyed[i].0.1 = keyed[j].0.1;
            keyed[i].0.3 = range;
        }
    }
    keyed.sort_by_key(|(key, _)| *key);
    keyed.into_iter().map(|(_, l)| l).collect()
}

/// For a path inside a message's extension range options (`…, 5, k, 3, …`), the length
/// of the path of those options (ending in the `3`).
fn range_options_path(p: &[i32]) -> Option<usize> {
    if p.first() != Some(&4) {
        return None;
    }
    // Past `4, i` and any nested messages (`3, j`).
    let mut i = 2;
    while p.get(i) == Some(&3) && i + 1 < p.len() {
        i += 2;
    }
    (p.get(i) == Some(&5) && p.get(i + 2) == Some(&3)).then_some(i + 3)
}

/// descriptor.proto's SymbolVisibility of `export` (true) or `local` (false).
fn visibility(export: bool) -> i32 {
    if export { 2 } else { 1 }
}

/// An extension written `optional` in a proto3 file.
fn proto3_optional_extension(f: &FieldDef, proto3: bool) -> bool {
    proto3
        && f.extendee.is_some()
        && f.parts.label.is_some()
        && f.cardinality == Cardinality::Single
}

fn idx(i: usize) -> i32 {
    i32::try_from(i).unwrap_or(i32::MAX)
}

fn field(f: &FieldDef, locs: &mut Locs<'_>, path: &[i32]) -> FieldDescriptorProto {
    locs.push(path);
    locs.add(&[], f.span, Some(&f.comments));
    let label = match (&f.cardinality, f.presence) {
        (Cardinality::Repeated | Cardinality::Map { .. }, _) => Label::Repeated,
        // An edition's LEGACY_REQUIRED field has no label: protoc writes it optional.
        (_, Presence::Required) if f.parts.label.is_some() => Label::Required,
        _ => Label::Optional,
    };
    if let Some(span) = f.parts.label {
        locs.add(&[4], span, None);
    }
    let (ty, type_name) = match &f.ty {
        FieldType::Scalar(s) => (scalar_type(*s), None),
        FieldType::Message(m) => (Type::Message, Some(format!(".{m}"))),
        FieldType::Enum(e) => (Type::Enum, Some(format!(".{e}"))),
    };
    let type_tag = if type_name.is_some() { 6 } else { 5 };
    locs.add(&[type_tag], f.parts.ty, None);
    if let Some(span) = f.parts.extendee {
        locs.add(&[2], span, None);
    }
    locs.add(&[1], f.parts.name, None);
    locs.add(&[3], f.parts.number, None);
    option_locs(&f.options, f.parts.options, locs, 8);
    if let Some(span) = f.parts.default {
        locs.add(&[7], span, None);
    }
    if let Some((entry, value)) = f.parts.json_name {
        locs.add(&[10], entry, None);
        locs.add(&[10], value, None);
    }
    locs.pop(path.len());
    FieldDescriptorProto {
        name: Some(f.name.clone()),
        number: Some(f.number as i32),
        label: Some(label as i32),
        r#type: Some(ty as i32),
        type_name,
        extendee: f.extendee.as_ref().map(|e| format!(".{e}")),
        default_value: f.default.clone(),
        oneof_index: f.oneof.map(idx),
        json_name: Some(f.json_name.clone()),
        options: options_of(&f.encoded_options),
        // protoc also marks a proto3 extension written `optional` (which has no synthetic
        // oneof, so the model does not).
        proto3_optional: (f.proto3_optional || proto3_optional_extension(f, locs.proto3))
            .then_some(true),
    }
}

/// Options: a statement at `[tag]` and at `[tag, path…]` (the option's field numbers); a
/// `[…]` list at `[tag]` once and each entry at `[tag, path…]`.
fn option_locs(defs: &[OptionDef], bracket: Option<Span>, locs: &mut Locs<'_>, tag: i32) {
    if let Some(b) = bracket {
        locs.add(&[tag], b, None);
    }
    for d in defs {
        if bracket.is_none() {
            locs.add(&[tag], d.span, None);
        }
        let mut path = vec![tag];
        path.extend_from_slice(&d.path);
        let comments = if bracket.is_none() {
            Some(&d.comments)
        } else {
            None
        };
        locs.add(&path, d.span, comments);
    }
}

/// `reserved`/`extensions` statements: each statement at `[range_tag]` (or `[name_tag]`
/// for names), each range at `[range_tag, k]` with its start at `1` and end at `2`, each
/// name at `[name_tag, k]`.
fn range_stmts(stmts: &[RangeStmt], locs: &mut Locs<'_>, range_tag: i32, name_tag: i32) {
    let (mut r, mut n) = (0, 0);
    for s in stmts {
        if !s.ranges.is_empty() {
            locs.add(&[range_tag], s.span, Some(&s.comments));
        }
        for [whole, start, end] in &s.ranges {
            locs.add(&[range_tag, r], *whole, None);
            locs.add(&[range_tag, r, 1], *start, None);
            locs.add(&[range_tag, r, 2], *end, None);
            r += 1;
        }
        if !s.names.is_empty() {
            locs.add(&[name_tag], s.span, Some(&s.comments));
        }
        for span in &s.names {
            locs.add(&[name_tag, n], *span, None);
            n += 1;
        }
    }
}

/// Extensions of one scope; each `extend` block is a location at `tag` itself.
fn extensions(
    defs: &[FieldDef],
    blocks: &[ExtendDecl],
    locs: &mut Locs<'_>,
    tag: i32,
) -> Vec<FieldDescriptorProto> {
    for b in blocks {
        locs.add(&[tag], b.span, Some(&b.comments));
    }
    defs.iter()
        .enumerate()
        .map(|(i, x)| field(x, locs, &[tag, idx(i)]))
        .collect()
}

fn enumeration(e: &EnumDef, locs: &mut Locs<'_>, path: &[i32]) -> EnumDescriptorProto {
    locs.push(path);
    locs.add(&[], e.span, Some(&e.comments));
    locs.add(&[1], e.name_span, None);
    range_stmts(&e.reserved_decls, locs, 4, 5);
    option_locs(&e.options, None, locs, 3);
    let value = e
        .values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            locs.push(&[2, idx(i)]);
            locs.add(&[], v.span, Some(&v.comments));
            locs.add(&[1], v.name_span, None);
            locs.add(&[2], v.number_span, None);
            option_locs(&v.options, v.options_span, locs, 3);
            locs.pop(2);
            EnumValueDescriptorProto {
                name: Some(v.name.clone()),
                number: Some(v.number),
                options: options_of(&v.encoded_options),
            }
        })
        .collect();
    locs.pop(path.len());
    EnumDescriptorProto {
        visibility: e.visibility.map(visibility),
        name: Some(e.name.clone()),
        value,
        options: options_of(&e.encoded_options),
        reserved_range: e
            .reserved_ranges
            .iter()
            .map(|r| wire::ReservedRange {
                start: Some(r.start as i32),
                end: Some(r.end as i32),
            })
            .collect(),
        reserved_name: e.reserved_names.clone(),
    }
}

fn message(m: &MessageDef, locs: &mut Locs<'_>, path: &[i32]) -> DescriptorProto {
    locs.push(path);
    if !m.map_entry {
        locs.add(&[], m.span, Some(&m.comments));
        locs.add(&[1], m.name_span, None);
    }
    let mut decl: Vec<&FieldDef> = m.fields.iter().collect();
    decl.sort_by_key(|f| f.index);
    let fields: Vec<FieldDescriptorProto> = if m.map_entry {
        let mut sink = Locs {
            src: locs.src,
            proto3: locs.proto3,
            path: Vec::new(),
            out: Vec::new(),
        };
        decl.iter().map(|f| field(f, &mut sink, &[])).collect()
    } else {
        decl.iter()
            .enumerate()
            .map(|(i, f)| field(f, locs, &[2, idx(i)]))
            .collect()
    };
    let oneofs = m
        .oneofs
        .iter()
        .enumerate()
        .map(|(i, o)| {
            if let Some(name_span) = o.name_span {
                locs.add(&[8, idx(i)], o.span, Some(&o.comments));
                locs.add(&[8, idx(i), 1], name_span, None);
                locs.push(&[8, idx(i)]);
                option_locs(&o.options, None, locs, 2);
                locs.pop(2);
            }
            OneofDescriptorProto {
                name: Some(o.name.clone()),
                options: options_of(&o.encoded_options),
            }
        })
        .collect();
    let nested = m
        .messages
        .iter()
        .enumerate()
        .map(|(i, n)| message(n, locs, &[3, idx(i)]))
        .collect();
    let enums = m
        .enums
        .iter()
        .enumerate()
        .map(|(i, e)| enumeration(e, locs, &[4, idx(i)]))
        .collect();
    let extensions = extensions(&m.extensions, &m.extend_decls, locs, 6);
    range_stmts(&m.extension_range_decls, locs, 5, 5);
    for (k, (bracket, defs)) in m.extension_range_option_defs.iter().enumerate() {
        if bracket.is_some() {
            locs.push(&[5, idx(k)]);
            option_locs(defs, *bracket, locs, 3);
            locs.pop(2);
        }
    }
    if !m.map_entry {
        option_locs(&m.options, None, locs, 7);
    }
    range_stmts(&m.reserved_decls, locs, 9, 10);
    locs.pop(path.len());
    let options = if m.map_entry {
        // MessageOptions.map_entry (field 7) = true.
        Some(RawOptions(vec![0x38, 0x01]))
    } else {
        options_of(&m.encoded_options)
    };
    DescriptorProto {
        visibility: m.visibility.map(visibility),
        name: Some(m.name.clone()),
        field: fields,
        extension: extensions,
        nested_type: nested,
        enum_type: enums,
        extension_range: m
            .extension_ranges
            .iter()
            .enumerate()
            .map(|(i, r)| wire::ExtensionRange {
                start: Some(r.start as i32),
                // Exclusive, as descriptor.proto writes ranges.
                end: Some(r.end as i32 + 1),
                options: m.extension_range_options.get(i).and_then(|b| options_of(b)),
            })
            .collect(),
        oneof_decl: oneofs,
        options,
        reserved_range: m
            .reserved_ranges
            .iter()
            .map(|r| wire::ReservedRange {
                start: Some(r.start as i32),
                end: Some(r.end as i32 + 1),
            })
            .collect(),
        reserved_name: m.reserved_names.clone(),
    }
}

/// One file as a `FileDescriptorProto` with source-code info.
fn file(f: &FileDef) -> FileDescriptorProto {
    let mut locs = Locs {
        src: &f.source,
        proto3: f.syntax == Syntax::Proto3,
        path: Vec::new(),
        out: Vec::new(),
    };
    locs.add(&[], f.decls.root, None);
    if let Some((span, c)) = &f.decls.syntax {
        locs.add(&[12], *span, Some(c));
    }
    if let Some((span, c)) = &f.decls.package {
        locs.add(&[2], *span, Some(c));
    }
    for (i, (span, c)) in f.decls.imports.iter().enumerate() {
        locs.add(&[3, idx(i)], *span, Some(c));
    }
    for (i, (span, c)) in f.decls.option_imports.iter().enumerate() {
        locs.add(&[15, idx(i)], *span, Some(c));
    }
    option_locs(&f.options, None, &mut locs, 8);
    let (mut public, mut weak) = (0, 0);
    for (is_public, span) in &f.decls.import_kinds {
        let (tag, n) = if *is_public {
            (10, &mut public)
        } else {
            (11, &mut weak)
        };
        locs.add(&[tag, *n], *span, None);
        *n += 1;
    }
    let message_type = f
        .messages
        .iter()
        .enumerate()
        .map(|(i, m)| message(m, &mut locs, &[4, idx(i)]))
        .collect();
    let enum_type = f
        .enums
        .iter()
        .enumerate()
        .map(|(i, e)| enumeration(e, &mut locs, &[5, idx(i)]))
        .collect();
    let service = f
        .services
        .iter()
        .enumerate()
        .map(|(i, s)| {
            locs.push(&[6, idx(i)]);
            locs.add(&[], s.span, Some(&s.comments));
            locs.add(&[1], s.name_span, None);
            option_locs(&s.options, None, &mut locs, 3);
            let method = s
                .methods
                .iter()
                .enumerate()
                .map(|(j, m)| {
                    locs.add(&[2, idx(j)], m.span, Some(&m.comments));
                    for (tag, span) in [1, 2, 3].into_iter().zip(m.spans) {
                        locs.add(&[2, idx(j), tag], span, None);
                    }
                    for (tag, span) in [5, 6].into_iter().zip(m.stream_spans) {
                        if let Some(span) = span {
                            locs.add(&[2, idx(j), tag], span, None);
                        }
                    }
                    locs.push(&[2, idx(j)]);
                    option_locs(&m.options, None, &mut locs, 4);
                    locs.pop(2);
                    MethodDescriptorProto {
                        name: Some(m.name.clone()),
                        input_type: Some(format!(".{}", m.input_type)),
                        output_type: Some(format!(".{}", m.output_type)),
                        // `rpc … {}` has an options message, even an empty one.
                        options: if m.has_body {
                            Some(wire::written_options(&m.encoded_options))
                        } else {
                            options_of(&m.encoded_options)
                        },
                        client_streaming: m.client_streaming.then_some(true),
                        server_streaming: m.server_streaming.then_some(true),
                    }
                })
                .collect();
            locs.pop(2);
            ServiceDescriptorProto {
                name: Some(s.name.clone()),
                method,
                options: options_of(&s.encoded_options),
            }
        })
        .collect();
    let extension = extensions(&f.extensions, &f.decls.extends, &mut locs, 7);
    FileDescriptorProto {
        option_dependency: f.option_dependencies.clone(),
        name: Some(f.name.clone()),
        package: (!f.package.is_empty()).then(|| f.package.clone()),
        dependency: f.dependencies.clone(),
        public_dependency: f.public_dependencies.iter().map(|&i| idx(i)).collect(),
        weak_dependency: f.weak_dependencies.iter().map(|&i| idx(i)).collect(),
        message_type,
        enum_type,
        service,
        extension,
        options: options_of(&f.encoded_options),
        source_code_info: Some(SourceCodeInfo {
            location: protoc_location_order(locs.out),
        }),
        syntax: match f.syntax {
            Syntax::Proto3 => Some("proto3".into()),
            Syntax::Edition2023 | Syntax::Edition2024 | Syntax::Edition2026 => {
                Some("editions".into())
            }
            // protoc leaves `syntax` unset for proto2.
            Syntax::Proto2 => None,
        },
        // descriptor.proto's `Edition` numbers; protoc writes the field only for editions
        // files (the `prost_types` view has no such field and drops it).
        edition: f.syntax.is_edition().then(|| f.syntax.edition_number()),
    }
}

/// What [`Schema::encode_descriptor_set`] writes beyond the requested files'
/// descriptors: protoc's flags, off by default as in protoc.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DescriptorSetOptions {
    /// Every file the requested ones import, transitively, dependencies first
    /// (`--include_imports`).
    pub include_imports: bool,
    /// Source-code info: spans and comments (`--include_source_info`).
    pub include_source_info: bool,
    /// Options of source retention kept, custom options as written (`--retain_options`).
    pub retain_options: bool,
}

impl Schema {
    /// The requested files as `prost_types` descriptors (imports are referenced by name,
    /// not included).
    ///
    /// `prost_types` options messages cannot hold extensions, so custom options are
    /// missing here (an element with only custom options has an empty options message),
    /// as are standard options newer than `prost_types`' copy of descriptor.proto. Use
    /// [`encode_file_descriptor_set`](Self::encode_file_descriptor_set) for the set with
    /// every option, as protoc writes it.
    pub fn file_descriptor_set(&self) -> FileDescriptorSet {
        FileDescriptorSet {
            file: self.selected(false).map(|f| to_prost(file(f))).collect(),
        }
    }

    /// The requested files and everything they import, dependencies first, as
    /// `prost_types` descriptors (without custom options; see
    /// [`file_descriptor_set`](Self::file_descriptor_set)).
    pub fn file_descriptor_set_with_imports(&self) -> FileDescriptorSet {
        FileDescriptorSet {
            file: self.selected(true).map(|f| to_prost(file(f))).collect(),
        }
    }

    /// The requested files as an encoded `google.protobuf.FileDescriptorSet` with every
    /// option, custom options (extensions) included: the bytes `protoc -o` writes.
    pub fn encode_file_descriptor_set(&self) -> Vec<u8> {
        wire::FileDescriptorSet {
            file: self.selected(false).map(file).collect(),
        }
        .encode_to_vec()
    }

    /// [`encode_file_descriptor_set`](Self::encode_file_descriptor_set) with everything the
    /// requested files import, dependencies first (`protoc --include_imports`).
    pub fn encode_file_descriptor_set_with_imports(&self) -> Vec<u8> {
        wire::FileDescriptorSet {
            file: self.selected(true).map(file).collect(),
        }
        .encode_to_vec()
    }

    /// An encoded `google.protobuf.FileDescriptorSet` as protoc writes it with the same
    /// flags (`-o`, with `--include_imports`, `--include_source_info`, `--retain_options`
    /// as `options` says): byte for byte the set protoc 36.2 writes.
    ///
    /// By default, as protoc's defaults: the requested files only, no source-code info,
    /// options of source retention dropped and every options message written back as
    /// protobuf writes a parsed message (fields in number order, custom options
    /// included). With `retain_options`, every option is kept, custom options as written,
    /// in source order.
    pub fn encode_descriptor_set(&self, options: DescriptorSetOptions) -> Vec<u8> {
        // Options are messages of descriptor.proto, which protoc always knows; a schema
        // that does not import it takes the built-in copy's definitions.
        let builtin;
        let layout = if options.retain_options {
            None
        } else if self.message("google.protobuf.FileOptions").is_some() {
            Some(canonical::Layout::new(&self.files, &[]))
        } else {
            builtin = crate::Compiler::new().compile(&["google/protobuf/descriptor.proto"]);
            let extra = builtin.as_ref().map_or(&[][..], |c| &c.schema.files[..]);
            Some(canonical::Layout::new(&self.files, extra))
        };
        let files = self
            .selected(options.include_imports)
            .map(|f| {
                let mut d = file(f);
                if !options.include_source_info {
                    d.source_code_info = None;
                }
                if let Some(layout) = &layout {
                    layout.file(&mut d);
                }
                d
            })
            .collect();
        wire::FileDescriptorSet { file: files }.encode_to_vec()
    }

    /// The requested files, with their imports (transitively) if `imports`.
    fn selected(&self, imports: bool) -> impl Iterator<Item = &FileDef> {
        let mut needed: Vec<bool> = self.files.iter().map(|f| f.requested).collect();
        if imports {
            let by_name: std::collections::HashMap<&str, usize> = self
                .files
                .iter()
                .enumerate()
                .map(|(i, f)| (f.name.as_str(), i))
                .collect();
            // Files come dependencies first, so one pass from the end reaches everything.
            for i in (0..self.files.len()).rev() {
                if needed[i] {
                    let f = &self.files[i];
                    for d in f.dependencies.iter().chain(&f.option_dependencies) {
                        if let Some(&j) = by_name.get(d.as_str()) {
                            needed[j] = true;
                        }
                    }
                }
            }
        }
        self.files
            .iter()
            .zip(needed)
            .filter(|(_, n)| *n)
            .map(|(f, _)| f)
    }
}

/// The `prost_types` view of a descriptor: options decoded into the standard fields
/// `prost_types` knows.
fn to_prost(f: FileDescriptorProto) -> prost_types::FileDescriptorProto {
    prost_types::FileDescriptorProto {
        name: f.name,
        package: f.package,
        dependency: f.dependency,
        public_dependency: f.public_dependency,
        weak_dependency: f.weak_dependency,
        message_type: f.message_type.into_iter().map(message_to_prost).collect(),
        enum_type: f.enum_type.into_iter().map(enum_to_prost).collect(),
        service: f
            .service
            .into_iter()
            .map(|s| prost_types::ServiceDescriptorProto {
                name: s.name,
                method: s
                    .method
                    .into_iter()
                    .map(|m| prost_types::MethodDescriptorProto {
                        name: m.name,
                        input_type: m.input_type,
                        output_type: m.output_type,
                        options: opts(m.options),
                        client_streaming: m.client_streaming,
                        server_streaming: m.server_streaming,
                    })
                    .collect(),
                options: opts(s.options),
            })
            .collect(),
        extension: f.extension.into_iter().map(field_to_prost).collect(),
        options: opts(f.options),
        source_code_info: f.source_code_info,
        syntax: f.syntax,
    }
}

/// Standard options decoded; an options message that does not decode (never written by
/// the interpreter) is left out as before.
fn opts<T: prost::Message + Default>(raw: Option<RawOptions>) -> Option<T> {
    raw.and_then(|r| T::decode(r.0.as_slice()).ok())
}

fn message_to_prost(m: DescriptorProto) -> prost_types::DescriptorProto {
    use prost_types::descriptor_proto::{ExtensionRange, ReservedRange};
    prost_types::DescriptorProto {
        name: m.name,
        field: m.field.into_iter().map(field_to_prost).collect(),
        extension: m.extension.into_iter().map(field_to_prost).collect(),
        nested_type: m.nested_type.into_iter().map(message_to_prost).collect(),
        enum_type: m.enum_type.into_iter().map(enum_to_prost).collect(),
        extension_range: m
            .extension_range
            .into_iter()
            .map(|r| ExtensionRange {
                start: r.start,
                end: r.end,
                options: opts(r.options),
            })
            .collect(),
        oneof_decl: m
            .oneof_decl
            .into_iter()
            .map(|o| prost_types::OneofDescriptorProto {
                name: o.name,
                options: opts(o.options),
            })
            .collect(),
        options: opts(m.options),
        reserved_range: m
            .reserved_range
            .into_iter()
            .map(|r| ReservedRange {
                start: r.start,
                end: r.end,
            })
            .collect(),
        reserved_name: m.reserved_name,
    }
}

fn field_to_prost(f: FieldDescriptorProto) -> prost_types::FieldDescriptorProto {
    prost_types::FieldDescriptorProto {
        name: f.name,
        number: f.number,
        label: f.label,
        r#type: f.r#type,
        type_name: f.type_name,
        extendee: f.extendee,
        default_value: f.default_value,
        oneof_index: f.oneof_index,
        json_name: f.json_name,
        options: opts(f.options),
        proto3_optional: f.proto3_optional,
    }
}

fn enum_to_prost(e: EnumDescriptorProto) -> prost_types::EnumDescriptorProto {
    prost_types::EnumDescriptorProto {
        name: e.name,
        value: e
            .value
            .into_iter()
            .map(|v| prost_types::EnumValueDescriptorProto {
                name: v.name,
                number: v.number,
                options: opts(v.options),
            })
            .collect(),
        options: opts(e.options),
        reserved_range: e
            .reserved_range
            .into_iter()
            .map(|r| prost_types::enum_descriptor_proto::EnumReservedRange {
                start: r.start,
                end: r.end,
            })
            .collect(),
        reserved_name: e.reserved_name,
    }
}
