//! Schema diagnostics rendered as reports with source snippets (miette), for
//! `bijoubuf` and `protoc-gen-bijoubuf` alike.

use bijoubuf_schema::{Diagnostic, Diagnostics};
use miette::{GraphicalReportHandler, GraphicalTheme};

/// One diagnostic with its source snippet, in colour when `color`.
pub(crate) fn diagnostic(d: &Diagnostic, color: bool) -> String {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(100);
    let mut s = String::new();
    if handler.render_report(&mut s, d).is_err() {
        s = format!("{d}\n");
    }
    s
}

/// The whole report of a refused schema: every warning and error, how many the cap
/// left out, and the count line.
pub(crate) fn refusal(d: &Diagnostics, color: bool) -> String {
    let mut out = String::new();
    for w in d.warnings() {
        out.push_str(&diagnostic(w, color));
    }
    for e in d.errors() {
        out.push_str(&diagnostic(e, color));
    }
    if d.omitted() > 0 {
        out.push_str(&format!(
            "({} more not shown: --max-diagnostics)\n",
            d.omitted()
        ));
    }
    let (e, w) = (d.errors().len(), d.warnings().len());
    out.push_str(&format!(
        "error: the schema has {e} error{} and {w} warning{}{}\n",
        if e == 1 { "" } else { "s" },
        if w == 1 { "" } else { "s" },
        if d.omitted() > 0 { " shown" } else { "" }
    ));
    out
}
