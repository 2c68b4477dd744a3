//! bijoubuf-codegen-ts: a checked schema model to TypeScript source.
//!
//! The second backend next to `bijoubuf-codegen` (Rust): it reads the same checked
//! [`Schema`] from `bijoubuf-schema` and returns one TypeScript module per package. It is
//! pure: no file system, no formatting tool. The generated code imports the runtime npm
//! package (`typescript/` in this repository, `bijoubuf` on npm) and describes each
//! message to it; the runtime's decoder and encoder walk that description.
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
//! | nested `Outer.Inner` | `Outer_Inner` |
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
//! schema's names. Types from another package are reached through a namespace import of
//! that package's module (`./google.protobuf.js`). Well-known types are generated like any
//! other message. Not generated: extensions, services.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use bijoubuf_schema::{
    Cardinality, Comments, EnumDef, FieldDef, FieldType, MessageDef, Presence, ScalarType, Schema,
};
use heck::ToLowerCamelCase;

/// Generator settings.
#[derive(Clone, Debug)]
pub struct Options {
    runtime: String,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            runtime: "bijoubuf".to_string(),
        }
    }
}

impl Options {
    /// Defaults: the runtime is imported as `"bijoubuf"`.
    pub fn new() -> Self {
        Self::default()
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
    for file in schema.files() {
        packages.entry(file.package.clone()).or_default().push(file);
        let mut add = |full: &str| {
            let rel = full
                .strip_prefix(&file.package)
                .map(|r| r.trim_start_matches('.'))
                .unwrap_or(full);
            names.insert(
                full.to_string(),
                TypeName {
                    package: file.package.clone(),
                    local: safe_type_name(&rel.replace('.', "_")),
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
    packages
        .iter()
        .filter(|(_, files)| {
            files
                .iter()
                .any(|f| !f.messages.is_empty() || !f.enums.is_empty())
        })
        .map(|(package, files)| {
            let mut e = Emitter {
                package,
                names: &names,
                imports: BTreeMap::new(),
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
/// generated code uses (`Map`, `Uint8Array`, …). Such a type gets a trailing `$`.
const RESERVED: &[&str] = &[
    "Array",
    "BigInt",
    "Boolean",
    "Error",
    "Map",
    "Number",
    "Object",
    "Partial",
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

fn safe_type_name(name: &str) -> String {
    if RESERVED.contains(&name) {
        format!("{name}$")
    } else {
        name.to_string()
    }
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
    /// Other packages referenced: package → namespace alias.
    imports: BTreeMap<String, String>,
    body: String,
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
        self.doc_with(comments, indent, None);
    }

    /// A `/** … */` block of the schema's comment, then `extra` as its own paragraph.
    fn doc_with(&mut self, comments: &Comments, indent: &str, extra: Option<&str>) {
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
        match (lines.is_empty(), extra) {
            (true, None) => return,
            (true, Some(e)) => {
                let _ = writeln!(self.body, "{indent}/** {e} */");
                return;
            }
            _ => {}
        }
        let _ = writeln!(self.body, "{indent}/**");
        for line in lines {
            if line.is_empty() {
                let _ = writeln!(self.body, "{indent} *");
            } else {
                let _ = writeln!(self.body, "{indent} * {line}");
            }
        }
        if let Some(e) = extra {
            let _ = writeln!(self.body, "{indent} *\n{indent} * {e}");
        }
        let _ = writeln!(self.body, "{indent} */");
    }

    fn enumeration(&mut self, e: &EnumDef) {
        let name = self.type_ref(&e.full_name);
        let what = format!(
            "`{}`: open (SPEC §3.6), so any int32 is a value; these are the named ones.",
            e.full_name
        );
        self.doc_with(&e.comments, "", Some(&what));
        let _ = writeln!(self.body, "export const {name} = {{");
        for v in &e.values {
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
        self.doc(&m.comments, "");
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
                    self.doc(&f.comments, "  ");
                    let ty = self.field_type(f);
                    let opt = if f.cardinality == Cardinality::Single
                        && f.presence == Presence::Explicit
                    {
                        "?"
                    } else {
                        ""
                    };
                    let _ = writeln!(self.body, "  {}{opt}: {ty};", prop_key(&f.json_name));
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
                    let name = literal_key(&m.oneofs[i].name.to_lower_camel_case());
                    let _ = writeln!(self.body, "  {name}: undefined,");
                }
                continue;
            }
            let _ = writeln!(
                self.body,
                "  {}: {},",
                literal_key(&f.json_name),
                initial(f)
            );
        }
        let _ = writeln!(self.body, "}}));\n");
    }

    fn oneof_member_type(&mut self, m: &MessageDef, i: usize) {
        let o = &m.oneofs[i];
        self.doc(&o.comments, "  ");
        let mut arms = Vec::new();
        for no in &o.fields {
            let Some(f) = m.field(*no) else { continue };
            let ty = self.element_type(&f.ty);
            arms.push(format!("{{ case: {:?}; value: {ty} }}", f.json_name));
        }
        let _ = writeln!(
            self.body,
            "  {}?:\n    | {};",
            prop_key(&o.name.to_lower_camel_case()),
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
        if f.json_name != f.name {
            let _ = write!(s, ", prop: {:?}", f.json_name);
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
                    let _ = write!(s, ", oneof: {:?}", m.oneofs[i].name.to_lower_camel_case());
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
            Some(i) if f.cardinality == Cardinality::Single => {
                m.oneofs[i].name.to_lower_camel_case()
            }
            _ => f.json_name.clone(),
        };
        let access = member_access(&slot);
        let _ = write!(
            s,
            ", get: (v) => v{access}, set: (v, x) => {{ v{access} = x; }}"
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
        let _ = writeln!(out, "import * as $bb from {runtime:?};");
        for (package, alias) in &self.imports {
            let _ = writeln!(
                out,
                "import * as {alias} from {:?};",
                format!("./{}", module_file(package).replace(".ts", ".js"))
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
