//! Findings: the rule, the guarantee it breaks, where in the new file, and what a
//! counterexample must build.

use std::fmt;
use std::sync::Arc;

use bijoubuf_schema::Span;
use miette::{LabeledSpan, NamedSource, SourceCode};
use serde::Serialize;

use crate::rules::Rule;

/// Which guarantee a change breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    /// Bytes already written: old canonical bytes are refused by a strict new reader,
    /// decode to a different value, or re-encode differently.
    Canonical,
    /// Old readers: bytes the new schema writes are refused or misread by a strict old
    /// reader (and, where the message says so, by a preserving one).
    Forward,
    /// proto3 JSON: names and value forms.
    Json,
    /// The generated Rust API.
    Source,
}

impl Category {
    /// Every category.
    pub const ALL: [Category; 4] = [
        Category::Canonical,
        Category::Forward,
        Category::Json,
        Category::Source,
    ];

    /// The lowercase name (`canonical`, `forward`, `json`, `source`).
    pub fn name(self) -> &'static str {
        match self {
            Category::Canonical => "canonical",
            Category::Forward => "forward",
            Category::Json => "json",
            Category::Source => "source",
        }
    }

    /// The category named `name`.
    pub fn from_name(name: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.name() == name)
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How bad a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Severity {
    /// The guarantee of the category is broken.
    Error,
    /// Broken only for some readers (a strict old reader refuses what a preserving one
    /// keeps), or a promise of the schema is weakened without breaking anything yet.
    Warning,
}

/// Which schema wrote the bytes of a counterexample.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Side {
    /// The old schema (canonical findings).
    Old,
    /// The new schema (forward findings).
    New,
}

impl Side {
    /// `old` or `new`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Old => "old",
            Side::New => "new",
        }
    }

    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::Old => Side::New,
            Side::New => Side::Old,
        }
    }
}

/// What a counterexample builds: a message of `writer_message` under the `writer`
/// schema, read as `reader_message` by the other schema's strict decoder.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Subject {
    /// The schema that writes the bytes.
    pub writer: Side,
    /// Full name of the written message type.
    pub writer_message: String,
    /// Full name of the message type the other schema reads the bytes as.
    pub reader_message: String,
    /// What the written message holds.
    pub witness: Witness,
}

/// The shape of a counterexample's message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Witness {
    /// These fields (writer numbers) set, each to a value the search picks.
    Fields(Vec<u32>),
    /// Nothing set: the reader requires a field the writer may leave out.
    Empty,
    /// Enum field `field` holding `number`.
    EnumNumber {
        /// The writer's field.
        field: u32,
        /// The number written.
        number: i32,
    },
    /// A record of field `number`, which the writer reserves: a preserving writer-side
    /// decoder keeps it from older bytes, and the reader now gives the number a meaning.
    Reserved {
        /// The reused number.
        number: u32,
    },
}

/// One problem a schema change causes.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    /// The rule.
    pub rule: Rule,
    /// The guarantee it breaks.
    pub category: Category,
    /// Error or warning.
    pub severity: Severity,
    /// What changed and what it does, lowercase, naming the element.
    pub message: String,
    /// The new file the finding points into, when the new side came from `.proto` text.
    pub file: Option<String>,
    /// Where in that file.
    pub span: Option<Span>,
    /// One-based line of the span's start (0 without a span).
    pub line: usize,
    /// One-based column of the span's start (0 without a span).
    pub column: usize,
    /// What a counterexample builds (canonical and forward findings).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<Subject>,
    #[serde(skip)]
    pub(crate) source: Option<Arc<NamedSource<String>>>,
}

impl Finding {
    /// The rule id, kebab-case and stable (e.g. `field-removed`).
    pub fn rule_id(&self) -> &'static str {
        self.rule.id()
    }

    /// One line for a terminal or a log: `file:line:col: error[canonical/field-removed]: …`.
    pub fn to_line(&self) -> String {
        let level = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let place = match &self.file {
            Some(file) => format!("{file}:{}:{}: ", self.line, self.column),
            None => String::new(),
        };
        format!(
            "{place}{level}[{}/{}]: {}",
            self.category,
            self.rule.id(),
            self.message
        )
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Finding {}

impl miette::Diagnostic for Finding {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(format!("{}/{}", self.category, self.rule.id())))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.rule.meaning(self.category)))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_deref().map(|s| s as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let span = self.span?;
        self.source.as_ref()?;
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(None, span),
        )))
    }
}
