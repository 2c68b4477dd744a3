//! Option interpretation: names resolved against descriptor.proto's option messages and
//! their extensions (custom options), values type-checked and encoded in protobuf's
//! binary form so the standard ones can be decoded into `prost_types` options.

pub(crate) mod support;
mod walk;

use std::collections::HashMap;

use crate::ast::{OptionStmt, Value, ValueKind};
use crate::check::defaults::{float_of, int_of, int_range};
use crate::diagnostics::Diagnostic;
use crate::load::Loaded;
use crate::model::{
    FieldDef, FieldType, FileDef, MessageDef, OptionDef, OptionValue, Presence, ScalarType,
};
use crate::resolve::{Lookup, SymKind, Symbols};
use crate::span::Span;

/// What option interpretation needs to know about a field.
#[derive(Clone, Debug)]
struct FieldInfo {
    name: String,
    number: u32,
    repeated: bool,
    /// Packed in protobuf's binary form (all items in one record).
    packed: bool,
    /// Singular with implicit presence (proto3 without `optional`, or an edition's
    /// `field_presence = IMPLICIT`), outside a map entry: protobuf does not write such a
    /// field when it holds its default, so neither does an option value.
    implicit: bool,
    ty: FieldType,
    extendee: Option<String>,
}

/// Fields of every message, values of every enum, and every extension, by full name.
#[derive(Default)]
struct Index {
    messages: HashMap<String, Vec<FieldInfo>>,
    enums: HashMap<String, Vec<(String, i32)>>,
    extensions: HashMap<String, FieldInfo>,
}

/// `in_map_entry`: a map entry's key and value are written whatever they hold.
fn info(f: &FieldDef, in_map_entry: bool) -> FieldInfo {
    let single = matches!(f.cardinality, crate::model::Cardinality::Single);
    FieldInfo {
        name: f.name.clone(),
        number: f.number,
        repeated: !single,
        packed: f.packed_on_wire,
        implicit: single
            && !in_map_entry
            && f.presence == Presence::Implicit
            && !matches!(f.ty, FieldType::Message(_)),
        ty: f.ty.clone(),
        extendee: f.extendee.clone(),
    }
}

/// Every message, enum and extension of the schema, borrowed.
#[derive(Default)]
struct All<'a> {
    messages: HashMap<&'a str, &'a MessageDef>,
    enums: HashMap<&'a str, &'a crate::model::EnumDef>,
    extensions: Vec<&'a FieldDef>,
}

impl<'a> All<'a> {
    /// Queues the message or enum a field refers to (by the key borrowed from the schema).
    fn note(&self, ty: &FieldType, queue: &mut Vec<&'a str>, enums: &mut Vec<&'a str>) {
        match ty {
            FieldType::Message(m) => {
                queue.extend(self.messages.get_key_value(m.as_str()).map(|(k, _)| *k))
            }
            FieldType::Enum(e) => {
                enums.extend(self.enums.get_key_value(e.as_str()).map(|(k, _)| *k))
            }
            FieldType::Scalar(_) => {}
        }
    }

    fn add(
        &mut self,
        messages: &'a [MessageDef],
        enums: &'a [crate::model::EnumDef],
        exts: &'a [FieldDef],
    ) {
        for e in enums {
            self.enums.insert(&e.full_name, e);
        }
        self.extensions.extend(exts);
        for m in messages {
            self.messages.insert(&m.full_name, m);
            self.add(&m.messages, &m.enums, &m.extensions);
        }
    }
}

impl Index {
    /// Owned facts about the messages options can reach: the `*Options` messages and, through
    /// extensions and message-typed fields, everything custom option values may contain.
    /// (Owned so the model can be updated while the index is read.)
    fn build(files: &[FileDef], every_message: bool) -> Self {
        let mut all = All::default();
        for f in files {
            all.add(&f.messages, &f.enums, &f.extensions);
        }
        let mut ix = Index::default();
        let mut queue: Vec<&str> = TARGETS.iter().map(|t| t.message()).collect();
        if every_message {
            queue.extend(all.messages.keys());
        }
        let mut enums: Vec<&str> = Vec::new();

        for x in &all.extensions {
            ix.extensions.insert(x.full_name.clone(), info(x, false));
            all.note(&x.ty, &mut queue, &mut enums);
        }
        while let Some(name) = queue.pop() {
            if ix.messages.contains_key(name) {
                continue;
            }
            let Some(m) = all.messages.get(name) else {
                continue;
            };
            for f in &m.fields {
                all.note(&f.ty, &mut queue, &mut enums);
            }
            let fields = m.fields.iter().map(|f| info(f, m.map_entry)).collect();
            ix.messages.insert(name.to_string(), fields);
        }
        for name in enums {
            if let Some(e) = all.enums.get(name) {
                ix.enums.insert(
                    name.to_string(),
                    e.values
                        .iter()
                        .map(|v| (v.name.clone(), v.number))
                        .collect(),
                );
            }
        }
        ix
    }
}

/// Whether `payload`, the encoded value of `field`, is left out of its message: a field
/// of implicit presence holding its default (zero, `false`, the first enum value, empty
/// text) is not written, as protobuf serializes the parsed value. A float is its default
/// only as `+0.0`: protobuf compares the bits, so `-0.0` is written.
fn omitted(field: &FieldInfo, payload: &[u8]) -> bool {
    field.implicit
        && match &field.ty {
            FieldType::Scalar(ScalarType::String | ScalarType::Bytes) => payload.is_empty(),
            FieldType::Scalar(_) | FieldType::Enum(_) => payload.iter().all(|&b| b == 0),
            FieldType::Message(_) => false,
        }
}

fn varint(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn wire_type(ty: &FieldType) -> u8 {
    use ScalarType::*;
    match ty {
        FieldType::Scalar(Double | Fixed64 | Sfixed64) => 1,
        FieldType::Scalar(Float | Fixed32 | Sfixed32) => 5,
        FieldType::Scalar(String | Bytes) | FieldType::Message(_) => 2,
        _ => 0,
    }
}

/// One record: key, then (for LEN) the length, then the payload.
pub(crate) fn record(number: u32, wire: u8, payload: &[u8], out: &mut Vec<u8>) {
    varint((u64::from(number) << 3) | u64::from(wire), out);
    if wire == 2 {
        varint(payload.len() as u64, out);
    }
    out.extend_from_slice(payload);
}

/// The options message each kind of element is configured by.
#[derive(Clone, Copy)]
pub(crate) enum Target {
    File,
    Message,
    Field,
    Oneof,
    Enum,
    EnumValue,
    Service,
    Method,
    ExtensionRange,
}

const TARGETS: [Target; 9] = [
    Target::File,
    Target::Message,
    Target::Field,
    Target::Oneof,
    Target::Enum,
    Target::EnumValue,
    Target::Service,
    Target::Method,
    Target::ExtensionRange,
];

impl Target {
    fn message(self) -> &'static str {
        match self {
            Target::File => "google.protobuf.FileOptions",
            Target::Message => "google.protobuf.MessageOptions",
            Target::Field => "google.protobuf.FieldOptions",
            Target::Oneof => "google.protobuf.OneofOptions",
            Target::Enum => "google.protobuf.EnumOptions",
            Target::EnumValue => "google.protobuf.EnumValueOptions",
            Target::Service => "google.protobuf.ServiceOptions",
            Target::Method => "google.protobuf.MethodOptions",
            Target::ExtensionRange => "google.protobuf.ExtensionRangeOptions",
        }
    }
}

/// One option statement resolved: its definition, field-number path, whether the last
/// field is repeated, its encoded record, and the paths of the fields an aggregate value
/// sets.
type Resolved = (OptionDef, Vec<u32>, bool, Vec<u8>, Vec<Vec<u32>>);

pub(crate) struct Interpreter<'a> {
    fi: usize,
    file: &'a Loaded,
    syms: &'a Symbols,
    index: &'a Index,
    errors: Vec<Diagnostic>,
}

pub(crate) fn interpret(
    files: &[Loaded],
    models: &mut [FileDef],
    syms: &Symbols,
) -> Vec<Diagnostic> {
    let any = files.iter().any(|f| walk::expands_any(&f.ast));
    let index = Index::build(models, any);
    let mut errors = Vec::new();
    for (fi, (file, model)) in files.iter().zip(models.iter_mut()).enumerate() {
        let mut it = Interpreter {
            fi,
            file,
            syms,
            index: &index,
            errors: Vec::new(),
        };
        it.file(model);
        errors.append(&mut it.errors);
    }
    errors
}

impl Interpreter<'_> {
    fn err(
        &mut self,
        code: &'static str,
        span: Span,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        self.errors
            .push(Diagnostic::error(code, &self.file.name, span, message));
        let last = self.errors.len() - 1;
        &mut self.errors[last]
    }

    /// Interprets a list of option statements for one element.
    pub(crate) fn options(
        &mut self,
        scope: &str,
        target: Target,
        stmts: &[OptionStmt],
    ) -> (Vec<OptionDef>, Vec<u8>) {
        let mut defs = Vec::new();
        let mut bytes = Vec::new();
        if stmts.is_empty() {
            return (defs, bytes);
        }
        let mut set: HashMap<Vec<u32>, Span> = HashMap::new();
        // Strict prefixes of the paths set so far: a message already filled in by
        // `(a).b = …` cannot then be set whole (protoc: "already set").
        let mut parents: HashMap<Vec<u32>, Span> = HashMap::new();
        for stmt in stmts {
            let first = &stmt.name[0];
            let pseudo =
                matches!(target, Target::Field) && !first.is_extension && stmt.name.len() == 1;
            if pseudo && (first.name == "default" || first.name == "json_name") {
                continue;
            }
            if let Some((def, path, repeated, rec, inner)) = self.option(scope, target, stmt) {
                if !repeated && let Some(prev) = set.get(&path) {
                    let prev = *prev;
                    self.err(
                        "duplicate-option",
                        stmt.span,
                        format!("option {:?} is set twice", def.name),
                    )
                    .with_label(prev, "first set here");
                    continue;
                }
                if let Some(prev) = parents.get(&path) {
                    let prev = *prev;
                    self.err(
                        "duplicate-option",
                        stmt.span,
                        format!(
                            "option {:?} is set whole after one of its fields was set",
                            def.name
                        ),
                    )
                    .with_label(prev, "a field of it set here")
                    .with_help(
                        "set all of its fields in one `{ … }` value, or each by its own path",
                    );
                    continue;
                }
                for n in 1..path.len() {
                    parents.entry(path[..n].to_vec()).or_insert(stmt.span);
                }
                let mut def = def;
                if repeated {
                    // Source locations index the occurrences of a repeated option.
                    let seen = defs
                        .iter()
                        .filter(|d: &&OptionDef| d.path.starts_with(&def.path))
                        .count();
                    def.path.push(i32::try_from(seen).unwrap_or(i32::MAX));
                }
                set.insert(path, stmt.span);
                for p in inner {
                    set.entry(p).or_insert(stmt.span);
                }
                bytes.extend_from_slice(&rec);
                defs.push(def);
            }
        }
        (defs, self.protoc_order(target.message(), &bytes))
    }

    /// The options records in the order protoc writes them (with `--retain_options`):
    /// the fields of descriptor.proto's options message, which protoc parses and writes
    /// back, first, in field-number order, with the statements that set parts of one
    /// message field merged into one record; then the custom options (extensions protoc
    /// itself does not know), each statement's record as written, in source order.
    fn protoc_order(&self, message: &str, bytes: &[u8]) -> Vec<u8> {
        let Some(records) = split_records(bytes) else {
            return bytes.to_vec();
        };
        let known = |n: u32| {
            self.index
                .messages
                .get(message)
                .is_some_and(|fs| fs.iter().any(|f| f.number == n))
        };
        let mut fields = Vec::new();
        let mut custom = Vec::new();
        for r in &records {
            let out = if known(r.number) {
                &mut fields
            } else {
                &mut custom
            };
            out.extend_from_slice(&bytes[r.start..r.end]);
        }
        let mut out = self.canonical(message, &fields);
        out.extend_from_slice(&custom);
        out
    }

    /// A message of type `message` as protobuf writes it after parsing it: fields in
    /// number order (a repeated field's items in their order), each singular message
    /// field one record holding every record set for it, merged the same way.
    fn canonical(&self, message: &str, bytes: &[u8]) -> Vec<u8> {
        let Some(mut records) = split_records(bytes) else {
            return bytes.to_vec();
        };
        records.sort_by_key(|r| r.number);
        let fields = self.index.messages.get(message);
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < records.len() {
            let number = records[i].number;
            let same = records[i..]
                .iter()
                .take_while(|r| r.number == number)
                .count();
            let group = &records[i..i + same];
            i += same;
            let sub = fields
                .and_then(|fs| fs.iter().find(|f| f.number == number))
                .and_then(|f| match &f.ty {
                    FieldType::Message(m) if !f.repeated => Some(m.clone()),
                    _ => None,
                });
            match sub {
                Some(m) if group.iter().all(|r| r.wire == 2) => {
                    let mut merged = Vec::new();
                    for r in group {
                        merged.extend_from_slice(&bytes[r.payload..r.end]);
                    }
                    record(number, 2, &self.canonical(&m, &merged), &mut out);
                }
                _ => {
                    for r in group {
                        out.extend_from_slice(&bytes[r.start..r.end]);
                    }
                }
            }
        }
        out
    }

    /// Resolves one `name = value`; returns the definition, the field-number path, whether
    /// the last field is repeated, the encoded record, and the paths of the fields an
    /// aggregate value sets.
    fn option(&mut self, scope: &str, target: Target, stmt: &OptionStmt) -> Option<Resolved> {
        let mut current = target.message().to_string();
        let mut chain: Vec<FieldInfo> = Vec::new();
        let mut extension = None;
        let mut written = String::new();
        for (i, part) in stmt.name.iter().enumerate() {
            if i > 0 {
                written.push('.');
            }
            let field = if part.is_extension {
                written.push_str(&format!("({})", part.name));
                let ext = self.extension(scope, &part.name, part.span, &current)?;
                if i == 0 {
                    extension = Some(self.ext_full_name(scope, &part.name));
                }
                ext
            } else {
                written.push_str(&part.name);
                match self
                    .index
                    .messages
                    .get(&current)
                    .and_then(|fs| fs.iter().find(|f| f.name == part.name))
                {
                    Some(f) => f.clone(),
                    None => {
                        self.err("unknown-option", part.span, format!("option {:?} is not a field of {current}", part.name))
                            .with_help("a custom option is written in parentheses, e.g. `(my.option)`, and needs the import that declares it");
                        return None;
                    }
                }
            };
            if i + 1 < stmt.name.len() {
                match (&field.ty, field.repeated) {
                    (FieldType::Message(m), false) => current = m.clone(),
                    _ => {
                        self.err("invalid-option-name", part.span, format!("option {written:?} is not a singular message, so it has no sub-fields"));
                        return None;
                    }
                }
            }
            chain.push(field);
        }
        let last = chain.last()?.clone();
        let (value, payload) = self.value(scope, &last, &stmt.value, false)?;
        let mut rec = Vec::new();
        if !omitted(&last, &payload) {
            record(last.number, wire_type(&last.ty), &payload, &mut rec);
        }
        for f in chain.iter().rev().skip(1) {
            let inner = std::mem::take(&mut rec);
            record(f.number, 2, &inner, &mut rec);
        }
        let path: Vec<u32> = chain.iter().map(|f| f.number).collect();
        let def = OptionDef {
            name: written,
            extension,
            value,
            span: stmt.span,
            path: path
                .iter()
                .map(|&n| i32::try_from(n).unwrap_or(i32::MAX))
                .collect(),
            comments: stmt.comments.clone(),
        };
        let mut fields = Vec::new();
        if !last.repeated {
            self.aggregate_paths(&last.ty, &def.value, &mut path.clone(), &mut fields);
        }
        Some((def, path, last.repeated, rec, fields))
    }

    /// The paths of the singular fields an aggregate value sets, each from the options
    /// message (`prefix` is the value's own path): protoc counts each as set, so a later
    /// statement may not set one again, by path or in another aggregate.
    fn aggregate_paths(
        &self,
        ty: &FieldType,
        value: &OptionValue,
        prefix: &mut Vec<u32>,
        out: &mut Vec<Vec<u32>>,
    ) {
        let (FieldType::Message(message), OptionValue::Message(set)) = (ty, value) else {
            return;
        };
        for (name, v) in set {
            let field = match name.strip_prefix('[').and_then(|n| n.strip_suffix(']')) {
                Some(ext) => self.index.extensions.get(ext),
                None => self
                    .index
                    .messages
                    .get(message)
                    .and_then(|fs| fs.iter().find(|f| f.name == *name)),
            };
            let Some(field) = field.filter(|f| !f.repeated) else {
                continue;
            };
            prefix.push(field.number);
            out.push(prefix.clone());
            self.aggregate_paths(&field.ty, v, prefix, out);
            prefix.pop();
        }
    }

    fn ext_full_name(&self, scope: &str, name: &str) -> String {
        match self.syms.lookup(self.fi, scope, name, false) {
            Lookup::Found(full, _) => full,
            _ => name.trim_start_matches('.').to_string(),
        }
    }

    /// Resolves an extension name used as an option of `extendee`.
    fn extension(
        &mut self,
        scope: &str,
        name: &str,
        span: Span,
        extendee: &str,
    ) -> Option<FieldInfo> {
        match self.syms.lookup(self.fi, scope, name, false) {
            Lookup::Found(full, sym) if sym.kind == SymKind::Extension => {
                let ext = self.index.extensions.get(&full).cloned()?;
                if ext.extendee.as_deref() != Some(extendee) {
                    let of = ext.extendee.clone().unwrap_or_default();
                    self.err(
                        "option-extendee-mismatch",
                        span,
                        format!("{full:?} extends {of:?}, not {extendee:?}"),
                    )
                    .with_help("use the option on the kind of element its extendee configures");
                    return None;
                }
                Some(ext)
            }
            Lookup::Found(full, sym) => {
                self.err(
                    "unknown-option",
                    span,
                    format!("{full:?} is {}, not an extension", sym.kind.describe()),
                );
                None
            }
            Lookup::NotImported(full, file) => {
                let other = self.syms.names[file].clone();
                self.err(
                    "missing-import",
                    span,
                    format!("option {full:?} is defined in {other:?}, which is not imported"),
                )
                .with_help(format!("add `import \"{other}\";`"));
                None
            }
            Lookup::NotFound => {
                self.err("unknown-option", span, format!("option ({name}) is not defined"))
                    .with_help("custom options are extensions of google.protobuf.*Options; import the file that declares it");
                None
            }
        }
    }

    /// Type-checks a value for `field`; returns it and its encoded payload (no key).
    /// `nested` values sit inside an aggregate, where protoc's text-format rules apply.
    fn value(
        &mut self,
        scope: &str,
        field: &FieldInfo,
        v: &Value,
        nested: bool,
    ) -> Option<(OptionValue, Vec<u8>)> {
        let mut out = Vec::new();
        let bad = |this: &mut Self, expected: String| {
            this.err(
                "invalid-option-value",
                v.span,
                format!("option {:?} needs {expected}", field.name),
            );
            None
        };
        match &field.ty {
            FieldType::Scalar(s) => {
                use ScalarType::*;
                if let Some((lo, hi)) = int_range(*s) {
                    let Some(i) = int_of(v).filter(|i| *i >= lo && *i <= hi) else {
                        return bad(self, format!("an integer in {lo}..={hi}"));
                    };
                    let val = match s {
                        Uint32 | Uint64 | Fixed32 | Fixed64 => OptionValue::Uint(i as u64),
                        _ => OptionValue::Int(i as i64),
                    };
                    match s {
                        Sint32 | Sint64 => {
                            varint(((i as i64) << 1 ^ ((i as i64) >> 63)) as u64, &mut out)
                        }
                        Fixed32 | Sfixed32 => out.extend_from_slice(&(i as u32).to_le_bytes()),
                        Fixed64 | Sfixed64 => out.extend_from_slice(&(i as u64).to_le_bytes()),
                        _ => varint(i as i64 as u64, &mut out),
                    }
                    return Some((val, out));
                }
                match s {
                    Double | Float => {
                        let f = match &v.kind {
                            // Text format: `inf`, `infinity`, `nan` in any case.
                            ValueKind::Ident(w) if nested => {
                                match w.to_ascii_lowercase().as_str() {
                                    "inf" | "infinity" => Some(f64::INFINITY),
                                    "nan" => Some(f64::NAN),
                                    _ => None,
                                }
                            }
                            // protoc's .proto parser: only `inf` and `nan`.
                            ValueKind::Ident(w) if w != "inf" && w != "nan" => None,
                            // Text format reads floating-point fields in decimal only.
                            ValueKind::Int { decimal: false, .. } if nested => {
                                return bad(self, "a decimal number (not hex or octal)".into());
                            }
                            _ => float_of(v),
                        };
                        let Some(f) = f else {
                            return bad(self, "a number".into());
                        };
                        if *s == Double {
                            out.extend_from_slice(&f.to_le_bytes());
                        } else {
                            out.extend_from_slice(&(f as f32).to_le_bytes());
                        }
                        Some((OptionValue::Float(f), out))
                    }
                    Bool => {
                        let b = match (&v.kind, nested) {
                            (ValueKind::Ident(w), false) if w == "true" => true,
                            (ValueKind::Ident(w), false) if w == "false" => false,
                            (ValueKind::Ident(w), false) if w == "True" || w == "False" => {
                                return bad(
                                    self,
                                    "`true` or `false` (text format's `True` and `False` are taken only inside `{ … }`)".into(),
                                );
                            }
                            // Text format also takes `True`, `t`, `1` and their opposites.
                            (ValueKind::Ident(w), true)
                                if matches!(w.as_str(), "true" | "True" | "t") =>
                            {
                                true
                            }
                            (ValueKind::Ident(w), true)
                                if matches!(w.as_str(), "false" | "False" | "f") =>
                            {
                                false
                            }
                            (
                                ValueKind::Int {
                                    negative: false,
                                    magnitude: m @ (0 | 1),
                                    ..
                                },
                                true,
                            ) => *m == 1,
                            _ => return bad(self, "`true` or `false`".into()),
                        };
                        out.push(u8::from(b));
                        Some((OptionValue::Bool(b), out))
                    }
                    String => match &v.kind {
                        ValueKind::Str(b) => match std::str::from_utf8(b) {
                            Ok(s) => Some((OptionValue::String(s.to_string()), b.clone())),
                            Err(_) => bad(self, "valid UTF-8 text".into()),
                        },
                        _ => bad(self, "a string".into()),
                    },
                    Bytes => match &v.kind {
                        ValueKind::Str(b) => Some((OptionValue::Bytes(b.clone()), b.clone())),
                        _ => bad(self, "a string".into()),
                    },
                    _ => None,
                }
            }
            FieldType::Enum(e) => {
                let values = self.index.enums.get(e).cloned().unwrap_or_default();
                let found = match &v.kind {
                    ValueKind::Ident(w) => values.iter().find(|(n, _)| n == w).cloned(),
                    // Text format also takes a value's number.
                    ValueKind::Int { .. } if nested => int_of(v)
                        .and_then(|i| values.iter().find(|(_, n)| i128::from(*n) == i).cloned()),
                    _ => None,
                };
                let Some((name, number)) = found else {
                    return bad(self, format!("a value name of enum {e:?}"));
                };
                varint(i64::from(number) as u64, &mut out);
                Some((OptionValue::Enum { name, number }, out))
            }
            FieldType::Message(m) => {
                let ValueKind::Aggregate(fields) = &v.kind else {
                    return bad(self, format!("a message value `{{ … }}` of type {m:?}"));
                };
                let mut set = Vec::new();
                let mut seen: HashMap<u32, Span> = HashMap::new();
                // Items of packed fields, by field number: one record each at the end,
                // however many times the field is set (as protoc serializes the message).
                let mut packed: HashMap<u32, Vec<u8>> = HashMap::new();
                for af in fields {
                    if af.is_extension && af.name.contains('/') {
                        let (val, payload) = self.any(scope, m, af, fields.len())?;
                        out.extend_from_slice(&payload);
                        set.push((format!("[{}]", af.name), val));
                        continue;
                    }
                    let sub = if af.is_extension {
                        self.extension(scope, &af.name, af.name_span, m)?
                    } else {
                        match self
                            .index
                            .messages
                            .get(m)
                            .and_then(|fs| fs.iter().find(|f| f.name == af.name))
                        {
                            Some(f) => f.clone(),
                            None => {
                                self.err(
                                    "unknown-option",
                                    af.name_span,
                                    format!("{:?} is not a field of {m}", af.name),
                                );
                                return None;
                            }
                        }
                    };
                    if !sub.repeated
                        && let Some(prev) = seen.insert(sub.number, af.name_span)
                    {
                        self.err(
                            "duplicate-option",
                            af.name_span,
                            format!("field {:?} is set twice", af.name),
                        )
                        .with_label(prev, "first set here");
                        return None;
                    }
                    // An extension by its full name, however it was written (`[ext]`
                    // is resolved from the option's scope, as protoc resolves it), so
                    // the checks that read the value later find it.
                    let label = if af.is_extension {
                        format!("[{}]", self.ext_full_name(scope, &af.name))
                    } else {
                        af.name.clone()
                    };
                    let items: Vec<&Value> = match &af.value.kind {
                        ValueKind::List(items) if sub.repeated => items.iter().collect(),
                        ValueKind::List(_) => {
                            self.err(
                                "invalid-option-value",
                                af.value.span,
                                format!("{:?} is not repeated; it takes one value", af.name),
                            );
                            return None;
                        }
                        _ => vec![&af.value],
                    };
                    let mut vals = Vec::new();
                    for item in items {
                        let (val, payload) = self.value(scope, &sub, item, true)?;
                        if sub.packed {
                            packed
                                .entry(sub.number)
                                .or_default()
                                .extend_from_slice(&payload);
                        } else if !omitted(&sub, &payload) {
                            record(sub.number, wire_type(&sub.ty), &payload, &mut out);
                        }
                        vals.push(val);
                    }
                    let value = if matches!(af.value.kind, ValueKind::List(_)) {
                        OptionValue::List(vals)
                    } else {
                        vals.pop()?
                    };
                    set.push((label, value));
                }
                // (sorted below by field number, so the map's order does not matter)
                for (number, items) in &packed {
                    record(*number, 2, items, &mut out);
                }
                // Fields in field-number order, as protoc writes the parsed message.
                Some((OptionValue::Message(set), sort_records(&out)))
            }
        }
    }

    /// `[type.googleapis.com/pkg.Msg] { … }` inside a `google.protobuf.Any` (`of`): the
    /// message, encoded, becomes the Any's `value`, and the URL its `type_url`.
    fn any(
        &mut self,
        scope: &str,
        of: &str,
        af: &crate::ast::AggregateField,
        fields_in_any: usize,
    ) -> Option<(OptionValue, Vec<u8>)> {
        if of != "google.protobuf.Any" {
            self.err(
                "invalid-option-value",
                af.name_span,
                format!(
                    "[{}] expands a google.protobuf.Any, but this is a {of}",
                    af.name
                ),
            );
            return None;
        }
        if fields_in_any != 1 {
            self.err(
                "invalid-option-value",
                af.name_span,
                "an expanded google.protobuf.Any holds nothing else",
            );
            return None;
        }
        let type_name = af.name.rsplit('/').next().unwrap_or_default();
        if !self.index.messages.contains_key(type_name) {
            self.err(
                "unknown-option",
                af.name_span,
                format!("{type_name:?} in [{}] is not a message known here", af.name),
            )
            .with_help("import the file that declares it");
            return None;
        }
        let inner = FieldInfo {
            name: af.name.clone(),
            number: 2,
            repeated: false,
            packed: false,
            implicit: false,
            ty: FieldType::Message(type_name.to_string()),
            extendee: None,
        };
        let (val, payload) = self.value(scope, &inner, &af.value, true)?;
        let mut out = Vec::new();
        record(1, 2, af.name.as_bytes(), &mut out);
        // `value` is proto3 `bytes`: an empty message leaves it out.
        let value_field = self
            .index
            .messages
            .get(of)
            .and_then(|fs| fs.iter().find(|f| f.number == 2));
        if !value_field.is_some_and(|f| omitted(f, &payload)) {
            record(2, 2, &payload, &mut out);
        }
        Some((val, out))
    }
}

/// One record of an encoded message: its field number and wire type, where it starts,
/// where its payload starts and where it ends.
pub(crate) struct RecordAt {
    pub(crate) number: u32,
    pub(crate) wire: u8,
    pub(crate) start: usize,
    pub(crate) payload: usize,
    pub(crate) end: usize,
}

/// The records of `bytes`; `None` if they do not parse (then nothing is reordered).
pub(crate) fn split_records(bytes: &[u8]) -> Option<Vec<RecordAt>> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let (number, end) = next_record(bytes, at)?;
        let wire = bytes[at] & 7;
        // The payload follows the key and, for length-delimited records, the length.
        let mut payload = at;
        while bytes.get(payload)? & 0x80 != 0 {
            payload += 1;
        }
        payload += 1;
        if wire == 2 {
            while bytes.get(payload)? & 0x80 != 0 {
                payload += 1;
            }
            payload += 1;
        }
        out.push(RecordAt {
            number,
            wire,
            start: at,
            payload,
            end,
        });
        at = end;
    }
    Some(out)
}

/// Reads one record of `bytes` at `at`: (field number, end of the record).
fn next_record(bytes: &[u8], at: usize) -> Option<(u32, usize)> {
    let mut i = at;
    let mut varint = || -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = *bytes.get(i)?;
            i += 1;
            v |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Some(v);
            }
        }
        None
    };
    let key = varint()?;
    let len = match key & 7 {
        0 => {
            varint()?;
            0
        }
        1 => 8,
        2 => usize::try_from(varint()?).ok()?,
        5 => 4,
        _ => return None,
    };
    let number = u32::try_from(key >> 3).ok()?;
    let end = i.checked_add(len)?;
    (end <= bytes.len()).then_some((number, end))
}

/// Encoded fields in field-number order, as protoc writes a message (a stable sort, so
/// the items of a repeated field keep their order). Written by this module, the bytes
/// are whole records; anything else is kept, as is, at the end.
pub(crate) fn sort_records(bytes: &[u8]) -> Vec<u8> {
    let mut records = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let Some((number, end)) = next_record(bytes, at) else {
            records.push((u32::MAX, at, bytes.len()));
            break;
        };
        records.push((number, at, end));
        at = end;
    }
    if records.windows(2).all(|w| w[0].0 <= w[1].0) {
        return bytes.to_vec();
    }
    records.sort_by_key(|r| r.0);
    let mut out = Vec::with_capacity(bytes.len());
    for (_, start, end) in records {
        out.extend_from_slice(&bytes[start..end]);
    }
    out
}
