//! Rust identifiers for schema names: case conversion, keywords, collisions.
//!
//! Every identifier the generator emits goes through here, so the rules live in one
//! place: strict and reserved keywords become raw identifiers (`r#type`); the four that
//! cannot be raw (`self`, `Self`, `super`, `crate`) get a trailing underscore; names that
//! collide inside one Rust namespace get trailing underscores until they are unique.

use std::collections::BTreeSet;

use heck::{ToSnakeCase, ToUpperCamelCase};
use proc_macro2::{Ident, Span};

/// Keywords of every edition up to 2024 (strict and reserved): these need `r#`.
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "do", "dyn",
    "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let",
    "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref", "return",
    "static", "struct", "trait", "true", "try", "type", "typeof", "unsafe", "unsized", "use",
    "virtual", "where", "while", "yield",
];

/// Keywords that cannot be raw identifiers.
const NOT_RAW: &[&str] = &["self", "Self", "super", "crate", "_"];

/// An identifier for `name` (already in the wanted case): raw when it is a keyword,
/// suffixed with `_` when it cannot be raw.
pub(crate) fn ident(name: &str) -> Ident {
    if NOT_RAW.contains(&name) {
        Ident::new(&format!("{name}_"), Span::call_site())
    } else if KEYWORDS.contains(&name) {
        Ident::new_raw(name, Span::call_site())
    } else {
        Ident::new(name, Span::call_site())
    }
}

/// The spelling [`ident`] produces, without building the token (for collision checks).
pub(crate) fn spelled(name: &str) -> String {
    if NOT_RAW.contains(&name) {
        format!("{name}_")
    } else {
        name.to_string()
    }
}

/// `snake_case` for fields, modules and packages. Case conversion drops leading
/// underscores, so a schema name such as `_2d` would start with a digit, which no Rust
/// identifier may: such a name keeps one leading underscore (`_2d`), as in [`camel`].
pub(crate) fn snake(name: &str) -> String {
    let s = name.to_snake_case();
    if s.is_empty() {
        "_".into()
    } else if s.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{s}")
    } else {
        s
    }
}

/// The module name tonic-build gives a service's server and client (`FooBar` is
/// `foo_bar`, then `_server`, `_client`): each character lower-cased, with `_` inserted
/// before every upper-case one but the first. Not [`snake`]: `HTTPApi` is `h_t_t_p_api`.
pub(crate) fn tonic_snake(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for (i, c) in name.chars().enumerate() {
        if i > 0 && c.is_uppercase() {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// `UpperCamelCase` for types and variants.
pub(crate) fn camel(name: &str) -> String {
    let s = name.to_upper_camel_case();
    if s.is_empty() {
        "_".into()
    } else if s.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{s}")
    } else {
        s
    }
}

/// Names already used in one Rust namespace; [`Scope::claim`] makes a name unique.
#[derive(Default)]
pub(crate) struct Scope {
    used: BTreeSet<String>,
}

impl Scope {
    /// A scope that already holds `names`.
    pub(crate) fn with(names: &[&str]) -> Self {
        Scope {
            used: names.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// Mark `name` (after keyword escaping) as used, whether or not it already was.
    pub(crate) fn claim_exact(&mut self, name: &str) {
        self.used.insert(spelled(name));
    }

    /// Whether `name` (after keyword escaping) is used.
    pub(crate) fn contains(&self, name: &str) -> bool {
        self.used.contains(&spelled(name))
    }

    /// `want` (after keyword escaping) if free, else `want_`, `want__`, ….
    pub(crate) fn claim(&mut self, want: &str) -> String {
        let mut name = spelled(want);
        while self.used.contains(&name) {
            name.push('_');
        }
        self.used.insert(name.clone());
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_become_raw_or_suffixed() {
        assert_eq!(ident("type").to_string(), "r#type");
        assert_eq!(ident("gen").to_string(), "r#gen");
        assert_eq!(ident("self").to_string(), "self_");
        assert_eq!(ident("Self").to_string(), "Self_");
        assert_eq!(ident("crate").to_string(), "crate_");
        assert_eq!(ident("name").to_string(), "name");
    }

    #[test]
    fn scope_suffixes_collisions() {
        let mut s = Scope::with(&["unknown_fields"]);
        assert_eq!(s.claim("unknown_fields"), "unknown_fields_");
        assert_eq!(s.claim("a"), "a");
        assert_eq!(s.claim("a"), "a_");
        assert_eq!(s.claim("self"), "self_");
        assert_eq!(s.claim("self_"), "self__");
    }

    #[test]
    fn case_conversion() {
        assert_eq!(snake("fooBar"), "foo_bar");
        assert_eq!(camel("foo_bar"), "FooBar");
        assert_eq!(camel("2d"), "_2d");
        assert_eq!(snake("_2conflict"), "_2conflict");
        assert_eq!(camel("_2M"), "_2m");
    }

    /// Every protobuf identifier of up to four characters (a letter or underscore, then
    /// letters, digits and underscores; one of each class stands for the rest) becomes a
    /// Rust identifier in both cases: `Ident::new` panics on anything else.
    #[test]
    fn every_short_schema_name_is_an_identifier_in_both_cases() {
        let first = ['a', 'B', '_'];
        let rest = ['a', 'B', '_', '7'];
        let mut names: Vec<String> = first.iter().map(|c| c.to_string()).collect();
        let mut last = names.clone();
        for _ in 0..3 {
            last = last
                .iter()
                .flat_map(|n| rest.iter().map(move |c| format!("{n}{c}")))
                .collect();
            names.extend(last.iter().cloned());
        }
        assert_eq!(names.len(), 3 + 12 + 48 + 192);
        for n in &names {
            for converted in [snake(n), camel(n)] {
                let id = std::panic::catch_unwind(|| ident(&converted).to_string());
                assert!(id.is_ok(), "{n:?} converted to {converted:?}");
                assert_eq!(id.unwrap().trim_start_matches("r#"), spelled(&converted));
            }
        }
    }
}
