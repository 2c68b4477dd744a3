//! The checker: syntax tree plus symbols to the checked model, enforcing protoc's rules.

pub(crate) mod defaults;
mod enums;
mod features;
pub(crate) mod fields;
mod naming;

use std::collections::{HashMap, HashSet};

use self::features::{Features, Target};
use self::naming::Style;
use crate::ast::{self, ImportKind, OptionStmt, ValueKind};
use crate::diagnostics::Diagnostic;
use crate::load::Loaded;
use crate::model::{
    Comments, ExtendDecl, FileDecls, FileDef, MessageDef, MethodDef, NumberRange, OneofDef,
    RangeStmt, ServiceDef, Syntax,
};
use crate::parser::{FIELD_MAX, RANGE_MAX};
use crate::resolve::{Lookup, SymKind, Symbols};
use crate::span::Span;

pub(crate) fn build(files: &[Loaded], syms: &Symbols) -> (Vec<FileDef>, Vec<Diagnostic>) {
    let mut errors = Vec::new();
    let mut ext_numbers = HashMap::new();
    let models = files
        .iter()
        .enumerate()
        .map(|(fi, f)| {
            let mut c = Checker {
                fi,
                file: f,
                files,
                syms,
                errors: &mut errors,
                ext_numbers: &mut ext_numbers,
                features: Features::EDITION_DEFAULTS,
            };
            c.file()
        })
        .collect();
    (models, errors)
}

fn range_stmt(
    span: Span,
    comments: &Comments,
    ranges: &[ast::Range],
    names: &[ast::Ident],
) -> RangeStmt {
    RangeStmt {
        span,
        comments: comments.clone(),
        ranges: ranges
            .iter()
            .map(|r| [r.span, r.start_span, r.end_span])
            .collect(),
        names: names.iter().map(|n| n.span).collect(),
    }
}

fn extend_decls(blocks: &[ast::Extend]) -> Vec<ExtendDecl> {
    blocks
        .iter()
        .map(|x| ExtendDecl {
            span: x.span,
            comments: x.comments.clone(),
            fields: x.fields.len(),
        })
        .collect()
}

const SCALAR_KEYWORDS: &[&str] = &[
    "double", "float", "int32", "int64", "uint32", "uint64", "sint32", "sint64", "fixed32",
    "fixed64", "sfixed32", "sfixed64", "bool", "string", "bytes",
];

/// Type names of other languages that are no protobuf type, and what to write instead:
/// too far from a scalar type's name to be suggested as a typo, or close to the wrong one
/// (`float64` is a `double`, not a `float`).
const FOREIGN_TYPE_NAMES: &[(&str, &str)] = &[
    ("int", "`int32` or `int64`"),
    ("uint", "`uint32` or `uint64`"),
    ("long", "`int64`"),
    ("boolean", "`bool`"),
    ("str", "`string`"),
    ("float32", "`float`"),
    ("float64", "`double`"),
];

/// What `closest_type` found.
#[derive(Debug, PartialEq, Eq)]
enum Closest<'a> {
    Declared(&'a str),
    Scalar(&'a str),
}

/// The one spelling of `declared` (messages and enums) or else of `scalars` closest to
/// `name`, a type name that resolved to nothing.
///
/// Close enough is at most one edit for names of up to four characters and two for
/// longer ones, keeping two characters in common (`A` is no typo of `B`). Names of three
/// characters or fewer get no scalar type: `Foo` is two edits from `bool` by
/// coincidence. A declared type wins over a scalar type as close; two declared types
/// equally close, or two scalar types, are no suggestion.
fn closest_type<'a>(name: &str, declared: &[&'a str], scalars: &[&'a str]) -> Option<Closest<'a>> {
    let n = name.chars().count();
    if n > 64 {
        return None;
    }
    let most = if n <= 4 { 1 } else { 2 };
    let best = |candidates: &[&'a str]| -> Option<(usize, Option<&'a str>)> {
        let mut best: Option<(usize, Option<&'a str>)> = None;
        for &c in candidates {
            let d = crate::diagnostics::distance(name, c);
            if d == 0 || d > most || n.max(c.chars().count()) < d + 2 {
                continue;
            }
            best = match best {
                Some((bd, _)) if bd < d => best,
                Some((bd, Some(prev))) if bd == d && prev != c => Some((d, None)),
                Some((bd, None)) if bd == d => best,
                _ => Some((d, Some(c))),
            };
        }
        best
    };
    let declared = best(declared);
    let scalars = if n > 3 { best(scalars) } else { None };
    match (declared, scalars) {
        (Some((dd, d)), Some((sd, _))) if dd <= sd => d.map(Closest::Declared),
        (_, Some((_, s))) => s.map(Closest::Scalar),
        (Some((_, d)), None) => d.map(Closest::Declared),
        (None, None) => None,
    }
}

pub(crate) fn join(scope: &str, name: &str) -> String {
    if scope.is_empty() {
        name.to_string()
    } else {
        format!("{scope}.{name}")
    }
}

/// A simple (unparenthesized, one-part) option by name.
pub(crate) fn simple_option<'a>(options: &'a [OptionStmt], name: &str) -> Option<&'a OptionStmt> {
    options
        .iter()
        .find(|o| o.name.len() == 1 && !o.name[0].is_extension && o.name[0].name == name)
}

/// `option message_set_wire_format = true;`: its extension numbers and reserved `max`
/// reach 2^31 − 2 (protoc's `kint32max` with an exclusive end).
pub(crate) fn message_set(m: &ast::Message) -> bool {
    bool_option(&m.options, "message_set_wire_format")
}

/// `true` if the named bool option is set to `true`.
pub(crate) fn bool_option(options: &[OptionStmt], name: &str) -> bool {
    simple_option(options, name).is_some_and(|o| o.value.kind == ValueKind::Ident("true".into()))
}

/// For a method's type or an extendee that found a symbol which is not a type: why a
/// message of that name further out was not reached.
pub(crate) fn shadow_help(kind: SymKind) -> Option<&'static str> {
    (!matches!(kind, SymKind::Message | SymKind::Enum | SymKind::Package)).then_some(
        "this name is looked up among all symbols, innermost scope first, and this one hides any message of the same name further out; write the message's full name with a leading dot",
    )
}

pub(crate) struct Checker<'a> {
    pub(crate) fi: usize,
    pub(crate) file: &'a Loaded,
    pub(crate) files: &'a [Loaded],
    pub(crate) syms: &'a Symbols,
    pub(crate) errors: &'a mut Vec<Diagnostic>,
    /// (extendee, number) → (extension full name, file, span): numbers are unique per
    /// extended message across all files.
    pub(crate) ext_numbers: &'a mut HashMap<(String, u32), (String, usize, Span)>,
    /// In an edition: the features in force at the element being checked.
    pub(crate) features: Features,
}

impl Checker<'_> {
    pub(crate) fn err(
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

    pub(crate) fn syntax(&self) -> Syntax {
        self.file.ast.syntax
    }

    /// Resolves a field's message or enum type, reporting failures. As protoc does for a
    /// field's type, a single name skips symbols that are not types.
    pub(crate) fn resolve_type(
        &mut self,
        scope: &str,
        name: &str,
        span: Span,
    ) -> Option<(String, SymKind)> {
        self.resolve(scope, name, span, true)
    }

    /// Resolves the message an `extend` or a method's input or output names. protoc
    /// looks these up among all symbols, not only types, so the nearest symbol of that
    /// name wins even when it is a field or a method (`rpc Foo(Foo)` finds the method);
    /// the symbol found is returned whatever its kind, for the caller to refuse.
    pub(crate) fn resolve_any(
        &mut self,
        scope: &str,
        name: &str,
        span: Span,
    ) -> Option<(String, SymKind)> {
        self.resolve(scope, name, span, false)
    }

    fn resolve(
        &mut self,
        scope: &str,
        name: &str,
        span: Span,
        types_only: bool,
    ) -> Option<(String, SymKind)> {
        match self.syms.lookup(self.fi, scope, name, types_only) {
            Lookup::Found(full, sym) if matches!(sym.kind, SymKind::Message | SymKind::Enum) => {
                if sym.file != self.fi
                    && let Some(why) = self.hidden(sym.file, &full)
                {
                    let other = self.syms.names[sym.file].clone();
                    self.err(
                        "not-visible",
                        span,
                        format!(
                            "{full:?}, defined in {other:?}, is not visible from other files: {why}"
                        ),
                    )
                    .with_help("mark it `export` in its file, or use it only there");
                    return None;
                }
                Some((full, sym.kind))
            }
            Lookup::Found(full, sym) if !types_only => Some((full, sym.kind)),
            Lookup::Found(full, sym) => {
                let kind = sym.kind.describe();
                self.err(
                    "not-a-type",
                    span,
                    format!("{full:?} is {kind}, not a message or enum type"),
                );
                None
            }
            Lookup::NotImported(full, file) => {
                let other = self.syms.names[file].clone();
                let me = self.file.name.clone();
                let d = self.err(
                    "missing-import",
                    span,
                    format!(
                        "{name:?} seems to be defined in {other:?}, which is not imported by {me:?}"
                    ),
                );
                d.with_help(format!("add `import \"{other}\";` to use {full:?} here"));
                None
            }
            Lookup::NotFound => {
                let partial = self.syms.partial_match();
                if let Lookup::Found(full, sym) = self.syms.lookup(self.fi, scope, name, false) {
                    let kind = sym.kind.describe();
                    self.err(
                        "not-a-type",
                        span,
                        format!("{full:?} is {kind}, not a message or enum type"),
                    );
                } else if let Some(first) = partial {
                    let head = name.split('.').next().unwrap_or(name);
                    self.err("unresolved-type", span, format!("{name:?} is not defined"))
                        .with_help(format!(
                            "{head:?} resolves to {first:?}, which has no such member; write the full name with a leading dot to reach another one"
                        ));
                } else {
                    let help = self.type_suggestion(scope, name, types_only);
                    let d = self.err("unresolved-type", span, format!("{name:?} is not defined"));
                    if let Some(help) = help {
                        d.with_help(help);
                    }
                }
                None
            }
        }
    }

    /// "Did you mean" help for type `name`, not found from `scope`: what protobuf calls
    /// another language's type name (`int`), else the closest message or enum this file
    /// sees, spelled so that it resolves from `scope`, else the closest scalar type. The
    /// first and the last only for a field's type (`field_type`): a method's type or an
    /// extendee is a message. `closest_type` says how close is close enough.
    fn type_suggestion(&self, scope: &str, name: &str, field_type: bool) -> Option<String> {
        if field_type && let Some((_, ours)) = FOREIGN_TYPE_NAMES.iter().find(|(f, _)| *f == name) {
            return Some(format!(
                "protobuf has no type `{name}`; did you mean {ours}?"
            ));
        }
        let declared = self.syms.type_spellings(self.fi, name, field_type);
        let scalars: &[&str] = if field_type { SCALAR_KEYWORDS } else { &[] };
        let declared_names: Vec<&str> = declared.iter().map(|(s, _, _)| s.as_str()).collect();
        match closest_type(name, &declared_names, scalars) {
            Some(Closest::Declared(spelled)) => {
                // Of the types spelled so (`a.Order`, `b.Order`), the one the spelling
                // reaches from here; none when another symbol shadows them all.
                let (_, _, kind) = declared.iter().find(|(s, full, _)| {
                    s == spelled && self.syms.resolves_to(self.fi, scope, spelled, full)
                })?;
                let kind = if *kind == SymKind::Enum {
                    "enum"
                } else {
                    "message"
                };
                Some(format!("did you mean the {kind} `{spelled}`?"))
            }
            Some(Closest::Scalar(word)) => Some(format!("did you mean the scalar type `{word}`?")),
            None => None,
        }
    }

    /// Why type `full` of file `file` cannot be used from another file, if it cannot:
    /// edition 2024's visibility (`local`, or a nested type under the default
    /// `default_symbol_visibility = EXPORT_TOP_LEVEL`), or edition 2026's (every type
    /// not marked `export`, under its default `STRICT`).
    fn hidden(&self, file: usize, full: &str) -> Option<&'static str> {
        let ast = &self.files[file].ast;
        if !ast.syntax.is_2024_or_later() {
            return None;
        }
        let skip = ast.package.as_ref().map_or(0, |p| p.name.name.len() + 1);
        let parts: Vec<&str> = full.get(skip..)?.split('.').collect();
        let (last, outer) = parts.split_last()?;
        let (mut messages, mut enums) = (&ast.messages, &ast.enums);
        for part in outer {
            let m = messages.iter().find(|m| m.name.name == *part)?;
            (messages, enums) = (&m.messages, &m.enums);
        }
        let explicit = match messages.iter().find(|m| m.name.name == *last) {
            Some(m) => m.visibility,
            None => enums.iter().find(|e| e.name.name == *last)?.visibility,
        };
        match explicit {
            Some((true, _)) => None,
            Some((false, _)) => Some("it is marked `local`"),
            None => match default_visibility(ast) {
                (DefaultVisibility::ExportAll, _) => None,
                (DefaultVisibility::LocalAll, _) => {
                    Some("its file sets `default_symbol_visibility = LOCAL_ALL`")
                }
                (DefaultVisibility::Strict, true) => {
                    Some("its file sets `default_symbol_visibility = STRICT`")
                }
                (DefaultVisibility::Strict, false) => {
                    Some("edition 2026 makes types local unless marked `export`")
                }
                (DefaultVisibility::ExportTopLevel, _) if outer.is_empty() => None,
                (DefaultVisibility::ExportTopLevel, _) => {
                    Some("edition 2024 makes nested types local unless marked `export`")
                }
            },
        }
    }

    /// Under `default_symbol_visibility = STRICT` (edition 2026's default) only top-level
    /// types may be marked `export`, but for protoc's one exception: an enum directly in
    /// a top-level message that is not exported and reserves every field number
    /// (`local message Outer { export enum E { … } reserved 1 to max; }`), a namespace.
    fn strict_exports(&mut self, ast: &ast::File) {
        if default_visibility(ast).0 != DefaultVisibility::Strict {
            return;
        }
        fn namespace(m: &ast::Message) -> bool {
            let ranges: Vec<&ast::Range> = m.reserved.iter().flat_map(|r| &r.ranges).collect();
            !matches!(m.visibility, Some((true, _)))
                && matches!(ranges.as_slice(), [r] if r.start == 1 && r.end == FIELD_MAX)
        }
        fn walk(m: &ast::Message, top: bool, found: &mut Vec<(Span, String, &'static str)>) {
            for n in &m.messages {
                if let Some((true, span)) = n.visibility {
                    found.push((span, n.name.name.clone(), "message"));
                }
                walk(n, false, found);
            }
            for e in &m.enums {
                if let Some((true, span)) = e.visibility
                    && !(top && namespace(m))
                {
                    found.push((span, e.name.name.clone(), "enum"));
                }
            }
        }
        let mut found = Vec::new();
        for m in &ast.messages {
            walk(m, true, &mut found);
        }
        for (span, name, kind) in found {
            self.err(
                "invalid-visibility",
                span,
                format!(
                    "nested {kind} {name} cannot be marked `export` under `default_symbol_visibility = STRICT`"
                ),
            )
            .with_help(if kind == "enum" {
                "move it to the top level, or nest it in a top-level `local` message that has `reserved 1 to max;` and nothing else that uses field numbers"
            } else {
                "move it to the top level (ideally in a file of its own) to export it"
            });
        }
    }

    fn file(&mut self) -> FileDef {
        let ast = &self.file.ast;
        let package = ast
            .package
            .as_ref()
            .map(|p| p.name.name.clone())
            .unwrap_or_default();
        self.features = self.features(Features::EDITION_DEFAULTS, &ast.options, Target::File);
        if let Some(p) = &ast.package {
            let legacy = self.features.style_legacy;
            self.naming_style(
                "package",
                &p.name.name,
                p.name.span,
                Style::LowerSnake,
                legacy,
            );
        }
        if self.syntax().is_2024_or_later() {
            self.edition_2024_file(ast);
        }
        let mut dependencies = Vec::new();
        let mut public_dependencies = Vec::new();
        let mut weak_dependencies = Vec::new();
        let mut option_dependencies = Vec::new();
        for imp in &ast.imports {
            let i = dependencies.len();
            match imp.kind {
                ImportKind::Option => {
                    option_dependencies.push(imp.path.clone());
                    continue;
                }
                ImportKind::Public => public_dependencies.push(i),
                ImportKind::Weak => weak_dependencies.push(i),
                ImportKind::Normal => {}
            }
            dependencies.push(imp.path.clone());
        }
        let messages = ast
            .messages
            .iter()
            .map(|m| self.message(&package, m))
            .collect();
        let enums = ast
            .enums
            .iter()
            .map(|e| self.enumeration(&package, e))
            .collect();
        let extensions = self.extends(&package, &ast.extends);
        let services = ast
            .services
            .iter()
            .map(|s| self.service(&package, s))
            .collect();
        FileDef {
            name: self.file.name.clone(),
            package,
            syntax: ast.syntax,
            dependencies,
            public_dependencies,
            weak_dependencies,
            option_dependencies,
            messages,
            enums,
            services,
            extensions,
            options: Vec::new(),
            requested: self.file.requested,
            source: self.file.source.clone(),
            decls: FileDecls {
                root: ast.span,
                syntax: ast.syntax_span.map(|s| (s, ast.syntax_comments.clone())),
                package: ast.package.as_ref().map(|p| (p.span, p.comments.clone())),
                imports: ast
                    .imports
                    .iter()
                    .filter(|i| i.kind != ImportKind::Option)
                    .map(|i| (i.span, i.comments.clone()))
                    .collect(),
                option_imports: ast
                    .imports
                    .iter()
                    .filter(|i| i.kind == ImportKind::Option)
                    .map(|i| (i.span, i.comments.clone()))
                    .collect(),
                import_kinds: ast
                    .imports
                    .iter()
                    .filter_map(|i| i.kind_span.map(|s| (i.kind == ImportKind::Public, s)))
                    .collect(),
                extends: extend_decls(&ast.extends),
            },
            encoded_options: Vec::new(),
        }
    }

    /// Checks `reserved`/`extensions` ranges: bounds (`lo` to `hi`, with `max` for an end
    /// written `max`), order, overlaps.
    fn ranges(
        &mut self,
        what: &str,
        ranges: &[&ast::Range],
        (lo, hi): (i64, i64),
        max: i64,
    ) -> Vec<NumberRange> {
        let mut out: Vec<(NumberRange, Span)> = Vec::with_capacity(ranges.len());
        for r in ranges {
            let r = &ast::Range {
                end: if r.max { max } else { r.end },
                ..(*r).clone()
            };
            if r.start < lo || r.end > hi {
                self.err(
                    "number-out-of-range",
                    r.span,
                    format!(
                        "{what} range {} to {} is outside {lo} to {hi}",
                        r.start, r.end
                    ),
                );
                continue;
            }
            if r.start > r.end {
                self.err(
                    "invalid-range",
                    r.span,
                    format!("{what} range end {} is before its start {}", r.end, r.start),
                );
                continue;
            }
            out.push((
                NumberRange {
                    start: r.start,
                    end: r.end,
                },
                r.span,
            ));
        }
        // Overlaps, found in one sweep over the ranges sorted by start: each range is
        // compared with the one reaching furthest among those before it, and the later
        // declared of the two is reported.
        let mut order: Vec<usize> = (0..out.len()).collect();
        order.sort_by_key(|&i| (out[i].0.start, i));
        let mut reach: Option<usize> = None;
        let mut overlaps = Vec::new();
        for &i in &order {
            if let Some(j) = reach {
                if out[i].0.start <= out[j].0.end {
                    overlaps.push((i.max(j), i.min(j)));
                }
                if out[i].0.end > out[j].0.end {
                    reach = Some(i);
                }
            } else {
                reach = Some(i);
            }
        }
        overlaps.sort_unstable();
        for (later, earlier) in overlaps {
            let (r, span) = out[later];
            let (other, ospan) = out[earlier];
            self.err(
                "overlapping-ranges",
                span,
                format!(
                    "{what} range {} to {} overlaps range {} to {}",
                    r.start, r.end, other.start, other.end
                ),
            )
            .with_label(ospan, "the other range");
        }
        out.into_iter().map(|(r, _)| r).collect()
    }

    fn message(&mut self, scope: &str, m: &ast::Message) -> MessageDef {
        let outer = self.features;
        self.features = self.features(outer, &m.options, Target::Message);
        if !m.map_entry {
            let legacy = self.features.style_legacy;
            self.naming_style("message", &m.name.name, m.name.span, Style::Title, legacy);
        }
        let def = self.message_inner(scope, m);
        self.features = outer;
        def
    }

    /// What protoc refuses in a MessageSet: fields, and proto3.
    fn message_set_rules(&mut self, m: &ast::Message) {
        if self.syntax() == Syntax::Proto3 {
            let span =
                simple_option(&m.options, "message_set_wire_format").map_or(m.span, |o| o.span);
            self.err(
                "invalid-message-set",
                span,
                format!(
                    "message {:?}: a proto3 file cannot declare a MessageSet",
                    m.name.name
                ),
            );
        }
        for f in &m.fields {
            self.err(
                "invalid-message-set",
                f.span,
                format!(
                    "field {:?}: a MessageSet has extensions only, no fields",
                    f.name.name
                ),
            );
        }
    }

    fn message_inner(&mut self, scope: &str, m: &ast::Message) -> MessageDef {
        let full = join(scope, &m.name.name);
        let proto3 = self.syntax() == Syntax::Proto3;

        // protoc: `max` is 2^31 − 2 in a MessageSet, else 2^29 − 1; reserved numbers may
        // reach 2^31 − 2 in any message, extension numbers only in a MessageSet.
        let message_set = message_set(m);
        let max = if message_set { RANGE_MAX } else { FIELD_MAX };
        if message_set {
            self.message_set_rules(m);
        }
        let reserved: Vec<&ast::Range> = m.reserved.iter().flat_map(|r| &r.ranges).collect();
        let reserved_ranges = self.ranges("reserved", &reserved, (1, RANGE_MAX), max);
        let ext: Vec<&ast::Range> = m.extension_ranges.iter().flat_map(|r| &r.ranges).collect();
        if proto3 && let Some(first) = m.extension_ranges.first() {
            self.err(
                "proto3-extension-range",
                first.span,
                "extension ranges are not allowed in proto3",
            )
            .with_help(
                "proto3 messages cannot be extended; use a field of type google.protobuf.Any",
            );
        }
        let extension_ranges = self.ranges("extension", &ext, (1, max), max);
        let sorted_reserved = fields::sorted_ranges(&reserved_ranges);
        for (r, range) in ext.iter().zip(&extension_ranges) {
            // The first reserved range (by start) that ends at or after this one's start.
            let i = sorted_reserved.partition_point(|o| o.end < range.start);
            if let Some(res) = sorted_reserved
                .get(i)
                .filter(|o| o.start <= range.end && range.start <= o.end)
            {
                self.err(
                    "overlapping-ranges",
                    r.span,
                    format!(
                        "extension range {} to {} overlaps reserved range {} to {}",
                        range.start, range.end, res.start, res.end
                    ),
                );
            }
        }
        let mut reserved_names: Vec<String> = Vec::new();
        let mut seen_names: HashSet<&str> = HashSet::new();
        for n in m.reserved.iter().flat_map(|r| &r.names) {
            if !seen_names.insert(&n.name) {
                self.err(
                    "duplicate-reserved-name",
                    n.span,
                    format!("field name {:?} is reserved twice", n.name),
                );
            } else {
                reserved_names.push(n.name.clone());
            }
        }

        let mut fields = Vec::with_capacity(m.fields.len());
        for (idx, f) in m.fields.iter().enumerate() {
            // A oneof member inherits the oneof's features (checked with the oneof).
            let outer = self.features;
            if let Some(o) = f.oneof.and_then(|i| m.oneofs.get(i)) {
                self.features = features::inherit(outer, &o.options);
            }
            let fd = self.field(&full, f, idx, None, m.map_entry);
            self.features = outer;
            if let Some(fd) = fd {
                fields.push(fd);
            }
        }
        self.check_numbers(
            m,
            &fields,
            &reserved_ranges,
            &reserved_names,
            &extension_ranges,
        );
        self.check_json_names(&fields, m);

        let mut oneofs: Vec<OneofDef> = m
            .oneofs
            .iter()
            .enumerate()
            .map(|(i, o)| {
                let members = m
                    .fields
                    .iter()
                    .zip(&fields)
                    .filter(|(a, _)| a.oneof == Some(i))
                    .map(|(_, f)| f.number);
                OneofDef {
                    name: o.name.name.clone(),
                    synthetic: false,
                    fields: members.collect(),
                    name_span: Some(o.name.span),
                    encoded_options: Vec::new(),
                    options: Vec::new(),
                    comments: o.comments.clone(),
                    span: o.span,
                }
            })
            .collect();
        for r in &m.extension_ranges {
            // Only to check what may be set there; nothing in the model depends on it.
            self.features(self.features, &r.options, Target::ExtensionRange);
        }
        for o in &m.oneofs {
            let legacy = self
                .features(self.features, &o.options, Target::Oneof)
                .style_legacy;
            self.naming_style(
                "oneof",
                &o.name.name,
                o.name.span,
                Style::LowerSnake,
                legacy,
            );
        }
        for (o, def) in m.oneofs.iter().zip(&oneofs) {
            if def.fields.is_empty()
                && !m
                    .fields
                    .iter()
                    .any(|f| f.oneof.is_some() && def.name == o.name.name)
            {
                self.err(
                    "empty-oneof",
                    o.span,
                    format!("oneof {:?} must have at least one field", o.name.name),
                );
            }
        }
        // proto3 `optional` fields each get a synthetic oneof after the declared ones.
        for f in fields.iter_mut() {
            if f.proto3_optional {
                let mut name = format!("_{}", f.name);
                while m.fields.iter().any(|x| x.name.name == name)
                    || oneofs.iter().any(|o| o.name == name)
                {
                    name.insert(0, 'X');
                }
                f.oneof = Some(oneofs.len());
                oneofs.push(OneofDef {
                    name,
                    synthetic: true,
                    fields: vec![f.number],
                    name_span: None,
                    encoded_options: Vec::new(),
                    options: Vec::new(),
                    comments: Comments::default(),
                    span: f.span,
                });
            }
        }
        fields.sort_by_key(|f| (f.number, f.index));

        if simple_option(&m.options, "map_entry").is_some() {
            let span = simple_option(&m.options, "map_entry")
                .map(|o| o.span)
                .unwrap_or(m.span);
            self.err(
                "explicit-map-entry",
                span,
                "map_entry must not be set explicitly",
            )
            .with_help("write a field `map<KeyType, ValueType> name = N;` instead");
        }
        let messages = m.messages.iter().map(|n| self.message(&full, n)).collect();
        let enums = m.enums.iter().map(|e| self.enumeration(&full, e)).collect();
        let extensions = self.extends(&full, &m.extends);
        let extension_range_decls = m
            .extension_ranges
            .iter()
            .map(|er| range_stmt(er.span, &er.comments, &er.ranges, &[]))
            .collect();
        MessageDef {
            name: m.name.name.clone(),
            full_name: full,
            fields,
            oneofs,
            messages,
            enums,
            extensions,
            extension_ranges,
            reserved_ranges,
            reserved_names,
            map_entry: m.map_entry,
            visibility: m.visibility.map(|(export, _)| export),
            deprecated: bool_option(&m.options, "deprecated"),
            options: Vec::new(),
            comments: m.comments.clone(),
            span: m.span,
            name_span: m.name.span,
            extension_range_decls,
            reserved_decls: m
                .reserved
                .iter()
                .map(|r| range_stmt(r.span, &r.comments, &r.ranges, &r.names))
                .collect(),
            extend_decls: extend_decls(&m.extends),
            extension_range_options: Vec::new(),
            extension_range_option_defs: Vec::new(),
            encoded_options: Vec::new(),
        }
    }

    /// Extensions of one scope, indexed across all its `extend` blocks.
    fn extends(&mut self, scope: &str, blocks: &[ast::Extend]) -> Vec<crate::model::FieldDef> {
        let mut out = Vec::new();
        let mut base = 0;
        for x in blocks {
            out.extend(self.extend(scope, x, base));
            base += x.fields.len();
        }
        out
    }

    /// What protoc 36.2 refuses at file level from edition 2024 on.
    fn edition_2024_file(&mut self, ast: &ast::File) {
        self.strict_exports(ast);
        for imp in ast.imports.iter().filter(|i| i.kind == ImportKind::Weak) {
            self.err(
                "weak-import",
                imp.kind_span.unwrap_or(imp.span),
                "`import weak` is not allowed from edition 2024 on",
            )
            .with_help("import the file normally");
        }
        if ast.syntax == Syntax::Edition2026
            && let Some(o) = simple_option(&ast.options, "cc_enable_arenas")
        {
            self.err(
                "removed-option",
                o.span,
                "option `cc_enable_arenas` is removed from edition 2026 on (arenas are always enabled)",
            )
            .with_help("drop it");
        }
        if let Some(o) = simple_option(&ast.options, "java_multiple_files") {
            self.err(
                "removed-option",
                o.span,
                "option `java_multiple_files` is removed from edition 2024 on (it is the default there)",
            )
            .with_help(
                "drop it; `features.(pb.java).nest_in_file_class` chooses otherwise per element",
            );
        }
    }

    fn service(&mut self, scope: &str, s: &ast::Service) -> ServiceDef {
        let full = join(scope, &s.name.name);
        let service_features = self.features(self.features, &s.options, Target::Service);
        let legacy = service_features.style_legacy;
        self.naming_style("service", &s.name.name, s.name.span, Style::Title, legacy);
        for m in &s.methods {
            let legacy = self
                .features(service_features, &m.options, Target::Method)
                .style_legacy;
            self.naming_style("method", &m.name.name, m.name.span, Style::Title, legacy);
        }
        let methods = s
            .methods
            .iter()
            .map(|m| {
                let mut io = [String::new(), String::new()];
                for (slot, ty) in io.iter_mut().zip([&m.input, &m.output]) {
                    match self.resolve_any(&full, &ty.name, ty.span) {
                        Some((name, SymKind::Message)) => *slot = name,
                        Some((name, kind)) => {
                            let what = kind.describe();
                            let d = self.err(
                                "not-a-message",
                                ty.span,
                                format!("{name:?} is {what}, not a message type"),
                            );
                            match shadow_help(kind) {
                                Some(help) => d.with_help(help),
                                None => d.with_help("rpc requests and responses must be messages"),
                            };
                        }
                        None => {}
                    }
                }
                let [input_type, output_type] = io;
                MethodDef {
                    name: m.name.name.clone(),
                    input_type,
                    output_type,
                    spans: [m.name.span, m.input.span, m.output.span],
                    client_streaming: m.input_stream.is_some(),
                    server_streaming: m.output_stream.is_some(),
                    stream_spans: [m.input_stream, m.output_stream],
                    options: Vec::new(),
                    comments: m.comments.clone(),
                    span: m.span,
                    encoded_options: Vec::new(),
                    has_body: m.has_body,
                }
            })
            .collect();
        ServiceDef {
            name: s.name.name.clone(),
            name_span: s.name.span,
            full_name: full,
            methods,
            options: Vec::new(),
            comments: s.comments.clone(),
            span: s.span,
            encoded_options: Vec::new(),
        }
    }
}

/// A file's `default_symbol_visibility`, and whether the file sets it (else its
/// edition's default: EXPORT_TOP_LEVEL in 2024, STRICT in 2026).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DefaultVisibility {
    ExportAll,
    ExportTopLevel,
    LocalAll,
    Strict,
}

fn default_visibility(ast: &ast::File) -> (DefaultVisibility, bool) {
    match features::own_feature(&ast.options, "default_symbol_visibility") {
        Some(("EXPORT_ALL", _)) => (DefaultVisibility::ExportAll, true),
        Some(("EXPORT_TOP_LEVEL", _)) => (DefaultVisibility::ExportTopLevel, true),
        Some(("LOCAL_ALL", _)) => (DefaultVisibility::LocalAll, true),
        Some(("STRICT", _)) => (DefaultVisibility::Strict, true),
        _ if ast.syntax == Syntax::Edition2026 => (DefaultVisibility::Strict, false),
        _ => (DefaultVisibility::ExportTopLevel, false),
    }
}
