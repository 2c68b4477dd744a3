//! One named snapshot of generated Go per sample schema in `schemas/`, the generator's
//! fixed choices checked directly, and (with Go installed) every sample schema generated
//! into a scratch module that `gofmt -l` and `go vet` must find clean.

#[path = "support/go.rs"]
mod go_tool;

use std::path::{Path, PathBuf};
use std::process::Command;

use bijoubuf_codegen_go::{GeneratedFile, Options, generate};
use bijoubuf_schema::Compiler;
use go_tool::{go, run};

fn schemas_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas")
}

fn options() -> Options {
    let mut o = Options::new();
    o.module("example.com/gen");
    o
}

fn generate_files(names: &[&str]) -> Vec<GeneratedFile> {
    let compiled = Compiler::new()
        .include(schemas_dir())
        .compile(names)
        .unwrap_or_else(|e| panic!("{names:?} do not compile: {e}"));
    generate(&compiled.schema, &options())
}

fn joined(files: &[GeneratedFile]) -> String {
    files
        .iter()
        .map(|f| format!("==> {} <==\n{}\n", f.name, f.content))
        .collect()
}

#[test]
fn example_envelope() {
    insta::assert_snapshot!(
        "example_envelope",
        joined(&generate_files(&["example/v1/envelope.proto"]))
    );
}

#[test]
fn kitchen_sink() {
    insta::assert_snapshot!(
        "kitchen_sink",
        joined(&generate_files(&["kitchen/sink.proto"]))
    );
}

#[test]
fn legacy_proto2() {
    insta::assert_snapshot!(
        "legacy_proto2",
        joined(&generate_files(&["legacy/legacy.proto"]))
    );
}

#[test]
fn keywords() {
    insta::assert_snapshot!(
        "keywords",
        joined(&generate_files(&["keywords/keywords.proto"]))
    );
}

fn one(source: &str) -> String {
    let compiled = bijoubuf_schema::compile_sources(&[("t.proto", source)])
        .unwrap_or_else(|e| panic!("does not compile: {e:?}"));
    let files = generate(&compiled.schema, &options());
    assert_eq!(files.len(), 1, "{files:?}");
    files
        .into_iter()
        .next()
        .map(|f| f.content)
        .unwrap_or_default()
}

#[test]
fn presence_maps_oneofs_and_enums_have_their_go_forms() {
    let go = one(r#"syntax = "proto3"; package p;
        enum Color { COLOR_UNSPECIFIED = 0; RED = 1; }
        message M {
          optional uint32 opt = 1;
          map<string, Color> by_name = 2;
          oneof pick { string s = 3; M m = 4; }
          repeated M kids = 5;
          bytes raw = 6;
          optional bytes maybe = 7;
          sint64 n = 8;
        }"#);
    for part in [
        "type Color int32\n",
        "const Color_RED Color = 1\n",
        "\tOpt    *uint32\n",
        "\tByName map[string]Color\n",
        "\tPick    isM_Pick\n",
        "\tKids    []*M\n",
        "\tRaw     []byte\n",
        // Explicit bytes: nil is absent.
        "\tMaybe   []byte\n",
        "\tN       int64\n",
        "type M_S struct {\n\tS string\n}\n",
        "type M_M struct {\n\tM *M\n}\n",
        "func (*M_S) isM_Pick() {}\n",
        // One loop over the records, a case per field number with its wire type checked.
        "\t\tcase 1:\n\t\t\tif wt != bijoubuf.WireVarint {\n\t\t\t\treturn r.WireMismatch(\"opt\")\n",
        "\t\tcase 8:\n\t\t\tif wt != bijoubuf.WireVarint {\n\t\t\t\treturn r.WireMismatch(\"n\")\n",
        "\t\tdefault:\n\t\t\tif err := r.Skip(n, wt); err != nil {\n",
        "return r.OneofConflict(\"m\")",
        // The encode passes dispatch on a oneof of neighbouring members once.
        "\tswitch o := m.Pick.(type) {\n\tcase *M_S:\n",
        // Map entries sorted by key and written from the last (the write pass goes
        // backwards), each value taken with its key (not looked up).
        "\t\tvar ks [8]bijoubuf.Entry[string, Color]\n\t\tes := bijoubuf.AppendSortedEntries(ks[:0], m.ByName)\n\t\tfor i := len(es) - 1; i >= 0; i-- {\n\t\t\tk, v := es[i].Key, es[i].Value\n",
        // Fields from the last to the first, each key left pending for the field below,
        // a key and its value in one call: a one-byte key and value inlined
        // (FieldVarintFast), FieldVarintRest after it for every other case.
        "\tif v := m.N; v != 0 {\n\t\tif !w.FieldVarintFast(8, bijoubuf.Zigzag(int64(v))) {\n\t\t\tw.FieldVarintRest(8, bijoubuf.Zigzag(int64(v)))\n\t\t}\n\t}\n\tif len(u) != 0 {\n\t\tu = w.UnknownAfter(u, 7)\n\t}\n",
        "{Number: 1, Name: \"opt\", JSONName: \"opt\", GoName: \"Opt\", Kind: bijoubuf.KindUint32, Explicit: true}",
        "{Number: 3, Name: \"s\", JSONName: \"s\", GoName: \"S\", Kind: bijoubuf.KindString, Explicit: true, Oneof: \"pick\", OneofGoName: \"Pick\", NewOneofWrapper: func() any { return new(M_S) }}",
    ] {
        assert!(go.contains(part), "no `{part}` in\n{go}");
    }
}

#[test]
fn deprecated_declarations_get_gos_deprecated_paragraph() {
    let go = one(r#"syntax = "proto3"; package p;
        enum Old { option deprecated = true; OLD_UNSPECIFIED = 0; GONE = 1 [deprecated = true]; KEPT = 2; }
        message Legacy { option deprecated = true; uint32 a = 1; }
        message M {
          // Kept for old readers.
          uint32 a = 1 [deprecated = true];
          uint32 b = 2 [deprecated = true];
          uint32 c = 3;
          oneof pick { string s = 4 [deprecated = true]; uint32 t = 5; }
        }"#);
    let dep = "Deprecated: the schema marks this deprecated.";
    for part in [
        format!("\t// Kept for old readers.\n\t//\n\t// {dep}\n\tA uint32\n"),
        format!("\t// B is field 2 (b).\n\t//\n\t// {dep}\n\tB "),
        format!("// Legacy is p.Legacy.\n//\n// {dep}\ntype Legacy struct"),
        format!("//\n// {dep}\ntype Old int32\n"),
        "// Old_GONE is GONE.\n//\n// Deprecated: the schema marks this value deprecated.\nconst Old_GONE Old = 1\n".to_string(),
        format!("// M_S is M.Pick holding s (field 4).\n//\n// {dep}\ntype M_S struct"),
        // The getters of deprecated fields, as protobuf-go marks them.
        format!("// GetA is A, or 0 when m is nil.\n//\n// {dep}\nfunc (m *M) GetA() uint32"),
        format!("// GetS is S when GetPick() holds it, else \"\".\n//\n// {dep}\nfunc (m *M) GetS() string"),
    ] {
        assert!(go.contains(&part), "no `{part}` in\n{go}");
    }
    // Only what the schema marks: six declarations and three getters.
    assert_eq!(go.matches("Deprecated:").count(), 9, "{go}");
}

#[test]
fn sparse_field_numbers_get_a_second_switch() {
    // Numbers 1..8 are dense enough for Go's jump table; 1000 goes to a switch of its
    // own in the first one's default, which refuses or keeps the unknown records.
    let go = one(r#"syntax = "proto3"; package p;
        message M {
          uint32 a = 1; uint32 b = 2; uint32 c = 3; uint32 d = 4;
          uint32 e = 5; uint32 f = 6; uint32 g = 7; uint32 h = 8;
          uint32 far = 1000;
        }"#);
    for part in [
        "\t\tcase 8:\n",
        "\t\tdefault:\n\t\t\tswitch n {\n\t\t\tcase 1000:\n",
        "\t\t\tdefault:\n\t\t\t\tif err := r.Skip(n, wt); err != nil {\n",
    ] {
        assert!(go.contains(part), "no `{part}` in\n{go}");
    }
    // Fewer than eight cases: one switch.
    let go = one(r#"syntax = "proto3"; package p;
        message M { uint32 a = 1; uint32 far = 1000; }"#);
    assert!(go.contains("\t\tcase 1000:\n"), "{go}");
    assert!(!go.contains("\t\t\tswitch n {"), "{go}");
}

#[test]
fn names_that_collide_get_a_trailing_underscore() {
    let go = one(r#"syntax = "proto3"; package p;
        message M {
          uint32 marshal = 1;
          uint32 full_name = 2;
          uint32 bijoubuf_size = 3;
          oneof o { uint32 a = 5; }
          message O_A {}
          message A {}
        }"#);
    for part in [
        "\tMarshal_      uint32\n",
        "\tFullName_     uint32\n",
        "\tBijoubufSize_ uint32\n",
        // The nested message M.A takes M_A; the oneof wrapper steps aside.
        "type M_A struct {\n\tunknown",
        "type M_A_ struct {\n\tA uint32\n}\n",
    ] {
        assert!(go.contains(part), "no `{part:?}` in\n{go}");
    }
}

#[test]
fn packages_go_to_their_directories_and_import_each_other() {
    let compiled = bijoubuf_schema::compile_sources(&[
        (
            "a.proto",
            r#"syntax = "proto3"; package shop.v1; message Item { string sku = 1; }"#,
        ),
        (
            "b.proto",
            r#"syntax = "proto3"; package audit;
            import "a.proto"; import "google/protobuf/timestamp.proto";
            message Entry { shop.v1.Item item = 1; google.protobuf.Timestamp at = 2; }"#,
        ),
    ])
    .expect("compiles");
    let mut o = options();
    o.package_dir("audit", "");
    let files = generate(&compiled.schema, &o);
    let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    // google.protobuf is not generated: it is the module's wkt package.
    assert_eq!(names, ["gen.bb.go", "shop/v1/v1.bb.go"]);
    let entry = &files[0].content;
    for part in [
        "package gen\n",
        "\tv1 \"example.com/gen/shop/v1\"\n",
        "\twkt \"github.com/bijoubuf/bijoubuf/go/wkt\"\n",
        "\tItem    *v1.Item\n",
        "\tAt      *wkt.Timestamp\n",
        // Timestamp is outside the default preserving set (SPEC §8.2).
        "v := new(wkt.Timestamp)\n\t\t\tf, ok := r.EnterFast(false)",
        "v := new(v1.Item)\n\t\t\tf, ok := r.EnterFast(true)",
    ] {
        assert!(entry.contains(part), "no `{part}` in\n{entry}");
    }
}

#[test]
fn every_sample_schema_generates_go_that_is_formatted_and_vetted() {
    let Some(go) = go() else {
        return;
    };
    // schemas/examples is its own include root (its files import each other by bare
    // name); the rest is rooted at schemas/.
    // The two versions of examples/evolution share a package: one module each.
    let examples = schemas_dir().join("examples");
    check_tree(&go, &schemas_dir(), Some("examples"), "rest");
    check_tree(&go, &examples, Some("evolution"), "examples");
    check_tree(&go, &examples.join("evolution/v1"), None, "evolution-v1");
    check_tree(&go, &examples.join("evolution/v2"), None, "evolution-v2");
}

/// Generate every .proto under `root` (but the `skip` directory) into a scratch module
/// ([`check_module`]).
fn check_tree(go: &Path, root: &Path, skip: Option<&str>, tag: &str) {
    let mut files = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read dir") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                if skip.is_none_or(|s| p != root.join(s)) {
                    stack.push(p);
                }
            } else if p.extension().is_some_and(|x| x == "proto") {
                let rel = p.strip_prefix(root).expect("under");
                files.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    files.sort();
    let names: Vec<&str> = files.iter().map(String::as_str).collect();
    let compiled = Compiler::new()
        .include(root)
        .compile(&names)
        .unwrap_or_else(|e| panic!("{names:?} do not compile: {e}"));
    check_module(go, &generate(&compiled.schema, &options()), tag);
}

/// Write `generated` into a scratch module that uses this repository's runtime;
/// gofmt and go vet must find it clean.
fn check_module(go: &Path, generated: &[GeneratedFile], tag: &str) {
    let dir =
        std::env::temp_dir().join(format!("bijoubuf-codegen-go-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for f in generated {
        let path = dir.join(&f.name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, &f.content).expect("write");
    }
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../go")
        .canonicalize()
        .expect("go/");
    std::fs::write(
        dir.join("go.mod"),
        format!(
            "module example.com/gen\n\ngo 1.26\n\nrequire github.com/bijoubuf/bijoubuf/go v0.0.0\n\nreplace github.com/bijoubuf/bijoubuf/go => {}\n",
            runtime.display()
        ),
    )
    .expect("go.mod");
    let out = Command::new(gofmt(go))
        .args(["-l", "."])
        .current_dir(&dir)
        .output()
        .expect("gofmt");
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && listed.trim().is_empty(),
        "gofmt would change: {listed}"
    );
    run(go, &dir, &["vet", "./..."]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The `gofmt` beside `go`.
fn gofmt(go: &Path) -> PathBuf {
    let goroot = run(go, Path::new("."), &["env", "GOROOT"]);
    Path::new(goroot.trim()).join("bin").join("gofmt")
}

/// `src` as `gofmt` prints it.
fn gofmt_text(go: &Path, src: &str) -> String {
    use std::io::Write;
    let mut child = Command::new(gofmt(go))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("gofmt");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(src.as_bytes())
        .expect("write to gofmt");
    let out = child.wait_with_output().expect("gofmt");
    assert!(out.status.success(), "gofmt refused:\n{src}");
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// Comments of every shape gofmt rewrites: a block comment opening on its own line,
/// empty ones, runs of blank lines, trailing blanks and tabs, indented lines, `//` and
/// `*` inside, headings old and new, link definitions, list and code look-alikes; on
/// every declaration that carries a doc comment, top-level and in a struct. `·` stands
/// for a trailing blank and `→` for a tab ([`comment_shapes`]).
const COMMENT_SHAPES: &str = r#"syntax = "proto3"; package shapes;

/*
Block comment starting on its own line.
*/
message Block {
  /*
  Field comment on its own line.
  */
  uint32 a = 1;
}

/**/
message EmptyBlock { /* */ uint32 a = 1; }

//
//
message EmptyLines {
  //
  uint32 a = 1;
}

//   Leading blanks, trailing blanks and tabs.··
//→Tabbed→inside.→
//
//
//
// After three blank lines; // slashes /* and */ inside; * a star.
// Quotes: ''a'' ``b'' ```c'' d``` http://example.com/e''f xhttp://example.com/''.
//
//
message Spacing {
  // Trailing··
  //
  //
  //     indented as code
  uint32 a = 1;
}

// Overview
//
// Details of the old heading form: a line between paragraphs.
//
// Its Parts v1.2
//
// # New heading
//
// #→Tabbed heading
//
// Last Line Looks Like A Heading
//
// Range 1..2
//
// Not A's's heading
//
// Last.
message Headings {
  // Overview
  //
  // In a struct, not reformatted.
  uint32 a = 1;
}

// [spec]: https://example.com/spec
// [unused]: https://example.com/unused
//
// See [spec] and [missing].
//
// [later]: http://example.com/later
//
// - a list look-alike
// 1. numbered
//     func code() {
//     }
enum Links {
  LINKS_UNSPECIFIED = 0;
}

// [first]: https://example.com/first
//
// Heading Once The Definition Moves
message LinkFirst {}

// Not A Heading Once The Definition Moves
//
// [between]: https://example.com/between
//
//     code after the definition
message LinkBetween {}

message Oneofs {
  // Overview
  //
  // A member's wrapper doc is top-level.
  oneof pick {
    // Overview
    //
    // Text.
    string s = 1;
    // A code sample in a wrapper's doc:
    //
    //     pick: n = 2 // not ''quoted''
    uint32 n = 2;
  }
  // In a struct, a code sample stays as written:
  //     oneof_sample ''here''
  oneof other { uint32 o = 3; }
}

// A code sample, indented in the .proto; gofmt leaves its quotes alone:
//
//     expression: "x < 18 ? 'too young' : ''"
//       deeper, then two blank lines inside
//
//
//     last ''line''
// Text ''after'' it.
//
// Heading Before Code
//
//    code after a heading look-alike
//
// An unindented line ends the code.
//  - an indented list
//  - of two
//
//Unspaced, then
//  spaced by one more
message CodeSamples {
  // A field's sample:
  //
  //     field ''sample''
  uint32 a = 1;
}

/*   */
message EmptyBlockSpaces { uint32 a = 1; }
"#;

fn comment_shapes() -> String {
    COMMENT_SHAPES.replace('·', " ").replace('→', "\t")
}

/// Messages whose names put gofmt's one-line function bodies (oneof wrapper marker
/// methods, `New` and `NewOneofWrapper` in descriptor tables) on both sides of its
/// 100-byte limit, at every length across it.
fn long_names() -> String {
    let mut s = String::from("syntax = \"proto3\"; package longnames;\n");
    for len in 30..=72 {
        let name = format!("M{}", "x".repeat(len - 1));
        s.push_str(&format!(
            "message {name} {{ oneof o {{ string f234567890 = 1; uint32 f2345678901 = 2; }} }}\n"
        ));
    }
    s
}

/// Lines that may or may not be gofmt's old implicit heading form, each between two
/// paragraphs (its message's first line and `Next.`): whichever gofmt decides, the
/// generated comment must already be in the form it prints. Periods (`..`, `.` before a
/// tab or a blank), apostrophes (`'s` once, twice, before a tab), the characters that
/// rule a heading out, and the first and last characters.
const HEADING_CANDIDATES: &[&str] = &[
    "Range 1..2",
    "Version 1.2.3",
    "A.b",
    "A.\tb",
    "A.. b",
    "Ends.",
    "A..",
    "A's",
    "A's x",
    "A 's",
    "It's Bob's",
    "A's's",
    "A's's x",
    "A's\tb",
    "Ab's.s",
    "A''s",
    "A 'quoted' thing",
    "Café 2",
    "Éclair v2",
    "A,b",
    "A (b) c",
    "A-b",
    "A$b",
    "A|b",
    "A\tb",
    "A: b",
    "A_b",
    "a lowercase start",
    "Ends with a dash -",
    "Ends in a digit 9",
];

/// One message per heading candidate.
fn heading_candidates() -> String {
    let mut s = String::from("syntax = \"proto3\"; package headings;\n");
    for (i, line) in HEADING_CANDIDATES.iter().enumerate() {
        s.push_str(&format!("// {line}\n//\n// Next.\nmessage H{i} {{}}\n"));
    }
    s
}

#[test]
fn comments_of_every_shape_and_long_names_are_gofmt_clean() {
    let Some(go) = go() else {
        return;
    };
    let (shapes, long, headings) = (comment_shapes(), long_names(), heading_candidates());
    let compiled = bijoubuf_schema::compile_sources(&[
        ("shapes.proto", shapes.as_str()),
        ("long.proto", long.as_str()),
        ("headings.proto", headings.as_str()),
    ])
    .unwrap_or_else(|e| panic!("does not compile: {e:?}"));
    let files = generate(&compiled.schema, &options());
    check_module(&go, &files, "shapes");

    // gofmt -l cannot see a line made a heading that gofmt would have left a paragraph
    // (it keeps `# ` headings), so each candidate's comment is also compared with what
    // gofmt makes of the schema's text as written: printed twice, as gofmt does not
    // always reach its fixed point at once (`A''s` prints as `A”s`, a heading to it).
    let mut raw = String::from("package headings\n");
    for (i, line) in HEADING_CANDIDATES.iter().enumerate() {
        raw.push_str(&format!(
            "\n// H{i} is headings.H{i}.\n//\n// {line}\n//\n// Next.\ntype H{i} struct{{}}\n"
        ));
    }
    let want = gofmt_text(&go, &gofmt_text(&go, &raw));
    let got = &files
        .iter()
        .find(|f| f.name.starts_with("headings/"))
        .expect("headings package")
        .content;
    for (i, line) in HEADING_CANDIDATES.iter().enumerate() {
        let head = format!("// H{i} is headings.H{i}.\n");
        let comment = |text: &str| {
            let at = text.find(&head).expect("doc comment");
            let end = at + text[at..].find("\ntype ").expect("declaration");
            text[at..end].to_string()
        };
        assert_eq!(comment(got), comment(&want), "{line:?}");
    }
}

#[test]
fn code_samples_in_comments_keep_their_indentation() {
    let compiled = bijoubuf_schema::compile_sources(&[("shapes.proto", comment_shapes().as_str())])
        .unwrap_or_else(|e| panic!("does not compile: {e:?}"));
    let files = generate(&compiled.schema, &options());
    let go = &files[0].content;
    for part in [
        // Top-level: gofmt's code block, a tab after `//`, the run's own indentation
        // gone and the rest kept, blank lines inside kept, quotes as written.
        "// A code sample, indented in the .proto; gofmt leaves its quotes alone:\n//\n\
         //\texpression: \"x < 18 ? 'too young' : ''\"\n\
         //\t  deeper, then two blank lines inside\n//\n//\n//\tlast ''line''\n//\n\
         // Text \u{201d}after\u{201d} it.\n//\n",
        // A heading look-alike before code is not a heading.
        "//\n// Heading Before Code\n//\n//\tcode after a heading look-alike\n//\n",
        // A list is kept as paragraph lines.
        "// An unindented line ends the code.\n//\n// - an indented list\n// - of two\n//\n",
        // One blank after `//` is the comment marker's, not indentation.
        "//\n// Unspaced, then\n//\n//\tspaced by one more\ntype CodeSamples struct",
        "//\n//\tpick: n = 2 // not ''quoted''\ntype Oneofs_N struct",
        // In a struct: as written.
        "\t// A field's sample:\n\t//\n\t//     field ''sample''\n",
        "\t// In a struct, a code sample stays as written:\n\t//     oneof_sample ''here''\n",
        // Old headings are decided in the printed order, link definitions last.
        "// # Heading Once The Definition Moves\n//\n// [first]: https://example.com/first\n",
        "// Not A Heading Once The Definition Moves\n//\n//\tcode after the definition\n//\n\
         // [between]: https://example.com/between\n",
        "//\n// # Range 1..2\n//\n// Not A's's heading\n//\n",
        // A blank comment adds nothing.
        "// EmptyBlockSpaces is shapes.EmptyBlockSpaces.\ntype EmptyBlockSpaces struct",
    ] {
        assert!(go.contains(part), "no `{part}` in\n{go}");
    }
}

#[test]
fn descriptor_proto_types_compile() {
    let Some(go) = go() else {
        return;
    };
    // Found in protovalidate's validate.proto and protobuf's plugin.proto: fields of
    // descriptor.proto's types, which come from the module's wkt package.
    let compiled = bijoubuf_schema::compile_sources(&[(
        "d.proto",
        r#"syntax = "proto2"; package d;
        import "google/protobuf/descriptor.proto";
        message M {
          optional google.protobuf.FieldDescriptorProto.Type t = 1;
          optional google.protobuf.FileDescriptorSet set = 2;
          repeated google.protobuf.FieldOptions options = 3;
          optional google.protobuf.Edition edition = 4;
        }"#,
    )])
    .unwrap_or_else(|e| panic!("does not compile: {e:?}"));
    check_module(&go, &generate(&compiled.schema, &options()), "descriptor");
}

#[test]
fn types_named_like_the_bindings_of_generated_code_compile() {
    let Some(go) = go() else {
        return;
    };
    // The messages of `binding_names.proto` are named like what some generator binds or
    // imports (`m`, `buf`, `err`, `Sizes`, `BackWriter`, `bijoubuf`, `fmt`, …), each
    // used in every field shape; a Go type is capitalised, so only a generated name of
    // that case could hide one.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bijoubuf-codegen-tests/protos");
    let compiled = Compiler::new()
        .include(&root)
        .compile(&["binding_names.proto"])
        .unwrap_or_else(|e| panic!("binding_names.proto does not compile: {e}"));
    check_module(&go, &generate(&compiled.schema, &options()), "bindings");
}

/// Last components of proto packages that must not become an import alias or a package
/// name as they are: Go's predeclared identifiers and keywords, the runtime's and the
/// well-known types' packages, and the names generated code binds in its functions
/// (where an alias of the same name would be hidden).
const SHADOWING_PACKAGES: &[&str] = &[
    // Predeclared.
    "bool",
    "byte",
    "complex64",
    "complex128",
    "error",
    "float32",
    "float64",
    "int",
    "int8",
    "int16",
    "int32",
    "int64",
    "rune",
    "string",
    "uint",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "uintptr",
    "any",
    "comparable",
    "true",
    "false",
    "iota",
    "nil",
    "append",
    "cap",
    "clear",
    "close",
    "complex",
    "copy",
    "delete",
    "imag",
    "len",
    "make",
    "max",
    "min",
    "new",
    "panic",
    "print",
    "println",
    "real",
    "recover",
    // Keywords a proto package may hold, and names with a meaning at package scope.
    "break",
    "chan",
    "func",
    "go",
    "range",
    "type",
    "var",
    "init",
    "main",
    // Imported by generated code.
    "bijoubuf",
    "wkt",
    // Bound by generated code's functions.
    "m",
    "x",
    "r",
    "s",
    "w",
    "buf",
    "opts",
    "depth",
    "v",
    "i",
    "ok",
    "err",
    "derr",
    "n",
    "wt",
    "mk",
    "c",
    "u",
    "p",
    "outer",
    "prev",
    "k",
    "f",
    "ks",
    "last",
    "o",
    "at",
    "es",
    "ek",
    "ec",
    "e",
    "vs",
    "bk",
];

#[test]
fn import_aliases_and_package_names_shadow_nothing() {
    let Some(go) = go() else {
        return;
    };
    let mut sources: Vec<(String, String)> = Vec::new();
    let mut user = String::from(
        "syntax = \"proto3\"; package t.user;\nimport \"google/protobuf/timestamp.proto\";\n",
    );
    let mut fields = String::from("  google.protobuf.Timestamp at_wkt = 1;\n");
    let mut oneof = String::new();
    for (i, name) in SHADOWING_PACKAGES.iter().enumerate() {
        sources.push((
            format!("{name}.proto"),
            format!(
                "syntax = \"proto3\"; package t.{name};\nmessage M {{ int32 a = 1; }}\nenum E {{ E_ZERO = 0; E_ONE = 1; }}\n"
            ),
        ));
        user.push_str(&format!("import \"{name}.proto\";\n"));
        let n = 10 * i as u32 + 10;
        fields.push_str(&format!(
            "  t.{name}.M m_{i} = {};\n  repeated t.{name}.M rm_{i} = {};\n  map<string, t.{name}.M> mm_{i} = {};\n  t.{name}.E e_{i} = {};\n  optional t.{name}.E oe_{i} = {};\n  repeated t.{name}.E re_{i} = {};\n  map<int32, t.{name}.E> me_{i} = {};\n",
            n, n + 1, n + 2, n + 3, n + 4, n + 5, n + 6
        ));
        oneof.push_str(&format!(
            "    t.{name}.M pm_{i} = {};\n    t.{name}.E pe_{i} = {};\n",
            n + 7,
            n + 8
        ));
    }
    user.push_str(&format!(
        "message Use {{\n{fields}  oneof pick {{\n{oneof}  }}\n}}\n"
    ));
    sources.push(("user.proto".to_string(), user));
    let refs: Vec<(&str, &str)> = sources
        .iter()
        .map(|(n, s)| (n.as_str(), s.as_str()))
        .collect();
    let compiled = bijoubuf_schema::compile_sources(&refs)
        .unwrap_or_else(|e| panic!("does not compile: {e:?}"));
    let files = generate(&compiled.schema, &options());
    let error = files
        .iter()
        .find(|f| f.name.starts_with("t/error/"))
        .expect("t.error generated");
    // A package named `error` would hide the type from every file that imports it
    // without an alias.
    assert_eq!(error.name, "t/error/errorpb.bb.go");
    assert!(error.content.contains("\npackage errorpb\n"));
    check_module(&go, &files, "aliases");
}
