//! Diagnostics on large generated inputs: far columns, thousands of reports, deep
//! nesting, many reserved names. Each asserts on the output's shape; before the fixes
//! these panicked inside miette or took minutes.

use bijoubuf_schema::{Compiler, Diagnostic, compile_sources};
use miette::{GraphicalReportHandler, GraphicalTheme};

fn render(d: &Diagnostic) -> String {
    let mut out = String::new();
    GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
        .with_width(100)
        .render_report(&mut out, d)
        .expect("render to a String");
    out
}

#[test]
fn a_diagnostic_past_column_65535_renders() {
    let pad = " ".repeat(70_000);
    let text =
        format!("syntax = \"proto3\"; package p.v1;{pad}message bad_name {{ Missing m = 1; }}\n");
    let err = compile_sources(&[("long.proto", &text)]).expect_err("Missing is undefined");
    let e = &err.errors()[0];
    assert_eq!(e.code(), "unresolved-type");
    assert_eq!((e.line(), e.column()), (1, 70_052));
    let shown = render(e);
    assert!(shown.contains("[long.proto:1:70052]"), "{shown}");
    assert!(shown.contains("Missing m = 1"), "{shown}");
    // The snippet is a window, not the whole 70 kB line.
    assert!(shown.len() < 2_000, "{} bytes", shown.len());
    let w = err
        .warnings()
        .iter()
        .find(|w| w.code() == "lint-type-name")
        .expect("bad_name is not PascalCase");
    assert!(render(w).contains("bad_name"));
    // A long label (a long string) on a long line renders too.
    let long_name = "x".repeat(70_000);
    let text = format!("syntax = \"proto3\"; import \"{long_name}\";");
    let err = compile_sources(&[("l.proto", &text)]).expect_err("no such import");
    assert!(render(&err.errors()[0]).contains("file not found"));
}

#[test]
fn thousands_of_diagnostics_in_a_large_file_render_one_each() {
    // 3,000 messages with badly named fields, each line padded to about 300 bytes.
    let mut text = String::from("syntax = \"proto3\";\npackage big.v1;\n");
    let n = 3_000;
    for i in 0..n {
        text.push_str(&format!(
            "message M{i} {{ int32 badName{i} = 1; }} // {}\n",
            "-".repeat(260)
        ));
    }
    let compiled = compile_sources(&[("big.proto", &text)]).expect("lints only");
    let warnings: Vec<&Diagnostic> = compiled
        .warnings
        .iter()
        .filter(|w| w.code() == "lint-field-name")
        .collect();
    assert_eq!(warnings.len(), n);
    for (i, w) in warnings.into_iter().enumerate() {
        assert_eq!(w.line(), i + 3);
        let shown = render(w);
        assert!(
            shown.contains(&format!("[big.proto:{}:", i + 3))
                && shown.contains(&format!("badName{i}")),
            "{shown}"
        );
    }
}

#[test]
fn past_the_nesting_limit_the_error_is_reported_once() {
    let depth = 100;
    let mut text = String::from("syntax = \"proto3\";\n");
    for i in 0..depth {
        text.push_str(&format!("message M{i} {{ "));
    }
    for i in (0..depth).rev() {
        // Every closing brace is followed by a sibling message, also too deep when the
        // level is past the limit.
        text.push_str(&format!("}} message S{i} {{ int32 x = 1; }} "));
    }
    text.push_str("message After {}\n");
    let err = compile_sources(&[("deep.proto", &text)]).expect_err("too deep");
    let messages: Vec<&str> = err.errors().iter().map(|d| d.message()).collect();
    assert_eq!(messages, ["nesting deeper than 64 levels"]);
}

#[test]
fn many_reserved_names_are_checked_in_one_pass() {
    let n = 20_000;
    let names: Vec<String> = (0..n).map(|i| format!("\"f{i}\"")).collect();
    let text = format!(
        "syntax = \"proto3\";\nmessage M {{ reserved {}, \"f7\"; int32 f19999 = 1; int32 ok = 2; }}\n",
        names.join(", ")
    );
    let err = Compiler::new()
        .source("r.proto", text)
        .compile(&["r.proto"])
        .expect_err("a duplicate and a reserved name");
    let codes: Vec<&str> = err.errors().iter().map(|d| d.code()).collect();
    assert_eq!(codes, ["duplicate-reserved-name", "reserved-name"]);
}
