//! Lints: style rules on top of protoc's, at the breadth of buf's `STANDARD` set, and
//! their configuration ([`Lints`]: each rule allowed, warned about or denied).
//!
//! The rules themselves are in `rules`; a diagnostic of rule `type-name` has the code
//! `lint-type-name`.

mod rules;

use std::fmt;

pub(crate) use rules::{run, screaming};

/// What a lint rule does when it finds something.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LintLevel {
    /// The rule does not run.
    Allow,
    /// A warning: the schema still compiles.
    Warn,
    /// An error: the schema is refused.
    Deny,
}

/// Every lint rule: its name and what it asks for.
pub const LINT_RULES: &[(&str, &str)] = &[
    (
        "package",
        "every file has a package, lower_snake_case (buf PACKAGE_DEFINED, PACKAGE_LOWER_SNAKE_CASE)",
    ),
    (
        "package-version-suffix",
        "the package ends in a version: `v1`, `v2beta1`, `v1p1alpha`, `v1test` (buf PACKAGE_VERSION_SUFFIX)",
    ),
    (
        "package-directory-match",
        "a file of package `a.b.v1` sits in directory `a/b/v1` (buf PACKAGE_DIRECTORY_MATCH)",
    ),
    (
        "type-name",
        "message and enum names are PascalCase (buf MESSAGE_PASCAL_CASE, ENUM_PASCAL_CASE)",
    ),
    (
        "field-name",
        "field names are lower_snake_case (buf FIELD_LOWER_SNAKE_CASE)",
    ),
    (
        "oneof-lower-snake-case",
        "oneof names are lower_snake_case (buf ONEOF_LOWER_SNAKE_CASE)",
    ),
    (
        "enum-zero-value",
        "the zero value of enum `Color` is `COLOR_UNSPECIFIED` (buf ENUM_ZERO_VALUE_SUFFIX)",
    ),
    (
        "enum-value-prefix",
        "every value of enum `Color` starts with `COLOR_` (buf ENUM_VALUE_PREFIX)",
    ),
    (
        "enum-value-upper-snake-case",
        "enum value names are UPPER_SNAKE_CASE (buf ENUM_VALUE_UPPER_SNAKE_CASE)",
    ),
    (
        "service-pascal-case",
        "service names are PascalCase (buf SERVICE_PASCAL_CASE)",
    ),
    (
        "service-suffix",
        "service names end in `Service` (buf SERVICE_SUFFIX)",
    ),
    (
        "rpc-pascal-case",
        "rpc names are PascalCase (buf RPC_PASCAL_CASE)",
    ),
    (
        "rpc-request-standard-name",
        "the request of rpc `Get` in service `FooService` is `GetRequest` or `FooServiceGetRequest` (buf RPC_REQUEST_STANDARD_NAME)",
    ),
    (
        "rpc-response-standard-name",
        "the response of rpc `Get` in service `FooService` is `GetResponse` or `FooServiceGetResponse` (buf RPC_RESPONSE_STANDARD_NAME)",
    ),
    (
        "rpc-request-response-unique",
        "a message is the request or the response of one rpc only (buf RPC_REQUEST_RESPONSE_UNIQUE)",
    ),
    (
        "unused-import",
        "every plain `import` is used by some name in the file (protoc warns too)",
    ),
];

/// A rule name [`Lints`] does not know. Its [`code`](Self::code) is `unknown-lint`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownLint(pub String);

impl UnknownLint {
    /// The stable kebab-case code: `unknown-lint`.
    pub fn code(&self) -> &'static str {
        "unknown-lint"
    }
}

impl fmt::Display for UnknownLint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown lint rule {:?}; the rules are: all", self.0)?;
        for (name, _) in LINT_RULES {
            write!(f, ", {name}")?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownLint {}

/// Which lint rules run, and whether each warns or refuses the schema. Every rule warns
/// by default; [`Lints::none`] allows (turns off) all of them.
///
/// Rules are named as in [`LINT_RULES`] (`type-name`), with or without the `lint-`
/// prefix of their diagnostic codes, or in buf's style (`TYPE_NAME`); `all` names every
/// rule.
///
/// ```
/// use bijoubuf_schema::{Compiler, Lints};
///
/// let mut lints = Lints::default();
/// lints.allow("package-version-suffix")?.deny("type-name")?;
/// let err = Compiler::new()
///     .source("shop/order.proto", "syntax = \"proto3\"; package shop; message order {}")
///     .lints(lints)
///     .compile(&["shop/order.proto"])
///     .expect_err("type-name is denied");
/// assert_eq!(err.errors()[0].code(), "lint-type-name");
/// assert!(err.warnings().is_empty());
/// // A name that is no rule is refused with its own code.
/// assert_eq!(Lints::default().allow("no-such-rule").unwrap_err().code(), "unknown-lint");
/// # Ok::<(), bijoubuf_schema::UnknownLint>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lints {
    levels: Vec<LintLevel>,
}

impl Default for Lints {
    fn default() -> Self {
        Lints::all()
    }
}

impl Lints {
    /// Every rule warns.
    pub fn all() -> Self {
        Lints {
            levels: vec![LintLevel::Warn; LINT_RULES.len()],
        }
    }

    /// Every rule off.
    pub fn none() -> Self {
        Lints {
            levels: vec![LintLevel::Allow; LINT_RULES.len()],
        }
    }

    /// Sets the level of `rule` (or of every rule for `all`).
    ///
    /// # Errors
    /// [`UnknownLint`] for a name that is no rule.
    pub fn set(&mut self, rule: &str, level: LintLevel) -> Result<&mut Self, UnknownLint> {
        let name = normalize(rule);
        if name == "all" {
            self.levels.fill(level);
            return Ok(self);
        }
        let i = index(&name).ok_or_else(|| UnknownLint(rule.to_string()))?;
        self.levels[i] = level;
        Ok(self)
    }

    /// Turns `rule` off.
    ///
    /// # Errors
    /// [`UnknownLint`] for a name that is no rule.
    pub fn allow(&mut self, rule: &str) -> Result<&mut Self, UnknownLint> {
        self.set(rule, LintLevel::Allow)
    }

    /// Makes `rule` warn.
    ///
    /// # Errors
    /// [`UnknownLint`] for a name that is no rule.
    pub fn warn(&mut self, rule: &str) -> Result<&mut Self, UnknownLint> {
        self.set(rule, LintLevel::Warn)
    }

    /// Makes `rule` an error: a schema that breaks it is refused.
    ///
    /// # Errors
    /// [`UnknownLint`] for a name that is no rule.
    pub fn deny(&mut self, rule: &str) -> Result<&mut Self, UnknownLint> {
        self.set(rule, LintLevel::Deny)
    }

    /// The level of `rule`, if it is one.
    pub fn level(&self, rule: &str) -> Option<LintLevel> {
        index(&normalize(rule)).map(|i| self.levels[i])
    }

    /// The level of the rule with diagnostic code `code` (`lint-…`).
    pub(crate) fn level_of_code(&self, code: &str) -> LintLevel {
        code.strip_prefix("lint-")
            .and_then(index)
            .map_or(LintLevel::Warn, |i| self.levels[i])
    }

    /// Whether the rule with diagnostic code `code` runs.
    pub(crate) fn on(&self, code: &str) -> bool {
        self.level_of_code(code) != LintLevel::Allow
    }
}

/// `TYPE_NAME`, `lint-type-name` and `type-name` are one rule.
fn normalize(rule: &str) -> String {
    let lower = rule.trim().to_ascii_lowercase().replace('_', "-");
    match lower.strip_prefix("lint-") {
        Some(rest) => rest.to_string(),
        None => lower,
    }
}

fn index(name: &str) -> Option<usize> {
    LINT_RULES.iter().position(|(n, _)| *n == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_names_in_every_spelling() {
        let mut l = Lints::none();
        l.deny("SERVICE_SUFFIX")
            .unwrap()
            .warn("lint-type-name")
            .unwrap();
        assert_eq!(l.level("service-suffix"), Some(LintLevel::Deny));
        assert_eq!(l.level("TYPE_NAME"), Some(LintLevel::Warn));
        assert_eq!(l.level("field-name"), Some(LintLevel::Allow));
        assert!(l.allow("no-such-rule").is_err());
        l.set("all", LintLevel::Deny).unwrap();
        assert_eq!(l.level("unused-import"), Some(LintLevel::Deny));
    }
}
