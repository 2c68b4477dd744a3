//! Compiling the schema files named on the command line.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use bijoubuf_reflect::{DescriptorPool, MessageDescriptor};
use bijoubuf_schema::{Compiled, Compiler, Diagnostic, Diagnostics, LintLevel, Lints};
use miette::{GraphicalReportHandler, GraphicalTheme};

use crate::{Failure, LintArgs};

/// The include directories and the import names of `files`.
///
/// With no `-I`, each file's own directory is an include directory. A file is named
/// by its path relative to the first include directory that contains it.
pub(crate) fn resolve(
    includes: &[PathBuf],
    files: &[PathBuf],
) -> Result<(Vec<PathBuf>, Vec<String>), Failure> {
    let mut dirs: Vec<PathBuf> = includes.to_vec();
    if dirs.is_empty() {
        for f in files {
            let dir = match f.parent() {
                Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                _ => PathBuf::from("."),
            };
            if !dirs.contains(&dir) {
                dirs.push(dir);
            }
        }
    }
    let canon_dirs: Vec<(PathBuf, PathBuf)> = dirs
        .iter()
        .map(|d| {
            d.canonicalize()
                .map(|c| (d.clone(), c))
                .map_err(|e| Failure::Usage(format!("include directory {}: {e}", d.display())))
        })
        .collect::<Result<_, _>>()?;
    let mut names = Vec::new();
    for f in files {
        let canon = f
            .canonicalize()
            .map_err(|e| Failure::Usage(format!("cannot read {}: {e}", f.display())))?;
        let name = canon_dirs
            .iter()
            .find_map(|(_, d)| canon.strip_prefix(d).ok())
            .map(import_name)
            .ok_or_else(|| {
                Failure::Usage(format!(
                    "{} is not inside any include directory (-I)",
                    f.display()
                ))
            })?;
        names.push(name);
    }
    Ok((dirs, names))
}

fn import_name(rel: &Path) -> String {
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// The lint configuration of the command line: the base (all rules, or none with
/// `--no-lint`), then `--warn`, `--allow` and `--deny` in that order.
fn lints(args: &LintArgs) -> Result<Lints, Failure> {
    let mut lints = if args.no_lint && !args.lint {
        Lints::none()
    } else {
        Lints::all()
    };
    let steps = [
        (&args.warn, LintLevel::Warn),
        (&args.allow, LintLevel::Allow),
        (&args.deny, LintLevel::Deny),
    ];
    for (rules, level) in steps {
        for rule in rules {
            lints
                .set(rule, level)
                .map_err(|e| Failure::Usage(e.to_string()))?;
        }
    }
    Ok(lints)
}

/// Compile `files`; on errors, print every diagnostic and fail with exit status 1.
/// Warnings are returned for the caller to print or drop.
pub(crate) fn compile(
    includes: &[PathBuf],
    lint_args: &LintArgs,
    files: &[PathBuf],
) -> Result<Compiled, Failure> {
    let (dirs, names) = resolve(includes, files)?;
    let mut c = Compiler::new();
    for d in dirs {
        c.include(d);
    }
    c.lints(lints(lint_args)?);
    if let Some(cap) = lint_args.max_diagnostics {
        c.max_diagnostics(cap);
    }
    c.compile(&names).map_err(|d| {
        eprint!("{}", render_all(&d));
        if d.omitted() > 0 {
            eprintln!("({} more not shown: --max-diagnostics)", d.omitted());
        }
        let (e, w) = (d.errors().len(), d.warnings().len());
        eprintln!(
            "error: the schema has {e} error{} and {w} warning{}{}",
            if e == 1 { "" } else { "s" },
            if w == 1 { "" } else { "s" },
            if d.omitted() > 0 { " shown" } else { "" }
        );
        Failure::Refused
    })
}

/// Every warning of a successful compilation, then how many the cap left out.
pub(crate) fn print_warnings(compiled: &Compiled) {
    for w in &compiled.warnings {
        eprint!("{}", render(w));
    }
    if compiled.omitted > 0 {
        eprintln!(
            "({} more warnings not shown: --max-diagnostics)",
            compiled.omitted
        );
    }
}

/// Compile the schema of `--schema` and find message `name`.
pub(crate) fn message(
    includes: &[PathBuf],
    schema: &Path,
    name: &str,
) -> Result<MessageDescriptor, Failure> {
    let quiet = LintArgs {
        lint: false,
        no_lint: true,
        allow: Vec::new(),
        warn: Vec::new(),
        deny: Vec::new(),
        max_diagnostics: None,
    };
    let compiled = compile(includes, &quiet, &[schema.to_path_buf()])?;
    let pool = DescriptorPool::new(&compiled.schema);
    pool.message(name).ok_or_else(|| {
        let mut known: Vec<String> = pool
            .messages()
            .filter(|m| !m.is_map_entry() && !m.full_name().starts_with("google.protobuf."))
            .map(|m| m.full_name().to_string())
            .collect();
        known.sort();
        let hint = if known.is_empty() {
            String::new()
        } else {
            format!("; messages: {}", known.join(", "))
        };
        Failure::Usage(format!(
            "{} defines no message {name} (use the fully-qualified name){hint}",
            schema.display()
        ))
    })
}

/// Every warning and error, rendered with miette (colour only on a terminal).
pub(crate) fn render_all(d: &Diagnostics) -> String {
    let mut out = String::new();
    for w in d.warnings() {
        out.push_str(&render(w));
    }
    for e in d.errors() {
        out.push_str(&render(e));
    }
    out
}

/// One diagnostic with its source snippet.
pub(crate) fn render(d: &Diagnostic) -> String {
    let theme = if std::io::stderr().is_terminal() {
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
