//! Parse + check of a large generated schema set: bijoubuf-schema against protox.
//!
//! The set has 50 files of 40 messages each (2,000 messages), every file importing the two
//! before it and using their types, with nested enums, maps, oneofs, comments and
//! options, written to a temporary directory so both compilers read the same files.

use std::fmt::Write as _;
use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};

const FILES: usize = 50;
const MESSAGES_PER_FILE: usize = 40;

fn file_text(f: usize) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "// Generated benchmark file {f}.\nsyntax = \"proto3\";\npackage bench.f{f}.v1;\n"
    );
    for dep in f.saturating_sub(2)..f {
        let _ = writeln!(s, "import \"f{dep}.proto\";");
    }
    let _ = writeln!(s, "import \"google/protobuf/timestamp.proto\";\n");
    let _ = writeln!(s, "option java_package = \"com.example.bench.f{f}\";\n");
    for m in 0..MESSAGES_PER_FILE {
        let _ = writeln!(s, "// Message {m} of file {f}.\nmessage M{m} {{");
        let _ = writeln!(
            s,
            "  enum State {{ STATE_UNSPECIFIED = 0; STATE_ON = 1; STATE_OFF = 2; }}"
        );
        let _ = writeln!(
            s,
            "  uint64 id = 1; // the id\n  string name = 2;\n  repeated sint32 values = 3 [packed = true];"
        );
        let _ = writeln!(
            s,
            "  optional double score = 4;\n  State state = 5;\n  map<string, int64> counts = 6;"
        );
        let _ = writeln!(
            s,
            "  google.protobuf.Timestamp at = 7;\n  bytes blob = 8 [deprecated = true];"
        );
        let _ = writeln!(s, "  oneof pick {{ fixed32 small = 9; string text = 10; }}");
        if m > 0 {
            let _ = writeln!(s, "  M{} previous = 11;", m - 1);
        }
        if f > 0 {
            let _ = writeln!(
                s,
                "  bench.f{}.v1.M{m} from_dep = 12;\n  repeated bench.f{}.v1.M{m}.State states = 13;",
                f - 1,
                f - 1
            );
        }
        let _ = writeln!(
            s,
            "  message Inner {{ int32 a = 1; State s = 2; }}\n  Inner inner = 14;\n}}\n"
        );
    }
    s
}

fn write_set() -> (PathBuf, Vec<String>) {
    let dir = std::env::temp_dir().join(format!("bijoubuf-schema-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let names: Vec<String> = (0..FILES).map(|f| format!("f{f}.proto")).collect();
    for (f, name) in names.iter().enumerate() {
        std::fs::write(dir.join(name), file_text(f)).expect("write schema");
    }
    (dir, names)
}

fn ours(dir: &Path, names: &[String]) -> usize {
    let compiled = bijoubuf_schema::Compiler::new()
        .include(dir)
        .compile(names)
        .expect("bench schema compiles");
    compiled.schema.files().len()
}

fn theirs(dir: &Path, names: &[String]) -> usize {
    // protox serves google/protobuf/*.proto itself, as we do.
    let mut c = protox::Compiler::new([dir]).expect("protox include");
    c.open_files(names)
        .expect("protox compiles the bench schema");
    c.files().len()
}

fn bench(c: &mut Criterion) {
    let (dir, names) = write_set();
    // Both see the whole set before timing starts.
    assert_eq!(ours(&dir, &names), FILES + 1);
    assert!(theirs(&dir, &names) >= FILES);
    let mut group = c.benchmark_group("schema_parse_2000_messages");
    group.sample_size(10);
    group.bench_function("bijoubuf-schema", |b| {
        b.iter(|| black_box(ours(&dir, &names)))
    });
    group.bench_function("bijoubuf-schema+descriptors", |b| {
        b.iter(|| {
            let compiled = bijoubuf_schema::Compiler::new()
                .include(&dir)
                .compile(&names)
                .expect("compiles");
            black_box(compiled.schema.file_descriptor_set())
        })
    });
    group.bench_function("protox", |b| b.iter(|| black_box(theirs(&dir, &names))));
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench);
criterion_main!(benches);
