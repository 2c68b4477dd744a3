//! bijoubuf-schema: `.proto` text (proto2, proto3, editions 2023, 2024 and 2026) to a
//! checked schema model.
//!
//! Editions map their `features` onto the model: `field_presence` gives a field's
//! [`Presence`], `enum_type` whether an enum is closed, both inherited from file to
//! message to field; `repeated_field_encoding`, `utf8_validation` and `json_format` are
//! accepted (bijoubuf's format fixes those), and `message_encoding = DELIMITED` (groups)
//! is refused. Features are read in both spellings (`features.x = Y` and
//! `features = { x: Y }`) and checked as protoc 36.2 checks them; edition 2024 adds its
//! naming style, `export`/`local` visibility (with `default_symbol_visibility`, STRICT
//! included) and `import option`, and refuses `import weak`, `ctype` and
//! `java_multiple_files`; edition 2026 (protoc 36.2's newest) keeps 2024's rules, makes
//! every type local to its file unless marked `export` (STRICT) and refuses
//! `cc_enable_arenas`. Any other edition is refused, as protoc 36.2 refuses it. A custom
//! option or feature (or an enum value it holds) whose `feature_support` puts the file's
//! edition before `edition_introduced` or from `edition_removed` on is refused, and one
//! from `edition_deprecated` on draws a warning, as in protoc 36.2.
//!
//! This crate is the front end of bijoubuf's code generation: it parses schema files
//! with a nom lexer and a recovering parser, resolves imports (include paths, in-memory
//! sources and the built-in well-known types), resolves every name with protobuf's
//! scoping rules (a package is in scope only when the file or one it imports declares
//! it, as in protoc), checks protoc's rules, interprets options (custom options included),
//! and hands back a [`Schema`]: the model `bijoubuf-codegen` reads. The same schema
//! converts to a `FileDescriptorSet` with source-code info: encoded with every option,
//! custom options included, as protoc writes it
//! ([`Schema::encode_file_descriptor_set`]; [`Schema::encode_descriptor_set`] takes
//! protoc's flags and writes byte for byte what protoc 36.2 writes with them), or as
//! `prost_types` messages, which cannot hold custom options
//! ([`Schema::file_descriptor_set`]). The other way, [`Compiler::descriptor`] takes a
//! descriptor made elsewhere (a descriptor set, a protoc plugin's request), written back
//! as schema text with its comments by [`descriptor_text`], so the same checks apply.
//!
//! All errors of a compilation are collected into [`Diagnostics`], each with a file,
//! span, message, labels and help, renderable with miette in time linear in their
//! number (a long line is shown as a window around the place). Lints (naming, package
//! layout and rpc conventions at the breadth of buf's `STANDARD` set, listed in
//! [`LINT_RULES`]) come back as warnings; [`Lints`] allows or denies each rule, and
//! [`Compiler::max_diagnostics`] caps how many diagnostics are reported.
//!
//! ```
//! # fn main() -> Result<(), bijoubuf_schema::Diagnostics> {
//! use bijoubuf_schema::{Compiler, FieldType, Presence, ScalarType};
//!
//! let compiled = Compiler::new()
//!     .source("shop/v1/order.proto", r#"
//!         syntax = "proto3";
//!         package shop.v1;
//!         import "google/protobuf/timestamp.proto";
//!         // An order.
//!         message Order {
//!           uint64 id = 1;
//!           optional string note = 2;
//!           google.protobuf.Timestamp placed_at = 3;
//!           map<string, uint32> items = 4;
//!         }
//!     "#)
//!     .compile(&["shop/v1/order.proto"])?;
//! let order = compiled.schema.message("shop.v1.Order").expect("declared above");
//! assert_eq!(order.comments.leading.as_deref(), Some(" An order.\n"));
//! assert_eq!(order.fields[0].ty, FieldType::Scalar(ScalarType::Uint64));
//! assert_eq!(order.fields[1].presence, Presence::Explicit);
//! assert_eq!(order.fields[2].ty, FieldType::Message("google.protobuf.Timestamp".into()));
//! let fds = compiled.schema.file_descriptor_set();
//! assert_eq!(fds.file.len(), 1);
//! let bytes = compiled.schema.encode_file_descriptor_set();
//! assert!(!bytes.is_empty());
//! # Ok(()) }
//! ```

mod ast;
mod builtin;
mod check;
mod descriptor;
mod descriptor_extras;
mod diagnostics;
mod from_descriptor;
mod lexer;
mod lints;
mod load;
mod model;
mod options;
mod parser;
mod resolve;
mod snippet;
mod span;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

pub use descriptor::DescriptorSetOptions;
pub use diagnostics::{Diagnostic, Diagnostics, Label, Severity, similar};
pub use from_descriptor::{
    UnsupportedDescriptor, descriptor_text, encoded_descriptor_text, encoded_set_files,
    length_delimited_records,
};
pub use lints::{LINT_RULES, LintLevel, Lints, UnknownLint};
pub use model::{
    Cardinality, Comments, EnumDef, EnumValueDef, FieldDef, FieldType, FileDef, MessageDef,
    MethodDef, NumberRange, OneofDef, OptionDef, OptionValue, Presence, ScalarType, Schema,
    ServiceDef, Syntax, TypeDef,
};
pub use span::Span;

pub use check::defaults::c_unescape;
pub use check::fields::json_name as default_json_name;

/// The text of a file and its line table (kept for diagnostics and source-code info).
#[derive(Clone, Debug)]
pub(crate) struct SourceInfo {
    pub(crate) text: Arc<miette::NamedSource<String>>,
    pub(crate) lines: Arc<span::LineIndex>,
}

impl PartialEq for SourceInfo {
    fn eq(&self, other: &Self) -> bool {
        self.text.inner() == other.text.inner()
    }
}

/// Finds and compiles .proto files.
#[derive(Clone, Debug, Default)]
pub struct Compiler {
    include_paths: Vec<PathBuf>,
    sources: HashMap<String, String>,
    lints: Lints,
    max_diagnostics: Option<usize>,
}

/// A successful compilation: the schema and any lint warnings.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The checked schema.
    pub schema: Schema,
    /// Lint warnings (and protoc's few warnings).
    pub warnings: Vec<Diagnostic>,
    /// Warnings found beyond the cap of [`Compiler::max_diagnostics`] and left out.
    pub omitted: usize,
}

impl Compiler {
    /// A compiler with no include paths; the well-known types are built in.
    pub fn new() -> Self {
        Compiler::default()
    }

    /// Adds a directory imports are looked up in (after in-memory sources, before the
    /// built-in files).
    pub fn include(&mut self, path: impl Into<PathBuf>) -> &mut Self {
        self.include_paths.push(path.into());
        self
    }

    /// Adds an in-memory file under its import name.
    pub fn source(&mut self, name: impl Into<String>, text: impl Into<String>) -> &mut Self {
        self.sources.insert(name.into(), text.into());
        self
    }

    /// Adds a file made elsewhere (protoc's descriptor set, a protoc plugin's request)
    /// under its name, written back as schema text by [`descriptor_text`], so that the
    /// same rules apply to it as to a source file.
    ///
    /// # Errors
    /// [`UnsupportedDescriptor`] for what schema text cannot say (see [`descriptor_text`]).
    pub fn descriptor(
        &mut self,
        file: &prost_types::FileDescriptorProto,
    ) -> Result<&mut Self, UnsupportedDescriptor> {
        let text = descriptor_text(file)?;
        Ok(self.source(file.name(), text))
    }

    /// Adds an encoded `FileDescriptorProto` (an entry of a descriptor set or of a protoc
    /// plugin's request) under its name, as [`Compiler::descriptor`] does, editions files
    /// included (see [`encoded_descriptor_text`]).
    ///
    /// # Errors
    /// [`UnsupportedDescriptor`] for what schema text cannot say.
    pub fn encoded_descriptor(&mut self, bytes: &[u8]) -> Result<&mut Self, UnsupportedDescriptor> {
        let (file, text) = from_descriptor::decode(bytes)?;
        Ok(self.source(file.name(), text))
    }

    /// Chooses which lints run, and which of them refuse the schema (see [`Lints`]).
    pub fn lints(&mut self, lints: Lints) -> &mut Self {
        self.lints = lints;
        self
    }

    /// Reports at most `cap` diagnostics: the first errors, then the first warnings, in
    /// file and source order (a refused schema keeps at least one error). The number
    /// left out is [`Compiled::omitted`] or [`Diagnostics::omitted`].
    pub fn max_diagnostics(&mut self, cap: usize) -> &mut Self {
        self.max_diagnostics = Some(cap);
        self
    }

    /// Compiles `files` (import names) and everything they import.
    ///
    /// # Errors
    /// Every error found, in every file, as [`Diagnostics`].
    pub fn compile<S: AsRef<str>>(&self, files: &[S]) -> Result<Compiled, Diagnostics> {
        let names: Vec<&str> = files.iter().map(AsRef::as_ref).collect();
        load::compile(self, &names)
    }

    /// The text of `name`; `Err(offset)` carries lossy text and the offset of the first
    /// byte that is not UTF-8.
    pub(crate) fn read(&self, name: &str) -> Option<Result<String, (String, usize)>> {
        if let Some(text) = self.sources.get(name) {
            return Some(Ok(text.clone()));
        }
        // An import path never climbs out of its include directory.
        if !name.split('/').any(|part| part == "..") {
            for dir in &self.include_paths {
                if let Ok(bytes) = std::fs::read(dir.join(name)) {
                    return Some(match String::from_utf8(bytes) {
                        Ok(text) => Ok(text),
                        Err(e) => {
                            let at = e.utf8_error().valid_up_to();
                            Err((blank_invalid_utf8(e.as_bytes()), at))
                        }
                    });
                }
            }
        }
        builtin::get(name).map(|t| Ok(t.to_string()))
    }
}

/// The text with each byte that is not UTF-8 replaced by a space, so offsets and columns
/// stay those of the file and the lexer reports nothing more about them.
fn blank_invalid_utf8(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        out.extend(std::iter::repeat_n(' ', chunk.invalid().len()));
    }
    out
}

/// Compiles in-memory files: `(name, text)` pairs, compiling every one of them.
///
/// # Errors
/// Every error found as [`Diagnostics`].
pub fn compile_sources(files: &[(&str, &str)]) -> Result<Compiled, Diagnostics> {
    let mut c = Compiler::new();
    for (name, text) in files {
        c.source(*name, *text);
    }
    let names: Vec<&str> = files.iter().map(|(n, _)| *n).collect();
    c.compile(&names)
}

/// Whether `name` is a file built into the compiler: the well-known types,
/// descriptor.proto and the other files protoc 36.2 bundles
/// (`google/protobuf/go_features.proto`, `google/protobuf/compiler/plugin.proto`, …),
/// which imports, and [`Compiler::compile`], find without an include path.
pub fn is_builtin(name: &str) -> bool {
    builtin::get(name).is_some()
}
