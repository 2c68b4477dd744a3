//! The symbol table and protobuf's name lookup.
//!
//! Every message, enum, enum value, field, oneof, extension, service, method and package
//! component gets its full name. Enum values are siblings of their enum (C++ scoping), so
//! `enum A { X = 0; }` defines `pkg.X`, not `pkg.A.X`.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use crate::ast;
use crate::diagnostics::Diagnostic;
use crate::load::Loaded;
use crate::model::Syntax;
use crate::parser::{FIELD_MAX, RANGE_MAX};
use crate::span::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SymKind {
    Package,
    Message,
    Enum,
    EnumValue,
    Service,
    Method,
    Field,
    Oneof,
    Extension,
}

impl SymKind {
    fn is_type(self) -> bool {
        matches!(self, SymKind::Message | SymKind::Enum)
    }

    /// Kinds that have members a dotted name can reach into.
    fn is_aggregate(self) -> bool {
        matches!(
            self,
            SymKind::Message | SymKind::Enum | SymKind::Package | SymKind::Service
        )
    }

    pub(crate) fn describe(self) -> &'static str {
        match self {
            SymKind::Package => "a package",
            SymKind::Message => "a message",
            SymKind::Enum => "an enum",
            SymKind::EnumValue => "an enum value",
            SymKind::Service => "a service",
            SymKind::Method => "a method",
            SymKind::Field => "a field",
            SymKind::Oneof => "a oneof",
            SymKind::Extension => "an extension",
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Symbol {
    pub(crate) kind: SymKind,
    pub(crate) file: usize,
    pub(crate) span: Span,
}

/// The outcome of looking a name up.
pub(crate) enum Lookup {
    Found(String, Symbol),
    /// Defined, but in a file that is not imported.
    NotImported(String, usize),
    NotFound,
}

pub(crate) struct Symbols {
    map: HashMap<String, Symbol>,
    /// Per file, the sorted indexes of the files it sees: itself, its imports, and what
    /// those re-export with `import public`.
    visible: Vec<Vec<usize>>,
    /// Per file, its package (empty when none).
    packages: Vec<String>,
    pub(crate) syntax: Vec<Syntax>,
    pub(crate) names: Vec<String>,
    /// Extension ranges declared by each message (full name), inclusive.
    pub(crate) extension_ranges: HashMap<String, Vec<(i64, i64)>>,
    /// Messages with `message_set_wire_format = true` (full names).
    pub(crate) message_sets: HashSet<String>,
    /// The synthetic entry messages of map fields (full names): symbols like any message
    /// (they take their names, as in protoc), but no field may be declared of their type.
    pub(crate) map_entries: HashSet<String>,
    undeclared: RefCell<Option<(String, usize)>>,
    /// The scope a dotted name's first part picked in the last failed lookup.
    partial: RefCell<Option<String>>,
    /// `(a, b)`: a name in file `a` resolved to a symbol of file `b`.
    used: RefCell<HashSet<(usize, usize)>>,
}

struct Builder<'a> {
    syms: Symbols,
    errors: Vec<Diagnostic>,
    files: &'a [Loaded],
}

fn join(scope: &str, name: &str) -> String {
    if scope.is_empty() {
        name.to_string()
    } else {
        format!("{scope}.{name}")
    }
}

impl Builder<'_> {
    fn add(&mut self, file: usize, scope: &str, name: &str, span: Span, kind: SymKind) -> String {
        let full = join(scope, name);
        if let Some(prev) = self.syms.map.get(&full).copied() {
            if prev.kind == SymKind::Package && kind == SymKind::Package {
                return full;
            }
            let fname = &self.files[file].name;
            let scope_text = if scope.is_empty() {
                "the root scope".to_string()
            } else {
                format!("{scope:?}")
            };
            let mut d = Diagnostic::error(
                "duplicate-name",
                fname,
                span,
                format!("{name:?} is already defined in {scope_text}"),
            );
            d = if prev.file == file {
                d.label(
                    prev.span,
                    format!("{} first defined here", prev.kind.describe()),
                )
            } else {
                d.help(format!(
                    "it is also defined as {} in {:?}",
                    prev.kind.describe(),
                    self.files[prev.file].name
                ))
            };
            if kind == SymKind::EnumValue {
                d = d.help(format!(
                    "enum values use C++ scoping: they are siblings of their enum, so {name:?} must be unique in {scope_text}, not just within its enum"
                ));
            }
            self.errors.push(d);
            return full;
        }
        self.syms
            .map
            .insert(full.clone(), Symbol { kind, file, span });
        full
    }

    fn message(&mut self, file: usize, scope: &str, m: &ast::Message) {
        let full = self.add(file, scope, &m.name.name, m.name.span, SymKind::Message);
        let message_set = crate::check::message_set(m);
        let max = if message_set { RANGE_MAX } else { FIELD_MAX };
        let ranges = m
            .extension_ranges
            .iter()
            .flat_map(|r| {
                r.ranges
                    .iter()
                    .map(|r| (r.start, if r.max { max } else { r.end }))
            })
            .collect();
        self.syms.extension_ranges.insert(full.clone(), ranges);
        if message_set {
            self.syms.message_sets.insert(full.clone());
        }
        if m.map_entry {
            self.syms.map_entries.insert(full.clone());
        }
        for f in &m.fields {
            self.add(file, &full, &f.name.name, f.name.span, SymKind::Field);
        }
        for o in &m.oneofs {
            self.add(file, &full, &o.name.name, o.name.span, SymKind::Oneof);
        }
        for n in &m.messages {
            self.message(file, &full, n);
        }
        for e in &m.enums {
            self.enumeration(file, &full, e);
        }
        for x in &m.extends {
            self.extend(file, &full, x);
        }
    }

    fn enumeration(&mut self, file: usize, scope: &str, e: &ast::Enum) {
        self.add(file, scope, &e.name.name, e.name.span, SymKind::Enum);
        for v in &e.values {
            self.add(file, scope, &v.name.name, v.name.span, SymKind::EnumValue);
        }
    }

    fn extend(&mut self, file: usize, scope: &str, x: &ast::Extend) {
        for f in &x.fields {
            self.add(file, scope, &f.name.name, f.name.span, SymKind::Extension);
        }
    }
}

impl Symbols {
    pub(crate) fn build(files: &[Loaded], visible: Vec<Vec<usize>>) -> (Symbols, Vec<Diagnostic>) {
        let syms = Symbols {
            map: HashMap::new(),
            visible,
            packages: files
                .iter()
                .map(|f| {
                    f.ast
                        .package
                        .as_ref()
                        .map(|p| p.name.name.clone())
                        .unwrap_or_default()
                })
                .collect(),
            syntax: files.iter().map(|f| f.ast.syntax).collect(),
            names: files.iter().map(|f| f.name.clone()).collect(),
            extension_ranges: HashMap::new(),
            message_sets: HashSet::new(),
            map_entries: HashSet::new(),
            undeclared: RefCell::new(None),
            partial: RefCell::new(None),
            used: RefCell::new(HashSet::new()),
        };
        let mut b = Builder {
            syms,
            errors: Vec::new(),
            files,
        };
        for (fi, f) in files.iter().enumerate() {
            let mut scope = String::new();
            if let Some(p) = &f.ast.package {
                for part in p.name.name.split('.') {
                    scope = b.add(fi, &scope, part, p.name.span, SymKind::Package);
                }
            }
            for m in &f.ast.messages {
                b.message(fi, &scope, m);
            }
            for e in &f.ast.enums {
                b.enumeration(fi, &scope, e);
            }
            for x in &f.ast.extends {
                b.extend(fi, &scope, x);
            }
            for s in &f.ast.services {
                let full = b.add(fi, &scope, &s.name.name, s.name.span, SymKind::Service);
                for m in &s.methods {
                    b.add(fi, &full, &m.name.name, m.name.span, SymKind::Method);
                }
            }
        }
        (b.syms, b.errors)
    }

    fn sees(&self, from: usize, file: usize) -> bool {
        self.visible[from].binary_search(&file).is_ok()
    }

    /// The symbol with this full name, if `from` can see it. A package counts only when
    /// `from` or a file it sees declares that package or one inside it (as protoc
    /// does): a package reached only through indirect imports is not in scope.
    fn find(&self, from: usize, full: &str) -> Option<Symbol> {
        let sym = *self.map.get(full)?;
        if sym.kind == SymKind::Package {
            let declares = |f: &usize| {
                let p = &self.packages[*f];
                p.strip_prefix(full)
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
            };
            if self.visible[from].iter().any(declares) {
                return Some(sym);
            }
            self.undeclared
                .borrow_mut()
                .get_or_insert((full.to_string(), sym.file));
            return None;
        }
        if self.sees(from, sym.file) {
            self.used.borrow_mut().insert((from, sym.file));
            Some(sym)
        } else {
            self.undeclared
                .borrow_mut()
                .get_or_insert((full.to_string(), sym.file));
            None
        }
    }

    /// Whether any name in file `from` resolved to a symbol of file `file`.
    pub(crate) fn used(&self, from: usize, file: usize) -> bool {
        self.used.borrow().contains(&(from, file))
    }

    /// After a failed lookup of a dotted name: the scope its first part resolved to.
    pub(crate) fn partial_match(&self) -> Option<String> {
        self.partial.borrow().clone()
    }

    /// The messages (and enums, with `enums`) file `from` sees, map entries left out, each
    /// spelled as `name` is: with as many dotted parts, or in full with a leading dot when
    /// `name` has one. Pairs of (spelling, full name, kind), sorted; whether a spelling
    /// reaches its type from a scope is for `resolves_to` to say.
    pub(crate) fn type_spellings(
        &self,
        from: usize,
        name: &str,
        enums: bool,
    ) -> Vec<(String, String, SymKind)> {
        let parts = name.trim_start_matches('.').split('.').count();
        let mut out: Vec<(String, String, SymKind)> = self
            .map
            .iter()
            .filter(|(full, s)| {
                (s.kind == SymKind::Message || (enums && s.kind == SymKind::Enum))
                    && !self.map_entries.contains(*full)
                    && self.sees(from, s.file)
            })
            .filter_map(|(full, s)| {
                let spelled = if name.starts_with('.') {
                    format!(".{full}")
                } else {
                    let comps: Vec<&str> = full.split('.').collect();
                    comps.get(comps.len().checked_sub(parts)?..)?.join(".")
                };
                Some((spelled, full.clone(), s.kind))
            })
            .collect();
        out.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
        out
    }

    /// Whether `name`, looked up as a type from `scope` in file `from`, is type `full`.
    /// Leaves no trace: what a lookup records for diagnostics and for the unused-import
    /// lint is as it was.
    pub(crate) fn resolves_to(&self, from: usize, scope: &str, name: &str, full: &str) -> bool {
        let saved = (
            self.undeclared.borrow().clone(),
            self.partial.borrow().clone(),
            self.used.borrow().clone(),
        );
        let found = self.lookup_inner(from, scope, name, true);
        *self.undeclared.borrow_mut() = saved.0;
        *self.partial.borrow_mut() = saved.1;
        *self.used.borrow_mut() = saved.2;
        found.is_some_and(|(f, _)| f == full)
    }

    /// Any symbol by full name, visible or not.
    pub(crate) fn get(&self, full: &str) -> Option<Symbol> {
        self.map.get(full).copied()
    }

    /// Looks `name` up from `scope` the way protoc does: innermost scope first; a dotted
    /// name's first part picks the scope and the rest must be found inside it. With
    /// `types_only`, single names that are not types are skipped.
    pub(crate) fn lookup(&self, from: usize, scope: &str, name: &str, types_only: bool) -> Lookup {
        *self.undeclared.borrow_mut() = None;
        *self.partial.borrow_mut() = None;
        let result = self.lookup_inner(from, scope, name, types_only);
        match result {
            Some((full, sym)) => Lookup::Found(full, sym),
            None => match self.undeclared.borrow_mut().take() {
                // A package out of scope says nothing of where the name is defined:
                // only a file that defines the name itself is worth importing.
                Some((full, _))
                    if self.map.get(&full).map(|s| s.kind) == Some(SymKind::Package) =>
                {
                    match self.defined_elsewhere(from, scope, name) {
                        Some((full, file)) => Lookup::NotImported(full, file),
                        None => Lookup::NotFound,
                    }
                }
                Some((full, file)) => Lookup::NotImported(full, file),
                None => Lookup::NotFound,
            },
        }
    }

    /// The full name `name` would have from `scope` (innermost first) where a file
    /// `from` does not see defines it (not as a package), and that file.
    fn defined_elsewhere(&self, from: usize, scope: &str, name: &str) -> Option<(String, usize)> {
        let defined = |full: &str| {
            self.map
                .get(full)
                .filter(|s| s.kind != SymKind::Package && !self.sees(from, s.file))
                .map(|s| (full.to_string(), s.file))
        };
        if let Some(abs) = name.strip_prefix('.') {
            return defined(abs);
        }
        let mut scope = scope.to_string();
        loop {
            if let Some(found) = defined(&join(&scope, name)) {
                return Some(found);
            }
            if scope.is_empty() {
                return None;
            }
            match scope.rfind('.') {
                Some(i) => scope.truncate(i),
                None => scope.clear(),
            }
        }
    }

    fn lookup_inner(
        &self,
        from: usize,
        scope: &str,
        name: &str,
        types_only: bool,
    ) -> Option<(String, Symbol)> {
        if let Some(abs) = name.strip_prefix('.') {
            return self.find(from, abs).map(|s| (abs.to_string(), s));
        }
        let (first, rest) = match name.split_once('.') {
            Some((f, r)) => (f, Some(r)),
            None => (name, None),
        };
        let mut scope = scope.to_string();
        loop {
            let candidate = join(&scope, first);
            if let Some(sym) = self.find(from, &candidate) {
                match rest {
                    None if !types_only || sym.kind.is_type() => return Some((candidate, sym)),
                    None => {}
                    Some(rest) if sym.kind.is_aggregate() => {
                        let full = format!("{candidate}.{rest}");
                        let found = self.find(from, &full).map(|s| (full, s));
                        if found.is_none() {
                            *self.partial.borrow_mut() = Some(candidate);
                        }
                        return found;
                    }
                    Some(_) => {}
                }
            }
            if scope.is_empty() {
                return None;
            }
            match scope.rfind('.') {
                Some(i) => scope.truncate(i),
                None => scope.clear(),
            }
        }
    }
}
