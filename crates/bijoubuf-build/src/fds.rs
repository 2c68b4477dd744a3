//! A `FileDescriptorSet` back to `.proto` text, so descriptor sets made by other tools
//! (protoc, buf, protox) go through the same checker and generator as source files.
//!
//! Everything the generator reads survives: syntax, packages, imports, messages,
//! fields (labels, types, numbers, defaults, JSON names, `packed`, `deprecated`),
//! oneofs and proto3 `optional`, maps, enums (aliases), reserved and extension ranges,
//! extensions and services. Comments and custom options do not.

use std::fmt::Write as _;

use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{
    DescriptorProto, EnumDescriptorProto, FieldDescriptorProto, FileDescriptorProto,
    ServiceDescriptorProto,
};

/// Why a descriptor cannot be written back as text.
pub(crate) struct Unsupported(pub(crate) String);

/// The `.proto` text of one file descriptor.
pub(crate) fn file_text(f: &FileDescriptorProto) -> Result<String, Unsupported> {
    let proto3 = match f.syntax() {
        "" | "proto2" => false,
        "proto3" => true,
        other => return Err(Unsupported(format!("{}: syntax \"{other}\"", f.name()))),
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "syntax = \"{}\";",
        if proto3 { "proto3" } else { "proto2" }
    );
    if !f.package().is_empty() {
        let _ = writeln!(out, "package {};", f.package());
    }
    for (i, dep) in f.dependency.iter().enumerate() {
        let kind = if f.public_dependency.contains(&(i as i32)) {
            "public "
        } else if f.weak_dependency.contains(&(i as i32)) {
            "weak "
        } else {
            ""
        };
        let _ = writeln!(out, "import {kind}{};", quote(dep));
    }
    for m in &f.message_type {
        message(&mut out, m, proto3, 0)?;
    }
    for e in &f.enum_type {
        enumeration(&mut out, e, 0);
    }
    extensions(&mut out, &f.extension, proto3, 0)?;
    for s in &f.service {
        service(&mut out, s);
    }
    Ok(out)
}

fn pad(depth: usize) -> String {
    "  ".repeat(depth)
}

fn message(
    out: &mut String,
    m: &DescriptorProto,
    proto3: bool,
    depth: usize,
) -> Result<(), Unsupported> {
    let p = pad(depth);
    let _ = writeln!(out, "{p}message {} {{", m.name());
    if m.options.as_ref().is_some_and(|o| o.deprecated()) {
        let _ = writeln!(out, "{p}  option deprecated = true;");
    }
    // A oneof is synthetic when its only member is a proto3 `optional` field.
    let synthetic = |i: i32| {
        m.field
            .iter()
            .filter(|f| f.oneof_index == Some(i))
            .all(|f| f.proto3_optional())
    };
    for f in &m.field {
        match f.oneof_index {
            Some(i) if !synthetic(i) => {
                // Written once, at its first member.
                if m.field
                    .iter()
                    .find(|g| g.oneof_index == Some(i))
                    .map(|g| g.number())
                    == Some(f.number())
                {
                    let name = m.oneof_decl.get(i as usize).map(|o| o.name()).unwrap_or("");
                    let _ = writeln!(out, "{p}  oneof {name} {{");
                    for g in m.field.iter().filter(|g| g.oneof_index == Some(i)) {
                        let _ = writeln!(out, "{p}    {}", field(g, m, proto3, true)?);
                    }
                    let _ = writeln!(out, "{p}  }}");
                }
            }
            _ => {
                let _ = writeln!(out, "{p}  {}", field(f, m, proto3, false)?);
            }
        }
    }
    for n in m.nested_type.iter().filter(|n| !is_map_entry(n)) {
        message(out, n, proto3, depth + 1)?;
    }
    for e in &m.enum_type {
        enumeration(out, e, depth + 1);
    }
    for r in &m.extension_range {
        let _ = writeln!(out, "{p}  extensions {};", range(r.start(), r.end() - 1));
    }
    for r in &m.reserved_range {
        let _ = writeln!(out, "{p}  reserved {};", range(r.start(), r.end() - 1));
    }
    for n in &m.reserved_name {
        let _ = writeln!(out, "{p}  reserved {};", quote(n));
    }
    extensions(out, &m.extension, proto3, depth + 1)?;
    let _ = writeln!(out, "{p}}}");
    Ok(())
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

/// One field declaration (without indentation).
fn field(
    f: &FieldDescriptorProto,
    owner: &DescriptorProto,
    proto3: bool,
    in_oneof: bool,
) -> Result<String, Unsupported> {
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
                    field_options(f)
                ));
            }
        }
    }
    let label = if in_oneof {
        ""
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
        field_options(f)
    ))
}

fn type_name(f: &FieldDescriptorProto) -> Result<String, Unsupported> {
    Ok(match f.r#type() {
        Type::Message | Type::Enum => f.type_name().to_string(),
        Type::Group => return Err(Unsupported(format!("group field {}", f.name()))),
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
fn field_options(f: &FieldDescriptorProto) -> String {
    let mut opts = Vec::new();
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
        && *j != bijoubuf_schema::default_json_name(f.name())
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

fn enumeration(out: &mut String, e: &EnumDescriptorProto, depth: usize) {
    let p = pad(depth);
    let _ = writeln!(out, "{p}enum {} {{", e.name());
    if e.options.as_ref().is_some_and(|o| o.allow_alias()) {
        let _ = writeln!(out, "{p}  option allow_alias = true;");
    }
    if e.options.as_ref().is_some_and(|o| o.deprecated()) {
        let _ = writeln!(out, "{p}  option deprecated = true;");
    }
    for v in &e.value {
        let dep = if v.options.as_ref().is_some_and(|o| o.deprecated()) {
            " [deprecated = true]"
        } else {
            ""
        };
        let _ = writeln!(out, "{p}  {} = {}{dep};", v.name(), v.number());
    }
    for r in &e.reserved_range {
        // Enum reserved ranges are inclusive.
        let _ = writeln!(out, "{p}  reserved {};", range(r.start(), r.end()));
    }
    for n in &e.reserved_name {
        let _ = writeln!(out, "{p}  reserved {};", quote(n));
    }
    let _ = writeln!(out, "{p}}}");
}

fn extensions(
    out: &mut String,
    exts: &[FieldDescriptorProto],
    proto3: bool,
    depth: usize,
) -> Result<(), Unsupported> {
    let p = pad(depth);
    let mut extendees: Vec<&str> = Vec::new();
    for x in exts {
        if !extendees.contains(&x.extendee()) {
            extendees.push(x.extendee());
        }
    }
    let none = DescriptorProto::default();
    for target in extendees {
        let _ = writeln!(out, "{p}extend {target} {{");
        for x in exts.iter().filter(|x| x.extendee() == target) {
            let _ = writeln!(out, "{p}  {}", field(x, &none, proto3, false)?);
        }
        let _ = writeln!(out, "{p}}}");
    }
    Ok(())
}

fn service(out: &mut String, s: &ServiceDescriptorProto) {
    let _ = writeln!(out, "service {} {{", s.name());
    for m in &s.method {
        let cs = if m.client_streaming() { "stream " } else { "" };
        let ss = if m.server_streaming() { "stream " } else { "" };
        let _ = writeln!(
            out,
            "  rpc {}({cs}{}) returns ({ss}{});",
            m.name(),
            m.input_type(),
            m.output_type()
        );
    }
    let _ = writeln!(out, "}}");
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
