//! The hex notation of vector inputs: two hex digits per byte, separated by whitespace;
//! `XX{n}` stands for the byte `XX` written `n` times, so that inputs at the length tier
//! edges (248, 504, 66040 bytes) stay readable.

use std::fmt;

/// A malformed hex string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HexError(String);

impl fmt::Display for HexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad hex: {}", self.0)
    }
}

impl std::error::Error for HexError {}

/// Parse the vector notation into bytes.
///
/// # Errors
/// A token that is not two hex digits, optionally followed by `{count}`.
pub fn parse(text: &str) -> Result<Vec<u8>, HexError> {
    let mut out = Vec::new();
    for token in text.split_whitespace() {
        let (byte, count) = match token.split_once('{') {
            Some((b, rest)) => {
                let n = rest
                    .strip_suffix('}')
                    .and_then(|n| n.parse::<usize>().ok())
                    .ok_or_else(|| HexError(format!("bad repeat in `{token}`")))?;
                (b, n)
            }
            None => (token, 1),
        };
        if byte.len() != 2 {
            return Err(HexError(format!("`{token}` is not one byte")));
        }
        let b = u8::from_str_radix(byte, 16).map_err(|_| HexError(format!("`{token}`")))?;
        out.extend(std::iter::repeat_n(b, count));
    }
    Ok(out)
}

/// Upper-case hex, one space between bytes (the SPEC's notation).
pub fn format(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 3);
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(&std::format!("{b:02X}"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_bytes_and_repeats() {
        assert_eq!(parse("02 03 41 64 61").unwrap(), [2, 3, 0x41, 0x64, 0x61]);
        assert_eq!(parse("f8 00 61{3}").unwrap(), [0xF8, 0, 0x61, 0x61, 0x61]);
        assert_eq!(parse("").unwrap(), Vec::<u8>::new());
        assert!(parse("0").is_err());
        assert!(parse("GG").is_err());
        assert!(parse("61{x}").is_err());
        assert_eq!(format(&[0xF8, 0x34]), "F8 34");
    }
}
