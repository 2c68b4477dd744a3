//! bijoubuf-breaking: what a schema change does to bytes already signed and stored, and
//! to old readers.
//!
//! Signed messages and content-addressed data outlive their schemas. This crate compares
//! an old and a new checked schema and reports each change by the guarantee it breaks
//! ([`Category`]), judged by bijoubuf's wire format (conformance/SPEC.md), not
//! protobuf's:
//!
//! - **canonical**: old canonical bytes are refused by a strict new reader, decode to a
//!   different value, or re-encode differently (a signature or content address over them
//!   no longer holds for what the new schema reads);
//! - **forward**: bytes the new schema writes are refused or misread by a strict old
//!   reader (and, where the finding says so, by a preserving one);
//! - **json**: proto3 JSON names and value forms;
//! - **source**: the generated Rust API.
//!
//! Each [`Finding`] carries a stable rule id, its category, a severity, a message and the
//! span in the new `.proto` file, and renders with miette like bijoubuf-schema's
//! diagnostics. Because a strict decoder accepts exactly one byte string per value
//! (SPEC §10), "decodes strictly to the same value" and "re-encodes to the same bytes"
//! are one condition; the checker decides it from the wire forms of SPEC §3–§8 (the
//! scalar table is in [`scalar`]). It sits in the schema layer and never links the
//! runtime; the `counterexample` feature adds [`counterexample`], which builds a message
//! under one schema, encodes it, and runs the other schema's real decoder
//! (bijoubuf-reflect) to show each canonical and forward finding failing.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use bijoubuf_breaking::{Category, Old, check};
//!
//! let old = bijoubuf_schema::compile_sources(&[(
//!     "p.proto",
//!     "syntax = \"proto3\"; message P { int32 a = 1; string b = 2; }",
//! )])?;
//! let new = bijoubuf_schema::compile_sources(&[(
//!     "p.proto",
//!     "syntax = \"proto3\"; message P { sint32 a = 1; }",
//! )])?;
//! let findings = check(Old::Schema(&old.schema), &new.schema)?;
//! // int32 → sint32 is the same bytes in bijoubuf (SPEC §3.2); removing `b` is not.
//! let canonical: Vec<_> = findings
//!     .iter()
//!     .filter(|f| f.category == Category::Canonical)
//!     .map(|f| f.rule_id())
//!     .collect();
//! assert_eq!(canonical, ["field-removed"]);
//! # Ok(()) }
//! ```
//!
//! # How types are paired
//!
//! Old and new messages and enums pair by full name, package and nesting included, as
//! `buf breaking` pairs them. A type that moved to another package or took another name
//! is a removal (`message-removed`, `enum-removed`, source) plus an addition, and a
//! type of a new file is an addition: it is never compared with an old type that only
//! shares its short name. [`check_with`] takes renames ([`Config::rename`]; the CLI's
//! `--rename OLD=NEW`): two messages, two enums or two packages, paired and compared
//! field by field, reported as `message-renamed` or `enum-renamed`.
//!
//! A field whose type changed to another message or enum is compared through the two
//! types all the same: its bytes are read by the new type whatever its name, so a
//! field switching from `N` to a new `O` with the same fields gives no canonical or
//! forward finding, only `field-type-changed` (source) and `message-removed` for `N`.
//!
//! # What each category promises
//!
//! - A change with no **canonical** finding keeps every stored byte string: each message
//!   the old schema could write decodes strictly under the new one to the same value (the
//!   same numbers, bytes, enum names, fields) and re-encodes to the same bytes, so its
//!   signature and content address still hold. The tests check this on generated old
//!   messages for every change they call safe.
//! - A change with no **forward** finding lets a strict old reader read everything the
//!   new schema writes, as the same value. Forward findings are about strict readers; a
//!   preserving old reader (SPEC §8.2) differs only for `field-added`: it keeps the new
//!   record and re-emits it byte for byte, which is why that finding is a warning. Every
//!   other forward finding concerns a field the old reader knows, and a preserving reader
//!   refuses or misreads it like a strict one.
//! - **json** and **source** findings have no counterexample: they are about JSON text
//!   and generated Rust, not bytes.
//!
//! # Rules
//!
//! Each row is one (rule, category) the checker reports; [`RULES`] holds the same table.
//! The comparison with `buf breaking` is in `COMPARISON.md` beside this crate.
//!
#![doc = include_str!("../RULES.md")]

mod compare;
#[cfg(feature = "counterexample")]
pub mod counterexample;
mod finding;
mod rules;
pub mod scalar;
mod view;

use std::collections::HashMap;
use std::sync::Arc;

use bijoubuf_schema::{Schema, Span};
use miette::NamedSource;
use prost_types::FileDescriptorSet;

pub use finding::{Category, Finding, Severity, Side, Subject, Witness};
pub use rules::{RULES, Rule, RuleRow};
pub use view::ViewError;

use compare::Loc;

/// The old side of a comparison.
#[derive(Clone, Copy, Debug)]
pub enum Old<'a> {
    /// Compiled `.proto` files: the requested files are compared.
    Schema(&'a Schema),
    /// A descriptor set (`protoc --descriptor_set_out`, `bijoubuf compile`): every file in
    /// it is compared.
    DescriptorSet(&'a FileDescriptorSet),
    /// A descriptor set whose files named in `imports` are only looked up, not compared,
    /// as the imports of [`Old::Schema`]'s requested files are not (files added to a set
    /// written without its imports, so that its names resolve).
    DescriptorSetWithImports {
        /// The set.
        set: &'a FileDescriptorSet,
        /// The names of its files that are not compared.
        imports: &'a [String],
    },
}

/// How [`check_with`] pairs old types with new ones.
///
/// Messages and enums pair by full name, package and nesting included, as `buf
/// breaking` pairs them: a type that moved to another package or took another name is
/// a removal (`message-removed`, `enum-removed`) plus an addition, and a new type is
/// never compared with an unrelated old one of the same short name. A rename says
/// otherwise: the old type is compared with the new one field by field and reported as
/// `message-renamed` or `enum-renamed`.
///
/// ```
/// use bijoubuf_breaking::Config;
///
/// let config = Config::new()
///     .rename("shop.v1.Order", "shop.v1.Purchase") // one type (and the types nested in it)
///     .rename("billing.v1", "payments.v1"); // every type of a package
/// assert_eq!(config.renames().len(), 2);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Config {
    renames: Vec<(String, String)>,
}

impl Config {
    /// Pairing by full name only.
    pub fn new() -> Config {
        Config::default()
    }

    /// Pair old `old` with new `new`, full names both (a leading `.` is allowed): two
    /// messages, two enums, or two packages (every type declared under the old package
    /// pairs with the type of the same relative name under the new one, where there is
    /// one). Types nested in a renamed message follow it. The closest rename wins:
    /// `a.v1` → `b.v1` together with `a.v1.M` → `b.v1.N` sends `a.v1.M` to `b.v1.N` and
    /// every other type of `a.v1` to `b.v1`.
    pub fn rename(mut self, old: impl Into<String>, new: impl Into<String>) -> Config {
        self.renames.push((old.into(), new.into()));
        self
    }

    /// The renames, in the order given.
    pub fn renames(&self) -> &[(String, String)] {
        &self.renames
    }
}

/// Why [`check_with`] cannot compare two schemas. Its [`code`](Self::code):
/// `invalid-descriptor-set` ([`Descriptors`](Self::Descriptors)) or `invalid-rename`
/// ([`Rename`](Self::Rename)).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CheckError {
    /// A descriptor set that cannot be compared.
    Descriptors(ViewError),
    /// A rename naming a type or package the schema does not have, two kinds of thing,
    /// or one old name twice.
    Rename(String),
}

impl CheckError {
    /// The stable kebab-case code of the refusal (see the type's docs).
    pub fn code(&self) -> &'static str {
        match self {
            CheckError::Descriptors(e) => e.code(),
            CheckError::Rename(_) => "invalid-rename",
        }
    }
}

impl std::fmt::Display for CheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CheckError::Descriptors(e) => e.fmt(f),
            CheckError::Rename(m) => write!(f, "rename: {m}"),
        }
    }
}

impl std::error::Error for CheckError {}

impl From<ViewError> for CheckError {
    fn from(e: ViewError) -> CheckError {
        CheckError::Descriptors(e)
    }
}

/// Compare `old` with `new`, types paired by full name; findings point into `new`'s
/// files. Findings come in the order of the old schema's types, then by field number.
/// [`check_with`] takes renames.
///
/// # Errors
/// A descriptor set whose type names do not resolve, with groups or editions, or field
/// numbers out of range.
pub fn check(old: Old<'_>, new: &Schema) -> Result<Vec<Finding>, ViewError> {
    let (old_view, new_view) = views(old, new)?;
    let raw = compare::compare(&old_view, &new_view, &compare::Renames::default());
    Ok(located(raw, new, &new_view))
}

/// [`check`] with the pairing `config` declares.
///
/// # Errors
/// As [`check`], and a rename naming something neither schema has as it says
/// ([`CheckError::Rename`]).
pub fn check_with(old: Old<'_>, new: &Schema, config: &Config) -> Result<Vec<Finding>, CheckError> {
    let (old_view, new_view) = views(old, new)?;
    let renames = compare::Renames::resolve(&config.renames, &old_view, &new_view)
        .map_err(CheckError::Rename)?;
    let raw = compare::compare(&old_view, &new_view, &renames);
    Ok(located(raw, new, &new_view))
}

fn views(old: Old<'_>, new: &Schema) -> Result<(view::View, view::View), ViewError> {
    let old_view = match old {
        Old::Schema(s) => {
            let requested: Vec<&str> = s
                .files()
                .iter()
                .filter(|f| f.requested)
                .map(|f| f.name.as_str())
                .collect();
            view::View::new(&s.file_descriptor_set_with_imports(), &|n| {
                requested.contains(&n)
            })?
        }
        Old::DescriptorSet(set) => view::View::new(set, &|_| true)?,
        Old::DescriptorSetWithImports { set, imports } => {
            view::View::new(set, &|n| !imports.iter().any(|i| i == n))?
        }
    };
    let new_view = view::View::new(&new.file_descriptor_set_with_imports(), &|_| true)?;
    Ok((old_view, new_view))
}

/// Findings with their places in `new`'s files.
fn located(raw: Vec<compare::Raw>, new: &Schema, new_view: &view::View) -> Vec<Finding> {
    let mut sources: HashMap<String, Arc<NamedSource<String>>> = HashMap::new();
    raw.into_iter()
        .map(|r| {
            let place = locate(new, new_view, &r.at);
            let mut f = finding(r);
            if let Some((file, span)) = place {
                let text = new.file(&file).map_or("", |d| d.source_text());
                let source = sources
                    .entry(file.clone())
                    .or_insert_with(|| Arc::new(NamedSource::new(file.clone(), text.to_string())))
                    .clone();
                let (line, column) = line_col(text, span.start);
                f.line = line;
                f.column = column;
                f.file = Some(file);
                f.span = Some(span);
                f.source = Some(source);
            }
            f
        })
        .collect()
}

/// Compare two descriptor sets (no spans: descriptors carry no source text). Every file
/// of `old` is compared.
///
/// # Errors
/// As [`check`], for either set.
pub fn check_descriptor_sets(
    old: &FileDescriptorSet,
    new: &FileDescriptorSet,
) -> Result<Vec<Finding>, ViewError> {
    let old = view::View::new(old, &|_| true)?;
    let new = view::View::new(new, &|_| true)?;
    Ok(compare::compare(&old, &new, &compare::Renames::default())
        .into_iter()
        .map(finding)
        .collect())
}

/// [`check_descriptor_sets`] with the pairing `config` declares.
///
/// # Errors
/// As [`check_with`].
pub fn check_descriptor_sets_with(
    old: &FileDescriptorSet,
    new: &FileDescriptorSet,
    config: &Config,
) -> Result<Vec<Finding>, CheckError> {
    let old = view::View::new(old, &|_| true)?;
    let new = view::View::new(new, &|_| true)?;
    let renames =
        compare::Renames::resolve(&config.renames, &old, &new).map_err(CheckError::Rename)?;
    Ok(compare::compare(&old, &new, &renames)
        .into_iter()
        .map(finding)
        .collect())
}

fn finding(r: compare::Raw) -> Finding {
    Finding {
        rule: r.rule,
        category: r.category,
        severity: r.severity,
        message: r.message,
        file: None,
        span: None,
        line: 0,
        column: 0,
        subject: r.subject,
        source: None,
    }
}

/// The file and span of a place in the new schema.
fn locate(schema: &Schema, view: &view::View, at: &Loc) -> Option<(String, Span)> {
    let file_of = |i: usize| view.files.get(i).map(|f| f.name.clone());
    match at {
        Loc::Message(name) => {
            let file = file_of(view.messages.get(name)?.file)?;
            Some((file, schema.message(name)?.name_span()))
        }
        Loc::Field(name, number) => {
            let file = file_of(view.messages.get(name)?.file)?;
            Some((file, schema.message(name)?.field(*number)?.span))
        }
        Loc::Enum(name) => {
            let file = file_of(view.enums.get(name)?.file)?;
            Some((file, schema.enumeration(name)?.name_span()))
        }
        Loc::EnumValue(name, value) => {
            let file = file_of(view.enums.get(name)?.file)?;
            let e = schema.enumeration(name)?;
            Some((file, e.values.iter().find(|v| &v.name == value)?.span))
        }
        Loc::File(name) => {
            let text = schema.file(name)?.source_text();
            // The package statement, else the file's first byte.
            let span = text
                .find("package")
                .map(|start| {
                    let end = text[start..]
                        .find(';')
                        .map_or(text.len(), |e| start + e + 1);
                    Span::new(start, end)
                })
                .unwrap_or_default();
            Some((name.clone(), span))
        }
    }
}

/// One-based line and column (in characters) of `offset`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// The findings of `categories`, in order.
pub fn filter(findings: Vec<Finding>, categories: &[Category]) -> Vec<Finding> {
    findings
        .into_iter()
        .filter(|f| categories.contains(&f.category))
        .collect()
}

/// The rule table as markdown (what `RULES.md` holds).
pub fn rule_table_markdown() -> String {
    let mut out = String::from("| rule id | category | what it means |\n|---|---|---|\n");
    for r in RULES {
        out.push_str(&format!(
            "| `{}` | {} | {} |\n",
            r.rule.id(),
            r.category,
            r.meaning.replace('|', "\\|")
        ));
    }
    out
}
