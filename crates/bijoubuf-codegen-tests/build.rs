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
    Ok(())
}
