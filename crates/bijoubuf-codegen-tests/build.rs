//! Generates the sample schemas into `OUT_DIR` with the build crate users use.

fn main() -> Result<(), bijoubuf_build::Error> {
    let schemas = "../../schemas";
    let protos = [
        "kitchen/sink.proto",
        "legacy/legacy.proto",
        "keywords/keywords.proto",
    ];
    println!("cargo:rerun-if-changed={schemas}");
    bijoubuf_build::Config::new()
        .preserve_unknown_fields([".kitchen.Tree", ".kitchen.Choice", ".legacy"])
        .include_file("protos.rs")
        .compile_protos(&protos, &[schemas])?;
    Ok(())
}
