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
        // Test schemas, shaped by what they test rather than by style: no lint warnings.
        .no_lints()
        .preserve_unknown_fields([".kitchen.Tree", ".kitchen.Choice", ".legacy"])
        .serde([".kitchen.Choice", ".kitchen.Scalars"])
        // Borrowed twins (`OptionalsRef<'a>`, …) of every kitchen message reachable
        // from these (Scalars and Tree.Leaf come in through fields).
        .borrowed([
            ".kitchen.Optionals",
            ".kitchen.Repeats",
            ".kitchen.Maps",
            ".kitchen.Choice",
            ".kitchen.Tree",
        ])
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
        .compile_protos(&["example/v1/envelope.proto"], &[schemas])?;
    // Two packages, one importing the other, into the same OUT_DIR as the call above
    // and pulled in with `bijoubuf::include_proto!` in nested modules, as the README
    // says to.
    println!("cargo:rerun-if-changed=protos/two_packages");
    bijoubuf_build::Config::new()
        .compile_protos(&["shop/v1/order.proto"], &["protos/two_packages"])?;
    // The runtime's test types (crates/bijoubuf/tests/common) as a schema, every type
    // keeping unknown fields as the hand-written ones do.
    let out_dir = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    println!("cargo:rerun-if-changed=protos");
    let shapes = out_dir.join("runtime_shapes");
    create_dir(&shapes)?;
    bijoubuf_build::Config::new()
        // Test schemas, shaped by what they test rather than by style: no lint warnings.
        .no_lints()
        .out_dir(&shapes)
        .preserve_unknown_fields([".runtime_shapes"])
        .compile_protos(
            &["runtime_shapes.proto", "runtime_required.proto"],
            &["protos"],
        )?;
    copy_runtime_tests(&out_dir)?;
    // A wide proto2 message with `required` fields past its 32nd, twice: decoded by a
    // table, and by the walk it must agree with.
    for (dir, table) in [
        ("table_required_table", true),
        ("table_required_walk", false),
    ] {
        let out = out_dir.join(dir);
        create_dir(&out)?;
        let mut config = bijoubuf_build::Config::new();
        config.no_lints().out_dir(&out);
        if table {
            config.decode_table([".table_required.Wide"]);
        } else {
            config.decode_walk(["."]);
        }
        config.compile_protos(&["table_required.proto"], &["protos"])?;
    }
    // `bytes::Bytes` fields (the runtime's `bytes` feature).
    let shared = out_dir.join("shared_bytes");
    create_dir(&shared)?;
    bijoubuf_build::Config::new()
        // Test schemas, shaped by what they test rather than by style: no lint warnings.
        .no_lints()
        .out_dir(&shared)
        .bytes([".shared_bytes.Shared"])
        .compile_protos(&["shared_bytes.proto"], &["protos"])?;
    // Schema names that would shadow what generated code names through its alias of the
    // runtime's hidden module, or the alias itself.
    let alias = out_dir.join("hidden_alias");
    create_dir(&alias)?;
    bijoubuf_build::Config::new()
        .no_lints()
        .out_dir(&alias)
        .borrowed([".hidden_alias"])
        .compile_protos(&["hidden_alias.proto"], &["protos"])?;
    // Names that start with an underscore and a digit, which case conversion would turn
    // into identifiers starting with a digit.
    let digits = out_dir.join("digit_names");
    create_dir(&digits)?;
    bijoubuf_build::Config::new()
        .no_lints()
        .out_dir(&digits)
        .compile_protos(&["digit_names.proto"], &["protos"])?;
    // Types named like the bindings generated code declares (the walk's pass type was
    // `P`, hiding a message `p`).
    let bindings = out_dir.join("binding_names");
    create_dir(&bindings)?;
    bijoubuf_build::Config::new()
        .no_lints()
        .out_dir(&bindings)
        .compile_protos(&["binding_names.proto"], &["protos"])?;
    // Deprecated messages, enums and values named everywhere generated code can name
    // them, once per decoder, with borrowed twins and serde; the walk's copy also with
    // services (for tests/deprecated.rs, which has tonic) and without (for the library).
    for (dir, decoder, services) in [
        ("deprecated_walk", "walk", false),
        ("deprecated_services", "walk", true),
        ("deprecated_dispatch", "dispatch", false),
        ("deprecated_table", "table", false),
    ] {
        let out = out_dir.join(dir);
        create_dir(&out)?;
        let mut config = bijoubuf_build::Config::new();
        config
            .no_lints()
            .out_dir(&out)
            .include_file("mod.rs")
            .borrowed(["."])
            .serde(["."])
            .preserve_unknown_fields([".deprecated_types.Holder"]);
        match decoder {
            "dispatch" => config.decode_dispatch(["."]),
            "table" => config.decode_table(["."]),
            _ => config.decode_walk(["."]),
        };
        if services {
            config.services(true).service_transport(false);
        }
        config.compile_protos(
            &["deprecated.proto", "deprecated_defaults.proto"],
            &["protos"],
        )?;
    }
    // The schema compiler's accepting corpus: one file per language feature, generated
    // and compiled here so every feature the parser accepts also builds as Rust.
    let corpus = "../bijoubuf-schema/tests/corpus/pass";
    println!("cargo:rerun-if-changed={corpus}");
    let mut files = Vec::new();
    protos_under(std::path::Path::new(corpus), "", &mut files)?;
    files.sort();
    // descriptor.proto is not among the runtime's well-known types; a corpus file uses
    // its messages as fields, so it is generated with the corpus without being named.
    let out = out_dir.join("corpus");
    create_dir(&out)?;
    bijoubuf_build::Config::new()
        // Test schemas, shaped by what they test rather than by style: no lint warnings.
        .no_lints()
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

/// The runtime's test files, copied byte for byte next to a `common.rs` that names the
/// generated types, so their `mod common;` (which rustc resolves beside the file that
/// declares it) finds the generated types instead of the hand-written ones. For each
/// copy, `<name>.mod.rs` holds the `#[path]` module a test in `tests/` includes.
fn copy_runtime_tests(out_dir: &std::path::Path) -> Result<(), bijoubuf_build::Error> {
    let from = std::path::Path::new("../bijoubuf/tests");
    let common = std::path::Path::new("tests/runtime/common.rs");
    println!("cargo:rerun-if-changed={}", from.display());
    println!("cargo:rerun-if-changed={}", common.display());
    let to = out_dir.join("runtime_tests");
    create_dir(&to)?;
    let io = |path: &std::path::Path| {
        let path = path.to_path_buf();
        move |source| bijoubuf_build::Error::Io { path, source }
    };
    std::fs::copy(common, to.join("common.rs")).map_err(io(common))?;
    for e in std::fs::read_dir(from).map_err(io(from))? {
        let path = e.map_err(io(from))?.path();
        let (Some(stem), Some("rs")) = (
            path.file_stem().and_then(|s| s.to_str()),
            path.extension().and_then(|s| s.to_str()),
        ) else {
            continue;
        };
        if stem == "common" {
            continue;
        }
        let copy = to.join(format!("{stem}.rs"));
        std::fs::copy(&path, &copy).map_err(io(&path))?;
        let module = format!("#[path = {:?}]\nmod {stem};\n", copy.to_string_lossy());
        let module_file = to.join(format!("{stem}.mod.rs"));
        std::fs::write(&module_file, module).map_err(io(&module_file))?;
    }
    Ok(())
}

fn create_dir(dir: &std::path::Path) -> Result<(), bijoubuf_build::Error> {
    std::fs::create_dir_all(dir).map_err(|source| bijoubuf_build::Error::Io {
        path: dir.to_path_buf(),
        source,
    })
}
