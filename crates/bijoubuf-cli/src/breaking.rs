//! `bijoubuf breaking`: what a schema change does to stored bytes and old readers, each
//! canonical and forward finding shown with bytes the other schema's decoder refuses or
//! misreads (bijoubuf-breaking).

use std::fmt::Write as _;
use std::io::{IsTerminal, Write as _};
use std::path::{Path, PathBuf};

use bijoubuf_breaking::counterexample::{Counterexample, Outcome, counterexample};
use bijoubuf_breaking::{Category, CheckError, Config, Finding, Old, Severity, Side};
use bijoubuf_reflect::DescriptorPool;
use bijoubuf_schema::Schema;
use clap::{Args, ValueEnum};
use miette::{GraphicalReportHandler, GraphicalTheme};
use prost::Message as _;

use crate::{Failure, LintArgs, schema};

/// `bijoubuf breaking` arguments.
#[derive(Debug, Args)]
pub(crate) struct BreakingArgs {
    /// The old schema: a .proto file, a directory of .proto files, or an encoded
    /// FileDescriptorSet (`protoc --descriptor_set_out`, `bijoubuf compile
    /// --descriptor-set-out`).
    #[arg(long, value_name = "OLD")]
    against: PathBuf,
    /// Import directory for the old .proto files (repeatable); defaults to OLD when it
    /// is a directory, else OLD's directory.
    #[arg(long, value_name = "DIR")]
    against_include: Vec<PathBuf>,
    /// Import directory for the new .proto files (repeatable); defaults to each file's
    /// directory.
    #[arg(short = 'I', long = "include", value_name = "DIR")]
    include: Vec<PathBuf>,
    /// Categories to report, comma-separated: canonical (bytes already written), forward
    /// (old readers), json, source.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "canonical,forward,json,source"
    )]
    categories: Vec<CategoryArg>,
    /// Output: miette reports for people, or one JSON array for CI.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Types pair by full name (package and nesting): a type that moved or took another
    /// name is a removal plus an addition. OLD=NEW pairs old message, enum or package
    /// OLD with new NEW of the same kind, full names both (repeatable); types nested or
    /// declared under OLD follow it.
    #[arg(long, value_name = "OLD=NEW", value_parser = parse_rename)]
    rename: Vec<(String, String)>,
    /// Exit 1 when a finding of this severity is reported: error (warnings alone exit
    /// 0), or warning (any finding). Only the categories asked for count.
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    fail_on: FailOn,
    /// The new .proto files, or a directory of them.
    #[arg(value_name = "NEW", required = true)]
    new: Vec<PathBuf>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum CategoryArg {
    Canonical,
    Forward,
    Json,
    Source,
}

impl From<CategoryArg> for Category {
    fn from(c: CategoryArg) -> Category {
        match c {
            CategoryArg::Canonical => Category::Canonical,
            CategoryArg::Forward => Category::Forward,
            CategoryArg::Json => Category::Json,
            CategoryArg::Source => Category::Source,
        }
    }
}

/// The least severity that makes `bijoubuf breaking` exit 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum FailOn {
    /// Errors only.
    Error,
    /// Errors and warnings.
    Warning,
}

impl FailOn {
    fn fails(self, f: &Finding) -> bool {
        match self {
            FailOn::Error => f.severity == Severity::Error,
            FailOn::Warning => true,
        }
    }
}

fn parse_rename(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((old, new)) if !old.trim().is_empty() && !new.trim().is_empty() => {
            Ok((old.trim().to_string(), new.trim().to_string()))
        }
        _ => Err(format!(
            "{s:?} is not OLD=NEW (two full names, e.g. a.v1.Order=b.v1.Order)"
        )),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Human,
    Json,
}

/// The old side once read.
enum OldSide {
    Schema(Schema),
    /// A descriptor set, and the names of the built-in files added to it (see
    /// `schema::add_well_known_imports`), which are looked up, not compared.
    Set(prost_types::FileDescriptorSet, Vec<String>),
}

pub(crate) fn run(args: &BreakingArgs) -> Result<(), Failure> {
    let old = read_old(args)?;
    let new = schema::compile(&args.include, &LintArgs::off(), &args.new)?.schema;
    let config = args
        .rename
        .iter()
        .fold(Config::new(), |c, (o, n)| c.rename(o, n));
    let (findings, old_pool) = match &old {
        OldSide::Schema(s) => (
            bijoubuf_breaking::check_with(Old::Schema(s), &new, &config),
            DescriptorPool::new(s),
        ),
        OldSide::Set(set, added) => (
            bijoubuf_breaking::check_with(
                Old::DescriptorSetWithImports {
                    set,
                    imports: added,
                },
                &new,
                &config,
            ),
            DescriptorPool::from_file_descriptor_set(set)
                .map_err(|e| schema::descriptor_set_failure(&args.against, set, e))?,
        ),
    };
    let findings = findings.map_err(|e| match (e, &old) {
        (CheckError::Descriptors(e), OldSide::Set(set, _)) => {
            schema::descriptor_set_failure(&args.against, set, e)
        }
        (CheckError::Descriptors(e), OldSide::Schema(_)) => {
            Failure::Usage(format!("{}: {e}", args.against.display()))
        }
        (e, _) => Failure::Usage(format!("--{e}")),
    })?;
    let categories: Vec<Category> = args.categories.iter().map(|&c| c.into()).collect();
    let findings = bijoubuf_breaking::filter(findings, &categories);
    let new_pool = DescriptorPool::new(&new);
    let shown: Vec<(Finding, Option<Counterexample>)> = findings
        .into_iter()
        .map(|f| {
            let c = counterexample(&f, &old_pool, &new_pool);
            (f, c)
        })
        .collect();
    let text = match args.format {
        Format::Human => human(&shown),
        Format::Json => json(&shown),
    };
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| Failure::Usage(format!("cannot write the output: {e}")))?;
    if shown.iter().any(|(f, _)| args.fail_on.fails(f)) {
        Err(Failure::Refused)
    } else {
        Ok(())
    }
}

fn read_old(args: &BreakingArgs) -> Result<OldSide, Failure> {
    let path = &args.against;
    let is_proto = path.is_dir() || path.extension().is_some_and(|e| e == "proto");
    if is_proto {
        let includes = if args.against_include.is_empty() {
            vec![if path.is_dir() {
                path.clone()
            } else {
                parent(path)
            }]
        } else {
            args.against_include.clone()
        };
        let paths = std::slice::from_ref(path);
        return Ok(OldSide::Schema(
            schema::compile(&includes, &LintArgs::off(), paths)?.schema,
        ));
    }
    let bytes = std::fs::read(path)
        .map_err(|e| Failure::Usage(format!("cannot read {}: {e}", path.display())))?;
    let mut set = prost_types::FileDescriptorSet::decode(bytes.as_slice()).map_err(|e| {
        Failure::Usage(format!(
            "{} is neither a .proto file, a directory, nor a FileDescriptorSet: {e}",
            path.display()
        ))
    })?;
    // As `verify --descriptor-set` reads it: a set written without its imports still
    // finds the well-known types.
    let added = schema::add_well_known_imports(&mut set);
    Ok(OldSide::Set(set, added))
}

fn parent(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

fn human(shown: &[(Finding, Option<Counterexample>)]) -> String {
    let theme = if std::io::stdout().is_terminal() {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(100);
    let mut s = String::new();
    for (f, c) in shown {
        if handler.render_report(&mut s, f).is_err() {
            let _ = writeln!(s, "{}", f.to_line());
        }
        if let Some(c) = c {
            let _ = writeln!(s, "  counterexample: {c}");
        }
        s.push('\n');
    }
    let count = |cat| shown.iter().filter(|(f, _)| f.category == cat).count();
    let errors = shown
        .iter()
        .filter(|(f, _)| f.severity == Severity::Error)
        .count();
    if shown.is_empty() {
        s.push_str("no breaking changes\n");
    } else {
        let _ = writeln!(
            s,
            "{} finding{} ({errors} error{}): {} canonical, {} forward, {} json, {} source",
            shown.len(),
            if shown.len() == 1 { "" } else { "s" },
            if errors == 1 { "" } else { "s" },
            count(Category::Canonical),
            count(Category::Forward),
            count(Category::Json),
            count(Category::Source),
        );
    }
    s
}

fn json(shown: &[(Finding, Option<Counterexample>)]) -> String {
    let items: Vec<serde_json::Value> = shown
        .iter()
        .map(|(f, c)| {
            let mut v = serde_json::json!({
                "rule": f.rule_id(),
                "category": f.category.name(),
                "severity": match f.severity { Severity::Error => "error", Severity::Warning => "warning" },
                "message": f.message,
                "file": f.file,
                "line": f.line,
                "column": f.column,
            });
            // The two message types compared: which old type the new one was paired with.
            if let Some(subject) = &f.subject {
                let (old, new) = match subject.writer {
                    Side::Old => (&subject.writer_message, &subject.reader_message),
                    Side::New => (&subject.reader_message, &subject.writer_message),
                };
                v["old_message"] = serde_json::json!(old);
                v["new_message"] = serde_json::json!(new);
            }
            if let Some(c) = c {
                let hex: Vec<String> = c.bytes.iter().map(|b| format!("{b:02x}")).collect();
                let outcome = match &c.outcome {
                    Outcome::Refused(e) => serde_json::json!({
                        "refused": e.code(), "offset": e.offset(), "path": e.path_string(),
                    }),
                    Outcome::Misread { written, read } => serde_json::json!({
                        "written": written, "read": read,
                    }),
                };
                v["counterexample"] = serde_json::json!({
                    "writer": c.writer.name(),
                    "message": c.message,
                    "bytes": hex.join(" "),
                    "outcome": outcome,
                    "text": c.to_string(),
                });
            }
            v
        })
        .collect();
    let mut s = serde_json::to_string_pretty(&items).unwrap_or_else(|_| "[]".into());
    s.push('\n');
    s
}
