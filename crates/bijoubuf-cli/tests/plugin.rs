//! `protoc-gen-bijoubuf`: given the request protoc would send for the bundled schemas
//! (built from the descriptor set `bijoubuf compile` writes, byte for byte protoc's),
//! it returns exactly the files `bijoubuf compile` writes, in every language, with and
//! without services; refusals come back in the response's `error`.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use prost::Message as _;
use prost_types::FileDescriptorSet;
use prost_types::compiler::{CodeGeneratorRequest, CodeGeneratorResponse};

fn schemas() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas")
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("plugin")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `bijoubuf ARGS` run in `dir`: (status, stderr).
fn bijoubuf(dir: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_bijoubuf"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code().unwrap(), stderr)
}

/// The plugin's response to `request`.
fn plugin(request: &CodeGeneratorRequest) -> CodeGeneratorResponse {
    plugin_bytes(&request.encode_to_vec()).1.unwrap()
}

/// The plugin run on `stdin`: its status and response (if it wrote one).
fn plugin_bytes(stdin: &[u8]) -> (i32, Option<CodeGeneratorResponse>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_protoc-gen-bijoubuf"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin).unwrap();
    drop(input);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    let response = (!out.stdout.is_empty())
        .then(|| CodeGeneratorResponse::decode(out.stdout.as_slice()).unwrap());
    (out.status.code().unwrap(), response, stderr)
}

/// Every file below `dir`, by its path relative to `dir` (with `/`).
fn tree(dir: &Path) -> BTreeMap<String, String> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let name = path.strip_prefix(root).unwrap();
                let name: Vec<String> = name
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                out.insert(name.join("/"), std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    if dir.exists() {
        walk(dir, dir, &mut out);
    }
    out
}

/// The request protoc sends for `files`, made from a descriptor set with imports and
/// source info (protoc sends both), imports first.
fn request(set: &Path, files: &[&str], parameter: &str) -> CodeGeneratorRequest {
    let set = FileDescriptorSet::decode(std::fs::read(set).unwrap().as_slice()).unwrap();
    CodeGeneratorRequest {
        file_to_generate: files.iter().map(|f| f.to_string()).collect(),
        parameter: Some(parameter.to_string()),
        proto_file: set.file,
        compiler_version: None,
    }
}

fn files(response: &CodeGeneratorResponse) -> BTreeMap<String, String> {
    assert_eq!(response.error, None);
    response
        .file
        .iter()
        .map(|f| (f.name().to_string(), f.content().to_string()))
        .collect()
}

/// For the files of `root`, in each language with and without services: what
/// `bijoubuf compile` writes and what the plugin returns are the same files.
fn same_as_compile(name: &str, root: &Path, protos: &[&str]) -> usize {
    let mut compared = 0;
    for services in [false, true] {
        let out = scratch(&format!("{name}-{services}"));
        let set = out.join("set.binpb");
        let (rust, ts, go) = (out.join("rust"), out.join("ts"), out.join("go"));
        let mut args = vec![
            "compile".to_string(),
            "-I".into(),
            ".".into(),
            "--rust-out".into(),
            rust.display().to_string(),
            "--ts-out".into(),
            ts.display().to_string(),
            "--ts-runtime".into(),
            "@acme/bijoubuf".into(),
            "--go-out".into(),
            go.display().to_string(),
            "--go-module".into(),
            "example.com/gen".into(),
            "--descriptor-set-out".into(),
            set.display().to_string(),
            "--include-imports".into(),
            "--include-source-info".into(),
        ];
        if services {
            args.push("--services".into());
        }
        args.extend(protos.iter().map(|p| p.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (status, stderr) = bijoubuf(root, &args);
        assert_eq!(status, 0, "{stderr}");
        let services = if services { ",services" } else { "" };
        for (dir, parameter) in [
            (&rust, format!("lang=rust{services}")),
            (&ts, format!("lang=ts,ts_runtime=@acme/bijoubuf{services}")),
            (&go, format!("lang=go,go_module=example.com/gen{services}")),
        ] {
            let want = tree(dir);
            assert!(!want.is_empty(), "{name}: nothing in {}", dir.display());
            let got = files(&plugin(&request(&set, protos, &parameter)));
            assert_eq!(
                got.keys().collect::<Vec<_>>(),
                want.keys().collect::<Vec<_>>(),
                "{name} {parameter}"
            );
            for (file, text) in &want {
                assert!(got[file] == *text, "{name} {parameter}: {file} differs");
            }
            compared += want.len();
        }
    }
    compared
}

#[test]
fn bundled_schemas_generate_what_compile_writes() {
    let root = schemas();
    let n = same_as_compile(
        "schemas",
        &root,
        &[
            "kitchen/sink.proto",
            "kitchen/extra.proto",
            "legacy/legacy.proto",
            "keywords/keywords.proto",
            "example/v1/envelope.proto",
        ],
    );
    assert!(n > 20, "{n}");
}

#[test]
fn example_schemas_generate_what_compile_writes() {
    let root = schemas().join("examples");
    let mut protos: Vec<String> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".proto"))
        .collect();
    protos.sort();
    let protos: Vec<&str> = protos.iter().map(String::as_str).collect();
    assert!(same_as_compile("examples", &root, &protos) > 10);
    let evolution = root.join("evolution/v2");
    assert!(same_as_compile("evolution", &evolution, &["profile.proto"]) > 0);
}

#[test]
fn rust_options_and_go_package_layout_are_those_of_compile() {
    let root = schemas();
    let out = scratch("options");
    let set = out.join("set.binpb");
    let (rust, go) = (out.join("rust"), out.join("go"));
    let args = [
        "compile",
        "-I",
        ".",
        "--rust-out",
        &rust.display().to_string(),
        "--rust-borrowed",
        ".kitchen",
        "--rust-dispatch",
        ".",
        "--go-out",
        &go.display().to_string(),
        "--go-module",
        "example.com/gen",
        "--go-layout",
        "go-package",
        "--descriptor-set-out",
        &set.display().to_string(),
        "--include-imports",
        "--include-source-info",
        "kitchen/sink.proto",
        "example/v1/envelope.proto",
    ]
    .map(|s| s.to_string());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (status, stderr) = bijoubuf(&root, &args);
    assert_eq!(status, 0, "{stderr}");
    let protos = ["kitchen/sink.proto", "example/v1/envelope.proto"];
    let got = files(&plugin(&request(
        &set,
        &protos,
        "lang=rust,rust_borrowed=.kitchen,rust_dispatch=.",
    )));
    assert_eq!(got, tree(&rust));
    let got = files(&plugin(&request(
        &set,
        &protos,
        "lang=go,go_module=example.com/gen,go_layout=go-package",
    )));
    assert_eq!(got, tree(&go));
}

#[test]
fn parameter_errors_are_in_the_response() {
    let out = scratch("params");
    let set = out.join("set.binpb");
    let (status, stderr) = bijoubuf(
        &schemas().join("examples"),
        &[
            "compile",
            "--descriptor-set-out",
            &set.display().to_string(),
            "--include-imports",
            "orders.proto",
        ],
    );
    assert_eq!(status, 0, "{stderr}");
    for (parameter, want) in [
        (
            "",
            "missing plugin parameter lang: pass lang=rust, lang=ts or lang=go",
        ),
        (
            "lang=rust,servces",
            "unknown plugin parameter servces; did you mean services?",
        ),
        (
            "lang=ts,go_module=x",
            "plugin parameter go_module applies to lang=go, not lang=ts",
        ),
    ] {
        let (status, response, _) =
            plugin_bytes(&request(&set, &["orders.proto"], parameter).encode_to_vec());
        assert_eq!(status, 0, "{parameter}");
        let response = response.unwrap();
        assert!(response.file.is_empty());
        let error = response.error.unwrap_or_default();
        assert!(error.starts_with(want), "{parameter}: {error}");
    }
}

#[test]
fn refused_schemas_are_in_the_response_as_compile_reports_them() {
    let dir = scratch("refused");
    std::fs::write(
        dir.join("set.proto"),
        "syntax = \"proto2\";\npackage legacy;\nmessage Bag {\n  option message_set_wire_format = true;\n  extensions 4 to max;\n}\n",
    )
    .unwrap();
    // The CLI's report when generating TypeScript, and the plugin's error.
    let (status, cli) = bijoubuf(
        &dir,
        &["compile", "--no-lint", "--ts-out", "ts", "set.proto"],
    );
    assert_eq!(status, 1);
    let (status, _) = bijoubuf(
        &dir,
        &[
            "compile",
            "--descriptor-set-out",
            "set.binpb",
            "--include-imports",
            "--include-source-info",
            "set.proto",
        ],
    );
    assert_eq!(status, 0);
    let response = plugin(&request(&dir.join("set.binpb"), &["set.proto"], "lang=ts"));
    assert!(response.file.is_empty());
    let error = response.error.unwrap_or_default();
    assert!(error.starts_with("error["), "{error}");
    assert_eq!(error, cli.trim_end());

    // A type that resolves nowhere (protoc would not send it; a hand-made request
    // can): the checker's report with its snippet, as `bijoubuf compile` renders it.
    let mut req = request(&dir.join("set.binpb"), &["set.proto"], "lang=rust");
    req.proto_file[0].message_type[0]
        .field
        .push(prost_types::FieldDescriptorProto {
            name: Some("thing".into()),
            number: Some(1),
            label: Some(1),
            r#type: Some(11),
            type_name: Some(".legacy.Missing".into()),
            ..Default::default()
        });
    let error = plugin(&req).error.unwrap_or_default();
    // Two errors: the type, and a field in a MessageSet.
    assert!(error.contains("unresolved-type"), "{error}");
    assert!(
        error.contains("\".legacy.Missing\" is not defined"),
        "{error}"
    );
    assert!(
        error.ends_with("error: the schema has 2 errors and 0 warnings"),
        "{error}"
    );

    // A group, which bijoubuf does not encode.
    let mut req = request(&dir.join("set.binpb"), &["set.proto"], "lang=rust");
    req.proto_file[0].message_type[0]
        .field
        .push(prost_types::FieldDescriptorProto {
            name: Some("g".into()),
            number: Some(1),
            label: Some(1),
            r#type: Some(10),
            type_name: Some(".legacy.Bag".into()),
            ..Default::default()
        });
    assert_eq!(
        plugin(&req).error.as_deref(),
        Some("error[unsupported-descriptor]: group field g is not supported by bijoubuf v1")
    );
}

#[test]
fn a_name_that_is_no_identifier_is_an_error_in_the_response_not_files() {
    // Written into schema text as it stands, the name would declare a second message.
    let dir = scratch("bad-name");
    std::fs::write(
        dir.join("n.proto"),
        "syntax = \"proto3\";\npackage n.v1;\nmessage Note {\n  string text = 1;\n}\n",
    )
    .unwrap();
    let (status, stderr) = bijoubuf(
        &dir,
        &[
            "compile",
            "--descriptor-set-out",
            "set.binpb",
            "--include-imports",
            "n.proto",
        ],
    );
    assert_eq!(status, 0, "{stderr}");
    let mut req = request(&dir.join("set.binpb"), &["n.proto"], "lang=rust");
    req.proto_file[0].message_type[0].name = Some("Note { } message Evil".into());
    let response = plugin(&req);
    assert!(response.file.is_empty());
    assert_eq!(
        response.error.as_deref(),
        Some(
            "error[unsupported-descriptor]: n.proto: a message in n.v1: DescriptorProto.name \
             \"Note { } message Evil\" is not an identifier"
        )
    );
}

#[test]
fn an_empty_request_gets_an_empty_response_and_garbage_exits_1() {
    let (status, response, _) = plugin_bytes(&[]);
    assert_eq!(status, 0);
    let response = response.unwrap_or_default();
    assert_eq!(response.error, None);
    assert!(response.file.is_empty());
    // protoc refuses proto3 `optional` and editions unless the plugin says it reads
    // them.
    assert_eq!(response.supported_features, Some(1 | 2));

    let (status, response, stderr) = plugin_bytes(&[0xff, 0xff, 0xff]);
    assert_eq!(status, 1);
    assert!(response.is_none());
    assert!(
        stderr.starts_with("protoc-gen-bijoubuf: error: stdin is not a CodeGeneratorRequest"),
        "{stderr}"
    );
}

#[test]
fn bundled_files_are_read_from_the_built_in_copies_as_compile_reads_them() {
    // protoc sends its own copy of timestamp.proto, whose comments differ from the
    // compiler's built-in one; TypeScript generates google.protobuf from the built-in
    // copy, as `bijoubuf compile` does.
    let root = schemas();
    let out = scratch("builtin");
    let set = out.join("set.binpb");
    let ts = out.join("ts");
    let args = [
        "compile",
        "-I",
        ".",
        "--ts-out",
        &ts.display().to_string(),
        "--descriptor-set-out",
        &set.display().to_string(),
        "--include-imports",
        "--include-source-info",
        "example/v1/envelope.proto",
    ]
    .map(|s| s.to_string());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (status, stderr) = bijoubuf(&root, &args);
    assert_eq!(status, 0, "{stderr}");
    let mut req = request(&set, &["example/v1/envelope.proto"], "lang=ts");
    let timestamp = req
        .proto_file
        .iter_mut()
        .find(|f| f.name() == "google/protobuf/timestamp.proto")
        .expect("the set holds the imported timestamp.proto");
    for loc in &mut timestamp.source_code_info.as_mut().unwrap().location {
        if loc.leading_comments.is_some() {
            loc.leading_comments = Some(" Another copy's comment.\n".into());
        }
    }
    let want = tree(&ts);
    assert!(want.contains_key("google.protobuf.ts"));
    assert_eq!(files(&plugin(&req)), want);
}

/// The request protoc sends, built from the bytes of a descriptor set (whose files
/// `prost_types` would cut short of their editions fields): each file (field 1 of the
/// set) becomes a `proto_file` (field 15).
fn raw_request(set: &Path, files: &[&str], parameter: &str) -> Vec<u8> {
    fn varint(bytes: &mut &[u8]) -> usize {
        let mut value = 0;
        for i in 0.. {
            let (&b, rest) = bytes.split_first().unwrap();
            *bytes = rest;
            value |= usize::from(b & 0x7f) << (7 * i);
            if b & 0x80 == 0 {
                break;
            }
        }
        value
    }
    let mut out = CodeGeneratorRequest {
        file_to_generate: files.iter().map(|f| f.to_string()).collect(),
        parameter: Some(parameter.to_string()),
        ..Default::default()
    }
    .encode_to_vec();
    let bytes = std::fs::read(set).unwrap();
    let mut rest = bytes.as_slice();
    while !rest.is_empty() {
        assert_eq!(varint(&mut rest), 1 << 3 | 2);
        let len = varint(&mut rest);
        out.push(15 << 3 | 2);
        prost::encoding::encode_varint(len as u64, &mut out);
        out.extend_from_slice(&rest[..len]);
        rest = &rest[len..];
    }
    out
}

#[test]
fn editions_files_generate_what_compile_writes() {
    let dir = scratch("editions");
    std::fs::create_dir_all(dir.join("ed/v1")).unwrap();
    std::fs::write(
        dir.join("ed/v1/ed.proto"),
        r#"edition = "2023";
package ed.v1;
option features.field_presence = IMPLICIT;

// Every presence.
message M {
  int32 a = 1 [features.field_presence = EXPLICIT]; // explicit
  int32 b = 2;
  int32 c = 3 [features.field_presence = LEGACY_REQUIRED];
  repeated int32 d = 4 [features.repeated_field_encoding = EXPANDED];
  Closed e = 5 [features.field_presence = EXPLICIT];
  map<string, int32> m = 6;
  reserved foo;
}
// A closed enum.
enum Closed { option features.enum_type = CLOSED; CLOSED_A = 1; }
service S { rpc Get(M) returns (M); }
"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("a.proto"),
        "edition = \"2024\";\npackage a.v1;\nexport message Top { message Nested { int32 x = 1; } export message Open {} local message Hidden {} }\nlocal message Private {}\nexport enum E { E_UNSPECIFIED = 0; }\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("b.proto"),
        "edition = \"2024\";\npackage b.v1;\nimport \"a.proto\";\nimport option \"google/protobuf/descriptor.proto\";\nmessage User { a.v1.Top t = 1; a.v1.Top.Open o = 2; a.v1.E e = 3; }\n",
    )
    .unwrap();
    let protos = ["ed/v1/ed.proto", "b.proto"];
    for services in [false, true] {
        let mut args: Vec<&str> = vec![
            "compile",
            "--no-lint",
            "-I",
            ".",
            "--rust-out",
            "rust",
            "--ts-out",
            "ts",
            "--go-out",
            "go",
            "--go-module",
            "example.com/gen",
            "--descriptor-set-out",
            "set.binpb",
            "--include-imports",
            "--include-source-info",
        ];
        if services {
            args.push("--services");
        }
        args.extend(protos);
        for out in ["rust", "ts", "go"] {
            let _ = std::fs::remove_dir_all(dir.join(out));
        }
        let (status, stderr) = bijoubuf(&dir, &args);
        assert_eq!(status, 0, "{stderr}");
        let services = if services { ",services" } else { "" };
        for (out, parameter) in [
            ("rust", format!("lang=rust{services}")),
            ("ts", format!("lang=ts{services}")),
            ("go", format!("lang=go,go_module=example.com/gen{services}")),
        ] {
            let request = raw_request(&dir.join("set.binpb"), &protos, &parameter);
            let (status, response, stderr) = plugin_bytes(&request);
            assert_eq!(status, 0, "{stderr}");
            let want = tree(&dir.join(out));
            assert!(want.len() >= 3, "{want:?}");
            assert_eq!(files(&response.unwrap()), want, "{parameter}");
        }
    }
}
