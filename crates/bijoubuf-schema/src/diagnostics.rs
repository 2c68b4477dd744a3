//! Errors and warnings with file, span, labels and help; renderable with miette.
//!
//! The span is kept outside the message: a [`Diagnostic`] is the rule it reports
//! (`code`), the words, and where. Library code only returns these; it never prints.

use std::fmt;

use miette::{LabeledSpan, SourceCode};
use serde::Serialize;

use crate::SourceInfo;
use crate::snippet::clip_label;
use crate::span::Span;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Severity {
    /// The schema is refused.
    Error,
    /// A lint: the schema compiles, but a convention is broken.
    Warning,
}

/// A secondary place a diagnostic points at.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What is there.
    pub text: String,
}

/// One error or warning about one place in one file.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    code: &'static str,
    severity: Severity,
    message: String,
    file: String,
    span: Span,
    line: usize,
    column: usize,
    labels: Vec<Label>,
    help: Option<String>,
    source: Option<SourceInfo>,
}

impl Diagnostic {
    pub(crate) fn error(
        code: &'static str,
        file: &str,
        span: Span,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            file: file.to_string(),
            span,
            line: 0,
            column: 0,
            labels: Vec::new(),
            help: None,
            source: None,
        }
    }

    pub(crate) fn warning(
        code: &'static str,
        file: &str,
        span: Span,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, file, span, message)
        }
    }

    pub(crate) fn label(mut self, span: Span, text: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            text: text.into(),
        });
        self
    }

    pub(crate) fn help(mut self, text: impl Into<String>) -> Self {
        self.help = Some(text.into());
        self
    }

    pub(crate) fn with_label(&mut self, span: Span, text: impl Into<String>) -> &mut Self {
        self.labels.push(Label {
            span,
            text: text.into(),
        });
        self
    }

    pub(crate) fn with_help(&mut self, text: impl Into<String>) -> &mut Self {
        self.help = Some(text.into());
        self
    }

    /// Fills line, column and the source text miette renders.
    pub(crate) fn locate(&mut self, source: &SourceInfo) {
        let (line, column) = source.lines.line_col(source.text.inner(), self.span.start);
        self.line = line + 1;
        self.column = column + 1;
        self.source = Some(source.clone());
    }

    /// The rule this reports, kebab-case and stable (e.g. `duplicate-field-number`).
    pub fn code(&self) -> &'static str {
        self.code
    }

    /// Error or warning.
    pub fn severity(&self) -> Severity {
        self.severity
    }

    /// The words of the diagnostic (lowercase, names the thing).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The file's name as it was imported or opened.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// Where in the file.
    pub fn span(&self) -> Span {
        self.span
    }

    /// One-based line of the span's start.
    pub fn line(&self) -> usize {
        self.line
    }

    /// One-based column of the span's start (a tab advances to the next multiple of 8).
    pub fn column(&self) -> usize {
        self.column
    }

    /// `file:line:column` of the span's start.
    pub fn location(&self) -> String {
        format!("{}:{}:{}", self.file, self.line, self.column)
    }

    /// One line for a terminal or a log: `file:line:col: error[code]: message`.
    pub fn to_line(&self) -> String {
        let level = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        format!(
            "{}: {level}[{}]: {}",
            self.location(),
            self.code,
            self.message
        )
    }

    /// Secondary places.
    pub fn labels(&self) -> &[Label] {
        &self.labels
    }

    /// What to do about it.
    pub fn help_text(&self) -> Option<&str> {
        self.help.as_deref()
    }
}

/// The message alone (miette shows the place beside it); [`Diagnostic::location`] gives
/// `file:line:column`.
impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Diagnostic {}

impl miette::Diagnostic for Diagnostic {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_ref().map(|s| s as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let source = self.source.as_ref();
        let primary =
            LabeledSpan::new_primary_with_span(None, clip_label(source, self.span.into()));
        let rest = self.labels.iter().map(move |l| {
            LabeledSpan::new_with_span(Some(l.text.clone()), clip_label(source, l.span.into()))
        });
        Some(Box::new(std::iter::once(primary).chain(rest)))
    }
}

/// The number of single-character insertions, deletions and substitutions that turn `a`
/// into `b` (Levenshtein).
pub(crate) fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// The candidate within two edits of `word` (for "did you mean" help), if exactly one.
///
/// ```
/// assert_eq!(bijoubuf_schema::similar("Ordr", &["Order", "Item"]), Some("Order"));
/// assert_eq!(bijoubuf_schema::similar("Cart", &["Order", "Item"]), None);
/// ```
pub fn similar<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    if word.len() > 32 {
        return None;
    }
    let mut close = candidates.iter().filter(|c| distance(word, c) <= 2);
    match (close.next(), close.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

/// Every error found in a compilation (never empty), plus the warnings.
#[derive(Clone, Debug)]
pub struct Diagnostics {
    errors: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
    omitted: usize,
}

impl Diagnostics {
    pub(crate) fn new(errors: Vec<Diagnostic>, warnings: Vec<Diagnostic>, omitted: usize) -> Self {
        Diagnostics {
            errors,
            warnings,
            omitted,
        }
    }

    /// How many errors and warnings were found beyond the cap set with
    /// [`Compiler::max_diagnostics`](crate::Compiler::max_diagnostics) and left out.
    pub fn omitted(&self) -> usize {
        self.omitted
    }

    /// The errors, in file order then source order.
    pub fn errors(&self) -> &[Diagnostic] {
        &self.errors
    }

    /// Lint warnings found alongside the errors.
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.warnings
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.errors.as_slice() {
            [one] => write!(f, "{}", one.to_line()),
            [first, rest @ ..] => write!(f, "{} (and {} more errors)", first.to_line(), rest.len()),
            [] => write!(f, "schema has errors"),
        }
    }
}

impl std::error::Error for Diagnostics {}

impl miette::Diagnostic for Diagnostics {
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        Some(Box::new(
            self.errors.iter().map(|d| d as &dyn miette::Diagnostic),
        ))
    }
}
