//! Reading inputs: a file or stdin, raw bytes or hex text.

use std::io::Read;
use std::path::Path;

use crate::Failure;

/// The input's bytes and a name for messages (`stdin` or the path).
pub(crate) struct Input {
    pub(crate) name: String,
    pub(crate) bytes: Vec<u8>,
}

/// Read `path` (stdin when `None` or `-`).
pub(crate) fn read(path: Option<&Path>) -> Result<Input, Failure> {
    match path {
        None => read_stdin(),
        Some(p) if p.as_os_str() == "-" => read_stdin(),
        Some(p) => match std::fs::read(p) {
            Ok(bytes) => Ok(Input {
                name: p.display().to_string(),
                bytes,
            }),
            Err(e) => Err(Failure::Usage(format!("cannot read {}: {e}", p.display()))),
        },
    }
}

fn read_stdin() -> Result<Input, Failure> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::Usage(format!("cannot read stdin: {e}")))?;
    Ok(Input {
        name: "stdin".into(),
        bytes,
    })
}

/// Why hex text is not bytes.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct HexError(pub(crate) String);

/// Hex digits (either case) with any whitespace between them; an even number of
/// digits.
pub(crate) fn parse_hex(text: &[u8]) -> Result<Vec<u8>, HexError> {
    let mut out = Vec::with_capacity(text.len() / 2);
    let mut high: Option<(u8, usize)> = None;
    for (i, &c) in text.iter().enumerate() {
        if c.is_ascii_whitespace() {
            continue;
        }
        let Some(d) = (c as char).to_digit(16) else {
            let shown = String::from_utf8_lossy(&text[i..text.len().min(i + 4)])
                .chars()
                .next()
                .unwrap_or('?');
            return Err(HexError(format!(
                "{shown:?} at character {i} is not a hex digit"
            )));
        };
        match high.take() {
            None => high = Some((d as u8, i)),
            Some((h, _)) => out.push(h << 4 | d as u8),
        }
    }
    if let Some((_, i)) = high {
        return Err(HexError(format!(
            "odd number of hex digits: the digit at character {i} has no partner"
        )));
    }
    Ok(out)
}

/// Lowercase hex, no separators.
pub(crate) fn to_hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_ignores_whitespace_and_case() {
        assert_eq!(parse_hex(b" 0a FF\n\t10 "), Ok(vec![0x0a, 0xff, 0x10]));
        assert_eq!(parse_hex(b"0aFf10"), Ok(vec![0x0a, 0xff, 0x10]));
        assert_eq!(parse_hex(b""), Ok(vec![]));
    }

    #[test]
    fn hex_refuses_odd_digits_and_other_characters() {
        assert!(parse_hex(b"0a 1").unwrap_err().0.contains("odd number"));
        assert!(
            parse_hex(b"0x0a")
                .unwrap_err()
                .0
                .contains("'x' at character 1")
        );
        assert!(parse_hex("é".as_bytes()).is_err());
        assert_eq!(to_hex(&[0, 0xab, 0x10]), "00ab10");
    }
}
