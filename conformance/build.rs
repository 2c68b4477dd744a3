//! Generates the conformance schemas into `OUT_DIR` with the build crate users use.

/// A `Config` method that forces one decoder shape on the messages it names.
type Shape =
    for<'c> fn(&'c mut bijoubuf_build::Config, [&'static str; 1]) -> &'c mut bijoubuf_build::Config;

fn main() -> Result<(), bijoubuf_build::Error> {
    let schemas = "schemas";
    println!("cargo:rerun-if-changed={schemas}");
    let protos = [
        "conformance/scalars.proto",
        "conformance/structure.proto",
        "conformance/required.proto",
        "conformance/appendix.proto",
        "conformance/reading.proto",
        "conformance/wkt.proto",
        "conformance/editions.proto",
        "evolution/v1.proto",
        "evolution/v2.proto",
    ];
    // The same schemas with every message decoded by dispatch rather than the walk
    // (`crate::schema_dispatch`), and a third time by a table (`crate::schema_table`):
    // the vectors and the differential tests hold the three decoders to one outcome.
    for (dir, shape) in [
        (
            "dispatch",
            bijoubuf_build::Config::decode_dispatch::<[&str; 1], &str> as Shape,
        ),
        (
            "table",
            bijoubuf_build::Config::decode_table::<[&str; 1], &str>,
        ),
    ] {
        let out =
            std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"))
                .join(dir);
        std::fs::create_dir_all(&out).map_err(|e| bijoubuf_build::Error::Io {
            path: out.clone(),
            source: e,
        })?;
        let mut config = bijoubuf_build::Config::new();
        config
            .no_lints()
            .out_dir(&out)
            .preserve_unknown_fields([".conformance", ".evolution"])
            .borrowed([".conformance", ".evolution"]);
        shape(&mut config, ["."])
            .include_file("protos.rs")
            .compile_protos(&protos, &[schemas])?;
    }
    bijoubuf_build::Config::new()
        // Test schemas, shaped by the vectors rather than by style: no lint warnings.
        .no_lints()
        // Every type can keep unknown fields, so preserving vectors run on generated code
        // too; a strict decode (the default) still refuses them (SPEC §8).
        .preserve_unknown_fields([".conformance", ".evolution"])
        // Every type also gets its borrowed twin (`FooRef<'a>`): the vectors run against
        // both (`generated::decode_borrowed`).
        .borrowed([".conformance", ".evolution"])
        // Every message walks, whatever the default rule picks: the reference for the
        // dispatch copy above.
        .decode_walk(["."])
        .include_file("protos.rs")
        .compile_protos(&protos, &[schemas])?;
    Ok(())
}
