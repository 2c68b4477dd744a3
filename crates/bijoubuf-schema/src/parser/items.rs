//! Messages, fields, enums, services and extends.

use super::value::int_value;
use super::{ENUM_MAX, FIELD_MAX, PResult, Parser};
use crate::ast::{
    Enum, EnumValue, Extend, ExtensionRanges, Field, Ident, Label, Message, Method, Oneof,
    OptionStmt, Range, Reserved, Service,
};
use crate::diagnostics::Diagnostic;
use crate::lexer::{Tok, text_of};
use crate::model::Comments;
use crate::span::Span;

/// protoc's name for the synthesized entry message of map field `field_name`.
pub(crate) fn map_entry_name(field_name: &str) -> String {
    let mut out = String::with_capacity(field_name.len() + 5);
    let mut cap_next = true;
    for c in field_name.chars() {
        if c == '_' {
            cap_next = true;
        } else if cap_next {
            out.push(c.to_ascii_uppercase());
            cap_next = false;
        } else {
            out.push(c);
        }
    }
    out.push_str("Entry");
    out
}

fn new_message(name: Ident, span: Span, comments: Comments) -> Message {
    Message {
        name,
        fields: Vec::new(),
        oneofs: Vec::new(),
        messages: Vec::new(),
        enums: Vec::new(),
        extends: Vec::new(),
        extension_ranges: Vec::new(),
        reserved: Vec::new(),
        options: Vec::new(),
        map_entry: false,
        visibility: None,
        span,
        comments,
    }
}

impl Parser<'_> {
    /// The head of a named block, `keyword Name {`, with the comments before it and
    /// after its `{`: the keyword's span, the name, the comments.
    fn block_head(&mut self, what: &str) -> PResult<(Span, Ident, Comments)> {
        let start_idx = self.index();
        let mut comments = self.comments_at(start_idx);
        let start = self.bump().span;
        let name = self.expect_ident(what)?;
        self.expect_sym('{')?;
        self.trailing(&mut comments);
        Ok((start, name, comments))
    }

    /// A block's statements up to its `}`, each read by `item`. A statement `item`
    /// refuses is skipped so that the rest of the block is still checked; the end of
    /// the input before the `}` is an error naming `closes`.
    fn block_body(
        &mut self,
        closes: &str,
        mut item: impl FnMut(&mut Self) -> PResult<()>,
    ) -> PResult<()> {
        loop {
            if self.eat_sym('}') {
                return Ok(());
            }
            if self.at_eof() {
                return Err(self.expected(closes));
            }
            if item(self).is_err() {
                self.recover();
            }
        }
    }

    /// `message Name { … }`
    pub(crate) fn message(&mut self) -> PResult<Message> {
        let (start, name, comments) = self.block_head("a message name")?;
        let mut msg = new_message(name, start, comments);
        if self.enter().is_err() {
            // Reported once: the too-deep message and all it holds are skipped whole,
            // so the blocks around it still close where they should.
            self.skip_block();
            msg.span = start.to(self.prev_span());
            return Ok(msg);
        }
        let r = self.message_body(&mut msg);
        self.leave();
        r?;
        msg.span = start.to(self.prev_span());
        Ok(msg)
    }

    fn message_body(&mut self, msg: &mut Message) -> PResult<()> {
        self.block_body("`}` to close the message", |p| p.message_item(msg, None))
    }

    /// One statement of a message body (or of a oneof body when `oneof` is set).
    fn message_item(&mut self, msg: &mut Message, oneof: Option<usize>) -> PResult<()> {
        if self.eat_sym(';') {
            return Ok(());
        }
        if self.at_word("option") {
            let o = self.option_statement()?;
            match oneof {
                Some(i) => msg.oneofs[i].options.push(o),
                None => msg.options.push(o),
            }
            return Ok(());
        }
        if oneof.is_none() {
            if let Some(visibility) = self.visibility() {
                if self.at_word("message") {
                    let mut m = self.message()?;
                    m.visibility = Some(visibility);
                    msg.messages.push(m);
                } else {
                    let mut e = self.enumeration()?;
                    e.visibility = Some(visibility);
                    msg.enums.push(e);
                }
                return Ok(());
            }
            if self.at_word("message") {
                let m = self.message()?;
                msg.messages.push(m);
                return Ok(());
            }
            if self.at_word("enum") {
                let e = self.enumeration()?;
                msg.enums.push(e);
                return Ok(());
            }
            if self.at_word("extend") {
                let e = self.extend()?;
                msg.extends.push(e);
                return Ok(());
            }
            if self.at_word("extensions") {
                let e = self.extensions()?;
                msg.extension_ranges.push(e);
                return Ok(());
            }
            if self.at_word("reserved") {
                let r = self.reserved(FIELD_MAX)?;
                msg.reserved.push(r);
                return Ok(());
            }
            if self.at_word("oneof") {
                return self.oneof(msg);
            }
        }
        let field = self.field(Some(msg), oneof)?;
        msg.fields.push(field);
        Ok(())
    }

    fn oneof(&mut self, msg: &mut Message) -> PResult<()> {
        let (start, name, comments) = self.block_head("a oneof name")?;
        let index = msg.oneofs.len();
        msg.oneofs.push(Oneof {
            name,
            options: Vec::new(),
            span: start,
            comments,
        });
        self.block_body("`}` to close the oneof", |p| {
            p.message_item(msg, Some(index))
        })?;
        msg.oneofs[index].span = start.to(self.prev_span());
        Ok(())
    }

    /// A field; a `map<K, V>` field also adds its entry message to `msg`.
    pub(crate) fn field(
        &mut self,
        msg: Option<&mut Message>,
        oneof: Option<usize>,
    ) -> PResult<Field> {
        let start_idx = self.index();
        let mut comments = self.comments_at(start_idx);
        let start = self.peek().span;
        let label =
            if self.at_word("optional") || self.at_word("repeated") || self.at_word("required") {
                let t = self.bump();
                let l = match self.slice(t.span) {
                    "optional" => Label::Optional,
                    "repeated" => Label::Repeated,
                    _ => Label::Required,
                };
                Some((l, t.span))
            } else {
                None
            };
        if self.at_word("group") {
            let span = self.peek().span;
            return Err(self.unsupported(
                span,
                "`group`",
                "declare a nested message and a field of that type instead",
            ));
        }
        let mut map = None;
        let ty = if self.at_word_then_sym("map", '<') {
            let map_start = self.bump().span;
            self.bump();
            let key = self.full_ident("a map key type", true)?;
            self.expect_sym(',')?;
            let value = self.full_ident("a map value type", true)?;
            self.expect_sym('>')?;
            map = Some((key, value));
            Ident {
                name: String::new(),
                span: map_start.to(self.prev_span()),
            }
        } else {
            self.full_ident("a field type", true)?
        };
        let name = self.expect_ident("a field name")?;
        self.expect_sym('=')?;
        let (number, number_span) = self.number("a field number")?;
        let (options, options_span) = self.bracket_options()?;
        self.expect_sym(';')?;
        self.trailing(&mut comments);
        let span = start.to(self.prev_span());
        let mut ty = ty;
        if let Some((key, value)) = &map {
            let entry_name = map_entry_name(&name.name);
            ty.name = entry_name.clone();
            if let Some(msg) = msg {
                let mut entry = new_message(
                    Ident {
                        name: entry_name,
                        span: ty.span,
                    },
                    span,
                    Comments::default(),
                );
                entry.map_entry = true;
                // protoc gives the entry's key and value the map field's features
                // (the whole `features` message, language features included).
                let features: Vec<OptionStmt> = if self.syntax.is_edition() {
                    options
                        .iter()
                        .filter(|o| {
                            o.name
                                .first()
                                .is_some_and(|n| !n.is_extension && n.name == "features")
                        })
                        .cloned()
                        .collect()
                } else {
                    Vec::new()
                };
                for (n, (t, fname)) in [(key, "key"), (value, "value")].into_iter().enumerate() {
                    entry.fields.push(Field {
                        label: Some((Label::Optional, t.span)),
                        ty: t.clone(),
                        map: None,
                        name: Ident {
                            name: fname.into(),
                            span: t.span,
                        },
                        number: n as i64 + 1,
                        number_span: t.span,
                        options: features.clone(),
                        options_span: None,
                        oneof: None,
                        span: t.span,
                        comments: Comments::default(),
                    });
                }
                msg.messages.push(entry);
            }
        }
        Ok(Field {
            label,
            ty,
            map,
            name,
            number,
            number_span,
            options,
            options_span,
            oneof,
            span,
            comments,
        })
    }

    /// An integer with an optional sign (range checks come later).
    fn number(&mut self, what: &str) -> PResult<(i64, Span)> {
        let start = self.peek().span;
        let negative = self.eat_sym('-');
        let t = self.peek().clone();
        if t.tok != Tok::Int {
            return Err(self.expected(what));
        }
        self.bump();
        let span = start.to(t.span);
        let Some(magnitude) = int_value(text_of(self.text, &t)) else {
            return Err(self.error(
                span,
                "integer literal is invalid or does not fit in 64 bits",
            ));
        };
        let v = i128::from(magnitude) * if negative { -1 } else { 1 };
        Ok((
            v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64,
            span,
        ))
    }

    /// `a`, `a to b`, `a to max`, comma-separated.
    fn ranges(&mut self, max: i64) -> PResult<Vec<Range>> {
        let mut out = Vec::new();
        loop {
            let first = self.peek().span;
            let (start, start_span) = self.number("a number")?;
            let mut to_max = false;
            let (end, end_span) = if self.eat_word("to") {
                if self.at_word("max") {
                    to_max = true;
                    (max, self.bump().span)
                } else {
                    self.number("a number or `max`")?
                }
            } else {
                // protoc gives the end of a one-number range the span of the number's
                // first token: only the `-` of `reserved -1;` in an enum.
                (start, first)
            };
            out.push(Range {
                start,
                end,
                span: start_span.to(end_span),
                start_span,
                end_span,
                max: to_max,
            });
            if !self.eat_sym(',') {
                return Ok(out);
            }
        }
    }

    fn extensions(&mut self) -> PResult<ExtensionRanges> {
        let start_idx = self.index();
        let mut comments = self.comments_at(start_idx);
        let start = self.bump().span;
        let ranges = self.ranges(FIELD_MAX)?;
        let (options, options_span) = self.bracket_options()?;
        self.expect_sym(';')?;
        self.trailing(&mut comments);
        Ok(ExtensionRanges {
            ranges,
            options,
            options_span,
            span: start.to(self.prev_span()),
            comments,
        })
    }

    /// `reserved 1, 2 to 5;` or `reserved "a", "b";`
    fn reserved(&mut self, max: i64) -> PResult<Reserved> {
        let start_idx = self.index();
        let mut comments = self.comments_at(start_idx);
        let start = self.bump().span;
        let mut names = Vec::new();
        let mut ranges = Vec::new();
        if matches!(self.peek().tok, Tok::Str(_)) {
            loop {
                let (name, span) = self.string_utf8("a reserved name")?;
                if self.syntax.is_edition() {
                    // protoc: "Reserved names must be identifiers in editions".
                    self.errors.push(
                        Diagnostic::error(
                            "syntax",
                            self.file,
                            span,
                            "reserved names are identifiers in an edition, not string literals",
                        )
                        .help(format!("write `reserved {name};`")),
                    );
                }
                names.push(Ident { name, span });
                if !self.eat_sym(',') {
                    break;
                }
            }
        } else if self.peek().tok == Tok::Ident && self.syntax.is_edition() {
            // Editions write reserved names as identifiers.
            loop {
                names.push(self.expect_ident("a reserved name")?);
                if !self.eat_sym(',') {
                    break;
                }
            }
        } else if self.peek().tok == Tok::Ident {
            let span = self.peek().span;
            return Err(self.unsupported(
                span,
                "an unquoted reserved name (protobuf editions syntax)",
                "quote the name: reserved \"name\";",
            ));
        } else {
            ranges = self.ranges(max)?;
        }
        self.expect_sym(';')?;
        self.trailing(&mut comments);
        Ok(Reserved {
            ranges,
            names,
            span: start.to(self.prev_span()),
            comments,
        })
    }

    /// `enum Name { … }`
    pub(crate) fn enumeration(&mut self) -> PResult<Enum> {
        let (start, name, comments) = self.block_head("an enum name")?;
        let mut e = Enum {
            name,
            visibility: None,
            values: Vec::new(),
            options: Vec::new(),
            reserved: Vec::new(),
            span: start,
            comments,
        };
        self.block_body("`}` to close the enum", |p| p.enum_item(&mut e))?;
        e.span = start.to(self.prev_span());
        Ok(e)
    }

    fn enum_item(&mut self, e: &mut Enum) -> PResult<()> {
        if self.eat_sym(';') {
            return Ok(());
        }
        if self.at_word("option") {
            let o = self.option_statement()?;
            e.options.push(o);
            return Ok(());
        }
        if self.at_word("reserved") {
            let r = self.reserved(ENUM_MAX)?;
            e.reserved.push(r);
            return Ok(());
        }
        let start_idx = self.index();
        let mut comments = self.comments_at(start_idx);
        let name = self.expect_ident("an enum value name")?;
        self.expect_sym('=')?;
        let (number, number_span) = self.number("an enum value number")?;
        let (options, options_span) = self.bracket_options()?;
        self.expect_sym(';')?;
        self.trailing(&mut comments);
        let span = name.span.to(self.prev_span());
        e.values.push(EnumValue {
            name,
            number,
            number_span,
            options,
            options_span,
            span,
            comments,
        });
        Ok(())
    }

    /// `extend Type { fields }`
    pub(crate) fn extend(&mut self) -> PResult<Extend> {
        let start_idx = self.index();
        let mut comments = self.comments_at(start_idx);
        let start = self.bump().span;
        let extendee = self.full_ident("the extended message's name", true)?;
        self.expect_sym('{')?;
        self.trailing(&mut comments);
        let mut fields = Vec::new();
        self.block_body("`}` to close the extend block", |p| {
            if p.eat_sym(';') {
                return Ok(());
            }
            let f = p.field(None, None)?;
            if f.map.is_some() {
                let span = f.ty.span;
                p.error(span, "map fields cannot be extensions");
            } else {
                fields.push(f);
            }
            Ok(())
        })?;
        Ok(Extend {
            extendee,
            fields,
            span: start.to(self.prev_span()),
            comments,
        })
    }

    /// `service Name { rpc … }`
    pub(crate) fn service(&mut self) -> PResult<Service> {
        let (start, name, comments) = self.block_head("a service name")?;
        let mut s = Service {
            name,
            methods: Vec::new(),
            options: Vec::new(),
            span: start,
            comments,
        };
        self.block_body("`}` to close the service", |p| {
            if p.eat_sym(';') {
                Ok(())
            } else if p.at_word("option") {
                p.option_statement().map(|o| s.options.push(o))
            } else if p.at_word("rpc") {
                p.method().map(|m| s.methods.push(m))
            } else {
                Err(p.expected("`rpc` or `option`"))
            }
        })?;
        s.span = start.to(self.prev_span());
        Ok(s)
    }

    fn method(&mut self) -> PResult<Method> {
        let start_idx = self.index();
        let mut comments = self.comments_at(start_idx);
        let start = self.bump().span;
        let name = self.expect_ident("a method name")?;
        let (input, input_stream) = self.method_type()?;
        if !self.eat_word("returns") {
            return Err(self.expected("`returns`"));
        }
        let (output, output_stream) = self.method_type()?;
        let mut options = Vec::new();
        let has_body = self.eat_sym('{');
        if has_body {
            self.trailing(&mut comments);
            loop {
                if self.eat_sym('}') {
                    break;
                }
                if self.at_eof() {
                    return Err(self.expected("`}`"));
                }
                let r = if self.eat_sym(';') {
                    Ok(())
                } else if self.at_word("option") {
                    self.option_statement().map(|o| options.push(o))
                } else {
                    Err(self.expected("`option` or `}`"))
                };
                if r.is_err() {
                    self.recover();
                }
            }
        } else {
            self.expect_sym(';')?;
            self.trailing(&mut comments);
        }
        Ok(Method {
            name,
            input,
            input_stream,
            output,
            output_stream,
            options,
            has_body,
            span: start.to(self.prev_span()),
            comments,
        })
    }

    fn method_type(&mut self) -> PResult<(Ident, Option<Span>)> {
        self.expect_sym('(')?;
        // `stream` is a keyword only when a type name follows it.
        let stream =
            self.at_word("stream") && matches!(self.peek_at(1).tok, Tok::Ident | Tok::Sym('.'));
        let stream = if stream { Some(self.bump().span) } else { None };
        let ty = self.full_ident("a message type", true)?;
        self.expect_sym(')')?;
        Ok((ty, stream))
    }
}

#[cfg(test)]
mod tests {
    use super::map_entry_name;

    #[test]
    fn entry_names() {
        assert_eq!(map_entry_name("my_map"), "MyMapEntry");
        assert_eq!(map_entry_name("m__x1"), "MX1Entry");
        assert_eq!(map_entry_name("Foo"), "FooEntry");
    }
}
