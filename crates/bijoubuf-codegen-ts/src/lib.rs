//! bijoubuf-codegen-ts: a checked schema model to TypeScript source.
//!
//! The second backend next to `bijoubuf-codegen` (Rust): it reads the same checked
//! [`Schema`] from `bijoubuf-schema` and returns one TypeScript module per package. It is
//! pure: no file system, no formatting tool. The generated code imports the runtime npm
//! package (`typescript/` in this repository, `bijoubuf` on npm) and describes each
//! message to it, which the JSON mapping walks. Each message also gets its own encoder,
//! two functions (a size pass and a write pass) with the field list unrolled, and its own
//! decoder, a loop over the records switching on the field number; both call the runtime's
//! per-kind checks, reads and writers in the order of its field-list walk, so a refused
//! value or input gets the same error, code, offset and path. A message of more than 100
//! fields gets each of the three in parts of 100 fields, functions called in turn, since
//! `tsc` refuses to analyse one function holding a few hundred (TS2563).
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let compiled = bijoubuf_schema::compile_sources(&[(
//!     "shop.proto",
//!     r#"syntax = "proto3"; package shop; message Order { uint64 id = 1; }"#,
//! )])?;
//! let files = bijoubuf_codegen_ts::generate(&compiled.schema, &bijoubuf_codegen_ts::Options::new());
//! assert_eq!(files[0].name, "shop.ts");
//! assert!(files[0].content.contains("export interface Order"));
//! # Ok(()) }
//! ```
//!
//! # Type mapping
//!
//! | Schema | TypeScript |
//! |---|---|
//! | `message M` | `export interface M` and `export const M: MessageType<M>` (`M.encode`, `M.decode`, `M.create`, `M.decodeDelimited`, …) |
//! | nested `Outer.Inner` | `Outer_Inner` (`Outer_Inner_` if a type declared before took the name) |
//! | `double`, `float`, `int32`, `sint32`, `sfixed32`, `uint32`, `fixed32` | `number` |
//! | `int64`, `sint64`, `sfixed64`, `uint64`, `fixed64` | `bigint` |
//! | `bool` / `string` / `bytes` | `boolean` / `string` / `Uint8Array` |
//! | `enum E` | `type E = number` (open, SPEC §3.6) and `const E = { NAME: n, … } as const` |
//! | implicit presence | `name: T` (the default is not written) |
//! | explicit presence, message fields | `name?: T` (`undefined` is absent) |
//! | proto2 `required` | `name: T`; unset is refused by the encoder, absent by the decoder |
//! | `repeated T` | `T[]` |
//! | `map<K, V>` | `Map<K, V>`, encoded in the order of SPEC §6.4 whatever the insertion order |
//! | `oneof o` | `o?: { case: "a"; value: A } \| { case: "b"; value: B }` |
//! | unknown fields | `$unknown?: UnknownField[]`, filled by a preserving decode |
//!
//! Property names are the fields' JSON names (lowerCamelCase); error paths keep the
//! schema's names. Where two would be one property (proto2 allows `descriptor` and
//! `descriptor_`, both JSON name `descriptor`; a oneof named like a field's JSON name), the
//! later declared gets `$` appended (`descriptor$`), as does a oneof member's `case`; the
//! proto3 JSON mapping still writes and reads the JSON name (`json` in the field's
//! description), and a JSON name two fields share reads as the lower-numbered, as in Rust. Types from another package are reached through a namespace import of
//! that package's module (`./google.protobuf.js`). Well-known types are generated like any
//! other message. Not generated: extensions.
//!
//! Every name the generated code binds itself (the runtime `$bb`, other packages'
//! `$pkg_…`, the functions' parameters and locals `$v`, `$x`, …) starts with `$`, which
//! no schema name does, so a message named `p`, `v` or `Reader` is never hidden by one.
//! A type named like a global the code uses (`Map`, `Math`, …) gets a trailing `$`, and
//! a client method's parameters `request` and `options` become `request$` and `options$`
//! in a module that declares a type of that name.
//!
//! # Services
//!
//! With [`Options::services`], each `service` of a requested file becomes a class
//! `FooClient` (`FooClient_` when a type has that name) whose constructor takes the
//! runtime's `grpcweb.Transport` (`{ baseUrl }`, optionally `fetch` and headers): a unary
//! rpc is a method returning `Promise<Response>`, a server-streaming rpc one returning
//! `AsyncGenerator<Response>`; the method path is `/package.Service/Method`. The calls
//! speak gRPC-web with binary framing over `fetch` (browsers, Node 18 and later) to a
//! server such as tonic with tonic-web; a failed call throws `RpcError`, or
//! `RefusedError` with the bijoubuf error code, offset and path when a codec refused a
//! message. gRPC-web has no client streaming: client- and bidi-streaming rpcs get no
//! method, and the class's docs name them.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;

use bijoubuf_schema::{
    Cardinality, Comments, EnumDef, FieldDef, FieldType, MessageDef, Presence, ScalarType, Schema,
};
use heck::ToLowerCamelCase;

mod service;
mod split;

use split::SPLIT;

/// Generator settings.
#[derive(Clone, Debug)]
pub struct Options {
    runtime: String,
    services: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            runtime: "bijoubuf".to_string(),
            services: false,
        }
    }
}

impl Options {
    /// Defaults: the runtime is imported as `"bijoubuf"`.
    pub fn new() -> Self {
        Self::default()
    }

    /// Generate a gRPC-web client class for every `service` of the requested files (see
    /// "Services" in the crate docs). Off by default.
    pub fn services(&mut self, enable: bool) -> &mut Self {
        self.services = enable;
        self
    }

    /// The module specifier the generated code imports the runtime from (a package name
    /// or a relative path such as `"../src/index.js"`).
    pub fn runtime_import(&mut self, specifier: impl Into<String>) -> &mut Self {
        self.runtime = specifier.into();
        self
    }
}

/// One generated module: every type of one package.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedFile {
    /// `<package>.ts` (`_.ts` for the empty package).
    pub name: String,
    /// The TypeScript source.
    pub content: String,
}

/// Where a type is emitted: its package and its name in that package's module.
struct TypeName {
    package: String,
    local: String,
}

/// Generate one TypeScript module per package of `schema`, imported files included (the
/// runtime has no built-in well-known types), ordered by package name.
pub fn generate(schema: &Schema, options: &Options) -> Vec<GeneratedFile> {
    let mut names: HashMap<String, TypeName> = HashMap::new();
    let mut packages: BTreeMap<String, Vec<&bijoubuf_schema::FileDef>> = BTreeMap::new();
    // Per package, the names its module declares: a nested type's `A_B` may be a
    // top-level type's name too, and a service's `FooClient` a message's. Types claim
    // theirs first, in declaration order, so no type's name depends on `services`.
    let mut taken: HashMap<String, BTreeSet<String>> = HashMap::new();
    for file in schema.files() {
        packages.entry(file.package.clone()).or_default().push(file);
        let taken = taken.entry(file.package.clone()).or_default();
        let mut add = |full: &str| {
            let rel = full
                .strip_prefix(&file.package)
                .map(|r| r.trim_start_matches('.'))
                .unwrap_or(full);
            names.insert(
                full.to_string(),
                TypeName {
                    package: file.package.clone(),
                    local: claim(taken, safe_type_name(&rel.replace('.', "_")), '_'),
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
    let mut clients: HashMap<String, String> = HashMap::new();
    for file in schema.files() {
        let taken = taken.entry(file.package.clone()).or_default();
        for s in &file.services {
            let class = claim(taken, safe_type_name(&format!("{}Client", s.name)), '_');
            clients.insert(s.full_name.clone(), class);
        }
    }
    packages
        .iter()
        .filter(|(_, files)| {
            files.iter().any(|f| {
                !f.messages.is_empty()
                    || !f.enums.is_empty()
                    || (options.services && f.requested && !f.services.is_empty())
            })
        })
        .map(|(package, files)| {
            let mut e = Emitter {
                package,
                names: &names,
                clients: &clients,
                declared: &taken[package],
                imports: BTreeMap::new(),
                has_messages: false,
                uses_runtime: false,
                props: Props::default(),
                body: String::new(),
            };
            for f in files {
                for en in &f.enums {
                    e.enumeration(en);
                }
                for m in &f.messages {
                    visit_messages(m, &mut |m| e.message(m));
                }
            }
            if options.services {
                for s in files
                    .iter()
                    .filter(|f| f.requested)
                    .flat_map(|f| &f.services)
                {
                    e.service(s);
                }
            }
            GeneratedFile {
                name: module_file(package),
                content: e.finish(&options.runtime, files),
            }
        })
        .collect()
}

fn module_file(package: &str) -> String {
    if package.is_empty() {
        "_.ts".to_string()
    } else {
        format!("{package}.ts")
    }
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

/// Names a type may not take in a module: TypeScript's reserved words and the globals the
/// generated code uses (`Map`, `Uint8Array`, `Math`, a client's `Promise`, …). Such a type
/// gets a trailing `$`. The generated code's own bindings need no entry: every local,
/// parameter and module binding it declares starts with `$`, which no schema name does.
const RESERVED: &[&str] = &[
    "Array",
    "AsyncGenerator",
    "BigInt",
    "Boolean",
    "Error",
    "Map",
    "Math",
    "Number",
    "Object",
    "Partial",
    "Promise",
    "Record",
    "String",
    "Symbol",
    "Uint8Array",
    "any",
    "as",
    "bigint",
    "boolean",
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "declare",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "implements",
    "import",
    "in",
    "instanceof",
    "interface",
    "let",
    "never",
    "new",
    "null",
    "number",
    "object",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "static",
    "string",
    "super",
    "switch",
    "symbol",
    "this",
    "throw",
    "true",
    "try",
    "type",
    "typeof",
    "undefined",
    "unknown",
    "var",
    "void",
    "while",
    "with",
    "yield",
];

/// The end of a decoder's `try`: an error inside a field's record gets the field's
/// segment (`$seg`) in its path.
const DECODE_CATCH: &str = "  } catch ($err) {\n    if ($err instanceof $bb.DecodeError && $seg !== \"\") $err.push($seg);\n    throw $err;\n  }\n";

/// A record of a number message `name` does not know, at `indent`: refused (a strict
/// decode, or a message that keeps none) or kept as an unknown field.
fn unknown_record(b: &mut String, name: &str, indent: &str) {
    let _ = writeln!(b, "{indent}$seg = \".\" + $n;");
    let _ = writeln!(
        b,
        "{indent}if (!$r.preserving || !{name}.keepsUnknown) throw new $bb.DecodeError(\"unknown-field\", $kAt);"
    );
    let _ = writeln!(
        b,
        "{indent}($unknown ??= []).push($d.readUnknown($r, $n, $w, $end));"
    );
    let _ = writeln!(b, "{indent}$r.unknown++;");
}

fn safe_type_name(name: &str) -> String {
    if RESERVED.contains(&name) {
        format!("{name}$")
    } else {
        name.to_string()
    }
}

/// `want`, or it with `mark` appended until no name in `taken` is it; then taken.
fn claim(taken: &mut BTreeSet<String>, want: String, mark: char) -> String {
    let mut name = want;
    while taken.contains(&name) {
        name.push(mark);
    }
    taken.insert(name.clone());
    name
}

/// A property name as it appears in an interface or object literal: bare when it is an
/// identifier, quoted otherwise.
fn prop_key(name: &str) -> String {
    let ident = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if ident && name != "__proto__" {
        name.to_string()
    } else {
        format!("{name:?}")
    }
}

/// A property name as the key of an object literal: as [`prop_key`], except `__proto__`,
/// which a literal would take as the object's prototype (`{ "__proto__": x }` creates no
/// property), so it is written computed, `["__proto__"]`, which creates an own property.
fn literal_key(name: &str) -> String {
    if name == "__proto__" {
        format!("[{name:?}]")
    } else {
        prop_key(name)
    }
}

/// `.name` for an identifier, `["name"]` otherwise: the access to a property of a value.
fn member_access(name: &str) -> String {
    let key = prop_key(name);
    if key.starts_with('"') {
        format!("[{key}]")
    } else {
        format!(".{key}")
    }
}

struct Emitter<'a> {
    package: &'a str,
    names: &'a HashMap<String, TypeName>,
    /// Each service's client class, by the service's full name.
    clients: &'a HashMap<String, String>,
    /// The names this package's module declares (its types' and its clients').
    declared: &'a BTreeSet<String>,
    /// Other packages referenced: package → namespace alias.
    imports: BTreeMap<String, String>,
    /// Whether the module holds a message type, whose code reaches the runtime's encoder
    /// and decoder through `$e` and `$d`.
    has_messages: bool,
    /// Whether anything refers to the runtime (`$bb`): a message or a service client;
    /// enums alone do not.
    uses_runtime: bool,
    /// The properties of the message being emitted ([`Props`]).
    props: Props,
    body: String,
}

/// The TypeScript names of one message's members: each field's property (a oneof member's
/// `case`) by field number, and each oneof's property. They start from the JSON names and
/// the oneofs' lowerCamelCase names; where two would be one (proto2 allows two fields one
/// JSON name, `descriptor` and `descriptor_`), the later declared gets `$` appended until
/// it is unique, as a type named like a global does. The JSON mapping keeps the JSON name.
#[derive(Default)]
struct Props {
    fields: HashMap<u32, String>,
    oneofs: Vec<String>,
}

impl Props {
    fn of(m: &MessageDef) -> Props {
        // The interface's properties, `$unknown` (preserved records) among them; and the
        // cases of each oneof.
        let mut taken = BTreeSet::from(["$unknown".to_string()]);
        let mut cases: Vec<BTreeSet<String>> = vec![BTreeSet::new(); m.oneofs.len()];
        let mut oneofs: Vec<Option<String>> = vec![None; m.oneofs.len()];
        let mut fields = HashMap::new();
        for f in m.fields_in_declaration_order() {
            let prop = match real_oneof(m, f) {
                Some(i) => {
                    if oneofs[i].is_none() {
                        let o = m.oneofs[i].name.to_lower_camel_case();
                        oneofs[i] = Some(claim(&mut taken, o, '$'));
                    }
                    claim(&mut cases[i], f.json_name.clone(), '$')
                }
                None => claim(&mut taken, f.json_name.clone(), '$'),
            };
            fields.insert(f.number, prop);
        }
        let oneofs = oneofs
            .into_iter()
            .zip(&m.oneofs)
            .map(|(p, o)| p.unwrap_or_else(|| o.name.to_lower_camel_case()))
            .collect();
        Props { fields, oneofs }
    }
}

impl Emitter<'_> {
    /// The name of a message or enum as this module spells it.
    fn type_ref(&mut self, full: &str) -> String {
        let Some(t) = self.names.get(full) else {
            return "unknown".to_string();
        };
        if t.package == self.package {
            return t.local.clone();
        }
        let alias = format!("$pkg_{}", t.package.replace('.', "_"));
        self.imports.insert(t.package.clone(), alias.clone());
        format!("{alias}.{}", t.local)
    }

    fn doc(&mut self, comments: &Comments, indent: &str) {
        self.doc_with(comments, indent, &[]);
    }

    /// `doc`, with a `@deprecated` tag (which editors and linters show) when the schema
    /// marks the declaration deprecated.
    fn doc_deprecated(&mut self, comments: &Comments, indent: &str, deprecated: bool) {
        let tag: &[&str] = if deprecated { &["@deprecated"] } else { &[] };
        self.doc_with(comments, indent, tag);
    }

    /// A `/** … */` block of the schema's comment, then each of `extras` as its own
    /// paragraph; a lone one-line extra without a comment on one line.
    fn doc_with(&mut self, comments: &Comments, indent: &str, extras: &[&str]) {
        let text = comments
            .leading
            .as_deref()
            .or(comments.trailing.as_deref())
            .map(|t| t.trim_end().replace("*/", "*\\/"));
        let lines: Vec<&str> = text
            .as_deref()
            .map(|t| {
                t.lines()
                    .map(|l| l.strip_prefix(' ').unwrap_or(l))
                    .collect()
            })
            .unwrap_or_default();
        match (lines.is_empty(), extras) {
            (true, []) => return,
            (true, [one]) if !one.contains('\n') => {
                let _ = writeln!(self.body, "{indent}/** {one} */");
                return;
            }
            _ => {}
        }
        let mut paragraphs: Vec<Vec<&str>> = Vec::new();
        if !lines.is_empty() {
            paragraphs.push(lines);
        }
        paragraphs.extend(extras.iter().map(|e| e.lines().collect()));
        let _ = writeln!(self.body, "{indent}/**");
        for (i, paragraph) in paragraphs.iter().enumerate() {
            if i > 0 {
                let _ = writeln!(self.body, "{indent} *");
            }
            for line in paragraph {
                if line.is_empty() {
                    let _ = writeln!(self.body, "{indent} *");
                } else {
                    let _ = writeln!(self.body, "{indent} * {line}");
                }
            }
        }
        let _ = writeln!(self.body, "{indent} */");
    }

    fn enumeration(&mut self, e: &EnumDef) {
        let name = self.type_ref(&e.full_name);
        let what = format!(
            "`{}`: open (SPEC §3.6), so any int32 is a value; these are the named ones.",
            e.full_name
        );
        let tag: &[&str] = if e.deprecated { &["@deprecated"] } else { &[] };
        self.doc_with(&e.comments, "", &[&[what.as_str()], tag].concat());
        let _ = writeln!(self.body, "export const {name} = {{");
        for v in &e.values {
            if v.deprecated {
                let _ = writeln!(self.body, "  /** @deprecated */");
            }
            let _ = writeln!(self.body, "  {}: {},", literal_key(&v.name), v.number);
        }
        let _ = writeln!(self.body, "}} as const;");
        let _ = writeln!(
            self.body,
            "/** A `{}` number, named or not. */",
            e.full_name
        );
        let _ = writeln!(self.body, "export type {name} = number;\n");
    }

    /// The property of field `f` of the message being emitted (its `case` in a oneof).
    fn prop(&self, f: &FieldDef) -> String {
        self.props
            .fields
            .get(&f.number)
            .cloned()
            .unwrap_or_else(|| f.json_name.clone())
    }

    /// The property of oneof `i` of the message being emitted.
    fn oneof_prop(&self, i: usize) -> String {
        self.props.oneofs[i].clone()
    }

    /// The TypeScript type of one element of `ty`.
    fn element_type(&mut self, ty: &FieldType) -> String {
        match ty {
            FieldType::Scalar(s) => scalar_type(*s).to_string(),
            FieldType::Message(m) => self.type_ref(m),
            FieldType::Enum(e) => self.type_ref(e),
        }
    }

    fn message(&mut self, m: &MessageDef) {
        for e in &m.enums {
            self.enumeration(e);
        }
        let name = self.type_ref(&m.full_name);
        self.props = Props::of(m);
        self.has_messages = true;
        self.uses_runtime = true;
        self.doc_deprecated(&m.comments, "", m.deprecated);
        let _ = writeln!(
            self.body,
            "export interface {name} extends $bb.MessageShape {{"
        );
        let mut oneofs_done = vec![false; m.oneofs.len()];
        for f in m.fields_in_declaration_order() {
            match real_oneof(m, f) {
                Some(i) => {
                    if !oneofs_done[i] {
                        oneofs_done[i] = true;
                        self.oneof_member_type(m, i);
                    }
                }
                None => {
                    self.doc_deprecated(&f.comments, "  ", f.deprecated);
                    let ty = self.field_type(f);
                    let opt = if f.cardinality == Cardinality::Single
                        && f.presence == Presence::Explicit
                    {
                        "?"
                    } else {
                        ""
                    };
                    let _ = writeln!(self.body, "  {}{opt}: {ty};", prop_key(&self.prop(f)));
                }
            }
        }
        let _ = writeln!(self.body, "}}\n");
        let _ = writeln!(
            self.body,
            "/** `{}`: its encoder, strict decoder and field description. */",
            m.full_name
        );
        let _ = writeln!(
            self.body,
            "export const {name}: $bb.MessageType<{name}> = new $bb.MessageType<{name}>({:?}, () => [",
            m.full_name
        );
        for f in &m.fields {
            let spec = self.field_spec(m, f);
            let _ = writeln!(self.body, "  {spec},");
        }
        let _ = writeln!(self.body, "], () => ({{");
        let mut oneofs_done = vec![false; m.oneofs.len()];
        for f in &m.fields {
            if let Some(i) = real_oneof(m, f) {
                if !oneofs_done[i] {
                    oneofs_done[i] = true;
                    let name = literal_key(&self.oneof_prop(i));
                    let _ = writeln!(self.body, "  {name}: undefined,");
                }
                continue;
            }
            let _ = writeln!(
                self.body,
                "  {}: {},",
                literal_key(&self.prop(f)),
                initial(f)
            );
        }
        let _ = writeln!(
            self.body,
            "}}), {{ size: {name}$size, write: {name}$write, decode: {name}$decode }});\n"
        );
        self.encoder(m, &name);
        self.decoder(m, &name);
    }

    /// The message's generated decoder: one loop over the records switching on the field
    /// number, each case with the checks of the runtime's field-list walk in the same order
    /// (SPEC §10.1), so the same errors, offsets and paths.
    fn decoder(&mut self, m: &MessageDef, name: &str) {
        let mut b = String::new();
        let _ = writeln!(
            b,
            "function {name}$decode($r: $bb.dec.Reader, $end: number, $depth: number): any {{"
        );
        let _ = writeln!(b, "  const $v: any = {name}.create();");
        b.push_str("  let $prev = 0;\n  let $kAt = 0;\n  let $seg = \"\";\n");
        // A split decoder's helpers declare their own `$x`.
        let split = m.fields.len() > SPLIT;
        if !split
            && m.fields
                .iter()
                .any(|f| f.cardinality == Cardinality::Single)
        {
            b.push_str("  let $x: any;\n");
        }
        b.push_str("  let $unknown: $bb.UnknownField[] | undefined;\n");
        b.push_str("  try {\n    while ($r.pos < $end) {\n      $kAt = $r.pos;\n");
        b.push_str(
            "      const $k = $r.num($end);\n      const $n = $prev + 1 + Math.floor($k / 4);\n",
        );
        b.push_str(
            "      if ($n > $bb.NMAX) throw new $bb.DecodeError(\"field-number-overflow\", $kAt);\n",
        );
        // Each field's case of the switch on the field number.
        let mut cases = Vec::with_capacity(m.fields.len());
        for (i, f) in m.fields.iter().enumerate() {
            let mut b = String::new();
            let _ = writeln!(b, "        case {}:", f.number);
            let _ = writeln!(b, "          $seg = {:?};", format!(".{}", f.name));
            let wire = match &f.cardinality {
                Cardinality::Single => wire_of(&f.ty),
                _ => 2,
            };
            let _ = writeln!(
                b,
                "          if ($w !== {wire}) throw new $bb.DecodeError(\"wire-type-mismatch\", $kAt);"
            );
            let oneof = real_oneof(m, f).filter(|_| f.cardinality == Cardinality::Single);
            if let Some(o) = oneof {
                let slot = read_slot(&self.oneof_prop(o));
                let _ = writeln!(
                    b,
                    "          if ({slot} !== undefined) throw new $bb.DecodeError(\"oneof-conflict\", $kAt);"
                );
            }
            let value_ty = match &f.cardinality {
                Cardinality::Map { value, .. } => value,
                _ => &f.ty,
            };
            if matches!(value_ty, FieldType::Message(_)) {
                b.push_str(
                    "          if ($depth + 1 > $r.maxDepth) throw new $bb.DecodeError(\"depth-limit-exceeded\", $kAt);\n",
                );
            }
            let target = match oneof {
                Some(o) => write_slot(&self.oneof_prop(o)),
                None => write_slot(&self.prop(f)),
            };
            match &f.cardinality {
                Cardinality::Single => {
                    let read = match &f.ty {
                        FieldType::Message(full) => {
                            let t = self.type_ref(full);
                            format!("$d.readNested($r, {t}, $end, $depth)")
                        }
                        ty => self.read_scalar(ty),
                    };
                    let _ = writeln!(b, "          $x = {read};");
                    if oneof.is_some() {
                        let _ = writeln!(
                            b,
                            "          {target} = {{ case: {:?}, value: $x }};",
                            self.prop(f)
                        );
                    } else {
                        if f.presence == Presence::Implicit {
                            let _ = writeln!(
                                b,
                                "          if ({}) throw new $bb.DecodeError(\"default-value-present\", $kAt);",
                                decoded_default(&f.ty)
                            );
                        }
                        let _ = writeln!(b, "          {target} = $x;");
                    }
                }
                Cardinality::Repeated => {
                    let _ = writeln!(
                        b,
                        "          {target} = $d.readRepeated($r, {name}.fieldList[{i}]!, $kAt, $end, $depth);"
                    );
                }
                Cardinality::Map { .. } => {
                    // Into the value's own empty map (one record per map field at most).
                    let _ = writeln!(
                        b,
                        "          $d.readMapInto($r, {name}.fieldList[{i}]!, $kAt, $end, $depth, {});",
                        read_slot(&self.prop(f))
                    );
                }
            }
            b.push_str("          break;\n");
            cases.push(b);
        }
        // Required fields at the end of the content (O16), lowest number first.
        let mut required = Vec::new();
        for f in &m.fields {
            if f.cardinality == Cardinality::Single && f.presence == Presence::Required {
                required.push(format!(
                    "  if ({} === undefined) throw new $bb.DecodeError(\"missing-required-field\", $end).push({:?});\n",
                    read_slot(&self.prop(f)),
                    format!(".{}", f.name)
                ));
            }
        }
        b.push_str("      const $w = $k % 4;\n");
        if split {
            self.split_decoder(m, name, b, &cases, &required);
            return;
        }
        b.push_str("      switch ($n) {\n");
        b.push_str(&cases.concat());
        b.push_str("        default:\n");
        unknown_record(&mut b, name, "          ");
        b.push_str("      }\n      $seg = \"\";\n      $prev = $n;\n    }\n");
        b.push_str(DECODE_CATCH);
        b.push_str(&required.concat());
        b.push_str("  if ($unknown !== undefined) $v.$unknown = $unknown;\n  return $v;\n}\n\n");
        self.body.push_str(&b);
    }

    /// The message's generated encoder: its size pass and its write pass, the field list
    /// unrolled in number order, with the checks of the runtime's field-list walk in the
    /// same order (so a refused value gets the same error, code and path).
    fn encoder(&mut self, m: &MessageDef, name: &str) {
        // Keys of fields up to 62 take one byte whatever field precedes them (SPEC §4.1);
        // past that the size pass tracks the previous written field too. The first field's
        // key is always written after field 0, so its size and bytes are constants and it
        // needs no `$prev`: a message whose only field is past 62 declares none.
        let track_prev = m.fields.iter().skip(1).any(|f| f.number > 62);
        // Each field's lines of the size pass and of the write pass.
        let mut sizes = Vec::with_capacity(m.fields.len());
        let mut writes = Vec::with_capacity(m.fields.len());
        for (idx, f) in m.fields.iter().enumerate() {
            let mut size = String::new();
            let mut write = String::new();
            let c = self.field_code(m, f);
            let wire = c.wire;
            let key_size = if f.number <= 62 {
                "1".to_string()
            } else if idx == 0 {
                first_key_len(f.number, wire).to_string()
            } else {
                format!("$e.sizeKey({}, $prev, {wire})", f.number)
            };
            let last = idx + 1 == m.fields.len();
            let set_prev = if track_prev && !last {
                format!(" $prev = {};", f.number)
            } else {
                String::new()
            };
            let _ = writeln!(size, "    $at = {:?};", format!(".{}", f.name));
            if !c.read.is_empty() {
                let _ = writeln!(size, "    $x = {};", c.read);
            }
            for pre in &c.size_pre {
                let _ = writeln!(size, "    {pre}");
            }
            let _ = writeln!(
                size,
                "    if ({}) {{ $n += {key_size} + {};{set_prev} }}",
                c.cond, c.size
            );
            let key_write = if f.number <= 62 {
                let k = (f.number - 1) * 4 + wire;
                if idx == 0 {
                    format!("$w.buf[$w.pos++] = {k};")
                } else {
                    format!("$w.buf[$w.pos++] = {k} - $prev * 4;")
                }
            } else if idx == 0 {
                format!("$e.writeKey($w, {}, 0, {wire});", f.number)
            } else {
                format!("$e.writeKey($w, {}, $prev, {wire});", f.number)
            };
            if !c.read.is_empty() {
                let _ = writeln!(write, "  $x = {};", c.read);
            }
            let set_prev = if last {
                String::new()
            } else {
                format!(" $prev = {};", f.number)
            };
            let _ = writeln!(
                write,
                "  if ({}) {{ {key_write} {};{set_prev} }}",
                c.write_cond, c.write
            );
            sizes.push(size);
            writes.push(write);
        }
        if m.fields.len() > SPLIT {
            self.split_encoder(m, name, &sizes, &writes);
            return;
        }
        let size = sizes.concat();
        let write = writes.concat();
        self.open_size(name);
        if m.fields.is_empty() {
            let _ = writeln!(self.body, "  return 0;\n}}\n");
        } else {
            self.body.push_str("  let $n = 0;\n  let $at = \"\";\n");
            if track_prev {
                self.body.push_str("  let $prev = 0;\n");
            }
            let loads = self.oneof_loads(m, 0, m.fields.len());
            self.body.push_str("  try {\n    let $x: any;\n");
            for l in loads.lines() {
                let _ = writeln!(self.body, "  {l}");
            }
            self.body.push_str(&size);
            self.body.push_str(
                "  } catch ($err) {\n    throw $e.atField($err, $at);\n  }\n  return $n;\n}\n\n",
            );
        }
        self.open_write(name);
        if !m.fields.is_empty() {
            if m.fields.len() > 1 {
                self.body.push_str("  let $prev = 0;\n");
            }
            self.body.push_str("  let $x: any;\n");
            self.body.push_str(&self.oneof_loads(m, 0, m.fields.len()));
            self.body.push_str(&write);
        }
        self.body.push_str("}\n\n");
    }

    /// The pieces of one field's code in the two passes.
    fn field_code(&mut self, m: &MessageDef, f: &FieldDef) -> FieldCode {
        // A oneof member's value is read from its oneof's `$o<i>` (see `oneof_loads`).
        let oneof = real_oneof(m, f).map(|i| format!("$o{i}"));
        let read = match &oneof {
            Some(_) => String::new(),
            None => read_slot(&self.prop(f)),
        };
        let mut c = FieldCode {
            read,
            size_pre: Vec::new(),
            cond: String::new(),
            size: String::new(),
            write_cond: String::new(),
            write: String::new(),
            wire: 2,
        };
        match &f.cardinality {
            Cardinality::Repeated => {
                let (kind, msg) = self.kind_and_msg(&f.ty);
                c.size_pre
                    .push("if ($x != null && !Array.isArray($x)) throw $e.notArray();".to_string());
                c.cond = "$x != null && $x.length !== 0".to_string();
                c.size = format!("$e.sizeList($p, {kind}, {msg}, $x, $depth)");
                c.write_cond = c.cond.clone();
                c.write = format!("$e.writeList($w, $p, {kind}, {msg}, $x)");
            }
            Cardinality::Map { key, value } => {
                let (kind, msg) = self.kind_and_msg(value);
                let key = format!("$bb.Kind.{}", kind_name_scalar(*key));
                c.size_pre
                    .push("if ($x != null && !($x instanceof Map)) throw $e.notMap();".to_string());
                c.cond = "$x != null && $x.size !== 0".to_string();
                c.size = format!("$e.sizeMap($p, {key}, {kind}, {msg}, $x, $depth)");
                c.write_cond = c.cond.clone();
                c.write = format!("$e.writeMap($w, $p, {key}, {kind}, {msg}, $x)");
            }
            Cardinality::Single => {
                c.cond = match (&oneof, f.presence) {
                    (Some(o), _) => format!(
                        "{o} != null && {o}.case === {:?} && ($x = {o}.value) !== undefined",
                        self.prop(f)
                    ),
                    (None, Presence::Required) => {
                        c.size_pre
                            .push("if ($x == null) throw $e.missingRequired();".to_string());
                        "$x != null".to_string()
                    }
                    (None, Presence::Explicit) => "$x != null".to_string(),
                    (None, Presence::Implicit) => implicit_cond(&f.ty),
                };
                c.write_cond = c.cond.clone();
                self.single(&f.ty, &mut c);
            }
        }
        c
    }

    /// The kind and the message type (or `undefined`) of one element of `ty`, as arguments.
    fn kind_and_msg(&mut self, ty: &FieldType) -> (String, String) {
        match ty {
            FieldType::Scalar(s) => (
                format!("$bb.Kind.{}", kind_name_scalar(*s)),
                "undefined".into(),
            ),
            FieldType::Enum(_) => ("$bb.Kind.Enum".into(), "undefined".into()),
            FieldType::Message(full) => ("$bb.Kind.Message".into(), self.type_ref(full)),
        }
    }

    /// The read of one scalar or enum value of `ty` at `$r.pos`, with its checks.
    fn read_scalar(&mut self, ty: &FieldType) -> String {
        use ScalarType::*;
        match ty {
            FieldType::Enum(_) | FieldType::Scalar(Int32 | Sint32) => {
                "$d.readInt32($r, $end)".into()
            }
            FieldType::Scalar(Uint32) => "$d.readUint32($r, $end)".into(),
            FieldType::Scalar(Int64 | Sint64) => "$r.zigzagBig($end)".into(),
            FieldType::Scalar(Uint64) => "$r.big($end)".into(),
            FieldType::Scalar(Bool) => "$d.readBool($r, $end)".into(),
            FieldType::Scalar(String) => "$d.readString($r, $end)".into(),
            FieldType::Scalar(Bytes) => "$d.readBytes($r, $end)".into(),
            ty => {
                let (kind, _) = self.kind_and_msg(ty);
                format!("$d.readValue($r, {kind}, undefined, $end, $depth)")
            }
        }
    }

    /// The size and write of a singular value.
    fn single(&mut self, ty: &FieldType, c: &mut FieldCode) {
        use ScalarType::*;
        let s = match ty {
            FieldType::Message(full) => {
                let t = self.type_ref(full);
                c.size = format!("$e.sizeNested($p, {t}, $x, $depth)");
                c.write = format!("$e.writeNested($w, $p, {t}, $x)");
                return;
            }
            FieldType::Enum(_) => Int32,
            FieldType::Scalar(s) => *s,
        };
        c.wire = match s {
            Double | Fixed64 | Sfixed64 => 1,
            Float | Fixed32 | Sfixed32 => 3,
            String | Bytes => 2,
            _ => 0,
        };
        let (size, write) = match s {
            Int32 | Sint32 => (
                "$e.sizeInt32($x)".to_string(),
                "$e.writeInt32($w, $x)".to_string(),
            ),
            Uint32 => ("$e.sizeUint32($x)".into(), "$e.writeUint32($w, $x)".into()),
            Int64 | Sint64 => ("$e.sizeInt64($x)".into(), "$e.writeInt64($w, $x)".into()),
            Uint64 => ("$e.sizeUint64($x)".into(), "$e.writeUint64($w, $x)".into()),
            Bool => ("$e.sizeBool($x)".into(), "$e.writeBool($w, $x)".into()),
            String => (
                "$e.sizeString($p, $x)".into(),
                "$e.writeString($w, $p, $x)".into(),
            ),
            Bytes => ("$e.sizeBytes($x)".into(), "$e.writeBytes($w, $x)".into()),
            Double | Float | Fixed32 | Fixed64 | Sfixed32 | Sfixed64 => {
                let k = kind_name_scalar(s);
                (
                    format!("$e.sizeFixed($bb.Kind.{k}, $x)"),
                    format!("$e.writeFixed($w, $bb.Kind.{k}, $x)"),
                )
            }
        };
        c.size = size;
        c.write = write;
    }

    fn oneof_member_type(&mut self, m: &MessageDef, i: usize) {
        let o = &m.oneofs[i];
        self.doc(&o.comments, "  ");
        let mut arms = Vec::new();
        for no in &o.fields {
            let Some(f) = m.field(*no) else { continue };
            let ty = self.element_type(&f.ty);
            arms.push(format!("{{ case: {:?}; value: {ty} }}", self.prop(f)));
        }
        let _ = writeln!(
            self.body,
            "  {}?:\n    | {};",
            prop_key(&self.oneof_prop(i)),
            arms.join("\n    | ")
        );
    }

    fn field_type(&mut self, f: &FieldDef) -> String {
        match &f.cardinality {
            Cardinality::Single => self.element_type(&f.ty),
            Cardinality::Repeated => {
                let t = self.element_type(&f.ty);
                if t.contains(' ') {
                    format!("({t})[]")
                } else {
                    format!("{t}[]")
                }
            }
            Cardinality::Map { key, value } => {
                let v = self.element_type(value);
                format!("Map<{}, {v}>", scalar_type(*key))
            }
        }
    }

    fn field_spec(&mut self, m: &MessageDef, f: &FieldDef) -> String {
        let mut s = format!("{{ no: {}, name: {:?}", f.number, f.name);
        let prop = self.prop(f);
        if prop != f.name {
            let _ = write!(s, ", prop: {prop:?}");
        }
        if f.json_name != prop {
            let _ = write!(s, ", json: {:?}", f.json_name);
        }
        let value_ty = match &f.cardinality {
            Cardinality::Map { key, value } => {
                let _ = write!(s, ", mapKey: $bb.Kind.{}", kind_name_scalar(*key));
                value.clone()
            }
            _ => f.ty.clone(),
        };
        let kind = match &value_ty {
            FieldType::Scalar(k) => kind_name_scalar(*k),
            FieldType::Message(_) => "Message",
            FieldType::Enum(_) => "Enum",
        };
        let _ = write!(s, ", kind: $bb.Kind.{kind}");
        match &value_ty {
            FieldType::Message(full) => {
                let r = self.type_ref(full);
                let _ = write!(s, ", msg: {r}");
            }
            // The enum's names, for the JSON mapping.
            FieldType::Enum(full) => {
                let r = self.type_ref(full);
                let _ = write!(s, ", enumType: {{ typeName: {full:?}, values: {r} }}");
            }
            FieldType::Scalar(_) => {}
        }
        if f.cardinality == Cardinality::Repeated {
            s.push_str(", repeated: true");
        }
        if f.cardinality == Cardinality::Single {
            match (real_oneof(m, f), f.presence) {
                (Some(i), _) => {
                    let _ = write!(s, ", oneof: {:?}", self.oneof_prop(i));
                }
                (None, Presence::Explicit) => s.push_str(", presence: $bb.Presence.Explicit"),
                (None, Presence::Required) => s.push_str(", presence: $bb.Presence.Required"),
                (None, Presence::Implicit) => {}
            }
        }
        // The slot the field's value lives in: its property, or its oneof's. Accessors with
        // the name written out are what makes a runtime's field loop fast (a property access
        // of one name, where `v[key]` over all fields of all types is slow).
        let slot = match real_oneof(m, f) {
            Some(i) if f.cardinality == Cardinality::Single => self.oneof_prop(i),
            _ => prop,
        };
        let access = member_access(&slot);
        let _ = write!(
            s,
            ", get: ($v) => $v{access}, set: ($v, $x) => {{ $v{access} = $x; }}"
        );
        s.push_str(" }");
        s
    }

    fn finish(self, runtime: &str, files: &[&bijoubuf_schema::FileDef]) -> String {
        let mut out = String::new();
        let sources: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
        let _ = writeln!(
            out,
            "// Generated by bijoubuf from {}. Do not edit.\n// Package `{}`.\n",
            sources.join(", "),
            self.package
        );
        // Only what the module uses: `noUnusedLocals` refuses an unused `$e` or `$d` (a
        // package of enums alone, or of service clients alone).
        if self.uses_runtime {
            let _ = writeln!(out, "import * as $bb from {runtime:?};");
        }
        for (package, alias) in &self.imports {
            let _ = writeln!(
                out,
                "import * as {alias} from {:?};",
                format!("./{}", module_file(package).replace(".ts", ".js"))
            );
        }
        if self.has_messages {
            out.push_str(
                "\n/** The encoder's per-kind checks and writers, the decoder's reads. */\nconst $e = $bb.enc;\nconst $d = $bb.dec;\n",
            );
        }
        out.push('\n');
        out.push_str(&self.body);
        while out.ends_with("\n\n") {
            out.pop();
        }
        out
    }
}

/// One field's code in the generated encoder's two passes.
struct FieldCode {
    /// The expression reading the field's property (empty for a oneof member, whose value
    /// the condition takes from its oneof).
    read: String,
    /// Statements of the size pass between the read and the condition: the checks of a
    /// present value's container (an array, a `Map`, a set required field).
    size_pre: Vec<String>,
    /// When the field writes a record, for the size pass (SPEC §5, §6.1).
    cond: String,
    /// The payload's size with its checks.
    size: String,
    /// When the field writes a record, for the write pass.
    write_cond: String,
    /// The payload's write.
    write: String,
    /// The record's wire type (SPEC §4.4).
    wire: u32,
}

/// Names every object inherits from `Object.prototype`: a field property of such a name is
/// read only when the value holds it as its own (as the runtime's field-list walk does).
const INHERITED: &[&str] = &[
    "__defineGetter__",
    "__defineSetter__",
    "__lookupGetter__",
    "__lookupSetter__",
    "__proto__",
    "constructor",
    "hasOwnProperty",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "toLocaleString",
    "toString",
    "valueOf",
];

/// Whether a decoded value `$x` of `ty` is its type's default (SPEC §5.1, O12): +0.0 is,
/// −0.0 and NaN are not.
fn decoded_default(ty: &FieldType) -> &'static str {
    use ScalarType::*;
    match ty {
        FieldType::Scalar(Bool) => "$x === false",
        FieldType::Scalar(String) => "$x === \"\"",
        FieldType::Scalar(Bytes) => "$x.length === 0",
        FieldType::Scalar(Float | Double) => "Object.is($x, 0)",
        FieldType::Scalar(Int64 | Sint64 | Uint64 | Fixed64 | Sfixed64) => "$x === 0n",
        _ => "$x === 0",
    }
}

/// The length of the key of field `no` with wire type `wire` written first in its message,
/// after field 0: the bijou64 length (SPEC §2.3) of `(no - 1) * 4 + wire` (SPEC §4.1).
fn first_key_len(no: u32, wire: u32) -> u32 {
    match (u64::from(no) - 1) * 4 + u64::from(wire) {
        0..=247 => 1,
        248..=503 => 2,
        504..=66_039 => 3,
        66_040..=16_843_255 => 4,
        // Field numbers stop at 2^29 - 1 (SPEC §4.3), so a key stays within tier 5.
        _ => 5,
    }
}

/// The wire type of a singular field of type `ty` (SPEC §4.4).
fn wire_of(ty: &FieldType) -> u32 {
    use ScalarType::*;
    match ty {
        FieldType::Scalar(Double | Fixed64 | Sfixed64) => 1,
        FieldType::Scalar(Float | Fixed32 | Sfixed32) => 3,
        FieldType::Scalar(String | Bytes) | FieldType::Message(_) => 2,
        _ => 0,
    }
}

/// The assignable property `prop` of the value `$v` (a value the runtime made, whose
/// properties are its own, so plain assignment sets even one named `__proto__`).
fn write_slot(prop: &str) -> String {
    format!("$v{}", member_access(prop))
}

/// The expression reading property `prop` of the value `$v`.
fn read_slot(prop: &str) -> String {
    if INHERITED.contains(&prop) {
        format!("$e.ownValue($v, {prop:?})")
    } else {
        format!("$v{}", member_access(prop))
    }
}

/// When an implicit-presence value `$x` writes a record: set, and not its type's default
/// (SPEC §5.1), in the runtime's terms (−0.0 is written; a value of the wrong type is not
/// taken for a default, so its check refuses it).
fn implicit_cond(ty: &FieldType) -> String {
    match ty {
        FieldType::Scalar(ScalarType::Bool) => "$x !== false && $x != null".into(),
        FieldType::Scalar(ScalarType::String) => "$x !== \"\" && $x != null".into(),
        FieldType::Scalar(ScalarType::Bytes) => {
            "$x != null && !($x instanceof Uint8Array && $x.length === 0)".into()
        }
        FieldType::Scalar(ScalarType::Float | ScalarType::Double) => {
            "$x != null && !Object.is($x, 0)".into()
        }
        _ => "$x !== 0 && $x !== 0n && $x != null".into(),
    }
}

/// A field's value in a new message: the default for implicit presence (SPEC §5.1),
/// `undefined` for absent, an empty list or map.
fn initial(f: &FieldDef) -> &'static str {
    match (&f.cardinality, f.presence, &f.ty) {
        (Cardinality::Repeated, _, _) => "[]",
        (Cardinality::Map { .. }, _, _) => "new Map()",
        (_, Presence::Implicit, FieldType::Scalar(s)) => match s {
            ScalarType::Bool => "false",
            ScalarType::String => "\"\"",
            ScalarType::Bytes => "$bb.EMPTY_BYTES",
            s if scalar_type(*s) == "bigint" => "0n",
            _ => "0",
        },
        (_, Presence::Implicit, FieldType::Enum(_)) => "0",
        _ => "undefined",
    }
}

/// The index of `f`'s oneof when it is a declared (not synthetic) oneof.
fn real_oneof(m: &MessageDef, f: &FieldDef) -> Option<usize> {
    f.oneof.filter(|&i| !m.oneofs[i].synthetic)
}

fn scalar_type(s: ScalarType) -> &'static str {
    use ScalarType::*;
    match s {
        Double | Float | Int32 | Uint32 | Sint32 | Fixed32 | Sfixed32 => "number",
        Int64 | Uint64 | Sint64 | Fixed64 | Sfixed64 => "bigint",
        Bool => "boolean",
        String => "string",
        Bytes => "Uint8Array",
    }
}

fn kind_name_scalar(s: ScalarType) -> &'static str {
    use ScalarType::*;
    match s {
        Double => "Double",
        Float => "Float",
        Int32 => "Int32",
        Int64 => "Int64",
        Uint32 => "Uint32",
        Uint64 => "Uint64",
        Sint32 => "Sint32",
        Sint64 => "Sint64",
        Fixed32 => "Fixed32",
        Fixed64 => "Fixed64",
        Sfixed32 => "Sfixed32",
        Sfixed64 => "Sfixed64",
        Bool => "Bool",
        String => "String",
        Bytes => "Bytes",
    }
}
