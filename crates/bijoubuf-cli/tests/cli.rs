//! The `bijoubuf` binary, run as a user runs it: every subcommand, exit statuses, and
//! the rendered refusals (insta snapshots under `tests/snapshots/`).

mod common;

use common::{data, run};

const PERSON: [&str; 4] = ["--schema", "person.proto", "--type", "Person"];
const ORDER: [&str; 4] = ["--schema", "order.proto", "--type", "shop.v1.Order"];
const READING: [&str; 4] = ["--schema", "reading.proto", "--type", "lab.v1.Reading"];
const SINK: [&str; 4] = ["--schema", "kitchen.proto", "--type", "kitchen.v1.Sink"];

fn with<'a>(base: &[&'a str], more: &[&'a str]) -> Vec<&'a str> {
    let mut v = base.to_vec();
    v.extend_from_slice(more);
    v
}

/// SPEC Appendix A.1.
const A1: &str = "02 03 41 64 61 00 48 08 00";
/// SPEC Appendix A.2 (with the unknown field 6).
const A2: &str = "00 F9 01 F1 02 04 02 02 42 6F 06 0C 06 02 02 41 31 00 02 04 02 02 42 37 04 03 02 0C 04 67 69 66 74 01 04 72 75 73 68 0A";
/// SPEC Appendix A.3.
const A3: &str = "01 00 00 00 00 00 00 00 2A 01 7F F8 00 00 00 00 00 00 02 0C 3F C0 00 00 80 00 00 00 7F 80 00 00 00 00 04 05";

fn unhex(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|h| u8::from_str_radix(h, 16).expect("hex"))
        .collect()
}

// ----- help and usage -----

#[test]
fn help_lists_every_subcommand_with_examples() {
    let r = run(&["--help"], b"");
    assert_eq!(r.code, 0);
    let out = r.out();
    for word in [
        "check",
        "compile",
        "decode",
        "encode",
        "verify",
        "decode-raw",
        "Examples:",
        "Exit status",
    ] {
        assert!(out.contains(word), "--help lacks {word}:\n{out}");
    }
    let r = run(&["decode", "--help"], b"");
    assert_eq!(r.code, 0);
    assert!(r.out().contains("--max-depth <N>") && r.out().contains("Examples:"));
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(run(&[], b"").code, 2);
    assert_eq!(
        run(&["decode", "--schema", "person.proto"], b"").code,
        2,
        "missing --type"
    );
    let r = run(
        &with(&["decode"], &with(&PERSON, &["--max-depth", "0"])),
        b"",
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    let r = run(
        &["decode", "--schema", "person.proto", "--type", "Nobody"],
        b"",
    );
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr.trim_end(),
        "error: person.proto defines no message Nobody (use the fully-qualified name); messages: Person"
    );
    let r = run(&["decode", "--schema", "missing.proto", "--type", "X"], b"");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.starts_with("error: cannot read missing.proto"),
        "{}",
        r.stderr
    );
    let r = run(
        &with(&["decode"], &with(&PERSON, &["no-such-input.bin"])),
        b"",
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.starts_with("error: cannot read no-such-input.bin"),
        "{}",
        r.stderr
    );
}

// ----- check -----

#[test]
fn check_accepts_and_prints_lints_as_warnings() {
    // order.proto's package is not its directory: allowed here.
    let r = run(
        &[
            "check",
            "--allow",
            "package-directory-match",
            "person.proto",
            "order.proto",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.out(), "ok 2 files checked, 1 warning\n");
    insta::assert_snapshot!("check_person_lint", r.stderr);
    let r = run(&["check", "-I", ".", "lints.proto"], b"");
    assert_eq!(r.code, 0);
    assert_eq!(r.out(), "ok 1 file checked, 9 warnings\n");
    assert_eq!(r.stderr.matches("⚠").count(), 9);
}

#[test]
fn check_lint_flags_allow_deny_and_cap() {
    let r = run(&["check", "--no-lint", "-I", ".", "lints.proto"], b"");
    assert_eq!(
        (r.code, r.out().as_str()),
        (0, "ok 1 file checked, 0 warnings\n")
    );
    assert!(!r.stderr.contains('⚠'), "{}", r.stderr);
    // --no-lint then --warn: only that rule.
    let r = run(
        &["check", "--no-lint", "--warn", "type-name", "lints.proto"],
        b"",
    );
    assert_eq!(r.out(), "ok 1 file checked, 2 warnings\n");
    // --deny: a lint refuses the schema.
    let r = run(&["check", "--deny", "TYPE_NAME", "lints.proto"], b"");
    assert_eq!(r.code, 1);
    assert_eq!(r.stderr.matches("×").count(), 2, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("error: the schema has 2 errors and 7 warnings")
    );
    // The cap: three shown, the rest counted.
    let r = run(&["check", "--max-diagnostics", "3", "lints.proto"], b"");
    assert_eq!(r.out(), "ok 1 file checked, 9 warnings\n");
    assert_eq!(r.stderr.matches("⚠").count(), 3);
    assert!(
        r.stderr.contains("(6 more warnings not shown"),
        "{}",
        r.stderr
    );
    // An unknown rule is a usage error that lists the rules.
    let r = run(&["check", "--allow", "no-such-rule", "lints.proto"], b"");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("unknown lint rule \"no-such-rule\""));
    assert!(r.stderr.contains("rpc-request-response-unique"));
}

#[test]
fn diagnostics_past_column_65535_do_not_panic() {
    let dir = std::env::temp_dir().join(format!("bijoubuf-cli-long-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let pad = " ".repeat(70_000);
    std::fs::write(
        dir.join("long.proto"),
        format!("syntax = \"proto3\";{pad}message bad_name {{ int32 x = 1; }}\n"),
    )
    .expect("written");
    std::fs::write(
        dir.join("bad.proto"),
        format!("syntax = \"proto3\";{pad}message M {{ Missing x = 1; }}\n"),
    )
    .expect("written");
    let long = dir.join("long.proto");
    let bad = dir.join("bad.proto");
    let out = dir.join("out");
    let r = run(&["check", long.to_str().unwrap()], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("long.proto:1:70027"), "{}", r.stderr);
    let r = run(
        &[
            "compile",
            "--rust-out",
            out.to_str().unwrap(),
            long.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run(&["check", bad.to_str().unwrap()], b"");
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("\"Missing\" is not defined"),
        "{}",
        r.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_refuses_a_broken_schema_with_snippets() {
    let r = run(&["check", "broken.proto"], b"");
    assert_eq!(r.code, 1);
    assert_eq!(r.out(), "");
    insta::assert_snapshot!("check_broken", r.stderr);
}

#[test]
fn check_finds_files_under_include_directories() {
    let r = run(&["check", "-I", "..", "../data/person.proto"], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run(
        &["check", "-I", "/nonexistent-include", "person.proto"],
        b"",
    );
    assert_eq!(r.code, 2);
    let r = run(&["check", "-I", "../../src", "person.proto"], b"");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("is not inside any include directory"),
        "{}",
        r.stderr
    );
}

/// A schema reached through a symbolic link below the include directory is named by the
/// path as written, as protoc names it (the resolved path is outside `-I`); its import
/// of a file beside it resolves through the link too.
#[cfg(unix)]
#[test]
fn a_schema_below_a_symbolic_link_in_an_include_directory_is_found() {
    let tmp = std::env::temp_dir().join(format!("bijoubuf-cli-link-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let pkg = tmp.join("real/pkg");
    std::fs::create_dir_all(&pkg).unwrap();
    std::fs::create_dir_all(tmp.join("root")).unwrap();
    std::fs::write(
        pkg.join("b.proto"),
        "syntax = \"proto3\";\npackage pkg;\nmessage B { int32 x = 1; }\n",
    )
    .unwrap();
    std::fs::write(
        pkg.join("a.proto"),
        "syntax = \"proto3\";\npackage pkg;\nimport \"link/pkg/b.proto\";\n\
         message A { B b = 1; }\n",
    )
    .unwrap();
    std::os::unix::fs::symlink("../real", tmp.join("root/link")).unwrap();
    let root = tmp.join("root");
    let a = root.join("link/pkg/a.proto");
    let fds = tmp.join("a.binpb");
    let r = run(
        &[
            "compile",
            "--no-lint",
            "-I",
            root.to_str().unwrap(),
            "--descriptor-set-out",
            fds.to_str().unwrap(),
            a.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    // The file's name in the descriptor set is the import name through the link.
    let bytes = std::fs::read(&fds).unwrap();
    let has = |n: &[u8]| bytes.windows(n.len()).any(|w| w == n);
    // `name` (field 1, 16 bytes): exactly `link/pkg/a.proto`, not a longer path.
    assert!(has(b"\x0a\x10link/pkg/a.proto"));
    // An include directory that is itself a link: named from it as written.
    std::os::unix::fs::symlink("root", tmp.join("rootlink")).unwrap();
    let r = run(
        &[
            "check",
            "--no-lint",
            "-I",
            tmp.join("rootlink").to_str().unwrap(),
            tmp.join("rootlink/link/pkg/a.proto").to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    // `..` after a link leaves it where the link points (`root/link/..` is `tmp`), not
    // where the spelling says (`root`): the name `c.proto` would read the decoy in
    // `root`, so the file is refused as outside `-I`, as protoc refuses it.
    std::fs::write(
        tmp.join("c.proto"),
        "syntax = \"proto3\";\nmessage Real {}\n",
    )
    .unwrap();
    std::fs::write(
        root.join("c.proto"),
        "syntax = \"proto3\";\nmessage Decoy {}\n",
    )
    .unwrap();
    let r = run(
        &[
            "check",
            "--no-lint",
            "-I",
            root.to_str().unwrap(),
            root.join("link/../c.proto").to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    // Outside every include directory it is still refused.
    let other = tmp.join("other");
    std::fs::create_dir_all(&other).unwrap();
    let r = run(
        &["check", "-I", other.to_str().unwrap(), a.to_str().unwrap()],
        b"",
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("is not inside any include directory"),
        "{}",
        r.stderr
    );
    let _ = std::fs::remove_dir_all(&tmp);
}

// ----- compile -----

#[test]
fn compile_writes_rust_and_a_descriptor_set() {
    let out = std::env::temp_dir().join(format!("bijoubuf-cli-compile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let rust = out.join("gen");
    let fds = out.join("fds.binpb");
    let r = run(
        &[
            "compile",
            "--rust-out",
            rust.to_str().expect("utf-8 path"),
            "--descriptor-set-out",
            fds.to_str().expect("utf-8 path"),
            "order.proto",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let code = std::fs::read_to_string(rust.join("shop.v1.rs")).expect("generated file");
    assert!(code.contains("pub struct Order"), "{code}");
    assert!(code.contains("pub struct Line"));
    let bytes = std::fs::read(&fds).expect("descriptor set");
    let set = <prost_types::FileDescriptorSet as prost::Message>::decode(bytes.as_slice())
        .expect("a FileDescriptorSet");
    assert_eq!(set.file[0].name.as_deref(), Some("order.proto"));
    assert_eq!(set.file[0].message_type.len(), 3);
    assert!(r.out().contains("shop.v1.rs") && r.out().contains("fds.binpb"));
    assert!(!code.contains("pub struct OrderRef"), "{code}");
    // Borrowed twins on request: Order's, and Line's, which Order reaches.
    let r = run(
        &[
            "compile",
            "--rust-out",
            rust.to_str().expect("utf-8 path"),
            "--rust-borrowed",
            ".shop.v1.Order",
            "order.proto",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let code = std::fs::read_to_string(rust.join("shop.v1.rs")).expect("generated file");
    assert!(code.contains("pub struct OrderRef<'a>"), "{code}");
    assert!(code.contains("pub struct LineRef<'a>"), "{code}");
    assert!(!code.contains("r.record()"), "{code}");
    // Dispatch decoders on request.
    let r = run(
        &[
            "compile",
            "--rust-out",
            rust.to_str().expect("utf-8 path"),
            "--rust-dispatch",
            ".shop.v1.Order",
            "order.proto",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let code = std::fs::read_to_string(rust.join("shop.v1.rs")).expect("generated file");
    assert_eq!(code.matches("match r.record()?").count(), 1, "{code}");
    let _ = std::fs::remove_dir_all(&out);
    // A broken schema writes nothing and exits 1.
    let r = run(
        &["compile", "--rust-out", "never-written", "broken.proto"],
        b"",
    );
    assert_eq!(r.code, 1);
    assert!(!data().join("never-written").exists());
}

#[test]
fn compile_finds_protocs_bundled_files_without_an_include_directory() {
    // As protoc: go_features.proto and compiler/plugin.proto are imported without -I,
    // and named on the command line they are accepted and generated (TypeScript and Go
    // write every package but google.protobuf's in Go; Rust the files named and those
    // whose types they use).
    let out = std::env::temp_dir().join(format!("bijoubuf-cli-bundled-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let (rust, ts, go) = (out.join("rs"), out.join("ts"), out.join("go"));
    let r = run(
        &[
            "compile",
            "--rust-out",
            rust.to_str().expect("utf-8 path"),
            "--ts-out",
            ts.to_str().expect("utf-8 path"),
            "--go-out",
            go.to_str().expect("utf-8 path"),
            "--go-module",
            "example.com/gen",
            "plugin_job.proto",
            "google/protobuf/compiler/plugin.proto",
            "google/protobuf/descriptor.proto",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let job = std::fs::read_to_string(rust.join("tools.v1.rs")).expect("generated file");
    assert!(
        job.contains("google::protobuf::compiler::CodeGeneratorRequest"),
        "{job}"
    );
    let plugin =
        std::fs::read_to_string(rust.join("google.protobuf.compiler.rs")).expect("plugin.proto");
    assert!(
        plugin.contains("pub struct CodeGeneratorResponse"),
        "{plugin}"
    );
    assert!(rust.join("google.protobuf.rs").exists());
    assert!(ts.join("google.protobuf.compiler.ts").exists());
    assert!(go.join("google/protobuf/compiler/compiler.bb.go").exists());
    assert!(!go.join("google/protobuf").join("protobuf.bb.go").exists());
    // Named alone, plugin_job.proto brings the Rust of the built-ins whose messages it
    // uses (plugin.proto's, and descriptor.proto's through them), not go_features.proto's.
    let alone = out.join("alone");
    let r = run(
        &[
            "compile",
            "--rust-out",
            alone.to_str().expect("utf-8 path"),
            "plugin_job.proto",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let mut written: Vec<String> = std::fs::read_dir(&alone)
        .expect("output dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    assert_eq!(
        written,
        [
            "google.protobuf.compiler.rs",
            "google.protobuf.rs",
            "tools.v1.rs"
        ]
    );
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn compile_writes_custom_options_into_the_descriptor_set() {
    let out = std::env::temp_dir().join(format!("bijoubuf-cli-options-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let fds = out.join("fds.binpb");
    let r = run(
        &[
            "compile",
            "--rust-out",
            out.join("gen").to_str().expect("utf-8 path"),
            "--descriptor-set-out",
            fds.to_str().expect("utf-8 path"),
            "options.proto",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let bytes = std::fs::read(&fds).expect("descriptor set");
    // FieldOptions record of extension 50001 (key 50001 << 3 as a varint), value 77.
    let record = [0x88, 0xb5, 0x18, 77];
    assert!(
        bytes.windows(record.len()).any(|w| w == record),
        "custom option missing from {bytes:?}"
    );
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn compile_descriptor_set_flags_are_protocs() {
    // protoc's defaults: the named files only, no source info; each flag adds its part.
    let out = std::env::temp_dir().join(format!("bijoubuf-cli-flags-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).expect("scratch directory");
    let set = |flags: &[&str]| {
        let fds = out.join("fds.binpb");
        let fds_arg = fds.to_str().expect("utf-8 path").to_string();
        let mut args = vec!["compile", "--descriptor-set-out", fds_arg.as_str()];
        args.extend_from_slice(flags);
        args.push("options.proto");
        let r = run(&args, b"");
        assert_eq!(r.code, 0, "{}", r.stderr);
        let bytes = std::fs::read(&fds).expect("descriptor set");
        <prost_types::FileDescriptorSet as prost::Message>::decode(bytes.as_slice())
            .expect("a FileDescriptorSet")
    };
    let names = |s: &prost_types::FileDescriptorSet| -> Vec<String> {
        s.file.iter().map(|f| f.name().to_string()).collect()
    };
    let plain = set(&[]);
    assert_eq!(names(&plain), ["options.proto"]);
    assert!(plain.file[0].source_code_info.is_none());
    let with_info = set(&["--include-source-info"]);
    assert!(with_info.file[0].source_code_info.is_some());
    let with_imports = set(&["--include-imports"]);
    assert_eq!(
        names(&with_imports),
        ["google/protobuf/descriptor.proto", "options.proto"]
    );
    assert!(
        with_imports
            .file
            .iter()
            .all(|f| f.source_code_info.is_none())
    );
    let _ = std::fs::remove_dir_all(&out);
    // The flags describe the descriptor set, so they need one.
    let r = run(
        &[
            "compile",
            "--rust-out",
            "never-written",
            "--include-imports",
            "options.proto",
        ],
        b"",
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
}

// ----- decode -----

#[test]
fn decode_prints_proto3_json() {
    let r = run(
        &with(&["decode"], &with(&PERSON, &["--input-hex"])),
        A1.as_bytes(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.out(),
        "{\n  \"name\": \"Ada\",\n  \"age\": 36,\n  \"score\": 0\n}\n"
    );
    // Raw bytes from a file or from `-` (stdin).
    let dir = std::env::temp_dir().join(format!("bijoubuf-cli-decode-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("a3.bin");
    std::fs::write(&file, unhex(A3)).expect("write");
    let r = run(
        &with(
            &["decode"],
            &with(&READING, &[file.to_str().expect("utf-8")]),
        ),
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.out(),
        "{\n  \"sensor\": \"42\",\n  \"value\": \"NaN\",\n  \"samples\": [\n    1.5,\n    -0.0,\n    \"Infinity\"\n  ],\n  \"celsius\": false,\n  \"offset\": -3\n}\n"
    );
    let r = run(&with(&["decode"], &with(&READING, &["-"])), &unhex(A3));
    assert_eq!(r.code, 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn decode_refusals_are_reported_with_code_offset_path_and_hexdump() {
    // Person.active written holding false.
    let r = run(
        &with(&["decode"], &with(&PERSON, &["--input-hex"])),
        b"02 03 41 64 61 04 00",
    );
    assert_eq!(r.code, 1);
    assert_eq!(r.out(), "");
    assert_eq!(
        r.stderr.lines().next(),
        Some("error[default-value-present]: Person.active holds its default at byte 5")
    );
    insta::assert_snapshot!("decode_default_value_present", r.stderr);
    // The unknown field 6 of SPEC A.2, in the second hexdump row.
    let r = run(
        &with(&["decode"], &with(&ORDER, &["--input-hex"])),
        A2.as_bytes(),
    );
    assert_eq!(r.code, 1);
    insta::assert_snapshot!("decode_unknown_field", r.stderr);
    // A required field missing: the offset is the end of the input.
    let r = run(
        &with(&["decode"], &with(&READING, &["--input-hex"])),
        b"14 05",
    );
    assert_eq!(r.code, 1);
    insta::assert_snapshot!("decode_missing_required", r.stderr);
    // A nested string that is not UTF-8.
    let r = run(
        &with(&["decode"], &with(&ORDER, &["--input-hex"])),
        b"06 04 02 02 C0 AF",
    );
    assert_eq!(r.code, 1);
    insta::assert_snapshot!("decode_invalid_utf8", r.stderr);
    // Not hex at all.
    let r = run(
        &with(&["decode"], &with(&PERSON, &["--input-hex"])),
        b"02 0g",
    );
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr,
        "error[invalid-hex]: 'g' at character 4 is not a hex digit\n"
    );
}

#[test]
fn decode_preserving_keeps_unknown_fields_and_says_so() {
    let r = run(
        &with(
            &["decode"],
            &with(&ORDER, &["--input-hex", "--preserve-unknown"]),
        ),
        A2.as_bytes(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stderr,
        "note: 1 unknown field record was preserved; proto3 JSON cannot show them\n"
    );
    assert!(
        r.out()
            .contains("\"tags\": {\n    \"gift\": \"-1\",\n    \"rush\": \"5\"\n  }")
    );
}

#[test]
fn max_depth_is_honoured_and_deep_inputs_do_not_overflow_the_stack() {
    // Node { Node child = 1; } nested `depth` levels.
    fn chain(depth: usize) -> Vec<u8> {
        let mut inner: Vec<u8> = Vec::new();
        for _ in 1..depth {
            let mut outer = vec![0x02];
            outer.extend_from_slice(bijou64::encode(inner.len() as u64).as_slice());
            outer.extend_from_slice(&inner);
            inner = outer;
        }
        inner
    }
    let deep = ["--schema", "deep.proto", "--type", "Node"];
    let r = run(&with(&["verify"], &deep), &chain(100));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run(&with(&["verify"], &deep), &chain(101));
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .starts_with("error[depth-limit-exceeded]: Node.child"),
        "{}",
        r.stderr
    );
    let r = run(
        &with(&["verify"], &with(&deep, &["--max-depth", "3"])),
        &chain(4),
    );
    assert_eq!(r.code, 1);
    // The runtime caps the limit at 500 on both sides: the cap decodes, one past it is
    // refused, and a larger limit is a usage error rather than a silent clamp.
    let r = run(
        &with(&["verify"], &with(&deep, &["--max-depth", "500"])),
        &chain(500),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    // proto3 JSON follows the same limit: at the cap the JSON prints, and reads back to
    // the same bytes with `encode` at the same limit; the default refuses it, naming why.
    let r = run(
        &with(&["decode"], &with(&deep, &["--max-depth", "500"])),
        &chain(500),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let json = r.stdout;
    let r = run(
        &with(&["encode"], &with(&deep, &["--max-depth", "500"])),
        &json,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, chain(500));
    let r = run(&with(&["encode"], &deep), &json);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.starts_with("error[depth-limit-exceeded]"),
        "{}",
        r.stderr
    );
    let r = run(&with(&["decode"], &deep), &chain(101));
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.starts_with("error[depth-limit-exceeded]"),
        "{}",
        r.stderr
    );
    let r = run(
        &with(&["verify"], &with(&deep, &["--max-depth", "500"])),
        &chain(501),
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.starts_with("error[depth-limit-exceeded]"),
        "{}",
        r.stderr
    );
    let r = run(
        &with(&["verify"], &with(&deep, &["--max-depth", "501"])),
        &chain(10),
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("--max-depth"), "{}", r.stderr);
    let r = run(&with(&["decode-raw"], &[]), &chain(10_000));
    assert_eq!(r.code, 0, "{}", r.stderr);
}

// ----- encode -----

#[test]
fn encode_writes_canonical_bytes() {
    let json = br#"{"name": "Ada", "age": 36, "active": false, "score": 0}"#;
    let r = run(&with(&["encode"], &with(&PERSON, &["--output-hex"])), json);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.out(), "020341646100480800\n");
    let r = run(&with(&["encode"], &PERSON), json);
    assert_eq!(r.stdout, unhex(A1));
    let with_bom = [&b"\xEF\xBB\xBF"[..], json].concat();
    assert_eq!(
        run(&with(&["encode"], &PERSON), &with_bom).stdout,
        unhex(A1)
    );
    // From a file, through the well-known types.
    let r = run(&with(&["encode"], &with(&SINK, &["kitchen.json"])), b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let back = run(&with(&["decode"], &SINK), &r.stdout);
    assert_eq!(back.code, 0, "{}", back.stderr);
    let again = run(&with(&["encode"], &SINK), &back.stdout);
    assert_eq!(again.stdout, r.stdout, "encode(decode(bytes)) is bytes");
}

#[test]
fn encode_refuses_bad_json_naming_the_path() {
    let cases: [(&[u8], &str); 6] = [
        (
            br#"{"age": 1, "age": 2}"#,
            "error[invalid-json]: duplicate key \"age\" in the object at $ at line 1 column 16",
        ),
        (
            br#"{"nmae": "Ada"}"#,
            "error[invalid-json]: $.nmae: Person has no field named \"nmae\" (did you mean \"name\"?)",
        ),
        (
            br#"{"age": 2147483648}"#,
            "error[invalid-json]: $.age: 2147483648 is out of range for int32",
        ),
        (
            br#"{"age": "x"}"#,
            "error[invalid-json]: $.age: expected an integer",
        ),
        (
            b"{",
            "error[invalid-json]: EOF while parsing an object at line 1 column 1",
        ),
        (
            b"\xff",
            "error[invalid-json]: the input is not UTF-8: invalid utf-8 sequence of 1 bytes from index 0",
        ),
    ];
    for (json, first) in cases {
        let r = run(&with(&["encode"], &PERSON), json);
        assert_eq!(r.code, 1, "{}", String::from_utf8_lossy(json));
        assert_eq!(r.stdout, b"");
        assert_eq!(r.stderr.lines().next(), Some(first));
    }
    // proto2: an unset required field cannot be encoded.
    let r = run(&with(&["encode"], &READING), br#"{"offset": -3}"#);
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr.trim_end(),
        "error[missing-required-field]: Reading.sensor is required but unset"
    );
}

// ----- verify -----

#[test]
fn verify_prints_the_size_and_blake3_hash() {
    let r = run(
        &with(&["verify"], &with(&PERSON, &["--input-hex"])),
        A1.as_bytes(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let hash = blake3::hash(&unhex(A1)).to_hex().to_string();
    assert_eq!(r.out(), format!("ok 9 bytes blake3:{hash}\n"));
    // The empty input is the empty Person.
    let r = run(&with(&["verify"], &PERSON), b"");
    assert_eq!(
        r.out(),
        format!("ok 0 bytes blake3:{}\n", blake3::hash(b"").to_hex())
    );
    // Non-canonical: a tier-1 spelling of a value that has a one-byte spelling does not
    // exist, but a default does; so does an unknown field (accepted only when preserving).
    let r = run(
        &with(&["verify"], &with(&PERSON, &["--input-hex"])),
        b"00 00",
    );
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .starts_with("error[wire-type-mismatch]: Person.name"),
        "{}",
        r.stderr
    );
    let r = run(
        &with(&["verify"], &with(&ORDER, &["--input-hex"])),
        A2.as_bytes(),
    );
    assert_eq!(r.code, 1);
    let r = run(
        &with(
            &["verify"],
            &with(&ORDER, &["--input-hex", "--preserve-unknown"]),
        ),
        A2.as_bytes(),
    );
    assert_eq!(r.code, 0);
    assert!(r.out().starts_with("ok 40 bytes blake3:"));
    assert!(
        r.stderr
            .starts_with("note: 1 unknown field record was preserved")
    );
}

#[test]
fn streams_are_read_frame_by_frame_under_a_size_limit() {
    // SPEC §9.2: two frames holding Appendix A.1.
    let two = format!("09 {A1} 09 {A1}");
    let stream = with(&PERSON, &["--input-hex", "--stream"]);
    let r = run(&with(&["verify"], &stream), two.as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let hash = blake3::hash(&unhex(&two)).to_hex().to_string();
    assert_eq!(
        r.out(),
        format!("ok 20 bytes in 2 messages blake3:{hash}\n")
    );
    let r = run(&with(&["decode"], &stream), two.as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let person = "{\n    \"name\": \"Ada\",\n    \"age\": 36,\n    \"score\": 0\n  }";
    assert_eq!(r.out(), format!("[\n  {person},\n  {person}\n]\n"));
    // Without --stream the same bytes are one (refused) message.
    let r = run(
        &with(&["verify"], &with(&PERSON, &["--input-hex"])),
        two.as_bytes(),
    );
    assert_eq!(r.code, 1);
    // SPEC §9.4: a frame declaring more than the limit is refused at its prefix.
    let r = run(
        &with(&["verify"], &with(&stream, &["--max-size", "8"])),
        two.as_bytes(),
    );
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.starts_with("error[size-limit-exceeded]") && r.stderr.contains("offset: 0 "),
        "{}",
        r.stderr
    );
    // Offsets inside a later frame count from the start of the stream: the second
    // frame's string holds 0xFF at byte 13.
    let r = run(
        &with(&["verify"], &stream),
        format!("09 {A1} 03 02 01 FF").as_bytes(),
    );
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.starts_with("error[invalid-utf8]") && r.stderr.contains("offset: 13 "),
        "{}",
        r.stderr
    );
    // A single message over the limit is refused at byte 0 before decoding.
    let r = run(
        &with(
            &["verify"],
            &with(&PERSON, &["--input-hex", "--max-size", "8"]),
        ),
        A1.as_bytes(),
    );
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.starts_with("error[size-limit-exceeded]"),
        "{}",
        r.stderr
    );
    // An empty stream holds no messages.
    let r = run(&with(&["decode"], &with(&PERSON, &["--stream"])), b"");
    assert_eq!((r.code, r.out().as_str()), (0, "[]\n"));
}

#[test]
fn streams_are_read_incrementally_from_a_file_or_stdin() {
    // 7,000 frames of A.1 (70,000 bytes, more than the reader's first 64 KiB buffer),
    // from a file and from stdin, verify to the hash of the whole input.
    let frame = unhex(&format!("09 {A1}"));
    let stream: Vec<u8> = frame
        .iter()
        .copied()
        .cycle()
        .take(frame.len() * 7_000)
        .collect();
    let hash = blake3::hash(&stream).to_hex().to_string();
    let want = format!("ok {} bytes in 7000 messages blake3:{hash}\n", stream.len());
    let dir = std::env::temp_dir().join(format!("bijoubuf-cli-stream-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("persons.bin");
    std::fs::write(&file, &stream).unwrap();
    let path = file.to_str().unwrap();
    let r = run(&with(&["verify"], &with(&PERSON, &["--stream", path])), b"");
    assert_eq!((r.code, r.out()), (0, want.clone()), "{}", r.stderr);
    let r = run(&with(&["verify"], &with(&PERSON, &["--stream"])), &stream);
    assert_eq!((r.code, r.out()), (0, want), "{}", r.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn stream_refusals_name_the_frame_and_show_its_bytes() {
    let stream = with(&PERSON, &["--input-hex", "--stream"]);
    // The second frame (bytes 10..14) holds 0xFF in its string at byte 13.
    let r = run(
        &with(&["verify"], &stream),
        format!("09 {A1} 03 02 01 FF 09 {A1}").as_bytes(),
    );
    assert_eq!(r.code, 1);
    let head: Vec<&str> = r.stderr.lines().take(3).collect();
    assert_eq!(
        head,
        [
            "error[invalid-utf8]: Person.name is not valid UTF-8 at byte 13",
            "  offset: 13 (0xd) of stdin, in frame 1 at byte 10",
            "  path:   Person.name",
        ]
    );
    // The dump shows the frame at its stream address, the bad byte marked.
    assert!(r.stderr.contains("  0000000a  03 02 01 ff"), "{}", r.stderr);
    let caret = r.stderr.lines().find(|l| l.ends_with("^^")).unwrap();
    assert_eq!(caret.len() - 2, 12 + 3 * 3);
    // A frame the stream ends inside: truncated at its prefix, rooted at the type.
    let r = run(
        &with(&["verify"], &stream),
        format!("09 {A1} 09 02 03").as_bytes(),
    );
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.starts_with(
            "error[truncated]: Person ends inside an element at byte 10\n  offset: 10 (0xa) of stdin, in frame 1 at byte 10\n  path:   Person\n"
        ),
        "{}",
        r.stderr
    );
    // decode prints the messages before the refused frame, and no closing bracket.
    let r = run(
        &with(&["decode"], &stream),
        format!("09 {A1} 03 02 01 FF").as_bytes(),
    );
    assert_eq!(r.code, 1);
    assert!(
        r.out().starts_with("[\n  {\n    \"name\": \"Ada\""),
        "{}",
        r.out()
    );
    assert!(!r.out().contains(']'));
    // A source that cannot be read is a usage error.
    let r = run(&with(&["verify"], &with(&PERSON, &["--stream", "."])), b"");
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.starts_with("error: cannot read ."), "{}", r.stderr);
}

// ----- decode-raw -----

#[test]
fn decode_raw_shows_the_record_tree() {
    let r = run(&["decode-raw", "--input-hex"], A2.as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr);
    insta::assert_snapshot!("decode_raw_a2", r.out());
    let r = run(&["decode-raw", "--input-hex"], A3.as_bytes());
    insta::assert_snapshot!("decode_raw_a3", r.out());
}

#[test]
fn decode_raw_reports_malformed_input_after_what_it_could_read() {
    let r = run(&["decode-raw", "--input-hex"], b"00 01 02 05 61 62");
    assert_eq!(r.code, 1);
    assert_eq!(r.out(), "       0  #1 VARINT 1 (zigzag -1)\n");
    insta::assert_snapshot!("decode_raw_truncated", r.stderr);
}

#[test]
fn decode_raw_never_panics_on_random_input() {
    // A fixed xorshift stream: 64 inputs of 0..200 bytes.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for _ in 0..64 {
        let len = (next() % 200) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        let r = run(&["decode-raw"], &bytes);
        assert!(r.code == 0 || r.code == 1, "{bytes:02x?}: {}", r.stderr);
        let r = run(&with(&["decode"], &SINK), &bytes);
        assert!(r.code == 0 || r.code == 1, "{bytes:02x?}: {}", r.stderr);
    }
}

// ----- round trips over the sample schemas -----

#[test]
fn encode_of_decode_reproduces_the_bytes() {
    let seeds: [(&[&str], &str); 5] = [
        (&PERSON, A1),
        (&PERSON, "02 03 41 64 61"),
        (&READING, A3),
        (
            &ORDER,
            "00 F9 01 F1 02 04 02 02 42 6F 06 0C 06 02 02 41 31 00 02 04 02 02 42 37 0A 0C 04 67 69 66 74 01 04 72 75 73 68 0A",
        ),
        (&["--schema", "deep.proto", "--type", "Node"], "02 02 02 00"),
    ];
    for (target, hex) in seeds {
        let bytes = unhex(hex);
        let json = run(&with(&["decode"], target), &bytes);
        assert_eq!(json.code, 0, "{hex}: {}", json.stderr);
        let again = run(&with(&["encode"], target), &json.stdout);
        assert_eq!(again.code, 0, "{hex}: {}", again.stderr);
        assert_eq!(again.stdout, bytes, "{hex} via {}", json.out());
    }
}

#[test]
fn the_repository_sample_schemas_round_trip_through_json() {
    // schemas/ at the repository root, imported through -I.
    let inc = "../../../../schemas";
    let cases: [(&str, &str, &str); 3] = [
        (
            "kitchen/sink.proto",
            "kitchen.Maps",
            r#"{"i32": {"-1": "m", "2": "p"}, "flag": {"true": "t"}, "msgs": {"a": {"fl": -0.0, "db": "NaN"}}}"#,
        ),
        (
            "kitchen/sink.proto",
            "kitchen.Tree",
            r#"{"value": 7, "children": [{}, {"leaf": {"label": "x", "shade": "SHADE_DARK"}}], "next": {"value": -1}}"#,
        ),
        (
            "legacy/legacy.proto",
            "legacy.Record",
            r#"{"id": 1, "name": "n", "inner": {"token": "18446744073709551615"}, "tags": [1, 2], "level": "HIGH"}"#,
        ),
    ];
    for (file, ty, json) in cases {
        let schema = format!("{inc}/{file}");
        let target = ["-I", inc, "--schema", schema.as_str(), "--type", ty];
        let bytes = run(&with(&["encode"], &target), json.as_bytes());
        assert_eq!(bytes.code, 0, "{ty}: {}", bytes.stderr);
        let verified = run(&with(&["verify"], &target), &bytes.stdout);
        assert_eq!(verified.code, 0, "{ty}: {}", verified.stderr);
        let decoded = run(&with(&["decode"], &target), &bytes.stdout);
        assert_eq!(decoded.code, 0, "{ty}: {}", decoded.stderr);
        let again = run(&with(&["encode"], &target), &decoded.stdout);
        assert_eq!(again.stdout, bytes.stdout, "{ty} via {}", decoded.out());
    }
}

#[test]
fn compile_notes_services_it_leaves_out_and_generates_them_with_services() {
    let out = std::env::temp_dir().join(format!("bijoubuf-cli-services-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let (rust, ts) = (out.join("rs"), out.join("ts"));
    let args = [
        "compile",
        "--rust-out",
        rust.to_str().expect("utf-8 path"),
        "--ts-out",
        ts.to_str().expect("utf-8 path"),
        "orders_service.proto",
    ];
    let r = run(&args, b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("note: service shop.v1.Orders not generated; pass --services"),
        "{}",
        r.stderr
    );
    let code = std::fs::read_to_string(rust.join("shop.v1.rs")).expect("generated file");
    assert!(!code.contains("orders_server"), "{code}");

    let r = run(&with(&args, &["--services"]), b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stderr.contains("not generated"), "{}", r.stderr);
    let code = std::fs::read_to_string(rust.join("shop.v1.rs")).expect("generated file");
    assert!(code.contains("pub trait Orders"), "{code}");
    assert!(code.contains("pub async fn connect"), "{code}");
    assert!(code.contains("\"/shop.v1.Orders/Watch\""), "{code}");
    let client = std::fs::read_to_string(ts.join("shop.v1.ts")).expect("generated file");
    assert!(client.contains("export class OrdersClient"), "{client}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn the_note_of_services_left_out_names_five_and_counts_the_rest() {
    // googleapis has thousands of services: a note naming each was a page long.
    let out = std::env::temp_dir().join(format!("bijoubuf-cli-many-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).expect("temp dir");
    let services: String = (1..=7)
        .map(|i| format!("service S{i} {{ rpc Get(M) returns (M); }}\n"))
        .collect();
    let schema = out.join("many.proto");
    std::fs::write(
        &schema,
        format!("syntax = \"proto3\";\npackage a;\nmessage M {{}}\n{services}"),
    )
    .expect("write");
    let r = run(
        &[
            "compile",
            "--ts-out",
            out.join("ts").to_str().expect("utf-8 path"),
            schema.to_str().expect("utf-8 path"),
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains(
            "note: 7 services (a.S1, a.S2, a.S3, a.S4, a.S5 and 2 more) not generated; \
             pass --services"
        ),
        "{}",
        r.stderr
    );
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn compile_go_layout_go_package_places_packages_by_the_option_and_refuses_a_bad_one() {
    let out = std::env::temp_dir().join(format!("bijoubuf-cli-go-layout-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let protos = out.join("protos");
    std::fs::create_dir_all(&protos).expect("temp dir");
    std::fs::write(
        protos.join("coin.proto"),
        "syntax = \"proto3\";\npackage cosmos.base.v1beta1;\noption go_package = \"example.com/chain/types\";\nmessage Coin { string denom = 1; string amount = 2; }\n",
    )
    .expect("write");
    std::fs::write(
        protos.join("bank.proto"),
        "syntax = \"proto3\";\npackage cosmos.bank.v1beta1;\nimport \"coin.proto\";\noption go_package = \"example.com/chain/x/bank/types\";\nmessage Balance { string address = 1; repeated cosmos.base.v1beta1.Coin coins = 2; }\n",
    )
    .expect("write");
    let (inc, gen_dir) = (
        protos.to_str().expect("utf-8 path"),
        out.join("gen").to_str().expect("utf-8 path").to_string(),
    );
    let base = [
        "compile",
        "--no-lint",
        "-I",
        inc,
        "--go-out",
        gen_dir.as_str(),
        "--go-module",
    ];
    let mut args = base.to_vec();
    args.extend([
        "example.com/chain",
        "--go-layout",
        "go-package",
        "bank.proto",
    ]);
    let r = run(&args, b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let bank = std::fs::read_to_string(out.join("gen/x/bank/types/types.bb.go")).expect("bank");
    assert!(bank.contains("\"example.com/chain/types\""), "{bank}");
    let coin = std::fs::read_to_string(out.join("gen/types/types.bb.go")).expect("coin");
    assert!(coin.contains("type Coin struct"), "{coin}");

    // A go_package that would write outside --go-out is refused, nothing written.
    std::fs::write(
        protos.join("bad.proto"),
        "syntax = \"proto3\";\npackage bad;\noption go_package = \"../outside\";\nmessage B {}\n",
    )
    .expect("write");
    let mut args = base.to_vec();
    args.extend([
        "example.com/chain",
        "--go-layout",
        "go-package",
        "bad.proto",
    ]);
    let r = run(&args, b"");
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("error[go-package]: bad.proto: go_package \"../outside\""),
        "{}",
        r.stderr
    );
    assert!(!out.join("outside").exists() && !out.join("gen/bad").exists());
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn compile_go_out_writes_one_directory_per_package_under_the_module_path() {
    let out = std::env::temp_dir().join(format!("bijoubuf-cli-go-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let dir = out.to_str().expect("utf-8 path");
    // --go-out needs the import path of its directory.
    let r = run(&["compile", "--go-out", dir, "order.proto"], b"");
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("--go-module"), "{}", r.stderr);

    let args = [
        "compile",
        "--go-out",
        dir,
        "--go-module",
        "example.com/app/gen",
        "orders_service.proto",
    ];
    let r = run(&args, b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let file = out.join("shop/v1/v1.bb.go");
    assert!(r.out().contains("v1.bb.go"), "{}", r.out());
    let code = std::fs::read_to_string(&file).expect("generated file");
    assert!(code.starts_with("// Code generated by bijoubuf"), "{code}");
    assert!(code.contains("package v1\n"), "{code}");
    assert!(code.contains("func (m *"), "{code}");
    assert!(!out.join("shop/v1/v1_grpc.bb.go").exists());
    // Without --services the service is left out, and the note says how to get it.
    let note = "note: service shop.v1.Orders not generated; pass --services for servers and \
                clients\n";
    assert!(r.stderr.ends_with(note), "{}", r.stderr);
    // With --services, grpc-go's server and client beside the messages, and no note.
    let r = run(&with(&args, &["--services"]), b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stderr.contains("note:"), "{}", r.stderr);
    let services = std::fs::read_to_string(out.join("shop/v1/v1_grpc.bb.go")).expect("services");
    assert!(services.contains("package v1\n"), "{services}");
    assert!(
        services.contains("func RegisterOrdersServer("),
        "{services}"
    );
    assert!(services.contains("func NewOrdersClient("), "{services}");
    let code = std::fs::read_to_string(&file).expect("generated file");
    assert!(!code.contains("google.golang.org/grpc"), "{code}");
    let _ = std::fs::remove_dir_all(&out);
}
