//! `compile`: Rust code from the schema model, through `bijoubuf-codegen`, and TypeScript
//! through `bijoubuf-codegen-ts`.

use bijoubuf_schema::Schema;

use crate::Failure;

/// `(file name, source)` for every package of the requested files; the messages at the
/// `borrowed` paths also get borrowed twins.
pub(crate) fn generate(
    schema: &Schema,
    borrowed: &[String],
) -> Result<Vec<(String, String)>, Failure> {
    let mut options = bijoubuf_codegen::Options::new();
    options.borrowed(borrowed);
    let files = bijoubuf_codegen::generate(schema, &options).map_err(|e| {
        eprintln!("error[codegen]: {e}");
        Failure::Refused
    })?;
    Ok(files.into_iter().map(|f| (f.name, f.content)).collect())
}

/// `(file name, source)` for every package of the schema, as TypeScript importing the
/// runtime from `runtime`.
pub(crate) fn generate_ts(schema: &Schema, runtime: &str) -> Vec<(String, String)> {
    let mut options = bijoubuf_codegen_ts::Options::new();
    options.runtime_import(runtime);
    bijoubuf_codegen_ts::generate(schema, &options)
        .into_iter()
        .map(|f| (f.name, f.content))
        .collect()
}
