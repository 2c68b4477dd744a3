//! `option deprecated = true` on messages, enums and enum values becomes `#[deprecated]`
//! on their Rust items (owned types, borrowed twins, variants and alias constants), so a
//! user's code naming them draws rustc's lint. The schema is the one
//! `bijoubuf-codegen-tests` compiles under `deny(warnings)` with every decoder.

use std::path::Path;

use bijoubuf_codegen::{Options, generate};
use bijoubuf_schema::Compiler;

/// `protos/deprecated.proto` and its proto2 companion, generated with `options`; the
/// files' contents by name.
fn generated(options: &Options) -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bijoubuf-codegen-tests/protos");
    let compiled = Compiler::new()
        .include(dir)
        .compile(&["deprecated.proto", "deprecated_defaults.proto"])
        .unwrap_or_else(|e| panic!("the deprecated fixture does not compile: {e}"));
    generate(&compiled.schema, options)
        .unwrap_or_else(|e| panic!("the deprecated fixture does not generate: {e}"))
        .into_iter()
        .map(|f| (f.name, f.content))
        .collect()
}

fn has(attrs: &[syn::Attribute], name: &str) -> bool {
    attrs.iter().any(|a| match &a.meta {
        syn::Meta::Path(p) => name == "deprecated" && p.is_ident("deprecated"),
        syn::Meta::List(l) => {
            l.path.is_ident("allow") && name == "allow" && l.tokens.to_string() == "deprecated"
        }
        syn::Meta::NameValue(_) => false,
    })
}

/// Every item under `items` (path `at`) that carries `#[deprecated]`: structs, enums,
/// variants (`E::V`) and associated constants (`E::C`); and every module that carries
/// `#[allow(deprecated)]`, marked `allow mod`.
fn marked(items: &[syn::Item], at: &str, out: &mut Vec<String>) {
    let path = |name: &dyn std::fmt::Display| {
        if at.is_empty() {
            name.to_string()
        } else {
            format!("{at}::{name}")
        }
    };
    for item in items {
        match item {
            syn::Item::Struct(s) if has(&s.attrs, "deprecated") => out.push(path(&s.ident)),
            syn::Item::Enum(e) => {
                let name = path(&e.ident);
                if has(&e.attrs, "deprecated") {
                    out.push(name.clone());
                }
                for v in &e.variants {
                    if has(&v.attrs, "deprecated") {
                        out.push(format!("{name}::{}", v.ident));
                    }
                }
            }
            syn::Item::Impl(i) if i.trait_.is_none() => {
                let syn::Type::Path(ty) = &*i.self_ty else {
                    continue;
                };
                let Some(ty) = ty.path.segments.last() else {
                    continue;
                };
                for it in &i.items {
                    if let syn::ImplItem::Const(c) = it
                        && has(&c.attrs, "deprecated")
                    {
                        out.push(format!("{}::{}", path(&ty.ident), c.ident));
                    }
                }
            }
            syn::Item::Mod(m) => {
                if has(&m.attrs, "allow") {
                    out.push(format!("allow mod {}", path(&m.ident)));
                }
                if let Some((_, items)) = &m.content {
                    marked(items, &path(&m.ident), out);
                }
            }
            _ => {}
        }
    }
}

fn deprecated_items(options: &Options) -> Vec<String> {
    let mut out = Vec::new();
    for (name, content) in generated(options) {
        let file = syn::parse_file(&content).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut items = Vec::new();
        marked(&file.items, "", &mut items);
        out.extend(items.into_iter().map(|i| format!("{name}: {i}")));
    }
    out.sort();
    out
}

#[test]
fn deprecated_messages_enums_and_values_are_deprecated_in_rust() {
    let owned = [
        "deprecated_types.defaults.rs: Shade::Dark",
        "deprecated_types.defaults.rs: Tint",
        "deprecated_types.rs: Legacy::First",
        "deprecated_types.rs: Mood::Glum",
        "deprecated_types.rs: Mood::Grumpy",
        "deprecated_types.rs: Old",
        "deprecated_types.rs: OldKind",
        "deprecated_types.rs: OldKind::Retired",
        "deprecated_types.rs: old::Gone",
        "deprecated_types.rs: outer::Deep",
        "deprecated_types.rs: outer::DeepKind",
    ];
    assert_eq!(deprecated_items(&Options::new()), owned);

    // The borrowed twins of deprecated messages are deprecated too, whatever decodes
    // them; the modules of a service whose rpcs take or give a deprecated message allow
    // the lint (a service that names none does not).
    let mut with_twins: Vec<String> = owned.iter().map(|s| s.to_string()).collect();
    with_twins.extend(
        [
            "deprecated_types.rs: OldRef",
            "deprecated_types.rs: old::GoneRef",
            "deprecated_types.rs: outer::DeepRef",
            "deprecated_types.rs: allow mod archive_client",
            "deprecated_types.rs: allow mod archive_server",
        ]
        .map(String::from),
    );
    with_twins.sort();
    for decoder in ["walk", "dispatch", "table"] {
        let mut o = Options::new();
        o.borrowed(["."]).services(true);
        match decoder {
            "dispatch" => o.decode_dispatch(["."]),
            "table" => o.decode_table(["."]),
            _ => o.decode_walk(["."]),
        };
        assert_eq!(deprecated_items(&o), with_twins, "{decoder}");
    }
}
