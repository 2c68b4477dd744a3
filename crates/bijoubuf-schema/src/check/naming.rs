//! Edition 2024's naming style (`features.enforce_naming_style = STYLE2024`, the
//! edition's default): TitleCase messages, enums, services and methods,
//! lower_snake_case packages, fields and oneofs, UPPER_SNAKE_CASE enum values, as
//! protoc 36.2 checks them. `STYLE_LEGACY` opts an element and what it holds out.

use super::Checker;
use crate::span::Span;

/// The style a kind of name must have.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Style {
    Title,
    LowerSnake,
    UpperSnake,
}

/// An underscore first, last, or followed by something other than a letter.
fn bad_underscores(name: &str) -> bool {
    let b = name.as_bytes();
    b.first() == Some(&b'_')
        || b.last() == Some(&b'_')
        || b.windows(2)
            .any(|w| w[0] == b'_' && !w[1].is_ascii_alphabetic())
}

/// What is wrong with `name` in `style`, in protoc's words; `None` if nothing.
pub(crate) fn violation(name: &str, style: Style) -> Option<&'static str> {
    let first = name.bytes().next()?;
    match style {
        Style::Title => {
            if !name.bytes().all(|c| c.is_ascii_alphanumeric()) {
                Some("should be TitleCase")
            } else if !first.is_ascii_uppercase() {
                Some("should begin with a capital letter")
            } else {
                None
            }
        }
        Style::LowerSnake => {
            let ok = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_' || c == b'.';
            if !name.bytes().all(ok) {
                Some("should be lower_snake_case")
            } else if !first.is_ascii_lowercase() {
                Some("should begin with a lower case letter")
            } else if bad_underscores(name) {
                Some("contains style violating underscores")
            } else {
                None
            }
        }
        Style::UpperSnake => {
            let ok = |c: u8| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_';
            if !name.bytes().all(ok) {
                Some("should be UPPER_SNAKE_CASE")
            } else if !first.is_ascii_uppercase() {
                Some("should begin with an upper case letter")
            } else if bad_underscores(name) {
                Some("contains style violating underscores")
            } else {
                None
            }
        }
    }
}

impl Checker<'_> {
    /// Reports `name` (a `what`, e.g. "message") if edition 2024's style applies
    /// (`legacy` is the element's `enforce_naming_style = STYLE_LEGACY`) and it breaks it.
    pub(crate) fn naming_style(
        &mut self,
        what: &str,
        name: &str,
        span: Span,
        style: Style,
        legacy: bool,
    ) {
        if !self.syntax().is_2024_or_later() || legacy {
            return;
        }
        if let Some(problem) = violation(name, style) {
            self.err(
                "naming-style",
                span,
                format!("{what} name {name} {problem}"),
            )
            .with_help("edition 2024 enforces protobuf's naming style; `features.enforce_naming_style = STYLE_LEGACY` opts out");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Style, violation};

    #[test]
    fn styles_as_protoc_checks_them() {
        assert_eq!(violation("Mab2", Style::Title), None);
        assert_eq!(
            violation("bad_name", Style::Title),
            Some("should be TitleCase")
        );
        assert_eq!(
            violation("e", Style::Title),
            Some("should begin with a capital letter")
        );
        assert_eq!(violation("a_b2", Style::LowerSnake), None);
        assert_eq!(violation("my.pkg.v1", Style::LowerSnake), None);
        assert_eq!(
            violation("BadField", Style::LowerSnake),
            Some("should be lower_snake_case")
        );
        assert_eq!(
            violation("a_1", Style::LowerSnake),
            Some("contains style violating underscores")
        );
        assert_eq!(
            violation("a__b", Style::LowerSnake),
            Some("contains style violating underscores")
        );
        assert_eq!(
            violation("o_", Style::LowerSnake),
            Some("contains style violating underscores")
        );
        assert_eq!(
            violation("1a", Style::LowerSnake),
            Some("should begin with a lower case letter")
        );
        assert_eq!(violation("E_A2", Style::UpperSnake), None);
        assert_eq!(
            violation("E_b", Style::UpperSnake),
            Some("should be UPPER_SNAKE_CASE")
        );
    }
}
