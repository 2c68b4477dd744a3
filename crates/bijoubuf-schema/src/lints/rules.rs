//! The lint rules: naming conventions, package layout, rpc request and response names,
//! unused imports.

use std::collections::HashMap;

use super::{LintLevel, Lints};
use crate::ast::ImportKind;
use crate::diagnostics::Diagnostic;
use crate::load::Loaded;
use crate::model::{EnumDef, FileDef, MessageDef, ServiceDef};
use crate::resolve::Symbols;
use crate::span::Span;

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
    if tail.starts_with("test") {
        return true;
    }
    // `v1p1beta1`: a point release before the stability word.
    let tail = match tail.strip_prefix('p') {
        Some(point) => {
            let n = point.chars().take_while(char::is_ascii_digit).count();
            if n == 0 || !(point[n..].starts_with("alpha") || point[n..].starts_with("beta")) {
                return false;
            }
            &point[n..]
        }
        None => tail,
    };
    let tail = tail
        .strip_prefix("alpha")
        .or_else(|| tail.strip_prefix("beta"))
        .unwrap_or(tail);
    tail.chars().all(|c| c.is_ascii_digit())
}

/// `FOO_BAR2`: upper-case letters, digits and underscores, starting with a letter.
fn is_upper_snake(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// `delete_order` → `DeleteOrder`: underscores dropped, the letter after each and the
/// first upper-cased.
fn pascal(name: &str) -> String {
    name.split('_')
        .flat_map(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase())
                .into_iter()
                .chain(chars)
        })
        .collect()
}

/// The last part of a full name.
fn short(full: &str) -> &str {
    full.rsplit('.').next().unwrap_or(full)
}

struct Linter<'a> {
    cfg: &'a Lints,
    file: &'a str,
    out: Vec<Diagnostic>,
}

impl Linter<'_> {
    /// Reports under rule `code` at its configured level (nothing when allowed).
    fn warn(&mut self, code: &'static str, span: Span, message: String, help: String) {
        let d = match self.cfg.level_of_code(code) {
            LintLevel::Allow => return,
            LintLevel::Warn => Diagnostic::warning(code, self.file, span, message),
            LintLevel::Deny => Diagnostic::error(code, self.file, span, message),
        };
        self.out.push(d.help(help));
    }

    fn on(&self, code: &str) -> bool {
        self.cfg.on(code)
    }

    fn message(&mut self, m: &MessageDef) {
        if m.map_entry {
            return;
        }
        if self.on("lint-type-name") && !is_pascal(&m.name) {
            self.warn(
                "lint-type-name",
                m.name_span,
                format!("message name {:?} is not PascalCase", m.name),
                "name messages like `OrderItem`".into(),
            );
        }
        for f in &m.fields {
            if self.on("lint-field-name") && !is_snake(&f.name) {
                self.warn(
                    "lint-field-name",
                    f.parts.name,
                    format!("field name {:?} is not lower_snake_case", f.name),
                    "name fields like `order_id`".into(),
                );
            }
        }
        for o in m.oneofs.iter().filter(|o| !o.synthetic) {
            if !is_snake(&o.name) {
                self.warn(
                    "lint-oneof-lower-snake-case",
                    o.name_span.unwrap_or(o.span),
                    format!("oneof name {:?} is not lower_snake_case", o.name),
                    "name oneofs like `payment_method`".into(),
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
        if self.on("lint-type-name") && !is_pascal(&e.name) {
            self.warn(
                "lint-type-name",
                e.name_span,
                format!("enum name {:?} is not PascalCase", e.name),
                "name enums like `OrderState`".into(),
            );
        }
        let prefix = screaming(&e.name);
        if self.on("lint-enum-zero-value")
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
        for v in e.values.iter().filter(|v| !is_upper_snake(&v.name)) {
            self.warn(
                "lint-enum-value-upper-snake-case",
                v.name_span,
                format!("enum value name {:?} is not UPPER_SNAKE_CASE", v.name),
                "name enum values like `COLOR_DARK_RED`".into(),
            );
        }
        if self.on("lint-enum-value-prefix") {
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

impl Linter<'_> {
    fn service(&mut self, s: &ServiceDef, uses: &HashMap<&str, usize>) {
        if !is_pascal(&s.name) {
            self.warn(
                "lint-service-pascal-case",
                s.name_span,
                format!("service name {:?} is not PascalCase", s.name),
                "name services like `OrderService`".into(),
            );
        }
        if !s.name.ends_with("Service") {
            self.warn(
                "lint-service-suffix",
                s.name_span,
                format!("service name {:?} does not end in \"Service\"", s.name),
                format!("name it `{}Service`", s.name),
            );
        }
        for m in &s.methods {
            let [name_span, input_span, output_span] = m.spans;
            if !is_pascal(&m.name) {
                self.warn(
                    "lint-rpc-pascal-case",
                    name_span,
                    format!("rpc name {:?} is not PascalCase", m.name),
                    "name rpcs like `GetOrder`".into(),
                );
            }
            let (service, method) = (pascal(&s.name), pascal(&m.name));
            for (ty, span, suffix, code) in [
                (
                    &m.input_type,
                    input_span,
                    "Request",
                    "lint-rpc-request-standard-name",
                ),
                (
                    &m.output_type,
                    output_span,
                    "Response",
                    "lint-rpc-response-standard-name",
                ),
            ] {
                let name = short(ty);
                let plain = format!("{method}{suffix}");
                if ty.is_empty() || name == plain || name == format!("{service}{plain}") {
                    continue;
                }
                let what = suffix.to_ascii_lowercase();
                self.warn(
                    code,
                    span,
                    format!("the {what} of rpc {:?} is {name:?}, not {plain:?}", m.name),
                    format!(
                        "give each rpc its own {what} message named `{plain}` or `{service}{plain}`"
                    ),
                );
            }
            // Each type shared with another rpc once, then a type that is both the
            // request and the response.
            let types = if m.input_type == m.output_type {
                vec![&m.input_type]
            } else {
                vec![&m.input_type, &m.output_type]
            };
            for ty in types {
                if uses.get(ty.as_str()).copied().unwrap_or(0) > 1 {
                    self.warn(
                        "lint-rpc-request-response-unique",
                        m.span,
                        format!(
                            "{:?} is the request or response of more than one rpc",
                            short(ty)
                        ),
                        "give each rpc a request and a response message of its own".into(),
                    );
                }
            }
            if !m.input_type.is_empty() && m.input_type == m.output_type {
                self.warn(
                    "lint-rpc-request-response-unique",
                    m.span,
                    format!(
                        "rpc {:?} has {:?} as both its request and its response",
                        m.name,
                        short(&m.input_type)
                    ),
                    "give the rpc a request and a response message of its own".into(),
                );
            }
        }
    }

    /// PACKAGE_DEFINED, PACKAGE_LOWER_SNAKE_CASE, PACKAGE_VERSION_SUFFIX and
    /// PACKAGE_DIRECTORY_MATCH.
    fn package(&mut self, file: &Loaded) {
        let Some(p) = &file.ast.package else {
            self.warn(
                "lint-package",
                Span::default(),
                "the file has no package".into(),
                "add one like `package shop.v1;`".into(),
            );
            return;
        };
        let name = &p.name.name;
        let lower = name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.');
        if !lower {
            self.warn(
                "lint-package",
                p.name.span,
                format!("package {name:?} is not lower_snake_case"),
                "write packages in lower case, like `shop.v1`".into(),
            );
        }
        if !name.rsplit('.').next().is_some_and(is_version) {
            self.warn(
                "lint-package-version-suffix",
                p.name.span,
                format!("package {name:?} does not end in a version"),
                format!("end the package in a version, like `{name}.v1`"),
            );
        }
        let dir = file.name.rsplit_once('/').map_or("", |(d, _)| d);
        let want = name.replace('.', "/");
        if dir != want {
            self.warn(
                "lint-package-directory-match",
                p.name.span,
                format!("package {name:?} is in directory {dir:?}, not {want:?}"),
                format!("move the file to `{want}/`, or change the package"),
            );
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
    let requested = || {
        files
            .iter()
            .zip(models)
            .enumerate()
            .filter(|(_, (f, _))| f.requested)
    };
    // How often each message is an rpc's request or response, over all checked files.
    let mut uses: HashMap<&str, usize> = HashMap::new();
    if cfg.on("lint-rpc-request-response-unique") {
        for (_, (_, model)) in requested() {
            for m in model.services.iter().flat_map(|s| &s.methods) {
                // Counted once per rpc, even when it is both request and response; an
                // unresolved type (empty) is already an error.
                if !m.input_type.is_empty() {
                    *uses.entry(m.input_type.as_str()).or_default() += 1;
                }
                if !m.output_type.is_empty() && m.output_type != m.input_type {
                    *uses.entry(m.output_type.as_str()).or_default() += 1;
                }
            }
        }
    }
    for (fi, (f, model)) in requested() {
        let mut l = Linter {
            cfg,
            file: &f.name,
            out: Vec::new(),
        };
        l.package(f);
        if cfg.on("lint-unused-import") {
            unused_imports(&mut l, files, fi, symbols);
        }
        for m in &model.messages {
            l.message(m);
        }
        for e in &model.enums {
            l.enumeration(e);
        }
        for s in &model.services {
            l.service(s, &uses);
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
        assert!(is_version("v1p1beta1") && is_version("v1test") && !is_version("v1p1"));
        assert!(is_upper_snake("FOO_BAR2") && !is_upper_snake("Foo") && !is_upper_snake("_A"));
        assert!(is_pascal("Foo1") && !is_pascal("foo") && !is_pascal("Foo_Bar"));
        assert!(is_snake("foo_bar2") && !is_snake("fooBar"));
    }
}
