//! Finding files, parsing them in import order, and running the passes.

use std::collections::HashMap;
use std::sync::Arc;

use crate::ast::{self, ImportKind};
use crate::diagnostics::{Diagnostic, Diagnostics, Severity};
use crate::model::{Schema, TypePath};
use crate::span::{LineIndex, Span};
use crate::{Compiled, Compiler, SourceInfo, builtin, check, lints, options, parser, resolve};

/// A parsed file and where its imports went.
pub(crate) struct Loaded {
    pub(crate) name: String,
    pub(crate) source: SourceInfo,
    pub(crate) ast: ast::File,
    /// Per import statement: the index of the imported file (None if it failed).
    pub(crate) deps: Vec<Option<usize>>,
    pub(crate) requested: bool,
}

enum State {
    Loading,
    Done(usize),
    Failed,
}

struct Loader<'c> {
    compiler: &'c Compiler,
    files: Vec<Loaded>,
    state: HashMap<String, State>,
    stack: Vec<String>,
    errors: Vec<Diagnostic>,
}

impl Loader<'_> {
    /// Loads `name` and its imports; `from` is the importing file and the import's span.
    fn load(&mut self, name: &str, from: Option<(&str, Span)>) -> Option<usize> {
        match self.state.get(name) {
            Some(State::Done(i)) => return Some(*i),
            Some(State::Failed) => return None,
            Some(State::Loading) => {
                if let Some((importer, span)) = from {
                    let start = self.stack.iter().position(|n| n == name).unwrap_or(0);
                    let mut cycle: Vec<&str> =
                        self.stack[start..].iter().map(String::as_str).collect();
                    cycle.push(name);
                    let d = Diagnostic::error("import-cycle", importer, span, format!("import cycle: {}", cycle.join(" -> ")))
                        .help("files may not import each other in a loop; move the shared types into a third file");
                    self.errors.push(d);
                }
                return None;
            }
            None => {}
        }
        let Some(read) = self.compiler.read(name) else {
            let d = match from {
                Some((importer, span)) => Diagnostic::error(
                    "import-not-found",
                    importer,
                    span,
                    format!("file not found: {name:?}"),
                )
                .help("add the directory that holds it as an include path, or add it as a source"),
                None => Diagnostic::error(
                    "file-not-found",
                    name,
                    Span::default(),
                    format!("file not found: {name:?}"),
                ),
            };
            self.errors.push(d);
            self.state.insert(name.to_string(), State::Failed);
            return None;
        };
        let text = match read {
            Ok(text) => text,
            Err((lossy, at)) => {
                let d = Diagnostic::error("invalid-utf8", name, Span::new(at, at + 1), "the file is not valid UTF-8")
                    .help("protobuf schema files are UTF-8 text; write other bytes as escapes inside strings");
                self.errors.push(d);
                lossy
            }
        };
        self.state.insert(name.to_string(), State::Loading);
        self.stack.push(name.to_string());
        let (ast, mut errors) = parser::parse(name, &text);
        self.errors.append(&mut errors);
        let mut deps = Vec::with_capacity(ast.imports.len());
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for import in &ast.imports {
            if let Some(first) = seen.insert(import.path.as_str(), import.path_span) {
                let d = Diagnostic::error(
                    "duplicate-import",
                    name,
                    import.path_span,
                    format!("{:?} is imported twice", import.path),
                )
                .label(first, "first imported here");
                self.errors.push(d);
                deps.push(None);
                continue;
            }
            deps.push(self.load(&import.path, Some((name, import.path_span))));
        }
        self.stack.pop();
        let source = SourceInfo {
            lines: Arc::new(LineIndex::new(&text)),
            text: Arc::new(miette::NamedSource::new(name, text)),
        };
        let index = self.files.len();
        self.files.push(Loaded {
            name: name.to_string(),
            source,
            ast,
            deps,
            requested: false,
        });
        self.state.insert(name.to_string(), State::Done(index));
        Some(index)
    }
}

/// Files visible from each file, sorted: itself, its imports, and what those re-export
/// with `import public` (transitively).
fn visibility(files: &[Loaded]) -> Vec<Vec<usize>> {
    let n = files.len();
    // public_closure[i]: files reachable from i through public imports only (i included).
    // Files are in dependency order, so a file's imports are already closed.
    let mut public_closure: Vec<Vec<usize>> = Vec::with_capacity(n);
    for (i, file) in files.iter().enumerate() {
        let mut set = vec![i];
        for (imp, dep) in file.ast.imports.iter().zip(&file.deps) {
            if let (ImportKind::Public, Some(d)) = (imp.kind, dep) {
                set.extend_from_slice(&public_closure[*d]);
            }
        }
        set.sort_unstable();
        set.dedup();
        public_closure.push(set);
    }
    files
        .iter()
        .enumerate()
        .map(|(i, file)| {
            let mut vis = vec![i];
            for d in file.deps.iter().flatten() {
                vis.extend_from_slice(&public_closure[*d]);
            }
            vis.sort_unstable();
            vis.dedup();
            vis
        })
        .collect()
}

pub(crate) fn compile(compiler: &Compiler, names: &[&str]) -> Result<Compiled, Diagnostics> {
    let mut loader = Loader {
        compiler,
        files: Vec::new(),
        state: HashMap::new(),
        stack: Vec::new(),
        errors: Vec::new(),
    };
    let mut requested = Vec::new();
    for name in names {
        if let Some(i) = loader.load(name, None) {
            requested.push(i);
        }
    }
    // Standard options are checked against descriptor.proto even when no file imports it;
    // most files without options do not need it parsed.
    if loader.files.iter().any(|f| has_options(&f.ast)) {
        loader.load(builtin::DESCRIPTOR, None);
    }
    let mut files = loader.files;
    let mut errors = loader.errors;
    for i in requested {
        files[i].requested = true;
    }
    let visible = visibility(&files);
    let (symbols, mut errs) = resolve::Symbols::build(&files, visible);
    errors.append(&mut errs);
    let (mut models, mut errs) = check::build(&files, &symbols);
    errors.append(&mut errs);
    errors.append(&mut options::interpret(&files, &mut models, &symbols));
    errors.append(&mut options::support::check(&files, &models));
    // The checker reports a few protoc warnings beside its errors; denied lints are
    // errors.
    errors.extend(lints::run(&compiler.lints, &files, &models, &symbols));
    let (mut warnings, errs): (Vec<_>, Vec<_>) = errors
        .into_iter()
        .partition(|d| d.severity() == Severity::Warning);
    errors = errs;
    // descriptor.proto was loaded for option checking; keep only what the requested
    // files reach through their imports.
    let mut reached = vec![false; files.len()];
    for i in (0..files.len()).rev() {
        if files[i].requested || reached[i] {
            reached[i] = true;
            for d in files[i].deps.iter().flatten() {
                reached[*d] = true;
            }
        }
    }
    let models: Vec<_> = models
        .into_iter()
        .zip(reached)
        .filter(|(_, r)| *r)
        .map(|(m, _)| m)
        .collect();
    let mut types = HashMap::new();
    for (fi, f) in models.iter().enumerate() {
        index_types(&mut types, fi, &mut Vec::new(), &f.messages, &f.enums);
    }
    let schema = Schema {
        files: models,
        types,
    };

    let sources: HashMap<&str, &SourceInfo> =
        files.iter().map(|f| (f.name.as_str(), &f.source)).collect();
    for d in errors.iter_mut().chain(warnings.iter_mut()) {
        if let Some(s) = sources.get(d.file()) {
            d.locate(s);
        }
    }
    let order: HashMap<&str, usize> = files
        .iter()
        .enumerate()
        .map(|(i, f)| (f.name.as_str(), i))
        .collect();
    let key = |d: &Diagnostic| {
        (
            order.get(d.file()).copied().unwrap_or(usize::MAX),
            d.span().start,
        )
    };
    errors.sort_by_key(key);
    warnings.sort_by_key(key);
    errors.dedup_by(|a, b| {
        a.file() == b.file() && a.span() == b.span() && a.message() == b.message()
    });
    debug_assert!(errors.iter().all(|d| d.severity() == Severity::Error));
    // The cap keeps the first errors, then the first warnings, in file and source order.
    // A refused schema always keeps at least one error.
    let mut omitted = 0;
    if let Some(cap) = compiler.max_diagnostics {
        let keep = if errors.is_empty() { 0 } else { cap.max(1) };
        omitted += errors.len().saturating_sub(keep);
        errors.truncate(keep);
        let room = cap.saturating_sub(errors.len());
        omitted += warnings.len().saturating_sub(room);
        warnings.truncate(room);
    }
    if errors.is_empty() {
        Ok(Compiled {
            schema,
            warnings,
            omitted,
        })
    } else {
        Err(Diagnostics::new(errors, warnings, omitted))
    }
}

/// Whether any element of the file sets an option (`[default]` and `[json_name]` count).
fn has_options(file: &ast::File) -> bool {
    fn message(m: &ast::Message) -> bool {
        !m.options.is_empty()
            || m.fields.iter().any(|f| !f.options.is_empty())
            || m.oneofs.iter().any(|o| !o.options.is_empty())
            || m.extension_ranges.iter().any(|r| !r.options.is_empty())
            || m.messages.iter().any(message)
            || m.enums.iter().any(enumeration)
            || m.extends
                .iter()
                .any(|x| x.fields.iter().any(|f| !f.options.is_empty()))
    }
    fn enumeration(e: &ast::Enum) -> bool {
        !e.options.is_empty() || e.values.iter().any(|v| !v.options.is_empty())
    }
    !file.options.is_empty()
        || file.messages.iter().any(message)
        || file.enums.iter().any(enumeration)
        || file
            .extends
            .iter()
            .any(|x| x.fields.iter().any(|f| !f.options.is_empty()))
        || file
            .services
            .iter()
            .any(|s| !s.options.is_empty() || s.methods.iter().any(|m| !m.options.is_empty()))
}

fn index_types(
    types: &mut HashMap<String, TypePath>,
    file: usize,
    path: &mut Vec<usize>,
    messages: &[crate::MessageDef],
    enums: &[crate::EnumDef],
) {
    for (i, e) in enums.iter().enumerate() {
        types.insert(
            e.full_name.clone(),
            TypePath {
                file,
                messages: path.clone(),
                enumeration: Some(i),
            },
        );
    }
    for (i, m) in messages.iter().enumerate() {
        path.push(i);
        types.insert(
            m.full_name.clone(),
            TypePath {
                file,
                messages: path.clone(),
                enumeration: None,
            },
        );
        index_types(types, file, path, &m.messages, &m.enums);
        path.pop();
    }
}
