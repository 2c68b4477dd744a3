//! A `FileDescriptorProto` back to `.proto` text, so descriptors made by other tools
//! (protoc, buf, protox, a protoc plugin's request) go through the same checker and
//! generator as source files.
//!
//! Everything the generators read survives: syntax, packages, imports, messages,
//! fields (labels, types, numbers, defaults, JSON names, `packed`, `deprecated`),
//! oneofs and proto3 `optional`, maps, enums (aliases), reserved and extension ranges,
//! extensions, services, the file options protoc's own generators read (`go_package`,
//! `java_package`, …), `deprecated` everywhere, and the comments of the set's
//! source-code info (detached, leading and trailing, placed so that the lexer attaches
//! them where protoc found them). Nested messages keep their order around map entries.
//! Custom options do not: `prost_types` drops them. Editions need the encoded descriptor
//! ([`encoded_descriptor_text`]): `prost_types` has no `edition` field, `features`,
//! visibility nor `import option`, which are read from the bytes (`descriptor_extras`);
//! from a decoded descriptor alone an editions file is refused.
//!
//! The text must not say anything the descriptor does not: every name written bare is
//! checked (identifiers, dotted names, numbers, default values, in the form the lexer
//! reads as one token or one dotted name), every string is quoted, every comment is
//! written so that it cannot end early, and what the text cannot say as the
//! descriptor does (a field type or label that is not one, a oneof whose members are
//! apart, a map entry no map field uses) is refused with the descriptor field and the
//! element it is in.

use std::collections::HashMap;
use std::fmt::{self, Write as _};

use prost_types::field_descriptor_proto::{Label, Type};

use crate::check::join;
use crate::descriptor_extras::{self, Extras};
use crate::parser::map_entry_name;
use prost_types::source_code_info::Location;
use prost_types::{
    DescriptorProto, EnumDescriptorProto, FieldDescriptorProto, FileDescriptorProto,
    ServiceDescriptorProto,
};

/// A descriptor that cannot be written back as schema text: a group field, an editions
/// file, a syntax this crate does not know, a name that is no identifier, a string or
/// comment the text cannot hold as the descriptor does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsupportedDescriptor {
    message: String,
}

impl UnsupportedDescriptor {
    /// The stable code of the failure: `unsupported-descriptor`.
    pub fn code(&self) -> &'static str {
        "unsupported-descriptor"
    }
}

impl fmt::Display for UnsupportedDescriptor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for UnsupportedDescriptor {}

fn unsupported(message: String) -> UnsupportedDescriptor {
    UnsupportedDescriptor { message }
}

/// The `.proto` text of one file descriptor, with the comments of its source-code info.
///
/// ```
/// use prost_types::{DescriptorProto, FileDescriptorProto};
///
/// let file = FileDescriptorProto {
///     name: Some("a.proto".into()),
///     syntax: Some("proto3".into()),
///     package: Some("geo".into()),
///     message_type: vec![DescriptorProto { name: Some("Point".into()), ..Default::default() }],
///     ..Default::default()
/// };
/// let text = bijoubuf_schema::descriptor_text(&file)?;
/// assert!(text.contains("message Point {"));
/// # Ok::<(), bijoubuf_schema::UnsupportedDescriptor>(())
/// ```
///
/// # Errors
/// [`UnsupportedDescriptor`] for an editions file (see [`encoded_descriptor_text`]), an
/// unknown syntax, a group field, or a name, default value or comment that the text
/// could not say as the descriptor does (the error names the descriptor field and the
/// element).
pub fn descriptor_text(f: &FileDescriptorProto) -> Result<String, UnsupportedDescriptor> {
    write(f, None)
}

/// The `.proto` text of an encoded `FileDescriptorProto` (an entry of a descriptor set
/// or of a protoc plugin's request), editions files included: their edition, `features`,
/// `export`/`local` and `import option` are read from the bytes, which keep what
/// `prost_types` drops.
///
/// # Errors
/// [`UnsupportedDescriptor`] for bytes that are no `FileDescriptorProto`, an unknown
/// syntax, edition or feature, or a group field.
pub fn encoded_descriptor_text(bytes: &[u8]) -> Result<String, UnsupportedDescriptor> {
    decode(bytes).map(|(_, text)| text)
}

/// The encoded `FileDescriptorProto`s of an encoded `FileDescriptorSet` (protoc's
/// `--descriptor_set_out`, `buf build -o`), in order, each for
/// [`Compiler::encoded_descriptor`](crate::Compiler::encoded_descriptor): unlike a set
/// decoded by `prost_types`, they keep what editions files say.
///
/// # Errors
/// [`UnsupportedDescriptor`] for bytes whose records do not parse.
pub fn encoded_set_files(set: &[u8]) -> Result<Vec<&[u8]>, UnsupportedDescriptor> {
    length_delimited_records(set, 1).ok_or_else(|| {
        unsupported("bytes that are no FileDescriptorSet: a record does not parse".to_string())
    })
}

/// The payloads of the length-delimited records of field `number` in the encoded
/// protobuf message `bytes`, in order (a descriptor set's files are its field 1, a protoc
/// plugin request's its field 15), or `None` if its records do not parse.
pub fn length_delimited_records(bytes: &[u8], number: u32) -> Option<Vec<&[u8]>> {
    let records = descriptor_extras::records(bytes)?;
    Some(
        records
            .into_iter()
            .filter_map(|(n, value)| match value {
                descriptor_extras::Value::Bytes(payload) if n == number => Some(payload),
                _ => None,
            })
            .collect(),
    )
}

/// The descriptor in `bytes` and its text.
pub(crate) fn decode(bytes: &[u8]) -> Result<(FileDescriptorProto, String), UnsupportedDescriptor> {
    let not_a_descriptor =
        |e: &dyn fmt::Display| unsupported(format!("bytes that are no FileDescriptorProto: {e}"));
    let f =
        <FileDescriptorProto as prost::Message>::decode(bytes).map_err(|e| not_a_descriptor(&e))?;
    let extras = descriptor_extras::read(bytes)
        .ok_or_else(|| not_a_descriptor(&"a record does not parse"))?;
    let text = write(&f, Some(extras))?;
    Ok((f, text))
}

fn write(f: &FileDescriptorProto, extras: Option<Extras>) -> Result<String, UnsupportedDescriptor> {
    let edition = match (f.syntax(), &extras) {
        ("editions", Some(x)) => Some(match x.edition {
            Some(1000) => "2023",
            Some(1001) => "2024",
            Some(1002) => "2026",
            other => {
                return Err(unsupported(format!(
                    "{}: edition number {} is not supported",
                    f.name(),
                    other.map_or("(none)".to_string(), |n| n.to_string())
                )));
            }
        }),
        _ => None,
    };
    let proto3 = match f.syntax() {
        "" | "proto2" => false,
        "proto3" => true,
        "editions" if edition.is_some() => false,
        "editions" => {
            return Err(unsupported(format!(
                "{} is an editions file, whose `edition` and `features` a decoded \
                 prost_types descriptor lacks; pass the encoded descriptor, or compile \
                 the .proto text",
                f.name()
            )));
        }
        other => {
            return Err(unsupported(format!(
                "{}: syntax \"{other}\" is not supported",
                f.name()
            )));
        }
    };
    let mut w = Writer {
        out: String::new(),
        file: f.name(),
        proto3,
        editions: edition.is_some(),
        locations: HashMap::new(),
        extras: extras.unwrap_or_default(),
    };
    for loc in f.source_code_info.iter().flat_map(|s| &s.location) {
        w.locations.entry(loc.path.clone()).or_insert(loc);
    }
    match edition {
        Some(e) => {
            let _ = writeln!(w.out, "edition = \"{e}\";");
        }
        None => {
            let syntax = if proto3 { "proto3" } else { "proto2" };
            let _ = writeln!(w.out, "syntax = \"{syntax}\";");
        }
    }
    let file = w.place("the file".to_string());
    if !f.package().is_empty() {
        let package = file.dotted("FileDescriptorProto.package", f.package())?;
        let _ = writeln!(w.out, "package {package};");
    }
    for (field, list) in [
        ("public_dependency", &f.public_dependency),
        ("weak_dependency", &f.weak_dependency),
    ] {
        if let Some(i) = list
            .iter()
            .find(|&&i| usize::try_from(i).map_or(true, |i| i >= f.dependency.len()))
        {
            return Err(unsupported(format!(
                "{}: the file: FileDescriptorProto.{field} {i} is not the index of one of its {} imports",
                w.file,
                f.dependency.len()
            )));
        }
    }
    for (i, dep) in f.dependency.iter().enumerate() {
        let kind = if f.public_dependency.contains(&(i as i32)) {
            "public "
        } else if f.weak_dependency.contains(&(i as i32)) {
            "weak "
        } else {
            ""
        };
        let _ = writeln!(w.out, "import {kind}{};", quote(dep));
    }
    for (i, dep) in w.extras.option_dependency.iter().enumerate() {
        let Ok(dep) = std::str::from_utf8(dep) else {
            return Err(unsupported(format!(
                "{}: the file: FileDescriptorProto.option_dependency {i} is not UTF-8",
                w.file
            )));
        };
        let _ = writeln!(w.out, "import option {};", quote(dep));
    }
    w.file_options(f)?;
    w.features(&[], 0)?;
    let scope = f.package();
    for (i, m) in f.message_type.iter().enumerate() {
        if is_map_entry(m) {
            return Err(unsupported(format!(
                "{}: message {}: MessageOptions.map_entry is set on a message that is not \
                 nested in the message of its map field",
                w.file,
                join(scope, m.name())
            )));
        }
        w.message(m, &[4, i as i32], 0, scope)?;
    }
    for (i, e) in f.enum_type.iter().enumerate() {
        w.enumeration(e, &[5, i as i32], 0, scope)?;
    }
    w.extensions(&f.extension, &[7], 0, scope)?;
    for (i, s) in f.service.iter().enumerate() {
        w.service(s, &[6, i as i32], scope)?;
    }
    Ok(w.out)
}

/// The text being written, and the source-code info's locations by path.
struct Writer<'a> {
    out: String,
    /// The file's name, for errors.
    file: &'a str,
    proto3: bool,
    editions: bool,
    locations: HashMap<Vec<i32>, &'a Location>,
    extras: Extras,
}

fn pad(depth: usize) -> String {
    "  ".repeat(depth)
}

fn path(parent: &[i32], field: i32, index: usize) -> Vec<i32> {
    let mut p = parent.to_vec();
    p.extend([field, index as i32]);
    p
}

/// Where a string of the descriptor is (the file and the element), for errors.
struct Place<'a> {
    file: &'a str,
    element: String,
}

/// Words that, first in a relative type name, the parser reads as a keyword (a label,
/// `stream`, the start of a statement), so that `optional.Foo` would say `optional .Foo`.
const KEYWORDS: &[&str] = &[
    "optional",
    "repeated",
    "required",
    "group",
    "map",
    "stream",
    "option",
    "message",
    "enum",
    "extend",
    "extensions",
    "reserved",
    "oneof",
    "export",
    "local",
];

impl Place<'_> {
    fn refuse(&self, field: &str, value: &str, expected: &str) -> UnsupportedDescriptor {
        unsupported(format!(
            "{}: {}: {field} {value:?} is not {expected}",
            self.file, self.element
        ))
    }

    /// `value` if it is an identifier.
    fn ident<'s>(&self, field: &str, value: &'s str) -> Result<&'s str, UnsupportedDescriptor> {
        if is_ident(value) {
            Ok(value)
        } else {
            Err(self.refuse(field, value, "an identifier"))
        }
    }

    /// `value` if it is identifiers joined by dots.
    fn dotted<'s>(&self, field: &str, value: &'s str) -> Result<&'s str, UnsupportedDescriptor> {
        if value.split('.').all(is_ident) {
            Ok(value)
        } else {
            Err(self.refuse(field, value, "a dotted name"))
        }
    }

    /// `value` if it is a type name the text says as the descriptor does: `.a.b`, or a
    /// relative `a.b` whose first part the parser does not read as a keyword.
    fn type_ref<'s>(&self, field: &str, value: &'s str) -> Result<&'s str, UnsupportedDescriptor> {
        let relative = value.strip_prefix('.').unwrap_or(value);
        if !relative.split('.').all(is_ident) {
            return Err(self.refuse(field, value, "a dotted type name"));
        }
        let first = relative.split('.').next().unwrap_or("");
        if relative.len() == value.len() && KEYWORDS.contains(&first) {
            return Err(self.refuse(
                field,
                value,
                "a type name the text can say: relative, it starts with a keyword",
            ));
        }
        Ok(value)
    }
}

/// Whether `s` is an identifier: a letter or `_`, then letters, digits and `_`.
fn is_ident(s: &str) -> bool {
    let mut bytes = s.bytes();
    bytes
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
        && bytes.all(|c| c.is_ascii_alphanumeric() || c == b'_')
}

impl Writer<'_> {
    fn place(&self, element: String) -> Place<'_> {
        Place {
            file: self.file,
            element,
        }
    }

    /// The `features.x = Y` settings of the element at `path`.
    fn feature_list(&self, path: &[i32]) -> Result<Vec<String>, UnsupportedDescriptor> {
        let Some(set) = self.extras.features.get(path) else {
            return Ok(Vec::new());
        };
        set.iter()
            .map(|&(n, v)| {
                descriptor_extras::feature(n, v).ok_or_else(|| {
                    unsupported(format!(
                        "feature number {n} (value {v}) at descriptor path {path:?} is not supported"
                    ))
                })
            })
            .collect()
    }

    /// `option features.x = Y;` lines for the element at `path`.
    fn features(&mut self, path: &[i32], depth: usize) -> Result<(), UnsupportedDescriptor> {
        let p = pad(depth);
        for f in self.feature_list(path)? {
            let _ = writeln!(self.out, "{p}option {f};");
        }
        Ok(())
    }

    /// `export ` or `local ` before a message or enum, as declared.
    fn visibility(&self, path: &[i32]) -> &'static str {
        match self.extras.visibility.get(path) {
            Some(1) => "local ",
            Some(2) => "export ",
            _ => "",
        }
    }

    /// The detached and leading comments of the element at `path` (`element` names it
    /// in errors), each block after a blank line, the leading one right above the
    /// element: the lexer attaches them as protoc did, since a blank line cuts a block
    /// from the token before it.
    fn leading(
        &mut self,
        path: &[i32],
        depth: usize,
        element: &str,
    ) -> Result<(), UnsupportedDescriptor> {
        let Some(loc) = self.locations.get(path).copied() else {
            return Ok(());
        };
        for block in &loc.leading_detached_comments {
            self.out.push('\n');
            comment(&mut self.out, block, depth)
                .map_err(|e| self.comment_error("leading_detached_comments", element, e))?;
            self.out.push('\n');
        }
        if let Some(text) = &loc.leading_comments {
            self.out.push('\n');
            comment(&mut self.out, text, depth)
                .map_err(|e| self.comment_error("leading_comments", element, e))?;
        }
        Ok(())
    }

    /// The trailing comment of the element at `path`, on the lines right after its
    /// token, then a blank line that closes it (protoc's rule for a comment that
    /// starts on the next line).
    fn trailing(
        &mut self,
        path: &[i32],
        depth: usize,
        element: &str,
    ) -> Result<(), UnsupportedDescriptor> {
        if let Some(text) = self
            .locations
            .get(path)
            .and_then(|loc| loc.trailing_comments.as_ref())
        {
            comment(&mut self.out, text, depth)
                .map_err(|e| self.comment_error("trailing_comments", element, e))?;
            self.out.push('\n');
        }
        Ok(())
    }

    fn comment_error(&self, field: &str, element: &str, why: &str) -> UnsupportedDescriptor {
        let kind = match field {
            "leading_comments" => "leading comment",
            "trailing_comments" => "trailing comment",
            _ => "detached comment",
        };
        unsupported(format!(
            "{}: {kind} of {element} (SourceCodeInfo.Location.{field}) {why}",
            self.file
        ))
    }

    fn file_options(&mut self, f: &FileDescriptorProto) -> Result<(), UnsupportedDescriptor> {
        let Some(o) = &f.options else { return Ok(()) };
        let strings = [
            ("java_package", &o.java_package),
            ("java_outer_classname", &o.java_outer_classname),
            ("go_package", &o.go_package),
            ("objc_class_prefix", &o.objc_class_prefix),
            ("csharp_namespace", &o.csharp_namespace),
            ("swift_prefix", &o.swift_prefix),
            ("php_class_prefix", &o.php_class_prefix),
            ("php_namespace", &o.php_namespace),
            ("php_metadata_namespace", &o.php_metadata_namespace),
            ("ruby_package", &o.ruby_package),
        ];
        for (name, value) in strings {
            if let Some(v) = value {
                let _ = writeln!(self.out, "option {name} = {};", quote(v));
            }
        }
        let bools = [
            ("java_multiple_files", o.java_multiple_files),
            ("java_string_check_utf8", o.java_string_check_utf8),
            ("cc_generic_services", o.cc_generic_services),
            ("java_generic_services", o.java_generic_services),
            ("py_generic_services", o.py_generic_services),
            ("cc_enable_arenas", o.cc_enable_arenas),
        ];
        for (name, value) in bools {
            if let Some(v) = value {
                let _ = writeln!(self.out, "option {name} = {v};");
            }
        }
        if let Some(n) = o.optimize_for {
            let Ok(level) = prost_types::file_options::OptimizeMode::try_from(n) else {
                return Err(unsupported(format!(
                    "{}: the file: FileOptions.optimize_for {n} is not an optimize mode",
                    self.file
                )));
            };
            let _ = writeln!(self.out, "option optimize_for = {};", level.as_str_name());
        }
        if o.deprecated() {
            let _ = writeln!(self.out, "option deprecated = true;");
        }
        Ok(())
    }

    /// Message `m`, declared in `scope` (the full name of its file's package or of the
    /// message it is nested in).
    fn message(
        &mut self,
        m: &DescriptorProto,
        at: &[i32],
        depth: usize,
        scope: &str,
    ) -> Result<(), UnsupportedDescriptor> {
        let p = pad(depth);
        let name = self
            .place(format!("a message in {}", in_scope(scope)))
            .ident("DescriptorProto.name", m.name())?;
        let full = join(scope, name);
        let element = format!("message {full}");
        check_members(self.file, m, &full, self.proto3)?;
        self.leading(at, depth, &element)?;
        let vis = self.visibility(at);
        let _ = writeln!(self.out, "{p}{vis}message {name} {{");
        self.trailing(at, depth + 1, &element)?;
        self.features(at, depth + 1)?;
        if let Some(o) = &m.options {
            if o.deprecated() {
                let _ = writeln!(self.out, "{p}  option deprecated = true;");
            }
            if o.message_set_wire_format() {
                let _ = writeln!(self.out, "{p}  option message_set_wire_format = true;");
            }
        }
        // A oneof is synthetic when its only member is a proto3 `optional` field (its
        // members are checked above).
        let synthetic = |i: i32| {
            m.field
                .iter()
                .filter(|f| f.oneof_index == Some(i))
                .all(|f| f.proto3_optional())
        };
        let mut next_nested = 0;
        for (n, f) in m.field.iter().enumerate() {
            match f.oneof_index {
                Some(i) if !synthetic(i) => {
                    // Written once, at its first member.
                    if m.field.iter().position(|g| g.oneof_index == Some(i)) == Some(n) {
                        let name = self
                            .place(format!("a oneof of {element}"))
                            .ident("OneofDescriptorProto.name", m.oneof_decl[i as usize].name())?;
                        let oneof_element = format!("oneof {full}.{name}");
                        let oneof_at = path(at, 8, i as usize);
                        self.leading(&oneof_at, depth + 1, &oneof_element)?;
                        let _ = writeln!(self.out, "{p}  oneof {name} {{");
                        self.trailing(&oneof_at, depth + 2, &oneof_element)?;
                        self.features(&oneof_at, depth + 2)?;
                        for (k, g) in m.field.iter().enumerate() {
                            if g.oneof_index == Some(i) {
                                let field_at = path(at, 2, k);
                                let text = self.field(g, &field_at, m, &full, true)?;
                                let field_element = format!("field {full}.{}", g.name());
                                self.leading(&field_at, depth + 2, &field_element)?;
                                let _ = writeln!(self.out, "{p}    {text}");
                                self.trailing(&field_at, depth + 2, &field_element)?;
                            }
                        }
                        let _ = writeln!(self.out, "{p}  }}");
                    }
                }
                _ => {
                    // A map's entry sits among the nested types where the map was
                    // declared: the nested messages before it were declared before it.
                    if let Some(entry) = map_entry_index(f, m, &full) {
                        while next_nested < entry {
                            let n = &m.nested_type[next_nested];
                            if !is_map_entry(n) {
                                self.message(n, &path(at, 3, next_nested), depth + 1, &full)?;
                            }
                            next_nested += 1;
                        }
                        next_nested = next_nested.max(entry + 1);
                    }
                    let field_at = path(at, 2, n);
                    let text = self.field(f, &field_at, m, &full, false)?;
                    let field_element = format!("field {full}.{}", f.name());
                    self.leading(&field_at, depth + 1, &field_element)?;
                    let _ = writeln!(self.out, "{p}  {text}");
                    self.trailing(&field_at, depth + 1, &field_element)?;
                }
            }
        }
        for (i, n) in m.nested_type.iter().enumerate().skip(next_nested) {
            if !is_map_entry(n) {
                self.message(n, &path(at, 3, i), depth + 1, &full)?;
            }
        }
        for (i, e) in m.enum_type.iter().enumerate() {
            self.enumeration(e, &path(at, 4, i), depth + 1, &full)?;
        }
        // `max` is 2^31 − 2 in a MessageSet, else 2^29 − 1 (ends here are exclusive).
        let max = if m
            .options
            .as_ref()
            .is_some_and(|o| o.message_set_wire_format())
        {
            i64::from(i32::MAX) - 1
        } else {
            (1 << 29) - 1
        };
        for r in &m.extension_range {
            let _ = writeln!(
                self.out,
                "{p}  extensions {};",
                range(r.start(), i64::from(r.end()) - 1, max)
            );
        }
        for r in &m.reserved_range {
            let _ = writeln!(
                self.out,
                "{p}  reserved {};",
                range(r.start(), i64::from(r.end()) - 1, max)
            );
        }
        for n in &m.reserved_name {
            let name = self.reserved_name(n, &element, "DescriptorProto.reserved_name")?;
            let _ = writeln!(self.out, "{p}  reserved {name};");
        }
        let mut ext_at = at.to_vec();
        ext_at.push(6);
        self.extensions(&m.extension, &ext_at, depth + 1, &full)?;
        let _ = writeln!(self.out, "{p}}}");
        Ok(())
    }

    /// A reserved name: quoted, or an identifier from edition 2023 on.
    fn reserved_name(
        &self,
        name: &str,
        element: &str,
        field: &str,
    ) -> Result<String, UnsupportedDescriptor> {
        if self.editions {
            let place = self.place(element.to_string());
            Ok(place.ident(field, name)?.to_string())
        } else {
            Ok(quote(name))
        }
    }

    fn enumeration(
        &mut self,
        e: &EnumDescriptorProto,
        at: &[i32],
        depth: usize,
        scope: &str,
    ) -> Result<(), UnsupportedDescriptor> {
        let p = pad(depth);
        let name = self
            .place(format!("an enum in {}", in_scope(scope)))
            .ident("EnumDescriptorProto.name", e.name())?;
        let element = format!("enum {}", join(scope, name));
        self.leading(at, depth, &element)?;
        let vis = self.visibility(at);
        let _ = writeln!(self.out, "{p}{vis}enum {name} {{");
        self.trailing(at, depth + 1, &element)?;
        self.features(at, depth + 1)?;
        if e.options.as_ref().is_some_and(|o| o.allow_alias()) {
            let _ = writeln!(self.out, "{p}  option allow_alias = true;");
        }
        if e.options.as_ref().is_some_and(|o| o.deprecated()) {
            let _ = writeln!(self.out, "{p}  option deprecated = true;");
        }
        for (i, v) in e.value.iter().enumerate() {
            let value_at = path(at, 2, i);
            let value = self
                .place(format!("a value of {element}"))
                .ident("EnumValueDescriptorProto.name", v.name())?;
            let mut opts = self.feature_list(&value_at)?;
            if v.options.as_ref().is_some_and(|o| o.deprecated()) {
                opts.push("deprecated = true".into());
            }
            let dep = if opts.is_empty() {
                String::new()
            } else {
                format!(" [{}]", opts.join(", "))
            };
            let value_element = format!("enum value {}", join(scope, value));
            self.leading(&value_at, depth + 1, &value_element)?;
            let _ = writeln!(self.out, "{p}  {value} = {}{dep};", v.number());
            self.trailing(&value_at, depth + 1, &value_element)?;
        }
        for r in &e.reserved_range {
            // Enum reserved ranges are inclusive.
            let _ = writeln!(
                self.out,
                "{p}  reserved {};",
                range(r.start(), i64::from(r.end()), i64::from(i32::MAX))
            );
        }
        for n in &e.reserved_name {
            let name = self.reserved_name(n, &element, "EnumDescriptorProto.reserved_name")?;
            let _ = writeln!(self.out, "{p}  reserved {name};");
        }
        let _ = writeln!(self.out, "{p}}}");
        Ok(())
    }

    /// One field declaration with the features set on it; `owner` is its message
    /// (named `scope`), or an empty one for an extension.
    fn field(
        &self,
        f: &FieldDescriptorProto,
        at: &[i32],
        owner: &DescriptorProto,
        scope: &str,
        in_oneof: bool,
    ) -> Result<String, UnsupportedDescriptor> {
        let features = self.feature_list(at)?;
        let element = if f.extendee.is_some() {
            format!("an extension in {}", in_scope(scope))
        } else {
            format!("a field of message {scope}")
        };
        let name = self
            .place(element)
            .ident("FieldDescriptorProto.name", f.name())?;
        let kind = if f.extendee.is_some() {
            "extension"
        } else {
            "field"
        };
        let place = self.place(format!("{kind} {}", join(scope, name)));
        field(
            f,
            features,
            (owner, scope),
            (self.proto3, self.editions),
            in_oneof,
            &place,
        )
    }

    /// The extensions declared in one scope (`list` is the path of the scope's
    /// extension list), one `extend` block per run of extensions of one extendee, so
    /// that they keep their order.
    fn extensions(
        &mut self,
        exts: &[FieldDescriptorProto],
        list: &[i32],
        depth: usize,
        scope: &str,
    ) -> Result<(), UnsupportedDescriptor> {
        let p = pad(depth);
        let none = DescriptorProto::default();
        let mut open: Option<&str> = None;
        for (i, x) in exts.iter().enumerate() {
            let name = join(scope, x.name());
            let place = self.place(format!("extension {name}"));
            if x.extendee.is_none() {
                return Err(unsupported(format!(
                    "{}: extension {name}: FieldDescriptorProto.extendee is not set",
                    self.file
                )));
            }
            let target = place.type_ref("FieldDescriptorProto.extendee", x.extendee())?;
            if x.oneof_index.is_some() {
                return Err(unsupported(format!(
                    "{}: extension {name}: FieldDescriptorProto.oneof_index is set on an extension",
                    self.file
                )));
            }
            if open != Some(target) {
                if open.is_some() {
                    let _ = writeln!(self.out, "{p}}}");
                }
                let _ = writeln!(self.out, "{p}extend {target} {{");
                open = Some(target);
            }
            let mut at = list.to_vec();
            at.push(i as i32);
            let text = self.field(x, &at, &none, scope, false)?;
            let element = format!("extension {name}");
            self.leading(&at, depth + 1, &element)?;
            let _ = writeln!(self.out, "{p}  {text}");
            self.trailing(&at, depth + 1, &element)?;
        }
        if open.is_some() {
            let _ = writeln!(self.out, "{p}}}");
        }
        Ok(())
    }

    fn service(
        &mut self,
        s: &ServiceDescriptorProto,
        at: &[i32],
        scope: &str,
    ) -> Result<(), UnsupportedDescriptor> {
        let name = self
            .place(format!("a service in {}", in_scope(scope)))
            .ident("ServiceDescriptorProto.name", s.name())?;
        let full = join(scope, name);
        let element = format!("service {full}");
        self.leading(at, 0, &element)?;
        let _ = writeln!(self.out, "service {name} {{");
        self.trailing(at, 1, &element)?;
        self.features(at, 1)?;
        if s.options.as_ref().is_some_and(|o| o.deprecated()) {
            let _ = writeln!(self.out, "  option deprecated = true;");
        }
        for (i, m) in s.method.iter().enumerate() {
            let method_at = path(at, 2, i);
            let name = self
                .place(format!("a method of {element}"))
                .ident("MethodDescriptorProto.name", m.name())?;
            let method_element = format!("method {full}.{name}");
            let place = self.place(method_element.clone());
            let input = place.type_ref("MethodDescriptorProto.input_type", m.input_type())?;
            let output = place.type_ref("MethodDescriptorProto.output_type", m.output_type())?;
            self.leading(&method_at, 1, &method_element)?;
            let cs = if m.client_streaming() { "stream " } else { "" };
            let ss = if m.server_streaming() { "stream " } else { "" };
            let _ = write!(self.out, "  rpc {name}({cs}{input}) returns ({ss}{output})");
            let mut body: Vec<String> = self
                .feature_list(&method_at)?
                .into_iter()
                .map(|f| format!("option {f};"))
                .collect();
            if let Some(o) = &m.options {
                if o.deprecated() {
                    body.push("option deprecated = true;".to_string());
                }
                if let Some(level) = o.idempotency_level {
                    let name = match level {
                        0 => "IDEMPOTENCY_UNKNOWN",
                        1 => "NO_SIDE_EFFECTS",
                        2 => "IDEMPOTENT",
                        n => {
                            return Err(unsupported(format!(
                                "{}: {method_element}: MethodOptions.idempotency_level {n} \
                                 is not an idempotency level",
                                self.file
                            )));
                        }
                    };
                    body.push(format!("option idempotency_level = {name};"));
                }
            }
            if body.is_empty() {
                self.out.push_str(";\n");
            } else {
                self.out.push_str(" {\n");
                for line in body {
                    let _ = writeln!(self.out, "    {line}");
                }
                self.out.push_str("  }\n");
            }
            self.trailing(&method_at, 1, &method_element)?;
        }
        let _ = writeln!(self.out, "}}");
        Ok(())
    }
}

/// A scope in errors: a package or message name, or the root scope.
fn in_scope(scope: &str) -> &str {
    if scope.is_empty() {
        "the root scope"
    } else {
        scope
    }
}

/// What the text of message `m` (named `full`) would say differently from its
/// descriptor, refused as protoc refuses it: a field naming a oneof that is not there,
/// a oneof with no members or with members apart (the text lists them together), a
/// proto3 `optional` field that is not alone in its oneof, a field with an extendee,
/// and a map entry that is not the entry of exactly one map field of `m` or that a
/// `map<K, V>` field would not make as it is.
fn check_members(
    file: &str,
    m: &DescriptorProto,
    full: &str,
    proto3: bool,
) -> Result<(), UnsupportedDescriptor> {
    let refuse =
        |element: String, why: String| Err(unsupported(format!("{file}: {element}: {why}")));
    let mut members = vec![0usize; m.oneof_decl.len()];
    let mut previous: Option<i32> = None;
    for f in &m.field {
        let element = format!("field {full}.{}", f.name());
        if f.extendee.is_some() {
            return refuse(
                element,
                "FieldDescriptorProto.extendee is set on a field that is no extension".into(),
            );
        }
        if let Some(i) = f.oneof_index {
            let Some(count) = usize::try_from(i).ok().and_then(|i| members.get_mut(i)) else {
                return refuse(
                    element,
                    format!(
                        "FieldDescriptorProto.oneof_index {i} names no oneof (the message has {})",
                        m.oneof_decl.len()
                    ),
                );
            };
            if *count > 0 && previous != Some(i) {
                return refuse(
                    format!("oneof {full}.{}", m.oneof_decl[i as usize].name()),
                    "its members are not consecutive fields".into(),
                );
            }
            *count += 1;
        }
        previous = f.oneof_index;
    }
    for (i, count) in members.iter().enumerate() {
        if *count == 0 {
            return refuse(
                format!("oneof {full}.{}", m.oneof_decl[i].name()),
                "it has no fields".into(),
            );
        }
    }
    for f in m.field.iter().filter(|f| f.proto3_optional()) {
        let alone = f
            .oneof_index
            .and_then(|i| members.get(usize::try_from(i).ok()?))
            == Some(&1);
        if !proto3 || !alone {
            return refuse(
                format!("field {full}.{}", f.name()),
                "FieldDescriptorProto.proto3_optional is set on a field that is not alone in \
                 its oneof of a proto3 file"
                    .into(),
            );
        }
    }
    for (i, entry) in m.nested_type.iter().enumerate() {
        if !is_map_entry(entry) {
            continue;
        }
        let element = format!("map entry {full}.{}", entry.name());
        let mut maps = m
            .field
            .iter()
            .filter(|f| map_entry_index(f, m, full) == Some(i));
        let (Some(map), None) = (maps.next(), maps.next()) else {
            return refuse(
                element,
                "MessageOptions.map_entry is set on a message that is not the entry of exactly \
                 one map field"
                    .into(),
            );
        };
        let want = map_entry_name(map.name());
        if entry.name() != want {
            return refuse(
                element,
                format!(
                    "the entry of map field {} is named {want:?} in the text",
                    map.name()
                ),
            );
        }
        let part = |g: &FieldDescriptorProto, name: &str, number: i32| {
            g.name() == name
                && g.number() == number
                && matches!(g.label, None | Some(1))
                && g.oneof_index.is_none()
                && g.extendee.is_none()
                && g.default_value.is_none()
                && g.json_name.as_deref().is_none_or(|j| j == name)
                && !g.proto3_optional()
        };
        let plain = match entry.field.as_slice() {
            [k, v] => part(k, "key", 1) && part(v, "value", 2),
            _ => false,
        } && entry.nested_type.is_empty()
            && entry.enum_type.is_empty()
            && entry.extension.is_empty()
            && entry.extension_range.is_empty()
            && entry.oneof_decl.is_empty()
            && entry.reserved_range.is_empty()
            && entry.reserved_name.is_empty();
        if !plain {
            return refuse(
                element,
                "a map entry holds an optional field key = 1 and an optional field value = 2, \
                 and nothing else"
                    .into(),
            );
        }
    }
    Ok(())
}

/// A comment block as the lexer reads it back to `text`: `//` lines when the text ends
/// with a newline (a line comment's text runs to its newline), else one `/* */` block,
/// whose lines after the first each start with the `*` the lexer drops, unless they
/// start with `/` (which that `*` would make the end of the block). A block that holds
/// `*/` cannot be written (protoc never makes one); a NUL the lexer refuses.
fn comment(out: &mut String, text: &str, depth: usize) -> Result<(), &'static str> {
    if text.contains('\0') {
        return Err("holds a NUL byte");
    }
    let p = pad(depth);
    if text.ends_with('\n') {
        for line in text.split_inclusive('\n') {
            let _ = write!(out, "{p}//{line}");
        }
    } else {
        if text.contains("*/") {
            return Err("holds \"*/\" and does not end with a newline: no comment can say it");
        }
        out.push_str(&p);
        out.push_str("/*");
        for (n, line) in text.split('\n').enumerate() {
            if n > 0 {
                out.push('\n');
                if !line.starts_with('/') {
                    out.push_str(&p);
                    out.push('*');
                }
            }
            out.push_str(line);
        }
        out.push_str("*/\n");
    }
    Ok(())
}

/// The index among `owner`'s nested types of map field `f`'s entry, if `f` is a map:
/// a repeated message field whose type is that entry (`owner` is named `full`).
fn map_entry_index(f: &FieldDescriptorProto, owner: &DescriptorProto, full: &str) -> Option<usize> {
    if f.label != Some(Label::Repeated as i32) || f.r#type != Some(Type::Message as i32) {
        return None;
    }
    let type_name = f.type_name();
    owner.nested_type.iter().position(|n| {
        is_map_entry(n)
            && (type_name == n.name()
                || type_name
                    .strip_prefix('.')
                    .and_then(|t| t.strip_prefix(full))
                    .and_then(|t| t.strip_prefix('.'))
                    == Some(n.name()))
    })
}

fn is_map_entry(m: &DescriptorProto) -> bool {
    m.options.as_ref().is_some_and(|o| o.map_entry())
}

/// `start`, `start to end` or `start to max` (when `end` is `max`).
fn range(start: i32, end: i64, max: i64) -> String {
    if i64::from(start) == end {
        start.to_string()
    } else if end == max {
        format!("{start} to max")
    } else {
        format!("{start} to {end}")
    }
}

/// One field declaration (without indentation), with `features` among its options;
/// `owner` is the message it is declared in and its full name.
fn field(
    f: &FieldDescriptorProto,
    features: Vec<String>,
    (owner, scope): (&DescriptorProto, &str),
    syntax: (bool, bool),
    in_oneof: bool,
    place: &Place<'_>,
) -> Result<String, UnsupportedDescriptor> {
    let (proto3, editions) = syntax;
    let label = match f.label {
        None => Label::Optional,
        Some(n) => Label::try_from(n).map_err(|_| {
            unsupported(format!(
                "{}: {}: FieldDescriptorProto.label {n} is not a label",
                place.file, place.element
            ))
        })?,
    };
    let mut features = features;
    // Editions spell `required` as a feature; the descriptor may keep the label.
    if editions
        && label == Label::Required
        && !features
            .iter()
            .any(|s| s.starts_with("features.field_presence"))
    {
        features.push("features.field_presence = LEGACY_REQUIRED".into());
    }
    // A map field: repeated, of this message's nested entry type.
    if let Some(entry) = map_entry_index(f, owner, scope) {
        let entry = &owner.nested_type[entry];
        // The entry's two fields were checked with the message.
        let (k, v) = (&entry.field[0], &entry.field[1]);
        let key = type_name(k, &inner(place, "key"))?;
        let value = type_name(v, &inner(place, "value"))?;
        return Ok(format!(
            "map<{key}, {value}> {} = {}{};",
            f.name(),
            f.number(),
            field_options(f, features, place)?
        ));
    }
    let label = if in_oneof {
        ""
    } else if editions {
        if label == Label::Repeated {
            "repeated "
        } else {
            ""
        }
    } else {
        match (label, proto3) {
            (Label::Repeated, _) => "repeated ",
            (Label::Required, _) => "required ",
            (Label::Optional, false) => "optional ",
            (Label::Optional, true) if f.proto3_optional() => "optional ",
            (Label::Optional, true) => "",
        }
    };
    Ok(format!(
        "{label}{} {} = {}{};",
        type_name(f, place)?,
        f.name(),
        f.number(),
        field_options(f, features, place)?
    ))
}

/// The place of a map entry's key or value field, in the map field's place.
fn inner<'a>(place: &Place<'a>, part: &str) -> Place<'a> {
    Place {
        file: place.file,
        element: format!("{} ({part} of its map entry)", place.element),
    }
}

/// The field's type, if the descriptor says one: `type`, or `type_name` alone (a
/// message or enum, resolved as the text is compiled).
fn field_type(
    f: &FieldDescriptorProto,
    place: &Place<'_>,
) -> Result<Option<Type>, UnsupportedDescriptor> {
    match f.r#type {
        None if f.type_name.is_some() => Ok(None),
        None => Err(unsupported(format!(
            "{}: {}: neither FieldDescriptorProto.type nor type_name is set",
            place.file, place.element
        ))),
        Some(n) => Type::try_from(n).map(Some).map_err(|_| {
            unsupported(format!(
                "{}: {}: FieldDescriptorProto.type {n} is not a field type",
                place.file, place.element
            ))
        }),
    }
}

fn type_name(f: &FieldDescriptorProto, place: &Place<'_>) -> Result<String, UnsupportedDescriptor> {
    let named = || place.type_ref("FieldDescriptorProto.type_name", f.type_name());
    let scalar = match field_type(f, place)? {
        None | Some(Type::Message | Type::Enum) => return Ok(named()?.to_string()),
        Some(Type::Group) => {
            return Err(unsupported(format!(
                "group field {} is not supported by bijoubuf v1",
                f.name()
            )));
        }
        Some(Type::Double) => "double",
        Some(Type::Float) => "float",
        Some(Type::Int64) => "int64",
        Some(Type::Uint64) => "uint64",
        Some(Type::Int32) => "int32",
        Some(Type::Fixed64) => "fixed64",
        Some(Type::Fixed32) => "fixed32",
        Some(Type::Bool) => "bool",
        Some(Type::String) => "string",
        Some(Type::Bytes) => "bytes",
        Some(Type::Uint32) => "uint32",
        Some(Type::Sfixed32) => "sfixed32",
        Some(Type::Sfixed64) => "sfixed64",
        Some(Type::Sint32) => "sint32",
        Some(Type::Sint64) => "sint64",
    };
    if let Some(t) = &f.type_name {
        return Err(place.refuse(
            "FieldDescriptorProto.type_name",
            t,
            &format!("set on a field of scalar type {scalar}"),
        ));
    }
    Ok(scalar.to_string())
}

/// `[default = …, json_name = …, packed = …, deprecated = …]`, or nothing.
fn field_options(
    f: &FieldDescriptorProto,
    features: Vec<String>,
    place: &Place<'_>,
) -> Result<String, UnsupportedDescriptor> {
    let mut opts = features;
    if let Some(d) = &f.default_value {
        opts.push(format!("default = {}", default_value(f, d, place)?));
    }
    if let Some(j) = &f.json_name
        && *j != crate::default_json_name(f.name())
    {
        opts.push(format!("json_name = {}", quote(j)));
    }
    if let Some(o) = &f.options {
        if let Some(p) = o.packed {
            opts.push(format!("packed = {p}"));
        }
        if o.deprecated() {
            opts.push("deprecated = true".into());
        }
    }
    Ok(if opts.is_empty() {
        String::new()
    } else {
        format!(" [{}]", opts.join(", "))
    })
}

/// A default value as the text says it: strings quoted, bytes (C-escaped in
/// descriptors) unescaped and escaped again, anything else only if it is one token of
/// the field's type (an optional `-` and a number, `true`/`false`, a value name).
fn default_value(
    f: &FieldDescriptorProto,
    d: &str,
    place: &Place<'_>,
) -> Result<String, UnsupportedDescriptor> {
    let field = "FieldDescriptorProto.default_value";
    let (ok, expected) = match field_type(f, place)? {
        Some(Type::String) => return Ok(quote(d)),
        Some(Type::Bytes) => {
            return match crate::check::defaults::c_unescape(d) {
                Some(bytes) => Ok(format!("\"{}\"", crate::check::defaults::c_escape(&bytes))),
                None => Err(place.refuse(field, d, "C-escaped bytes")),
            };
        }
        Some(Type::Bool) => (d == "true" || d == "false", "true or false"),
        Some(Type::Double | Type::Float) => (is_float_text(d), "a number, inf or nan"),
        Some(Type::Message | Type::Group) => (false, "allowed: a message field has no default"),
        Some(Type::Enum) | None => (is_ident(d), "an enum value name"),
        Some(_) => (is_int_text(d), "an integer"),
    };
    if ok {
        Ok(d.to_string())
    } else {
        Err(place.refuse(field, d, expected))
    }
}

/// An optional `-`, then decimal digits or `0x` and hex digits.
fn is_int_text(d: &str) -> bool {
    let d = d.strip_prefix('-').unwrap_or(d);
    match d.strip_prefix("0x").or_else(|| d.strip_prefix("0X")) {
        Some(hex) => !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()),
        None => !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()),
    }
}

/// An optional `-`, then `inf`, `infinity`, `nan` or a decimal number (one token).
fn is_float_text(d: &str) -> bool {
    let d = d.strip_prefix('-').unwrap_or(d);
    matches!(d, "inf" | "infinity" | "nan")
        || (d.starts_with(|c: char| c.is_ascii_digit() || c == '.')
            && d.bytes()
                .all(|b| b.is_ascii_digit() || b".eE+-".contains(&b))
            && d.parse::<f64>().is_ok())
}

/// A proto string literal.
fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\{:03o}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
