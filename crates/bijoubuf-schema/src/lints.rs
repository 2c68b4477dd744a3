//! Naming-convention lints (warnings only; each can be turned off).

use crate::ast::ImportKind;
use crate::diagnostics::Diagnostic;
use crate::load::Loaded;
use crate::model::{EnumDef, FileDef, MessageDef};
use crate::resolve::Symbols;
use crate::span::Span;

/// Which lints run. All are on by default; [`Lints::none`] turns every one off. Set a field
/// to turn one lint on or off:
///
/// ```
/// let mut lints = bijoubuf_schema::Lints::default();
/// lints.package_versioned = false;
/// let compiled = bijoubuf_schema::Compiler::new()
///     .source("t.proto", "syntax = \"proto3\"; package shop; message Order {}")
///     .lints(lints)
///     .compile(&["t.proto"])?;
/// assert!(compiled.warnings.is_empty());
/// # Ok::<(), bijoubuf_schema::Diagnostics>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Lints {
    /// The zero value of enum `Color` is named `COLOR_UNSPECIFIED`.
    pub enum_zero_unspecified: bool,
    /// Every value of enum `Color` starts with `COLOR_`.
    pub enum_value_prefix: bool,
    /// Message and enum names are PascalCase.
    pub type_names_pascal_case: bool,
    /// Field names are lower_snake_case.
    pub field_names_snake_case: bool,
    /// The package is lower-case and ends in a version (`shop.v1`, `api.v2beta1`).
    pub package_versioned: bool,
    /// Every plain `import` is used by some name in the file (as protoc warns).
    pub unused_imports: bool,
}

impl Default for Lints {
    fn default() -> Self {
        Lints {
            enum_zero_unspecified: true,
            enum_value_prefix: true,
            type_names_pascal_case: true,
            field_names_snake_case: true,
            package_versioned: true,
            unused_imports: true,
        }
    }
}

impl Lints {
    /// Every lint off.
    pub fn none() -> Self {
        Lints {
            enum_zero_unspecified: false,
            enum_value_prefix: false,
            type_names_pascal_case: false,
            field_names_snake_case: false,
            package_versioned: false,
            unused_imports: false,
        }
    }
}

/// `HTTPServer` → `HTTP_SERVER`, `PhoneType` → `PHONE_TYPE`.
pub(crate) fn screaming(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            if prev.is_ascii_lowercase()
                || prev.is_ascii_digit()
                || (prev.is_ascii_uppercase() && next_lower)
            {
                out.push('_');
            }
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

fn is_pascal(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric())
}

fn is_snake(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// `v1`, `v2beta1`, `v1alpha`.
fn is_version(part: &str) -> bool {
    let Some(rest) = part.strip_prefix('v') else {
        return false;
    };
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    if digits == 0 {
        return false;
    }
    let tail = &rest[digits..];
    let tail = tail
        .strip_prefix("alpha")
        .or_else(|| tail.strip_prefix("beta"))
        .unwrap_or(tail);
    tail.chars().all(|c| c.is_ascii_digit())
}

struct Linter<'a> {
    cfg: &'a Lints,
    file: &'a str,
    out: Vec<Diagnostic>,
}

impl Linter<'_> {
    fn warn(&mut self, code: &'static str, span: Span, message: String, help: String) {
        self.out
            .push(Diagnostic::warning(code, self.file, span, message).help(help));
    }

    fn message(&mut self, m: &MessageDef) {
        if m.map_entry {
            return;
        }
        if self.cfg.type_names_pascal_case && !is_pascal(&m.name) {
            self.warn(
                "lint-type-name",
                m.name_span,
                format!("message name {:?} is not PascalCase", m.name),
                "name messages like `OrderItem`".into(),
            );
        }
        for f in &m.fields {
            if self.cfg.field_names_snake_case && !is_snake(&f.name) {
                self.warn(
                    "lint-field-name",
                    f.parts.name,
                    format!("field name {:?} is not lower_snake_case", f.name),
                    "name fields like `order_id`".into(),
                );
            }
        }
        for n in &m.messages {
            self.message(n);
        }
        for e in &m.enums {
            self.enumeration(e);
        }
    }

    fn enumeration(&mut self, e: &EnumDef) {
        if self.cfg.type_names_pascal_case && !is_pascal(&e.name) {
            self.warn(
                "lint-type-name",
                e.name_span,
                format!("enum name {:?} is not PascalCase", e.name),
                "name enums like `OrderState`".into(),
            );
        }
        let prefix = screaming(&e.name);
        if self.cfg.enum_zero_unspecified
            && let Some(zero) = e.values.iter().find(|v| v.number == 0)
            && zero.name != format!("{prefix}_UNSPECIFIED")
        {
            self.warn(
                "lint-enum-zero-value",
                zero.name_span,
                format!("the zero value of enum {:?} is {:?}", e.name, zero.name),
                format!("name it `{prefix}_UNSPECIFIED`: it is what an unset field reads as"),
            );
        }
        if self.cfg.enum_value_prefix {
            for v in e
                .values
                .iter()
                .filter(|v| !v.name.starts_with(&format!("{prefix}_")))
            {
                self.warn(
                    "lint-enum-value-prefix",
                    v.name_span,
                    format!("enum value {:?} does not start with {prefix:?}", v.name),
                    format!(
                        "enum values share one scope with their siblings; write `{prefix}_{}`",
                        v.name
                    ),
                );
            }
        }
    }
}

/// Files whose symbols an import of `file` makes visible: it and, through `import public`,
/// what it re-exports.
fn exported(files: &[Loaded], file: usize, out: &mut Vec<usize>) {
    if out.contains(&file) {
        return;
    }
    out.push(file);
    for (imp, dep) in files[file].ast.imports.iter().zip(&files[file].deps) {
        if let (ImportKind::Public, Some(d)) = (imp.kind, dep) {
            exported(files, *d, out);
        }
    }
}

/// protoc's "import is unused" warning (public and weak imports are exempt).
fn unused_imports(l: &mut Linter<'_>, files: &[Loaded], fi: usize, symbols: &Symbols) {
    for (imp, dep) in files[fi].ast.imports.iter().zip(&files[fi].deps) {
        let Some(d) = dep else { continue };
        if imp.kind != ImportKind::Normal {
            continue;
        }
        let mut reach = Vec::new();
        exported(files, *d, &mut reach);
        // A file the importer also imports directly is credited to that import.
        let direct = |f: usize| f != *d && files[fi].deps.contains(&Some(f));
        if !reach.iter().any(|&f| !direct(f) && symbols.used(fi, f)) {
            l.warn(
                "lint-unused-import",
                imp.path_span,
                format!("import {:?} is unused", imp.path),
                "remove the import, or use a type it declares".into(),
            );
        }
    }
}

pub(crate) fn run(
    cfg: &Lints,
    files: &[Loaded],
    models: &[FileDef],
    symbols: &Symbols,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (fi, (f, model)) in files
        .iter()
        .zip(models)
        .enumerate()
        .filter(|(_, (f, _))| f.requested)
    {
        let mut l = Linter {
            cfg,
            file: &f.name,
            out: Vec::new(),
        };
        if cfg.package_versioned {
            match &f.ast.package {
                None => l.warn(
                    "lint-package",
                    Span::default(),
                    "the file has no package".into(),
                    "add one like `package shop.v1;`".into(),
                ),
                Some(p) => {
                    let name = &p.name.name;
                    let lower = name.chars().all(|c| {
                        c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.'
                    });
                    let versioned = name.rsplit('.').next().is_some_and(is_version);
                    if !lower || !versioned {
                        l.warn(
                            "lint-package",
                            p.name.span,
                            format!("package {name:?} is not lower-case with a version suffix"),
                            "end the package in a version, like `shop.v1`".into(),
                        );
                    }
                }
            }
        }
        if cfg.unused_imports {
            unused_imports(&mut l, files, fi, symbols);
        }
        for m in &model.messages {
            l.message(m);
        }
        for e in &model.enums {
            l.enumeration(e);
        }
        out.append(&mut l.out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn naming_helpers() {
        assert_eq!(screaming("PhoneType"), "PHONE_TYPE");
        assert_eq!(screaming("HTTPServer"), "HTTP_SERVER");
        assert_eq!(screaming("V2Thing"), "V2_THING");
        assert!(
            is_version("v1") && is_version("v2beta1") && !is_version("version") && !is_version("v")
        );
        assert!(is_pascal("Foo1") && !is_pascal("foo") && !is_pascal("Foo_Bar"));
        assert!(is_snake("foo_bar2") && !is_snake("fooBar"));
    }
}
