//! Compiling the schema files named on the command line.

use std::io::IsTerminal;
use std::path::{Component, Path, PathBuf};

use bijoubuf_reflect::{DescriptorPool, MessageDescriptor};
use bijoubuf_schema::{Compiled, Compiler, LintLevel, Lints};

use crate::{Failure, LintArgs};

/// The include directories and the import names of the files `paths` name.
///
/// A directory stands for every `.proto` file below it, in sorted order, as buf reads a
/// module's directory. With no `-I`, each directory named is an include directory, and
/// each file's own directory. A file is named by its path relative to the first include
/// directory that contains it; a relative path that names no file from the working
/// directory is looked up in the include directories, as protoc does, and a built-in
/// file's name (`google/protobuf/compiler/plugin.proto`) that names no file is taken as
/// it is.
pub(crate) fn resolve(
    includes: &[PathBuf],
    paths: &[PathBuf],
) -> Result<(Vec<PathBuf>, Vec<String>), Failure> {
    let mut dirs: Vec<PathBuf> = includes.to_vec();
    if dirs.is_empty() {
        for f in paths.iter().filter(|f| !builtin_name(f)) {
            let dir = match f.parent() {
                _ if f.is_dir() => f.clone(),
                Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                _ => PathBuf::from("."),
            };
            if !dirs.contains(&dir) {
                dirs.push(dir);
            }
        }
    }
    let files = expand_directories(paths)?;
    let canon_dirs: Vec<(PathBuf, PathBuf)> = dirs
        .iter()
        .map(|d| {
            d.canonicalize()
                .map(|c| (d.clone(), c))
                .map_err(|e| Failure::Usage(format!("include directory {}: {e}", d.display())))
        })
        .collect::<Result<_, _>>()?;
    let mut names = Vec::new();
    for f in &files {
        // As protoc does: a file it bundles is found without an include directory
        // (`google/protobuf/compiler/plugin.proto`), so its types can be generated.
        if builtin_name(f) {
            names.push(import_name(f));
            continue;
        }
        // As protoc does: a relative name that is not a file from the working directory
        // is looked up in the include directories (`-I protos shop/v1/order.proto`).
        let found = if f.is_relative() && !f.exists() {
            dirs.iter().map(|d| d.join(f)).find(|p| p.is_file())
        } else {
            None
        };
        let f = found.as_ref().unwrap_or(f);
        let canon = f
            .canonicalize()
            .map_err(|e| Failure::Usage(format!("cannot read {}: {e}", f.display())))?;
        // As spelled first: a file reached through a symbolic link below an include
        // directory (`-I root root/link/a.proto`, `link` pointing elsewhere) is named by
        // the path written, which its resolved path is not under, as protoc names it.
        // The name is taken only if the include directory and it lead to this very file
        // (`..` folded as written can name another one when it follows a link). Then
        // resolved, so that two spellings of one directory still meet.
        let spelled = lexical(f);
        let name = dirs
            .iter()
            .find_map(|d| {
                let rest = spelled.strip_prefix(lexical(d)).ok()?;
                let same = d.join(rest).canonicalize().is_ok_and(|c| c == canon);
                same.then(|| rest.to_path_buf())
            })
            .or_else(|| {
                canon_dirs
                    .iter()
                    .find_map(|(_, d)| canon.strip_prefix(d).ok().map(Path::to_path_buf))
            });
        // As protoc refuses it: an include directory earlier in the list holds another
        // file of the same name, which imports of that name would read
        // (`-I a -I b b/x.proto` with `a/x.proto` there too).
        if let Some(rest) = &name
            && let Some(first) = dirs.iter().map(|d| d.join(rest)).find(|p| p.is_file())
            && first.canonicalize().is_ok_and(|c| c != canon)
        {
            return Err(Failure::Usage(format!(
                "{} is shadowed in the include directories by {}, a different file of the same \
                 name ({}), as protoc refuses it",
                f.display(),
                first.display(),
                import_name(rest)
            )));
        }
        let name = name
            .or_else(|| read_as_import_name(&dirs, f))
            .as_deref()
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

/// `paths` with each directory replaced by the `.proto` files below it (sorted); a
/// directory without any is refused, naming it.
fn expand_directories(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Failure> {
    let mut files = Vec::new();
    for p in paths {
        if !p.is_dir() {
            files.push(p.clone());
            continue;
        }
        let before = files.len();
        walk(p, &mut files)?;
        if files.len() == before {
            return Err(Failure::Usage(format!(
                "no .proto files in the directory {}: name .proto files, or a directory \
                 with .proto files below it",
                p.display()
            )));
        }
        files[before..].sort();
    }
    Ok(files)
}

/// The `.proto` files below `dir`, in no particular order. Links to directories are not
/// followed, so that a link to a parent cannot make the walk endless. Directories below
/// `dir` that hold no schema of the project are not entered (see [`skipped`]); `dir`
/// itself is always read, so naming such a directory reads it.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), Failure> {
    let cannot = |e: std::io::Error| Failure::Usage(format!("cannot read {}: {e}", dir.display()));
    for entry in std::fs::read_dir(dir).map_err(cannot)? {
        let entry = entry.map_err(cannot)?;
        let path = entry.path();
        if entry.file_type().map_err(cannot)?.is_dir() {
            if !skipped(&entry.file_name()) {
                walk(&path, out)?;
            }
        } else if path.extension().is_some_and(|e| e == "proto") && path.is_file() {
            out.push(path);
        }
    }
    Ok(())
}

/// Whether a directory found below a named one is left out of the walk: hidden ones
/// (`.git`, `.cache`) and `node_modules`, where package managers put other projects'
/// copies of schemas (`google-proto-files` holds thousands), which would be compiled
/// as the project's own and clash with its imports.
fn skipped(name: &std::ffi::OsStr) -> bool {
    name == "node_modules" || name.as_encoded_bytes().first() == Some(&b'.')
}

/// As protoc does for a relative path to a file outside every include directory: the
/// path read as an import name, when an include directory holds a file of that name
/// (`-I vendor api/a.proto`, with `api/a.proto` both here and in `vendor`: the one in
/// `vendor` is compiled). A note says which file that is, since it is not the one the
/// path names from the working directory. Names with `.` or `..` are no import names.
fn read_as_import_name(dirs: &[PathBuf], f: &Path) -> Option<PathBuf> {
    // `components` drops `//` and an inner `.`, which protoc refuses in an import name.
    let written = f.to_string_lossy();
    if !f.is_relative()
        || !f.components().all(|c| matches!(c, Component::Normal(_)))
        || written.contains("//")
        || written.contains("/./")
        || written.ends_with("/.")
    {
        return None;
    }
    let found = dirs.iter().map(|d| d.join(f)).find(|p| p.is_file())?;
    sayln!(
        "note: {} is not inside any include directory; read as the import name, it is {} (as protoc reads it)",
        f.display(),
        found.display()
    );
    Some(f.to_path_buf())
}

/// Whether `f` names a built-in file (`google/protobuf/descriptor.proto`) and no file
/// from the working directory. A file of that name in an include directory still wins:
/// the compiler reads include directories before its built-in files.
fn builtin_name(f: &Path) -> bool {
    f.is_relative() && !f.exists() && bijoubuf_schema::is_builtin(&import_name(f))
}

/// `p` made absolute from the working directory, with `.` and `..` folded away as
/// written, without following symbolic links.
fn lexical(p: &Path) -> PathBuf {
    let abs = std::env::current_dir()
        .map(|cwd| cwd.join(p))
        .unwrap_or_else(|_| p.to_path_buf());
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
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
        say!("{}", crate::render::refusal(&d, color()));
        Failure::Refused
    })
}

/// Every warning of a successful compilation, then how many the cap left out.
pub(crate) fn print_warnings(compiled: &Compiled) {
    for w in &compiled.warnings {
        say!("{}", crate::render::diagnostic(w, color()));
    }
    if compiled.omitted > 0 {
        sayln!(
            "({} more warnings not shown: --max-diagnostics)",
            compiled.omitted
        );
    }
}

/// Compile the files of `--schema` (or read the `--descriptor-set`) and find message
/// `name`. With both, the descriptor set's types come first and the schema files may not
/// redefine them.
pub(crate) fn message(
    includes: &[PathBuf],
    schemas: &[PathBuf],
    descriptor_set: Option<&Path>,
    name: &str,
) -> Result<MessageDescriptor, Failure> {
    let pool = match descriptor_set {
        None => DescriptorPool::new(&compile(includes, &LintArgs::off(), schemas)?.schema),
        Some(path) => {
            let bytes = std::fs::read(path)
                .map_err(|e| Failure::Usage(format!("cannot read {}: {e}", path.display())))?;
            let mut set: prost_types::FileDescriptorSet = prost::Message::decode(bytes.as_slice())
                .map_err(|e| {
                    Failure::Usage(format!(
                        "{} is not a FileDescriptorSet: {e}",
                        path.display()
                    ))
                })?;
            if !schemas.is_empty() {
                let compiled = compile(includes, &LintArgs::off(), schemas)?;
                for f in compiled.schema.file_descriptor_set_with_imports().file {
                    if !set.file.iter().any(|g| g.name == f.name) {
                        set.file.push(f);
                    }
                }
            }
            add_well_known_imports(&mut set);
            DescriptorPool::from_file_descriptor_set(&set)
                .map_err(|e| descriptor_set_failure(path, &set, e))?
        }
    };
    let source = match (schemas, descriptor_set) {
        ([one], None) => one.display().to_string(),
        (_, Some(set)) if schemas.is_empty() => set.display().to_string(),
        _ => "the schema".to_string(),
    };
    pool.message(name).ok_or_else(|| {
        if pool.enumeration(name).is_some() {
            return Failure::Usage(format!(
                "{source} defines {name} as an enum, not a message: --type names the message \
                 type of the bytes"
            ));
        }
        let mut known: Vec<String> = pool
            .messages()
            .filter(|m| !m.is_map_entry() && !m.full_name().starts_with("google.protobuf."))
            .map(|m| m.full_name().to_string())
            .collect();
        known.sort();
        let refs: Vec<&str> = known.iter().map(String::as_str).collect();
        let hint = if let Some(close) = bijoubuf_schema::similar(name, &refs) {
            format!("; did you mean {close}?")
        } else if known.is_empty() {
            String::new()
        } else {
            format!("; messages: {}", known.join(", "))
        };
        Failure::Usage(format!(
            "{source} defines no message {name} (use the fully-qualified name){hint}"
        ))
    })
}

/// A set written without its imports (`protoc --descriptor_set_out` without
/// `--include_imports`, `bijoubuf compile --descriptor-set-out`) still names the
/// well-known types; the compiler's built-in copies of those files are added, first.
/// Returns the names of the files added.
pub(crate) fn add_well_known_imports(set: &mut prost_types::FileDescriptorSet) -> Vec<String> {
    let missing: Vec<String> = set
        .file
        .iter()
        .flat_map(|f| f.dependency.iter())
        .filter(|d| d.starts_with("google/protobuf/"))
        .filter(|d| !set.file.iter().any(|f| f.name() == d.as_str()))
        .cloned()
        .collect();
    if missing.is_empty() {
        return Vec::new();
    }
    let Ok(compiled) = Compiler::new().compile(&missing) else {
        return Vec::new();
    };
    let mut files = compiled.schema.file_descriptor_set_with_imports().file;
    files.retain(|f| !set.file.iter().any(|g| g.name == f.name));
    let added = files.iter().map(|f| f.name().to_string()).collect();
    files.append(&mut set.file);
    set.file = files;
    added
}

/// The usage error for a descriptor set read from `path` that cannot be used; when
/// files of the set import files it lacks (other than the built-in ones, added by
/// [`add_well_known_imports`]), a hint says to write it with its imports.
pub(crate) fn descriptor_set_failure(
    path: &Path,
    set: &prost_types::FileDescriptorSet,
    e: impl std::fmt::Display,
) -> Failure {
    let mut missing: Vec<&str> = set
        .file
        .iter()
        .flat_map(|f| f.dependency.iter())
        .filter(|d| !set.file.iter().any(|f| f.name() == d.as_str()))
        .map(String::as_str)
        .collect();
    missing.sort_unstable();
    missing.dedup();
    let hint = if missing.is_empty() {
        String::new()
    } else {
        format!(
            "; the set lacks the imported file{} {}: write it with its imports \
             (`bijoubuf compile --include-imports`, protoc's `--include_imports`)",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", ")
        )
    };
    Failure::Usage(format!("{}: {e}{hint}", path.display()))
}

/// Whether reports are in colour: only on a terminal.
fn color() -> bool {
    std::io::stderr().is_terminal()
}
