//! `compile_fds`: a descriptor set generates the same code as the schema files it was
//! made from, doc comments included when the set has source-code info.

use std::path::{Path, PathBuf};

use bijoubuf_build::Config;

const SCHEMAS: &[&str] = &[
    "kitchen/sink.proto",
    "kitchen/extra.proto",
    "legacy/legacy.proto",
    "keywords/keywords.proto",
    "example/v1/envelope.proto",
];

fn schemas_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas")
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn config(dir: &Path) -> Config {
    let mut c = Config::new();
    c.out_dir(dir).preserve_unknown_fields([".kitchen.Tree"]);
    c
}

/// Generated files by name, without the header line (it names the source files).
fn outputs(paths: &[PathBuf]) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = paths
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            let body = text.split_once('\n').map_or("", |(_, b)| b).to_string();
            (p.file_name().unwrap().to_string_lossy().into_owned(), body)
        })
        .collect();
    v.sort();
    v
}

/// The descriptor set of `files` below `dir` as protoc writes it with
/// `--include_imports --include_source_info`.
fn encoded_set(dir: &Path, files: &[&str]) -> Vec<u8> {
    let compiled = bijoubuf_schema::Compiler::new()
        .include(dir)
        .compile(files)
        .unwrap();
    compiled
        .schema
        .encode_descriptor_set(bijoubuf_build::DescriptorSetOptions {
            include_imports: true,
            include_source_info: true,
            retain_options: false,
        })
}

#[test]
fn descriptor_sets_from_our_compiler_and_from_protox_match_the_sources() {
    let from_source = config(&scratch("fds-source"))
        .compile_protos(SCHEMAS, &[schemas_dir()])
        .unwrap();
    let want = outputs(&from_source);
    assert_eq!(
        want.len(),
        5,
        "{:?}",
        want.iter().map(|w| &w.0).collect::<Vec<_>>()
    );

    // Our own descriptor set, as protoc writes it with `--include_imports
    // --include_source_info`.
    let bytes = encoded_set(&schemas_dir(), SCHEMAS);
    let fds = prost::Message::decode(bytes.as_slice()).unwrap();
    let ours = config(&scratch("fds-ours")).compile_fds(fds).unwrap();
    // The set also holds google/protobuf/timestamp.proto, which maps to the runtime.
    assert_eq!(outputs(&ours), want);

    // An independent producer.
    let fds = protox::compile(SCHEMAS, [schemas_dir()]).unwrap();
    let theirs = config(&scratch("fds-protox")).compile_fds(fds).unwrap();
    assert_eq!(outputs(&theirs), want);
}

/// An editions file's features change the code (`a` implicit, `b` explicit): its encoded
/// set generates what its source does, where the set decoded by `prost_types` (which
/// drops editions' fields) is refused rather than misread.
#[test]
fn an_encoded_set_of_an_editions_file_generates_what_its_source_does() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../conformance/schemas");
    let file = ["conformance/editions.proto"];
    let from_source = Config::new()
        .out_dir(scratch("fds-editions-source"))
        .compile_protos(&file, &[&dir])
        .unwrap();
    let want = outputs(&from_source);
    assert!(
        want[0].1.contains("pub a: i32")
            && want[0].1.contains("pub b: ::core::option::Option<i32>"),
        "{}",
        want[0].1
    );

    let bytes = encoded_set(&dir, &file);
    let got = Config::new()
        .out_dir(scratch("fds-editions-encoded"))
        .compile_encoded_fds(&bytes)
        .unwrap();
    assert_eq!(outputs(&got), want);

    let decoded = prost::Message::decode(bytes.as_slice()).unwrap();
    let err = Config::new()
        .out_dir(scratch("fds-editions-decoded"))
        .compile_fds(decoded)
        .unwrap_err();
    assert!(
        matches!(err, bijoubuf_build::Error::Descriptor { .. }),
        "{err}"
    );

    let err = Config::new()
        .out_dir(scratch("fds-editions-garbage"))
        .compile_encoded_fds(&[0x0a, 0x05, 0x01])
        .unwrap_err();
    assert!(err.to_string().contains("no FileDescriptorSet"), "{err}");
}
