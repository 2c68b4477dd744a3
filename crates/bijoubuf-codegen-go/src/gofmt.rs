//! The forms of Go source that `gofmt` chooses by length or by content, computed here so
//! that the generated text is already what `gofmt` prints (go/printer and go/doc/comment
//! of Go 1.26; the tests in `tests/snapshots.rs` run `gofmt -l` over generated code that
//! crosses each threshold).

/// go/printer's `funcBody`: a body stays on its header's line when the header's width
/// plus the body's (its statements, two bytes between each) is at most this.
const ONE_LINE: usize = 100;

/// A function declaration, `header` (`func (*T) m() int`) with a body of at most one
/// statement (`stmt`, or `""` for none), on one line if gofmt keeps it there.
///
/// A declaration's header counts one byte more than its text: go/printer measures it from
/// the column after `func`, less `len("func ")`, before the blank is written. So
/// `func (*T) m() {}` stays on one line while `func (*T) m()` is at most 99 bytes.
pub(crate) fn func_decl(header: &str, stmt: &str) -> String {
    if header.len() + 1 + stmt.len() <= ONE_LINE {
        if stmt.is_empty() {
            format!("{header} {{}}")
        } else {
            format!("{header} {{ {stmt} }}")
        }
    } else if stmt.is_empty() {
        format!("{header} {{\n}}")
    } else {
        format!("{header} {{\n\t{stmt}\n}}")
    }
}

/// A function literal, signature `sig` (`func() any`) and one statement, on one line if
/// gofmt keeps it there (the signature's text plus the statement at most 100 bytes,
/// wherever the literal starts), else over three lines, the statement one tab deeper
/// than `indent` (the indentation of the line the literal starts on) and the closing
/// brace at `indent`.
pub(crate) fn func_lit(sig: &str, stmt: &str, indent: &str) -> String {
    if sig.len() + stmt.len() <= ONE_LINE {
        format!("{sig} {{ {stmt} }}")
    } else {
        format!("{sig} {{\n{indent}\t{stmt}\n{indent}}}")
    }
}

/// The lines (without `//`) of a doc comment: `first`, then the schema's comment
/// `text`, each line trimmed (gofmt would make an indented line a code block or a list
/// item, which is not what the schema's author wrote either), blank lines around and
/// between paragraphs collapsed to one, as gofmt prints them.
///
/// A comment in the first column (`top_level`, a declaration's doc comment) is parsed and
/// printed again by gofmt (go/doc/comment), which also changes content: a paragraph of
/// one line that is a heading (`# Text`, or a line in the old implicit heading form
/// between two paragraphs) is printed as `# Text`, and paragraphs of link definitions
/// (`[text]: https://…`) move to the end of the comment, the used ones first. The lines
/// are given in that form. An indented comment (a struct field's) is left as it is.
pub(crate) fn doc_comment(first: &str, text: Option<&str>, top_level: bool) -> Vec<String> {
    // Paragraphs: runs of non-blank lines.
    let mut paragraphs: Vec<Vec<String>> = vec![vec![first.to_string()]];
    let mut open = false;
    for line in text.unwrap_or("").lines() {
        let line = line.trim();
        if line.is_empty() {
            open = false;
        } else if open {
            paragraphs
                .last_mut()
                .expect("a paragraph")
                .push(line.to_string());
        } else {
            paragraphs.push(vec![line.to_string()]);
            open = true;
        }
    }
    if top_level {
        paragraphs = reformat_top_level(paragraphs);
    }
    let mut out = Vec::new();
    for (i, p) in paragraphs.into_iter().enumerate() {
        if i > 0 {
            out.push(String::new());
        }
        out.extend(p);
    }
    out
}

/// What go/doc/comment's parser and printer make of paragraphs of unindented lines.
fn reformat_top_level(paragraphs: Vec<Vec<String>>) -> Vec<Vec<String>> {
    let count = paragraphs.len();
    let mut blocks: Vec<Vec<String>> = Vec::new();
    // Paragraphs whose text links are read from (not headings).
    let mut texts: Vec<String> = Vec::new();
    // (text, url) in the order met.
    let mut defs: Vec<(String, String)> = Vec::new();
    for (i, p) in paragraphs.into_iter().enumerate() {
        if let [line] = p.as_slice() {
            if let Some(rest) = new_heading(line) {
                blocks.push(vec![format!("# {rest}")]);
                continue;
            }
            // The old form needs a paragraph before and after it.
            if i > 0 && i + 1 < count && is_old_heading(line) {
                blocks.push(vec![format!("# {line}")]);
                continue;
            }
        }
        let parsed: Option<Vec<(String, String)>> = p.iter().map(|l| link_def(l)).collect();
        match parsed {
            Some(d) => defs.extend(d),
            None => {
                let text = p.join("\n");
                blocks.push(
                    smart_quotes(&text)
                        .split('\n')
                        .map(str::to_string)
                        .collect(),
                );
                texts.push(text);
            }
        }
    }
    if defs.is_empty() {
        return blocks;
    }
    // A link is used when `[text]` names the first definition of that text.
    let mut used = vec![false; defs.len()];
    for t in &texts {
        for name in bracketed(t) {
            if let Some(k) = defs.iter().position(|(d, _)| *d == name) {
                used[k] = true;
            }
        }
    }
    for want in [true, false] {
        let block: Vec<String> = defs
            .iter()
            .zip(&used)
            .filter(|(_, u)| **u == want)
            .map(|((t, u), _)| format!("[{t}]: {u}"))
            .collect();
        if !block.is_empty() {
            blocks.push(block);
        }
    }
    blocks
}

/// go/doc/comment's `parseText` on a paragraph: ``` `` ``` becomes `“` and `''` becomes
/// `”`, except inside a run of three or more backquotes and inside a URL it links
/// (which it looks for at the start of each word).
fn smart_quotes(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let (mut i, mut wrote) = (0, 0);
    while i < b.len() {
        if let Some(n) = auto_url(&b[i..]).or_else(|| ident(&b[i..])) {
            i += n;
        } else if b[i..].starts_with(b"```") {
            i += 3;
            while b.get(i) == Some(&b'`') {
                i += 1;
            }
        } else if b[i..].starts_with(b"``") || b[i..].starts_with(b"''") {
            // Both bytes are ASCII, so `i` is on a character boundary.
            out.push_str(&text[wrote..i]);
            out.push(if b[i] == b'`' { '“' } else { '”' });
            i += 2;
            wrote = i;
        } else {
            i += 1;
        }
    }
    out.push_str(&text[wrote..]);
    out
}

/// go/doc/comment's `ident`: the length of the identifier `s` starts with, if any.
fn ident(s: &[u8]) -> Option<usize> {
    let mut n = 0;
    while n < s.len() {
        let c = s[n];
        if c.is_ascii() {
            if c.is_ascii_alphabetic() || c == b'_' || (n > 0 && c.is_ascii_digit()) {
                n += 1;
                continue;
            }
            break;
        }
        // A character that starts here (not inside one) and is a letter.
        let letter = (2..=4)
            .filter_map(|k| s.get(n..n + k))
            .find_map(|bytes| std::str::from_utf8(bytes).ok())
            .and_then(|c| c.chars().next())
            .filter(|c| c.is_alphabetic());
        match letter {
            Some(c) => n += c.len_utf8(),
            None => break,
        }
    }
    (n > 0).then_some(n)
}

/// go/doc/comment's `autoURL`: the length of the URL `s` starts with, if any: a known
/// scheme, a host, and a path without trailing punctuation or unmatched brackets.
fn auto_url(s: &[u8]) -> Option<usize> {
    let is_punct = |c: u8| b".,:;?!".contains(&c);
    let is_host = |c: u8| c.is_ascii_alphanumeric() || b"_@-.[]:".contains(&c);
    let is_path = |c: u8| c.is_ascii_alphanumeric() || b"$'()*+&#=@~_/-[]{}%".contains(&c);
    if s.len() < 7 {
        return None;
    }
    let colon = (3..=6).find(|&k| s[k] == b':')?;
    if s.get(colon..colon + 3) != Some(b"://".as_slice())
        || !SCHEMES.iter().any(|x| x.as_bytes() == &s[..colon])
    {
        return None;
    }
    let mut i = colon + 3;
    if i >= s.len() || !is_host(s[i]) || is_punct(s[i]) {
        return None;
    }
    i += 1;
    let mut end = i;
    while i < s.len() && is_host(s[i]) {
        if !is_punct(s[i]) {
            end = i + 1;
        }
        i += 1;
    }
    i = end;
    let mut open: Vec<u8> = Vec::new();
    while i < s.len() {
        let c = s[i];
        if !is_punct(c) {
            if !is_path(c) {
                break;
            }
            match c {
                b'(' => open.push(b')'),
                b'{' => open.push(b'}'),
                b'[' => open.push(b']'),
                b')' | b'}' | b']' => {
                    if open.last() != Some(&c) {
                        break;
                    }
                    open.pop();
                }
                _ => {}
            }
            if open.is_empty() {
                end = i + 1;
            }
        }
        i += 1;
    }
    Some(end)
}

/// The URL schemes go/doc/comment links.
const SCHEMES: &[&str] = &["file", "ftp", "gopher", "http", "https", "mailto", "nntp"];

/// go/doc/comment's `isHeading`: `#`, a blank or tab, and some text; the heading's text.
fn new_heading(line: &str) -> Option<&str> {
    let rest = line
        .strip_prefix("# ")
        .or_else(|| line.strip_prefix("#\t"))?
        .trim();
    (!rest.is_empty()).then_some(rest)
}

/// go/doc/comment's `isOldHeading`, but for its place in the comment: an uppercase
/// letter first, a letter or digit last, none of ``;:!?+*/=[]{}_^°&§~%#@<">\``, `'`
/// only in `'s`, and `.` only before a non-blank.
fn is_old_heading(line: &str) -> bool {
    let (Some(first), Some(last)) = (line.chars().next(), line.chars().last()) else {
        return false;
    };
    if !(first.is_alphabetic() && first.is_uppercase())
        || !(last.is_alphabetic() || last.is_numeric())
        || line.contains(|c| ";:!?+*/=[]{}_^°&§~%#@<\">\\".contains(c))
    {
        return false;
    }
    let apostrophes_ok = line
        .split('\'')
        .skip(1)
        .all(|after| after == "s" || after.starts_with("s "));
    let periods_ok = line
        .split('.')
        .skip(1)
        .all(|after| !after.is_empty() && !after.starts_with(' '));
    apostrophes_ok && periods_ok
}

/// go/doc/comment's `parseLink`: `[text]: url`, the URL with a scheme it knows.
fn link_def(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?;
    let i = inner.find("]:")?;
    let after = &inner[i + 2..];
    if after.len() < 2 || !after.starts_with([' ', '\t']) {
        return None;
    }
    let url = after[1..].trim();
    let (scheme, _) = url.split_once("://")?;
    SCHEMES
        .contains(&scheme)
        .then(|| (inner[..i].to_string(), url.to_string()))
}

/// The texts between `[` and `]` as go/doc/comment's `parseLinkedText` collects them to
/// look links up: from the last `[` before a `]` (what followed an earlier unclosed `[`
/// kept too), newlines and tabs as blanks.
fn bracketed(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut open = false;
    let mut buf = Vec::new();
    for b in text.bytes() {
        let c = if b == b'\n' || b == b'\t' { b' ' } else { b };
        match c {
            b'[' => open = true,
            b']' => {
                if open {
                    out.push(String::from_utf8_lossy(&buf).into_owned());
                }
                open = false;
                buf.clear();
            }
            _ if open => buf.push(c),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn function_bodies_leave_the_line_past_100_bytes() {
        let h = |n: usize| format!("func (*{}) m()", "A".repeat(n - 12));
        assert_eq!(h(99).len(), 99);
        assert!(func_decl(&h(99), "").ends_with("() {}"));
        assert!(func_decl(&h(100), "").ends_with("() {\n}"));
        let s = format!("return new({})", "B".repeat(78));
        assert_eq!(
            func_lit("func() any", &s, "\t"),
            format!("func() any {{ {s} }}")
        );
        let s = format!("return new({})", "B".repeat(79));
        assert_eq!(
            func_lit("func() any", &s, "\t"),
            format!("func() any {{\n\t\t{s}\n\t}}")
        );
    }

    #[test]
    fn doc_comments_take_gofmt_form() {
        let text = "\n\n  Overview  \n\n\n\n[a]: https://a.example\n[b]: https://b.example\n\nSee [b].\n#\tNew\n\nNext.\n\n";
        assert_eq!(
            doc_comment("T is t.", Some(text), true),
            [
                "T is t.",
                "",
                "# Overview",
                "",
                "See [b].",
                "#\tNew",
                "",
                "Next.",
                "",
                "[b]: https://b.example",
                "",
                "[a]: https://a.example",
            ]
        );
        // Indented: left as written, blank runs collapsed.
        assert_eq!(
            doc_comment("F is f.", Some("\nOverview\n\n\nNext."), false),
            ["F is f.", "", "Overview", "", "Next."]
        );
        assert_eq!(doc_comment("E.", Some(" \n\t\n"), true), ["E."]);
        assert!(!is_old_heading("Ends with a period."));
        assert!(!is_old_heading("A 'quoted' thing"));
        assert_eq!(
            smart_quotes("``a'' ```b'' c``` http://x.example/d''e. xhttp://x/''"),
            "“a” ```b” c``` http://x.example/d''e. xhttp://x/”"
        );
        assert!(is_old_heading("Bob's thing v1.2"));
    }
}
