//! Differential test: our `FileDescriptorSet` against protox's for the accepting corpus
//! and the built-in well-known types.
//!
//! Documented differences (normalized away below, each for a stated reason):
//! 1. Options. `prost_types` options messages cannot hold extension fields, so in the
//!    `prost_types` sets an options message that held only custom options is
//!    `Some(default)` on one side and `None` on the other; there `None` and
//!    `Some(default)` compare equal. Options are compared in full, custom options
//!    included, on the encoded sets (ours from `encode_file_descriptor_set`, protox's
//!    from its own), decoded with the extensions they use (`support/fds_diff.rs`).
//! 2. Source-code info is compared as a set: the same locations (path, span, comments),
//!    in any order, since we emit them grouped by kind rather than in source order.
//! 3. Tabs in spans. protoc advances the column to the next multiple of 8 at a tab; protox
//!    counts a tab as one column. We follow protoc, so on lines holding a tab only the
//!    line numbers of a span are compared.
//! 4. Float defaults. protoc writes `[default = 1.5e300]` as `"1.5e+300"` (`%.15g`, as we
//!    do); protox writes all 301 digits. Float and double defaults are compared as numbers.
//! 5. `rpc … {}`. protoc writes an empty `MethodOptions` for a method with a body and
//!    no options (checked against protoc 30.2 in `tests/protoc_options.rs`); protox writes
//!    none. An empty method options message on our side only is not a difference.
//! 6. `extensions 536000000 [...]`. protox 0.10 refuses options after a one-number
//!    extension range, which the built-in descriptor.proto has (twice, as protoc 36.2's
//!    does), so protox reads a copy where such a range is written `N to N`: the same
//!    descriptor, and on those lines only the line numbers of a span are compared.

mod support {
    pub(crate) mod fds_diff;
}

use std::path::{Path, PathBuf};

use prost_types::{FileDescriptorProto, FileDescriptorSet};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/pass")
}

fn builtin_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("protos")
}

fn proto_files(dir: &Path, base: &Path, out: &mut Vec<String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("corpus dir")
        .flatten()
        .collect();
    entries.sort_by_key(|e| e.path());
    for e in entries {
        let p = e.path();
        if p.is_dir() {
            proto_files(&p, base, out);
        } else if p.extension().is_some_and(|x| x == "proto") {
            let rel = p.strip_prefix(base).expect("under base");
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}

/// Options that are `Some(default)` become `None` (difference 1).
fn normalize(mut f: FileDescriptorProto) -> FileDescriptorProto {
    fn opt<T: Default + PartialEq>(o: &mut Option<T>) {
        if o.as_ref() == Some(&T::default()) {
            *o = None;
        }
    }
    fn field(f: &mut prost_types::FieldDescriptorProto) {
        opt(&mut f.options);
        use prost_types::field_descriptor_proto::Type;
        if matches!(f.r#type(), Type::Double | Type::Float)
            && let Some(d) = &f.default_value
            && let Ok(v) = d.parse::<f64>()
        {
            f.default_value = Some(format!("{v:e}"));
        }
    }
    fn msg(m: &mut prost_types::DescriptorProto) {
        opt(&mut m.options);
        m.field
            .iter_mut()
            .chain(m.extension.iter_mut())
            .for_each(field);
        m.oneof_decl.iter_mut().for_each(|o| opt(&mut o.options));
        m.extension_range
            .iter_mut()
            .for_each(|r| opt(&mut r.options));
        m.enum_type.iter_mut().for_each(en);
        m.nested_type.iter_mut().for_each(msg);
    }
    fn en(e: &mut prost_types::EnumDescriptorProto) {
        opt(&mut e.options);
        e.value.iter_mut().for_each(|v| opt(&mut v.options));
    }
    opt(&mut f.options);
    f.message_type.iter_mut().for_each(msg);
    f.enum_type.iter_mut().for_each(en);
    f.extension.iter_mut().for_each(field);
    for s in &mut f.service {
        opt(&mut s.options);
        s.method.iter_mut().for_each(|m| opt(&mut m.options));
    }
    f.source_code_info = None;
    f
}

fn ours(include: &Path, name: &str) -> FileDescriptorSet {
    let compiled = bijoubuf_schema::Compiler::new()
        .include(include)
        .compile(&[name])
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    compiled.schema.file_descriptor_set()
}

/// A copy of `include` in `dir` whose `name` protox can parse (difference 6).
fn for_protox(include: &Path, dir: &Path, name: &str) -> PathBuf {
    let text = std::fs::read_to_string(include.join(name)).expect("readable");
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let one_number = trimmed.strip_prefix("extensions ").and_then(|rest| {
            let (n, tail) = rest.split_once(' ')?;
            (n.bytes().all(|b| b.is_ascii_digit()) && tail.starts_with('[')).then_some(n)
        });
        match one_number {
            Some(n) => out.push_str(&line.replacen(n, &format!("{n} to {n}"), 1)),
            None => out.push_str(line),
        }
    }
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("temp dir");
    std::fs::write(&path, out).expect("write");
    dir.to_path_buf()
}

fn theirs(include: &Path, name: &str) -> FileDescriptorSet {
    let mut c = protox::Compiler::new([include]).expect("protox include");
    c.include_source_info(true);
    c.open_file(name)
        .unwrap_or_else(|e| panic!("protox {name}: {e}"));
    let mut set = c.file_descriptor_set();
    // protox lists only the opened file unless asked for imports.
    set.file.retain(|f| f.name.as_deref() == Some(name));
    set
}

/// Every location we emit is in protox's set, with the same span and comments.
fn check_source_info(
    name: &str,
    text: &str,
    their_text: &str,
    ours: &FileDescriptorProto,
    theirs: &FileDescriptorProto,
) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let their_lines: Vec<&str> = their_text.lines().collect();
    // Lines holding a tab (difference 3) or rewritten for protox (difference 6).
    let loose = |l: usize| {
        lines.get(l).is_some_and(|t| t.contains('\t')) || lines.get(l) != their_lines.get(l)
    };
    let has_tab = |span: &[i32]| {
        let last = if span.len() == 4 { span[2] } else { span[0] };
        (span[0]..=last).any(|l| loose(l as usize))
    };
    let same_span = |a: &[i32], b: &[i32]| {
        a == b
            || (has_tab(a) && a.len() == b.len() && a[0] == b[0] && (a.len() == 3 || a[2] == b[2]))
    };
    let mut problems = Vec::new();
    let mut our_paths: Vec<&Vec<i32>> = ours
        .source_code_info
        .iter()
        .flat_map(|i| &i.location)
        .map(|l| &l.path)
        .collect();
    let mut their_paths: Vec<&Vec<i32>> = theirs
        .source_code_info
        .iter()
        .flat_map(|i| &i.location)
        .map(|l| &l.path)
        .collect();
    our_paths.sort();
    their_paths.sort();
    if our_paths != their_paths {
        let missing: Vec<_> = their_paths
            .iter()
            .filter(|p| !our_paths.contains(p))
            .collect();
        let extra: Vec<_> = our_paths
            .iter()
            .filter(|p| !their_paths.contains(p))
            .collect();
        problems.push(format!(
            "{name}: location paths differ; missing {missing:?}, extra {extra:?}"
        ));
    }
    let their_locs = &theirs
        .source_code_info
        .as_ref()
        .expect("protox source info")
        .location;
    for loc in &ours
        .source_code_info
        .as_ref()
        .expect("our source info")
        .location
    {
        let matches: Vec<_> = their_locs.iter().filter(|l| l.path == loc.path).collect();
        if matches.is_empty() {
            problems.push(format!("{name}: protox has no location {:?}", loc.path));
            continue;
        }
        if !matches.iter().any(|l| same_span(&l.span, &loc.span)) {
            problems.push(format!(
                "{name}: span of {:?}: ours {:?}, protox {:?}",
                loc.path,
                loc.span,
                matches.iter().map(|l| &l.span).collect::<Vec<_>>()
            ));
        }
        let same = |l: &&prost_types::source_code_info::Location| {
            l.leading_comments == loc.leading_comments
                && l.trailing_comments == loc.trailing_comments
                && l.leading_detached_comments == loc.leading_detached_comments
        };
        if !matches.iter().any(same) {
            problems.push(format!(
                "{name}: comments of {:?}: ours {loc:?}, protox {:?}",
                loc.path, matches[0]
            ));
        }
    }
    problems
}

/// Options of the encoded sets, extensions included (difference 1).
fn compare_options(include: &Path, protox_include: &Path, name: &str, problems: &mut Vec<String>) {
    let ours = bijoubuf_schema::Compiler::new()
        .include(include)
        .compile(&[name])
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .schema
        .encode_file_descriptor_set();
    let mut c = protox::Compiler::new([protox_include]).expect("protox include");
    c.include_imports(true);
    c.open_file(name)
        .unwrap_or_else(|e| panic!("protox {name}: {e}"));
    let theirs = c.encode_file_descriptor_set();
    let report = support::fds_diff::diff(&ours, &theirs)
        .unwrap_or_else(|e| panic!("{name}: comparing encoded sets: {e}"));
    assert_eq!(report.files_compared, 1, "{name}: {report:?}");
    assert!(!report.only_in_reference.iter().any(|f| f == name));
    // Everything but options is compared on the prost_types sets, with normalization.
    problems.extend(
        report
            .differences
            .into_iter()
            .filter(|d| d.contains(".options"))
            .filter(|d| {
                !(d.contains(".method[") && d.ends_with(".options: ours {}, reference unset"))
            }),
    );
}

fn compare(include: &Path, name: &str, problems: &mut Vec<String>) {
    compare_with(include, include, name, problems);
}

/// `name` read by bijoubuf from `include` and by protox from `protox_include`.
fn compare_with(include: &Path, protox_include: &Path, name: &str, problems: &mut Vec<String>) {
    compare_options(include, protox_include, name, problems);
    let a = ours(include, name);
    let b = theirs(protox_include, name);
    assert_eq!(
        a.file.len(),
        1,
        "{name}: we returned {} files",
        a.file.len()
    );
    assert_eq!(
        b.file.len(),
        1,
        "{name}: protox returned {} files",
        b.file.len()
    );
    let text = std::fs::read_to_string(include.join(name)).expect("readable");
    let their_text = std::fs::read_to_string(protox_include.join(name)).expect("readable");
    problems.extend(check_source_info(
        name,
        &text,
        &their_text,
        &a.file[0],
        &b.file[0],
    ));
    let (a, b) = (normalize(a.file[0].clone()), normalize(b.file[0].clone()));
    if a != b {
        let (a, b) = (format!("{a:#?}"), format!("{b:#?}"));
        let line = a
            .lines()
            .zip(b.lines())
            .position(|(x, y)| x != y)
            .unwrap_or(0);
        let context = |s: &str| {
            s.lines()
                .skip(line.saturating_sub(8))
                .take(12)
                .collect::<Vec<_>>()
                .join("\n")
        };
        problems.push(format!(
            "{name}: descriptors differ\n--- ours\n{}\n--- protox\n{}",
            context(&a),
            context(&b)
        ));
    }
}

/// A generated multi-file set: cross-file references by relative, package-relative and
/// absolute names, nested types, maps, oneofs, proto3 `optional`, comments and options.
fn generated_set(dir: &Path, files: usize, messages: usize) -> Vec<String> {
    use std::fmt::Write as _;
    std::fs::create_dir_all(dir).expect("temp dir");
    let mut names = Vec::new();
    for f in 0..files {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "// File {f}.\n\nsyntax = \"proto3\";\n\npackage gen.f{f};\n"
        );
        if f > 0 {
            let _ = writeln!(s, "import \"gen/f{}.proto\"; // previous", f - 1);
        }
        let _ = writeln!(s, "import \"google/protobuf/duration.proto\";\n");
        for m in 0..messages {
            let _ = writeln!(
                s,
                "/* Message {m}\n * of file {f}. */\nmessage M{m} {{ // opens M{m}"
            );
            let _ = writeln!(
                s,
                "  enum Kind {{\n    KIND_UNSPECIFIED = 0;\n    KIND_A = 1; // a\n  }}\n"
            );
            let _ = writeln!(
                s,
                "  // The id.\n  uint64 id = 1;\n  Kind kind = 2 [deprecated = true];"
            );
            let _ = writeln!(
                s,
                "  map<string, Kind> kinds = 3;\n  optional bytes data = 4;\n  oneof o {{ string s = 5; M{m}.Kind k = 6; }}"
            );
            let _ = writeln!(
                s,
                "  google.protobuf.Duration d = 7;\n  repeated sfixed64 xs = 8;"
            );
            if m > 0 {
                let _ = writeln!(
                    s,
                    "  M{} prev = 9;\n  .gen.f{f}.M{}.Kind prev_kind = 10;",
                    m - 1,
                    m - 1
                );
            }
            if f > 0 {
                let _ = writeln!(
                    s,
                    "  gen.f{}.M{m} dep = 11;\n  f{}.M{m}.Kind dep_kind = 12;",
                    f - 1,
                    f - 1
                );
            }
            let _ = writeln!(
                s,
                "  message Inner {{ Kind k = 1; reserved 2, 4 to 6; reserved \"gone\"; }}\n  Inner inner = 13;\n}}\n"
            );
        }
        let _ = writeln!(
            s,
            "service S{f} {{\n  // Get.\n  rpc Get(M0) returns (stream M0);\n}}"
        );
        std::fs::create_dir_all(dir.join("gen")).expect("gen dir");
        let name = format!("gen/f{f}.proto");
        std::fs::write(dir.join(&name), s).expect("write");
        names.push(name);
    }
    names
}

#[test]
fn generated_set_matches_protox() {
    let dir = std::env::temp_dir().join(format!("bijoubuf-schema-diff-{}", std::process::id()));
    let names = generated_set(&dir, 6, 8);
    let mut problems = Vec::new();
    for name in &names {
        compare(&dir, name, &mut problems);
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        problems.is_empty(),
        "{} differences:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn corpus_matches_protox() {
    let dir = corpus();
    let mut names = Vec::new();
    proto_files(&dir, &dir, &mut names);
    assert!(names.len() >= 30, "corpus has only {} files", names.len());
    let mut problems = Vec::new();
    for name in &names {
        compare(&dir, name, &mut problems);
    }
    assert!(
        problems.is_empty(),
        "{} differences:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn well_known_types_match_protox() {
    let dir = builtin_dir();
    let mut names = Vec::new();
    proto_files(&dir, &dir, &mut names);
    assert_eq!(names.len(), 20);
    // The language feature files, plugin.proto and the JSON and C++ options are
    // compared with protoc 36.2's byte for byte in `protoc_sets.rs`: protox reads no
    // edition 2024 (`local`), and its own descriptor.proto lacks C#'s feature number.
    names.retain(|n| {
        !(n.ends_with("_features.proto")
            || n.ends_with("_options.proto")
            || n.starts_with("google/protobuf/compiler/"))
    });
    assert_eq!(names.len(), 11);
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("wkt-for-protox");
    let mut problems = Vec::new();
    for name in &names {
        compare_with(&dir, &for_protox(&dir, &tmp, name), name, &mut problems);
    }
    assert!(
        problems.is_empty(),
        "{} differences:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
