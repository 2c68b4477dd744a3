//! Generates the sample schemas into `OUT_DIR` with the build crate users use.

fn main() -> Result<(), bijoubuf_build::Error> {
    let schemas = "../../schemas";
    let protos = [
        "kitchen/sink.proto",
        "kitchen/extra.proto",
        "legacy/legacy.proto",
        "keywords/keywords.proto",
    ];
    println!("cargo:rerun-if-changed={schemas}");
    bijoubuf_build::Config::new()
        .preserve_unknown_fields([".kitchen.Tree", ".kitchen.Choice", ".legacy"])
        .serde([".kitchen.Choice", ".kitchen.Scalars"])
        .include_file("protos.rs")
        .compile_protos(&protos, &[schemas])?;
    // A second configuration, as an application would write it: well-known types from
    // the runtime, serde derives, attributes, and the package pulled in with
    // `bijoubuf::include_proto!`.
    bijoubuf_build::Config::new()
        .serde([".example.v1.Person"])
        .preserve_unknown_fields([".example.v1.Envelope"])
        .type_attribute(".example.v1.Signer", "#[derive(PartialOrd)]")
        .field_attribute(".example.v1.Person.email", "#[doc(alias = \"mail\")]")
        .file_descriptor_set_path(
            std::path::Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
                .join("example.fds"),
        )
        .compile_protos(&["example/envelope.proto"], &[schemas])?;
    // The schema compiler's accepting corpus: one file per language feature, generated
    // and compiled here so every feature the parser accepts also builds as Rust.
    let corpus = "../bijoubuf-schema/tests/corpus/pass";
    println!("cargo:rerun-if-changed={corpus}");
    let mut files = Vec::new();
    protos_under(std::path::Path::new(corpus), "", &mut files)?;
    files.sort();
    // descriptor.proto is not among the runtime's well-known types; a corpus file uses
    // its messages as fields, so it is generated here.
    files.push("google/protobuf/descriptor.proto".into());
    let out =
        std::path::Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("corpus");
    std::fs::create_dir_all(&out).map_err(|source| bijoubuf_build::Error::Io {
        path: out.clone(),
        source,
    })?;
    bijoubuf_build::Config::new()
        .out_dir(&out)
        .include_file("mod.rs")
        .compile_protos(&files, &[corpus])?;
    Ok(())
}

/// Every `.proto` below `dir`, as import names (`sub/dir/name.proto`).
fn protos_under(
    dir: &std::path::Path,
    prefix: &str,
    out: &mut Vec<String>,
) -> Result<(), bijoubuf_build::Error> {
    let entries = std::fs::read_dir(dir).map_err(|source| bijoubuf_build::Error::Io {
        path: dir.into(),
        source,
    })?;
    for e in entries.filter_map(|e| e.ok()) {
        let name = e.file_name().to_string_lossy().into_owned();
        let path = e.path();
        if path.is_dir() {
            protos_under(&path, &format!("{prefix}{name}/"), out)?;
        } else if name.ends_with(".proto") {
            out.push(format!("{prefix}{name}"));
        }
    }
    Ok(())
}
