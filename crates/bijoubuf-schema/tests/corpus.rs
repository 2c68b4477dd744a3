//! The schema corpus: every accepting file compiles (its model is a named snapshot), every
//! rejecting file fails with the rule its header names (the rendered diagnostics are a
//! named snapshot).

use std::path::{Path, PathBuf};

use bijoubuf_schema::{Compiler, Diagnostic};
use miette::{GraphicalReportHandler, GraphicalTheme};

fn dir(kind: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(kind)
}

fn proto_files(dir: &Path, base: &Path, recurse: bool, out: &mut Vec<String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("corpus dir")
        .flatten()
        .collect();
    entries.sort_by_key(|e| e.path());
    for e in entries {
        let p = e.path();
        if p.is_dir() && recurse {
            proto_files(&p, base, recurse, out);
        } else if p.extension().is_some_and(|x| x == "proto") {
            let rel = p.strip_prefix(base).expect("under base");
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}

fn snapshot_name(file: &str) -> String {
    file.trim_end_matches(".proto").replace('/', "__")
}

/// The corpus names rules by a short slug; this is the diagnostic code we report for each.
fn code_for(slug: &str) -> &'static str {
    match slug {
        "allow-alias-without-alias" | "allow-alias-false" => "useless-allow-alias",
        "custom-option-unknown" | "custom-option-unknown-subfield" | "unknown-builtin-option" => {
            "unknown-option"
        }
        "custom-option-wrong-type" => "invalid-option-value",
        "default-on-message"
        | "default-on-repeated"
        | "default-out-of-range"
        | "enum-default-not-a-value"
        | "invalid-default-for-type" => "invalid-default",
        "duplicate-enum-name"
        | "duplicate-field-name"
        | "duplicate-message-name"
        | "duplicate-method-name"
        | "duplicate-oneof-name"
        | "duplicate-symbol-across-files"
        | "field-and-nested-type-same-name"
        | "enum-value-name-conflict" => "duplicate-name",
        "duplicate-enum-number" => "duplicate-enum-number",
        "duplicate-extension-number" => "duplicate-extension-number",
        "duplicate-field-number" => "duplicate-field-number",
        "edition-unsupported" | "group-unsupported" | "proto3-group" => "unsupported",
        "empty-oneof" => "empty-oneof",
        "extend-non-message" | "method-type-not-message" | "method-name-shadows-type" => {
            "not-a-message"
        }
        "extend-without-ranges" | "extension-number-out-of-range" => {
            "extension-number-not-declared"
        }
        "extension-range-overlaps-field" => "number-in-extension-range",
        "field-number-implementation-reserved" => "field-number-reserved-range",
        "field-number-negative" | "field-number-too-large" | "field-number-zero" => {
            "field-number-out-of-range"
        }
        "field-type-not-a-type" => "not-a-type",
        "import-cycle" => "import-cycle",
        "import-not-found" => "import-not-found",
        "integer-literal-overflow"
        | "invalid-character"
        | "invalid-number-literal"
        | "invalid-string-escape"
        | "invalid-syntax-version"
        | "map-value-repeated"
        | "missing-semicolon"
        | "unbalanced-braces"
        | "unterminated-string" => "syntax",
        "invalid-utf8" => "invalid-utf8",
        "json-name-conflict" | "json-name-custom-conflict" => "json-name-conflict",
        "map-in-oneof" => "map-in-oneof",
        "map-entry-type" => "map-entry-type",
        "map-key-bytes" | "map-key-enum" | "map-key-float" | "map-key-message" => "invalid-map-key",
        "map-with-label" => "label-on-map",
        "missing-label-proto2" => "missing-label",
        "option-set-twice" => "duplicate-option",
        "packed-non-repeated" | "packed-non-scalar" => "invalid-packed",
        "proto3-closed-enum" => "closed-enum-in-proto3",
        "proto3-default-value" => "proto3-default",
        "proto3-extension" => "proto3-extension",
        "proto3-first-enum-value-not-zero" => "proto3-first-enum-value",
        "proto3-required" => "proto3-required",
        "repeated-in-oneof" => "label-in-oneof",
        "reserved-enum-number-used" | "reserved-number-used" => "reserved-number",
        "reserved-name-used" => "reserved-name",
        "reserved-ranges-overlap" => "overlapping-ranges",
        "service-unknown-input-type" | "shadowed-partial-name" | "unknown-type" => {
            "unresolved-type"
        }
        "type-not-imported" => "missing-import",
        other => panic!("no diagnostic code is mapped for corpus rule {other:?}"),
    }
}

fn render(diags: &[Diagnostic]) -> String {
    let handler =
        GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()).with_width(100);
    let mut out = String::new();
    for d in diags {
        out.push_str(&d.to_line());
        out.push('\n');
        handler
            .render_report(&mut out, d)
            .expect("render to a String");
        out.push('\n');
    }
    out
}

#[test]
fn accepting_corpus_compiles() {
    let base = dir("pass");
    let mut names = Vec::new();
    proto_files(&base, &base, true, &mut names);
    assert!(names.len() >= 30, "only {} accepting files", names.len());
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots/pass");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        for name in &names {
            let compiled = Compiler::new()
                .include(&base)
                .compile(&[name])
                .unwrap_or_else(|e| panic!("{name} was refused:\n{}", render(e.errors())));
            let file = compiled
                .schema
                .file(name)
                .expect("the requested file is in the schema");
            insta::assert_yaml_snapshot!(snapshot_name(name), file);
        }
    });
}

#[test]
fn rejecting_corpus_fails_for_the_named_rule() {
    let base = dir("fail");
    let mut names = Vec::new();
    proto_files(&base, &base, false, &mut names);
    assert!(names.len() >= 40, "only {} rejecting files", names.len());
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots/fail");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        for name in &names {
            let bytes = std::fs::read(base.join(name)).expect("readable");
            let text = String::from_utf8_lossy(&bytes);
            let slug = text
                .lines()
                .find_map(|l| l.strip_prefix("// expect:"))
                .unwrap_or_else(|| panic!("{name} has no `// expect:` line"))
                .trim();
            let code = code_for(slug);
            let err = match Compiler::new().include(&base).compile(&[name]) {
                Ok(_) => panic!("{name} compiled but should fail with {slug}"),
                Err(e) => e,
            };
            assert!(
                err.errors().iter().any(|d| d.code() == code),
                "{name}: expected {code} ({slug}), got:\n{}",
                render(err.errors())
            );
            insta::assert_snapshot!(snapshot_name(name), render(err.errors()));
        }
    });
}

/// Rejecting files that protox 0.10 also rejects (per their header) are refused by both.
#[test]
fn protox_agrees_on_rejections() {
    let base = dir("fail");
    let mut names = Vec::new();
    proto_files(&base, &base, false, &mut names);
    let mut checked = 0;
    for name in &names {
        let text = String::from_utf8_lossy(&std::fs::read(base.join(name)).expect("readable"))
            .into_owned();
        let verdict = text
            .lines()
            .find_map(|l| l.strip_prefix("// protox:"))
            .map(str::trim);
        if verdict.is_some_and(|v| v.starts_with("rejects")) {
            let protox =
                protox::Compiler::new([&base]).and_then(|mut c| c.open_file(name).map(|_| ()));
            assert!(
                protox.is_err(),
                "{name}: protox accepted a file its header says it rejects"
            );
            checked += 1;
        }
    }
    assert!(
        checked >= 30,
        "only {checked} files are marked as rejected by protox"
    );
}
