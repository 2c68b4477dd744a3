//! `compile`: Rust code from the schema model, through `bijoubuf-codegen`.

use bijoubuf_schema::Schema;

use crate::Failure;

/// `(file name, source)` for every package of the requested files.
pub(crate) fn generate(schema: &Schema) -> Result<Vec<(String, String)>, Failure> {
    let files =
        bijoubuf_codegen::generate(schema, &bijoubuf_codegen::Options::new()).map_err(|e| {
            eprintln!("error[codegen]: {e}");
            Failure::Refused
        })?;
    Ok(files.into_iter().map(|f| (f.name, f.content)).collect())
}
