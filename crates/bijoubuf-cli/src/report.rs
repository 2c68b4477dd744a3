//! Reports for refused inputs: `error[<code>]: <message>`, the offset, the path, and a
//! hexdump around the offset with the offending byte marked.

use std::fmt::Write as _;

/// Bytes per hexdump row.
const ROW: usize = 16;

/// `n` and the noun, plural unless `n` is 1: `1 byte`, `0 bytes`, `2 messages`.
pub(crate) fn count(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// The report for a refusal with SPEC code `code` at byte `offset` of `input`.
pub(crate) fn refusal(
    code: &str,
    message: &str,
    offset: usize,
    path: &str,
    input_name: &str,
    input: &[u8],
) -> String {
    let mut s = format!("error[{code}]: {message}\n");
    let at_end = if offset >= input.len() {
        " (end of input)"
    } else {
        ""
    };
    let _ = writeln!(
        s,
        "  offset: {offset} (0x{offset:x}) of {input_name}, {}{at_end}",
        count(input.len() as u64, "byte")
    );
    if !path.is_empty() {
        let _ = writeln!(s, "  path:   {path}");
    }
    s.push('\n');
    s.push_str(&hexdump(input, offset));
    s
}

/// The report for a refusal in a stream read frame by frame (`--stream`): the offset
/// `at.0` and path `at.1`, the frame `frame` = (index, offset of its first byte, its
/// bytes as far as they were read), and a hexdump of the frame around the offset with
/// the stream's addresses.
pub(crate) fn stream_refusal(
    code: &str,
    message: &str,
    at: (u64, &str),
    input_name: &str,
    frame: (u64, u64, &[u8]),
) -> String {
    let (offset, path) = at;
    let (index, start, bytes) = frame;
    let mut s = format!("error[{code}]: {message}\n");
    let _ = writeln!(
        s,
        "  offset: {offset} (0x{offset:x}) of {input_name}, in frame {index} at byte {start}"
    );
    if !path.is_empty() {
        let _ = writeln!(s, "  path:   {path}");
    }
    // A frame that could not be read has no bytes to show.
    if let Some(within) = offset.checked_sub(start).filter(|_| !bytes.is_empty()) {
        s.push('\n');
        s.push_str(&hexdump_from(bytes, start, within as usize));
    }
    s
}

/// The rows around `offset` (one before, one after), with a `^^` line under the marked
/// byte. An offset at the end of the input marks the place the next byte would take.
pub(crate) fn hexdump(input: &[u8], offset: usize) -> String {
    hexdump_from(input, 0, offset)
}

/// [`hexdump`] of `input`, a window that starts `base` bytes into the whole input: rows
/// and addresses as in the whole input's dump where the window has them.
fn hexdump_from(input: &[u8], base: u64, offset: usize) -> String {
    let mark_row = offset / ROW;
    let last_row = if input.is_empty() {
        0
    } else {
        (input.len() - 1) / ROW
    };
    let first = mark_row.saturating_sub(1);
    let last = (mark_row + 1).min(last_row.max(mark_row));
    let mut s = String::new();
    for row in first..=last {
        let start = row * ROW;
        let bytes = input
            .get(start..(start + ROW).min(input.len()))
            .unwrap_or(&[]);
        let _ = write!(s, "  {:08x}  ", base + start as u64);
        for i in 0..ROW {
            match bytes.get(i) {
                Some(b) => {
                    let _ = write!(s, "{b:02x} ");
                }
                None => s.push_str("   "),
            }
            if i == 7 {
                s.push(' ');
            }
        }
        s.push('|');
        for b in bytes {
            s.push(if b.is_ascii_graphic() || *b == b' ' {
                *b as char
            } else {
                '.'
            });
        }
        s.push_str("|\n");
        if row == mark_row {
            let col = offset % ROW;
            let pad = 12 + col * 3 + usize::from(col >= 8);
            let _ = writeln!(s, "{}^^", " ".repeat(pad));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_the_byte_at_the_offset() {
        let input: Vec<u8> = (0..40).collect();
        let dump = hexdump(&input, 17);
        let lines: Vec<&str> = dump.lines().collect();
        // rows 0, 1 (marked), 2
        assert_eq!(lines.len(), 4);
        assert!(lines[1].starts_with("  00000010  10 11 12"));
        let caret = lines[2].find("^^").unwrap();
        assert_eq!(&lines[1][caret..caret + 2], "11");
    }

    #[test]
    fn marks_the_second_half_and_the_end() {
        let input = [0xAAu8; 16];
        let dump = hexdump(&input, 9);
        let lines: Vec<&str> = dump.lines().collect();
        let caret = lines[1].find("^^").unwrap();
        assert_eq!(caret, 12 + 9 * 3 + 1);
        assert_eq!(&lines[0][caret..caret + 2], "aa");
        // At the end of a full row: an empty row holds the mark.
        let dump = hexdump(&input, 16);
        assert!(dump.contains("  00000010  "));
        assert!(dump.lines().last().unwrap().ends_with("^^"));
        // Empty input.
        let dump = hexdump(&[], 0);
        assert_eq!(dump.lines().count(), 2);
    }
}
