//! bijoubuf-build: compile `.proto` files to Rust from a `build.rs`.
//!
//! The shape mirrors `prost-build`: a [`Config`] builder, [`compile_protos`] for the
//! common case, one generated file per package in `OUT_DIR` named `<package>.rs`, pulled
//! into the crate with `bijoubuf::include_proto!("package")`. Underneath,
//! `bijoubuf-schema` parses and checks the schema and `bijoubuf-codegen` emits the
//! code; this crate only reads configuration and writes files. As with `prost-build`,
//! a package an imported file defines is generated too when the named files use its
//! types (`u.rs` for a field of type `u.B`): list only the files whose types you want,
//! and map a package you generate elsewhere with [`Config::extern_path`].
//!
//! Include each package in a module per segment of its name, nested, all of them under
//! one parent module: generated code reaches another package by its path from there
//! (`shop.v1` names `common.v1.Money` as `super::super::common::v1::Money`), so a
//! package included anywhere else (`pub mod shop { include_proto!("shop.v1"); }`)
//! fails with E0433 `too many leading super keywords` at its first type of another
//! package. A sub-package nests inside its parent's module (`shop.admin` in
//! `shop::admin`, beside what `shop.rs` holds). For `shop.v1` importing `common.v1`:
//!
//! ```ignore
//! // src/lib.rs
//! pub mod common {
//!     pub mod v1 { bijoubuf::include_proto!("common.v1"); }
//! }
//! pub mod shop {
//!     pub mod v1 { bijoubuf::include_proto!("shop.v1"); }
//! }
//! // then: shop::v1::Order { total: Some(common::v1::Money { .. }), .. }
//! ```
//!
//! [`Config::include_file`] writes that tree of modules into a file of its own instead.
//!
//! Schema errors come back as [`Error::Schema`] with every diagnostic already rendered
//! (file, line, the offending span underlined, help), so `build.rs` can return the error
//! with `?` or call `expect` and cargo shows the report. Lint rules warn by default
//! (cargo shows each warning as `warning: <crate>@<version>: file:line:col: warning[rule]:
//! …`); [`Config::deny_lint`] makes one fail the build, [`Config::allow_lint`] and
//! [`Config::no_lints`] turn them off, and [`Config::max_diagnostics`] caps the report.
//!
//! Run from a build script, [`Config::compile_protos`] tells cargo what it read: a
//! `cargo:rerun-if-changed` line for every `.proto` file the schema was read from (the
//! files named and everything they import, wherever they are, outside the crate too)
//! and for every include directory (so a new file there that would shadow an import
//! reruns the build too). Cargo then reruns the build script when one of these changes,
//! and only then: an edit of the crate's Rust sources no longer regenerates the code.
//! An include directory is watched as a whole, so keep `.proto` files in a folder of
//! their own rather than including the crate's root. The lines are written when cargo
//! runs the build script (`OUT_DIR` and `TARGET` set) unless
//! [`Config::cargo_directives`] says otherwise; a build script that prints its own
//! `rerun-if-changed` lines keeps working, since cargo watches the union.
//! A rerun removes the files an earlier run of the same call wrote and this one does not
//! (`common.v1.rs` once no schema imports `common.v1`), so no stale package stays
//! includable; it never removes a file it did not write (see [`Config::compile_protos`]).
//! An unknown path given to any option that takes paths ([`Config::borrowed`],
//! [`Config::preserve_unknown_fields`], the attributes, …) fails the build with
//! [`Error::Codegen`] naming it (and the close name it probably meant).
//!
//! ```no_run
//! // build.rs
//! fn main() -> Result<(), bijoubuf_build::Error> {
//!     bijoubuf_build::Config::new()
//!         .preserve_unknown_fields(["."])
//!         .compile_protos(&["proto/shop/v1/order.proto"], &["proto"])?;
//!     Ok(())
//! }
//! ```
//!
//! Each message's decoder is one of three shapes with the same checks and errors: the
//! *walk* (one question per declared field, in number order), *dispatch* (a `match` on
//! each record's field number into reads shared by every field of a shape) or a
//! *table* (a static table of the fields read by one loop in the runtime that every
//! message shares). Owned types of messages with 32 declared fields or more dispatch,
//! the rest walk (see `bijoubuf_codegen::Options::decode_dispatch` for the
//! measurements); [`Config::decode_dispatch`], [`Config::decode_table`] and
//! [`Config::decode_walk`] choose per message.
//!
//! Services are generated with [`Config::services`]: tonic server traits and clients
//! over `bijoubuf-tonic`'s codec (the crate then depends on `tonic` and
//! `bijoubuf-tonic`), the same code `bijoubuf compile --services` writes. Clients have
//! `FooClient::connect(addr)`, as `tonic-build`'s do, which needs tonic's `transport`
//! feature; [`Config::service_transport`]`(false)` leaves it out. Without
//! [`Config::services`] a schema's services are left out and the build prints a
//! `cargo:warning` naming them.
//!
//! The same steps without the file system, as a runnable check:
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let dir = std::env::temp_dir().join("bijoubuf-build-doc");
//! std::fs::create_dir_all(&dir)?;
//! std::fs::write(dir.join("point.proto"), "syntax = \"proto3\"; package geo; message Point { sint32 x = 1; }")?;
//! let files = bijoubuf_build::Config::new()
//!     .out_dir(&dir)
//!     .compile_protos(&[dir.join("point.proto")], &[&dir])?;
//! assert_eq!(files, [dir.join("geo.rs")]);
//! # Ok(()) }
//! ```

mod manifest;

use std::ffi::OsString;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use bijoubuf_codegen::Options;
use bijoubuf_schema::{Compiler, Diagnostics, LintLevel, Lints};

pub use bijoubuf_schema::DescriptorSetOptions;

/// Why a build step failed.
///
/// Each variant has a stable kebab-case [`code`](Self::code): `schema` (the schema
/// has errors; each diagnostic has its own code), the generator's code for
/// [`Codegen`](Self::Codegen) (`bijoubuf_codegen::Error::code`), `io`, `no-out-dir`,
/// `unsupported-descriptor`, `not-in-includes` and `unknown-lint`.
#[non_exhaustive]
pub enum Error {
    /// The schema has errors; `rendered` holds every diagnostic as a report with source
    /// snippets, ready to print.
    Schema {
        /// The rendered report.
        rendered: String,
        /// The diagnostics themselves.
        diagnostics: Box<Diagnostics>,
    },
    /// The code generator refused the configuration.
    Codegen(bijoubuf_codegen::Error),
    /// Reading or writing a file failed.
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: io::Error,
    },
    /// No output directory: neither [`Config::out_dir`] nor the `OUT_DIR` variable
    /// cargo sets for build scripts.
    NoOutDir,
    /// A descriptor in a set passed to [`Config::compile_fds`] or
    /// [`Config::compile_encoded_fds`] cannot be expressed as schema text, or the bytes
    /// are no descriptor set.
    Descriptor {
        /// What and where.
        message: String,
    },
    /// A proto file is not under any include directory, so it has no import name.
    NotInIncludes {
        /// The file.
        path: PathBuf,
    },
    /// [`Config::allow_lint`] or [`Config::deny_lint`] named no lint rule.
    UnknownLint(bijoubuf_schema::UnknownLint),
}

impl Error {
    /// The stable kebab-case code of the failure (see the type's docs): what a program
    /// matches on instead of the message.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Schema { .. } => "schema",
            Error::Codegen(e) => e.code(),
            Error::Io { .. } => "io",
            Error::NoOutDir => "no-out-dir",
            Error::Descriptor { .. } => "unsupported-descriptor",
            Error::NotInIncludes { .. } => "not-in-includes",
            Error::UnknownLint(e) => e.code(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Schema { rendered, .. } => f.write_str(rendered),
            Error::Codegen(e) => write!(f, "code generation failed: {e}"),
            Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
            Error::Descriptor { message } => {
                write!(f, "descriptor set: {message}")
            }
            Error::NoOutDir => {
                f.write_str("no output directory: set Config::out_dir or run from build.rs")
            }
            Error::NotInIncludes { path } => {
                write!(f, "{} is not inside any include directory", path.display())
            }
            Error::UnknownLint(e) => write!(f, "{e}"),
        }
    }
}

/// `Debug` shows the same report as `Display`, because `fn main() -> Result<…>` and
/// `expect` print errors with `Debug`.
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Codegen(e) => Some(e),
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<bijoubuf_codegen::Error> for Error {
    fn from(e: bijoubuf_codegen::Error) -> Self {
        Error::Codegen(e)
    }
}

/// Render every error of `diags` as a miette graphical report without colors.
fn render(diags: &Diagnostics) -> String {
    let handler =
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
            .with_width(100);
    let mut out = String::new();
    for d in diags.errors() {
        if handler.render_report(&mut out, d).is_err() {
            out.push_str(&d.to_string());
        }
        out.push('\n');
    }
    if diags.omitted() > 0 {
        out.push_str(&format!(
            "({} more diagnostics not shown: Config::max_diagnostics)\n",
            diags.omitted()
        ));
    }
    if out.is_empty() {
        out = diags.to_string();
    }
    out
}

/// Build-time configuration, as in `prost-build`.
#[derive(Clone, Debug, Default)]
pub struct Config {
    options: Options,
    out_dir: Option<PathBuf>,
    include_file: Option<PathBuf>,
    descriptor_set: Option<PathBuf>,
    descriptor_set_options: Option<DescriptorSetOptions>,
    lints: Lints,
    lint_levels: Vec<(String, LintLevel)>,
    max_diagnostics: Option<usize>,
    cargo_directives: Option<bool>,
}

impl Config {
    /// The defaults: write to `OUT_DIR`, no include file, no descriptor set.
    pub fn new() -> Self {
        Config::default()
    }

    /// Write generated files here instead of `OUT_DIR`.
    pub fn out_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// Also write a file (relative to the output directory) with a module tree that
    /// includes every generated package, one module per segment of a package's name
    /// (the nesting the crate docs describe):
    /// `include!(concat!(env!("OUT_DIR"), "/protos.rs"))`.
    pub fn include_file(&mut self, name: impl Into<PathBuf>) -> &mut Self {
        self.include_file = Some(name.into());
        self
    }

    /// Also write the compiled schema as an encoded `FileDescriptorSet` (protobuf
    /// encoding, with source info and every option, custom options included) to this path.
    pub fn file_descriptor_set_path(&mut self, path: impl Into<PathBuf>) -> &mut Self {
        self.descriptor_set = Some(path.into());
        self
    }

    /// What the descriptor set of [`file_descriptor_set_path`](Self::file_descriptor_set_path)
    /// holds, by protoc's flags: with these, it is byte for byte the set `protoc -o`
    /// writes with the same flags (its defaults: no imports, no source info, options of
    /// source retention dropped). Without this call, the set keeps source info and every
    /// option, custom options as written, and leaves imports out.
    ///
    /// ```
    /// use bijoubuf_build::{Config, DescriptorSetOptions};
    ///
    /// let mut config = Config::new();
    /// config
    ///     .file_descriptor_set_path("fds.binpb")
    ///     .descriptor_set_options(DescriptorSetOptions {
    ///         include_imports: true,
    ///         ..DescriptorSetOptions::default()
    ///     });
    /// ```
    pub fn descriptor_set_options(&mut self, options: DescriptorSetOptions) -> &mut Self {
        self.descriptor_set_options = Some(options);
        self
    }

    /// See [`Options::type_attribute`].
    pub fn type_attribute(&mut self, path: impl AsRef<str>, attr: impl AsRef<str>) -> &mut Self {
        self.options.type_attribute(path, attr);
        self
    }

    /// See [`Options::message_attribute`].
    pub fn message_attribute(&mut self, path: impl AsRef<str>, attr: impl AsRef<str>) -> &mut Self {
        self.options.message_attribute(path, attr);
        self
    }

    /// See [`Options::enum_attribute`].
    pub fn enum_attribute(&mut self, path: impl AsRef<str>, attr: impl AsRef<str>) -> &mut Self {
        self.options.enum_attribute(path, attr);
        self
    }

    /// See [`Options::field_attribute`].
    pub fn field_attribute(&mut self, path: impl AsRef<str>, attr: impl AsRef<str>) -> &mut Self {
        self.options.field_attribute(path, attr);
        self
    }

    /// See [`Options::extern_path`].
    pub fn extern_path(
        &mut self,
        proto_path: impl AsRef<str>,
        rust_path: impl AsRef<str>,
    ) -> &mut Self {
        self.options.extern_path(proto_path, rust_path);
        self
    }

    /// See [`Options::bytes`].
    pub fn bytes<I: IntoIterator<Item = S>, S: AsRef<str>>(&mut self, paths: I) -> &mut Self {
        self.options.bytes(paths);
        self
    }

    /// See [`Options::boxed`].
    pub fn boxed<I: IntoIterator<Item = S>, S: AsRef<str>>(&mut self, paths: I) -> &mut Self {
        self.options.boxed(paths);
        self
    }

    /// See [`Options::borrowed`].
    pub fn borrowed<I: IntoIterator<Item = S>, S: AsRef<str>>(&mut self, paths: I) -> &mut Self {
        self.options.borrowed(paths);
        self
    }

    /// See [`Options::preserve_unknown_fields`].
    pub fn preserve_unknown_fields<I: IntoIterator<Item = S>, S: AsRef<str>>(
        &mut self,
        paths: I,
    ) -> &mut Self {
        self.options.preserve_unknown_fields(paths);
        self
    }

    /// See [`Options::decode_dispatch`]: messages at these paths are decoded by
    /// dispatch (a `match` on each record's field number) whatever their size.
    pub fn decode_dispatch<I: IntoIterator<Item = S>, S: AsRef<str>>(
        &mut self,
        paths: I,
    ) -> &mut Self {
        self.options.decode_dispatch(paths);
        self
    }

    /// See [`Options::decode_table`]: messages at these paths are decoded by a static
    /// table of their fields and one loop in the runtime shared by every message
    /// (opt-in).
    pub fn decode_table<I: IntoIterator<Item = S>, S: AsRef<str>>(
        &mut self,
        paths: I,
    ) -> &mut Self {
        self.options.decode_table(paths);
        self
    }

    /// See [`Options::decode_walk`]: messages at these paths are decoded by the walk
    /// (one question per declared field, in number order) whatever their size.
    pub fn decode_walk<I: IntoIterator<Item = S>, S: AsRef<str>>(&mut self, paths: I) -> &mut Self {
        self.options.decode_walk(paths);
        self
    }

    /// See [`Options::serde`].
    pub fn serde<I: IntoIterator<Item = S>, S: AsRef<str>>(&mut self, paths: I) -> &mut Self {
        self.options.serde(paths);
        self
    }

    /// See [`Options::disable_comments`].
    pub fn disable_comments<I: IntoIterator<Item = S>, S: AsRef<str>>(
        &mut self,
        paths: I,
    ) -> &mut Self {
        self.options.disable_comments(paths);
        self
    }

    /// Generate a tonic server trait and client for every `service` (see
    /// [`Options::services`]); the crate then needs `tonic` and `bijoubuf-tonic`. Without
    /// it, a schema's services are not generated and the build prints a
    /// `cargo:warning` naming them. Clients come with `FooClient::connect(addr)`, as
    /// `tonic-build`'s do and as `bijoubuf compile --services` writes them, which needs
    /// tonic's `transport` feature; [`Config::service_transport`]`(false)` leaves it out.
    pub fn services(&mut self, enable: bool) -> &mut Self {
        self.options.services(enable);
        self
    }

    /// See [`Options::codec_path`].
    pub fn codec_path(&mut self, path: impl Into<String>) -> &mut Self {
        self.options.codec_path(path);
        self
    }

    /// Whether generated clients get `connect` (on by default; see
    /// [`Options::service_transport`]): `service_transport(false)` for a crate whose
    /// `tonic` has no `transport` feature, which then builds clients with
    /// `FooClient::new(channel)`.
    pub fn service_transport(&mut self, enable: bool) -> &mut Self {
        self.options.service_transport(enable);
        self
    }

    /// See [`Options::no_std`].
    pub fn no_std(&mut self) -> &mut Self {
        self.options.no_std();
        self
    }

    /// The lint rules to run, and which refuse the schema (all warn by default; the
    /// warnings reach cargo as `cargo:warning` lines, denied rules fail the build).
    /// Rules named with [`Config::allow_lint`] and [`Config::deny_lint`] apply on top.
    pub fn lints(&mut self, lints: Lints) -> &mut Self {
        self.lints = lints;
        self
    }

    /// Runs no lint rule (those named with [`Config::deny_lint`] still run).
    pub fn no_lints(&mut self) -> &mut Self {
        self.lints = Lints::none();
        self
    }

    /// Turns lint rule `rule` off (names as in [`bijoubuf_schema::LINT_RULES`]; `all`
    /// for every rule). An unknown name fails the build with [`Error::UnknownLint`].
    pub fn allow_lint(&mut self, rule: impl Into<String>) -> &mut Self {
        self.lint_levels.push((rule.into(), LintLevel::Allow));
        self
    }

    /// Makes lint rule `rule` an error, so a schema that breaks it fails the build.
    pub fn deny_lint(&mut self, rule: impl Into<String>) -> &mut Self {
        self.lint_levels.push((rule.into(), LintLevel::Deny));
        self
    }

    /// Reports at most `cap` diagnostics in [`Error::Schema`] (the rest are counted).
    pub fn max_diagnostics(&mut self, cap: usize) -> &mut Self {
        self.max_diagnostics = Some(cap);
        self
    }

    /// Whether to print cargo's build-script lines: `cargo:rerun-if-changed=` for every
    /// `.proto` file read and every include directory, and `cargo:warning=` for every
    /// lint warning. By default they are printed when cargo runs the build script
    /// (`OUT_DIR` and `TARGET` are set), and not otherwise (tests, tools).
    pub fn cargo_directives(&mut self, on: bool) -> &mut Self {
        self.cargo_directives = Some(on);
        self
    }

    /// Whether this run prints cargo's lines (see [`Config::cargo_directives`]).
    fn prints_directives(&self) -> bool {
        self.cargo_directives.unwrap_or_else(|| {
            std::env::var_os("OUT_DIR").is_some() && std::env::var_os("TARGET").is_some()
        })
    }

    /// A compiler with this configuration's lint and diagnostic settings.
    fn compiler(&self) -> Result<Compiler, Error> {
        let mut lints = self.lints.clone();
        for (rule, level) in &self.lint_levels {
            lints.set(rule, *level).map_err(Error::UnknownLint)?;
        }
        let mut compiler = Compiler::new();
        compiler.lints(lints);
        if let Some(cap) = self.max_diagnostics {
            compiler.max_diagnostics(cap);
        }
        Ok(compiler)
    }

    /// Compile `protos` (paths, each inside one of `includes`) and write one
    /// `<package>.rs` per package to the output directory. Returns the paths written
    /// (generated files, then the include file and descriptor set if configured).
    ///
    /// Files an earlier build of the same `protos` wrote into the output directory and
    /// this one does not (`common.v1.rs` once no file imports `common.v1`, an include
    /// file renamed) are removed, so `include_proto!` cannot pick up stale code. What was
    /// written is listed in `.bijoubuf-build/` in the output directory, one manifest per
    /// list of `protos`, and only files listed there are ever removed: files of other
    /// `compile_protos` calls into the same directory, or of other tools, stay. A call
    /// whose list of `protos` changes starts a new manifest, so files only the old list
    /// wrote stay until `cargo clean`.
    ///
    /// # Errors
    /// [`Error::Schema`] with the rendered diagnostics, a codegen or I/O error.
    pub fn compile_protos(
        &mut self,
        protos: &[impl AsRef<Path>],
        includes: &[impl AsRef<Path>],
    ) -> Result<Vec<PathBuf>, Error> {
        let mut compiler = self.compiler()?;
        for inc in includes {
            compiler.include(inc.as_ref());
        }
        let mut names = Vec::new();
        for p in protos {
            names.push(import_name(p.as_ref(), includes)?);
        }
        let compiled = compiler.compile(&names).map_err(|d| Error::Schema {
            rendered: render(&d),
            diagnostics: Box::new(d),
        })?;
        let written = self.write(&compiled, &names)?;
        if self.prints_directives() {
            for line in directives(&compiled, includes) {
                println!("{line}");
            }
        }
        Ok(written)
    }

    /// Generate code for every file of a descriptor set made elsewhere (protoc's
    /// `--descriptor_set_out`, buf, protox), as `prost-build` does. The descriptors are
    /// written back as schema text and checked like source files, so the same rules
    /// apply; comments of the set's source-code info are kept, custom options are not. Stale files
    /// are removed as by [`Config::compile_protos`], the set's file names standing for
    /// the list of `protos`. `prost_types` drops what editions files say: for those, hand
    /// the set's bytes to [`Config::compile_encoded_fds`].
    ///
    /// # Errors
    /// [`Error::Descriptor`] for what cannot be expressed as schema text (groups,
    /// editions), [`Error::Schema`] for rule violations, codegen or I/O errors.
    pub fn compile_fds(
        &mut self,
        set: prost_types::FileDescriptorSet,
    ) -> Result<Vec<PathBuf>, Error> {
        let mut compiler = self.compiler()?;
        let mut names = Vec::new();
        for f in &set.file {
            compiler.descriptor(f).map_err(descriptor_error)?;
            names.push(f.name().to_string());
        }
        self.compile_descriptors(&compiler, &names)
    }

    /// [`Config::compile_fds`] for an encoded descriptor set (the bytes of protoc's
    /// `--descriptor_set_out` or `buf build -o`), editions files included: their
    /// edition, `features`, `export`/`local` and `import option` are read from the
    /// bytes.
    ///
    /// ```no_run
    /// // build.rs, the set made by `buf build -o proto.binpb`
    /// fn main() -> Result<(), bijoubuf_build::Error> {
    ///     let set = std::fs::read("proto.binpb").expect("proto.binpb");
    ///     bijoubuf_build::Config::new().compile_encoded_fds(&set)?;
    ///     Ok(())
    /// }
    /// ```
    ///
    /// # Errors
    /// [`Error::Descriptor`] for bytes that are no descriptor set or what schema text
    /// cannot say (groups, an unknown edition or feature), [`Error::Schema`] for rule
    /// violations, codegen or I/O errors.
    pub fn compile_encoded_fds(&mut self, set: &[u8]) -> Result<Vec<PathBuf>, Error> {
        let mut compiler = self.compiler()?;
        let mut names = Vec::new();
        for file in bijoubuf_schema::encoded_set_files(set).map_err(descriptor_error)? {
            let name = <prost_types::FileDescriptorProto as prost::Message>::decode(file)
                .map_err(|e| Error::Descriptor {
                    message: format!("bytes that are no FileDescriptorProto: {e}"),
                })?
                .name()
                .to_string();
            compiler
                .encoded_descriptor(file)
                .map_err(descriptor_error)?;
            names.push(name);
        }
        self.compile_descriptors(&compiler, &names)
    }

    /// Check and write the files `names` that `compiler` holds as descriptors.
    fn compile_descriptors(
        &mut self,
        compiler: &bijoubuf_schema::Compiler,
        names: &[String],
    ) -> Result<Vec<PathBuf>, Error> {
        let compiled = compiler.compile(names).map_err(|d| Error::Schema {
            rendered: render(&d),
            diagnostics: Box::new(d),
        })?;
        let written = self.write(&compiled, names)?;
        if self.prints_directives() {
            // The set was read by the caller, so only the warnings are said here.
            for line in directives(&compiled, &[] as &[&Path]) {
                println!("{line}");
            }
        }
        Ok(written)
    }

    /// Generate and write the files for a compiled schema (of the files `inputs`), then
    /// remove what the previous build of `inputs` wrote into the output directory and
    /// this one did not.
    fn write(
        &self,
        compiled: &bijoubuf_schema::Compiled,
        inputs: &[String],
    ) -> Result<Vec<PathBuf>, Error> {
        let files = bijoubuf_codegen::generate(&compiled.schema, &self.options)?;
        if let Some(note) = services_note(&compiled.schema, &self.options) {
            // Never dropped silently: cargo shows this line as a build warning.
            if self.prints_directives() {
                println!("cargo:warning={note}");
            }
        }
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or(Error::NoOutDir)?,
        };
        let mut written = Vec::new();
        for f in &files {
            let path = out_dir.join(&f.name);
            write_if_changed(&path, f.content.as_bytes())?;
            written.push(path);
        }
        if let Some(name) = &self.include_file {
            let path = out_dir.join(name);
            write_if_changed(&path, bijoubuf_codegen::include_file(&files).as_bytes())?;
            written.push(path);
        }
        if let Some(path) = &self.descriptor_set {
            // Custom options included, as protoc writes them.
            let bytes = match self.descriptor_set_options {
                Some(flags) => compiled.schema.encode_descriptor_set(flags),
                None => compiled.schema.encode_file_descriptor_set(),
            };
            write_if_changed(path, &bytes)?;
            written.push(path.clone());
        }
        manifest::Manifest::new(&out_dir, inputs).update(&written)?;
        Ok(written)
    }
}

/// Cargo's build-script lines for a compilation: `cargo:rerun-if-changed=` for each file
/// read from an include directory (found as the compiler finds it: the first include
/// directory holding the import name; built-in files are not on disk) and for each
/// include directory, then `cargo:warning=` for each warning, one line each.
fn directives(compiled: &bijoubuf_schema::Compiled, includes: &[impl AsRef<Path>]) -> Vec<String> {
    let mut lines = Vec::new();
    for file in compiled.schema.files() {
        let on_disk = includes
            .iter()
            .map(|inc| inc.as_ref().join(&file.name))
            .find(|p| p.is_file());
        if let Some(path) = on_disk {
            lines.push(format!("cargo:rerun-if-changed={}", path.display()));
        }
    }
    for inc in includes {
        lines.push(format!("cargo:rerun-if-changed={}", inc.as_ref().display()));
    }
    for w in &compiled.warnings {
        // One diagnostic per line: cargo reads a directive up to the end of the line.
        lines.push(format!("cargo:warning={}", w.to_line().replace('\n', " ")));
    }
    if compiled.omitted > 0 {
        lines.push(format!(
            "cargo:warning=({} more warnings not shown: Config::max_diagnostics)",
            compiled.omitted
        ));
    }
    lines
}

/// What a build says about services it does not generate: `None` when there are none
/// or they are generated.
fn services_note(schema: &bijoubuf_schema::Schema, options: &Options) -> Option<String> {
    let names = bijoubuf_codegen::service_names(schema);
    if names.is_empty() || options.generates_services() {
        return None;
    }
    Some(format!(
        "bijoubuf-build: {} not generated; call `.services(true)` on the Config \
         (and depend on tonic and bijoubuf-tonic) to get servers and clients",
        bijoubuf_codegen::describe_services(&names)
    ))
}

/// [`Config::compile_protos`] with the default configuration.
///
/// # Errors
/// See [`Config::compile_protos`].
pub fn compile_protos(
    protos: &[impl AsRef<Path>],
    includes: &[impl AsRef<Path>],
) -> Result<Vec<PathBuf>, Error> {
    Config::new().compile_protos(protos, includes)
}

/// The import name of `proto`: its path relative to the first include directory that
/// holds it (a relative path that is already an import name is kept).
fn import_name(proto: &Path, includes: &[impl AsRef<Path>]) -> Result<String, Error> {
    for inc in includes {
        if let Ok(rest) = proto.strip_prefix(inc.as_ref()) {
            return Ok(slashes(rest));
        }
    }
    // A relative path may already be an import name: of a file under an include
    // directory, or of a built-in one (`google/protobuf/descriptor.proto`).
    if proto.is_relative()
        && (proto.starts_with("google/protobuf")
            || includes
                .iter()
                .any(|inc| inc.as_ref().join(proto).is_file()))
    {
        return Ok(slashes(proto));
    }
    Err(Error::NotInIncludes {
        path: proto.to_path_buf(),
    })
}

fn slashes(p: &Path) -> String {
    let parts: Vec<OsString> = p.iter().map(OsString::from).collect();
    parts
        .iter()
        .map(|s| s.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// Leave an unchanged file alone so cargo does not rebuild what includes it.
fn write_if_changed(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(());
    }
    std::fs::write(path, bytes).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// A descriptor that schema text cannot say, as [`Error::Descriptor`].
fn descriptor_error(e: bijoubuf_schema::UnsupportedDescriptor) -> Error {
    Error::Descriptor {
        message: e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema(text: &str) -> bijoubuf_schema::Schema {
        bijoubuf_schema::compile_sources(&[("svc.proto", text)])
            .unwrap()
            .schema
    }

    const SHOP: &str = r#"syntax = "proto3"; package shop;
        message Order { uint64 id = 1; }
        service Orders { rpc Get(Order) returns (Order); }
        service Audit { rpc Watch(Order) returns (stream Order); }"#;

    #[test]
    fn services_not_asked_for_are_named_in_a_note() {
        let note = services_note(&schema(SHOP), &Options::new()).unwrap();
        assert!(
            note.contains("services shop.Orders, shop.Audit not generated"),
            "{note}"
        );
        assert!(note.contains(".services(true)"), "{note}");
    }

    #[test]
    fn no_note_when_services_are_generated_or_absent() {
        let mut on = Options::new();
        on.services(true);
        assert_eq!(services_note(&schema(SHOP), &on), None);
        let plain = r#"syntax = "proto3"; package shop; message Order { uint64 id = 1; }"#;
        assert_eq!(services_note(&schema(plain), &Options::new()), None);
    }
}
