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
        let start = self.peek().span;
        if self.at_sym('-') || self.at_sym('+') {
            let negative = self.at_sym('-');
            self.bump();
            let v = self.number_or_word()?;
            let span = start.to(v.span);
            let kind = match (v.kind, negative) {
                (ValueKind::Int { magnitude, .. }, _) => ValueKind::Int {
                    negative,
                    magnitude,
                },
                (ValueKind::Float(f), true) => ValueKind::Float(-f),
                (ValueKind::Float(f), false) => ValueKind::Float(f),
                (ValueKind::Ident(w), _) if w == "inf" || w == "nan" || w == "infinity" => {
                    let f = if w == "nan" { f64::NAN } else { f64::INFINITY };
                    ValueKind::Float(if negative { -f } else { f })
                }
                _ => return Err(self.error(span, "expected a number after the sign")),
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
            Tok::Sym('{') if aggregates => self.aggregate('}'),
            Tok::Sym('<') if aggregates => self.aggregate('>'),
            _ => self.number_or_word(),
        }
    }

    fn number_or_word(&mut self) -> PResult<Value> {
        let t = self.peek().clone();
        let text = text_of(self.text, &t);
        match t.tok {
            Tok::Int => {
                self.bump();
                match int_value(text) {
                    Some(magnitude) => Ok(Value {
                        kind: ValueKind::Int {
                            negative: false,
                            magnitude,
                        },
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
    fn aggregate(&mut self, close: char) -> PResult<Value> {
        self.enter()?;
        let r = self.aggregate_inner(close);
        self.leave();
        r
    }

    fn aggregate_inner(&mut self, close: char) -> PResult<Value> {
        let start = self.bump().span;
        let mut fields = Vec::new();
        while !self.eat_sym(close) {
            if self.at_eof() {
                return Err(self.expected(&format!("`{close}`")));
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
            } else {
                self.value(true)?
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
                items.push(self.value(true)?);
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
