//! bijoubuf-codegen: a checked schema model to formatted Rust source.
//!
//! This crate sits between `bijoubuf-schema` (which parses and checks `.proto` files)
//! and `bijoubuf-build` (which runs in `build.rs` and writes files). It is pure: it reads
//! a [`Schema`], emits tokens with `quote!`, formats them with `prettyplease`, and
//! returns one source text per package. It never touches the file system and never
//! links the runtime: generated code names `::bijoubuf::…` paths.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let compiled = bijoubuf_schema::compile_sources(&[(
//!     "shop.proto",
//!     r#"syntax = "proto3"; package shop; message Order { uint64 id = 1; }"#,
//! )])?;
//! let files = bijoubuf_codegen::generate(&compiled.schema, &bijoubuf_codegen::Options::new())?;
//! assert_eq!(files[0].name, "shop.rs");
//! assert!(files[0].content.contains("pub struct Order"));
//! # Ok(()) }
//! ```
//!
//! # Type mapping
//!
//! | Schema | Rust field type |
//! |---|---|
//! | `message M` | `pub struct M` with `pub` fields; derives `Clone, Debug, Default, PartialEq`, plus `Eq, Hash` when no `float`/`double` is reachable from it |
//! | nested `message`/`enum`, oneofs of `M` | items in `pub mod m` (snake_case) next to `M` |
//! | `double`, `float` | `f64`, `f32` |
//! | `int32`, `sint32`, `sfixed32` | `i32` |
//! | `int64`, `sint64`, `sfixed64` | `i64` |
//! | `uint32`, `fixed32` / `uint64`, `fixed64` | `u32` / `u64` |
//! | `bool` | `bool` |
//! | `string` | `String` |
//! | `bytes` | `Vec<u8>`; `bytes::Bytes` at paths named by `bytes` (needs the runtime's `bytes` feature) |
//! | `enum E` field | `i32` (the number; see below) with a typed getter returning `Option<E>` |
//! | implicit presence (proto3 singular scalar) | `T`, the default is not written |
//! | explicit presence (`optional`, proto2 `optional`) | `Option<T>` |
//! | proto2 `required` | `T`, always written; absent on decode is `missing-required-field` |
//! | message-typed field | `Option<M>`; `Option<Box<M>>` when `M` leads back to the owner through singular message fields (or `boxed` says so) |
//! | `repeated T` | `Vec<T>` |
//! | `map<K, V>` | `BTreeMap<K, V>` (its order is the wire order, SPEC §6.4) |
//! | `oneof o` | `Option<m::O>`, an enum with one variant per member |
//! | unknown fields (types named by `preserve_unknown_fields`) | `unknown_fields: bijoubuf::UnknownFields` and `KEEPS_UNKNOWN_FIELDS = true`; other types keep the default, `false`, and refuse unknown records even under `Preserve` |
//! | well-known types (`google.protobuf.Timestamp`, …) | `::bijoubuf::wkt::Timestamp`, … (the runtime ships them; `extern_path` overrides) |
//! | `String`, `Vec`, `Box`, `BTreeMap` | spelled `::std::…`, or `::alloc::…` with `no_std` |
//! | messages named by `borrowed`, and every message they reach | also `pub struct MRef<'a>` next to `M`: see below |
//!
//! # Borrowed twins
//!
//! For the messages the `borrowed` option selects (and every message they reach through
//! fields, so a twin's nested messages are twins too), a second type `MRef<'a>` sits next
//! to `M` with the same members, except:
//!
//! | Schema | Rust field type in `MRef<'a>` |
//! |---|---|
//! | `string` (singular, repeated, map key or value, oneof member) | `&'a str` |
//! | `bytes` (also where `bytes` asks for `bytes::Bytes`) | `&'a [u8]` |
//! | message-typed field | the twin: `Option<NRef<'a>>`, `Vec<NRef<'a>>`, … (boxed where `M` boxes it) |
//! | `repeated` `fixed32`, `sfixed32`, `fixed64`, `sfixed64`, `float`, `double` | `bijoubuf::FixedRun<'a, T>`: a view of the run's bytes, elements converted when read (`get`, `iter`, `to_vec`) |
//! | `map<K, V>` | `bijoubuf::SortedMap<K', V'>` of the twin types: the entries in one vector in ascending key order, looked up by binary search |
//! | message mapped to an external path (well-known types, `extern_path`) | the owned type, unchanged |
//! | `oneof o` | `Option<m::ORef<'a>>`; the owned `m::O` when no member borrows |
//! | unknown fields | `unknown_fields: bijoubuf::UnknownFields` as in `M` (copied out of the input, so only input that has unknown records pays) |
//! | no field borrows | a hidden `_borrow: PhantomData<&'a ()>` member (use `..MRef::default()`) |
//!
//! `MRef<'a>` implements `bijoubuf::MessageRef<'a>`: `MRef::decode(&bytes)` is the strict
//! decoder of `M::decode`, with every check and the same error codes, offsets and paths,
//! and a twin encodes to exactly the bytes of its owned value. `M::borrowed(&self)`,
//! `MRef::to_owned(&self)` and the `From` impls convert. A twin without repeated or map
//! fields (itself and the twins it holds) decodes without allocating, and fixed-width runs
//! do not count: they are views of the input. Each other repeated field allocates one
//! vector (a packed varint run whose values average more than two bytes
//! reallocates once to give back its excess), and so does each map: the wire holds its
//! entries in key order, which the decoder checks as it appends them, so no tree is built.
//! (A vector is first reserved for at most 16 bytes per input byte; elements much wider
//! in memory than on the wire, such as empty nested messages, grow it as they arrive.) Twins
//! do not derive serde or take `type_attribute`/`field_attribute` attributes. Twins are
//! named last in their scope, so one whose name is taken by a schema type gets a
//! trailing underscore.
//!
//! # Which files
//!
//! The files the schema was asked to compile, and every imported file that defines a
//! type they use (a field's message or enum, an rpc's request or response when services
//! are generated), then the files those use, and so on: a field of type `u.B` from
//! `b.proto` generates `u.rs` even when only `a.proto` was named, as prost-build and the
//! TypeScript and Go backends do, so generated paths never point at a package nobody
//! generated. Types mapped elsewhere (the well-known types to `::bijoubuf::wkt`, an
//! `extern_path`) pull in nothing, so `descriptor.proto` imported for custom options
//! generates nothing; `google.protobuf.FileDescriptorProto` as a field type generates
//! `google.protobuf.rs`.
//!
//! Not generated: extensions, groups; services only when asked for (see below). With `serde`, messages derive
//! `Serialize`/`Deserialize` with proto3 JSON *field names* (`json_name`), `default` for
//! absent fields and oneof members flattened into the message; values keep serde's
//! ordinary forms (enums as numbers, 64-bit integers as numbers, bytes as arrays), so it
//! is not full proto3 JSON. Every type reachable from a serde message needs `serde` too.
//!
//! # Services
//!
//! With [`Options::services`], every `service` of a requested file becomes tonic's
//! shape, through `tonic-build`'s codec-agnostic generator: a module `foo_server` with a
//! trait `Foo` (one `async fn` per rpc; unary, server-, client- and bidi-streaming) and
//! a `FooServer<T>` to serve it, and a module `foo_client` with `FooClient<T>` and, as
//! `tonic-build` generates by default, `FooClient::connect(addr)` (which needs tonic's
//! `transport` feature; [`Options::service_transport`]`(false)` leaves it out). Method
//! paths are `/package.Service/Method` from the schema; the codec is
//! `::bijoubuf_tonic::StrictCodec` unless [`Options::codec_path`] names another, so the
//! including crate depends on `tonic` and `bijoubuf-tonic`. The schema's comments become
//! the docs; `option deprecated = true` on an rpc becomes `#[deprecated]` (see
//! "Deprecation" for deprecated request and response types). An rpc whose
//! Rust name is one of the client's own methods (`connect`, `new`, `with_origin`, ...)
//! or another rpc's takes a trailing `_` (`rpc Connect` is `connect_`), and a message
//! module that would be `foo_server` or `foo_client` is `foo_server_`. A sub-package's
//! module cannot move (its path is its name), so beside package `a.foo_server` the
//! service `a.Foo` is `Foo_` (modules `foo__server`, `foo__client`), as is a service
//! named like what tonic's server module names without a path (`Body`, `Arc`, `T`, …).
//! Without the option, services are left out and [`service_names`] lists them for the
//! caller to report (`bijoubuf-build` prints a `cargo:warning`, the CLI a note).
//!
//! # Enums
//!
//! Enum fields hold the number as `i32`, and each schema enum becomes a `#[repr(i32)]`
//! Rust enum with `TryFrom<i32>` (the unnamed number is the error), `From<E> for i32`,
//! `as_str_name` and `from_str_name`. Enums are open in both syntaxes (SPEC §3.6): a
//! decoder must keep a number the schema does not name, and re-encoding must give it
//! back. An `i32` field does that with no extra state, keeps the struct `Copy`-friendly
//! and matches the runtime's `Enum` codec; the typed getter (`msg.color()`, returning
//! `None` for an unnamed number) gives the checked view where it is wanted. An
//! `Unknown(i32)` variant was the alternative; it makes every `match` carry a case that
//! most schemas never produce and loses `#[repr(i32)]` casts.
//!
//! # Deprecation
//!
//! `deprecated = true` on a field, a message, an enum or an enum value becomes
//! `#[deprecated]` on its Rust item: the struct member, the message's struct and its
//! borrowed twin, the enum, the variant (or the associated constant of an alias), so
//! rustc warns in a user's code that names it, as the Go (`Deprecated:`) and TypeScript
//! (`@deprecated`) generators' output warns there. Nested types of a deprecated message
//! are not deprecated themselves. Generated code names these items too (its impls, a
//! parent's members, oneof enums, typed getters and enum defaults, the service modules
//! of rpcs that take or give a deprecated message); each such item carries
//! `#[allow(deprecated)]`, so generated code compiles without warnings whatever is
//! deprecated. A typed getter returning a deprecated enum is not itself deprecated:
//! only naming the enum warns.
//!
//! # Decoders: the walk, dispatch and tables
//!
//! Each message's strict decoder (`M::decode`, and the twin's) has one of three shapes,
//! with the same checks, errors, byte offsets and paths:
//!
//! - the *walk* asks the reader for every declared field once, in number order, each read
//!   inlined: small messages whose fields are mostly present;
//! - *dispatch* starts from the default and loops over the records the input holds: the
//!   record's field number picks the field in a `match` (a jump table), whose arm hands
//!   the member to a read the runtime shares between every field of that shape and codec.
//!   Absent fields cost nothing and the decoder stays small (GoogleMessage1's 2.7 KB of
//!   machine code against the walk's 29 KB);
//! - a *table* is no loop of its own: the message's fields become a static table (number,
//!   name, offset in the struct, the shared read of its shape and codec), written by the
//!   runtime's `decode_table!` macro, and one loop in the runtime decodes every table
//!   message of a program. Oneof members go through a small generated arm. Generated
//!   code holds no `unsafe` (the macro writes the offsets and checks each member's type),
//!   so a crate of generated code may `#![forbid(unsafe_code)]`.
//!
//! Owned types of messages with 32 declared fields or more dispatch; the others, and
//! every borrowed twin (whose reads are too cheap for the call: measured level or
//! slower), walk. Tables are opt-in (benches/RESULTS.md, "Table decoders generated").
//! [`Options::decode_dispatch`], [`Options::decode_table`] and [`Options::decode_walk`]
//! choose per message, for the owned type and its twin.
//! `decode_into` is the walk in all three (it reuses what the value holds, field by
//! field).
//!
//! # Names
//!
//! Fields and modules are `snake_case`, types and variants `UpperCamelCase` (enum
//! variants lose the enum's `SHOUTY_NAME_` prefix when every value has it). Keywords
//! become raw identifiers (`r#type`); `self`, `Self`, `super` and `crate` cannot be
//! raw and get a trailing underscore. Two names that meet in one Rust namespace (a
//! message `Kind` and a oneof `kind`, a field called `unknown_fields`, `fooBar` and
//! `foo_bar`) are kept apart by trailing underscores on the later one. Error paths
//! and `Message::NAME` keep the schema's names, and so do `Message::FULL_NAME`
//! (`shop.v1.Order.Line`: package, enclosing messages, name) and `Message::PACKAGE`,
//! emitted on every message (`type_url()` and the borrowed twins' names derive from
//! them).
//!
//! # Paths in generated code
//!
//! Generated code never relies on the prelude or on a name the schema could shadow: std
//! and runtime items are spelled from the crate root (`::core::option::Option`,
//! `::bijoubuf::UnknownFields`). The runtime's hidden building blocks
//! (`bijoubuf::__private`: the codecs, the reader, the passes, and `Ok`, `Some`,
//! `Default`, … for the bodies) are named through an alias, `__bb`, which each module
//! that uses it declares privately (`use ::bijoubuf::__private as __bb;` at the top of
//! the package's file and of each module of nested types), so a file works wherever it
//! is included, next to other packages' files. No schema name becomes `__bb`: names
//! are case-converted, which drops leading underscores.

mod accessors;
mod borrowed;
mod context;
mod dispatch;
mod emit;
mod enums;
mod message;
mod names;
mod options;
mod paths;
mod service;
mod table;

use std::collections::BTreeMap;
use std::fmt;

use bijoubuf_schema::{EnumDef, FileDef, MessageDef, Schema};
use proc_macro2::TokenStream;
use quote::quote;

pub use options::Options;

/// One generated source file: every type of one package's generated files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedFile {
    /// The proto package (empty for none).
    pub package: String,
    /// The file name: `<package>.rs`, or `_.rs` for the empty package.
    pub name: String,
    /// Formatted Rust source.
    pub content: String,
}

/// Why code could not be generated.
///
/// Each variant has a stable kebab-case [`code`](Self::code): `invalid-attribute`,
/// `invalid-extern-path`, `unsupported`, `unknown-path` and `internal`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A configured attribute is not valid Rust attribute syntax.
    Attribute {
        /// The path it was configured for.
        path: String,
        /// The attribute text.
        attribute: String,
        /// What the parser said.
        message: String,
    },
    /// An `extern_path` entry cannot be used.
    ExternPath {
        /// The proto path.
        proto_path: String,
        /// The Rust path.
        rust_path: String,
        /// Why.
        message: String,
    },
    /// A configuration the generator does not support (yet) for this element.
    Unsupported {
        /// The element's full name.
        path: String,
        /// Why.
        message: String,
    },
    /// A path given to an option names nothing in the schema.
    UnknownPath {
        /// The option (`borrowed`, `type_attribute`, …).
        option: &'static str,
        /// The path as given.
        path: String,
        /// A close name in the schema, spelled as the path is, if exactly one is close.
        suggestion: Option<String>,
    },
    /// The emitted tokens did not parse as a Rust file (a generator bug).
    Internal {
        /// The package being generated.
        package: String,
        /// What the parser said.
        message: String,
    },
}

impl Error {
    /// The stable kebab-case code of the refusal (see the type's docs): what a program
    /// matches on instead of the message.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Attribute { .. } => "invalid-attribute",
            Error::ExternPath { .. } => "invalid-extern-path",
            Error::Unsupported { .. } => "unsupported",
            Error::UnknownPath { .. } => "unknown-path",
            Error::Internal { .. } => "internal",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Attribute {
                path,
                attribute,
                message,
            } => write!(
                f,
                "attribute `{attribute}` for `{path}` does not parse: {message}"
            ),
            Error::ExternPath {
                proto_path,
                rust_path,
                message,
            } => write!(f, "extern path `{proto_path}` = `{rust_path}`: {message}"),
            Error::Unsupported { path, message } => write!(f, "`{path}`: {message}"),
            Error::UnknownPath {
                option,
                path,
                suggestion,
            } => {
                write!(
                    f,
                    "{option}: `{path}` names no package, type or field of the schema"
                )?;
                match suggestion {
                    Some(s) => write!(f, " (did you mean `{s}`?)"),
                    None => Ok(()),
                }
            }
            Error::Internal { package, message } => {
                write!(
                    f,
                    "generated code for package `{package}` does not parse: {message}"
                )
            }
        }
    }
}

impl std::error::Error for Error {}

/// [`Error::Unsupported`] for the first message of `files` (nested ones included) with
/// `option message_set_wire_format = true`: protobuf's MessageSet writes its extensions
/// in a wire form bijoubuf's format does not have (SPEC §4: no groups), so no code is
/// generated for one. The schema compiler accepts it, as protoc does, for `check` and
/// descriptor sets. The TypeScript and Go generators cannot fail and do not check: the
/// command line (`bijoubuf compile --ts-out`, `--go-out`) calls this on every file of the
/// schema, imports included, before it writes anything; other callers of those
/// generators should too.
///
/// # Errors
/// The first such message, by full name.
pub fn refuse_message_sets<'a>(files: impl IntoIterator<Item = &'a FileDef>) -> Result<(), Error> {
    fn walk(messages: &[MessageDef]) -> Option<&MessageDef> {
        messages.iter().find_map(|m| {
            if m.message_set_wire_format() {
                Some(m)
            } else {
                walk(&m.messages)
            }
        })
    }
    match files.into_iter().find_map(|f| walk(&f.messages)) {
        Some(m) => Err(Error::Unsupported {
            path: m.full_name.clone(),
            message: "`option message_set_wire_format = true` (protobuf's MessageSet) is not \
                      supported by bijoubuf v1: its extensions have no wire form in the format"
                .to_string(),
        }),
        None => Ok(()),
    }
}

/// One package's top-level messages, enums and source file names.
type Package<'s> = (Vec<&'s MessageDef>, Vec<&'s EnumDef>, Vec<&'s str>);

/// Generate Rust for every file the schema was asked to compile and every imported file
/// whose types they use, directly or through other files (see "Which files" in the
/// crate docs), one [`GeneratedFile`] per package, in package order.
///
/// # Errors
/// A configured path that names nothing in the schema ([`Error::UnknownPath`]), an
/// attribute or extern path that does not parse, or an unsupported option.
pub fn generate(schema: &Schema, options: &Options) -> Result<Vec<GeneratedFile>, Error> {
    paths::check(schema, options)?;
    let ctx = context::Context::new(schema, options)?;
    let files = emitted_files(schema, &ctx);
    refuse_message_sets(files.iter().copied())?;
    let mut packages: BTreeMap<&str, Package<'_>> = BTreeMap::new();
    for f in files {
        let entry = packages.entry(&f.package).or_default();
        entry.0.extend(f.messages.iter());
        entry.1.extend(f.enums.iter());
        entry.2.push(&f.name);
    }
    let mut out = Vec::new();
    for (package, (messages, enums, sources)) in packages {
        let e = emit::Emitter::new(&ctx, package);
        let mut tokens = e.items(&messages, &enums)?;
        if options.services {
            tokens.extend(service::services(
                &ctx,
                package,
                &services_of(schema, package),
            ));
        }
        if tokens.is_empty() {
            continue;
        }
        let tokens = emit::hidden_alias(&e.rt(), tokens);
        let content = format(package, tokens, &sources)?;
        out.push(GeneratedFile {
            package: package.to_string(),
            name: file_name(package),
            content,
        });
    }
    Ok(out)
}

/// The files [`generate`] writes code for: those the schema was asked to compile, and each
/// imported file that defines a type one of them uses (a field's message or enum, a
/// service's request or response with [`Options::services`]), followed through the files
/// added, as prost-build and the TypeScript and Go generators also generate imports.
/// A type mapped elsewhere (the runtime's well-known types, an `extern_path`) adds
/// nothing; nor does a file imported only for its options or extensions. In schema
/// order.
fn emitted_files<'s>(schema: &'s Schema, ctx: &context::Context<'_>) -> Vec<&'s FileDef> {
    let files = schema.files();
    // Each file's messages, nested ones included, and the file defining each type.
    let messages: Vec<Vec<&MessageDef>> = files
        .iter()
        .map(|f| {
            let mut all = Vec::new();
            context::collect(&f.messages, &mut all);
            all
        })
        .collect();
    let mut owner: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (i, f) in files.iter().enumerate() {
        for m in &messages[i] {
            owner.insert(&m.full_name, i);
            owner.extend(m.enums.iter().map(|e| (e.full_name.as_str(), i)));
        }
        owner.extend(f.enums.iter().map(|e| (e.full_name.as_str(), i)));
    }
    let mut keep: Vec<bool> = files.iter().map(|f| f.requested).collect();
    let mut todo: Vec<usize> = (0..files.len()).filter(|&i| keep[i]).collect();
    while let Some(i) = todo.pop() {
        let fields = messages[i]
            .iter()
            .flat_map(|m| &m.fields)
            .filter_map(|f| match &f.ty {
                bijoubuf_schema::FieldType::Message(t) | bijoubuf_schema::FieldType::Enum(t) => {
                    Some(t.as_str())
                }
                bijoubuf_schema::FieldType::Scalar(_) => None,
            });
        let rpcs = files[i]
            .services
            .iter()
            .filter(|_| ctx.opts.services && files[i].requested)
            .flat_map(|s| &s.methods)
            .flat_map(|m| [m.input_type.as_str(), m.output_type.as_str()]);
        for t in fields.chain(rpcs) {
            let mapped = ctx.loc(t).is_some_and(|l| l.extern_path.is_some());
            if let Some(&j) = owner.get(t)
                && !mapped
                && !keep[j]
            {
                keep[j] = true;
                todo.push(j);
            }
        }
    }
    files
        .iter()
        .zip(keep)
        .filter_map(|(f, k)| k.then_some(f))
        .collect()
}

/// The services of `package` in the files the schema was asked to compile.
fn services_of<'s>(schema: &'s Schema, package: &str) -> Vec<&'s bijoubuf_schema::ServiceDef> {
    schema
        .files()
        .iter()
        .filter(|f| f.requested && f.package == package)
        .flat_map(|f| &f.services)
        .collect()
}

/// The full names of the services in the files the schema was asked to compile: what
/// [`generate`] drops unless [`Options::services`] is on (callers say so to the user).
pub fn service_names(schema: &Schema) -> Vec<String> {
    schema
        .files()
        .iter()
        .filter(|f| f.requested)
        .flat_map(|f| f.services.iter().map(|s| s.full_name.clone()))
        .collect()
}

/// [`service_names`] for a message to a person: "service a.S", "services a.S, b.T", or,
/// past five, "7 services (a.S1, a.S2, a.S3, a.S4, a.S5 and 2 more)" (googleapis has
/// thousands, which named in full would bury the rest of a build's output).
pub fn describe_services(names: &[String]) -> String {
    const NAMED: usize = 5;
    let plural = if names.len() == 1 { "" } else { "s" };
    if names.len() <= NAMED {
        return format!("service{plural} {}", names.join(", "));
    }
    format!(
        "{} services ({} and {} more)",
        names.len(),
        names[..NAMED].join(", "),
        names.len() - NAMED
    )
}

/// The well-known types this project ships in the runtime (`bijoubuf::wkt`).
pub const WELL_KNOWN_FILES: &[&str] = &[
    "google/protobuf/any.proto",
    "google/protobuf/api.proto",
    "google/protobuf/duration.proto",
    "google/protobuf/empty.proto",
    "google/protobuf/field_mask.proto",
    "google/protobuf/source_context.proto",
    "google/protobuf/struct.proto",
    "google/protobuf/timestamp.proto",
    "google/protobuf/type.proto",
    "google/protobuf/wrappers.proto",
];

/// The source of the runtime's `wkt` module: [`WELL_KNOWN_FILES`] generated for use
/// inside the runtime crate (`crate::` paths, `alloc` collections).
///
/// # Errors
/// Only on a generator bug; the built-in schemas always compile.
pub fn well_known_types() -> Result<GeneratedFile, Error> {
    let compiled = bijoubuf_schema::Compiler::new()
        .compile(WELL_KNOWN_FILES)
        .map_err(|d| Error::Internal {
            package: "google.protobuf".into(),
            message: d.to_string(),
        })?;
    let mut opts = Options::new();
    opts.inside_runtime();
    let mut files = generate(&compiled.schema, &opts)?;
    files.pop().ok_or_else(|| Error::Internal {
        package: "google.protobuf".into(),
        message: "nothing generated".into(),
    })
}

/// The file name generated code for `package` is written to: `<package>.rs`, `_.rs`
/// for the empty package.
pub fn file_name(package: &str) -> String {
    if package.is_empty() {
        "_.rs".to_string()
    } else {
        format!("{package}.rs")
    }
}

fn format(package: &str, tokens: TokenStream, sources: &[&str]) -> Result<String, Error> {
    let file: syn::File = syn::parse2(tokens.clone()).map_err(|e| Error::Internal {
        package: package.to_string(),
        message: format!("{e} in {tokens}"),
    })?;
    let mut text = format!(
        "// @generated by bijoubuf-codegen from {}. Do not edit.\n\n",
        sources.join(", ")
    );
    text.push_str(&prettyplease::unparse(&file));
    Ok(text)
}

/// A module tree that includes every generated file: package `a.b` becomes
/// `pub mod a { pub mod b { include!("a.b.rs"); } }`, the file names relative to the
/// including file (so write it next to them).
pub fn include_file(files: &[GeneratedFile]) -> String {
    #[derive(Default)]
    struct Node {
        file: Option<String>,
        children: BTreeMap<String, Node>,
    }
    fn emit(node: &Node) -> TokenStream {
        let include = node.file.as_ref().map(|f| quote!(include!(#f);));
        let children = node.children.iter().map(|(name, child)| {
            let id = names::ident(name);
            let body = emit(child);
            let doc = format!(" Package segment `{name}`.");
            quote!(#[doc = #doc] pub mod #id { #body })
        });
        quote!(#include #(#children)*)
    }
    let mut root = Node::default();
    for f in files {
        let mut node = &mut root;
        for seg in context::package_segments(&f.package) {
            node = node.children.entry(seg).or_default();
        }
        node.file = Some(f.name.clone());
    }
    let tokens = emit(&root);
    let text = match syn::parse2::<syn::File>(tokens) {
        Ok(file) => prettyplease::unparse(&file),
        Err(_) => String::new(),
    };
    format!("// @generated by bijoubuf-codegen. Do not edit.\n\n{text}")
}
