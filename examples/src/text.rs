//! Small text helpers for the reports.

use std::fmt::Write as _;

/// Bytes as lowercase hex pairs separated by spaces: `0a 05 61`.
pub(crate) fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 3);
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// Where two byte strings differ: the common prefix and suffix cut away.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Diff<'a> {
    /// Offset of the first differing byte.
    pub(crate) at: usize,
    /// The differing bytes of the first string.
    pub(crate) old: &'a [u8],
    /// The differing bytes of the second string.
    pub(crate) new: &'a [u8],
}

pub(crate) fn diff<'a>(old: &'a [u8], new: &'a [u8]) -> Diff<'a> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let max_suffix = old.len().min(new.len()) - prefix;
    let suffix = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take(max_suffix)
        .take_while(|(a, b)| a == b)
        .count();
    Diff {
        at: prefix,
        old: &old[prefix..old.len() - suffix],
        new: &new[prefix..new.len() - suffix],
    }
}

/// `(nothing)` for an empty run, else its hex.
pub(crate) fn hex_or_nothing(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        "(nothing)".to_owned()
    } else {
        hex(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_cuts_common_prefix_and_suffix() {
        let d = diff(&[1, 2, 3, 4], &[1, 9, 9, 4]);
        assert_eq!((d.at, d.old, d.new), (1, &[2u8, 3][..], &[9u8, 9][..]));
        // An insertion: nothing on the old side.
        let d = diff(&[1, 4], &[1, 2, 3, 4]);
        assert_eq!((d.at, d.old, d.new), (1, &[][..], &[2u8, 3][..]));
        // Repeated bytes: the suffix never overlaps the prefix.
        let d = diff(&[7, 7], &[7, 7, 7]);
        assert_eq!((d.at, d.old.len(), d.new), (2, 0, &[7u8][..]));
    }

    #[test]
    fn hex_is_spaced_lowercase() {
        assert_eq!(hex(&[0x0a, 0xff, 0x00]), "0a ff 00");
        assert_eq!(hex_or_nothing(&[]), "(nothing)");
    }
}

/// Words of `text` in lines of at most `width` characters, every line after the first
/// starting with `indent`. Words are split at ASCII spaces only, so a no-break space
/// keeps "SPEC §4.1" on one line.
pub(crate) fn wrap(text: &str, width: usize, indent: &str) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let wlen = word.chars().count();
        if line_len > 0 && line_len + 1 + wlen > width {
            out.push('\n');
            out.push_str(indent);
            line_len = indent.chars().count();
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += wlen;
    }
    out
}

/// [`hex_or_nothing`] in lines of at most `per_line` bytes, later lines indented.
pub(crate) fn hex_lines(bytes: &[u8], per_line: usize, indent: &str) -> String {
    if bytes.is_empty() {
        return hex_or_nothing(bytes);
    }
    let lines: Vec<String> = bytes.chunks(per_line).map(hex).collect();
    lines.join(&format!("\n{indent}"))
}

#[cfg(test)]
mod wrap_tests {
    use super::*;

    #[test]
    fn wrap_breaks_between_words() {
        assert_eq!(wrap("aa bb cc", 5, "  "), "aa bb\n  cc");
        assert_eq!(hex_lines(&[1, 2, 3], 2, " "), "01 02\n 03");
    }
}
