//! `Options::go_package_layout`: Go packages placed and named by each file's
//! `option go_package`, as protoc-gen-go places them with `module=`.

use bijoubuf_codegen_go::{GeneratedFile, Options, generate};

fn compile(sources: &[(&str, &str)]) -> bijoubuf_schema::Schema {
    bijoubuf_schema::compile_sources(sources)
        .expect("the schema compiles")
        .schema
}

fn by_go_package(sources: &[(&str, &str)], module: &str) -> Vec<GeneratedFile> {
    let schema = compile(sources);
    let mut options = Options::new();
    options.module(module);
    options
        .go_package_layout(&schema)
        .expect("the layout is accepted");
    generate(&schema, &options)
}

fn file<'a>(files: &'a [GeneratedFile], name: &str) -> &'a str {
    match files.iter().find(|f| f.name == name) {
        Some(f) => &f.content,
        None => panic!(
            "no {name} among {:?}",
            files.iter().map(|f| &f.name).collect::<Vec<_>>()
        ),
    }
}

/// The files of one proto package in two Go packages (as googleapis' `google.api` is),
/// one using the other's type: each is written where its option says, under the module
/// or nested in it, and the user imports the other.
#[test]
fn files_of_one_proto_package_go_where_their_options_say() {
    let files = by_go_package(
        &[
            (
                "g/label.proto",
                r#"syntax = "proto3"; package g.api;
                option go_package = "example.com/app/gen/g/label;label";
                message LabelDescriptor { string key = 1; }"#,
            ),
            (
                "g/resource.proto",
                r#"syntax = "proto3"; package g.api;
                import "g/label.proto";
                option go_package = "other.org/genproto/api/resource";
                message Resource { repeated LabelDescriptor labels = 1; }"#,
            ),
        ],
        "example.com/app/gen",
    );
    let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "g/label/label.bb.go",
            "other.org/genproto/api/resource/resource.bb.go"
        ]
    );
    let label = file(&files, "g/label/label.bb.go");
    assert!(label.contains("\npackage label\n"), "{label}");
    assert!(label.contains("type LabelDescriptor struct"), "{label}");
    let resource = file(&files, "other.org/genproto/api/resource/resource.bb.go");
    assert!(resource.contains("\npackage resource\n"), "{resource}");
    // A path outside the module is nested under it, so the import says so.
    assert!(
        resource.contains("label \"example.com/app/gen/g/label\""),
        "{resource}"
    );
    assert!(resource.contains("[]*label.LabelDescriptor"), "{resource}");
}

/// Two proto packages naming one Go package share one file: both packages' types, no
/// import of itself, and a clash of names resolved as within one package.
#[test]
fn proto_packages_naming_one_go_package_share_its_file() {
    let files = by_go_package(
        &[
            (
                "a.proto",
                r#"syntax = "proto3"; package x.a;
                option go_package = "example.com/m/types";
                message Coin { string denom = 1; }
                message Dup { int32 v = 1; }"#,
            ),
            (
                "b.proto",
                r#"syntax = "proto3"; package x.b;
                import "a.proto";
                option go_package = "example.com/m/types";
                message Balance { x.a.Coin coin = 1; }
                message Dup { int64 v = 1; }"#,
            ),
        ],
        "example.com/m",
    );
    assert_eq!(
        files.len(),
        1,
        "{:?}",
        files.iter().map(|f| &f.name).collect::<Vec<_>>()
    );
    let types = file(&files, "types/types.bb.go");
    assert!(types.contains("proto packages x.a, x.b."), "{types}");
    assert!(types.contains("\npackage types\n"), "{types}");
    assert!(types.contains(" *Coin\n"), "{types}");
    assert!(
        !types.contains("example.com/m/types\""),
        "imports itself: {types}"
    );
    assert!(types.contains("type Dup struct"), "{types}");
    assert!(types.contains("type Dup_ struct"), "{types}");
}

/// `PATH` equal to the module is the output's root; `;NAME` names the package, its case
/// kept; a file without the option keeps the dotted layout.
#[test]
fn the_module_itself_an_explicit_name_and_a_file_without_the_option() {
    let files = by_go_package(
        &[
            (
                "root.proto",
                r#"syntax = "proto3"; package r;
                option go_package = "example.com/m;rootPb";
                message Root { int32 v = 1; }"#,
            ),
            (
                "plain.proto",
                r#"syntax = "proto3"; package p.q;
                message Plain { int32 v = 1; }"#,
            ),
        ],
        "example.com/m",
    );
    let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["p/q/q.bb.go", "rootPb.bb.go"]);
    assert!(file(&files, "rootPb.bb.go").contains("\npackage rootPb\n"));
    assert!(file(&files, "p/q/q.bb.go").contains("\npackage q\n"));
}

/// Without the call, `go_package` is not read: the dotted layout.
#[test]
fn the_default_layout_does_not_read_go_package() {
    let schema = compile(&[(
        "a.proto",
        r#"syntax = "proto3"; package x.a;
        option go_package = "example.com/m/types";
        message Coin { string denom = 1; }"#,
    )]);
    let mut options = Options::new();
    options.module("example.com/m");
    let files = generate(&schema, &options);
    assert_eq!(files[0].name, "x/a/a.bb.go");
}

fn refusal(go_package: &str, extra: Option<(&str, &str)>) -> String {
    let first = format!(
        r#"syntax = "proto3"; package x; option go_package = "{go_package}"; message A {{}}"#
    );
    let mut sources = vec![("a.proto", first.as_str())];
    sources.extend(extra);
    let schema = compile(&sources);
    let mut options = Options::new();
    options.module("example.com/m");
    let e = options
        .go_package_layout(&schema)
        .expect_err("the layout is refused");
    assert_eq!(e.code(), "go-package");
    e.to_string()
}

/// A `PATH` that would write outside the output, or is no import path, is refused before
/// anything is generated; so is one Go package given two names.
#[test]
fn paths_outside_the_output_and_two_names_for_one_package_are_refused() {
    for bad in [
        "../escape",
        "example.com/m/../x",
        "/abs/path",
        "a//b",
        "a b",
        "",
        ";name",
    ] {
        let e = refusal(bad, None);
        assert!(e.starts_with("a.proto: go_package"), "{bad}: {e}");
    }
    let e = refusal(
        "example.com/m/t;one",
        Some((
            "b.proto",
            r#"syntax = "proto3"; package y; option go_package = "example.com/m/t;two"; message B {}"#,
        )),
    );
    assert!(
        e.contains("\"example.com/m/t\" is named `two` here and `one` by a.proto"),
        "{e}"
    );
}
