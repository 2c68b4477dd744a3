//! Tokens of .proto text, with protoc's rules for attaching comments.
//!
//! The small recognizers (identifiers, numbers, strings, comments) are nom parsers; the
//! driver loop around them tracks line breaks because protoc decides whether a comment is
//! *trailing* (belongs to the previous declaration), *leading* (belongs to the next) or
//! *detached* (stands alone) from the blank lines between them.

use nom::branch::alt;
use nom::bytes::complete::{tag, take_until, take_while, take_while1};
use nom::character::complete::{char, one_of, satisfy};
use nom::combinator::{opt, recognize};
use nom::sequence::pair;
use nom::{IResult, Parser};

use crate::span::Span;

/// What a token is.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    Ident,
    Int,
    Float,
    /// A string literal, escapes decoded (may be invalid UTF-8).
    Str(Vec<u8>),
    Sym(char),
    Eof,
}

/// Comments protoc attaches around a token.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct TokenComments {
    pub(crate) leading: Option<String>,
    pub(crate) detached: Vec<String>,
    /// Comment after this token that belongs to the declaration it ends.
    pub(crate) trailing: Option<String>,
}

#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub(crate) tok: Tok,
    pub(crate) span: Span,
    pub(crate) comments: Option<Box<TokenComments>>,
}

/// A lexical error: the span and the message.
#[derive(Clone, Debug)]
pub(crate) struct LexError {
    pub(crate) span: Span,
    pub(crate) message: String,
    pub(crate) help: Option<String>,
}

fn ident(i: &str) -> IResult<&str, &str> {
    recognize(pair(
        satisfy(|c| c.is_ascii_alphabetic() || c == '_'),
        take_while(|c: char| c.is_ascii_alphanumeric() || c == '_'),
    ))
    .parse(i)
}

fn digits(i: &str) -> IResult<&str, &str> {
    take_while1(|c: char| c.is_ascii_digit()).parse(i)
}

fn exponent(i: &str) -> IResult<&str, &str> {
    recognize((one_of("eE"), opt(one_of("+-")), digits)).parse(i)
}

/// A float literal: `1.`, `1.5`, `.5`, `1e3`, `1.5e-3`.
fn float(i: &str) -> IResult<&str, &str> {
    alt((
        recognize((digits, char('.'), opt(digits), opt(exponent))),
        recognize((char('.'), digits, opt(exponent))),
        recognize((digits, exponent)),
    ))
    .parse(i)
}

/// An integer literal: hex, octal or decimal (the value is read later).
fn int(i: &str) -> IResult<&str, &str> {
    alt((
        recognize((
            tag("0"),
            one_of("xX"),
            take_while1(|c: char| c.is_ascii_hexdigit()),
        )),
        digits,
    ))
    .parse(i)
}

fn line_comment(i: &str) -> IResult<&str, &str> {
    let (i, _) = tag("//").parse(i)?;
    take_while(|c| c != '\n').parse(i)
}

fn block_comment(i: &str) -> IResult<&str, &str> {
    let (i, _) = tag("/*").parse(i)?;
    let (i, body) = take_until("*/").parse(i)?;
    let (i, _) = tag("*/").parse(i)?;
    Ok((i, body))
}

/// protoc drops, on every line after the first, the indentation and one leading `*`.
fn block_comment_text(body: &str) -> String {
    let mut out = String::new();
    for (n, line) in body.split('\n').enumerate() {
        if n > 0 {
            out.push('\n');
            let trimmed = line.trim_start_matches([' ', '\t', '\r', '\x0b', '\x0c']);
            out.push_str(trimmed.strip_prefix('*').unwrap_or(trimmed));
        } else {
            out.push_str(line);
        }
    }
    out
}

/// Accumulates comment text between two tokens (protoc's comment collector).
#[derive(Default)]
struct Collector {
    buffer: String,
    has_comment: bool,
    is_line: bool,
    can_attach_to_prev: bool,
    trailing: Option<String>,
    detached: Vec<String>,
}

impl Collector {
    fn line_buffer(&mut self) -> &mut String {
        if self.has_comment && !self.is_line {
            self.flush();
        }
        self.has_comment = true;
        self.is_line = true;
        &mut self.buffer
    }

    fn block_buffer(&mut self) -> &mut String {
        if self.has_comment {
            self.flush();
        }
        self.has_comment = true;
        self.is_line = false;
        &mut self.buffer
    }

    fn clear(&mut self) {
        self.buffer.clear();
        self.has_comment = false;
    }

    fn flush(&mut self) {
        if self.has_comment {
            let text = std::mem::take(&mut self.buffer);
            if self.can_attach_to_prev {
                self.trailing = Some(text);
                self.can_attach_to_prev = false;
            } else {
                self.detached.push(text);
            }
            self.clear();
        }
    }
}

struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    tokens: Vec<Token>,
    errors: Vec<LexError>,
}

impl<'a> Lexer<'a> {
    fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    fn skip_blanks_no_newline(&mut self) {
        let n = self
            .rest()
            .bytes()
            .take_while(|b| matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c))
            .count();
        self.pos += n;
    }

    fn try_newline(&mut self) -> bool {
        if self.rest().starts_with('\n') {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// protoc stops a comment at a NUL byte and refuses the byte: so do we.
    /// `body` starts right after the `//` or `/*` at the current position.
    fn refuse_nul(&mut self, body: &str) {
        if let Some(i) = body.find('\0') {
            let at = self.pos + 2 + i;
            self.errors.push(LexError {
                span: Span::new(at, at + 1),
                message: "a comment contains a NUL byte".into(),
                help: Some("remove the NUL byte (protoc refuses it as a control character)".into()),
            });
        }
    }

    /// Reads a comment if one starts here, appending its text to the collector.
    fn comment(&mut self, c: &mut Collector) -> Option<bool> {
        let rest = self.rest();
        if let Ok((after, body)) = line_comment(rest) {
            self.refuse_nul(body);
            let buf = c.line_buffer();
            buf.push_str(body.strip_suffix('\r').unwrap_or(body));
            buf.push('\n');
            self.pos = self.text.len() - after.len();
            // The line comment owns its newline.
            self.try_newline();
            return Some(true);
        }
        if rest.starts_with("/*") {
            match block_comment(rest) {
                Ok((after, body)) => {
                    self.refuse_nul(body);
                    c.block_buffer().push_str(&block_comment_text(body));
                    self.pos = self.text.len() - after.len();
                }
                Err(_) => {
                    self.errors.push(LexError {
                        span: Span::new(self.pos, self.pos + 2),
                        message: "block comment is never closed".into(),
                        help: Some("close it with `*/`".into()),
                    });
                    self.pos = self.text.len();
                }
            }
            return Some(false);
        }
        None
    }

    /// The comments between the previous token and the next, then the next token.
    fn next(&mut self) -> bool {
        let mut c = Collector {
            can_attach_to_prev: !self.tokens.is_empty(),
            ..Collector::default()
        };
        if !self.tokens.is_empty() {
            self.skip_blanks_no_newline();
            match self.comment(&mut c) {
                Some(true) => {
                    c.flush();
                }
                Some(false) => {
                    self.skip_blanks_no_newline();
                    if !self.try_newline() {
                        // A block comment with a token after it on the same line: nobody's.
                        c.clear();
                        return self.finish(c);
                    }
                    c.flush();
                }
                None => {
                    if !self.try_newline() {
                        return self.finish(c);
                    }
                }
            }
        }
        loop {
            self.skip_blanks_no_newline();
            match self.comment(&mut c) {
                Some(true) => {}
                Some(false) => {
                    self.skip_blanks_no_newline();
                    self.try_newline();
                }
                None => {
                    if self.try_newline() {
                        c.flush();
                        c.can_attach_to_prev = false;
                    } else {
                        let closes_scope =
                            self.rest().is_empty() || self.rest().starts_with(['}', ']', ')']);
                        if closes_scope {
                            c.flush();
                        }
                        return self.finish(c);
                    }
                }
            }
        }
    }

    /// Stores the collected comments and reads one token.
    fn finish(&mut self, mut c: Collector) -> bool {
        if let Some(trailing) = c.trailing.take()
            && let Some(prev) = self.tokens.last_mut()
        {
            prev.comments.get_or_insert_with(Default::default).trailing = Some(trailing);
        }
        let leading = if c.has_comment {
            Some(std::mem::take(&mut c.buffer))
        } else {
            None
        };
        let start = self.pos;
        let tok = self.token();
        let span = Span::new(start, self.pos);
        let comments = if leading.is_some() || !c.detached.is_empty() {
            Some(Box::new(TokenComments {
                leading,
                detached: c.detached,
                trailing: None,
            }))
        } else {
            None
        };
        let more = tok != Tok::Eof;
        self.tokens.push(Token {
            tok,
            span,
            comments,
        });
        more
    }

    fn token(&mut self) -> Tok {
        let rest = self.rest();
        let Some(first) = rest.chars().next() else {
            return Tok::Eof;
        };
        let advance = |this: &mut Self, after: &str| this.pos = this.text.len() - after.len();
        if let Ok((after, _)) = ident(rest) {
            advance(self, after);
            return Tok::Ident;
        }
        if first.is_ascii_digit()
            || (first == '.' && rest[1..].starts_with(|c: char| c.is_ascii_digit()))
        {
            let is_hex = rest.starts_with("0x") || rest.starts_with("0X");
            let (after, tok) = match (is_hex, float(rest), int(rest)) {
                (false, Ok((after, _)), _) => (after, Tok::Float),
                (_, _, Ok((after, _))) => (after, Tok::Int),
                _ => (&rest[1..], Tok::Int),
            };
            advance(self, after);
            if after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
                let end = after
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(after.len());
                self.errors.push(LexError {
                    span: Span::new(self.pos, self.pos + end),
                    message: "need space between number and identifier".into(),
                    help: None,
                });
                self.pos += end;
            }
            return tok;
        }
        if first == '"' || first == '\'' {
            return self.string(first);
        }
        self.pos += first.len_utf8();
        if !(first.is_ascii_punctuation()) {
            self.errors.push(LexError {
                span: Span::new(self.pos - first.len_utf8(), self.pos),
                message: format!("unexpected character {first:?}"),
                help: None,
            });
        }
        Tok::Sym(first)
    }

    fn string(&mut self, quote: char) -> Tok {
        let start = self.pos;
        let bytes = self.text.as_bytes();
        let mut i = self.pos + 1;
        let mut out = Vec::new();
        loop {
            match bytes.get(i) {
                None | Some(b'\n') => {
                    self.errors.push(LexError {
                        span: Span::new(start, i),
                        message: "string literal is not closed on its line".into(),
                        help: Some(format!("end it with {quote}")),
                    });
                    self.pos = i;
                    return Tok::Str(out);
                }
                Some(&b) if b == quote as u8 => {
                    self.pos = i + 1;
                    return Tok::Str(out);
                }
                Some(b'\\') => i = self.escape(i, &mut out),
                Some(&b) => {
                    out.push(b);
                    i += 1;
                }
            }
        }
    }

    /// Decodes the escape at `i` (the backslash); returns the index after it.
    fn escape(&mut self, i: usize, out: &mut Vec<u8>) -> usize {
        let bytes = self.text.as_bytes();
        let Some(&c) = bytes.get(i + 1) else {
            return i + 1;
        };
        let simple = match c {
            b'a' => Some(7),
            b'b' => Some(8),
            b'f' => Some(12),
            b'n' => Some(b'\n'),
            b'r' => Some(b'\r'),
            b't' => Some(b'\t'),
            b'v' => Some(11),
            b'\\' | b'\'' | b'"' | b'?' => Some(c),
            _ => None,
        };
        if let Some(v) = simple {
            out.push(v);
            return i + 2;
        }
        let count = |from: usize, max: usize, f: fn(u8) -> bool| {
            bytes[from..]
                .iter()
                .take(max)
                .take_while(|b| f(**b))
                .count()
        };
        match c {
            b'0'..=b'7' => {
                let n = count(i + 1, 3, |b| (b'0'..=b'7').contains(&b));
                let v = u32::from_str_radix(&self.text[i + 1..i + 1 + n], 8).unwrap_or(0);
                out.push((v & 0xff) as u8);
                i + 1 + n
            }
            b'x' | b'X' => {
                let n = count(i + 2, 2, |b| b.is_ascii_hexdigit());
                if n == 0 {
                    self.bad_escape(i, 2, "`\\x` needs one or two hex digits");
                    return i + 2;
                }
                out.push(u8::from_str_radix(&self.text[i + 2..i + 2 + n], 16).unwrap_or(0));
                i + 2 + n
            }
            b'u' | b'U' => {
                let want = if c == b'u' { 4 } else { 8 };
                let n = count(i + 2, want, |b| b.is_ascii_hexdigit());
                let ch = u32::from_str_radix(&self.text[i + 2..i + 2 + n], 16)
                    .ok()
                    .and_then(char::from_u32);
                match (n == want, ch) {
                    (true, Some(ch)) => {
                        let mut buf = [0; 4];
                        out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                    }
                    _ => self.bad_escape(
                        i,
                        2 + n,
                        "unicode escape needs its full hex digits and a valid code point",
                    ),
                }
                i + 2 + n
            }
            _ => {
                self.bad_escape(i, 2, "unknown escape sequence");
                i + 2
            }
        }
    }

    fn bad_escape(&mut self, at: usize, len: usize, message: &str) {
        let end = (at + len).min(self.text.len());
        self.errors.push(LexError {
            span: Span::new(at, end),
            message: message.into(),
            help: None,
        });
    }
}

/// Splits `text` into tokens (the last one is [`Tok::Eof`]) with comments attached.
pub(crate) fn tokenize(text: &str) -> (Vec<Token>, Vec<LexError>) {
    let mut lx = Lexer {
        text,
        pos: 0,
        tokens: Vec::new(),
        errors: Vec::new(),
    };
    // A byte order mark is not part of the text.
    if text.starts_with('\u{feff}') {
        lx.pos = 3;
    }
    while lx.next() {}
    (lx.tokens, lx.errors)
}

/// The source text of a token.
pub(crate) fn text_of<'a>(text: &'a str, token: &Token) -> &'a str {
    text.get(token.span.start..token.span.end).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<Tok> {
        tokenize(text).0.into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn numbers_and_idents() {
        assert_eq!(
            kinds("a 12 0x1F 1.5 .5 1e3 -"),
            vec![
                Tok::Ident,
                Tok::Int,
                Tok::Int,
                Tok::Float,
                Tok::Float,
                Tok::Float,
                Tok::Sym('-'),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn string_escapes() {
        let (t, e) = tokenize(r#""a\n\x41\101\u00e9" 'q'"#);
        assert!(e.is_empty());
        assert_eq!(t[0].tok, Tok::Str(b"a\nAA\xc3\xa9".to_vec()));
        assert_eq!(t[1].tok, Tok::Str(b"q".to_vec()));
    }

    #[test]
    fn comment_attachment() {
        let text = "// detached\n\n// leading\na; // trailing\n// next leading\nb;\n/* block\n * two */\n\nc;";
        let (t, e) = tokenize(text);
        assert!(e.is_empty());
        let a = t[0].comments.as_deref().unwrap();
        assert_eq!(a.detached, vec![" detached\n".to_string()]);
        assert_eq!(a.leading.as_deref(), Some(" leading\n"));
        assert_eq!(
            t[1].comments.as_deref().unwrap().trailing.as_deref(),
            Some(" trailing\n")
        );
        assert_eq!(
            t[2].comments.as_deref().unwrap().leading.as_deref(),
            Some(" next leading\n")
        );
        assert_eq!(
            t[3].comments.as_deref().unwrap().trailing.as_deref(),
            Some(" block\n two ")
        );
    }

    #[test]
    fn unterminated_things_are_errors() {
        assert_eq!(tokenize("\"abc").1.len(), 1);
        assert_eq!(tokenize("/* abc").1.len(), 1);
        assert_eq!(tokenize("12abc").1.len(), 1);
    }
}
