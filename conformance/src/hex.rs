//! The hex notation of vector inputs: two hex digits per byte, separated by whitespace;
//! `XX{n}` stands for the byte `XX` written `n` times, so that inputs at the length tier
//! edges (248, 504, 66040 bytes) stay readable; `(P){n} REST` stands for `n` levels of
//! nesting, each the bytes `P` followed by the bijou64 length of the level inside it, with
//! `REST` (the rest of the text) innermost, so that a chain of a million nested messages
//! is a few characters (`(02){3} 04 05` is `02 06 02 04 02 02 04 05`).

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
    let Some(open) = text.find('(') else {
        return parse_flat(text);
    };
    // `(P){n} REST`: the bytes before the group, then the group wrapping the rest.
    let mut out = parse_flat(&text[..open])?;
    let after = &text[open + 1..];
    let close = after
        .find(')')
        .ok_or_else(|| HexError("`(` without `)`".into()))?;
    let prefix = parse_flat(&after[..close])?;
    let tail = &after[close + 1..];
    let count_end = tail
        .find('}')
        .filter(|_| tail.starts_with('{'))
        .ok_or_else(|| HexError("a group needs a count: `(P){n}`".into()))?;
    let n: usize = tail[1..count_end]
        .parse()
        .map_err(|_| HexError(format!("bad group count `{}`", &tail[1..count_end])))?;
    let inner = parse(&tail[count_end + 1..])?;
    nest(&prefix, n, &inner, &mut out);
    Ok(out)
}

/// Append `n` levels of `prefix` + bijou64(length of the level inside) around `inner`:
/// the lengths are computed from the inside out, then written from the outside in, so a
/// million levels cost one pass each way and no recursion.
fn nest(prefix: &[u8], n: usize, inner: &[u8], out: &mut Vec<u8>) {
    let mut lens = Vec::with_capacity(n);
    let mut len = inner.len() as u64;
    for _ in 0..n {
        lens.push(len);
        len += (prefix.len() + bijou64::encode(len).as_slice().len()) as u64;
    }
    for &l in lens.iter().rev() {
        out.extend_from_slice(prefix);
        out.extend_from_slice(bijou64::encode(l).as_slice());
    }
    out.extend_from_slice(inner);
}

fn parse_flat(text: &str) -> Result<Vec<u8>, HexError> {
    // Byte by byte rather than through `split_whitespace`: inputs at the tier-4 length
    // edge are 16 MiB, sent as 50 MB of hex through the testee protocol.
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len() / 3 + 1);
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && !b[i].is_ascii_whitespace() {
            i += 1;
        }
        let token = &text[start..i];
        let (hi, lo) = match token.as_bytes() {
            [hi, lo, ..] => (digit(*hi), digit(*lo)),
            _ => (None, None),
        };
        let (Some(hi), Some(lo)) = (hi, lo) else {
            return Err(HexError(format!("`{token}` is not one byte")));
        };
        let byte = (hi << 4) | lo;
        match &token[2..] {
            "" => out.push(byte),
            rest => {
                let n = rest
                    .strip_prefix('{')
                    .and_then(|r| r.strip_suffix('}'))
                    .and_then(|n| n.parse::<usize>().ok())
                    .ok_or_else(|| HexError(format!("bad repeat in `{token}`")))?;
                out.resize(out.len() + n, byte);
            }
        }
    }
    Ok(out)
}

fn digit(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// Upper-case hex, one space between bytes (the SPEC's notation).
pub fn format(bytes: &[u8]) -> String {
    // A table rather than `format!` per byte: the tier-edge vectors are 16 MiB long.
    const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
    let mut s = String::with_capacity(bytes.len() * 3);
    for (i, &b) in bytes.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        s.push(char::from(DIGITS[usize::from(b >> 4)]));
        s.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    s
}

/// Like [`format`], but a run of 8 or more equal bytes is written `XX{n}`: the form the
/// testee protocol uses, so that multi-megabyte inputs cross the pipe in a few bytes.
pub fn format_runs(bytes: &[u8]) -> String {
    let mut s = String::new();
    let mut rest = bytes;
    while let Some(&b) = rest.first() {
        let run = rest.iter().take_while(|&&x| x == b).count();
        let (n, tail) = if run >= 8 { (run, 1) } else { (1, 0) };
        if !s.is_empty() {
            s.push(' ');
        }
        s.push_str(&format(&[b]));
        if tail == 1 {
            s.push_str(&std::format!("{{{n}}}"));
        }
        rest = &rest[n..];
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
        assert!(parse("612").is_err());
        assert!(parse("61{3").is_err());
        assert!(parse("é1").is_err());
        assert_eq!(parse(" 0a\n\tFF ").unwrap(), [0x0A, 0xFF]);
        assert_eq!(format(&[0xF8, 0x34]), "F8 34");
    }

    #[test]
    fn parses_nesting_groups() {
        assert_eq!(parse("(02){3} 04 05").unwrap(), [2, 6, 2, 4, 2, 2, 4, 5]);
        assert_eq!(parse("(02){0}").unwrap(), Vec::<u8>::new());
        assert_eq!(parse("08 (0E 00){1}").unwrap(), [8, 0x0E, 0, 0]);
        // Lengths cross a tier: 248 bytes inside take a two-byte prefix.
        let v = parse("(02){1} 00{248}").unwrap();
        assert_eq!(&v[..3], &[0x02, 0xF8, 0x00]);
        assert_eq!(v.len(), 251);
        // The default-limit vector's 99 children, spelled out in 11-framing.toml.
        let chain = parse("(02){99}").unwrap();
        assert_eq!(chain.len(), 198);
        assert_eq!(&chain[..4], &[0x02, 0xC4, 0x02, 0xC2]);
        assert_eq!(&chain[194..], &[0x02, 0x02, 0x02, 0x00]);
        // The 501-level chain of the depth cap: 1,666 bytes.
        let cap = parse("(02){500}").unwrap();
        assert_eq!(cap.len(), 1666);
        assert_eq!(&cap[..8], &[0x02, 0xF9, 0x04, 0x86, 0x02, 0xF9, 0x04, 0x82]);
        for bad in ["(02", "(02)", "(02){x}", "(02)3", "(GG){2}"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn runs_round_trip() {
        let mut v = vec![1, 2, 2, 2, 2, 2, 2, 2];
        assert_eq!(format_runs(&v), "01 02 02 02 02 02 02 02");
        v.push(2);
        v.push(3);
        assert_eq!(format_runs(&v), "01 02{8} 03");
        let long = [vec![0u8; 70000], vec![7; 3], vec![0; 9]].concat();
        assert_eq!(parse(&format_runs(&long)).unwrap(), long);
        assert_eq!(format_runs(&[]), "");
    }
}
