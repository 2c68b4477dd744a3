//! bijoubuf-codegen-go: a checked schema model to Go source.
//!
//! The third backend next to `bijoubuf-codegen` (Rust) and `bijoubuf-codegen-ts`: it reads
//! the same checked [`Schema`] from `bijoubuf-schema` and returns one Go file per Go
//! package (by default one per proto package; see "Layout"), for the Go module in `go/` of the bijoubuf repository (import path
//! `github.com/bijoubuf/bijoubuf/go`). It is pure: no file system, no formatting tool; the
//! output is already as `gofmt` writes it, and `go vet` finds nothing in it.
//!
//! Every message gets its own straight-line encoder and decoder over the runtime's
//! `bijoubuf.Reader` and `bijoubuf.BackWriter`: no reflection, nothing allocated per field
//! beyond what the value holds, one exact-size buffer per encode (a size pass checks and
//! totals, the write pass fills the buffer from its end, so that each nested message's
//! length is known when its prefix is written). The decoder
//! is one loop over a message's records in byte order with a `switch` on the field number
//! (delta keys make the numbers ascend, so each case runs at most once), the common cases
//! of keys and values read by the reader's inlined halves (`NextFast`, `Int32Fast`,
//! `EnterFast`, …): every check of SPEC §10 happens in byte order and errors carry the
//! code, byte offset and path the Rust and TypeScript implementations report. A large
//! message's decode loop is split by field number into functions of a few dozen fields
//! each, which the next continues where the last stopped, and so are its encode passes:
//! Go inlines almost nothing into a function past its size limit.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let compiled = bijoubuf_schema::compile_sources(&[(
//!     "shop.proto",
//!     r#"syntax = "proto3"; package shop; message Order { uint64 id = 1; }"#,
//! )])?;
//! let files = bijoubuf_codegen_go::generate(
//!     &compiled.schema,
//!     bijoubuf_codegen_go::Options::new().module("example.com/gen"),
//! );
//! assert_eq!(files[0].name, "shop/shop.bb.go");
//! assert!(files[0].content.contains("type Order struct"));
//! # Ok(()) }
//! ```
//!
//! # Layout
//!
//! Proto package `a.b.c` becomes Go package `c` in directory `a/b/c` of the output, with
//! import path `<module>/a/b/c` ([`Options::module`]; [`Options::package_dir`] puts a
//! package elsewhere). The empty package goes to the output's root. A last element that is
//! a Go keyword or predeclared identifier gets a `pb` suffix (`a.error` is package
//! `errorpb` in `a/error/errorpb.bb.go`), so that importing it hides nothing; an import's
//! alias also steps aside from the names generated code binds (`m`, `v`, `err`, …). Package
//! `google.protobuf` is not generated: its types are those of the module's `wkt` package
//! (`github.com/bijoubuf/bijoubuf/go/wkt`, see [`Options::wkt_import`]), which holds every
//! type of the built-in `google/protobuf/*.proto` files, `descriptor.proto`'s included,
//! unless [`Options::well_known_types`] asks for them.
//!
//! [`Options::go_package_layout`] places files by their `option go_package` instead, as
//! protoc-gen-go does with `module=`: `PATH` less the module's prefix (a `PATH` outside
//! the module nested under it whole), the package named `NAME` of `"PATH;NAME"` or
//! `PATH`'s last element. Then a Go package holds the files that name its `PATH`,
//! whatever their proto packages, and one generated file is written per Go package.
//!
//! # Type mapping
//!
//! | Schema | Go |
//! |---|---|
//! | `message M` | `type M struct`, methods on `*M`: `Marshal`, `MarshalOptions`, `Unmarshal` (strict), `UnmarshalOptions`, `FullName`, `BijoubufDesc`, a getter per field (`GetX()`), and the `Bijoubuf*` methods generated code calls |
//! | nested `Outer.Inner` | `Outer_Inner` |
//! | `double` / `float` | `float64` / `float32` |
//! | `int32`, `sint32`, `sfixed32` / `uint32`, `fixed32` | `int32` / `uint32` |
//! | `int64`, `sint64`, `sfixed64` / `uint64`, `fixed64` | `int64` / `uint64` |
//! | `bool` / `string` / `bytes` | `bool` / `string` / `[]byte` |
//! | `enum E` | `type E int32` (open, SPEC §3.6), constants `E_NAME`, `String()`, `EnumDesc()` |
//! | implicit presence | a value (the default is not written) |
//! | explicit presence | a pointer (`*int32`, `*string`, `*E`); `bytes` stays `[]byte`, nil is absent |
//! | message field | `*M` (nil is absent) |
//! | proto2 `required` | a pointer; nil is refused by the encoder, absence by the decoder |
//! | `repeated T` | `[]T` (`[]*M`) |
//! | `map<K, V>` | `map[K]V`, encoded in the key order of SPEC §6.4 |
//! | `oneof o` | an interface field `O isM_O`; each member a wrapper `M_Name struct{ Name T }` |
//! | unknown fields | kept by a preserving decode in the message (`BijoubufUnknown()`; behind a pointer, 8 bytes when none are kept), re-emitted in number order |
//!
//! A struct's fields are declared widest alignment first (8-byte types, then 4-byte
//! ones, then `bool`), in declaration order within each, so that no padding lies between
//! them: a decode allocates these structs, and the bytes allocated are what a garbage
//! collector's work follows. So the order of a struct's fields is not the schema's;
//! Go code addresses them by name.
//!
//! Field names are the proto names in Go's camel case (`home_address` → `HomeAddress`);
//! a name that collides with a method or another field gets a trailing `_`, as a type
//! name that collides with another type or constant does. Error paths keep the schema's
//! names. Not generated: extensions.
//!
//! Every field has a getter as protobuf-go's do, `GetX()` for field `X` (`GetO()` for a
//! oneof's interface, `GetName()` for each member), safe on a nil message so that
//! `m.GetA().GetB()` needs no checks: the value; for an unset field of explicit presence
//! (and a oneof member not held) the schema's proto2 `[default = …]`, else a closed
//! enum's first value, else the type's zero. A getter whose name a field or method
//! already has gets a trailing `_` (`GetX_` for `x` beside a field `get_x`).
//!
//! # Services
//!
//! With [`Options::services`] (off by default), each Go package that declares services
//! gets a second file, `<package>_grpc.bb.go`, in the shape protoc-gen-go-grpc gives
//! grpc-go users: per service `S`, a client interface `SClient` and `NewSClient(cc
//! grpc.ClientConnInterface)`, a server interface `SServer`, `UnimplementedSServer`
//! (embedded by value) and `UnsafeSServer`, `RegisterSServer(s grpc.ServiceRegistrar,
//! srv SServer)`, the `grpc.ServiceDesc` `S_ServiceDesc` and the method paths
//! `S_M_FullMethodName` (`/<package>.<Service>/<Method>`); streaming methods use
//! grpc-go's generic stream interfaces (`grpc.ServerStreamingClient[T]`, …). The file
//! imports `google.golang.org/grpc` and the codec package [`GRPC_IMPORT`] (a module of
//! its own), so the messages' file compiles without them. The generated handlers and
//! clients receive each payload undecoded and decode it themselves: a request without
//! the marker or refused by the strict decoder ends the call with `INVALID_ARGUMENT` and
//! the `bijoubuf-error-*` trailers before the method runs (`conformance/RPC.md`), and a
//! refused response is a `*bijoubufgrpc.RefusalError` to the caller. A server passes
//! `bijoubufgrpc.ServerOption` to take tonic's calls (content type `application/grpc`).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;

mod gofmt;
mod services;

use bijoubuf_schema::{
    Cardinality, Comments, EnumDef, FieldDef, FieldType, MessageDef, Presence, ScalarType, Schema,
};

/// The runtime package's import path.
pub const RUNTIME_IMPORT: &str = "github.com/bijoubuf/bijoubuf/go/bijoubuf";

/// The import path of the codec package generated services call (its own Go module,
/// so that the runtime's has no dependencies).
pub const GRPC_IMPORT: &str = "github.com/bijoubuf/bijoubuf/go/grpc";

/// The import path of the module's well-known types.
pub const WKT_IMPORT: &str = "github.com/bijoubuf/bijoubuf/go/wkt";

const WKT_PACKAGE: &str = "google.protobuf";

/// Generator settings.
#[derive(Clone, Debug)]
pub struct Options {
    module: String,
    wkt_import: String,
    well_known_types: bool,
    services: bool,
    /// Large messages' decoders and encode passes in parts (see [`decode_parts`] and
    /// [`EncodeCuts`]); off only in tests, which compare the two shapes.
    in_parts: bool,
    /// Wide messages' scalar fields read through a table (see [`FIELD_TABLE_MIN`]); off
    /// only in tests, which compare the two.
    field_tables: bool,
    dirs: BTreeMap<String, String>,
    /// File name → (directory, Go package name), from its `option go_package`.
    files: BTreeMap<String, (String, String)>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            module: "gen".to_string(),
            wkt_import: WKT_IMPORT.to_string(),
            well_known_types: false,
            services: false,
            in_parts: true,
            field_tables: true,
            dirs: BTreeMap::new(),
            files: BTreeMap::new(),
        }
    }
}

impl Options {
    /// Defaults: the output directory's import path is `gen`.
    pub fn new() -> Self {
        Self::default()
    }

    /// The import path of the output directory: package `a.b` is imported as
    /// `<module>/a/b`.
    pub fn module(&mut self, import_path: impl Into<String>) -> &mut Self {
        self.module = import_path.into().trim_end_matches('/').to_string();
        self
    }

    /// Put proto package `package` in directory `dir` of the output (relative, `/`
    /// separated; `""` is the output's root) instead of its dotted path.
    pub fn package_dir(&mut self, package: impl Into<String>, dir: impl Into<String>) -> &mut Self {
        self.dirs
            .insert(package.into(), dir.into().trim_matches('/').to_string());
        self
    }

    /// Generate package `google.protobuf` too, like any other (the module's own `wkt`
    /// package is made this way); by default its types are imported from
    /// [`Options::wkt_import`].
    pub fn well_known_types(&mut self, generate: bool) -> &mut Self {
        self.well_known_types = generate;
        self
    }

    /// Whether a large message's decoder and encode passes are written in parts (the
    /// default) or, however large, as one function each: for tests, which check that the
    /// parts do what the one function does.
    #[doc(hidden)]
    pub fn passes_in_parts(&mut self, yes: bool) -> &mut Self {
        self.in_parts = yes;
        self
    }

    /// Whether a wide message's scalar fields are read through a field table (the
    /// default; see [`FIELD_TABLE_MIN`]) or each by a case of the decoder's switch: for
    /// tests, which check that the table reads what the cases read.
    #[doc(hidden)]
    pub fn field_tables(&mut self, yes: bool) -> &mut Self {
        self.field_tables = yes;
        self
    }

    /// Also generate the schema's services for grpc-go (off by default): per Go package
    /// that declares services, a second file `<package>_grpc.bb.go` beside the messages'
    /// (see "Services"), which imports `google.golang.org/grpc` and the codec package
    /// [`GRPC_IMPORT`]; the messages' file imports neither.
    pub fn services(&mut self, generate: bool) -> &mut Self {
        self.services = generate;
        self
    }

    /// Where `google.protobuf`'s types are imported from when they are not generated.
    pub fn wkt_import(&mut self, import_path: impl Into<String>) -> &mut Self {
        self.wkt_import = import_path.into();
        self
    }

    fn generated(&self, package: &str) -> bool {
        package != WKT_PACKAGE || self.well_known_types
    }

    /// Lay the schema's files out by their `option go_package`, as protoc-gen-go does
    /// with `module=<module>`: a file that says `go_package = "PATH"` (or
    /// `"PATH;NAME"`) goes in the Go package imported as `PATH`, written to directory
    /// `PATH` less the module's prefix ([`Options::module`]); a `PATH` outside the module
    /// is written under it whole (`<module>/PATH`), so that every generated package lives
    /// in the output. The Go package is named `NAME`, else `PATH`'s last element. Files
    /// naming the same `PATH` share one Go package (and one generated file), whatever
    /// their proto packages; the files of one proto package may go to several. A file
    /// without the option keeps its package's [`Options::package_dir`] or dotted layout,
    /// and `google.protobuf`'s files are never moved. Call it after [`Options::module`]
    /// and [`Options::package_dir`].
    ///
    /// Refused ([`LayoutError`]): a `PATH` that is not a relative slash-separated path
    /// (empty, absolute, with an empty, `.` or `..` element, a backslash or white space),
    /// and one Go package given two names.
    pub fn go_package_layout(&mut self, schema: &Schema) -> Result<&mut Self, LayoutError> {
        for file in schema.files() {
            if file.package == WKT_PACKAGE {
                continue;
            }
            let value = file
                .options
                .iter()
                .find_map(|o| match (&o.extension, &o.value) {
                    (None, bijoubuf_schema::OptionValue::String(v)) if o.name == "go_package" => {
                        Some(v.as_str())
                    }
                    _ => None,
                });
            let Some(value) = value else { continue };
            let (path, name) = match value.split_once(';') {
                Some((path, name)) => (path, Some(name)),
                None => (value, None),
            };
            check_import_path(path).map_err(|why| {
                LayoutError::new(&file.name, format!("go_package \"{value}\": {why}"))
            })?;
            let name =
                go_identifier(name.unwrap_or_else(|| path.rsplit('/').next().unwrap_or(path)));
            let dir = match path.strip_prefix(self.module.as_str()) {
                Some("") => String::new(),
                Some(rest) if rest.starts_with('/') => rest[1..].to_string(),
                _ => path.to_string(),
            };
            self.files.insert(file.name.clone(), (dir, name));
        }
        // One name per Go package, whichever way its files got there.
        let mut by_path: BTreeMap<String, (&str, String)> = BTreeMap::new();
        for file in schema.files() {
            if !self.generated(&file.package) {
                continue;
            }
            let (path, name) = (self.import_path(file), self.go_name(file));
            match by_path.get(&path) {
                Some((other, n)) if *n != name => {
                    return Err(LayoutError::new(
                        &file.name,
                        format!(
                            "its Go package \"{path}\" is named `{name}` here and `{n}` by {other}"
                        ),
                    ));
                }
                Some(_) => {}
                None => {
                    by_path.insert(path, (&file.name, name));
                }
            }
        }
        Ok(self)
    }

    /// The directory of `file`'s Go package in the output: its `go_package`'s, else its
    /// proto package's.
    fn file_dir(&self, file: &bijoubuf_schema::FileDef) -> String {
        match self.files.get(&file.name) {
            Some((dir, _)) => dir.clone(),
            None => self.dir(&file.package),
        }
    }

    /// The name of `file`'s Go package: its `go_package`'s, else its directory's last
    /// element (or the module's).
    fn go_name(&self, file: &bijoubuf_schema::FileDef) -> String {
        if let Some((_, n)) = self.files.get(&file.name) {
            return n.clone();
        }
        let dir = self.dir(&file.package);
        let last = dir
            .rsplit('/')
            .next()
            .filter(|s| !s.is_empty())
            .or_else(|| self.module.rsplit('/').next())
            .unwrap_or("pb");
        package_name(last)
    }

    fn dir(&self, package: &str) -> String {
        match self.dirs.get(package) {
            Some(d) => d.clone(),
            None => package.replace('.', "/"),
        }
    }

    /// The import path of `file`'s Go package.
    fn import_path(&self, file: &bijoubuf_schema::FileDef) -> String {
        if !self.generated(&file.package) {
            return self.wkt_import.clone();
        }
        let dir = self.file_dir(file);
        if dir.is_empty() {
            self.module.clone()
        } else {
            format!("{}/{dir}", self.module)
        }
    }
}

/// One generated Go file: every type of one Go package (one proto package, unless the
/// layout puts several in one Go package or spreads one over several).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedFile {
    /// The path in the output directory: `<dir>/<package>.bb.go`.
    pub name: String,
    /// The Go source.
    pub content: String,
}

/// Names a generated package does not take (it gets a `pb` suffix): Go's keywords; its
/// predeclared identifiers, which a package of that name would hide in every file that
/// imports it without an alias (generated code itself names `error`, `string`, `len`,
/// `new`, …); the runtime's package; and the names with a meaning at package scope.
const GO_RESERVED: &[&str] = &[
    // Keywords.
    "break",
    "case",
    "chan",
    "const",
    "continue",
    "default",
    "defer",
    "else",
    "fallthrough",
    "for",
    "func",
    "go",
    "goto",
    "if",
    "import",
    "interface",
    "map",
    "package",
    "range",
    "return",
    "select",
    "struct",
    "switch",
    "type",
    "var",
    // Predeclared types, constants, zero value and functions.
    "any",
    "bool",
    "byte",
    "comparable",
    "complex64",
    "complex128",
    "error",
    "float32",
    "float64",
    "int",
    "int8",
    "int16",
    "int32",
    "int64",
    "rune",
    "string",
    "uint",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "uintptr",
    "true",
    "false",
    "iota",
    "nil",
    "append",
    "cap",
    "clear",
    "close",
    "complex",
    "copy",
    "delete",
    "imag",
    "len",
    "make",
    "max",
    "min",
    "new",
    "panic",
    "print",
    "println",
    "real",
    "recover",
    // The runtime's package, and names with a meaning at package scope.
    "bijoubuf",
    "init",
    "main",
];

/// The names generated functions bind (receivers, parameters, locals). An import alias
/// is used inside those functions (`new(v1.Item)`), where a local of the same name would
/// hide it, so an alias steps aside from these as from another alias (a digit suffix).
/// `tests/snapshots.rs` imports a package of each name into every kind of field.
const GO_LOCALS: &[&str] = &[
    "at", "bk", "buf", "c", "depth", "derr", "e", "ec", "ek", "err", "es", "f", "i", "k", "ks",
    "last", "m", "mk", "n", "o", "ok", "opts", "outer", "p", "prev", "r", "s", "u", "v", "vs", "w",
    "wt", "x",
];

/// Methods every generated message has: a field of the same name gets a trailing `_`.
const METHODS: &[&str] = &[
    "Marshal",
    "MarshalOptions",
    "Unmarshal",
    "UnmarshalOptions",
    "FullName",
    "BijoubufDesc",
    "BijoubufUnmarshal",
    "BijoubufUnknown",
    "BijoubufSize",
    "BijoubufWrite",
    "BijoubufDecode",
];

/// Go's camel case of a proto name: `home_address` → `HomeAddress`, `k62` → `K62`; an
/// underscore not followed by a lowercase letter stays (`foo_1` → `Foo_1`).
fn camel(name: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = name.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '_' && i + 1 < chars.len() && chars[i + 1].is_ascii_lowercase() {
            out.push(chars[i + 1].to_ascii_uppercase());
            i += 2;
            continue;
        }
        if out.is_empty() {
            if c == '_' {
                out.push('X');
            } else {
                out.push(c.to_ascii_uppercase());
                i += 1;
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    out
}

/// Why [`Options::go_package_layout`] refused a schema's `go_package` options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutError {
    file: String,
    message: String,
}

impl LayoutError {
    fn new(file: &str, message: String) -> Self {
        LayoutError {
            file: file.to_string(),
            message,
        }
    }

    /// The stable code of the refusal: `go-package`.
    pub fn code(&self) -> &'static str {
        "go-package"
    }

    /// The file whose `go_package` was refused.
    pub fn file(&self) -> &str {
        &self.file
    }
}

impl std::fmt::Display for LayoutError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file, self.message)
    }
}

impl std::error::Error for LayoutError {}

/// Whether `path` can be a directory of the output and an import path: relative,
/// slash-separated, no empty, `.` or `..` element, no backslash or white space.
fn check_import_path(path: &str) -> Result<(), &'static str> {
    if path.is_empty() {
        return Err("the import path is empty");
    }
    if path.starts_with('/') {
        return Err("an import path is not absolute");
    }
    if path.contains(|c: char| c == '\\' || c.is_whitespace() || c.is_control()) {
        return Err("an import path holds no backslash or white space");
    }
    if path
        .split('/')
        .any(|e| e.is_empty() || e == "." || e == "..")
    {
        return Err("an import path has no empty, `.` or `..` element");
    }
    Ok(())
}

/// A Go package name from `go_package`'s name or last element, as protoc-gen-go cleans
/// it: case kept, what is not a letter, digit or `_` becomes `_`, a leading digit gets a
/// `_` before it; and Go's reserved names step aside as in [`package_name`].
fn go_identifier(name: &str) -> String {
    clean_name(
        name,
        |c| {
            if c.is_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        },
        '_',
    )
}

/// A Go package name from a directory's last element (or the module's): lowercase ASCII
/// letters and digits, anything else `_`, a leading digit after a `p`, and a `pb` suffix
/// on Go's reserved names.
fn package_name(last: &str) -> String {
    clean_name(
        last,
        |c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        },
        'p',
    )
}

/// `name` with each character through `map`, `lead` before an empty or digit-led result,
/// and a `pb` suffix on a name in [`GO_RESERVED`].
fn clean_name(name: &str, map: impl Fn(char) -> char, lead: char) -> String {
    let mut s: String = name.chars().map(map).collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, lead);
    }
    if GO_RESERVED.contains(&s.as_str()) {
        s.push_str("pb");
    }
    s
}

/// Where a type is emitted: its proto package and its Go name there.
#[derive(Clone, Debug)]
struct GoType {
    package: String,
    /// The import path of the Go package it is declared in.
    import_path: String,
    local: String,
}

/// The names one package's file declares, decided before any code is written.
#[derive(Default)]
struct Names {
    /// Full name of a message or enum → its Go type.
    types: HashMap<String, GoType>,
    /// Message full name → (field number → Go field name), oneof index → interface
    /// field name, and member field number → wrapper type name.
    fields: HashMap<String, MessageNames>,
    /// Enum full name → value index → constant name.
    values: HashMap<String, Vec<String>>,
    /// Enum full name → its values' names and numbers, in declaration order.
    enum_values: HashMap<String, Vec<(String, i32)>>,
    /// Go package (import path) → every name declared at the top level of its file.
    taken: HashMap<String, BTreeSet<String>>,
}

#[derive(Default)]
struct MessageNames {
    fields: HashMap<u32, String>,
    oneofs: Vec<String>,
    wrappers: HashMap<u32, String>,
    /// Each field's getter (`GetX`), by number; each real oneof's (`GetPick`), by index.
    getters: HashMap<u32, String>,
    oneof_getters: Vec<String>,
}

fn visit_messages<'a>(m: &'a MessageDef, f: &mut dyn FnMut(&'a MessageDef)) {
    if m.map_entry {
        return;
    }
    f(m);
    for n in &m.messages {
        visit_messages(n, f);
    }
}

/// The index of the real (not synthetic) oneof `f` belongs to.
fn real_oneof(m: &MessageDef, f: &FieldDef) -> Option<usize> {
    f.oneof.filter(|&i| !m.oneofs[i].synthetic)
}

/// A oneof whose members are neighbours in a message's field list (no other field
/// numbered between them), at least two: its index and its first and last member's.
#[derive(Clone, Copy)]
struct OneofGroup {
    oneof: usize,
    first: usize,
    last: usize,
}

/// For each field of `m`, the [`OneofGroup`] it is a member of, if any: the encode
/// passes dispatch on such a oneof once (a type switch) rather than asking for each
/// member in turn.
fn oneof_groups(m: &MessageDef) -> Vec<Option<OneofGroup>> {
    let mut out = vec![None; m.fields.len()];
    for i in 0..m.oneofs.len() {
        let members: Vec<usize> = (0..m.fields.len())
            .filter(|&j| real_oneof(m, &m.fields[j]) == Some(i))
            .collect();
        let (Some(&first), Some(&last)) = (members.first(), members.last()) else {
            continue;
        };
        if members.len() >= 2 && last - first + 1 == members.len() {
            for &j in &members {
                out[j] = Some(OneofGroup {
                    oneof: i,
                    first,
                    last,
                });
            }
        }
    }
    out
}

/// Pick `want`, or it with trailing `_`s until it is not in `taken`; mark it taken.
fn claim(taken: &mut BTreeSet<String>, want: String) -> String {
    let mut name = want;
    while taken.contains(&name) {
        name.push('_');
    }
    taken.insert(name.clone());
    name
}

fn collect_names(schema: &Schema, options: &Options) -> Names {
    let mut names = Names::default();
    // Per Go package (import path): every name declared at the top level of its file.
    let mut taken: HashMap<String, BTreeSet<String>> = HashMap::new();
    // Types first (their names win), then oneof wrappers and enum constants.
    for file in schema.files() {
        let t = taken.entry(options.import_path(file)).or_default();
        let mut add = |full: &str| {
            let rel = full
                .strip_prefix(&file.package)
                .map(|r| r.trim_start_matches('.'))
                .unwrap_or(full);
            let local: Vec<String> = rel.split('.').map(camel).collect();
            let local = claim(t, local.join("_"));
            names.types.insert(
                full.to_string(),
                GoType {
                    package: file.package.clone(),
                    import_path: options.import_path(file),
                    local,
                },
            );
        };
        for m in &file.messages {
            visit_messages(m, &mut |m| {
                add(&m.full_name);
                for e in &m.enums {
                    add(&e.full_name);
                }
            });
        }
        for e in &file.enums {
            add(&e.full_name);
        }
    }
    for file in schema.files() {
        let t = taken.entry(options.import_path(file)).or_default();
        let mut enums: Vec<&EnumDef> = file.enums.iter().collect();
        for m in &file.messages {
            visit_messages(m, &mut |m| {
                enums.extend(m.enums.iter());
                let ty = names.types[&m.full_name].local.clone();
                let mut own: BTreeSet<String> = METHODS.iter().map(|s| s.to_string()).collect();
                let mut mn = MessageNames::default();
                let mut oneof_names = vec![String::new(); m.oneofs.len()];
                for f in m.fields_in_declaration_order() {
                    match real_oneof(m, f) {
                        Some(i) => {
                            if oneof_names[i].is_empty() {
                                oneof_names[i] = claim(&mut own, camel(&m.oneofs[i].name));
                            }
                            let wrapper = claim(t, format!("{ty}_{}", camel(&f.name)));
                            mn.wrappers.insert(f.number, wrapper);
                            // The wrapper's one field: its own namespace.
                            let mut w: BTreeSet<String> =
                                ["isOneof".to_string()].into_iter().collect();
                            mn.fields.insert(f.number, claim(&mut w, camel(&f.name)));
                        }
                        None => {
                            mn.fields.insert(f.number, claim(&mut own, camel(&f.name)));
                        }
                    }
                }
                // Getters after every field, so that a field keeps its name and a getter
                // that would collide with a field (`get_x` beside `x`) or a method steps
                // aside (`GetX_`).
                let mut oneof_getters = vec![String::new(); m.oneofs.len()];
                for f in m.fields_in_declaration_order() {
                    if let Some(i) = real_oneof(m, f)
                        && oneof_getters[i].is_empty()
                    {
                        oneof_getters[i] = claim(&mut own, format!("Get{}", oneof_names[i]));
                    }
                    let getter = claim(&mut own, format!("Get{}", mn.fields[&f.number]));
                    mn.getters.insert(f.number, getter);
                }
                mn.oneofs = oneof_names;
                mn.oneof_getters = oneof_getters;
                names.fields.insert(m.full_name.clone(), mn);
            });
        }
        for e in enums {
            let ty = names.types[&e.full_name].local.clone();
            let consts = e
                .values
                .iter()
                .map(|v| claim(t, format!("{ty}_{}", v.name)))
                .collect();
            names.values.insert(e.full_name.clone(), consts);
            names.enum_values.insert(
                e.full_name.clone(),
                e.values
                    .iter()
                    .map(|v| (v.name.clone(), v.number))
                    .collect(),
            );
        }
    }
    names.taken = taken;
    names
}

/// Generate one Go file per Go package: each proto package of `schema` (imported files
/// included, except `google.protobuf` unless [`Options::well_known_types`]) goes in its
/// own, unless [`Options::package_dir`] or [`Options::go_package_layout`] put several in
/// one directory. Files are ordered by their first proto package's name.
pub fn generate(schema: &Schema, options: &Options) -> Vec<GeneratedFile> {
    let names = collect_names(schema, options);
    let mut packages: BTreeMap<String, Vec<&bijoubuf_schema::FileDef>> = BTreeMap::new();
    for file in schema.files() {
        packages.entry(file.package.clone()).or_default().push(file);
    }
    // Go packages (by import path) in the order of their first proto package.
    let mut units: Vec<(String, Vec<&str>, Vec<&bijoubuf_schema::FileDef>)> = Vec::new();
    for (package, files) in &packages {
        if !options.generated(package) {
            continue;
        }
        for &file in files {
            let path = options.import_path(file);
            match units.iter_mut().find(|(p, _, _)| *p == path) {
                Some((_, ps, fs)) => {
                    if !ps.contains(&package.as_str()) {
                        ps.push(package);
                    }
                    fs.push(file);
                }
                None => units.push((path, vec![package.as_str()], vec![file])),
            }
        }
    }
    let mut out = Vec::new();
    for (import_path, packages, files) in units {
        let dir = options.file_dir(files[0]);
        let go_package = options.go_name(files[0]);
        let path = |suffix: &str| {
            if dir.is_empty() {
                format!("{go_package}{suffix}")
            } else {
                format!("{dir}/{go_package}{suffix}")
            }
        };
        // A Go package of files without types (services or extensions only) has no
        // messages' file.
        if files
            .iter()
            .any(|f| !f.messages.is_empty() || !f.enums.is_empty())
        {
            let mut e = Emitter {
                import_path: import_path.clone(),
                names: &names,
                imports: BTreeMap::new(),
                body: String::new(),
                init: String::new(),
                locals: &[],
                in_parts: options.in_parts,
                field_tables: options.field_tables,
                uses_unsafe: false,
            };
            for f in &files {
                for en in &f.enums {
                    e.enumeration(en);
                }
                for m in &f.messages {
                    visit_messages(m, &mut |m| e.message(m));
                }
            }
            let content = e.finish(&go_package, &packages, &files);
            out.push(GeneratedFile {
                name: path(".bb.go"),
                content,
            });
        }
        if options.services && files.iter().any(|f| !f.services.is_empty()) {
            let content = services::generate(&names, &import_path, &go_package, &files);
            out.push(GeneratedFile {
                name: path("_grpc.bb.go"),
                content,
            });
        }
    }
    out
}

struct Emitter<'a> {
    /// The import path of the Go package being written.
    import_path: String,
    names: &'a Names,
    /// Import path → alias, for other packages' types.
    imports: BTreeMap<String, String>,
    body: String,
    /// The statements of the file's `init`: descriptors and their registration.
    init: String,
    /// Names an import alias steps aside from besides [`GO_LOCALS`]: the services
    /// file's locals and imported packages.
    locals: &'static [&'static str],
    /// [`Options::passes_in_parts`].
    in_parts: bool,
    /// [`Options::field_tables`].
    field_tables: bool,
    /// Whether a message of the file reads fields through a table (its file then
    /// imports `unsafe`).
    uses_unsafe: bool,
}

/// `// ` lines of a schema comment (leading, else trailing), with `first` line first, as
/// gofmt prints them ([`gofmt::doc_comment`]; a comment at `indent` `""` is a top-level
/// doc comment, which gofmt reformats). For a declaration the schema marks deprecated
/// (`deprecated = true`), a last paragraph `Deprecated: …`, the form Go's tools (gopls,
/// staticcheck) look for.
fn comment_lines(comments: &Comments, indent: &str, first: &str, deprecated: bool) -> String {
    let last = deprecated.then_some("Deprecated: the schema marks this deprecated.");
    let text = comments.leading.as_deref().or(comments.trailing.as_deref());
    let joined;
    let text = match (text, last) {
        (_, None) => text,
        (None, Some(l)) => Some(l),
        (Some(t), Some(l)) => {
            joined = format!("{}\n\n{l}", t.trim_end());
            Some(joined.as_str())
        }
    };
    let mut out = String::new();
    for line in gofmt::doc_comment(first, text, indent.is_empty()) {
        if line.is_empty() {
            let _ = writeln!(out, "{indent}//");
        } else if line.starts_with('\t') {
            // A code block's line, as gofmt prints it.
            let _ = writeln!(out, "{indent}//{line}");
        } else {
            let _ = writeln!(out, "{indent}// {line}");
        }
    }
    out
}

fn go_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A proto2 `[default = …]` (protoc's text form) as a Go expression of the field's type,
/// and as a getter's doc says it. A float is the value protoc reads (a double, then for
/// `float` rounded to a float): the text itself where Go's constant conversion gives the
/// same bits, else the bits (`inf`, `-inf`, `nan`, `-0`, a value past the largest float,
/// which Go refuses as a constant, subnormals, and decimals rounded differently once
/// than twice).
fn go_default(s: ScalarType, text: &str) -> Option<(String, String)> {
    let said = text.to_string();
    Some(match s {
        ScalarType::Double | ScalarType::Float => {
            let v: f64 = match text {
                "inf" => f64::INFINITY,
                "-inf" => f64::NEG_INFINITY,
                "nan" => f64::NAN,
                _ => text.parse().ok()?,
            };
            // A finite decimal that Go's constant conversion (one correct rounding) turns
            // into the same bits as protoc's reading is written as it is; the rest by bits.
            let normal = if s == ScalarType::Double {
                v.is_normal()
            } else {
                (v as f32).is_normal()
            };
            let plain = (normal || (v == 0.0 && v.is_sign_positive()))
                && text
                    .bytes()
                    .all(|c| c.is_ascii_digit() || b".eE+-".contains(&c))
                && (s == ScalarType::Double
                    || text.parse::<f32>().ok().map(f32::to_bits) == Some((v as f32).to_bits()));
            let expr = match (plain, s == ScalarType::Double) {
                (true, _) => text.to_string(),
                (false, true) => format!("bijoubuf.Float64FromBits(0x{:016x})", v.to_bits()),
                (false, false) => {
                    format!("bijoubuf.Float32FromBits(0x{:08x})", (v as f32).to_bits())
                }
            };
            (expr, said)
        }
        ScalarType::Int32 | ScalarType::Sint32 | ScalarType::Sfixed32 => {
            (text.parse::<i32>().ok()?.to_string(), said)
        }
        ScalarType::Int64 | ScalarType::Sint64 | ScalarType::Sfixed64 => {
            (text.parse::<i64>().ok()?.to_string(), said)
        }
        ScalarType::Uint32 | ScalarType::Fixed32 => (text.parse::<u32>().ok()?.to_string(), said),
        ScalarType::Uint64 | ScalarType::Fixed64 => (text.parse::<u64>().ok()?.to_string(), said),
        ScalarType::Bool => match text {
            "true" | "false" => (text.to_string(), said),
            _ => return None,
        },
        ScalarType::String => (go_string(text), go_string(text)),
        ScalarType::Bytes => {
            let bytes = bijoubuf_schema::c_unescape(text)?;
            let mut lit = String::from("[]byte(\"");
            for b in &bytes {
                match b {
                    b'"' => lit.push_str("\\\""),
                    b'\\' => lit.push_str("\\\\"),
                    0x20..=0x7e => lit.push(*b as char),
                    _ => {
                        let _ = write!(lit, "\\x{b:02x}");
                    }
                }
            }
            lit.push_str("\")");
            let said = lit[7..lit.len() - 1].to_string();
            (lit, said)
        }
    })
}

/// The alignment of a struct field's Go type on 64-bit platforms, from the type as
/// `field_type` spells it: 1 for `bool`, 4 for the 32-bit numbers and enums
/// (named types over `int32`), 8 for the rest (64-bit numbers, strings, slices, maps,
/// pointers, interfaces).
fn go_alignment(ty: &str) -> u8 {
    match ty {
        "bool" => 1,
        "int32" | "uint32" | "float32" => 4,
        "int64" | "uint64" | "float64" | "string" => 8,
        t if t.starts_with(['*', '[']) || t.starts_with("map[") => 8,
        // What is left is an enum's name (possibly package-qualified): an int32.
        _ => 4,
    }
}

fn scalar_go(s: ScalarType) -> &'static str {
    use ScalarType::*;
    match s {
        Double => "float64",
        Float => "float32",
        Int32 | Sint32 | Sfixed32 => "int32",
        Uint32 | Fixed32 => "uint32",
        Int64 | Sint64 | Sfixed64 => "int64",
        Uint64 | Fixed64 => "uint64",
        Bool => "bool",
        String => "string",
        Bytes => "[]byte",
    }
}

fn scalar_kind(s: ScalarType) -> &'static str {
    use ScalarType::*;
    match s {
        Double => "KindDouble",
        Float => "KindFloat",
        Int32 => "KindInt32",
        Sint32 => "KindSint32",
        Sfixed32 => "KindSfixed32",
        Uint32 => "KindUint32",
        Fixed32 => "KindFixed32",
        Int64 => "KindInt64",
        Sint64 => "KindSint64",
        Sfixed64 => "KindSfixed64",
        Uint64 => "KindUint64",
        Fixed64 => "KindFixed64",
        Bool => "KindBool",
        String => "KindString",
        Bytes => "KindBytes",
    }
}

fn wire(ty: &FieldType) -> &'static str {
    use ScalarType::*;
    match ty {
        FieldType::Scalar(Fixed64 | Sfixed64 | Double) => "bijoubuf.WireI64",
        FieldType::Scalar(Fixed32 | Sfixed32 | Float) => "bijoubuf.WireI32",
        FieldType::Scalar(String | Bytes) | FieldType::Message(_) => "bijoubuf.WireLen",
        _ => "bijoubuf.WireVarint",
    }
}

/// The element width of a fixed-width type (4 or 8), else 0.
fn width(ty: &FieldType) -> usize {
    use ScalarType::*;
    match ty {
        FieldType::Scalar(Fixed64 | Sfixed64 | Double) => 8,
        FieldType::Scalar(Fixed32 | Sfixed32 | Float) => 4,
        _ => 0,
    }
}

/// The size of every element of a type whose elements all have one size (fixed-width
/// types and bool), else 0.
fn fixed_size(ty: &FieldType) -> usize {
    match ty {
        FieldType::Scalar(ScalarType::Bool) => 1,
        ty => width(ty),
    }
}

/// The Reader method reading one element of a scalar or enum type.
fn read_method(ty: &FieldType) -> &'static str {
    use ScalarType::*;
    match ty {
        FieldType::Scalar(s) => match s {
            Double => "Float64",
            Float => "Float32",
            Int32 | Sint32 => "Int32",
            Sfixed32 => "Sfixed32",
            Uint32 => "Uint32",
            Fixed32 => "Fixed32",
            Int64 | Sint64 => "Int64",
            Sfixed64 => "Sfixed64",
            Uint64 => "Uint64",
            Fixed64 => "Fixed64",
            Bool => "Bool",
            String => "String",
            Bytes => "BytesCopy",
        },
        FieldType::Enum(_) => "Int32",
        FieldType::Message(_) => unreachable!("messages are read with Nested"),
    }
}

/// The Reader method reading the common case of an element of a scalar or enum type
/// inline (a one-byte varint, a float that is not a NaN), where there is one.
fn fast_method(ty: &FieldType) -> Option<&'static str> {
    use ScalarType::*;
    match ty {
        FieldType::Scalar(s) => match s {
            Double => Some("Float64Fast"),
            Float => Some("Float32Fast"),
            Int32 | Sint32 => Some("Int32Fast"),
            Uint32 => Some("Uint32Fast"),
            Int64 | Sint64 => Some("Int64Fast"),
            Uint64 => Some("Uint64Fast"),
            Bool => Some("BoolFast"),
            _ => None,
        },
        FieldType::Enum(_) => Some("Int32Fast"),
        FieldType::Message(_) => None,
    }
}

/// The statements reading one element of a scalar or enum type into a new `v`, at
/// indentation `ind`, returning `fail` (which names `err`) on error: the inline common
/// case first where there is one, else the full read.
/// Where an encode pass (size or write) is cut into parts, each a function of its own,
/// for the reason [`decode_parts`] gives: the pass's text for its fields runs from
/// `start`, and a cut falls before a field once the part before it weighs
/// [`ENCODE_PART`] and no oneof's type switch is open there.
struct EncodeCuts {
    split: bool,
    start: usize,
    weight: usize,
    cuts: Vec<usize>,
}

/// The most a message's encode pass weighs (see [`decode_weight`]) and is still one
/// function. Measured with Go 1.26: the write pass stops inlining between 120 and 150
/// `int32` fields.
const ENCODE_ONE_FUNCTION: usize = 112;

/// The most each part of a larger message's encode pass weighs.
const ENCODE_PART: usize = 64;

impl EncodeCuts {
    fn new(enabled: bool, m: &MessageDef, start: usize) -> Self {
        let total: usize = m.fields.iter().map(decode_weight).sum();
        EncodeCuts {
            split: enabled && total > ENCODE_ONE_FUNCTION,
            start,
            weight: 0,
            cuts: Vec::new(),
        }
    }

    /// Field `f`'s text begins at `at`; `free` says no oneof's switch is open there.
    fn field(&mut self, f: &FieldDef, at: usize, free: bool) {
        if self.split && free && self.weight >= ENCODE_PART {
            self.cuts.push(at);
            self.weight = 0;
        }
        self.weight += decode_weight(f);
    }

    /// The parts' texts, in the pass's order, taken out of `b` (nothing when the pass is
    /// one function).
    fn parts(self, b: &mut String) -> Vec<String> {
        if self.cuts.is_empty() {
            return Vec::new();
        }
        let mut rest = b.split_off(self.start);
        let mut parts = Vec::new();
        for &cut in self.cuts.iter().rev() {
            parts.push(rest.split_off(cut - self.start));
        }
        parts.push(rest);
        parts.reverse();
        parts
    }
}

/// A decode case's share of a function's size, in units of about one singular scalar
/// field's case (see [`decode_parts`]). Measured: Go stops inlining the reader's fast
/// paths into a message's decode between 70 and 80 `int32` fields, 40 and 50 singular
/// messages or repeated `int32`s, 30 and 40 maps, 24 and 30 repeated messages.
fn decode_weight(f: &FieldDef) -> usize {
    match (&f.cardinality, &f.ty) {
        (Cardinality::Single, FieldType::Message(_)) => 2,
        (Cardinality::Single, _) => 1,
        (Cardinality::Repeated, FieldType::Message(_)) => 3,
        (Cardinality::Repeated, _) | (Cardinality::Map { .. }, _) => 2,
    }
}

/// The most a message's decode weighs (see [`decode_weight`]) and is still one function:
/// parts cost a little per field (a 60-field message's decode read in two parts ran 4.5 %
/// more instructions than as one function), so a message is split only near the size
/// where Go stops inlining.
const DECODE_ONE_FUNCTION: usize = 64;

/// The most each part of a larger message's decode weighs. Go's inliner gives a function
/// of more than 5,000 nodes a budget of 20 for what it inlines into it, too little for the
/// reader's fast paths, which then are each a call.
const DECODE_PART: usize = 40;

/// How many cases (in field-number order, weighing `weights`) each part of a message's
/// decode takes: one part when the whole weighs at most [`DECODE_ONE_FUNCTION`], else
/// parts of at most [`DECODE_PART`] (a case weighing more is a part of its own).
fn decode_parts(weights: impl Iterator<Item = usize>) -> Vec<usize> {
    let weights: Vec<usize> = weights.collect();
    if weights.iter().sum::<usize>() <= DECODE_ONE_FUNCTION {
        return vec![weights.len()];
    }
    let mut parts = Vec::new();
    let (mut len, mut weight) = (0, 0);
    for w in weights {
        if len > 0 && weight + w > DECODE_PART {
            parts.push(len);
            (len, weight) = (0, 0);
        }
        len += 1;
        weight += w;
    }
    parts.push(len);
    parts
}

/// The fewest fields a message reads through a field table ([`Emitter::table_fields`]).
/// Each record of a decode goes through the jump of the switch on its field number; in a
/// wide message with fields set at random that jump lands on a different case almost
/// every time, and the processor's guesses of it fail. The report dataset's rows (150
/// scalar fields, about 85 % set) decoded in about 38 % less time with them read
/// through the table than by their cases; a table put by hand in GoogleMessage1's decode
/// (31 such fields) showed no difference either way, so smaller messages keep their
/// cases.
const FIELD_TABLE_MIN: usize = 32;

/// Only fields numbered below this go in a field table, which is an array indexed by
/// field number (each entry 32 bytes).
const FIELD_TABLE_NUMBERS: u32 = 512;

/// The statements of a decode loop (at two tabs) that read a record whose number is in
/// the field table `bijoubufTable<name>`: a case for each of `cases` (a scalar type and
/// whether its fields have explicit presence), numbered from 1 as the table's entries
/// name them. Each checks the wire type, reads the value, refuses the default value of
/// a field of implicit presence and stores the value at the field's offset (a field of
/// explicit presence, a pointer to it), as the field's own case would; then the loop
/// goes on.
fn table_lookup(name: &str, cases: &[(ScalarType, bool)]) -> String {
    let mut b = format!(
        "\t\tif n < uint32(len(bijoubufTable{name})) {{\n\t\t\tif s := &bijoubufTable{name}[n]; s.Case != 0 {{\n\t\t\t\tp := unsafe.Add(unsafe.Pointer(m), s.Off)\n\t\t\t\tswitch s.Case {{\n"
    );
    for (k, &(st, explicit)) in cases.iter().enumerate() {
        let ty = FieldType::Scalar(st);
        let go = scalar_go(st);
        let _ = writeln!(
            b,
            "\t\t\t\tcase {}:\n\t\t\t\t\tif wt != {} {{\n\t\t\t\t\t\treturn r.WireMismatch(s.Name)\n\t\t\t\t\t}}\n{}\t\t\t\t\t{}",
            k + 1,
            wire(&ty),
            read_field_value(&ty, "\t\t\t\t\t", "s.Name", !explicit),
            if explicit {
                format!("*(**{go})(p) = &v")
            } else {
                format!("*(*{go})(p) = v")
            }
        );
    }
    b.push_str("\t\t\t\t}\n\t\t\t\tcontinue\n\t\t\t}\n\t\t}\n");
    b
}

/// The `switch` on the field number over `cases` (each at two tabs), an unknown number
/// skipped: the body of a decode loop. `stop` is a part's last field (see
/// [`decode_parts`]): a record past it is handed back to the caller.
fn decode_switch(cases: Vec<(u32, String)>, stop: Option<u32>) -> String {
    // A part of a decode (see [`decode_parts`]) hands a record past its last field back;
    // the check is the `default` case's, so the fields' cases pay nothing for it.
    let stop = stop.map_or(String::new(), |high| {
        format!("if n > {high} {{\n\t\t\t*pn, *pwt = n, wt\n\t\t\treturn nil\n\t\t}}\n\t\t")
    });
    let skip = format!("{stop}if err := r.Skip(n, wt); err != nil {{\n\t\t\treturn err\n\t\t}}");
    let mut b = String::new();
    if cases.is_empty() {
        let _ = writeln!(b, "\t\t{skip}");
        return b;
    }
    b.push_str("\t\tswitch n {\n");
    // Go compiles a switch to a jump table when its cases are dense (at least 8,
    // spanning at most 4 numbers each), else to a binary search: the longest dense run
    // of the lowest numbers gets a switch of its own, the rest a second switch in its
    // default.
    let mut numbers: Vec<u32> = cases.iter().map(|c| c.0).collect();
    numbers.sort_unstable();
    let dense = (8..=numbers.len())
        .rev()
        .find(|&k| (numbers[k - 1] - numbers[0] + 1) as usize <= 4 * k)
        .unwrap_or(numbers.len());
    let split = numbers.get(dense).copied();
    let (low, high): (Vec<_>, Vec<_>) = cases
        .into_iter()
        .partition(|c| split.is_none_or(|s| c.0 < s));
    for (_, case) in &low {
        b.push_str(case);
    }
    if high.is_empty() {
        let _ = writeln!(
            b,
            "\t\tdefault:\n\t\t\t{}\n\t\t}}",
            skip.replace("\n", "\n\t")
        );
    } else {
        b.push_str("\t\tdefault:\n\t\t\tswitch n {\n");
        for (_, case) in &high {
            b.push_str(&indent(case, 1));
        }
        let _ = writeln!(
            b,
            "\t\t\tdefault:\n\t\t\t\t{}\n\t\t\t}}\n\t\t}}",
            skip.replace("\n", "\n\t\t")
        );
    }
    b
}

fn read_value(ty: &FieldType, ind: &str, fail: &str) -> String {
    let read = read_method(ty);
    match fast_method(ty) {
        Some(fast) => format!(
            "{ind}v, ok := r.{fast}()\n{ind}if !ok {{\n{ind}\tvar err error\n{ind}\tif v, err = r.{read}(); err != nil {{\n{ind}\t\treturn {fail}\n{ind}\t}}\n{ind}}}\n"
        ),
        None => format!(
            "{ind}v, err := r.{read}()\n{ind}if err != nil {{\n{ind}\treturn {fail}\n{ind}}}\n"
        ),
    }
}

/// The statements reading a singular field's value of a scalar or enum type into `v` at
/// indentation `ind`, its errors in the field `name` (a Go expression), and refusing the
/// default value when the field has implicit presence: the field's case, less its wire
/// type check and its store.
fn read_field_value(ty: &FieldType, ind: &str, name: &str, implicit: bool) -> String {
    let mut b = read_value(ty, ind, &format!("bijoubuf.InField(err, {name})"));
    if implicit {
        let _ = writeln!(
            b,
            "{ind}if {} {{\n{ind}\treturn r.DefaultValuePresent({name})\n{ind}}}",
            is_default(ty, "v")
        );
    }
    b
}

/// The statements decoding the length-prefixed message at the position into `v`, at
/// indentation `ind`, returning `fail` (which names `derr`) on error: the reader's
/// inline halves for a one-byte length and a decode that read every record, its full
/// `Enter` and `Leave` otherwise.
fn decode_nested(keeps: &str, ind: &str, fail: &str) -> String {
    format!(
        "{ind}f, ok := r.EnterFast({keeps})\n{ind}var derr error\n{ind}if !ok {{\n{ind}\tf, derr = r.Enter({keeps})\n{ind}}}\n{ind}if derr == nil {{\n{ind}\tif derr = v.BijoubufDecode(r); derr != nil || !r.LeaveFast(f) {{\n{ind}\t\tderr = r.Leave(f, derr)\n{ind}\t}}\n{ind}}}\n{ind}if derr != nil {{\n{ind}\treturn {fail}\n{ind}}}\n"
    )
}

/// `text` with `tabs` more tabs at the start of every line that is not empty.
fn indent(text: &str, tabs: usize) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for line in text.lines() {
        if !line.is_empty() {
            out.push_str(&"\t".repeat(tabs));
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The size of one element `v` of a scalar or enum type.
fn size_expr(ty: &FieldType, v: &str) -> String {
    use ScalarType::*;
    match ty {
        FieldType::Scalar(s) => match s {
            Double | Fixed64 | Sfixed64 => "8".to_string(),
            Float | Fixed32 | Sfixed32 => "4".to_string(),
            Bool => "1".to_string(),
            Int32 | Sint32 | Int64 | Sint64 => format!("bijoubuf.ZigzagSize(int64({v}))"),
            Uint32 | Uint64 => format!("bijoubuf.VarintSize(uint64({v}))"),
            String | Bytes => format!("bijoubuf.LenSize(len({v}))"),
        },
        FieldType::Enum(_) => format!("bijoubuf.ZigzagSize(int64({v}))"),
        FieldType::Message(_) => unreachable!("messages are sized by their own pass"),
    }
}

/// The statement writing one element `v` of a scalar or enum type.
fn write_stmt(ty: &FieldType, v: &str) -> String {
    use ScalarType::*;
    match ty {
        FieldType::Scalar(s) => match s {
            Double => format!("w.Float64({v})"),
            Float => format!("w.Float32({v})"),
            Fixed64 => format!("w.Fixed64({v})"),
            Sfixed64 => format!("w.Fixed64(uint64({v}))"),
            Fixed32 => format!("w.Fixed32({v})"),
            Sfixed32 => format!("w.Fixed32(uint32({v}))"),
            Bool => format!("w.Bool({v})"),
            Int32 | Sint32 | Int64 | Sint64 => format!("w.Zigzag(int64({v}))"),
            Uint32 | Uint64 => format!("w.Varint(uint64({v}))"),
            String => format!("w.String({v})"),
            Bytes => format!("w.LenBytes({v})"),
        },
        FieldType::Enum(_) => format!("w.Zigzag(int64({v}))"),
        FieldType::Message(_) => unreachable!("messages are written by their own pass"),
    }
}

/// The statement writing field `number` holding `v` (an expression of its Go type), key
/// and value, through the backward writer. An integer, enum, bool or fixed-width field's
/// common case (a one-byte key, and for varints a one-byte value) is a `…Fast` call the
/// compiler inlines; the call after it writes every other case. The statement sits two
/// tabs deep (inside the field's `if`).
fn field_write_stmt(ty: &FieldType, number: u32, v: &str) -> String {
    use ScalarType::*;
    let (fast, rest, value) = match ty {
        FieldType::Scalar(Bool) => ("Varint", "VarintRest", format!("bijoubuf.BoolValue({v})")),
        FieldType::Scalar(Int32 | Sint32 | Int64 | Sint64) | FieldType::Enum(_) => (
            "Varint",
            "VarintRest",
            format!("bijoubuf.Zigzag(int64({v}))"),
        ),
        FieldType::Scalar(Uint32 | Uint64) => ("Varint", "VarintRest", format!("uint64({v})")),
        FieldType::Scalar(Double) => ("Fixed64", "Fixed64", format!("bijoubuf.Float64Bits({v})")),
        FieldType::Scalar(Fixed64) => ("Fixed64", "Fixed64", v.to_string()),
        FieldType::Scalar(Sfixed64) => ("Fixed64", "Fixed64", format!("uint64({v})")),
        FieldType::Scalar(Float) => ("Fixed32", "Fixed32", format!("bijoubuf.Float32Bits({v})")),
        FieldType::Scalar(Fixed32) => ("Fixed32", "Fixed32", v.to_string()),
        FieldType::Scalar(Sfixed32) => ("Fixed32", "Fixed32", format!("uint32({v})")),
        FieldType::Scalar(String) => return format!("w.FieldString({number}, {v})"),
        FieldType::Scalar(Bytes) => return format!("w.FieldBytes({number}, {v})"),
        FieldType::Message(_) => unreachable!("messages are written by their own pass"),
    };
    format!(
        "if !w.Field{fast}Fast({number}, {value}) {{\n\t\t\tw.Field{rest}({number}, {value})\n\t\t}}"
    )
}

/// The condition under which an implicit-presence value `v` is written (not the default).
fn not_default(ty: &FieldType, v: &str) -> String {
    match ty {
        FieldType::Scalar(ScalarType::Bool) => v.to_string(),
        FieldType::Scalar(ScalarType::String | ScalarType::Bytes) => format!("len({v}) != 0"),
        FieldType::Scalar(ScalarType::Float) => format!("!bijoubuf.IsZero32({v})"),
        FieldType::Scalar(ScalarType::Double) => format!("!bijoubuf.IsZero64({v})"),
        _ => format!("{v} != 0"),
    }
}

/// The condition under which a decoded implicit-presence value `v` is the default.
fn is_default(ty: &FieldType, v: &str) -> String {
    match ty {
        FieldType::Scalar(ScalarType::Bool) => format!("!{v}"),
        FieldType::Scalar(ScalarType::String | ScalarType::Bytes) => format!("len({v}) == 0"),
        FieldType::Scalar(ScalarType::Float) => format!("bijoubuf.IsZero32({v})"),
        FieldType::Scalar(ScalarType::Double) => format!("bijoubuf.IsZero64({v})"),
        _ => format!("{v} == 0"),
    }
}

fn is_string(ty: &FieldType) -> bool {
    matches!(ty, FieldType::Scalar(ScalarType::String))
}

/// How a singular field holds its value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Holder {
    /// `m.X T`: implicit presence.
    Value,
    /// `m.X *T` (or `[]byte`, nil absent; or `*M`).
    Pointer,
    /// A oneof member: `m.O.(*M_X).X`.
    Oneof,
}

impl Emitter<'_> {
    fn message_names(&self, m: &MessageDef) -> &MessageNames {
        &self.names.fields[&m.full_name]
    }

    /// The Go spelling of a message or enum type in this package's file.
    fn type_ref(&mut self, full: &str) -> String {
        let t = &self.names.types[full];
        let path = t.import_path.clone();
        if path == self.import_path {
            return t.local.clone();
        }
        let alias = match self.imports.get(&path) {
            Some(a) => a.clone(),
            None => {
                let base = package_name(path.rsplit('/').next().unwrap_or("pb"));
                let mut alias = base.clone();
                let mut i = 2;
                // `base` has stepped aside from Go's reserved names (`package_name`),
                // but a suffix could land on one (`float` → `float32`). `wkt` is an
                // alias like any other.
                while self.imports.values().any(|a| *a == alias)
                    || GO_LOCALS.contains(&alias.as_str())
                    || self.locals.contains(&alias.as_str())
                    || GO_RESERVED.contains(&alias.as_str())
                {
                    alias = format!("{base}{i}");
                    i += 1;
                }
                self.imports.insert(path, alias.clone());
                alias
            }
        };
        format!("{alias}.{}", t.local)
    }

    /// Whether decoding a message of this type keeps unknown records when preserving:
    /// every type outside `google.protobuf` (SPEC §8.2's default preserving set).
    fn keeps(full: &str, schema_package: &str) -> bool {
        let _ = full;
        schema_package != WKT_PACKAGE
    }

    fn keeps_type(&self, full: &str) -> &'static str {
        let pkg = &self.names.types[full].package;
        if Self::keeps(full, pkg) {
            "true"
        } else {
            "false"
        }
    }

    /// The declaration of the stack array a map's sorted keys (bool) or entries go in
    /// (see [`sorted_loop`]).
    fn keys_array(&mut self, key: ScalarType, value: &FieldType) -> String {
        if key == ScalarType::Bool {
            format!("var ks [2]{}", scalar_go(key))
        } else {
            let v = self.element_type(value);
            format!("var ks [8]bijoubuf.Entry[{}, {v}]", scalar_go(key))
        }
    }

    /// The Go type of one element of `ty`.
    fn element_type(&mut self, ty: &FieldType) -> String {
        match ty {
            FieldType::Scalar(s) => scalar_go(*s).to_string(),
            FieldType::Message(m) => format!("*{}", self.type_ref(m)),
            FieldType::Enum(e) => self.type_ref(e),
        }
    }

    /// The fields `m`'s decode reads through its field table (see [`FIELD_TABLE_MIN`]):
    /// its singular scalar fields outside oneofs (of implicit or explicit presence),
    /// strings and bytes aside, numbered below [`FIELD_TABLE_NUMBERS`], when there are at
    /// least [`FIELD_TABLE_MIN`] of them and its other fields' cases fit one function (a
    /// decode in parts keeps its cases); else none.
    fn table_fields<'m>(&self, m: &'m MessageDef) -> Vec<&'m FieldDef> {
        if !self.field_tables {
            return Vec::new();
        }
        let in_table = |f: &FieldDef| {
            f.cardinality == Cardinality::Single
                && Self::holder(m, f) != Holder::Oneof
                && f.number < FIELD_TABLE_NUMBERS
                && matches!(f.ty, FieldType::Scalar(s) if !matches!(s, ScalarType::String | ScalarType::Bytes))
        };
        let mut table: Vec<&FieldDef> = m.fields.iter().filter(|f| in_table(f)).collect();
        let mut rest: Vec<&FieldDef> = m.fields.iter().filter(|f| !in_table(f)).collect();
        rest.sort_unstable_by_key(|f| f.number);
        if table.len() < FIELD_TABLE_MIN
            || (self.in_parts && decode_parts(rest.iter().map(|f| decode_weight(f))).len() > 1)
        {
            return Vec::new();
        }
        table.sort_unstable_by_key(|f| f.number);
        table
    }

    fn holder(m: &MessageDef, f: &FieldDef) -> Holder {
        if real_oneof(m, f).is_some() {
            Holder::Oneof
        } else if f.presence == Presence::Implicit && !matches!(f.ty, FieldType::Message(_)) {
            Holder::Value
        } else {
            Holder::Pointer
        }
    }

    /// The Go type of a field in its struct (or wrapper).
    fn field_type(&mut self, m: &MessageDef, f: &FieldDef) -> String {
        match &f.cardinality {
            Cardinality::Map { key, value } => {
                let v = self.element_type(value);
                format!("map[{}]{v}", scalar_go(*key))
            }
            Cardinality::Repeated => format!("[]{}", self.element_type(&f.ty)),
            Cardinality::Single => {
                let t = self.element_type(&f.ty);
                let pointer = Self::holder(m, f) == Holder::Pointer
                    && !matches!(
                        f.ty,
                        FieldType::Message(_) | FieldType::Scalar(ScalarType::Bytes)
                    );
                if pointer { format!("*{t}") } else { t }
            }
        }
    }

    fn enumeration(&mut self, e: &EnumDef) {
        let name = self.type_ref(&e.full_name);
        let consts = self.names.values[&e.full_name].clone();
        let body = &mut self.body;
        body.push_str(&comment_lines(
            &e.comments,
            "",
            &format!(
                "{name} is the enum {}: open (SPEC §3.6), so any int32 is a value; the named ones are constants.",
                e.full_name
            ),
            e.deprecated,
        ));
        let _ = writeln!(body, "type {name} int32\n");
        for (v, c) in e.values.iter().zip(&consts) {
            if v.deprecated {
                let _ = writeln!(
                    body,
                    "// {c} is {}.\n//\n// Deprecated: the schema marks this value deprecated.",
                    v.name
                );
            }
            let _ = writeln!(body, "const {c} {name} = {}", v.number);
        }
        let _ = writeln!(body);
        let _ = writeln!(
            body,
            "var enum_{name} = bijoubuf.EnumDesc{{FullName: {}, Closed: {}, Values: []bijoubuf.EnumValueDesc{{",
            go_string(&e.full_name),
            e.closed
        );
        for v in &e.values {
            let _ = writeln!(
                body,
                "\t{{Name: {}, Number: {}}},",
                go_string(&v.name),
                v.number
            );
        }
        let _ = writeln!(body, "}}}}\n");
        let _ = writeln!(
            body,
            "// String is the value's name, or its number when it has none."
        );
        let _ = writeln!(
            body,
            "func (x {name}) String() string {{\n\treturn enum_{name}.Format(int32(x))\n}}\n"
        );
        let _ = writeln!(body, "// EnumDesc describes {}.", e.full_name);
        let _ = writeln!(
            body,
            "func ({name}) EnumDesc() *bijoubuf.EnumDesc {{\n\treturn &enum_{name}\n}}\n"
        );
        let _ = writeln!(self.init, "\tbijoubuf.RegisterEnum(&enum_{name})");
    }

    fn message(&mut self, m: &MessageDef) {
        for e in &m.enums {
            self.enumeration(e);
        }
        let name = self.type_ref(&m.full_name);
        let short = m.name.clone();
        self.struct_decl(m, &name);
        self.oneof_decls(m, &name);
        self.getters(m, &name);
        let keeps = self.keeps_type(&m.full_name);
        let b = &mut self.body;
        let _ = writeln!(
            b,
            "// FullName is {}.\nfunc (*{name}) FullName() string {{\n\treturn {}\n}}\n",
            m.full_name,
            go_string(&m.full_name)
        );
        let _ = writeln!(
            b,
            "// BijoubufDesc describes {name}'s fields.\nfunc (*{name}) BijoubufDesc() *bijoubuf.MessageDesc {{\n\treturn &desc_{name}\n}}\n"
        );
        let _ = writeln!(
            b,
            "// BijoubufUnknown is the unknown records a preserving decode kept in this message.\nfunc (m *{name}) BijoubufUnknown() []bijoubuf.UnknownRecord {{\n\treturn bijoubuf.Unknowns(m.unknown)\n}}\n"
        );
        let _ = writeln!(
            b,
            "// Marshal is the canonical encoding of m, with the default limits.\nfunc (m *{name}) Marshal() ([]byte, error) {{\n\treturn m.MarshalOptions(bijoubuf.EncodeOptions{{}})\n}}\n"
        );
        let _ = writeln!(
            b,
            "// MarshalOptions is the canonical encoding of m under opts's limits.\nfunc (m *{name}) MarshalOptions(opts bijoubuf.EncodeOptions) ([]byte, error) {{\n\ts := bijoubuf.NewSizes(opts)\n\tn := m.BijoubufSize(&s, 1)\n\tif err := s.Check(n, {short}); err != nil {{\n\t\treturn nil, err\n\t}}\n\tw := bijoubuf.NewBackWriter(n)\n\tm.BijoubufWrite(&w)\n\treturn w.Bytes()\n}}\n",
            short = go_string(&short)
        );
        let _ = writeln!(
            b,
            "// Unmarshal decodes buf strictly into m, with the default limits.\nfunc (m *{name}) Unmarshal(buf []byte) error {{\n\t_, err := m.BijoubufUnmarshal(buf, bijoubuf.DecodeOptions{{}})\n\treturn err\n}}\n"
        );
        let _ = writeln!(
            b,
            "// UnmarshalOptions decodes buf into m under opts.\nfunc (m *{name}) UnmarshalOptions(buf []byte, opts bijoubuf.DecodeOptions) error {{\n\t_, err := m.BijoubufUnmarshal(buf, opts)\n\treturn err\n}}\n"
        );
        let _ = writeln!(
            b,
            "// BijoubufUnmarshal decodes buf into m under opts and returns the number of unknown\n// records kept (a preserving decode). On error m holds what was read before it.\nfunc (m *{name}) BijoubufUnmarshal(buf []byte, opts bijoubuf.DecodeOptions) (int, error) {{\n\t*m = {name}{{}}\n\tr, err := bijoubuf.StartDecode(buf, opts, {short}, {keeps})\n\tif err != nil {{\n\t\treturn 0, err\n\t}}\n\treturn r.EndDecode(m.BijoubufDecode(&r), {short})\n}}\n",
            short = go_string(&short)
        );
        self.size_fn(m, &name);
        self.write_fn(m, &name);
        self.decode_fn(m, &name);
        self.descriptor(m, &name);
    }

    fn struct_decl(&mut self, m: &MessageDef, name: &str) {
        // (alignment, field, type, doc)
        let mut lines: Vec<(u8, String, String, Option<String>)> = Vec::new();
        let mut oneofs_done = vec![false; m.oneofs.len()];
        for f in m.fields_in_declaration_order() {
            match real_oneof(m, f) {
                Some(i) => {
                    if !oneofs_done[i] {
                        oneofs_done[i] = true;
                        let field = self.message_names(m).oneofs[i].clone();
                        let doc = comment_lines(
                            &m.oneofs[i].comments,
                            "\t",
                            &format!(
                                "{field} is oneof {}: nil, or one of the {name}_* wrappers.",
                                m.oneofs[i].name
                            ),
                            false,
                        );
                        let iface = format!("is{name}_{field}");
                        lines.push((8, field, iface, Some(doc)));
                    }
                }
                None => {
                    let field = self.message_names(m).fields[&f.number].clone();
                    let ty = self.field_type(m, f);
                    let doc = if f.comments.leading.is_some()
                        || f.comments.trailing.is_some()
                        || f.deprecated
                    {
                        Some(comment_lines(
                            &f.comments,
                            "\t",
                            &format!("{field} is field {} ({}).", f.number, f.name),
                            f.deprecated,
                        ))
                    } else {
                        None
                    };
                    lines.push((go_alignment(&ty), field, ty, doc));
                }
            }
        }
        // Widest alignment first, declaration order within each: no padding between
        // fields, so the struct is as small as its fields allow (a bool between two
        // int64s would cost 7 bytes).
        lines.sort_by_key(|l| std::cmp::Reverse(l.0));
        // Behind a pointer: 8 bytes in every message, the records only when kept.
        lines.push((
            8,
            "unknown".to_string(),
            "*[]bijoubuf.UnknownRecord".to_string(),
            None,
        ));
        let lines: Vec<(String, String, Option<String>)> =
            lines.into_iter().map(|(_, f, t, d)| (f, t, d)).collect();
        let head = comment_lines(
            &m.comments,
            "",
            &format!("{name} is {}.", m.full_name),
            m.deprecated,
        );
        let b = &mut self.body;
        b.push_str(&head);
        let _ = writeln!(b, "type {name} struct {{");
        // gofmt aligns the types of consecutive fields.
        // A comment line ends a section of aligned lines.
        let mut i = 0;
        while i < lines.len() {
            let mut j = i + 1;
            while j < lines.len() && lines[j].2.is_none() {
                j += 1;
            }
            let widest = lines[i..j]
                .iter()
                .map(|(n, _, _)| n.len())
                .max()
                .unwrap_or(0);
            for (field, ty, doc) in &lines[i..j] {
                if let Some(d) = doc {
                    b.push_str(d);
                }
                let _ = writeln!(b, "\t{field:widest$} {ty}");
            }
            i = j;
        }
        let _ = writeln!(b, "}}\n");
    }

    /// protobuf-go's getters: `GetX()` for every field, safe on a nil message (so that
    /// `m.GetA().GetB()` needs no checks), returning the value, or for an unset field of
    /// explicit presence its schema default (proto2 `[default = …]`, an enum's first
    /// value) or zero; `GetPick()` for a oneof's interface and `GetS()` for each member.
    fn getters(&mut self, m: &MessageDef, name: &str) {
        let mut oneofs_done = vec![false; m.oneofs.len()];
        for f in m.fields_in_declaration_order() {
            let names = self.message_names(m);
            let field = names.fields[&f.number].clone();
            let getter = names.getters[&f.number].clone();
            let oneof = real_oneof(m, f);
            if let Some(i) = oneof
                && !oneofs_done[i]
            {
                oneofs_done[i] = true;
                let o = names.oneofs[i].clone();
                let og = names.oneof_getters[i].clone();
                let _ = writeln!(
                    self.body,
                    "// {og} is {o}, or nil when m is nil.\nfunc (m *{name}) {og}() is{name}_{o} {{\n\tif m != nil {{\n\t\treturn m.{o}\n\t}}\n\treturn nil\n}}\n"
                );
            }
            let ty = match f.cardinality {
                Cardinality::Single => self.element_type(&f.ty),
                _ => self.field_type(m, f),
            };
            let (default, said) = match f.cardinality {
                Cardinality::Single => self.default_value(f),
                _ => ("nil".to_string(), "nil".to_string()),
            };
            let deprecated = if f.deprecated {
                "\n//\n// Deprecated: the schema marks this deprecated."
            } else {
                ""
            };
            let body = match (oneof, Self::holder(m, f)) {
                (Some(i), _) => {
                    let og = self.message_names(m).oneof_getters[i].clone();
                    let wrapper = self.message_names(m).wrappers[&f.number].clone();
                    let _ = writeln!(
                        self.body,
                        "// {getter} is {field} when {og}() holds it, else {said}.{deprecated}"
                    );
                    format!(
                        "\tif o, ok := m.{og}().(*{wrapper}); ok && o != nil {{\n\t\treturn o.{field}\n\t}}\n\treturn {default}"
                    )
                }
                (None, Holder::Pointer)
                    if f.cardinality == Cardinality::Single
                        && !matches!(f.ty, FieldType::Message(_)) =>
                {
                    let deref = if f.ty == FieldType::Scalar(ScalarType::Bytes) {
                        ""
                    } else {
                        "*"
                    };
                    let _ = writeln!(
                        self.body,
                        "// {getter} is {field}'s value, or {said} when it is unset or m is nil.{deprecated}"
                    );
                    format!(
                        "\tif m != nil && m.{field} != nil {{\n\t\treturn {deref}m.{field}\n\t}}\n\treturn {default}"
                    )
                }
                _ => {
                    let _ = writeln!(
                        self.body,
                        "// {getter} is {field}, or {said} when m is nil.{deprecated}"
                    );
                    format!("\tif m != nil {{\n\t\treturn m.{field}\n\t}}\n\treturn {default}")
                }
            };
            let _ = writeln!(
                self.body,
                "func (m *{name}) {getter}() {ty} {{\n{body}\n}}\n"
            );
        }
    }

    /// What a getter returns for an unset singular field, as Go and as its doc says it:
    /// the schema's `[default = …]`, else an enum's first value (a closed enum's default;
    /// an open enum's first value is 0), else the type's zero.
    fn default_value(&mut self, f: &FieldDef) -> (String, String) {
        let zero = |s: &str| (s.to_string(), s.to_string());
        match &f.ty {
            FieldType::Message(_) => zero("nil"),
            FieldType::Enum(e) => {
                // The value's constant (`Level_MEDIUM`, `alias.Level_MEDIUM` from another
                // package).
                let ty = self.type_ref(e);
                let prefix = ty.rfind('.').map_or("", |dot| &ty[..=dot]).to_string();
                let values = self.names.enum_values.get(e.as_str());
                let index = values.and_then(|vs| match &f.default {
                    Some(d) => vs.iter().position(|(n, _)| n == d),
                    None => (!vs.is_empty()).then_some(0),
                });
                match (values, index) {
                    (Some(vs), Some(i)) if vs[i].1 != 0 => {
                        let c = &self.names.values[e.as_str()][i];
                        (format!("{prefix}{c}"), vs[i].0.clone())
                    }
                    (Some(vs), Some(i)) => ("0".to_string(), vs[i].0.clone()),
                    _ => zero("0"),
                }
            }
            FieldType::Scalar(s) => f
                .default
                .as_deref()
                .and_then(|text| go_default(*s, text))
                .unwrap_or_else(|| match s {
                    ScalarType::Bool => zero("false"),
                    ScalarType::String => zero("\"\""),
                    ScalarType::Bytes => zero("nil"),
                    _ => zero("0"),
                }),
        }
    }

    fn oneof_decls(&mut self, m: &MessageDef, name: &str) {
        for (i, o) in m.oneofs.iter().enumerate() {
            if o.synthetic {
                continue;
            }
            let field = self.message_names(m).oneofs[i].clone();
            let iface = format!("is{name}_{field}");
            let _ = writeln!(
                self.body,
                "type {iface} interface {{\n\tis{name}_{field}()\n}}\n"
            );
            for f in m.fields.iter().filter(|f| f.oneof == Some(i)) {
                let wrapper = self.message_names(m).wrappers[&f.number].clone();
                let member = self.message_names(m).fields[&f.number].clone();
                let ty = self.field_type(m, f);
                let doc = comment_lines(
                    &f.comments,
                    "",
                    &format!(
                        "{wrapper} is {name}.{field} holding {} (field {}).",
                        f.name, f.number
                    ),
                    f.deprecated,
                );
                self.body.push_str(&doc);
                let marker = gofmt::func_decl(&format!("func (*{wrapper}) {iface}()"), "");
                let _ = writeln!(
                    self.body,
                    "type {wrapper} struct {{\n\t{member} {ty}\n}}\n\n{marker}\n"
                );
            }
        }
    }

    /// How the value of singular field `f` is reached: a condition-introducing statement
    /// head (`if v := m.X; v != 0`) binding `v`, for both passes.
    /// With `bind` false the value is not bound (a size pass of a fixed-size value).
    fn singular_head(&mut self, m: &MessageDef, f: &FieldDef, bind: bool) -> String {
        let names = self.message_names(m);
        let field = names.fields[&f.number].clone();
        match Self::holder(m, f) {
            Holder::Value => format!("if v := m.{field}; {}", not_default(&f.ty, "v")),
            Holder::Pointer => match &f.ty {
                FieldType::Message(_) | FieldType::Scalar(ScalarType::Bytes) => {
                    format!("if v := m.{field}; v != nil")
                }
                _ if !bind => format!("if m.{field} != nil"),
                _ => format!("if p := m.{field}; p != nil {{\n\t\tv := *p\n\t\t//\n"),
            },
            Holder::Oneof => {
                let i = real_oneof(m, f).unwrap_or_default();
                let o = names.oneofs[i].clone();
                let wrapper = names.wrappers[&f.number].clone();
                if bind {
                    format!(
                        "if o, ok := m.{o}.(*{wrapper}); ok && o != nil {{\n\t\tv := o.{field}\n\t\t//\n"
                    )
                } else {
                    format!("if o, ok := m.{o}.(*{wrapper}); ok && o != nil")
                }
            }
        }
    }

    fn size_fn(&mut self, m: &MessageDef, name: &str) {
        let mut b = String::new();
        let _ = writeln!(
            b,
            "// BijoubufSize is the size pass of an encode (see bijoubuf.Encode).\nfunc (m *{name}) BijoubufSize(s *bijoubuf.Sizes, depth int) int {{"
        );
        let required: Vec<&FieldDef> = m
            .fields
            .iter()
            .filter(|f| f.presence == Presence::Required && f.cardinality == Cardinality::Single)
            .collect();
        match required.first() {
            Some(f) => {
                let _ = writeln!(
                    b,
                    "\tif m == nil {{\n\t\treturn s.Missing({})\n\t}}",
                    go_string(&f.name)
                );
            }
            None => b.push_str("\tif m == nil {\n\t\treturn 0\n\t}\n"),
        }
        for f in &required {
            let field = self.message_names(m).fields[&f.number].clone();
            let _ = writeln!(
                b,
                "\tif m.{field} == nil {{\n\t\treturn s.Missing({})\n\t}}",
                go_string(&f.name)
            );
        }
        b.push_str("\tn := 0\n\tvar prev uint32\n\tu := bijoubuf.Unknowns(m.unknown)\n");
        let _ = writeln!(
            b,
            "\tif len(u) != 0 && !s.CheckUnknown(u, &desc_{name}) {{\n\t\treturn 0\n\t}}"
        );
        let groups = oneof_groups(m);
        let mut cases = String::new();
        let mut last: Option<(usize, usize)> = None;
        let mut cuts = EncodeCuts::new(self.in_parts, m, b.len());
        for (idx, f) in m.fields.iter().enumerate() {
            if let Some((i, start)) = last.take() {
                self.oneof_case(m, &groups, i, start, true, &mut b, &mut cases);
            }
            cuts.field(f, b.len(), cases.is_empty());
            last = Some((idx, b.len()));
            let n = f.number;
            let _ = writeln!(
                b,
                "\tif len(u) != 0 {{\n\t\tu, n, prev = bijoubuf.UnknownBefore(u, {n}, n, prev)\n\t}}"
            );
            let key = if n <= 62 {
                "1".to_string()
            } else {
                format!("bijoubuf.KeySize(prev, {n})")
            };
            let path = go_string(&f.name);
            match &f.cardinality {
                Cardinality::Single => {
                    let bind = match &f.ty {
                        FieldType::Message(_) => true,
                        ty => size_expr(ty, "v").contains('v'),
                    };
                    let head = self.singular_head(m, f, bind);
                    let (open, close) = open_close(&head);
                    let _ = writeln!(b, "\t{open}");
                    match &f.ty {
                        FieldType::Message(_) => {
                            let _ = writeln!(
                                b,
                                "\t\tif !s.Enter(depth, {path}) {{\n\t\t\treturn 0\n\t\t}}\n\t\tc := v.BijoubufSize(s, depth+1)\n\t\tif !s.Leave({path}) {{\n\t\t\treturn 0\n\t\t}}\n\t\tn += {key} + bijoubuf.LenSize(c)"
                            );
                        }
                        ty => {
                            if is_string(ty) {
                                let _ = writeln!(
                                    b,
                                    "\t\tif !bijoubuf.ValidString(v) {{\n\t\t\treturn s.BadString({path})\n\t\t}}"
                                );
                            }
                            let _ = writeln!(b, "\t\tn += {key} + {}", size_expr(ty, "v"));
                        }
                    }
                    let _ = writeln!(b, "\t\tprev = {n}\n\t{close}");
                }
                Cardinality::Repeated => {
                    let field = self.message_names(m).fields[&f.number].clone();
                    let _ = writeln!(b, "\tif len(m.{field}) != 0 {{");
                    let w = fixed_size(&f.ty);
                    if w > 0 {
                        let _ = writeln!(b, "\t\tc := len(m.{field}) * {w}");
                    } else {
                        let _ = writeln!(b, "\t\tc := 0\n\t\tfor _, v := range m.{field} {{");
                        match &f.ty {
                            FieldType::Message(_) => {
                                let _ = writeln!(
                                    b,
                                    "\t\t\tif !s.Enter(depth, {path}) {{\n\t\t\t\treturn 0\n\t\t\t}}\n\t\t\tec := v.BijoubufSize(s, depth+1)\n\t\t\tif !s.Leave({path}) {{\n\t\t\t\treturn 0\n\t\t\t}}\n\t\t\tc += bijoubuf.LenSize(ec)"
                                );
                            }
                            ty => {
                                if is_string(ty) {
                                    let _ = writeln!(
                                        b,
                                        "\t\t\tif !bijoubuf.ValidString(v) {{\n\t\t\t\treturn s.BadString({path})\n\t\t\t}}"
                                    );
                                }
                                let _ = writeln!(b, "\t\t\tc += {}", size_expr(ty, "v"));
                            }
                        }
                        b.push_str("\t\t}\n");
                    }
                    let _ = writeln!(
                        b,
                        "\t\tn += {key} + bijoubuf.LenSize(c)\n\t\tprev = {n}\n\t}}"
                    );
                }
                Cardinality::Map { key: kt, value } => {
                    let field = self.message_names(m).fields[&f.number].clone();
                    let kty = FieldType::Scalar(*kt);
                    let _ = writeln!(b, "\tif len(m.{field}) != 0 {{\n\t\tc := 0");
                    let msg_value = matches!(value, FieldType::Message(_));
                    if msg_value {
                        // Walked in key order, so that the first refusal is the same on every run.
                        let ks = self.keys_array(*kt, value);
                        let uses_key = size_expr(&kty, "k").contains('k') || is_string(&kty);
                        let _ = writeln!(
                            b,
                            "\t\t{ks}\n\t\t{}",
                            sorted_loop(*kt, &format!("m.{field}"), uses_key)
                        );
                    } else {
                        let kv = if size_expr(&kty, "k").contains('k') || is_string(&kty) {
                            "k"
                        } else {
                            "_"
                        };
                        let vv = if size_expr(value, "v").contains('v') || is_string(value) {
                            "v"
                        } else {
                            "_"
                        };
                        if kv == "_" && vv == "_" {
                            let _ = writeln!(b, "\t\tfor range m.{field} {{");
                        } else if vv == "_" {
                            let _ = writeln!(b, "\t\tfor {kv} := range m.{field} {{");
                        } else {
                            let _ = writeln!(b, "\t\tfor {kv}, {vv} := range m.{field} {{");
                        }
                    }
                    if is_string(&kty) {
                        let _ = writeln!(
                            b,
                            "\t\t\tif !bijoubuf.ValidString(k) {{\n\t\t\t\treturn s.BadString({path})\n\t\t\t}}"
                        );
                    }
                    if is_string(value) {
                        let _ = writeln!(
                            b,
                            "\t\t\tif !bijoubuf.ValidString(v) {{\n\t\t\t\treturn s.BadString({path})\n\t\t\t}}"
                        );
                    }
                    if msg_value {
                        let _ = writeln!(
                            b,
                            "\t\t\tif !s.Enter(depth, {path}) {{\n\t\t\t\treturn 0\n\t\t\t}}\n\t\t\tec := v.BijoubufSize(s, depth+1)\n\t\t\tif !s.Leave({path}) {{\n\t\t\t\treturn 0\n\t\t\t}}\n\t\t\tc += {} + bijoubuf.LenSize(ec)",
                            size_expr(&kty, "k")
                        );
                    } else {
                        let _ = writeln!(
                            b,
                            "\t\t\tc += {} + {}",
                            size_expr(&kty, "k"),
                            size_expr(value, "v")
                        );
                    }
                    let _ = writeln!(
                        b,
                        "\t\t}}\n\t\tn += {key} + bijoubuf.LenSize(c)\n\t\tprev = {n}\n\t}}"
                    );
                }
            }
        }
        if let Some((i, start)) = last.take() {
            self.oneof_case(m, &groups, i, start, true, &mut b, &mut cases);
        }
        let mut fns = String::new();
        for (k, text) in cuts.parts(&mut b).into_iter().enumerate() {
            let k = k + 1;
            let _ = writeln!(
                b,
                "\tif m.bijoubufSize{k}(s, depth, &n, &prev, &u) == 0 {{\n\t\treturn 0\n\t}}"
            );
            let _ = write!(
                fns,
                "// bijoubufSize{k} is a part of BijoubufSize, which hands it its running total,\n// the last field's number and the unknown records left, and gets them back. It\n// returns 0 when the pass fails, else 1.\nfunc (m *{name}) bijoubufSize{k}(s *bijoubuf.Sizes, depth int, pn *int, pprev *uint32, pu *[]bijoubuf.UnknownRecord) int {{\n\tn, prev, u := *pn, *pprev, *pu\n{text}\t*pn, *pprev, *pu = n, prev, u\n\treturn 1\n}}\n\n"
            );
        }
        b.push_str("\tif len(u) != 0 {\n\t\t_, n, _ = bijoubuf.UnknownBefore(u, bijoubuf.MaxFieldNumber+1, n, prev)\n\t}\n\treturn n\n}\n\n");
        self.body.push_str(&b);
        self.body.push_str(&fns);
    }

    /// Where field `idx` of `m` is a member of a oneof whose members are neighbours
    /// (see [`oneof_groups`]), move the code emitted for it (from `start` of `b`) into
    /// `cases` as a case of a type switch on the oneof, and after its last member (in
    /// the pass's order: `forward`, or from the last field) emit the switch: one
    /// dispatch instead of a type assertion per member. The unknown records the members'
    /// code re-emits before them keep their place: the calls skipped for absent members
    /// are only where one run of records was split from the next.
    #[allow(clippy::too_many_arguments)]
    fn oneof_case(
        &mut self,
        m: &MessageDef,
        groups: &[Option<OneofGroup>],
        idx: usize,
        start: usize,
        forward: bool,
        b: &mut String,
        cases: &mut String,
    ) {
        let Some(g) = groups[idx] else {
            return;
        };
        let f = &m.fields[idx];
        let names = self.message_names(m);
        let o = names.oneofs[g.oneof].clone();
        let wrapper = names.wrappers[&f.number].clone();
        let text = b.split_off(start);
        let head = format!("if o, ok := m.{o}.(*{wrapper}); ok && o != nil {{");
        debug_assert!(text.contains(&head), "no `{head}` in {text}");
        let text = text.replacen(&head, "if o != nil {", 1);
        let _ = writeln!(cases, "\tcase *{wrapper}:");
        for line in text.lines() {
            if line.is_empty() {
                cases.push('\n');
            } else {
                let _ = writeln!(cases, "\t{line}");
            }
        }
        if idx == if forward { g.last } else { g.first } {
            let _ = write!(b, "\tswitch o := m.{o}.(type) {{\n{cases}\t}}\n");
            cases.clear();
        }
    }

    /// The write pass: the fields from the last to the first, each value before its key
    /// (see `bijoubuf.BackWriter`), repeated elements and map entries in reverse.
    fn write_fn(&mut self, m: &MessageDef, name: &str) {
        let mut b = String::new();
        let _ = writeln!(
            b,
            "// BijoubufWrite is the write pass of an encode (see bijoubuf.Encode), from the last\n// field to the first.\nfunc (m *{name}) BijoubufWrite(w *bijoubuf.BackWriter) {{\n\tif m == nil {{\n\t\treturn\n\t}}\n\tu := bijoubuf.Unknowns(m.unknown)"
        );
        let groups = oneof_groups(m);
        let mut cases = String::new();
        let mut last: Option<(usize, usize)> = None;
        let mut cuts = EncodeCuts::new(self.in_parts, m, b.len());
        for (idx, f) in m.fields.iter().enumerate().rev() {
            if let Some((i, start)) = last.take() {
                self.oneof_case(m, &groups, i, start, false, &mut b, &mut cases);
            }
            cuts.field(f, b.len(), cases.is_empty());
            last = Some((idx, b.len()));
            let n = f.number;
            let _ = writeln!(
                b,
                "\tif len(u) != 0 {{\n\t\tu = w.UnknownAfter(u, {n})\n\t}}"
            );
            match &f.cardinality {
                Cardinality::Single => {
                    let head = self.singular_head(m, f, true);
                    let (open, close) = open_close(&head);
                    let _ = writeln!(b, "\t{open}");
                    match &f.ty {
                        FieldType::Message(_) => {
                            let _ = writeln!(
                                b,
                                "\t\tmk := w.OpenField({n})\n\t\tv.BijoubufWrite(w)\n\t\tw.Close(mk)"
                            );
                        }
                        ty => {
                            let _ = writeln!(b, "\t\t{}", field_write_stmt(ty, n, "v"));
                        }
                    }
                    let _ = writeln!(b, "\t{close}");
                }
                Cardinality::Repeated => {
                    let field = self.message_names(m).fields[&f.number].clone();
                    // Fixed-width runs are written in one call (one room check).
                    let bulk = match &f.ty {
                        FieldType::Scalar(ScalarType::Double) => Some("Float64s"),
                        FieldType::Scalar(ScalarType::Float) => Some("Float32s"),
                        FieldType::Scalar(ScalarType::Fixed64) => Some("Fixed64s"),
                        FieldType::Scalar(ScalarType::Sfixed64) => Some("Sfixed64s"),
                        FieldType::Scalar(ScalarType::Fixed32) => Some("Fixed32s"),
                        FieldType::Scalar(ScalarType::Sfixed32) => Some("Sfixed32s"),
                        _ => None,
                    };
                    if let Some(bulk) = bulk {
                        let _ = writeln!(
                            b,
                            "\tif len(m.{field}) != 0 {{\n\t\tmk := w.OpenField({n})\n\t\tw.{bulk}(m.{field})\n\t\tw.Close(mk)\n\t}}"
                        );
                        continue;
                    }
                    let _ = writeln!(
                        b,
                        "\tif x := m.{field}; len(x) != 0 {{\n\t\tmk := w.OpenField({n})\n\t\tfor i := len(x) - 1; i >= 0; i-- {{\n\t\t\tv := x[i]"
                    );
                    match &f.ty {
                        FieldType::Message(_) => {
                            b.push_str("\t\t\tek := w.Open()\n\t\t\tv.BijoubufWrite(w)\n\t\t\tw.Close(ek)\n");
                        }
                        ty => {
                            let _ = writeln!(b, "\t\t\t{}", write_stmt(ty, "v"));
                        }
                    }
                    b.push_str("\t\t}\n\t\tw.Close(mk)\n\t}\n");
                }
                Cardinality::Map { key: kt, value } => {
                    let field = self.message_names(m).fields[&f.number].clone();
                    let kty = FieldType::Scalar(*kt);
                    let ks = self.keys_array(*kt, value);
                    let _ = writeln!(
                        b,
                        "\tif len(m.{field}) != 0 {{\n\t\tmk := w.OpenField({n})\n\t\t{ks}\n\t\t{}",
                        sorted_loop_rev(*kt, &format!("m.{field}"))
                    );
                    match value {
                        FieldType::Message(_) => {
                            b.push_str("\t\t\tek := w.Open()\n\t\t\tv.BijoubufWrite(w)\n\t\t\tw.Close(ek)\n");
                        }
                        ty => {
                            let _ = writeln!(b, "\t\t\t{}", write_stmt(ty, "v"));
                        }
                    }
                    let _ = writeln!(
                        b,
                        "\t\t\t{}\n\t\t}}\n\t\tw.Close(mk)\n\t}}",
                        write_stmt(&kty, "k")
                    );
                }
            }
        }
        if let Some((i, start)) = last.take() {
            self.oneof_case(m, &groups, i, start, false, &mut b, &mut cases);
        }
        // The parts from the last fields to the first, numbered from the first.
        let parts = cuts.parts(&mut b);
        let mut fns = String::new();
        for (k, text) in parts.iter().enumerate() {
            let k = parts.len() - k;
            let _ = writeln!(b, "\tu = m.bijoubufWrite{k}(w, u)");
            let _ = write!(
                fns,
                "// bijoubufWrite{k} is a part of BijoubufWrite: it writes its fields and the unknown\n// records among them, and returns the unknown records left.\nfunc (m *{name}) bijoubufWrite{k}(w *bijoubuf.BackWriter, u []bijoubuf.UnknownRecord) []bijoubuf.UnknownRecord {{\n{text}\treturn u\n}}\n\n"
            );
        }
        b.push_str("\tif len(u) != 0 {\n\t\tw.UnknownAfter(u, 0)\n\t}\n}\n\n");
        self.body.push_str(&b);
        self.body.push_str(&fns);
    }

    fn decode_fn(&mut self, m: &MessageDef, name: &str) {
        // One loop over the records in byte order, a switch on the field number: delta
        // keys make the numbers strictly ascending (SPEC §4.1), so each case runs at most
        // once and every check happens in byte order (SPEC §10.1).
        let mut b = String::new();
        // Each case's text (header at two tabs, body at three) and its weight, placed
        // below.
        let mut cases: Vec<(u32, String)> = Vec::new();
        let mut weights: Vec<usize> = Vec::new();
        let table = self.table_fields(m);
        let in_table: std::collections::BTreeSet<u32> = table.iter().map(|f| f.number).collect();
        for f in &m.fields {
            if in_table.contains(&f.number) {
                continue;
            }
            let n = f.number;
            let path = go_string(&f.name);
            let field = self.message_names(m).fields[&f.number].clone();
            let w = match f.cardinality {
                Cardinality::Single => wire(&f.ty),
                _ => "bijoubuf.WireLen",
            };
            let before_case = std::mem::take(&mut b);
            let _ = writeln!(
                b,
                "\t\tcase {n}:\n\t\t\tif wt != {w} {{\n\t\t\t\treturn r.WireMismatch({path})\n\t\t\t}}"
            );
            // The case's body, written at two tabs and indented by one more below.
            let outer = std::mem::take(&mut b);
            match &f.cardinality {
                Cardinality::Single => {
                    let holder = Self::holder(m, f);
                    if holder == Holder::Oneof {
                        let i = real_oneof(m, f).unwrap_or_default();
                        let o = self.message_names(m).oneofs[i].clone();
                        let _ = writeln!(
                            b,
                            "\t\tif m.{o} != nil {{\n\t\t\treturn r.OneofConflict({path})\n\t\t}}"
                        );
                    }
                    let value = match &f.ty {
                        FieldType::Message(full) => {
                            let t = self.type_ref(full);
                            let keeps = self.keeps_type(full);
                            // A oneof's message and its wrapper are one allocation: the
                            // wrapper points into the struct holding both.
                            let alloc = if holder == Holder::Oneof {
                                let wrapper = self.message_names(m).wrappers[&f.number].clone();
                                format!(
                                    "x := new(struct {{\n\t\t\tw {wrapper}\n\t\t\tv {t}\n\t\t}})\n\t\tv := &x.v"
                                )
                            } else {
                                format!("v := new({t})")
                            };
                            let _ = write!(
                                b,
                                "\t\tif err := r.CheckDepth({path}); err != nil {{\n\t\t\treturn err\n\t\t}}\n\t\t{alloc}\n{}",
                                decode_nested(
                                    keeps,
                                    "\t\t",
                                    &format!("bijoubuf.InField(derr, {path})")
                                )
                            );
                            "v".to_string()
                        }
                        ty => {
                            b.push_str(&read_field_value(
                                ty,
                                "\t\t",
                                &path,
                                holder == Holder::Value,
                            ));
                            match ty {
                                FieldType::Enum(e) => format!("{}(v)", self.type_ref(e)),
                                _ => "v".to_string(),
                            }
                        }
                    };
                    match holder {
                        Holder::Oneof => {
                            let i = real_oneof(m, f).unwrap_or_default();
                            let o = self.message_names(m).oneofs[i].clone();
                            let wrapper = self.message_names(m).wrappers[&f.number].clone();
                            if matches!(f.ty, FieldType::Message(_)) {
                                let _ = writeln!(b, "\t\tx.w.{field} = v\n\t\tm.{o} = &x.w");
                            } else {
                                let _ = writeln!(b, "\t\tm.{o} = &{wrapper}{{{field}: {value}}}");
                            }
                        }
                        Holder::Pointer
                            if !matches!(
                                f.ty,
                                FieldType::Message(_) | FieldType::Scalar(ScalarType::Bytes)
                            ) =>
                        {
                            if value == "v" {
                                let _ = writeln!(b, "\t\tm.{field} = &v");
                            } else {
                                let _ = writeln!(b, "\t\te := {value}\n\t\tm.{field} = &e");
                            }
                        }
                        _ => {
                            let _ = writeln!(b, "\t\tm.{field} = {value}");
                        }
                    }
                }
                Cardinality::Repeated => match &f.ty {
                    FieldType::Message(full) => {
                        let t = self.type_ref(full);
                        let keeps = self.keeps_type(full);
                        let _ = writeln!(
                            b,
                            "\t\tif err := r.CheckDepth({path}); err != nil {{\n\t\t\treturn err\n\t\t}}\n\t\touter, err := r.OpenRun({path}, 0)\n\t\tif err != nil {{\n\t\t\treturn err\n\t\t}}\n\t\tn := r.CountLens()\n\t\tm.{field} = make([]*{t}, 0, n)\n\t\tvs := make([]{t}, n)\n\t\tfor i := 0; !r.AtEnd(); i++ {{\n\t\t\tvar v *{t}\n\t\t\tif i < n {{\n\t\t\t\tv = &vs[i]\n\t\t\t}} else {{\n\t\t\t\tv = new({t})\n\t\t\t}}\n{}\t\t\tm.{field} = append(m.{field}, v)\n\t\t}}\n\t\tr.CloseRun(outer)",
                            decode_nested(
                                keeps,
                                "\t\t\t",
                                &format!("bijoubuf.InElement(derr, i, {path})")
                            )
                        );
                    }
                    ty => {
                        let value = match ty {
                            FieldType::Enum(e) => format!("{}(v)", self.type_ref(e)),
                            _ => "v".to_string(),
                        };
                        let t = self.element_type(ty);
                        let w = width(ty);
                        // The slice is made once, at the element count the record
                        // carries: its length over a fixed width, else its elements'
                        // tags or length prefixes walked ahead.
                        let count = if w > 0 {
                            format!("r.Left()/{w}")
                        } else if wire(ty) == "bijoubuf.WireLen" {
                            "r.CountLens()".to_string()
                        } else {
                            "r.CountVarints()".to_string()
                        };
                        let _ = write!(
                            b,
                            "\t\touter, err := r.OpenRun({path}, {w})\n\t\tif err != nil {{\n\t\t\treturn err\n\t\t}}\n\t\tm.{field} = make([]{t}, 0, {count})\n"
                        );
                        // Fixed-width runs are read whole, in one call.
                        let bulk = match ty {
                            FieldType::Scalar(ScalarType::Double) => Some(("ReadFloat64s", true)),
                            FieldType::Scalar(ScalarType::Float) => Some(("ReadFloat32s", true)),
                            FieldType::Scalar(ScalarType::Fixed64 | ScalarType::Sfixed64) => {
                                Some(("ReadFixed64s", false))
                            }
                            FieldType::Scalar(ScalarType::Fixed32 | ScalarType::Sfixed32) => {
                                Some(("ReadFixed32s", false))
                            }
                            _ => None,
                        };
                        match bulk {
                            Some((read, true)) => {
                                let _ = writeln!(
                                    b,
                                    "\t\tif m.{field}, err = bijoubuf.{read}(r, m.{field}); err != nil {{\n\t\t\treturn bijoubuf.InElement(err, len(m.{field}), {path})\n\t\t}}\n\t\tr.CloseRun(outer)"
                                );
                            }
                            Some((read, false)) => {
                                let _ = writeln!(
                                    b,
                                    "\t\tm.{field} = bijoubuf.{read}(r, m.{field})\n\t\tr.CloseRun(outer)"
                                );
                            }
                            None => {
                                let _ = writeln!(
                                    b,
                                    "\t\tfor i := 0; !r.AtEnd(); i++ {{\n{}\t\t\tm.{field} = append(m.{field}, {value})\n\t\t}}\n\t\tr.CloseRun(outer)",
                                    read_value(
                                        ty,
                                        "\t\t\t",
                                        &format!("bijoubuf.InElement(err, i, {path})")
                                    )
                                );
                            }
                        }
                    }
                },
                Cardinality::Map { key: kt, value } => {
                    let kgo = scalar_go(*kt);
                    let vgo = self.element_type(value);
                    let kty = FieldType::Scalar(*kt);
                    let (compare, seg) = match kt {
                        ScalarType::Bool => (
                            "bijoubuf.CompareBool".to_string(),
                            "bijoubuf.BoolKey".to_string(),
                        ),
                        ScalarType::String => (
                            "bijoubuf.Compare[string]".to_string(),
                            "bijoubuf.StringKey".to_string(),
                        ),
                        ScalarType::Uint32
                        | ScalarType::Fixed32
                        | ScalarType::Uint64
                        | ScalarType::Fixed64 => (
                            format!("bijoubuf.Compare[{kgo}]"),
                            format!("bijoubuf.UnsignedKey[{kgo}]"),
                        ),
                        _ => (
                            format!("bijoubuf.Compare[{kgo}]"),
                            format!("bijoubuf.SignedKey[{kgo}]"),
                        ),
                    };
                    if matches!(value, FieldType::Message(_)) {
                        let _ = writeln!(
                            b,
                            "\t\tif err := r.CheckDepth({path}); err != nil {{\n\t\t\treturn err\n\t\t}}"
                        );
                    }
                    let _ = writeln!(
                        b,
                        "\t\touter, err := r.OpenRun({path}, 0)\n\t\tif err != nil {{\n\t\t\treturn err\n\t\t}}\n\t\tx := make(map[{kgo}]{vgo})\n\t\tvar last {kgo}\n\t\tfor i := 0; !r.AtEnd(); i++ {{\n\t\t\tat := r.Pos()\n\t\t\tk, err := r.{}()\n\t\t\tif err != nil {{\n\t\t\t\treturn bijoubuf.InField(err, {path})\n\t\t\t}}\n\t\t\tif i > 0 && {compare}(k, last) <= 0 {{\n\t\t\t\treturn bijoubuf.KeyOrderError(at, {seg}(k), {path})\n\t\t\t}}",
                        read_method(&kty)
                    );
                    match value {
                        FieldType::Message(full) => {
                            let t = self.type_ref(full);
                            let keeps = self.keeps_type(full);
                            let _ = writeln!(
                                b,
                                "\t\t\tv := new({t})\n{}\t\t\tx[k] = v",
                                decode_nested(
                                    keeps,
                                    "\t\t\t",
                                    &format!("bijoubuf.InEntry(derr, {seg}(k), {path})")
                                )
                            );
                        }
                        ty => {
                            let conv = match ty {
                                FieldType::Enum(e) => format!("{}(v)", self.type_ref(e)),
                                _ => "v".to_string(),
                            };
                            let _ = writeln!(
                                b,
                                "\t\t\tv, err := r.{}()\n\t\t\tif err != nil {{\n\t\t\t\treturn bijoubuf.InEntry(err, {seg}(k), {path})\n\t\t\t}}\n\t\t\tx[k] = {conv}",
                                read_method(ty)
                            );
                        }
                    }
                    let _ = writeln!(
                        b,
                        "\t\t\tlast = k\n\t\t}}\n\t\tr.CloseRun(outer)\n\t\tm.{field} = x"
                    );
                }
            }
            let body = std::mem::replace(&mut b, outer);
            b.push_str(&indent(&body, 1));
            let case = std::mem::replace(&mut b, before_case);
            cases.push((n, case));
            weights.push(decode_weight(f));
        }
        let mut order: Vec<usize> = (0..cases.len()).collect();
        order.sort_unstable_by_key(|&i| cases[i].0);
        let parts = if self.in_parts {
            decode_parts(order.iter().map(|&i| weights[i]))
        } else {
            vec![cases.len()]
        };
        let next_key = "\t\t\tvar err error\n\t\t\tif n, wt, err = r.Next(); err != nil {\n\t\t\t\treturn err\n\t\t\t}\n\t\t}\n";
        let mut fns = String::new();
        let _ = write!(
            b,
            "// BijoubufDecode reads m's fields from r (see bijoubuf.Reader), m being empty."
        );
        if parts.len() <= 1 {
            let lookup = if table.is_empty() {
                String::new()
            } else {
                self.uses_unsafe = true;
                let _ = write!(
                    fns,
                    "// bijoubufTable{name} is {name}'s field table (see bijoubuf.FieldSlot).\nvar bijoubufTable{name} = func() (t [{}]bijoubuf.FieldSlot) {{\n",
                    table.last().map_or(0, |f| f.number) + 1
                );
                // The table decoder's cases: each scalar type and presence among the
                // fields, in the order they first come.
                let mut kinds: Vec<(ScalarType, bool)> = Vec::new();
                for f in &table {
                    let field = self.message_names(m).fields[&f.number].clone();
                    if let FieldType::Scalar(st) = f.ty {
                        let kind = (st, Self::holder(m, f) == Holder::Pointer);
                        let case = match kinds.iter().position(|&k| k == kind) {
                            Some(i) => i + 1,
                            None => {
                                kinds.push(kind);
                                kinds.len()
                            }
                        };
                        let _ = writeln!(
                            fns,
                            "\tt[{}] = bijoubuf.FieldSlot{{Case: {case}, Off: unsafe.Offsetof({name}{{}}.{field}), Name: {}}}",
                            f.number,
                            go_string(&f.name)
                        );
                    }
                }
                fns.push_str("\treturn t\n}()\n\n");
                table_lookup(name, &kinds)
            };
            let _ = write!(
                b,
                "\nfunc (m *{name}) BijoubufDecode(r *bijoubuf.Reader) error {{\n\tfor {{\n\t\tn, wt, ok := r.NextFast()\n\t\tif !ok {{\n\t\t\tif r.AtEnd() {{\n\t\t\t\tbreak\n\t\t\t}}\n{next_key}{lookup}{}\t}}\n",
                decode_switch(cases, None)
            );
        } else {
            let mut cases: Vec<Option<(u32, String)>> = cases.into_iter().map(Some).collect();
            let mut sorted = order.iter().map(|&i| cases[i].take().unwrap_or_default());
            // A large message is read in parts, each a function of its own: Go inlines
            // nothing more than a few nodes into a function past its size limit (5,000
            // nodes), so the reader's fast paths would each be a call.
            let _ = write!(
                b,
                "\n// It reads them in parts (bijoubufDecode1, …), each small enough for Go to inline\n// the reader's fast paths into it.\nfunc (m *{name}) BijoubufDecode(r *bijoubuf.Reader) error {{\n\tn, wt, ok := r.NextFast()\n\tif !ok {{\n\t\tif r.AtEnd() {{\n\t\t\tn = 0\n\t\t}} else {{\n\t\t\tvar err error\n\t\t\tif n, wt, err = r.Next(); err != nil {{\n\t\t\t\treturn err\n\t\t\t}}\n\t\t}}\n\t}}\n"
            );
            let mut low = 0u32;
            for (k, &len) in parts.iter().enumerate() {
                let part: Vec<(u32, String)> = sorted.by_ref().take(len).collect();
                let high = part.last().map_or(low, |c| c.0);
                let last = k + 1 == parts.len();
                let k = k + 1;
                let bound = if last {
                    String::new()
                } else {
                    format!(" && n <= {high}")
                };
                let _ = writeln!(
                    b,
                    "\tif n != 0{bound} {{\n\t\tif err := m.bijoubufDecode{k}(r, &n, &wt); err != nil {{\n\t\t\treturn err\n\t\t}}\n\t}}"
                );
                let range = if last {
                    format!("past field {low}")
                } else if low == 0 {
                    format!("up to field {high}")
                } else {
                    format!("past field {low} up to field {high}")
                };
                let stop = (!last).then_some(high);
                let _ = write!(
                    fns,
                    "// bijoubufDecode{k} is a part of BijoubufDecode: m's records {range},\n// unknown numbers among them included, from the one whose key *pn and *pwt hold.\n// It leaves there the next record's key, or 0 in *pn when none is left.\nfunc (m *{name}) bijoubufDecode{k}(r *bijoubuf.Reader, pn *uint32, pwt *bijoubuf.WireType) error {{\n\tn, wt := *pn, *pwt\n\tfor {{\n{}\t\tvar ok bool\n\t\tif n, wt, ok = r.NextFast(); !ok {{\n\t\t\tif r.AtEnd() {{\n\t\t\t\t*pn = 0\n\t\t\t\treturn nil\n\t\t\t}}\n{next_key}\t}}\n}}\n\n",
                    decode_switch(part, stop)
                );
                low = high;
            }
        }
        b.push_str("\tm.unknown = r.KeptRef()\n");
        for f in &m.fields {
            if f.presence == Presence::Required && f.cardinality == Cardinality::Single {
                let field = self.message_names(m).fields[&f.number].clone();
                let _ = writeln!(
                    b,
                    "\tif m.{field} == nil {{\n\t\treturn r.MissingRequired({})\n\t}}",
                    go_string(&f.name)
                );
            }
        }
        b.push_str("\treturn nil\n}\n\n");
        self.body.push_str(&b);
        self.body.push_str(&fns);
    }

    /// One `bijoubuf.FieldDesc` literal (on one line) for a field, a map key or value.
    fn field_desc(&mut self, m: &MessageDef, f: &FieldDef) -> String {
        let names = self.message_names(m);
        let go_name = names.fields[&f.number].clone();
        let mut parts = vec![
            format!("Number: {}", f.number),
            format!("Name: {}", go_string(&f.name)),
            format!("JSONName: {}", go_string(&f.json_name)),
            format!("GoName: {}", go_string(&go_name)),
        ];
        match &f.cardinality {
            Cardinality::Map { key, value } => {
                parts.push("Kind: bijoubuf.KindMessage".to_string());
                parts.push("Map: true".to_string());
                let k = format!(
                    "&bijoubuf.FieldDesc{{Number: 1, Name: \"key\", JSONName: \"key\", Kind: bijoubuf.{}}}",
                    scalar_kind(*key)
                );
                parts.push(format!("MapKey: {k}"));
                let v = format!(
                    "&bijoubuf.FieldDesc{{Number: 2, Name: \"value\", JSONName: \"value\", {}}}",
                    self.type_parts(value).join(", ")
                );
                parts.push(format!("MapValue: {v}"));
            }
            card => {
                parts.extend(self.type_parts(&f.ty));
                if *card == Cardinality::Repeated {
                    parts.push("Repeated: true".to_string());
                }
            }
        }
        if f.cardinality == Cardinality::Single
            && (f.presence != Presence::Implicit || matches!(f.ty, FieldType::Message(_)))
        {
            parts.push("Explicit: true".to_string());
        }
        if f.presence == Presence::Required {
            parts.push("Required: true".to_string());
        }
        if let Some(i) = real_oneof(m, f) {
            let names = self.message_names(m);
            let o = names.oneofs[i].clone();
            let wrapper = names.wrappers[&f.number].clone();
            if !parts.iter().any(|p| p == "Explicit: true") {
                parts.push("Explicit: true".to_string());
            }
            parts.push(format!("Oneof: {}", go_string(&m.oneofs[i].name)));
            parts.push(format!("OneofGoName: {}", go_string(&o)));
            // The literal is on the line of its field's entry in the table.
            let new = gofmt::func_lit("func() any", &format!("return new({wrapper})"), "\t\t");
            parts.push(format!("NewOneofWrapper: {new}"));
        }
        format!("{{{}}}", parts.join(", "))
    }

    fn type_parts(&mut self, ty: &FieldType) -> Vec<String> {
        match ty {
            FieldType::Scalar(s) => vec![format!("Kind: bijoubuf.{}", scalar_kind(*s))],
            FieldType::Enum(e) => {
                let t = self.type_ref(e);
                vec![
                    "Kind: bijoubuf.KindEnum".to_string(),
                    format!("Enum: {t}(0).EnumDesc()"),
                ]
            }
            FieldType::Message(full) => {
                let t = self.type_ref(full);
                vec![
                    "Kind: bijoubuf.KindMessage".to_string(),
                    format!("Message: (*{t})(nil).BijoubufDesc"),
                ]
            }
        }
    }

    fn descriptor(&mut self, m: &MessageDef, name: &str) {
        let _ = writeln!(self.body, "var desc_{name} bijoubuf.MessageDesc\n");
        let mut d = String::new();
        let oneofs: Vec<String> = m
            .oneofs
            .iter()
            .filter(|o| !o.synthetic)
            .map(|o| go_string(&o.name))
            .collect();
        let new = gofmt::func_lit(
            "func() bijoubuf.Message",
            &format!("return new({name})"),
            "\t",
        );
        let _ = writeln!(
            d,
            "\tdesc_{name} = bijoubuf.MessageDesc{{FullName: {}, Name: {}, GoType: {}, Oneofs: []string{{{}}}, New: {new}, Fields: []bijoubuf.FieldDesc{{",
            go_string(&m.full_name),
            go_string(&m.name),
            go_string(name),
            oneofs.join(", ")
        );
        if m.fields.is_empty() {
            d.truncate(d.trim_end().len());
            let _ = writeln!(d, "}}}}\n\tbijoubuf.RegisterMessage(&desc_{name})");
        } else {
            for f in &m.fields {
                let fd = self.field_desc(m, f);
                let _ = writeln!(d, "\t\t{fd},");
            }
            let _ = writeln!(d, "\t}}}}\n\tbijoubuf.RegisterMessage(&desc_{name})");
        }
        self.init.push_str(&d);
    }

    fn finish(
        self,
        go_package: &str,
        packages: &[&str],
        files: &[&bijoubuf_schema::FileDef],
    ) -> String {
        let mut out = String::new();
        out.push_str("// Code generated by bijoubuf compile --go-out. DO NOT EDIT.\n");
        let sources: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
        let _ = writeln!(out, "// source: {}\n", sources.join(", "));
        let packages: Vec<&str> = packages
            .iter()
            .map(|p| if p.is_empty() { "(none)" } else { p })
            .collect();
        let _ = writeln!(
            out,
            "// Package {go_package} holds the bijoubuf messages of proto package{} {}.",
            if packages.len() == 1 { "" } else { "s" },
            packages.join(", ")
        );
        let _ = writeln!(out, "package {go_package}\n");
        out.push_str("import (\n");
        if self.uses_unsafe {
            out.push_str("\t\"unsafe\"\n\n");
        }
        let _ = writeln!(out, "\t{}", go_string(RUNTIME_IMPORT));
        if !self.imports.is_empty() {
            out.push('\n');
            for (path, alias) in &self.imports {
                let _ = writeln!(out, "\t{alias} {}", go_string(path));
            }
        }
        out.push_str(")\n\n");
        out.push_str(&self.body);
        out.push_str("func init() {\n");
        out.push_str(&self.init);
        out.push_str("}\n");
        out
    }
}

/// The head of a loop over map expression `m` in SPEC §6.4's key order, binding `k` and
/// `v`: bool keys are looked up (two at most); other keys come as sorted entries, so that
/// no key is hashed again. Entries or keys go in `ks`, an array on the stack (declared by
/// [`Emitter::keys_array`]). Without `uses_key` only `v` is bound (Go refuses an unused
/// variable).
fn sorted_loop(key: ScalarType, m: &str, uses_key: bool) -> String {
    if key == ScalarType::Bool {
        format!(
            "for _, k := range bijoubuf.AppendSortedBoolKeys(ks[:0], {m}) {{\n\t\t\tv := {m}[k]"
        )
    } else if uses_key {
        format!(
            "for _, e := range bijoubuf.AppendSortedEntries(ks[:0], {m}) {{\n\t\t\tk, v := e.Key, e.Value"
        )
    } else {
        format!(
            "for _, e := range bijoubuf.AppendSortedEntries(ks[:0], {m}) {{\n\t\t\tv := e.Value"
        )
    }
}

/// The head of a loop over map expression `m` in the reverse of SPEC §6.4's key order
/// (the write pass writes backwards), binding `k` and `v`; entries or keys go in `ks`,
/// as in [`sorted_loop`].
fn sorted_loop_rev(key: ScalarType, m: &str) -> String {
    if key == ScalarType::Bool {
        format!(
            "bk := bijoubuf.AppendSortedBoolKeys(ks[:0], {m})\n\t\tfor i := len(bk) - 1; i >= 0; i-- {{\n\t\t\tk := bk[i]\n\t\t\tv := {m}[k]"
        )
    } else {
        format!(
            "es := bijoubuf.AppendSortedEntries(ks[:0], {m})\n\t\tfor i := len(es) - 1; i >= 0; i-- {{\n\t\t\tk, v := es[i].Key, es[i].Value"
        )
    }
}

/// Split a head from [`Emitter::singular_head`] into the opening lines and the closing
/// brace: a plain `if …` head opens a block; one ending in the `//` marker already has.
fn open_close(head: &str) -> (String, &'static str) {
    match head.strip_suffix("\t\t//\n") {
        Some(h) => (h.trim_end_matches('\n').to_string(), "}"),
        None => (format!("{head} {{"), "}"),
    }
}

#[cfg(test)]
mod tests {
    use super::{DECODE_ONE_FUNCTION, DECODE_PART, ScalarType, decode_parts, go_default};

    #[test]
    fn decode_parts_keep_small_messages_whole_and_bound_the_parts_of_large_ones() {
        assert_eq!(decode_parts(std::iter::empty()), vec![0]);
        assert_eq!(
            decode_parts(std::iter::repeat_n(1, DECODE_ONE_FUNCTION)),
            vec![DECODE_ONE_FUNCTION]
        );
        let weights = [1, 3, 2, 1, 2, 1];
        let many: Vec<usize> = weights.iter().copied().cycle().take(200).collect();
        let parts = decode_parts(many.iter().copied());
        assert_eq!(parts.iter().sum::<usize>(), many.len());
        let mut at = 0;
        for (i, &len) in parts.iter().enumerate() {
            let weight: usize = many[at..at + len].iter().sum();
            assert!(weight <= DECODE_PART, "part {i} weighs {weight}");
            // A part stops only where the next case would not fit.
            if let Some(&next) = many.get(at + len) {
                assert!(
                    weight + next > DECODE_PART,
                    "part {i} stopped early at {weight}"
                );
            }
            at += len;
        }
        // A case heavier than a part is a part of its own.
        assert_eq!(
            decode_parts([DECODE_PART + 1, 40, 1].into_iter()),
            vec![1, 1, 1]
        );
    }

    #[test]
    fn defaults_are_protocs_values_as_go_writes_them() {
        let go = |s, text| go_default(s, text).map(|(expr, _)| expr);
        let f32b = |b: u32| format!("bijoubuf.Float32FromBits(0x{b:08x})");
        let f64b = |b: u64| format!("bijoubuf.Float64FromBits(0x{b:016x})");
        for (s, text, want) in [
            (ScalarType::Double, "0.5", "0.5".to_string()),
            (ScalarType::Double, "1e+10", "1e+10".to_string()),
            (ScalarType::Float, "16", "16".to_string()),
            (ScalarType::Double, "-0", f64b(0x8000_0000_0000_0000)),
            (ScalarType::Double, "-inf", f64b(0xfff0_0000_0000_0000)),
            (ScalarType::Double, "nan", f64b(0x7ff8_0000_0000_0000)),
            (ScalarType::Double, "5e-324", f64b(1)),
            (ScalarType::Float, "inf", f32b(0x7f80_0000)),
            // A double past the largest float: protoc's float is infinite, which a Go
            // constant cannot be.
            (ScalarType::Float, "3.4028236e38", f32b(0x7f80_0000)),
            // Under the smallest normal float (0, and a subnormal): by bits too, exact
            // without relying on how Go's constants round there.
            (ScalarType::Float, "1e-46", f32b(0)),
            (ScalarType::Float, "1e-40", f32b(0x0001_16c2)),
            // Read as a double (halfway between 1 and the next float), then to the even
            // float, 1; one rounding of the decimal to a float would give the next one.
            (ScalarType::Float, "1.0000000596046448", f32b(0x3f80_0000)),
            (
                ScalarType::Int64,
                "-9223372036854775808",
                "-9223372036854775808".to_string(),
            ),
            (ScalarType::Uint32, "4294967295", "4294967295".to_string()),
            (ScalarType::String, "a\"b\n", "\"a\\\"b\\n\"".to_string()),
            (
                ScalarType::Bytes,
                "\\001\\377q\\\\",
                "[]byte(\"\\x01\\xffq\\\\\")".to_string(),
            ),
        ] {
            assert_eq!(go(s, text).as_deref(), Some(want.as_str()), "{s:?} {text}");
        }
        // Text that is not the type's refuses rather than writes a wrong default.
        assert_eq!(go(ScalarType::Int32, "2147483648"), None);
        assert_eq!(go(ScalarType::Bool, "yes"), None);
    }
}
