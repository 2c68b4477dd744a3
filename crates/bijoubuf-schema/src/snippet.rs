//! The source text miette renders snippets from, read in time independent of where in the
//! file a diagnostic is.
//!
//! miette's own `SourceCode` for strings scans from the start of the file for every
//! snippet, which makes reporting thousands of diagnostics in a large file quadratic. This
//! one finds lines with the file's line table. A line longer than [`LONG_LINE`] is shown
//! as a window around the diagnostic, and labels on such a line are shortened (see
//! [`clip_label`]): miette pads with a width argument that must stay below 65,536.

use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

use crate::SourceInfo;

/// Lines longer than this (in bytes) are shown as a window around the place.
pub(crate) const LONG_LINE: usize = 1024;

/// Bytes shown before a place on a long line, and the most a label covers there.
const WINDOW: usize = 80;

fn floor_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

impl SourceInfo {
    fn line_len(&self, line: usize) -> usize {
        let len = self.text.inner().len();
        self.lines.start(line + 1, len) - self.lines.start(line, len)
    }

    /// Whether the line that holds `offset` is longer than [`LONG_LINE`].
    pub(crate) fn on_long_line(&self, offset: usize) -> bool {
        self.line_len(self.lines.line_of(offset)) > LONG_LINE
    }
}

/// `span` as a label covers it: on a long line, at most [`WINDOW`] bytes and never past
/// the line's end.
pub(crate) fn clip_label(source: Option<&SourceInfo>, span: SourceSpan) -> SourceSpan {
    match source {
        Some(s) if s.on_long_line(span.offset()) => {
            let text = s.text.inner();
            let line = s.lines.line_of(span.offset());
            let line_end = s.lines.start(line + 1, text.len()).saturating_sub(1);
            let end = (span.offset() + span.len().min(WINDOW)).min(line_end.max(span.offset()));
            SourceSpan::new(span.offset().into(), end - span.offset())
        }
        _ => span,
    }
}

impl SourceCode for SourceInfo {
    /// The lines around `span`, as miette's `str` implementation reads them (the same
    /// start, end, line, column and line count), found without scanning the file.
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let text = self.text.inner().as_str();
        let len = text.len();
        let start = span.offset();
        let end = start + span.len();
        if end > len {
            return Err(MietteError::OutOfBounds);
        }
        let lines = &*self.lines;
        let line = lines.line_of(start);
        let end_line = lines.line_of(end.saturating_sub(1).max(start));
        let (mut first, mut from, mut column) = if before == 0 {
            (line, start, start - lines.start(line, len))
        } else {
            let first = line.saturating_sub(before);
            (first, lines.start(first, len), 0)
        };
        let mut to = if after == 0 {
            end.max(1).min(len)
        } else {
            lines.start(end_line + after + 1, len)
        };
        let last = lines.line_of(to.saturating_sub(1).max(from));
        if (before > 0 || after > 0)
            && (first..=last.min(lines.count() - 1)).any(|l| self.line_len(l) > LONG_LINE)
        {
            let line_start = lines.start(line, len);
            let line_end = lines.start(line + 1, len);
            first = line;
            from = floor_boundary(text, start.saturating_sub(WINDOW).max(line_start));
            to = ceil_boundary(text, (start + 2 * WINDOW).min(line_end));
            column = from - line_start;
        }
        Ok(Box::new(MietteSpanContents::new_named(
            self.text.name().to_string(),
            &text.as_bytes()[from..to],
            SourceSpan::new(from.into(), to - from),
            first,
            column,
            lines.breaks_before(to),
        )))
    }
}
