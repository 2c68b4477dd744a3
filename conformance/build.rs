//! Generates the conformance schemas into `OUT_DIR` with the build crate users use.

fn main() -> Result<(), bijoubuf_build::Error> {
    let schemas = "schemas";
    println!("cargo:rerun-if-changed={schemas}");
    bijoubuf_build::Config::new()
        // Test schemas, shaped by the vectors rather than by style: no lint warnings.
        .no_lints()
        // Every type can keep unknown fields, so preserving vectors run on generated code
        // too; a strict decode (the default) still refuses them (SPEC §8).
        .preserve_unknown_fields([".conformance", ".evolution"])
        // Every type also gets its borrowed twin (`FooRef<'a>`): the vectors run against
        // both (`generated::decode_borrowed`).
        .borrowed([".conformance", ".evolution"])
        .include_file("protos.rs")
        .compile_protos(
            &[
                "conformance/scalars.proto",
                "conformance/structure.proto",
                "conformance/required.proto",
                "conformance/appendix.proto",
                "conformance/reading.proto",
                "conformance/wkt.proto",
                "conformance/editions.proto",
                "evolution/v1.proto",
                "evolution/v2.proto",
            ],
            &[schemas],
        )?;
    Ok(())
}
