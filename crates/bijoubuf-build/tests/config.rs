//! The build façade: files written, errors returned (never printed) with rendered
//! schema diagnostics.

use std::path::{Path, PathBuf};

use bijoubuf_build::{Config, Error};

/// A fresh directory under the target dir for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn writes_one_file_per_package_and_an_include_file() {
    let dir = scratch("packages");
    std::fs::create_dir_all(dir.join("a")).unwrap();
    std::fs::write(
        dir.join("a/one.proto"),
        "syntax = \"proto3\"; package a; message One { int32 x = 1; }",
    )
    .unwrap();
    std::fs::write(
        dir.join("a/two.proto"),
        "syntax = \"proto3\"; package a.b; message Two { int32 y = 1; }",
    )
    .unwrap();
    let written = Config::new()
        .out_dir(&dir)
        .include_file("all.rs")
        .compile_protos(&["a/one.proto", "a/two.proto"], &[&dir])
        .unwrap();
    assert_eq!(
        written,
        [dir.join("a.rs"), dir.join("a.b.rs"), dir.join("all.rs")]
    );
    let include = std::fs::read_to_string(dir.join("all.rs")).unwrap();
    assert!(include.contains("pub mod a {"), "{include}");
    assert!(include.contains("include!(\"a.rs\");"), "{include}");
    assert!(include.contains("pub mod b {"), "{include}");
    assert!(include.contains("include!(\"a.b.rs\");"), "{include}");
}

#[test]
fn schema_errors_come_back_rendered_with_spans() {
    let dir = scratch("bad-schema");
    std::fs::write(
        dir.join("bad.proto"),
        "syntax = \"proto3\";\nmessage M {\n  int32 a = 1;\n  string b = 1;\n}\n",
    )
    .unwrap();
    let err = Config::new()
        .out_dir(&dir)
        .compile_protos(&["bad.proto"], &[&dir])
        .unwrap_err();
    assert_eq!(err.code(), "schema");
    let Error::Schema {
        rendered,
        diagnostics,
    } = &err
    else {
        panic!("expected a schema error, got {err}");
    };
    assert_eq!(diagnostics.errors()[0].code(), "duplicate-field-number");
    // The report names the file and line and shows the offending source line.
    assert!(rendered.contains("bad.proto:4:"), "{rendered}");
    assert!(rendered.contains("string b = 1;"), "{rendered}");
    // `expect` and `fn main() -> Result` print Debug: the same report.
    assert_eq!(format!("{err:?}"), rendered.as_str());
    // Nothing was written.
    assert!(!dir.join("_.rs").exists());
}

#[test]
fn configuration_errors_are_typed() {
    let dir = scratch("bad-config");
    std::fs::write(
        dir.join("m.proto"),
        "syntax = \"proto3\"; message M { int32 a = 1; }",
    )
    .unwrap();
    let err = Config::new()
        .out_dir(&dir)
        .type_attribute(".", "#[derive(")
        .compile_protos(&["m.proto"], &[&dir])
        .unwrap_err();
    assert!(matches!(err, Error::Codegen(_)), "{err}");
    // The generator's own code comes through.
    assert_eq!(err.code(), "invalid-attribute");
    assert!(err.to_string().contains("#[derive("), "{err}");
    let err = Config::new()
        .out_dir(&dir)
        .compile_protos(&["/elsewhere/m.proto"], &[&dir])
        .unwrap_err();
    assert!(matches!(err, Error::NotInIncludes { .. }), "{err}");
    assert_eq!(err.code(), "not-in-includes");
    let io = Error::Io {
        path: dir.join("m.proto"),
        source: std::io::Error::other("disk on fire"),
    };
    assert_eq!(io.code(), "io");
    assert_eq!(Error::NoOutDir.code(), "no-out-dir");
    let descriptor = Error::Descriptor {
        message: "a group".into(),
    };
    assert_eq!(descriptor.code(), "unsupported-descriptor");
}

#[test]
fn unchanged_output_is_not_rewritten() {
    let dir = scratch("unchanged");
    std::fs::write(
        dir.join("m.proto"),
        "syntax = \"proto3\"; package p; message M { int32 a = 1; }",
    )
    .unwrap();
    Config::new()
        .out_dir(&dir)
        .compile_protos(&["m.proto"], &[&dir])
        .unwrap();
    let before = std::fs::metadata(dir.join("p.rs"))
        .unwrap()
        .modified()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    Config::new()
        .out_dir(&dir)
        .compile_protos(&["m.proto"], &[&dir])
        .unwrap();
    let after = std::fs::metadata(dir.join("p.rs"))
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(before, after);
}

#[test]
fn descriptor_set_keeps_custom_options() {
    let dir = scratch("custom-options");
    std::fs::write(
        dir.join("opt.proto"),
        "syntax = \"proto3\"; package opt;\n\
         import \"google/protobuf/descriptor.proto\";\n\
         extend google.protobuf.FieldOptions { optional int32 weight = 50001; }\n\
         message M { int32 x = 1 [(weight) = 77]; }",
    )
    .unwrap();
    let fds = dir.join("fds.binpb");
    Config::new()
        .out_dir(&dir)
        .file_descriptor_set_path(&fds)
        .compile_protos(&["opt.proto"], &[&dir])
        .unwrap();
    let bytes = std::fs::read(&fds).unwrap();
    // FieldOptions record of extension 50001 (key 50001 << 3 as a varint), value 77.
    let record = [0x88, 0xb5, 0x18, 77];
    assert!(
        bytes.windows(record.len()).any(|w| w == record),
        "custom option missing from {bytes:?}"
    );
}

#[test]
fn lint_rules_can_be_denied_allowed_and_capped() {
    let dir = scratch("lint-config");
    std::fs::write(
        dir.join("shop.proto"),
        "syntax = \"proto3\";\npackage shop;\nmessage bad_one {}\nmessage bad_two {}\n",
    )
    .unwrap();
    // By default lints only warn: the build succeeds.
    Config::new()
        .out_dir(&dir)
        .compile_protos(&["shop.proto"], &[&dir])
        .unwrap();
    // Denied, the rule fails the build with its report.
    let err = Config::new()
        .out_dir(&dir)
        .deny_lint("type-name")
        .compile_protos(&["shop.proto"], &[&dir])
        .unwrap_err();
    let Error::Schema {
        rendered,
        diagnostics,
    } = err
    else {
        panic!("expected a schema error, got {err}");
    };
    assert_eq!(diagnostics.errors().len(), 2);
    assert!(rendered.contains("lint-type-name"), "{rendered}");
    // Capped: one shown, the other counted.
    let err = Config::new()
        .out_dir(&dir)
        .deny_lint("all")
        .allow_lint("package-directory-match")
        .max_diagnostics(1)
        .compile_protos(&["shop.proto"], &[&dir])
        .unwrap_err();
    let text = err.to_string();
    assert!(text.contains("(2 more diagnostics not shown"), "{text}");
    // Turned off, even a denial of all but one rule passes.
    Config::new()
        .out_dir(&dir)
        .no_lints()
        .compile_protos(&["shop.proto"], &[&dir])
        .unwrap();
    // An unknown rule is an error of its own.
    let err = Config::new()
        .out_dir(&dir)
        .allow_lint("no-such-rule")
        .compile_protos(&["shop.proto"], &[&dir])
        .unwrap_err();
    assert!(matches!(err, Error::UnknownLint(_)), "{err}");
    assert_eq!(err.code(), "unknown-lint");
}

#[test]
fn a_schema_error_past_column_65535_is_rendered() {
    let dir = scratch("long-line");
    let pad = " ".repeat(70_000);
    std::fs::write(
        dir.join("long.proto"),
        format!("syntax = \"proto3\";{pad}message M {{ Missing x = 1; }}\n"),
    )
    .unwrap();
    let err = Config::new()
        .out_dir(&dir)
        .compile_protos(&["long.proto"], &[&dir])
        .unwrap_err();
    let text = err.to_string();
    assert!(text.contains("long.proto:1:70031"), "{text}");
    assert!(text.len() < 4_000, "{} bytes", text.len());
}

#[test]
fn service_clients_have_connect_unless_transport_is_turned_off() {
    // Regression: build.rs clients had no `connect` (E0599) while `bijoubuf compile
    // --services` wrote it, though the README promises one shape for both.
    let dir = scratch("services-transport");
    std::fs::write(
        dir.join("orders.proto"),
        "syntax = \"proto3\"; package shop.v1; message Order { uint64 id = 1; }\n\
         service OrderService { rpc Get(Order) returns (Order); }",
    )
    .unwrap();
    let generated = |config: &mut Config| {
        config
            .out_dir(&dir)
            .cargo_directives(false)
            .compile_protos(&["orders.proto"], &[&dir])
            .unwrap();
        std::fs::read_to_string(dir.join("shop.v1.rs")).unwrap()
    };
    let text = generated(Config::new().services(true));
    assert!(text.contains("pub struct OrderServiceClient"), "{text}");
    assert!(text.contains("pub async fn connect"), "{text}");
    let text = generated(Config::new().services(true).service_transport(false));
    assert!(text.contains("pub struct OrderServiceClient"), "{text}");
    assert!(!text.contains("pub async fn connect"), "{text}");
}
