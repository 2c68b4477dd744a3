//! Files an earlier build wrote and the current one does not are removed from the output
//! directory; files the build did not write, or another call wrote, stay.

use std::path::{Path, PathBuf};

use bijoubuf_build::Config;

/// A fresh directory under the target dir for one test, with `proto/` and `out/`.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("proto/common/v1")).unwrap();
    std::fs::create_dir_all(dir.join("out")).unwrap();
    std::fs::write(
        dir.join("proto/common/v1/money.proto"),
        "syntax = \"proto3\"; package common.v1; message Money { int64 units = 1; }",
    )
    .unwrap();
    dir
}

/// A file `name.proto` of package `name` with one message, using `common.v1.Money` if
/// `import`.
fn write_proto(dir: &Path, name: &str, import: bool) {
    let text = if import {
        format!(
            "syntax = \"proto3\"; package {name}; import \"common/v1/money.proto\";\n\
             message Order {{ common.v1.Money total = 1; }}"
        )
    } else {
        format!("syntax = \"proto3\"; package {name}; message Order {{ uint64 id = 1; }}")
    };
    std::fs::write(dir.join(format!("proto/{name}.proto")), text).unwrap();
}

fn build(dir: &Path, proto: &str, include_file: Option<&str>) -> Vec<PathBuf> {
    let mut config = Config::new();
    config.out_dir(dir.join("out")).cargo_directives(false);
    if let Some(name) = include_file {
        config.include_file(name);
    }
    config
        .compile_protos(&[format!("{proto}.proto")], &[dir.join("proto")])
        .unwrap()
}

fn out_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir.join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort();
    names
}

#[test]
fn a_package_no_longer_imported_is_removed_and_nothing_else() {
    // Regression: dropping an import left `common.v1.rs` in OUT_DIR, and
    // `include_proto!("common.v1")` went on compiling the old code.
    let dir = scratch("stale-import");
    std::fs::write(dir.join("out/mine.rs"), "// not generated\n").unwrap();
    write_proto(&dir, "shop", true);
    build(&dir, "shop", Some("protos.rs"));
    assert_eq!(
        out_files(&dir),
        ["common.v1.rs", "mine.rs", "protos.rs", "shop.rs"]
    );
    write_proto(&dir, "shop", false);
    let written = build(&dir, "shop", Some("all.rs"));
    assert_eq!(written, [dir.join("out/shop.rs"), dir.join("out/all.rs")]);
    // The package no longer generated and the renamed include file are gone; the file
    // the build never wrote stays.
    assert_eq!(out_files(&dir), ["all.rs", "mine.rs", "shop.rs"]);
    // The import back: written again.
    write_proto(&dir, "shop", true);
    build(&dir, "shop", Some("all.rs"));
    assert_eq!(
        out_files(&dir),
        ["all.rs", "common.v1.rs", "mine.rs", "shop.rs"]
    );
}

#[test]
fn two_calls_into_one_directory_keep_each_others_files() {
    // Two `compile_protos` calls in one build.rs, both generating `common.v1.rs`. When
    // the first no longer imports it, the second still writes it: it must survive the
    // first call whichever runs first, and go once neither writes it.
    let dir = scratch("stale-two-calls");
    write_proto(&dir, "a", true);
    write_proto(&dir, "b", true);
    let run = |order: [&str; 2]| {
        for proto in order {
            build(&dir, proto, None);
        }
    };
    for order in [["a", "b"], ["b", "a"]] {
        write_proto(&dir, "a", true);
        run(order);
        assert_eq!(out_files(&dir), ["a.rs", "b.rs", "common.v1.rs"]);
        write_proto(&dir, "a", false);
        for proto in order {
            build(&dir, proto, None);
            assert_eq!(
                out_files(&dir),
                ["a.rs", "b.rs", "common.v1.rs"],
                "after {proto} in {order:?}"
            );
        }
    }
    write_proto(&dir, "b", false);
    run(["a", "b"]);
    assert_eq!(out_files(&dir), ["a.rs", "b.rs"]);
}
