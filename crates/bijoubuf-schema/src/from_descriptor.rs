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

use std::collections::HashMap;
use std::fmt::{self, Write as _};

use prost_types::field_descriptor_proto::{Label, Type};

use crate::descriptor_extras::{self, Extras};
use prost_types::source_code_info::Location;
use prost_types::{
    DescriptorProto, EnumDescriptorProto, FieldDescriptorProto, FileDescriptorProto,
    ServiceDescriptorProto,
};

/// A descriptor that cannot be written back as schema text: a group field, an editions
/// file, a syntax this crate does not know.
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
/// unknown syntax or a group field.
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
    if !f.package().is_empty() {
        let _ = writeln!(w.out, "package {};", f.package());
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
    for dep in &w.extras.option_dependency {
        let _ = writeln!(w.out, "import option {};", quote(dep));
    }
    w.file_options(f);
    w.features(&[], 0)?;
    for (i, m) in f.message_type.iter().enumerate() {
        w.message(m, &[4, i as i32], 0)?;
    }
    for (i, e) in f.enum_type.iter().enumerate() {
        w.enumeration(e, &[5, i as i32], 0)?;
    }
    w.extensions(&f.extension, &[7], 0)?;
    for (i, s) in f.service.iter().enumerate() {
        w.service(s, &[6, i as i32])?;
    }
    Ok(w.out)
}

/// The text being written, and the source-code info's locations by path.
struct Writer<'a> {
    out: String,
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

impl Writer<'_> {
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

    /// The detached and leading comments of the element at `path`, each block after a
    /// blank line, the leading one right above the element: the lexer attaches them as
    /// protoc did, since a blank line cuts a block from the token before it.
    fn leading(&mut self, path: &[i32], depth: usize) {
        let Some(loc) = self.locations.get(path).copied() else {
            return;
        };
        for block in &loc.leading_detached_comments {
            self.out.push('\n');
            comment(&mut self.out, block, depth);
            self.out.push('\n');
        }
        if let Some(text) = &loc.leading_comments {
            self.out.push('\n');
            comment(&mut self.out, text, depth);
        }
    }

    /// The trailing comment of the element at `path`, on the lines right after its
    /// token, then a blank line that closes it (protoc's rule for a comment that
    /// starts on the next line).
    fn trailing(&mut self, path: &[i32], depth: usize) {
        if let Some(text) = self
            .locations
            .get(path)
            .and_then(|loc| loc.trailing_comments.as_ref())
        {
            comment(&mut self.out, text, depth);
            self.out.push('\n');
        }
    }

    fn file_options(&mut self, f: &FileDescriptorProto) {
        let Some(o) = &f.options else { return };
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
        if o.optimize_for.is_some() {
            let _ = writeln!(
                self.out,
                "option optimize_for = {};",
                o.optimize_for().as_str_name()
            );
        }
        if o.deprecated() {
            let _ = writeln!(self.out, "option deprecated = true;");
        }
    }

    fn message(
        &mut self,
        m: &DescriptorProto,
        at: &[i32],
        depth: usize,
    ) -> Result<(), UnsupportedDescriptor> {
        let p = pad(depth);
        self.leading(at, depth);
        let vis = self.visibility(at);
        let _ = writeln!(self.out, "{p}{vis}message {} {{", m.name());
        self.trailing(at, depth + 1);
        self.features(at, depth + 1)?;
        if let Some(o) = &m.options {
            if o.deprecated() {
                let _ = writeln!(self.out, "{p}  option deprecated = true;");
            }
            if o.message_set_wire_format() {
                let _ = writeln!(self.out, "{p}  option message_set_wire_format = true;");
            }
        }
        // A oneof is synthetic when its only member is a proto3 `optional` field.
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
                        let name = m.oneof_decl.get(i as usize).map(|o| o.name()).unwrap_or("");
                        let oneof_at = path(at, 8, i as usize);
                        self.leading(&oneof_at, depth + 1);
                        let _ = writeln!(self.out, "{p}  oneof {name} {{");
                        self.trailing(&oneof_at, depth + 2);
                        self.features(&oneof_at, depth + 2)?;
                        for (k, g) in m.field.iter().enumerate() {
                            if g.oneof_index == Some(i) {
                                let field_at = path(at, 2, k);
                                self.leading(&field_at, depth + 2);
                                let text = self.field(g, &field_at, m, true)?;
                                let _ = writeln!(self.out, "{p}    {text}");
                                self.trailing(&field_at, depth + 2);
                            }
                        }
                        let _ = writeln!(self.out, "{p}  }}");
                    }
                }
                _ => {
                    // A map's entry sits among the nested types where the map was
                    // declared: the nested messages before it were declared before it.
                    if let Some(entry) = map_entry_index(f, m) {
                        while next_nested < entry {
                            let n = &m.nested_type[next_nested];
                            if !is_map_entry(n) {
                                self.message(n, &path(at, 3, next_nested), depth + 1)?;
                            }
                            next_nested += 1;
                        }
                        next_nested = next_nested.max(entry + 1);
                    }
                    let field_at = path(at, 2, n);
                    self.leading(&field_at, depth + 1);
                    let text = self.field(f, &field_at, m, false)?;
                    let _ = writeln!(self.out, "{p}  {text}");
                    self.trailing(&field_at, depth + 1);
                }
            }
        }
        for (i, n) in m.nested_type.iter().enumerate().skip(next_nested) {
            if !is_map_entry(n) {
                self.message(n, &path(at, 3, i), depth + 1)?;
            }
        }
        for (i, e) in m.enum_type.iter().enumerate() {
            self.enumeration(e, &path(at, 4, i), depth + 1)?;
        }
        for r in &m.extension_range {
            let _ = writeln!(
                self.out,
                "{p}  extensions {};",
                range(r.start(), r.end() - 1)
            );
        }
        for r in &m.reserved_range {
            let _ = writeln!(self.out, "{p}  reserved {};", range(r.start(), r.end() - 1));
        }
        for n in &m.reserved_name {
            let _ = writeln!(
                self.out,
                "{p}  reserved {};",
                reserved_name(n, self.editions)
            );
        }
        let mut ext_at = at.to_vec();
        ext_at.push(6);
        self.extensions(&m.extension, &ext_at, depth + 1)?;
        let _ = writeln!(self.out, "{p}}}");
        Ok(())
    }

    fn enumeration(
        &mut self,
        e: &EnumDescriptorProto,
        at: &[i32],
        depth: usize,
    ) -> Result<(), UnsupportedDescriptor> {
        let p = pad(depth);
        self.leading(at, depth);
        let vis = self.visibility(at);
        let _ = writeln!(self.out, "{p}{vis}enum {} {{", e.name());
        self.trailing(at, depth + 1);
        self.features(at, depth + 1)?;
        if e.options.as_ref().is_some_and(|o| o.allow_alias()) {
            let _ = writeln!(self.out, "{p}  option allow_alias = true;");
        }
        if e.options.as_ref().is_some_and(|o| o.deprecated()) {
            let _ = writeln!(self.out, "{p}  option deprecated = true;");
        }
        for (i, v) in e.value.iter().enumerate() {
            let value_at = path(at, 2, i);
            let mut opts = self.feature_list(&value_at)?;
            if v.options.as_ref().is_some_and(|o| o.deprecated()) {
                opts.push("deprecated = true".into());
            }
            let dep = if opts.is_empty() {
                String::new()
            } else {
                format!(" [{}]", opts.join(", "))
            };
            self.leading(&value_at, depth + 1);
            let _ = writeln!(self.out, "{p}  {} = {}{dep};", v.name(), v.number());
            self.trailing(&value_at, depth + 1);
        }
        for r in &e.reserved_range {
            // Enum reserved ranges are inclusive.
            let _ = writeln!(self.out, "{p}  reserved {};", range(r.start(), r.end()));
        }
        for n in &e.reserved_name {
            let _ = writeln!(
                self.out,
                "{p}  reserved {};",
                reserved_name(n, self.editions)
            );
        }
        let _ = writeln!(self.out, "{p}}}");
        Ok(())
    }

    /// One field declaration with the features set on it.
    fn field(
        &self,
        f: &FieldDescriptorProto,
        at: &[i32],
        owner: &DescriptorProto,
        in_oneof: bool,
    ) -> Result<String, UnsupportedDescriptor> {
        let features = self.feature_list(at)?;
        field(f, features, owner, (self.proto3, self.editions), in_oneof)
    }

    /// The extensions declared in one scope (`list` is the path of the scope's
    /// extension list), one `extend` block per extendee.
    fn extensions(
        &mut self,
        exts: &[FieldDescriptorProto],
        list: &[i32],
        depth: usize,
    ) -> Result<(), UnsupportedDescriptor> {
        let p = pad(depth);
        let mut extendees: Vec<&str> = Vec::new();
        for x in exts {
            if !extendees.contains(&x.extendee()) {
                extendees.push(x.extendee());
            }
        }
        let none = DescriptorProto::default();
        for target in extendees {
            let _ = writeln!(self.out, "{p}extend {target} {{");
            for (i, x) in exts.iter().enumerate() {
                if x.extendee() == target {
                    let mut at = list.to_vec();
                    at.push(i as i32);
                    self.leading(&at, depth + 1);
                    let text = self.field(x, &at, &none, false)?;
                    let _ = writeln!(self.out, "{p}  {text}");
                    self.trailing(&at, depth + 1);
                }
            }
            let _ = writeln!(self.out, "{p}}}");
        }
        Ok(())
    }

    fn service(
        &mut self,
        s: &ServiceDescriptorProto,
        at: &[i32],
    ) -> Result<(), UnsupportedDescriptor> {
        self.leading(at, 0);
        let _ = writeln!(self.out, "service {} {{", s.name());
        self.trailing(at, 1);
        self.features(at, 1)?;
        if s.options.as_ref().is_some_and(|o| o.deprecated()) {
            let _ = writeln!(self.out, "  option deprecated = true;");
        }
        for (i, m) in s.method.iter().enumerate() {
            let method_at = path(at, 2, i);
            self.leading(&method_at, 1);
            let cs = if m.client_streaming() { "stream " } else { "" };
            let ss = if m.server_streaming() { "stream " } else { "" };
            let _ = write!(
                self.out,
                "  rpc {}({cs}{}) returns ({ss}{})",
                m.name(),
                m.input_type(),
                m.output_type()
            );
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
                        1 => "NO_SIDE_EFFECTS",
                        2 => "IDEMPOTENT",
                        _ => "IDEMPOTENCY_UNKNOWN",
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
            self.trailing(&method_at, 1);
        }
        let _ = writeln!(self.out, "}}");
        Ok(())
    }
}

/// A comment block as the lexer reads it back to `text`: `//` lines when the text ends
/// with a newline (a line comment's text runs to its newline), else one `/* */` block,
/// whose lines after the first each start with the `*` the lexer drops.
fn comment(out: &mut String, text: &str, depth: usize) {
    let p = pad(depth);
    if text.ends_with('\n') {
        for line in text.split_inclusive('\n') {
            let _ = write!(out, "{p}//{line}");
        }
    } else {
        let _ = writeln!(out, "{p}/*{}*/", text.replace('\n', &format!("\n{p}*")));
    }
}

/// The index among `owner`'s nested types of map field `f`'s entry, if `f` is a map.
fn map_entry_index(f: &FieldDescriptorProto, owner: &DescriptorProto) -> Option<usize> {
    if f.label() != Label::Repeated || f.r#type() != Type::Message {
        return None;
    }
    let entry_name = f.type_name().rsplit('.').next().unwrap_or("");
    owner
        .nested_type
        .iter()
        .position(|n| n.name() == entry_name && is_map_entry(n))
}

fn is_map_entry(m: &DescriptorProto) -> bool {
    m.options.as_ref().is_some_and(|o| o.map_entry())
}

fn range(start: i32, end: i32) -> String {
    if start == end {
        start.to_string()
    } else if end >= (1 << 29) - 1 {
        format!("{start} to max")
    } else {
        format!("{start} to {end}")
    }
}

/// One field declaration (without indentation), with `features` among its options.
fn field(
    f: &FieldDescriptorProto,
    features: Vec<String>,
    owner: &DescriptorProto,
    syntax: (bool, bool),
    in_oneof: bool,
) -> Result<String, UnsupportedDescriptor> {
    let (proto3, editions) = syntax;
    let mut features = features;
    // Editions spell `required` as a feature; the descriptor may keep the label.
    if editions
        && f.label() == Label::Required
        && !features
            .iter()
            .any(|s| s.starts_with("features.field_presence"))
    {
        features.push("features.field_presence = LEGACY_REQUIRED".into());
    }
    // A map field: repeated, of this message's nested entry type.
    if f.label() == Label::Repeated && f.r#type() == Type::Message {
        let entry_name = f.type_name().rsplit('.').next().unwrap_or("");
        if let Some(entry) = owner
            .nested_type
            .iter()
            .find(|n| n.name() == entry_name && is_map_entry(n))
        {
            let key = entry.field.iter().find(|g| g.number() == 1);
            let value = entry.field.iter().find(|g| g.number() == 2);
            if let (Some(k), Some(v)) = (key, value) {
                return Ok(format!(
                    "map<{}, {}> {} = {}{};",
                    type_name(k)?,
                    type_name(v)?,
                    f.name(),
                    f.number(),
                    field_options(f, features)
                ));
            }
        }
    }
    let label = if in_oneof {
        ""
    } else if editions {
        if f.label() == Label::Repeated {
            "repeated "
        } else {
            ""
        }
    } else {
        match (f.label(), proto3) {
            (Label::Repeated, _) => "repeated ",
            (Label::Required, _) => "required ",
            (Label::Optional, false) => "optional ",
            (Label::Optional, true) if f.proto3_optional() => "optional ",
            (Label::Optional, true) => "",
        }
    };
    Ok(format!(
        "{label}{} {} = {}{};",
        type_name(f)?,
        f.name(),
        f.number(),
        field_options(f, features)
    ))
}

fn type_name(f: &FieldDescriptorProto) -> Result<String, UnsupportedDescriptor> {
    Ok(match f.r#type() {
        Type::Message | Type::Enum => f.type_name().to_string(),
        Type::Group => {
            return Err(unsupported(format!(
                "group field {} is not supported by bijoubuf v1",
                f.name()
            )));
        }
        Type::Double => "double".into(),
        Type::Float => "float".into(),
        Type::Int64 => "int64".into(),
        Type::Uint64 => "uint64".into(),
        Type::Int32 => "int32".into(),
        Type::Fixed64 => "fixed64".into(),
        Type::Fixed32 => "fixed32".into(),
        Type::Bool => "bool".into(),
        Type::String => "string".into(),
        Type::Bytes => "bytes".into(),
        Type::Uint32 => "uint32".into(),
        Type::Sfixed32 => "sfixed32".into(),
        Type::Sfixed64 => "sfixed64".into(),
        Type::Sint32 => "sint32".into(),
        Type::Sint64 => "sint64".into(),
    })
}

/// `[default = …, json_name = …, packed = …, deprecated = …]`, or nothing.
fn field_options(f: &FieldDescriptorProto, features: Vec<String>) -> String {
    let mut opts = features;
    if let Some(d) = &f.default_value {
        let v = match f.r#type() {
            // Descriptors keep strings raw and bytes C-escaped.
            Type::String => quote(d),
            Type::Bytes => format!("\"{d}\""),
            _ => d.clone(),
        };
        opts.push(format!("default = {v}"));
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
    if opts.is_empty() {
        String::new()
    } else {
        format!(" [{}]", opts.join(", "))
    }
}

/// A reserved name: quoted, or an identifier from edition 2023 on.
fn reserved_name(name: &str, editions: bool) -> String {
    if editions {
        name.to_string()
    } else {
        quote(name)
    }
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
