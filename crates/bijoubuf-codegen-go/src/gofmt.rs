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
/// `text`, as gofmt prints them. The text loses the indentation all its lines share and
/// trailing blanks; blank lines around and between blocks collapse to one.
///
/// A comment in the first column (`top_level`, a declaration's doc comment) is parsed and
/// printed again by gofmt (go/doc/comment), so the lines are given in the form it prints:
/// a run of lines indented further than the rest (a code sample) is a code block, each
/// line a tab (given here as the line's first character) and the line less the run's
/// common indentation, blank lines inside it kept; a paragraph of one line that is a
/// heading (`# Text`, or a line in the old implicit heading form between two paragraphs)
/// is printed as `# Text`; quotes in paragraphs become typographic ones; paragraphs of
/// link definitions (`[text]: https://…`) move to the end, the used ones first. An
/// indented run that starts like a list item (`- `, `1. `) is left as paragraph lines,
/// trimmed, rather than reformatted as gofmt's list. An indented comment (a struct
/// field's) is left as written: gofmt does not reformat it.
pub(crate) fn doc_comment(first: &str, text: Option<&str>, top_level: bool) -> Vec<String> {
    let lines = unindent(text.unwrap_or(""));
    let mut out = vec![first.to_string()];
    if !top_level {
        // As written, one blank line between runs of text.
        for (i, line) in lines.iter().enumerate() {
            if !line.is_empty() {
                if i == 0 || lines[i - 1].is_empty() {
                    out.push(String::new());
                }
                out.push(line.clone());
            }
        }
        return out;
    }
    let mut blocks = vec![Block::Para(out)];
    blocks.extend(parse_blocks(&lines));
    let mut out = Vec::new();
    for (i, block) in reformat_top_level(blocks).into_iter().enumerate() {
        if i > 0 {
            out.push(String::new());
        }
        match block {
            Block::Para(p) => out.extend(p),
            Block::Code(c) => out.extend(
                c.into_iter()
                    .map(|l| if l.is_empty() { l } else { format!("\t{l}") }),
            ),
        }
    }
    out
}

/// A block of a top-level doc comment.
#[derive(Debug, PartialEq)]
enum Block {
    /// Unindented lines.
    Para(Vec<String>),
    /// Lines of a code sample, less their common indentation; blank lines inside kept.
    Code(Vec<String>),
}

/// The lines of `text` without trailing blanks and one leading blank (go/printer's
/// reading of `// text`; a schema comment is the text after `//` or inside `/* */`), less
/// the leading blanks and tabs all its non-blank lines share (go/doc/comment's
/// `unindent`), leading and trailing blank lines dropped.
fn unindent(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text
        .lines()
        .map(|l| l.trim_end().strip_prefix(' ').unwrap_or(l.trim_end()))
        .collect();
    let cut = common_indent(lines.iter().copied());
    let mut out: Vec<String> = lines
        .iter()
        .map(|l| l.get(cut..).unwrap_or("").to_string())
        .collect();
    while out.last().is_some_and(String::is_empty) {
        out.pop();
    }
    let lead = out.iter().take_while(|l| l.is_empty()).count();
    out.drain(..lead);
    out
}

/// The length of the leading blanks and tabs the non-blank `lines` share.
fn common_indent<'a>(lines: impl Iterator<Item = &'a str>) -> usize {
    lines
        .filter(|l| !l.is_empty())
        .map(|l| &l[..l.len() - l.trim_start_matches([' ', '\t']).len()])
        .reduce(|a, b| {
            let n = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
            &a[..n]
        })
        .map_or(0, str::len)
}

/// go/doc/comment's `indented`.
fn indented(line: &str) -> bool {
    line.starts_with([' ', '\t'])
}

/// go/doc/comment's `parseSpans`: runs of unindented lines are paragraphs, runs of
/// indented and blank lines code blocks (or lists, which are kept as paragraphs here,
/// trimmed). Its repairs of text that gofmt has not printed apply: a paragraph's last
/// line ending in `{` or `\` starts the indented lines that follow it at once (a code
/// sample whose first line was not indented), and a line starting with `}` right after
/// them ends them; indented lines right after a list item continue it.
fn parse_blocks(lines: &[String]) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut i = 0;
    // A line moved from a paragraph to the code that follows it.
    let mut forced: Option<usize> = None;
    while i < lines.len() {
        if lines[i].is_empty() {
            i += 1;
            continue;
        }
        let start = forced.take().unwrap_or(i);
        if indented(&lines[i]) {
            while i < lines.len() && (lines[i].is_empty() || indented(&lines[i])) {
                i += 1;
            }
            let mut end = i;
            while lines[end - 1].is_empty() {
                end -= 1;
            }
            if end < lines.len() && lines[end].starts_with('}') {
                end += 1;
                i = end;
            }
            let run = &lines[start..end];
            if is_list(&run[0]) {
                for p in run.split(|l| l.is_empty()).filter(|p| !p.is_empty()) {
                    blocks.push(Block::Para(
                        p.iter().map(|l| l.trim().to_string()).collect(),
                    ));
                }
            } else {
                // The run's own common indentation goes; gofmt writes a tab instead.
                let cut = common_indent(run.iter().map(String::as_str));
                blocks.push(Block::Code(
                    run.iter()
                        .map(|l| l.get(cut..).unwrap_or("").to_string())
                        .collect(),
                ));
            }
        } else {
            while i < lines.len() && !lines[i].is_empty() && !indented(&lines[i]) {
                i += 1;
            }
            let mut para = lines[start..i].to_vec();
            if i < lines.len() && !lines[i].is_empty() && !is_list(&lines[i]) {
                let last = &lines[i - 1];
                if is_list(last) {
                    // The item's wrapped lines, up to a blank or unindented line.
                    while i < lines.len() && indented(&lines[i]) {
                        para.push(lines[i].trim().to_string());
                        i += 1;
                    }
                } else if last.ends_with(['{', '\\']) {
                    para.pop();
                    forced = Some(i - 1);
                }
            }
            if !para.is_empty() {
                blocks.push(Block::Para(para));
            }
        }
    }
    blocks
}

/// go/doc/comment's `isList`: the line starts (after blanks) with `-`, `*`, `+`, `•`
/// or a number and `.` or `)`, then a blank and some text.
fn is_list(line: &str) -> bool {
    let line = line.trim();
    let rest = if let Some(r) = line.strip_prefix(['•', '*', '+', '-']) {
        r
    } else {
        let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits == 0 {
            return false;
        }
        match line[digits..].strip_prefix(['.', ')']) {
            Some(r) => r,
            None => return false,
        }
    };
    indented(rest) && !rest.trim().is_empty()
}

/// What go/doc/comment's parser and printer make of the blocks of a top-level comment.
///
/// gofmt reads the comment in the order it is written here, link definitions already
/// moved to the end, and with its quotes already typographic; so the old heading form is
/// decided on that text: a one-line paragraph in the form is a heading when a paragraph
/// follows it there, even if that paragraph is a link definition that came first in the
/// schema's text.
fn reformat_top_level(input: Vec<Block>) -> Vec<Block> {
    // (text, url) in the order met.
    let mut defs: Vec<(String, String)> = Vec::new();
    let mut kept: Vec<Block> = Vec::new();
    for b in input {
        if let Block::Para(p) = &b {
            let parsed: Option<Vec<(String, String)>> = p.iter().map(|l| link_def(l)).collect();
            if let Some(d) = parsed {
                defs.extend(d);
                continue;
            }
        }
        kept.push(b);
    }
    // Whether a paragraph follows block i in the output (the link definitions do).
    let paras_after: Vec<bool> = (0..kept.len())
        .map(|i| match kept.get(i + 1) {
            Some(b) => matches!(b, Block::Para(_)),
            None => !defs.is_empty(),
        })
        .collect();
    let mut blocks: Vec<Block> = Vec::new();
    // Paragraphs whose text links are read from (not headings).
    let mut texts: Vec<String> = Vec::new();
    for (i, b) in kept.into_iter().enumerate() {
        let p = match b {
            Block::Para(p) => p,
            code @ Block::Code(_) => {
                blocks.push(code);
                continue;
            }
        };
        if let [line] = p.as_slice() {
            if let Some(rest) = new_heading(line) {
                blocks.push(Block::Para(vec![format!("# {rest}")]));
                continue;
            }
            // The old form needs a paragraph before it and one after it, which is
            // not indented.
            let quoted = smart_quotes(line);
            if i > 0 && paras_after[i] && is_old_heading(&quoted) {
                blocks.push(Block::Para(vec![format!("# {quoted}")]));
                continue;
            }
        }
        let text = p.join("\n");
        blocks.push(Block::Para(
            smart_quotes(&text)
                .split('\n')
                .map(str::to_string)
                .collect(),
        ));
        texts.push(text);
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
            blocks.push(Block::Para(block));
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
/// letter first, a letter or digit last, none of ``;:!?+*/=[]{}_^°&§~%#@<">\``; each `'`
/// followed by an `s` that ends the line or is followed by a blank (so `A's's` is not a
/// heading), and each `.` followed by something other than a blank (so `Range 1..2` is).
/// Each rule looks at all the rest of the line after the mark, not only up to the next.
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
    let rest_after = |mark: char| line.match_indices(mark).map(|(i, _)| &line[i + 1..]);
    rest_after('\'').all(|rest| rest == "s" || rest.starts_with("s "))
        && rest_after('.').all(|rest| !rest.is_empty() && !rest.starts_with(' '))
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
        let text = "\n\n Overview  \n\n\n\n[a]: https://a.example\n[b]: https://b.example\n\nSee [b].\n#\tNew\n\nNext.\n\n";
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
        // A line indented past the rest is a code sample: a code block.
        assert_eq!(
            doc_comment("C.", Some(" See:\n   a ''b''\n\n\n    c\n d"), true),
            ["C.", "", "See:", "", "\ta ''b''", "", "", "\t c", "", "d"]
        );
        assert_eq!(
            doc_comment("C.", Some(" See:\n   a ''b''\n\n\n    c\n d"), false),
            ["C.", "", "See:", "  a ''b''", "", "   c", "d"]
        );
        // gofmt's repairs: an unindented `{` line starts the code and a `}` line
        // ends it; indented lines after a list item continue the item.
        assert_eq!(
            doc_comment(
                "C.",
                Some(" For example:\n message M {\n   int32 a = 1;\n }\n - an item\n   wrapped."),
                true
            ),
            [
                "C.",
                "",
                "For example:",
                "",
                "\tmessage M {",
                "\t  int32 a = 1;",
                "\t}",
                "",
                "- an item",
                "wrapped."
            ]
        );
        for (line, list) in [
            ("  - a", true),
            ("\t•\ta", true),
            ("12) a", true),
            ("3. a", true),
            ("-a", false),
            ("- ", false),
            ("1 a", false),
            ("x. a", false),
        ] {
            assert_eq!(is_list(line), list, "{line:?}");
        }
        assert!(!is_old_heading("Ends with a period."));
        assert!(!is_old_heading("A 'quoted' thing"));
        assert_eq!(
            smart_quotes("``a'' ```b'' c``` http://x.example/d''e. xhttp://x/''"),
            "“a” ```b” c``` http://x.example/d''e. xhttp://x/”"
        );
        assert!(is_old_heading("Bob's thing v1.2"));
    }

    /// As gofmt 1.26 decided each line between two paragraphs (`tests/snapshots.rs`
    /// checks the same lines against gofmt itself).
    #[test]
    fn old_headings_follow_gofmt() {
        for (line, heading) in [
            ("Range 1..2", true),
            ("A.\tb", true),
            ("A.. b", false),
            ("A..", false),
            ("It's Bob's", true),
            ("A 's", true),
            ("A's's", false),
            ("A's's x", false),
            ("A's\tb", false),
            ("Ab's.s", false),
            ("A”s", true),
        ] {
            assert_eq!(is_old_heading(line), heading, "{line:?}");
        }
    }

    #[test]
    fn old_headings_are_decided_after_link_definitions_move() {
        // The definition goes last, so a paragraph follows `Overview` after all.
        assert_eq!(
            doc_comment("T.", Some("[spec]: https://x.example\n\nOverview"), true),
            ["T.", "", "# Overview", "", "[spec]: https://x.example"]
        );
        // The definition goes last, so code follows `Overview`, not a paragraph.
        assert_eq!(
            doc_comment(
                "T.",
                Some("Overview\n\n[spec]: https://x.example\n\n    code"),
                true
            ),
            [
                "T.",
                "",
                "Overview",
                "",
                "\tcode",
                "",
                "[spec]: https://x.example"
            ]
        );
        // gofmt writes `A''s` as `A”s`, and reads that as a heading.
        assert_eq!(
            doc_comment("T.", Some("A''s\n\nNext."), true),
            ["T.", "", "# A”s", "", "Next."]
        );
    }
}
