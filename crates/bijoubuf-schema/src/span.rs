//! Byte spans and their line/column positions.

use serde::Serialize;

/// A half-open byte range `start..end` in one source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// The span `start..end`.
    pub const fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// The smallest span that covers both.
    #[must_use]
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }

    /// Length in bytes.
    pub const fn len(self) -> usize {
        self.end.saturating_sub(self.start)
    }

    /// Whether the span covers no byte.
    pub const fn is_empty(self) -> bool {
        self.len() == 0
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(span: Span) -> Self {
        miette::SourceSpan::new(span.start.into(), span.len())
    }
}

/// Maps byte offsets of one file to zero-based line and column numbers the way protoc
/// counts them: columns in bytes, a tab advancing to the next multiple of 8.
#[derive(Clone)]
pub(crate) struct LineIndex {
    line_starts: Vec<usize>,
}

/// The number of lines only: a diagnostic's `Debug` stays short for a large file.
impl std::fmt::Debug for LineIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LineIndex({} lines)", self.line_starts.len())
    }
}

impl LineIndex {
    pub(crate) fn new(text: &str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { line_starts }
    }

    /// Zero-based (line, column) of `offset`.
    pub(crate) fn line_col(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(text.len());
        let line = self.line_of(offset);
        let start = self.line_starts[line];
        let before = &text.as_bytes()[start..offset];
        // Only tabs need a walk; count whole runs without one at once.
        let mut col = 0;
        let mut rest = before;
        while let Some(i) = rest.iter().position(|b| *b == b'\t') {
            col += i;
            col += 8 - col % 8;
            rest = &rest[i + 1..];
        }
        (line, col + rest.len())
    }

    /// Zero-based line of `offset`.
    pub(crate) fn line_of(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= offset) - 1
    }

    /// Number of lines (a text without a final newline still ends in a line).
    pub(crate) fn count(&self) -> usize {
        self.line_starts.len()
    }

    /// First byte of zero-based `line` (the text's length past the last line).
    pub(crate) fn start(&self, line: usize, text_len: usize) -> usize {
        self.line_starts.get(line).copied().unwrap_or(text_len)
    }

    /// Line breaks before `offset`.
    pub(crate) fn breaks_before(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= offset) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_tabs_to_eight() {
        let text = "ab\n\tc\nx";
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_col(text, 0), (0, 0));
        assert_eq!(idx.line_col(text, 4), (1, 8));
        assert_eq!(idx.line_col(text, 6), (2, 0));
    }
}
