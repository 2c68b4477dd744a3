//! Parser: tokens (from the nom lexer) to the syntax tree, collecting every syntax error.
//!
//! A statement that does not parse is reported and skipped up to its `;` or its closing
//! `}`, so one typo does not hide the rest of the file's errors.

mod items;
mod value;

pub(crate) use items::map_entry_name;

use crate::ast::{File, Ident, Import, ImportKind, OptionStmt, Package};
use crate::diagnostics::Diagnostic;
use crate::lexer::{Tok, Token, text_of, tokenize};
use crate::model::{Comments, Syntax};
use crate::span::Span;

/// A token the parser moved past (tokens are not cloned: only the span is needed).
pub(crate) struct Bumped {
    pub(crate) span: Span,
}

/// The error was recorded; the caller recovers.
pub(crate) struct Recorded;

pub(crate) type PResult<T> = Result<T, Recorded>;

/// Highest field number (`max` in field ranges): 2^29 − 1.
pub(crate) const FIELD_MAX: i64 = 536_870_911;
/// Highest enum value number (`max` in enum reserved ranges).
pub(crate) const ENUM_MAX: i64 = i32::MAX as i64;
/// Highest number a message's reserved range may hold, and the highest extension
/// number of a message with `message_set_wire_format` (`max` in its ranges): protoc
/// writes ranges with an exclusive end, so 2^31 − 2.
pub(crate) const RANGE_MAX: i64 = i32::MAX as i64 - 1;

pub(crate) struct Parser<'a> {
    text: &'a str,
    file: &'a str,
    toks: Vec<Token>,
    pos: usize,
    pub(crate) errors: Vec<Diagnostic>,
    syntax: Syntax,
    depth: usize,
    /// Whether nesting past [`MAX_DEPTH`] was reported.
    depth_reported: bool,
}

/// How deep messages and aggregates may nest before the parser refuses (keeps the
/// recursion bounded on hostile input).
const MAX_DEPTH: usize = 64;

/// Parses one file; the tree is returned even when there were errors.
pub(crate) fn parse(file: &str, text: &str) -> (File, Vec<Diagnostic>) {
    let (toks, lex_errors) = tokenize(text);
    let mut errors: Vec<Diagnostic> = lex_errors
        .into_iter()
        .map(|e| {
            let d = Diagnostic::error("syntax", file, e.span, e.message);
            match e.help {
                Some(h) => d.help(h),
                None => d,
            }
        })
        .collect();
    let mut p = Parser {
        text,
        file,
        toks,
        pos: 0,
        errors: Vec::new(),
        syntax: Syntax::Proto2,
        depth: 0,
        depth_reported: false,
    };
    let ast = p.file();
    errors.append(&mut p.errors);
    errors.sort_by_key(|d| d.span().start);
    (ast, errors)
}

impl<'a> Parser<'a> {
    // ---- cursor -------------------------------------------------------------------

    pub(crate) fn peek(&self) -> &Token {
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }

    fn peek_at(&self, n: usize) -> &Token {
        &self.toks[(self.pos + n).min(self.toks.len() - 1)]
    }

    pub(crate) fn peek_text(&self) -> &'a str {
        text_of(self.text, self.peek())
    }

    pub(crate) fn at_sym(&self, c: char) -> bool {
        self.peek().tok == Tok::Sym(c)
    }

    pub(crate) fn at_word(&self, word: &str) -> bool {
        self.peek().tok == Tok::Ident && self.peek_text() == word
    }

    /// Edition 2024's `export` or `local` before `message` or `enum`, consumed: (is
    /// export, its span).
    pub(crate) fn visibility(&mut self) -> Option<(bool, Span)> {
        let next = text_of(self.text, self.peek_at(1));
        let keyword = (self.at_word("export") || self.at_word("local"))
            && self.peek_at(1).tok == Tok::Ident
            && (next == "message" || next == "enum");
        if !self.syntax.is_2024_or_later() || !keyword {
            return None;
        }
        let export = self.at_word("export");
        Some((export, self.bump().span))
    }

    fn at_word_then_sym(&self, word: &str, c: char) -> bool {
        self.at_word(word) && self.peek_at(1).tok == Tok::Sym(c)
    }

    pub(crate) fn at_eof(&self) -> bool {
        self.peek().tok == Tok::Eof
    }

    /// Moves past the current token (never past end of file) and returns its span.
    pub(crate) fn bump(&mut self) -> Bumped {
        let span = self.peek().span;
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        Bumped { span }
    }

    /// The source text of a span.
    pub(crate) fn slice(&self, span: Span) -> &'a str {
        self.text.get(span.start..span.end).unwrap_or("")
    }

    /// Span of the token before the cursor.
    pub(crate) fn prev_span(&self) -> Span {
        self.toks[self.pos.saturating_sub(1)].span
    }

    pub(crate) fn eat_sym(&mut self, c: char) -> bool {
        if self.at_sym(c) {
            self.bump();
            true
        } else {
            false
        }
    }

    pub(crate) fn eat_word(&mut self, word: &str) -> bool {
        if self.at_word(word) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn describe_current(&self) -> String {
        match &self.peek().tok {
            Tok::Eof => "end of file".into(),
            Tok::Str(_) => "a string".into(),
            _ => format!("`{}`", self.peek_text()),
        }
    }

    pub(crate) fn error(&mut self, span: Span, message: impl Into<String>) -> Recorded {
        self.errors
            .push(Diagnostic::error("syntax", self.file, span, message));
        Recorded
    }

    pub(crate) fn unsupported(&mut self, span: Span, what: &str, help: &str) -> Recorded {
        let d = Diagnostic::error(
            "unsupported",
            self.file,
            span,
            format!("{what} is not supported by bijoubuf v1"),
        )
        .help(help.to_string());
        self.errors.push(d);
        Recorded
    }

    pub(crate) fn expected(&mut self, what: &str) -> Recorded {
        let found = self.describe_current();
        let span = self.peek().span;
        self.error(span, format!("expected {what}, found {found}"))
    }

    pub(crate) fn expect_sym(&mut self, c: char) -> PResult<Span> {
        if self.at_sym(c) {
            Ok(self.bump().span)
        } else if c == ';' && self.pos > 0 {
            // A missing `;` belongs right after the statement, not at the next line's start.
            let end = self.prev_span().end;
            let found = self.describe_current();
            let at = self.peek().span;
            let d = Diagnostic::error("syntax", self.file, Span::new(end, end), "expected `;`")
                .label(at, format!("{found} follows"))
                .help("end the statement with `;`");
            self.errors.push(d);
            Err(Recorded)
        } else {
            Err(self.expected(&format!("`{c}`")))
        }
    }

    pub(crate) fn expect_ident(&mut self, what: &str) -> PResult<Ident> {
        if self.peek().tok == Tok::Ident {
            let t = self.bump();
            Ok(Ident {
                name: self.slice(t.span).to_string(),
                span: t.span,
            })
        } else {
            Err(self.expected(what))
        }
    }

    /// `a.b.c`, with a leading `.` when `allow_leading_dot`.
    pub(crate) fn full_ident(&mut self, what: &str, allow_leading_dot: bool) -> PResult<Ident> {
        let start = self.peek().span;
        let mut name = String::new();
        if allow_leading_dot && self.eat_sym('.') {
            name.push('.');
        }
        let first = self.expect_ident(what)?;
        name.push_str(&first.name);
        let mut end = first.span;
        while self.at_sym('.') {
            self.bump();
            let part = self.expect_ident("an identifier after `.`")?;
            name.push('.');
            name.push_str(&part.name);
            end = part.span;
        }
        Ok(Ident {
            name,
            span: start.to(end),
        })
    }

    pub(crate) fn string_lit(&mut self, what: &str) -> PResult<(Vec<u8>, Span)> {
        let Tok::Str(first) = self.peek().tok.clone() else {
            return Err(self.expected(what));
        };
        let start = self.bump().span;
        let mut bytes = first;
        // Adjacent literals concatenate, as in C.
        while let Tok::Str(more) = self.peek().tok.clone() {
            bytes.extend_from_slice(&more);
            self.bump();
        }
        Ok((bytes, start.to(self.prev_span())))
    }

    pub(crate) fn string_utf8(&mut self, what: &str) -> PResult<(String, Span)> {
        let (bytes, span) = self.string_lit(what)?;
        match String::from_utf8(bytes) {
            Ok(s) => Ok((s, span)),
            Err(_) => Err(self.error(span, "string is not valid UTF-8")),
        }
    }

    // ---- comments -----------------------------------------------------------------

    /// Leading and detached comments of the token at index `at`.
    pub(crate) fn comments_at(&self, at: usize) -> Comments {
        match self.toks.get(at).and_then(|t| t.comments.as_deref()) {
            Some(c) => Comments {
                leading: c.leading.clone(),
                trailing: None,
                detached: c.detached.clone(),
            },
            None => Comments::default(),
        }
    }

    /// Adds the trailing comment of the token just consumed.
    pub(crate) fn trailing(&self, comments: &mut Comments) {
        if let Some(t) = self
            .pos
            .checked_sub(1)
            .and_then(|i| self.toks[i].comments.as_deref())
        {
            comments.trailing = t.trailing.clone();
        }
    }

    pub(crate) fn index(&self) -> usize {
        self.pos
    }

    // ---- recovery -----------------------------------------------------------------

    /// Skips to just after the next `;` or a balanced `{…}` block, or up to a `}` that
    /// closes the enclosing scope.
    pub(crate) fn recover(&mut self) {
        let mut depth = 0usize;
        loop {
            match self.peek().tok {
                Tok::Eof => return,
                Tok::Sym(';') if depth == 0 => {
                    self.bump();
                    return;
                }
                Tok::Sym('{') => depth += 1,
                Tok::Sym('}') => {
                    if depth == 0 {
                        return;
                    }
                    depth -= 1;
                    if depth == 0 {
                        self.bump();
                        return;
                    }
                }
                _ => {}
            }
            self.bump();
        }
    }

    /// Skips past the `}` that closes a block whose `{` was just read.
    pub(crate) fn skip_block(&mut self) {
        let mut depth = 1usize;
        loop {
            match self.peek().tok {
                Tok::Eof => return,
                Tok::Sym('{') => depth += 1,
                Tok::Sym('}') => {
                    depth -= 1;
                    if depth == 0 {
                        self.bump();
                        return;
                    }
                }
                _ => {}
            }
            self.bump();
        }
    }

    pub(crate) fn enter(&mut self) -> PResult<()> {
        if self.depth >= MAX_DEPTH {
            // One report per file: every later block past the limit is the same problem.
            if self.depth_reported {
                return Err(Recorded);
            }
            self.depth_reported = true;
            let span = self.peek().span;
            return Err(self.error(span, format!("nesting deeper than {MAX_DEPTH} levels")));
        }
        self.depth += 1;
        Ok(())
    }

    pub(crate) fn leave(&mut self) {
        self.depth -= 1;
    }

    // ---- file ---------------------------------------------------------------------

    fn file(&mut self) -> File {
        let mut file = File::default();
        let n = self.toks.len();
        if n > 1 {
            file.span = self.toks[0].span.to(self.toks[n - 2].span);
        }
        let mut first = true;
        while !self.at_eof() {
            let r = self.top_statement(&mut file, first);
            first = false;
            if r.is_err() {
                self.recover();
                // A stray `}` at top level would stop recovery forever.
                if self.at_sym('}') {
                    self.bump();
                }
            }
        }
        file
    }

    fn top_statement(&mut self, file: &mut File, first: bool) -> PResult<()> {
        let start_idx = self.index();
        let start = self.peek().span;
        if self.eat_sym(';') {
            return Ok(());
        }
        if self.at_word("syntax") {
            let mut comments = self.comments_at(start_idx);
            self.bump();
            self.expect_sym('=')?;
            let (value, span) = self.string_utf8("a syntax string")?;
            if !first {
                return Err(self.error(
                    start.to(span),
                    "the syntax statement must come first in the file",
                ));
            }
            file.syntax = match value.as_str() {
                "proto2" => Syntax::Proto2,
                "proto3" => Syntax::Proto3,
                _ => {
                    let d = Diagnostic::error(
                        "syntax",
                        self.file,
                        span,
                        format!("unknown syntax {value:?}"),
                    )
                    .help("use \"proto2\" or \"proto3\"");
                    self.errors.push(d);
                    return Err(Recorded);
                }
            };
            self.syntax = file.syntax;
            self.expect_sym(';')?;
            self.trailing(&mut comments);
            file.syntax_span = Some(start.to(self.prev_span()));
            file.syntax_comments = comments;
            return Ok(());
        }
        if self.at_word("edition") && first {
            let mut comments = self.comments_at(start_idx);
            self.bump();
            self.expect_sym('=')?;
            let (value, span) = self.string_utf8("an edition string")?;
            file.syntax = match value.as_str() {
                "2023" => Syntax::Edition2023,
                "2024" => Syntax::Edition2024,
                "2026" => Syntax::Edition2026,
                _ => {
                    // Read on with 2023's rules to avoid follow-on noise.
                    self.syntax = Syntax::Edition2023;
                    file.syntax = Syntax::Edition2023;
                    return Err(self.unsupported(
                        span,
                        &format!("edition {value:?}"),
                        "write `edition = \"2023\";`, `edition = \"2024\";` or `edition = \"2026\";`",
                    ));
                }
            };
            self.syntax = file.syntax;
            self.expect_sym(';')?;
            self.trailing(&mut comments);
            file.syntax_span = Some(start.to(self.prev_span()));
            file.syntax_comments = comments;
            return Ok(());
        }
        if self.at_word("package") {
            let mut comments = self.comments_at(start_idx);
            self.bump();
            let name = self.full_ident("a package name", false)?;
            self.expect_sym(';')?;
            self.trailing(&mut comments);
            let span = start.to(self.prev_span());
            if let Some(prev) = &file.package {
                let d = Diagnostic::error(
                    "multiple-packages",
                    self.file,
                    name.span,
                    "a file has at most one package",
                )
                .label(prev.name.span, "the package was already set here");
                self.errors.push(d);
                return Ok(());
            }
            file.package = Some(Package {
                name,
                span,
                comments,
            });
            return Ok(());
        }
        if self.at_word("import") {
            let mut comments = self.comments_at(start_idx);
            self.bump();
            let kind_span =
                (self.at_word("public") || self.at_word("weak")).then(|| self.peek().span);
            let kind = if self.eat_word("public") {
                ImportKind::Public
            } else if self.eat_word("weak") {
                ImportKind::Weak
            } else if self.syntax.is_2024_or_later() && self.eat_word("option") {
                ImportKind::Option
            } else {
                ImportKind::Normal
            };
            let (path, path_span) = self.string_utf8("an import path string")?;
            self.expect_sym(';')?;
            self.trailing(&mut comments);
            file.imports.push(Import {
                path,
                path_span,
                kind,
                kind_span,
                span: start.to(self.prev_span()),
                comments,
            });
            return Ok(());
        }
        if self.at_word("option") {
            let opt = self.option_statement()?;
            file.options.push(opt);
            return Ok(());
        }
        if let Some(visibility) = self.visibility() {
            if self.at_word("message") {
                let mut m = self.message()?;
                m.visibility = Some(visibility);
                file.messages.push(m);
            } else {
                let mut e = self.enumeration()?;
                e.visibility = Some(visibility);
                file.enums.push(e);
            }
            return Ok(());
        }
        if self.at_word("message") {
            let m = self.message()?;
            file.messages.push(m);
            return Ok(());
        }
        if self.at_word("enum") {
            let e = self.enumeration()?;
            file.enums.push(e);
            return Ok(());
        }
        if self.at_word("service") {
            let s = self.service()?;
            file.services.push(s);
            return Ok(());
        }
        if self.at_word("extend") {
            let e = self.extend()?;
            file.extends.push(e);
            return Ok(());
        }
        {
            let found = self.peek_text();
            let keywords = [
                "syntax", "package", "import", "option", "message", "enum", "service", "extend",
            ];
            let hint = crate::diagnostics::similar(found, &keywords);
            let r = self.expected(
                "a top-level statement (message, enum, service, extend, import, package, option)",
            );
            if let (Some(word), Some(d)) = (hint, self.errors.last_mut()) {
                d.with_help(format!("did you mean `{word}`?"));
            }
            Err(r)
        }
    }

    /// `option name = value;`
    pub(crate) fn option_statement(&mut self) -> PResult<OptionStmt> {
        let mut comments = self.comments_at(self.index());
        let start = self.bump().span;
        let (name, value) = self.option_body()?;
        self.expect_sym(';')?;
        self.trailing(&mut comments);
        Ok(OptionStmt {
            name,
            value,
            span: start.to(self.prev_span()),
            comments,
        })
    }

    /// `[a = 1, (b).c = 2]` after a field or enum value.
    pub(crate) fn bracket_options(&mut self) -> PResult<(Vec<OptionStmt>, Option<Span>)> {
        if !self.at_sym('[') {
            return Ok((Vec::new(), None));
        }
        let open = self.bump().span;
        let mut out = Vec::new();
        loop {
            let s = self.peek().span;
            let (name, value) = self.option_body()?;
            let span = s.to(self.prev_span());
            out.push(OptionStmt {
                name,
                value,
                span,
                comments: Comments::default(),
            });
            if self.eat_sym(']') {
                break;
            }
            self.expect_sym(',')?;
        }
        Ok((out, Some(open.to(self.prev_span()))))
    }
}
