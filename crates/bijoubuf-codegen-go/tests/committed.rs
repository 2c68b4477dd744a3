//! The Go code committed in the module (`go/wkt`, the well-known types,
//! `go/internal/schemas`, the conformance schemas, `go/bench/internal/bb`, the
//! benchmark datasets' schemas, `go/internal/wide`, a large message's passes in parts and
//! whole, `go/internal/defaults`, proto2 defaults for the getters, and the services of `go/grpc`'s tests and benchmark) is
//! exactly what the generator writes today, so it cannot go stale.
//! `BIJOUBUF_GO_BLESS=1 cargo test -p bijoubuf-codegen-go --test committed` rewrites it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use bijoubuf_codegen_go::{GeneratedFile, Options, generate};
use bijoubuf_schema::Compiler;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The files generated into `go/wkt`: every built-in `google.protobuf` file, so that
/// whatever type of that package a schema uses is there (`descriptor.proto`'s too:
/// schemas with custom options or for protoc plugins use them).
pub const WKT_FILES: &[&str] = &[
    "google/protobuf/any.proto",
    "google/protobuf/api.proto",
    "google/protobuf/descriptor.proto",
    "google/protobuf/duration.proto",
    "google/protobuf/empty.proto",
    "google/protobuf/field_mask.proto",
    "google/protobuf/source_context.proto",
    "google/protobuf/struct.proto",
    "google/protobuf/timestamp.proto",
    "google/protobuf/type.proto",
    "google/protobuf/wrappers.proto",
];

fn wkt() -> Vec<GeneratedFile> {
    let compiled = Compiler::new()
        .compile(WKT_FILES)
        .unwrap_or_else(|e| panic!("the well-known types do not compile: {e}"));
    let mut options = Options::new();
    options
        .module("github.com/bijoubuf/bijoubuf/go/wkt")
        .package_dir("google.protobuf", "")
        .well_known_types(true);
    generate(&compiled.schema, &options)
}

/// Every `.proto` under `conformance/schemas`, relative to it, sorted.
fn conformance_files() -> Vec<String> {
    let root = repo().join("conformance/schemas");
    let mut out = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read schemas dir") {
            let path = entry.expect("dir entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "proto") {
                let rel = path.strip_prefix(&root).expect("under root");
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out.sort();
    out
}

fn conformance() -> Vec<GeneratedFile> {
    let files = conformance_files();
    let compiled = Compiler::new()
        .include(repo().join("conformance/schemas"))
        .compile(&files)
        .unwrap_or_else(|e| panic!("the conformance schemas do not compile: {e}"));
    let mut options = Options::new();
    options.module("github.com/bijoubuf/bijoubuf/go/internal/schemas");
    generate(&compiled.schema, &options)
}

/// Compare (or, blessing, write) `files` against directory `dir`, which must hold no
/// other generated file.
fn check(dir: &Path, files: &[GeneratedFile]) {
    let bless = std::env::var_os("BIJOUBUF_GO_BLESS").is_some();
    let mut want: BTreeMap<PathBuf, &str> = BTreeMap::new();
    for f in files {
        want.insert(dir.join(&f.name), &f.content);
    }
    // Generated files present on disk but no longer generated.
    let mut stack = vec![dir.to_path_buf()];
    let mut stale = Vec::new();
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("dir entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.to_string_lossy().ends_with(".bb.go") && !want.contains_key(&path) {
                stale.push(path);
            }
        }
    }
    let mut wrong = Vec::new();
    for (path, content) in &want {
        let have = std::fs::read_to_string(path).unwrap_or_default();
        if have != *content {
            if bless {
                std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
                std::fs::write(path, content).expect("write");
            } else {
                wrong.push(path.display().to_string());
            }
        }
    }
    if bless {
        for p in &stale {
            std::fs::remove_file(p).expect("remove stale");
        }
        return;
    }
    assert!(
        wrong.is_empty() && stale.is_empty(),
        "generated Go differs from the committed files {wrong:?} (stale: {stale:?}); \
         rerun with BIJOUBUF_GO_BLESS=1 and commit"
    );
}

#[test]
fn well_known_types_are_fresh() {
    check(&repo().join("go/wkt"), &wkt());
}

#[test]
fn conformance_schemas_are_fresh() {
    check(&repo().join("go/internal/schemas"), &conformance());
}

/// `go/internal/wide/wide.proto`'s messages: Wide, large enough that its decoder and
/// encode passes are written in parts (`parts/`), and the same passes as one function
/// each (`whole/`); Table, whose scalar fields are read through a field table in
/// `parts/` and by the switch's cases in `whole/`. The package's tests check that the two
/// shapes do the same.
#[test]
fn wide_message_is_fresh() {
    let root = repo().join("go/internal/wide");
    let compiled = Compiler::new()
        .include(&root)
        .compile(&["wide.proto"])
        .unwrap_or_else(|e| panic!("wide.proto does not compile: {e}"));
    for (dir, parts) in [("parts", true), ("whole", false)] {
        let mut options = Options::new();
        options
            .module(format!(
                "github.com/bijoubuf/bijoubuf/go/internal/wide/{dir}"
            ))
            .package_dir("wide", "")
            .passes_in_parts(parts)
            .field_tables(parts);
        let files = generate(&compiled.schema, &options);
        for pass in ["Decode", "Size", "Write"] {
            let split = files.iter().any(|f| {
                f.content
                    .contains(&format!("func (m *Wide) bijoubuf{pass}2("))
            });
            assert_eq!(split, parts, "{dir}: Wide's {pass} pass in parts: {split}");
        }
        // Table's scalar fields go through its field table in parts/ only; Wide, whose
        // other fields need a decode in parts, keeps its cases.
        for (message, expected) in [("Table", parts), ("Wide", false)] {
            let table = files.iter().any(|f| {
                f.content
                    .contains(&format!("var bijoubufTable{message} = "))
            });
            assert_eq!(table, expected, "{dir}: {message}'s field table: {table}");
        }
        check(&root.join(dir), &files);
    }
}

/// `go/internal/defaults/defaults.proto`: proto2 defaults of every kind, a oneof and
/// colliding names, whose getters the package's tests call.
#[test]
fn defaults_schema_is_fresh() {
    let root = repo().join("go/internal/defaults");
    let compiled = Compiler::new()
        .include(&root)
        .compile(&["defaults.proto"])
        .unwrap_or_else(|e| panic!("defaults.proto does not compile: {e}"));
    let mut options = Options::new();
    options
        .module("github.com/bijoubuf/bijoubuf/go/internal/defaults")
        .package_dir("defaults", "");
    check(&root, &generate(&compiled.schema, &options));
}

#[test]
fn benchmark_schemas_are_fresh() {
    let root = repo().join("benches/schemas");
    let compiled = Compiler::new()
        .include(&root)
        .compile(&[
            "telemetry.proto",
            "cas.proto",
            "google_message1_proto3.proto",
            "opentelemetry/proto/trace/v1/trace.proto",
            "opentelemetry/proto/metrics/v1/metrics.proto",
            "opentelemetry/proto/logs/v1/logs.proto",
            "report.proto",
        ])
        .unwrap_or_else(|e| panic!("the benchmark schemas do not compile: {e}"));
    let mut options = Options::new();
    options.module("github.com/bijoubuf/bijoubuf/go/bench/internal/bb");
    check(
        &repo().join("go/bench/internal/bb"),
        &generate(&compiled.schema, &options),
    );
}

/// The order service the codec package's tests serve and call (`go/grpc`, its own
/// module): messages and services of `schemas/examples/orders.proto`.
#[test]
fn grpc_test_service_is_fresh() {
    let compiled = Compiler::new()
        .include(repo().join("schemas/examples"))
        .compile(&["orders.proto"])
        .unwrap_or_else(|e| panic!("orders.proto does not compile: {e}"));
    let mut options = Options::new();
    options
        .module("github.com/bijoubuf/bijoubuf/go/grpc/internal/gen")
        .package_dir("examples.orders.v1", "orders")
        .services(true);
    check(
        &repo().join("go/grpc/internal/gen"),
        &generate(&compiled.schema, &options),
    );
}

/// The trace collector the codec package's benchmark serves and calls (`go/grpc`):
/// messages and service of `benches/schemas/trace_export.proto`, with the OpenTelemetry
/// messages it imports.
#[test]
fn grpc_benchmark_service_is_fresh() {
    let compiled = Compiler::new()
        .include(repo().join("benches/schemas"))
        .compile(&["trace_export.proto"])
        .unwrap_or_else(|e| panic!("trace_export.proto does not compile: {e}"));
    let mut options = Options::new();
    options
        .module("github.com/bijoubuf/bijoubuf/go/grpc/internal/bb")
        .package_dir("bench.traceexport.v1", "traceexport")
        .services(true);
    check(
        &repo().join("go/grpc/internal/bb"),
        &generate(&compiled.schema, &options),
    );
}
