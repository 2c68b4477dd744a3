//! The command line's paper cuts: names found through `-I`, "did you mean" for a
//! mistyped `--type` or `--rust-borrowed` path, a hint for protobuf's own bytes,
//! types from several `--schema` files or a descriptor set, and exit statuses kept when
//! stderr is a closed pipe.

mod common;

use common::run;

#[test]
fn a_file_name_is_found_through_the_include_directories_as_protoc_does() {
    // `data/person.proto` is no path from `tests/data`, but is one under `-I ..`.
    let r = run(&["check", "-I", "..", "data/person.proto"], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.out().starts_with("ok 1 file checked"), "{}", r.out());
    // A name found nowhere is still a usage error.
    let r = run(&["check", "-I", "..", "data/nobody.proto"], b"");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("cannot read data/nobody.proto"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_mistyped_type_gets_the_close_name() {
    let r = run(
        &[
            "decode",
            "--schema",
            "order.proto",
            "--type",
            "shop.v1.Ordr",
        ],
        b"",
    );
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr.trim_end(),
        "error: order.proto defines no message shop.v1.Ordr (use the fully-qualified name); \
         did you mean shop.v1.Order?"
    );
}

#[test]
fn an_unknown_borrowed_path_is_an_error_naming_it() {
    let out = std::env::temp_dir().join(format!("bijoubuf-borrowed-{}", std::process::id()));
    let out = out.to_str().expect("UTF-8 path");
    let r = run(
        &[
            "compile",
            "--rust-out",
            out,
            "--rust-borrowed",
            ".shop.v1.Ordr",
            "order.proto",
        ],
        b"",
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains(
            "borrowed: `.shop.v1.Ordr` names no package, type or field of the schema \
             (did you mean `.shop.v1.Order`?)"
        ),
        "{}",
        r.stderr
    );
    let _ = std::fs::remove_dir_all(out);
}

#[test]
fn protobuf_bytes_are_refused_with_a_hint() {
    // Person { name: "Ada", age: 36 } as protobuf encodes it (LEB128, absolute keys).
    let protobuf = [0x0a, 0x03, b'A', b'd', b'a', 0x10, 0x24];
    for cmd in ["verify", "decode"] {
        let r = run(
            &[cmd, "--schema", "person.proto", "--type", "Person"],
            &protobuf,
        );
        assert_eq!(r.code, 1, "{}", r.stderr);
        // The key 0x0a read as a delta key: field 3, wire type LEN.
        assert!(
            r.stderr
                .starts_with("error[wire-type-mismatch]: Person.active "),
            "{}",
            r.stderr
        );
        assert!(
            r.stderr.contains(
                "hint: the input parses as protobuf's own encoding (LEB128 varints, \
                 absolute field keys; fields 1, 2)"
            ),
            "{}",
            r.stderr
        );
    }
    // bijoubuf's own refused bytes get no such hint (SPEC Appendix A.1 with a byte cut).
    let r = run(
        &["verify", "--schema", "person.proto", "--type", "Person"],
        &[0x02, 0x03, 0x41, 0x64],
    );
    assert_eq!(r.code, 1);
    assert!(!r.stderr.contains("hint:"), "{}", r.stderr);
}

const BOXED: &[u8] =
    br#"{"item": {"@type": "type.googleapis.com/things.v1.Thing", "label": "cup"}}"#;

#[test]
fn an_any_may_name_a_type_of_another_schema_file() {
    let box_only = [
        "encode",
        "--schema",
        "any/box.proto",
        "--type",
        "boxes.v1.Box",
    ];
    let r = run(&box_only, BOXED);
    assert_eq!(r.code, 1, "one file knows no Thing: {}", r.stderr);
    assert!(r.stderr.contains("things.v1.Thing"), "{}", r.stderr);
    let both = [
        "encode",
        "--schema",
        "any/box.proto",
        "--schema",
        "any/thing.proto",
        "--type",
        "boxes.v1.Box",
        "--output-hex",
    ];
    let r = run(&both, BOXED);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let hex = r.out().clone();
    // And back, from a descriptor set of both files.
    let dir = std::env::temp_dir().join(format!("bijoubuf-fds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let set = dir.join("boxes.binpb");
    let set = set.to_str().expect("UTF-8 path");
    let r = run(
        &[
            "compile",
            "-I",
            "any",
            "--descriptor-set-out",
            set,
            "any/box.proto",
            "any/thing.proto",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run(
        &[
            "decode",
            "--descriptor-set",
            set,
            "--type",
            "boxes.v1.Box",
            "--input-hex",
        ],
        hex.as_bytes(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.out()
            .contains("\"@type\": \"type.googleapis.com/things.v1.Thing\"")
            && r.out().contains("\"label\": \"cup\""),
        "{}",
        r.out()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_message_set_compiles_to_a_descriptor_set_but_no_code() {
    // protoc accepts a MessageSet, extension numbers past 2^29 included; bijoubuf's
    // format cannot encode one, so every code generator refuses it, naming it.
    let dir = std::env::temp_dir().join(format!("bijoubuf-message-set-{}", std::process::id()));
    let dir = dir.to_str().expect("UTF-8 path");
    let r = run(&["check", "--no-lint", "message_set.proto"], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let set = format!("{dir}.binpb");
    let r = run(
        &[
            "compile",
            "--no-lint",
            "--descriptor-set-out",
            &set,
            "message_set.proto",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let _ = std::fs::remove_file(&set);
    for flags in [
        &["--rust-out", dir][..],
        &["--ts-out", dir],
        &["--go-out", dir, "--go-module", "example.com/gen"],
    ] {
        let mut args = vec!["compile", "--no-lint"];
        args.extend_from_slice(flags);
        args.push("message_set.proto");
        let r = run(&args, b"");
        assert_eq!(r.code, 1, "{flags:?}: {}", r.stderr);
        assert!(
            r.stderr
                .contains("error[unsupported]: `ms.MS`: `option message_set_wire_format = true`")
                && r.stderr.contains("not supported by bijoubuf v1"),
            "{flags:?}: {}",
            r.stderr
        );
        assert!(!std::path::Path::new(dir).exists(), "{flags:?} wrote files");
    }
}

/// The status of a run whose stderr is a pipe no one reads any more (`2>&1 | head -1`
/// after `head` has exited): every write to it fails with a broken pipe.
fn status_with_stderr_closed(args: &[&str]) -> i32 {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_bijoubuf"))
        .args(args)
        .current_dir(common::data())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(writer)
        .status()
        .expect("the binary runs");
    status.code().expect("an exit status")
}

#[test]
fn a_report_to_a_closed_stderr_keeps_the_exit_status() {
    // A refused schema (status 1), a refused message (1) and a usage error (2): each
    // writes its report to stderr, which fails; the status must still be the command's,
    // not a panic's 101.
    let dir = std::env::temp_dir().join(format!("bijoubuf-closed-stderr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bad = dir.join("bad.proto");
    std::fs::write(
        &bad,
        "syntax = \"proto3\";\nmessage A { int32 x = 1; int32 y = 1; }\n",
    )
    .expect("write schema");
    let bad = bad.to_str().expect("UTF-8 path");
    assert_eq!(status_with_stderr_closed(&["check", bad]), 1);
    let input = dir.join("bad.bin");
    std::fs::write(&input, [0x00]).expect("write input");
    let input = input.to_str().expect("UTF-8 path");
    assert_eq!(
        status_with_stderr_closed(&[
            "verify",
            "--schema",
            "order.proto",
            "--type",
            "shop.v1.Order",
            input
        ]),
        1
    );
    assert_eq!(
        status_with_stderr_closed(&[
            "decode",
            "--schema",
            "order.proto",
            "--type",
            "shop.v1.Ordr",
            input
        ]),
        2
    );
    std::fs::remove_dir_all(&dir).expect("clean up");
}

/// A temporary tree of one-message proto3 files, `(path, message name)` each.
fn schema_tree(tag: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("bijoubuf-{tag}-{}", std::process::id()));
    for (path, message) in files {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().expect("a parent")).expect("dirs");
        std::fs::write(
            &p,
            format!("syntax = \"proto3\";\nmessage {message} {{}}\n"),
        )
        .expect("write schema");
    }
    dir
}

/// The binary run in `dir`: its exit status and stderr.
fn run_in(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bijoubuf"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_path_outside_the_include_directories_is_read_as_an_import_name_as_protoc_does() {
    // `api/a.proto` is a file here and another under `-I vendor`: protoc compiles the one
    // in `vendor` (the path read as an import name); so does bijoubuf, with a note.
    let dir = schema_tree(
        "import-name",
        &[("api/a.proto", "Here"), ("vendor/api/a.proto", "Vendored")],
    );
    let (code, stderr) = run_in(
        &dir,
        &[
            "compile",
            "--no-lint",
            "-I",
            "vendor",
            "--descriptor-set-out",
            "a.binpb",
            "api/a.proto",
        ],
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("note: api/a.proto is not inside any include directory")
            && stderr.contains("vendor/api/a.proto"),
        "{stderr}"
    );
    let set = std::fs::read(dir.join("a.binpb")).expect("the set");
    let has = |n: &[u8]| set.windows(n.len()).any(|w| w == n);
    assert!(has(b"Vendored") && !has(b"Here"));
    // Not for paths that are no import names: `./api/a.proto` stays refused.
    let (code, stderr) = run_in(
        &dir,
        &["check", "--no-lint", "-I", "vendor", "./api/a.proto"],
    );
    assert_eq!(code, Some(2), "{stderr}");
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn an_input_shadowed_by_an_earlier_include_directory_is_refused_as_protoc_refuses_it() {
    // `-I a -I b b/x.proto` with `a/x.proto` too: the name `x.proto` reads `a/x.proto`,
    // so compiling it would compile another file than the one named.
    let dir = schema_tree(
        "shadowed",
        &[
            ("a/x.proto", "A"),
            ("b/x.proto", "B"),
            ("api/y.proto", "Y"),
            ("b/api/y.proto", "Y2"),
        ],
    );
    let (code, stderr) = run_in(
        &dir,
        &["check", "--no-lint", "-I", "a", "-I", "b", "b/x.proto"],
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("b/x.proto is shadowed") && stderr.contains("a/x.proto"),
        "{stderr}"
    );
    // The first of the two is no shadow.
    let (code, stderr) = run_in(
        &dir,
        &["check", "--no-lint", "-I", "a", "-I", "b", "a/x.proto"],
    );
    assert_eq!(code, Some(0), "{stderr}");
    // A path read as an import name must be one: `api//y.proto` and `api/./y.proto` are
    // not, and stay outside every include directory.
    for spelled in ["api//y.proto", "api/./y.proto"] {
        let (code, stderr) = run_in(&dir, &["check", "--no-lint", "-I", "b", spelled]);
        assert_eq!(code, Some(2), "{spelled}: {stderr}");
    }
    let (code, stderr) = run_in(&dir, &["check", "--no-lint", "-I", "b", "api/y.proto"]);
    assert_eq!(code, Some(0), "{stderr}");
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn a_directory_stands_for_the_proto_files_below_it() {
    // As buf reads a module and `breaking` reads NEW: with no -I the directory is the
    // include directory (`order.proto` imports "line.proto"), its files all compiled.
    for dir in ["breaking/imports/split", "breaking/imports/split/"] {
        let r = run(&["check", dir], b"");
        assert_eq!(r.code, 0, "{dir}: {}", r.stderr);
        assert!(r.out().starts_with("ok 2 files checked"), "{}", r.out());
    }
    let scratch = std::env::temp_dir().join(format!("bijoubuf-dir-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch dir");
    let set = scratch.join("split.binpb");
    let set = set.to_str().expect("UTF-8 path");
    let r = run(
        &[
            "compile",
            "--descriptor-set-out",
            set,
            "breaking/imports/split",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Both files are in the set: Order's Line is found without --include-imports.
    let r = run(
        &[
            "verify",
            "--descriptor-set",
            set,
            "--type",
            "shop.v1.Order",
            "--input-hex",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    // A directory with no .proto file below it is refused, named whole.
    let empty = scratch.join("empty");
    std::fs::create_dir_all(&empty).expect("empty dir");
    let r = run(&["check", empty.to_str().expect("UTF-8 path")], b"");
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(
        r.stderr.trim_end(),
        format!(
            "error: no .proto files in the directory {}: name .proto files, or a directory \
             with .proto files below it",
            empty.display()
        )
    );
    let _ = std::fs::remove_dir_all(&scratch);
}

#[test]
fn a_directorys_walk_leaves_out_hidden_directories_and_node_modules() {
    // A project with its schema, a checkout's metadata and a package manager's copies of
    // other schemas (here ones that do not compile, so reading them would fail).
    let dir = std::env::temp_dir().join(format!("bijoubuf-walk-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let write = |path: &str, text: &str| {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().expect("a parent")).expect("dirs");
        std::fs::write(p, text).expect("write");
    };
    write(
        "proj/api/a.proto",
        "syntax = \"proto3\"; package a; message A {}\n",
    );
    write("proj/.git/x.proto", "not a schema\n");
    write("proj/node_modules/pkg/y.proto", "not a schema either\n");
    let (code, stderr) = run_in(&dir, &["check", "--no-lint", "proj"]);
    assert_eq!(code, Some(0), "{stderr}");
    // Named, such a directory is read: the skip is for what the walk finds.
    let (code, stderr) = run_in(&dir, &["check", "--no-lint", "proj/node_modules"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("y.proto"), "{stderr}");
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn counts_of_one_are_singular() {
    // Person.name's length prefix with nothing after it: one byte of input.
    let r = run(
        &["verify", "--schema", "person.proto", "--type", "Person"],
        &[0x02],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("  offset: 1 (0x1) of stdin, 1 byte (end of input)\n"),
        "{}",
        r.stderr
    );
    // One frame of one byte (the empty message).
    let r = run(
        &[
            "verify",
            "--schema",
            "person.proto",
            "--type",
            "Person",
            "--stream",
        ],
        &[0x00],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.out().starts_with("ok 1 byte in 1 message blake3:"),
        "{}",
        r.out()
    );
    let r = run(&["decode-raw", "--input-hex"], b"02 05");
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("a length of 5 runs past the end (0 bytes left)"),
        "{}",
        r.stderr
    );
}

#[test]
fn an_enum_given_as_the_type_is_named_an_enum() {
    let r = run(
        &[
            "decode",
            "--schema",
            "kitchen.proto",
            "--type",
            "kitchen.v1.Color",
        ],
        b"",
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(
        r.stderr.trim_end(),
        "error: kitchen.proto defines kitchen.v1.Color as an enum, not a message: --type names \
         the message type of the bytes"
    );
}
