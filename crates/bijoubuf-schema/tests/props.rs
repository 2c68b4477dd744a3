//! No input makes the compiler panic: arbitrary text, proto-flavoured token soup, and
//! corpus files with random edits. Each case must end in `Ok` or in `Err` with at least
//! one error that has a real position.

use std::path::Path;

use proptest::prelude::*;

fn check(text: &str) {
    match bijoubuf_schema::compile_sources(&[("fuzz.proto", text)]) {
        Ok(c) => assert!(c.schema.file("fuzz.proto").is_some()),
        Err(e) => {
            assert!(!e.errors().is_empty());
            let handler = miette::GraphicalReportHandler::new_themed(
                miette::GraphicalTheme::unicode_nocolor(),
            );
            for d in e.errors() {
                assert!(d.line() >= 1 && d.column() >= 1, "{d}");
                let ok = |s: bijoubuf_schema::Span| s.start <= s.end && s.end <= text.len();
                assert!(ok(d.span()), "{d}");
                assert!(d.labels().iter().all(|l| ok(l.span)), "{d}");
                // Every diagnostic renders: its spans lie inside the source miette is given.
                let mut out = String::new();
                assert!(handler.render_report(&mut out, d).is_ok(), "{d}");
            }
        }
    }
}

const TOKENS: &[&str] = &[
    "syntax",
    "=",
    "\"proto3\"",
    "\"proto2\"",
    ";",
    "package",
    "a.b",
    "import",
    "\"x.proto\"",
    "message",
    "M",
    "enum",
    "E",
    "{",
    "}",
    "int32",
    "string",
    "map",
    "<",
    ">",
    ",",
    "repeated",
    "optional",
    "required",
    "oneof",
    "o",
    "1",
    "0",
    "-1",
    "0x1F",
    "536870912",
    "reserved",
    "to",
    "max",
    "extensions",
    "extend",
    "option",
    "(",
    ")",
    "[",
    "]",
    "default",
    "json_name",
    "allow_alias",
    "true",
    "service",
    "rpc",
    "returns",
    "stream",
    ".",
    "group",
    "edition",
    "\"2023\"",
    "//c\n",
    "/* c */",
    "\n",
    "1.5e3",
    "'s'",
    ":",
    "inf",
];

fn corpus_texts() -> &'static [String] {
    static TEXTS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    TEXTS.get_or_init(load_corpus)
}

fn load_corpus() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/pass");
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .expect("corpus")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "proto"))
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .collect();
    out.sort();
    out
}

proptest! {
    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        check(&text);
    }

    #[test]
    fn token_soup_never_panics(picks in proptest::collection::vec(0..TOKENS.len(), 0..80)) {
        let text: Vec<&str> = picks.iter().map(|&i| TOKENS[i]).collect();
        check(&text.join(" "));
    }

    #[test]
    fn mutated_corpus_never_panics(
        file in any::<prop::sample::Index>(),
        at in any::<prop::sample::Index>(),
        len in 0usize..12,
        insert in "[ -~\\n]{0,8}",
    ) {
        let texts = corpus_texts();
        let text = file.get(texts);
        let bytes = text.as_bytes();
        let start = at.index(bytes.len().max(1)).min(bytes.len());
        let end = (start + len).min(bytes.len());
        let mut mutated = bytes[..start].to_vec();
        mutated.extend_from_slice(insert.as_bytes());
        mutated.extend_from_slice(&bytes[end..]);
        check(&String::from_utf8_lossy(&mutated));
    }
}
