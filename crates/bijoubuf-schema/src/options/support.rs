//! protoc 36.2's `feature_support` rules at the places options are set: a field of an
//! option (a custom option, a field reached through it, a custom feature) or an enum
//! value it holds may carry `feature_support`, and a file whose edition is before
//! `edition_introduced` or from `edition_removed` on may not set it (from
//! `edition_deprecated` on, it draws a warning). A field with `targets` may be set only
//! on the kinds of element they name, as protoc refuses `features.(pb.go).api_level` on a
//! field. Fields of descriptor.proto itself are
//! left to the checker's own rules (`features`, `java_multiple_files`,
//! `cc_enable_arenas`), which say more than protoc's generic text.

use std::collections::HashMap;

use crate::diagnostics::Diagnostic;
use crate::load::Loaded;
use crate::model::{
    Cardinality, EnumDef, FieldDef, FieldType, FileDef, MessageDef, OptionDef, OptionValue,
};

/// A field's or an enum value's `feature_support`, by edition number.
#[derive(Default)]
struct Support {
    introduced: Option<i32>,
    deprecated: Option<i32>,
    warning: Option<String>,
    removed: Option<i32>,
    error: Option<String>,
}

/// The `feature_support` option among an element's options, if set.
fn support(options: &[OptionDef]) -> Option<Support> {
    let o = options
        .iter()
        .find(|o| o.extension.is_none() && o.name == "feature_support")?;
    let OptionValue::Message(set) = &o.value else {
        return None;
    };
    let mut s = Support::default();
    for (name, v) in set {
        match (name.as_str(), v) {
            ("edition_introduced", OptionValue::Enum { number, .. }) => {
                s.introduced = Some(*number)
            }
            ("edition_deprecated", OptionValue::Enum { number, .. }) => {
                s.deprecated = Some(*number)
            }
            ("edition_removed", OptionValue::Enum { number, .. }) => s.removed = Some(*number),
            ("deprecation_warning", OptionValue::String(t)) => s.warning = Some(t.clone()),
            ("removal_error", OptionValue::String(t)) => s.error = Some(t.clone()),
            _ => {}
        }
    }
    Some(s)
}

/// An edition as protoc names it in these messages (`2024`, `PROTO3`).
fn edition_name(n: i32) -> String {
    match n {
        900 => "LEGACY".into(),
        998 => "PROTO2".into(),
        999 => "PROTO3".into(),
        1000 => "2023".into(),
        1001 => "2024".into(),
        1002 => "2026".into(),
        9999 => "UNSTABLE".into(),
        n => n.to_string(),
    }
}

/// Every message, enum and extension of the compiled files.
#[derive(Default)]
struct Index<'a> {
    messages: HashMap<&'a str, &'a MessageDef>,
    enums: HashMap<&'a str, &'a EnumDef>,
    extensions: HashMap<&'a str, &'a FieldDef>,
    by_extendee: HashMap<(&'a str, u32), &'a FieldDef>,
}

impl<'a> Index<'a> {
    fn add(&mut self, messages: &'a [MessageDef], enums: &'a [EnumDef], exts: &'a [FieldDef]) {
        for m in messages {
            self.messages.insert(&m.full_name, m);
            self.add(&m.messages, &m.enums, &m.extensions);
        }
        for e in enums {
            self.enums.insert(&e.full_name, e);
        }
        for x in exts {
            self.extensions.insert(&x.full_name, x);
            if let Some(of) = &x.extendee {
                self.by_extendee.insert((of, x.number), x);
            }
        }
    }

    /// Field `number` of `message`, or the extension of it with that number.
    fn field(&self, message: &str, number: u32) -> Option<&'a FieldDef> {
        self.messages
            .get(message)
            .and_then(|m| m.fields.iter().find(|f| f.number == number))
            .or_else(|| self.by_extendee.get(&(message, number)).copied())
    }
}

/// The kind of element options are set on: descriptor.proto's `OptionTargetType`
/// number and protoc's name for it, with its article.
#[derive(Clone, Copy)]
struct Target(i32, &'static str);

const FILE: Target = Target(1, "a file");
const EXTENSION_RANGE: Target = Target(2, "an extension range");
const MESSAGE: Target = Target(3, "a message");
const FIELD: Target = Target(4, "a field");
const ONEOF: Target = Target(5, "a oneof");
const ENUM: Target = Target(6, "an enum");
const ENUM_ENTRY: Target = Target(7, "an enum entry");
const SERVICE: Target = Target(8, "a service");
const METHOD: Target = Target(9, "a method");

/// The `targets` among a field's options, by number; empty when any element may set it.
fn targets(options: &[OptionDef]) -> Vec<i32> {
    let mut out = Vec::new();
    for o in options
        .iter()
        .filter(|o| o.extension.is_none() && o.name == "targets")
    {
        match &o.value {
            OptionValue::Enum { number, .. } => out.push(*number),
            OptionValue::List(items) => out.extend(items.iter().filter_map(|v| match v {
                OptionValue::Enum { number, .. } => Some(*number),
                _ => None,
            })),
            _ => {}
        }
    }
    out
}

struct Checker<'a> {
    index: &'a Index<'a>,
    file: &'a str,
    target: Target,
    edition: i32,
    out: Vec<Diagnostic>,
}

/// Diagnostics for every option set in `models` that its field's or value's
/// `feature_support` forbids in its file's edition.
pub(crate) fn check(files: &[Loaded], models: &[FileDef]) -> Vec<Diagnostic> {
    let mut index = Index::default();
    for f in models {
        index.add(&f.messages, &f.enums, &f.extensions);
    }
    let mut out = Vec::new();
    for (loaded, f) in files.iter().zip(models) {
        // An edition bijoubuf does not know is refused already and read as 2023; what
        // 2023 allows says nothing about it.
        if f.syntax.is_edition() && loaded.ast.syntax_span.is_none() {
            continue;
        }
        let mut c = Checker {
            index: &index,
            file: &f.name,
            edition: f.syntax.edition_number(),
            target: FILE,
            out: Vec::new(),
        };
        c.file(f);
        out.append(&mut c.out);
    }
    out
}

impl Checker<'_> {
    fn file(&mut self, f: &FileDef) {
        self.options(FILE, "google.protobuf.FileOptions", &f.options);
        for m in &f.messages {
            self.message(m);
        }
        for e in &f.enums {
            self.enumeration(e);
        }
        for x in &f.extensions {
            self.options(FIELD, "google.protobuf.FieldOptions", &x.options);
        }
        for s in &f.services {
            self.options(SERVICE, "google.protobuf.ServiceOptions", &s.options);
            for m in &s.methods {
                self.options(METHOD, "google.protobuf.MethodOptions", &m.options);
            }
        }
    }

    fn message(&mut self, m: &MessageDef) {
        self.options(MESSAGE, "google.protobuf.MessageOptions", &m.options);
        for f in m.fields.iter().chain(&m.extensions) {
            self.options(FIELD, "google.protobuf.FieldOptions", &f.options);
        }
        for o in &m.oneofs {
            self.options(ONEOF, "google.protobuf.OneofOptions", &o.options);
        }
        for (_, options) in &m.extension_range_option_defs {
            self.options(
                EXTENSION_RANGE,
                "google.protobuf.ExtensionRangeOptions",
                options,
            );
        }
        for n in &m.messages {
            self.message(n);
        }
        for e in &m.enums {
            self.enumeration(e);
        }
    }

    fn enumeration(&mut self, e: &EnumDef) {
        self.options(ENUM, "google.protobuf.EnumOptions", &e.options);
        for v in &e.values {
            self.options(ENUM_ENTRY, "google.protobuf.EnumValueOptions", &v.options);
        }
    }

    fn options(&mut self, target: Target, message: &str, options: &[OptionDef]) {
        self.target = target;
        for o in options {
            self.option(message, o);
        }
    }

    /// The fields along the option's name, then the fields and values its value sets.
    fn option(&mut self, message: &str, o: &OptionDef) {
        let index = self.index;
        let mut current = Some(message);
        let mut last = None;
        for (i, &n) in o.path.iter().enumerate() {
            // After a repeated field the path holds the occurrence's index.
            let Some(m) = current else { break };
            // A custom option's first step is the extension its name resolved to, not
            // whichever extension of that number was seen last: another file may use the
            // number too (a warning, as in protoc).
            let resolved = match (&o.extension, i) {
                (Some(ext), 0) => index.extensions.get(ext.trim_start_matches('.')).copied(),
                _ => None,
            };
            let Some(field) =
                resolved.or_else(|| u32::try_from(n).ok().and_then(|n| index.field(m, n)))
            else {
                return;
            };
            self.field(field, o);
            current = match (&field.ty, &field.cardinality) {
                (FieldType::Message(t), Cardinality::Single) => Some(t),
                _ => None,
            };
            last = Some(field);
        }
        if let Some(field) = last {
            self.value(&field.ty, &o.value, o);
        }
    }

    fn value(&mut self, ty: &FieldType, v: &OptionValue, o: &OptionDef) {
        let index = self.index;
        match (ty, v) {
            (_, OptionValue::List(items)) => {
                for item in items {
                    self.value(ty, item, o);
                }
            }
            (FieldType::Message(m), OptionValue::Message(set)) => {
                for (name, v) in set {
                    let field = match name.strip_prefix('[').and_then(|n| n.strip_suffix(']')) {
                        Some(ext) => index.extensions.get(ext).copied(),
                        None => index
                            .messages
                            .get(m.as_str())
                            .and_then(|d| d.fields.iter().find(|f| f.name == *name)),
                    };
                    if let Some(field) = field {
                        self.field(field, o);
                        self.value(&field.ty, v, o);
                    }
                }
            }
            (FieldType::Enum(e), OptionValue::Enum { number, .. }) => {
                let Some(def) = index.enums.get(e.as_str()) else {
                    return;
                };
                // By number, as protoc judges it: with `allow_alias`, the first value
                // declared with that number, whichever alias the option names.
                if let Some(value) = def.values.iter().find(|v| v.number == *number) {
                    // Enum values are named in the enum's enclosing scope.
                    let full = match def.full_name.rsplit_once('.') {
                        Some((scope, _)) => format!("{scope}.{}", value.name),
                        None => value.name.clone(),
                    };
                    if let Some(s) = support(&value.options) {
                        self.enforce(&full, &s, o);
                    }
                }
            }
            _ => {}
        }
    }

    fn field(&mut self, field: &FieldDef, o: &OptionDef) {
        if field.full_name.starts_with("google.protobuf.") {
            return;
        }
        let targets = targets(&field.options);
        if !targets.is_empty() && !targets.contains(&self.target.0) {
            self.out.push(
                Diagnostic::error(
                    "option-target",
                    self.file,
                    o.span,
                    format!("{} cannot be set on {}", field.full_name, self.target.1),
                )
                .help(format!(
                    "drop option {:?}: its field's `targets` do not include this kind of element",
                    o.name
                )),
            );
            return;
        }
        if let Some(s) = support(&field.options) {
            self.enforce(&field.full_name, &s, o);
        }
    }

    fn enforce(&mut self, name: &str, s: &Support, o: &OptionDef) {
        let ed = self.edition;
        if let Some(since) = s.introduced.filter(|&since| ed < since) {
            self.out.push(
                Diagnostic::error(
                    "option-not-introduced",
                    self.file,
                    o.span,
                    format!(
                        "{name} was introduced in edition {} and cannot be used in edition {}",
                        edition_name(since),
                        edition_name(ed)
                    ),
                )
                .help(format!(
                    "drop option {:?}, or move the file to a later edition",
                    o.name
                )),
            );
        } else if let Some(gone) = s.removed.filter(|&gone| ed >= gone) {
            let why = s
                .error
                .as_deref()
                .map(|e| format!(": {e}"))
                .unwrap_or_default();
            self.out.push(
                Diagnostic::error(
                    "removed-option",
                    self.file,
                    o.span,
                    format!(
                        "{name} is removed from edition {} on{why}",
                        edition_name(gone)
                    ),
                )
                .help(format!("drop option {:?}", o.name)),
            );
        } else if let Some(since) = s.deprecated.filter(|&since| ed >= since) {
            let why = s
                .warning
                .as_deref()
                .map(|w| format!(": {w}"))
                .unwrap_or_default();
            self.out.push(Diagnostic::warning(
                "deprecated-option",
                self.file,
                o.span,
                format!(
                    "{name} is deprecated from edition {} on{why}",
                    edition_name(since)
                ),
            ));
        }
    }
}
