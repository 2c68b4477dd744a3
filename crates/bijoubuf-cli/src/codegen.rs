//! `compile`: Rust code from the schema model, through `bijoubuf-codegen`, TypeScript
//! through `bijoubuf-codegen-ts` and Go through `bijoubuf-codegen-go`. Shared by
//! `bijoubuf compile` and `protoc-gen-bijoubuf`: a refusal comes back as the report line
//! (`error[code]: …`) for the caller to print or to put in a plugin response.

use bijoubuf_schema::Schema;

/// The report line of a generator's refusal.
fn refusal(code: &str, e: impl std::fmt::Display) -> String {
    format!("error[{code}]: {e}")
}

/// `(file name, source)` for every package of the requested files and of the imported
/// files whose types they use (see `bijoubuf_codegen::generate`); the messages at the
/// `borrowed` paths also get borrowed twins; those at the `dispatch` paths are decoded
/// by dispatch; `services` adds tonic servers and clients.
pub(crate) fn generate(
    schema: &Schema,
    borrowed: &[String],
    dispatch: &[String],
    services: bool,
) -> Result<Vec<(String, String)>, String> {
    let mut options = bijoubuf_codegen::Options::new();
    options.borrowed(borrowed);
    options.decode_dispatch(dispatch);
    options.services(services).service_transport(services);
    let files = bijoubuf_codegen::generate(schema, &options).map_err(|e| refusal(e.code(), &e))?;
    Ok(files.into_iter().map(|f| (f.name, f.content)).collect())
}

/// Refuses a schema with a MessageSet anywhere (`message_set_wire_format`), which no
/// generator writes code for.
pub(crate) fn refuse_message_sets(schema: &Schema) -> Result<(), String> {
    bijoubuf_codegen::refuse_message_sets(schema.files()).map_err(|e| refusal(e.code(), &e))
}

/// `(file name, source)` for every package of the schema, as TypeScript importing the
/// runtime from `runtime`; `services` adds gRPC-web clients.
pub(crate) fn generate_ts(schema: &Schema, runtime: &str, services: bool) -> Vec<(String, String)> {
    let mut options = bijoubuf_codegen_ts::Options::new();
    options.runtime_import(runtime);
    options.services(services);
    bijoubuf_codegen_ts::generate(schema, &options)
        .into_iter()
        .map(|f| (f.name, f.content))
        .collect()
}

/// `(path, source)` for every package of the schema but google.protobuf, as Go in the
/// directory whose import path is `module`; `by_go_package` lays packages out by their
/// files' `option go_package`; `services` adds grpc-go services (`<package>_grpc.bb.go`).
pub(crate) fn generate_go(
    schema: &Schema,
    module: &str,
    by_go_package: bool,
    services: bool,
) -> Result<Vec<(String, String)>, String> {
    let mut options = bijoubuf_codegen_go::Options::new();
    options.module(module).services(services);
    if by_go_package {
        options
            .go_package_layout(schema)
            .map_err(|e| refusal(e.code(), &e))?;
    }
    Ok(bijoubuf_codegen_go::generate(schema, &options)
        .into_iter()
        .map(|f| (f.name, f.content))
        .collect())
}

/// The note that says which services code was generated without (`services` off), so
/// none is dropped silently; `flag` is how the caller's user turns them on.
pub(crate) fn services_note(schema: &Schema, flag: &str) -> Option<String> {
    let names = bijoubuf_codegen::service_names(schema);
    if names.is_empty() {
        return None;
    }
    Some(format!(
        "note: {} not generated; pass {flag} for servers and clients",
        bijoubuf_codegen::describe_services(&names)
    ))
}
