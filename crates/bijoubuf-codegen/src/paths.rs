//! Every path given to an option must name something in the schema: a mistyped path
//! (`.shop.v1.Ordr`) would otherwise select nothing and generate silently without the
//! borrowed twin, the unknown-field member or the attribute that was asked for.

use bijoubuf_schema::{EnumDef, MessageDef, Schema};

use crate::Error;
use crate::options::{Options, path_matches};

/// Fails with [`Error::UnknownPath`] on the first configured path that matches no
/// package, message, enum, enum value, field or oneof of `schema`.
pub(crate) fn check(schema: &Schema, options: &Options) -> Result<(), Error> {
    let names = names(schema);
    let sets = [
        ("bytes", &options.bytes),
        ("boxed", &options.boxed),
        ("borrowed", &options.borrowed),
        ("preserve_unknown_fields", &options.preserve),
        ("decode_dispatch", &options.dispatch),
        ("decode_table", &options.table),
        ("decode_walk", &options.walk),
        ("serde", &options.serde),
        ("disable_comments", &options.no_comments),
    ];
    let lists = [
        ("type_attribute", &options.type_attrs),
        ("message_attribute", &options.message_attrs),
        ("enum_attribute", &options.enum_attrs),
        ("field_attribute", &options.field_attrs),
        ("extern_path", &options.extern_paths),
    ];
    let configured = sets
        .iter()
        .flat_map(|(option, set)| set.paths().iter().map(move |p| (*option, p.as_str())))
        .chain(
            lists
                .iter()
                .flat_map(|(option, list)| list.iter().map(move |(p, _)| (*option, p.as_str()))),
        );
    for (option, path) in configured {
        // "." selects everything there is, even in a schema with no names.
        if path != "." && !names.iter().any(|name| path_matches(path, name)) {
            return Err(Error::UnknownPath {
                option,
                path: path.to_string(),
                suggestion: suggest(path, &names),
            });
        }
    }
    Ok(())
}

/// The close name a mistyped `path` probably meant, spelled the way the path is: with a
/// leading dot for a full name, else as a suffix of as many parts.
fn suggest(path: &str, names: &[String]) -> Option<String> {
    let candidates: Vec<String> = match path.strip_prefix('.') {
        Some(_) => names.iter().map(|n| format!(".{n}")).collect(),
        None => {
            let parts = path.split('.').count();
            names
                .iter()
                .filter_map(|n| {
                    let all: Vec<&str> = n.split('.').collect();
                    let from = all.len().checked_sub(parts)?;
                    Some(all[from..].join("."))
                })
                .collect()
        }
    };
    let refs: Vec<&str> = candidates.iter().map(String::as_str).collect();
    bijoubuf_schema::similar(path, &refs).map(str::to_string)
}

/// Every full name (no leading dot) a path may select, packages included.
fn names(schema: &Schema) -> Vec<String> {
    let mut out = Vec::new();
    for file in schema.files() {
        if !file.package.is_empty() {
            out.push(file.package.clone());
        }
        for m in &file.messages {
            message_names(m, &mut out);
        }
        for e in &file.enums {
            enum_names(e, &mut out);
        }
        for x in &file.extensions {
            out.push(x.full_name.clone());
        }
    }
    out.sort();
    out.dedup();
    out
}

fn message_names(m: &MessageDef, out: &mut Vec<String>) {
    out.push(m.full_name.clone());
    for f in m.fields.iter().chain(&m.extensions) {
        out.push(f.full_name.clone());
    }
    for o in m.oneofs.iter().filter(|o| !o.synthetic) {
        out.push(format!("{}.{}", m.full_name, o.name));
    }
    for n in &m.messages {
        message_names(n, out);
    }
    for e in &m.enums {
        enum_names(e, out);
    }
}

fn enum_names(e: &EnumDef, out: &mut Vec<String>) {
    out.push(e.full_name.clone());
    for v in &e.values {
        out.push(format!("{}.{}", e.full_name, v.name));
    }
}
