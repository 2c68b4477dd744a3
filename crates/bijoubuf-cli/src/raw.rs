//! `decode-raw`: the records of any bytes, without a schema.
//!
//! Keys are delta-decoded into field numbers (SPEC §4.1); VARINT values are shown as
//! numbers (and their zigzag reading), I32/I64 as hex with their integer and float
//! readings, and a LEN payload as a printable string if it is one, else as a run of
//! length-prefixed elements (a repeated field) or a nested message, whichever parses
//! completely with the smaller field numbers, else as hex. Nothing here can panic on
//! any input, and nesting guesses stop at [`MAX_NEST`] levels.

use std::fmt::Write as _;

/// How deep nested-message guesses go; deeper payloads are shown as bytes.
const MAX_NEST: usize = 64;
/// Bytes of a LEN payload shown in hex before eliding the rest.
const HEX_PREVIEW: usize = 32;
/// Characters of a string preview.
const STR_PREVIEW: usize = 80;

/// A malformed record: the SPEC code and the offset it reports.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct RawError {
    pub(crate) code: &'static str,
    pub(crate) offset: usize,
    pub(crate) message: String,
}

enum Payload {
    Varint(u64),
    I64([u8; 8]),
    I32([u8; 4]),
    Len { start: usize, len: usize },
}

struct Record {
    key_at: usize,
    number: u64,
    payload: Payload,
}

fn varint(buf: &[u8], pos: &mut usize, end: usize) -> Result<u64, RawError> {
    let at = *pos;
    match bijou64::decode(buf.get(at..end).unwrap_or(&[])) {
        Ok((v, n)) => {
            *pos = at + n;
            Ok(v)
        }
        Err(e) => Err(RawError {
            code: e.code(),
            offset: at,
            message: match e {
                bijou64::Error::Overflow => "a bijou64 above u64::MAX".into(),
                _ => "the input ends inside a bijou64".into(),
            },
        }),
    }
}

fn fixed<const N: usize>(buf: &[u8], pos: &mut usize, end: usize) -> Result<[u8; N], RawError> {
    let at = *pos;
    match buf.get(at..end).and_then(|r| r.first_chunk::<N>()) {
        Some(b) => {
            *pos = at + N;
            Ok(*b)
        }
        None => Err(RawError {
            code: "truncated",
            offset: at,
            message: format!("the input ends inside a {N}-byte value"),
        }),
    }
}

/// The next record at `*pos` in `[.., end)`, after field number `prev`.
fn record(buf: &[u8], pos: &mut usize, end: usize, prev: u64) -> Result<Record, RawError> {
    let key_at = *pos;
    let k = varint(buf, pos, end)?;
    let number = prev + 1 + (k >> 2);
    if number > (1 << 29) - 1 {
        // SPEC §4.3
        return Err(RawError {
            code: "field-number-overflow",
            offset: key_at,
            message: format!("a key steps to field number {number}, past 536870911"),
        });
    }
    let payload = match k & 3 {
        0 => Payload::Varint(varint(buf, pos, end)?),
        1 => Payload::I64(fixed::<8>(buf, pos, end)?),
        3 => Payload::I32(fixed::<4>(buf, pos, end)?),
        _ => {
            let len_at = *pos;
            let len = varint(buf, pos, end)?;
            if len > (end - *pos) as u64 {
                return Err(RawError {
                    code: "truncated",
                    offset: len_at,
                    message: format!(
                        "a length of {len} runs past the end ({} left)",
                        crate::report::count((end - *pos) as u64, "byte")
                    ),
                });
            }
            let start = *pos;
            *pos += len as usize;
            Payload::Len {
                start,
                len: len as usize,
            }
        }
    };
    Ok(Record {
        key_at,
        number,
        payload,
    })
}

/// Whether `[start, end)` is a complete, non-empty run of records.
fn parses_as_message(buf: &[u8], start: usize, end: usize) -> bool {
    last_number(buf, start, end).is_some()
}

/// The last (largest) field number of `[start, end)` read as a complete, non-empty run
/// of records; `None` if it is not one.
fn last_number(buf: &[u8], start: usize, end: usize) -> Option<u64> {
    let mut pos = start;
    let mut prev = 0;
    while pos < end {
        prev = record(buf, &mut pos, end, prev).ok()?.number;
    }
    (end > start).then_some(prev)
}

/// Render the records of `buf` into `out`; on a malformed record, what was rendered
/// stays in `out` and the error is returned.
pub(crate) fn render(buf: &[u8], out: &mut String) -> Result<(), RawError> {
    if buf.is_empty() {
        out.push_str("(empty input: a message with no fields)\n");
        return Ok(());
    }
    render_range(buf, 0, buf.len(), 0, out)
}

fn render_range(
    buf: &[u8],
    start: usize,
    end: usize,
    depth: usize,
    out: &mut String,
) -> Result<(), RawError> {
    let indent = "  ".repeat(depth);
    let mut pos = start;
    let mut prev = 0;
    while pos < end {
        let r = record(buf, &mut pos, end, prev)?;
        prev = r.number;
        let _ = write!(out, "{:>8}  {indent}#{} ", r.key_at, r.number);
        match r.payload {
            Payload::Varint(v) => {
                let _ = write!(out, "VARINT {v}");
                if v != 0 {
                    let _ = write!(out, " (zigzag {})", bijou64::zigzag::decode_i64(v));
                }
                out.push('\n');
            }
            Payload::I32(b) => {
                let u = u32::from_be_bytes(b);
                let _ = writeln!(
                    out,
                    "I32 {} (u32 {u}, i32 {}, float {:?})",
                    hex(&b),
                    u as i32,
                    f32::from_bits(u)
                );
            }
            Payload::I64(b) => {
                let u = u64::from_be_bytes(b);
                let _ = writeln!(
                    out,
                    "I64 {} (u64 {u}, i64 {}, double {:?})",
                    hex(&b),
                    u as i64,
                    f64::from_bits(u)
                );
            }
            Payload::Len { start: s, len } => {
                let _ = write!(out, "LEN {len}");
                render_len(buf, s, len, depth, out)?;
            }
        }
    }
    Ok(())
}

/// The rest of a `LEN n` line for the payload `buf[s..s + len]`: a string, a nested
/// message, a run of length-prefixed elements (repeated messages or strings), or hex.
fn render_len(
    buf: &[u8],
    s: usize,
    len: usize,
    depth: usize,
    out: &mut String,
) -> Result<(), RawError> {
    let indent = "  ".repeat(depth);
    let bytes = buf.get(s..s + len).unwrap_or(&[]);
    if len == 0 {
        out.push('\n');
    } else if let Some(text) = printable(bytes) {
        let _ = writeln!(out, " {text}");
    } else if let Some(elems) = (depth < MAX_NEST)
        .then(|| elements(buf, s, s + len))
        .flatten()
        .filter(|run| last_number(buf, s, s + len).is_none_or(|n| run.largest < n))
    {
        out.push_str(" [\n");
        let inner = "  ".repeat(depth + 1);
        for (i, (at, start, n)) in elems.items.into_iter().enumerate() {
            let _ = write!(out, "{at:>8}  {inner}[{i}] LEN {n}");
            render_len(buf, start, n, depth + 1, out)?;
        }
        let _ = writeln!(out, "{:>8}  {indent}]", "");
    } else if depth < MAX_NEST && parses_as_message(buf, s, s + len) {
        out.push_str(" {\n");
        render_range(buf, s, s + len, depth + 1, out)?;
        let _ = writeln!(out, "{:>8}  {indent}}}", "");
    } else {
        let shown = &bytes[..bytes.len().min(HEX_PREVIEW)];
        let _ = write!(out, " bytes {}", hex(shown));
        if bytes.len() > HEX_PREVIEW {
            let _ = write!(out, " … ({} more)", bytes.len() - HEX_PREVIEW);
        }
        out.push('\n');
    }
    Ok(())
}

/// A LEN payload read as a run of length-prefixed elements.
struct Run {
    /// (prefix offset, content start, content length) per element.
    items: Vec<(usize, usize, usize)>,
    /// The largest field number among the elements read as messages (0 if none is).
    largest: u64,
}

/// `[start, end)` as a run of length-prefixed elements (SPEC §6.2: repeated messages,
/// strings or bytes), each of which is empty, printable text or a message; `None`
/// otherwise.
///
/// A payload can read both as one message and as such a run (a repeated message field is
/// one record whose elements are length-prefixed). The caller prefers the run when its
/// messages use smaller field numbers than the single-message reading: a run misread as
/// one message shows large, sparse field numbers, since element lengths and their
/// contents are then taken for keys.
fn elements(buf: &[u8], start: usize, end: usize) -> Option<Run> {
    let mut out = Vec::new();
    let mut largest = 0;
    let mut pos = start;
    while pos < end {
        let at = pos;
        let len = varint(buf, &mut pos, end).ok()?;
        if len > (end - pos) as u64 {
            return None;
        }
        let n = len as usize;
        let body = buf.get(pos..pos + n)?;
        if n > 0 && printable(body).is_none() {
            largest = largest.max(last_number(buf, pos, pos + n)?);
        }
        out.push((at, pos, n));
        pos += n;
    }
    // One element of nothing is more likely bytes than a list.
    (out.iter().any(|(_, _, n)| *n > 0)).then_some(Run {
        items: out,
        largest,
    })
}

/// A quoted preview when `bytes` is UTF-8 text without control characters (other than
/// tab and newline).
fn printable(bytes: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(bytes).ok()?;
    if text
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        return None;
    }
    let mut shown: String = text.chars().take(STR_PREVIEW).collect();
    let more = text.chars().count().saturating_sub(STR_PREVIEW);
    shown = format!("{:?}", shown);
    if more > 0 {
        shown.push_str(&format!(" … ({more} more characters)"));
    }
    Some(shown)
}

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(bytes: &[u8]) -> (String, Option<RawError>) {
        let mut out = String::new();
        let e = render(bytes, &mut out).err();
        (out, e)
    }

    #[test]
    fn the_appendix_order_reads_back() {
        // SPEC A.2, without the unknown-field context: fields 1, 2, 4, 6, 7.
        let bytes = [
            0x00, 0xF9, 0x01, 0xF1, 0x02, 0x04, 0x02, 0x02, 0x42, 0x6F, 0x06, 0x0C, 0x06, 0x02,
            0x02, 0x41, 0x31, 0x00, 0x02, 0x04, 0x02, 0x02, 0x42, 0x37, 0x04, 0x03, 0x02, 0x0C,
            0x04, 0x67, 0x69, 0x66, 0x74, 0x01, 0x04, 0x72, 0x75, 0x73, 0x68, 0x0A,
        ];
        let (out, e) = show(&bytes);
        assert_eq!(e, None);
        assert!(
            out.contains("       0  #1 VARINT 1001 (zigzag -501)\n"),
            "{out}"
        );
        assert!(
            out.contains("       4  #2 LEN 4 {\n       6    #1 LEN 2 \"Bo\"\n"),
            "{out}"
        );
        assert!(out.contains("#6 VARINT 3"), "{out}");
        assert!(
            out.contains("#7 LEN 12 bytes 04 67 69 66 74 01 04 72 75 73 68 0a"),
            "{out}"
        );
    }

    #[test]
    fn malformed_input_reports_spec_codes_after_partial_output() {
        let (out, e) = show(&[0x00, 0x01, 0x02, 0x05, 0x61]);
        assert!(out.contains("#1 VARINT 1"));
        let e = e.unwrap();
        assert_eq!((e.code, e.offset), ("truncated", 3));
        let (_, e) = show(&[0xFF; 9]);
        assert_eq!(e.unwrap().code, "varint-overflow");
        let (_, e) = show(&[0xFB, 0x7E, 0xFE, 0xFE, 0x04, 0x01]);
        assert_eq!(e.unwrap().code, "field-number-overflow");
        let (_, e) = show(&[0x03, 0x00, 0x00]);
        assert_eq!(
            e.unwrap(),
            RawError {
                code: "truncated",
                offset: 1,
                message: "the input ends inside a 4-byte value".into()
            }
        );
    }

    proptest::proptest! {
        #[test]
        fn never_panics_and_errors_point_into_the_input(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300)
        ) {
            let mut out = String::new();
            if let Err(e) = render(&bytes, &mut out) {
                proptest::prop_assert!(e.offset <= bytes.len());
            }
        }

        #[test]
        fn nested_runs_of_records_render_as_trees(depth in 1usize..80, leaf in 0u8..200) {
            // `depth` messages nested through field 1, innermost holding field 1 = leaf.
            let mut inner = vec![0x00, leaf];
            for _ in 1..depth {
                let mut outer = vec![0x02];
                outer.extend_from_slice(bijou64::encode(inner.len() as u64).as_slice());
                outer.extend_from_slice(&inner);
                inner = outer;
            }
            let mut out = String::new();
            proptest::prop_assert!(render(&inner, &mut out).is_ok());
            let shown = out.contains(&format!("#1 VARINT {leaf}"));
            // Beyond the guess limit the innermost levels are shown as bytes.
            proptest::prop_assert_eq!(shown, depth <= MAX_NEST + 1, "{}", out);
        }
    }

    #[test]
    fn a_repeated_message_field_reads_as_a_run_not_as_one_message() {
        // The README's sample Person (schemas/example/person.hex): field 4 is
        // `repeated Phone phones`, one record holding one length-prefixed Phone.
        let bytes: Vec<u8> = (0..)
            .step_by(2)
            .map_while(|i| {
                let hex = include_str!("../../../schemas/example/person.hex").trim();
                hex.get(i..i + 2)
                    .map(|b| u8::from_str_radix(b, 16).expect("hex"))
            })
            .collect();
        let (out, e) = show(&bytes);
        assert_eq!(e, None, "{out}");
        assert!(out.contains("      35  #4 LEN 21 [\n"), "{out}");
        assert!(out.contains("      37    [0] LEN 20 {\n"), "{out}");
        assert!(out.contains("#1 LEN 16 \"+44 20 7946 0000\""), "{out}");
        assert!(out.contains("      58  #5 LEN 3 \"Ada\""), "{out}");
    }

    #[test]
    fn fixed_width_values_show_every_reading() {
        let (out, _) = show(&[0x03, 0x3F, 0xC0, 0x00, 0x00]);
        assert!(
            out.contains("#1 I32 3f c0 00 00 (u32 1069547520, i32 1069547520, float 1.5)"),
            "{out}"
        );
    }
}
