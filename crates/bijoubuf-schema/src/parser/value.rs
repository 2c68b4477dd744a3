//! Option names and constant values, including text-format aggregates.

use super::{PResult, Parser};
use crate::ast::{AggregateField, NamePart, Value, ValueKind};
use crate::lexer::{Tok, text_of};

/// Reads an integer literal's text: `0x1F`, `017` (octal), `42`.
pub(crate) fn int_value(text: &str) -> Option<u64> {
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        u64::from_str_radix(hex, 16).ok()
    } else if text.len() > 1 && text.starts_with('0') {
        u64::from_str_radix(&text[1..], 8).ok()
    } else {
        text.parse().ok()
    }
}

impl Parser<'_> {
    /// `name = value` (without the statement's `option` and `;`).
    pub(crate) fn option_body(&mut self) -> PResult<(Vec<NamePart>, Value)> {
        let mut name = Vec::new();
        loop {
            if self.at_sym('(') {
                let open = self.bump().span;
                let inner = self.full_ident("an extension name", true)?;
                self.expect_sym(')')?;
                name.push(NamePart {
                    name: inner.name,
                    is_extension: true,
                    span: open.to(self.prev_span()),
                });
            } else {
                let part = self.expect_ident("an option name")?;
                name.push(NamePart {
                    name: part.name,
                    is_extension: false,
                    span: part.span,
                });
            }
            if !self.eat_sym('.') {
                break;
            }
        }
        self.expect_sym('=')?;
        let value = self.value(true)?;
        Ok((name, value))
    }

    /// A constant; `{…}` aggregates are allowed where `aggregates` is true.
    pub(crate) fn value(&mut self, aggregates: bool) -> PResult<Value> {
        self.value_at(aggregates, false)
    }

    /// A constant, `nested` inside an aggregate (text format), where protoc's text-format
    /// parser takes over from its .proto parser.
    fn value_at(&mut self, aggregates: bool, nested: bool) -> PResult<Value> {
        let start = self.peek().span;
        if self.at_sym('-') || self.at_sym('+') {
            let negative = self.at_sym('-');
            self.bump();
            let v = self.number_or_word()?;
            let span = start.to(v.span);
            let kind = match (v.kind, negative) {
                (
                    ValueKind::Int {
                        magnitude, decimal, ..
                    },
                    _,
                ) => ValueKind::Int {
                    negative,
                    magnitude,
                    decimal,
                },
                (ValueKind::Float(f), true) => ValueKind::Float(-f),
                (ValueKind::Float(f), false) => ValueKind::Float(f),
                // protoc's .proto parser takes `inf` and `nan` after a sign; text format
                // also `infinity`, in any case.
                (ValueKind::Ident(w), _) => match special_float(&w, nested) {
                    Some(f) => ValueKind::Float(if negative { -f } else { f }),
                    None => return Err(self.after_sign(span)),
                },
                _ => return Err(self.after_sign(span)),
            };
            return Ok(Value { kind, span });
        }
        match self.peek().tok {
            Tok::Str(_) => {
                let (bytes, span) = self.string_lit("a string")?;
                Ok(Value {
                    kind: ValueKind::Str(bytes),
                    span,
                })
            }
            Tok::Sym('{') if aggregates => self.aggregate('}', nested),
            // protoc takes `<…>` only inside an aggregate.
            Tok::Sym('<') if aggregates && nested => self.aggregate('>', nested),
            _ => self.number_or_word(),
        }
    }

    fn number_or_word(&mut self) -> PResult<Value> {
        let t = self.peek().clone();
        let text = text_of(self.text, &t);
        match t.tok {
            Tok::Int => {
                self.bump();
                let decimal = !text.starts_with('0') || text == "0";
                match int_value(text) {
                    Some(magnitude) => Ok(Value {
                        kind: ValueKind::Int {
                            negative: false,
                            magnitude,
                            decimal,
                        },
                        span: t.span,
                    }),
                    // protoc reads a decimal integer past 64 bits as a floating-point
                    // number (it is then an error for any integer type).
                    None if decimal && text.bytes().all(|b| b.is_ascii_digit()) => Ok(Value {
                        kind: ValueKind::Float(text.parse().unwrap_or(f64::INFINITY)),
                        span: t.span,
                    }),
                    None => Err(self.error(
                        t.span,
                        "integer literal is invalid or does not fit in 64 bits",
                    )),
                }
            }
            Tok::Float => {
                self.bump();
                match text.parse::<f64>() {
                    Ok(f) => Ok(Value {
                        kind: ValueKind::Float(f),
                        span: t.span,
                    }),
                    Err(_) => Err(self.error(t.span, "invalid float literal")),
                }
            }
            Tok::Ident => {
                let id = self.full_ident("a value", false)?;
                Ok(Value {
                    kind: ValueKind::Ident(id.name),
                    span: id.span,
                })
            }
            _ => Err(self.expected("a constant value")),
        }
    }

    /// Text format: `{ name: value name { … } [ext.name]: value list: [1, 2] }`.
    fn aggregate(&mut self, close: char, nested: bool) -> PResult<Value> {
        self.enter()?;
        let r = self.aggregate_inner(close, nested);
        self.leave();
        r
    }

    fn aggregate_inner(&mut self, close: char, nested: bool) -> PResult<Value> {
        let start = self.bump().span;
        let mut fields = Vec::new();
        while !self.eat_sym(close) {
            if self.at_eof() {
                return Err(self.expected(&format!("`{close}`")));
            }
            if self.at_sym('#') {
                // protoc hands the text of a top-level aggregate to its text-format
                // parser with the line breaks gone, so a `#` comment runs to the end of
                // the value: fields after it are ignored; inside a nested message the
                // comment swallows the closing brace, which protoc refuses.
                let hash = self.peek().span;
                if nested {
                    return Err(self.error(
                        hash,
                        "a `#` comment inside an option value runs to the end of the value, so this message is never closed",
                    ));
                }
                self.skip_comment_to_close()?;
                break;
            }
            let (name, is_extension, name_span) = if self.at_sym('[') {
                let open = self.bump().span;
                let mut id = self.full_ident("an extension or type URL", false)?;
                // `[type.googleapis.com/pkg.Msg]` expands an Any.
                while self.eat_sym('/') {
                    let more = self.full_ident("a type name", false)?;
                    id.name.push('/');
                    id.name.push_str(&more.name);
                }
                self.expect_sym(']')?;
                (id.name, true, open.to(self.prev_span()))
            } else {
                let id = self.expect_ident("a field name")?;
                (id.name, false, id.span)
            };
            let has_colon = self.eat_sym(':');
            let value = if self.at_sym('[') {
                self.list()?
            } else if !(has_colon || self.at_sym('{') || self.at_sym('<')) {
                return Err(self.expected("`:` or `{`"));
            } else if self.at_sym('#') {
                return Err(self.error(
                    self.peek().span,
                    "a `#` comment inside an option value runs to the end of the value, so this field has no value",
                ));
            } else {
                self.value_at(true, true)?
            };
            fields.push(AggregateField {
                name,
                is_extension,
                name_span,
                value,
            });
            if !self.eat_sym(',') {
                self.eat_sym(';');
            }
        }
        Ok(Value {
            kind: ValueKind::Aggregate(fields),
            span: start.to(self.prev_span()),
        })
    }

    fn list(&mut self) -> PResult<Value> {
        let start = self.bump().span;
        let mut items = Vec::new();
        if !self.eat_sym(']') {
            loop {
                if self.at_sym('#') {
                    return Err(self.error(
                        self.peek().span,
                        "a `#` comment inside an option value runs to the end of the value, so this list is never closed",
                    ));
                }
                items.push(self.value_at(true, true)?);
                if self.eat_sym(']') {
                    break;
                }
                self.expect_sym(',')?;
            }
        }
        Ok(Value {
            kind: ValueKind::List(items),
            span: start.to(self.prev_span()),
        })
    }
}

/// `inf`, `nan` (and, in text format, `infinity`, in any case).
fn special_float(word: &str, text_format: bool) -> Option<f64> {
    let w = if text_format {
        word.to_ascii_lowercase()
    } else {
        word.to_string()
    };
    match w.as_str() {
        "inf" => Some(f64::INFINITY),
        "infinity" if text_format => Some(f64::INFINITY),
        "nan" => Some(f64::NAN),
        _ => None,
    }
}

impl Parser<'_> {
    fn after_sign(&mut self, span: crate::span::Span) -> super::Recorded {
        self.error(span, "expected a number, `inf` or `nan` after the sign")
    }

    /// Skips the tokens of a `#` comment up to the `}` that ends the top-level aggregate
    /// (braces inside still have to balance, as protoc's .proto parser counts them).
    fn skip_comment_to_close(&mut self) -> PResult<()> {
        let mut depth = 0usize;
        loop {
            if self.at_eof() {
                return Err(self.expected("`}`"));
            }
            if self.at_sym('{') {
                depth += 1;
            } else if self.at_sym('}') {
                if depth == 0 {
                    self.bump();
                    return Ok(());
                }
                depth -= 1;
            }
            self.bump();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::int_value;

    #[test]
    fn integer_bases() {
        assert_eq!(int_value("0x1f"), Some(31));
        assert_eq!(int_value("017"), Some(15));
        assert_eq!(int_value("0"), Some(0));
        assert_eq!(int_value("18446744073709551615"), Some(u64::MAX));
        assert_eq!(int_value("18446744073709551616"), None);
        assert_eq!(int_value("09"), None);
    }
}
