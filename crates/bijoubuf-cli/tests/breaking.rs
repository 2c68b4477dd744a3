//! `bijoubuf breaking`, run as a user runs it: exit statuses, categories, JSON output,
//! an old schema given as .proto files, a directory or a descriptor set.

use std::path::PathBuf;
use std::process::Command;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/breaking")
}

fn run(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_bijoubuf"))
        .args(args)
        .current_dir(data())
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "panic: {stderr}");
    Run {
        code: out.status.code().expect("an exit status"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr,
    }
}

#[test]
fn findings_exit_1_with_counterexamples() {
    let r = run(&["breaking", "--against", "v1", "v2"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("canonical/field-removed"), "{}", r.stdout);
    assert!(
        r.stdout.contains(
            "counterexample: old bytes 08 00 (Order { qty: 0 }) are refused by the new schema: default-value-present at byte 0, path Order.qty"
        ),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("6 findings (5 errors): 2 canonical, 1 forward, 1 json, 2 source"),
        "{}",
        r.stdout
    );
    // int32 → sint32 is the same bytes (SPEC §3.2): not reported in any category.
    assert!(!r.stdout.contains("Order.id"), "{}", r.stdout);
}

#[test]
fn no_findings_exit_0() {
    let r = run(&["breaking", "--against", "v1", "v1"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(r.stdout, "no breaking changes\n");
    let r = run(&[
        "breaking",
        "--against",
        "v1/order.proto",
        "--categories",
        "json",
        "v2/order.proto",
    ]);
    assert_eq!(r.code, 1);
    let r = run(&[
        "breaking",
        "--against",
        "v1",
        "--categories",
        "forward",
        "--format",
        "json",
        "v2",
    ]);
    // One warning and no error: exit 0 unless warnings are asked to fail.
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON output");
    let items = v.as_array().expect("an array");
    assert_eq!(items.len(), 1);
    assert_eq!(items[0]["rule"], "field-added");
    assert_eq!(items[0]["severity"], "warning");
    assert_eq!(items[0]["line"], 7);
    assert_eq!(items[0]["counterexample"]["bytes"], "0c 01");
    assert_eq!(items[0]["old_message"], "shop.v1.Order");
    assert_eq!(items[0]["new_message"], "shop.v1.Order");
    assert_eq!(
        items[0]["counterexample"]["outcome"]["refused"],
        "unknown-field"
    );
}

#[test]
fn fail_on_says_which_severity_exits_1() {
    let forward = ["breaking", "--against", "v1", "--categories", "forward"];
    let r = run(&[&forward[..], &["v2"]].concat());
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("1 finding (0 errors)"), "{}", r.stdout);
    let r = run(&[&forward[..], &["--fail-on", "warning", "v2"]].concat());
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let r = run(&[&forward[..], &["--fail-on", "error", "v2"]].concat());
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    // Errors fail either way.
    let r = run(&["breaking", "--against", "v1", "--fail-on", "error", "v2"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let r = run(&["breaking", "--against", "v1", "--fail-on", "never", "v2"]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
}

/// shop.v1 moved to store.v1 and Line became Item: by full name that is two removals;
/// the renames pair them and compare their fields.
#[test]
fn types_pair_by_full_name_unless_renamed() {
    let r = run(&[
        "breaking",
        "--against",
        "moved/v1",
        "--format",
        "json",
        "moved/v2",
    ]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON output");
    let rules: Vec<&str> = v
        .as_array()
        .expect("an array")
        .iter()
        .map(|f| f["rule"].as_str().expect("a rule"))
        .collect();
    assert_eq!(
        rules,
        [
            "package-changed",
            "package-changed",
            "message-removed",
            "message-removed"
        ],
        "{}",
        r.stdout
    );
    let r = run(&[
        "breaking",
        "--against",
        "moved/v1",
        "--rename",
        "shop.v1=store.v1",
        "--rename",
        "shop.v1.Line=store.v1.Item",
        "--categories",
        "forward,source",
        "moved/v2",
    ]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    for want in [
        "message shop.v1.Order is now store.v1.Order",
        "message shop.v1.Line is now store.v1.Item",
        "counterexample: new bytes 04 01 (Item { qty: 1 }) are refused by the old schema: unknown-field at byte 0, path Line.2",
    ] {
        assert!(r.stdout.contains(want), "{want}: {}", r.stdout);
    }
    assert!(!r.stdout.contains("message-removed"), "{}", r.stdout);
    // Only the forward warning is left once the source category is not asked for.
    let r = run(&[
        "breaking",
        "--against",
        "moved/v1",
        "--rename",
        "shop.v1=store.v1",
        "--rename",
        "shop.v1.Line=store.v1.Item",
        "--categories",
        "canonical,forward",
        "moved/v2",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("1 finding (0 errors)"), "{}", r.stdout);
}

#[test]
fn a_rename_of_something_the_schemas_lack_is_a_usage_error() {
    let r = run(&[
        "breaking",
        "--against",
        "moved/v1",
        "--rename",
        "shop.v1.Lines=store.v1.Item",
        "moved/v2",
    ]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr
            .contains("shop.v1.Lines is not a message, enum or package of the old schema"),
        "{}",
        r.stderr
    );
    let r = run(&[
        "breaking",
        "--against",
        "moved/v1",
        "--rename",
        "shop.v1.Line",
        "moved/v2",
    ]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("is not OLD=NEW"), "{}", r.stderr);
}

#[test]
fn the_old_schema_can_be_a_descriptor_set() {
    let dir = std::env::temp_dir().join(format!("bijoubuf-breaking-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let set = dir.join("v1.binpb");
    let set_arg = set.to_str().expect("utf-8 path");
    let gen_dir = dir.join("gen");
    let r = run(&[
        "compile",
        "--rust-out",
        gen_dir.to_str().expect("utf-8"),
        "--descriptor-set-out",
        set_arg,
        "v1/order.proto",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let from_set = run(&["breaking", "--against", set_arg, "--format", "json", "v2"]);
    let from_proto = run(&["breaking", "--against", "v1", "--format", "json", "v2"]);
    assert_eq!(from_set.code, 1);
    assert_eq!(from_set.stdout, from_proto.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn usage_errors_exit_2() {
    let r = run(&["breaking", "--against", "missing.binpb", "v2"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("cannot read missing.binpb"),
        "{}",
        r.stderr
    );
    let r = run(&["breaking", "--against", "v1", "--categories", "bytes", "v2"]);
    assert_eq!(r.code, 2);
    let r = run(&["breaking", "--against", "v1/order.proto"]);
    assert_eq!(r.code, 2);
    let r = run(&[
        "breaking",
        "--against",
        "v2/order.proto",
        "v1/order.proto",
        "--against",
        "x",
    ]);
    assert_eq!(r.code, 2);
}

/// A set written without `--include-imports` (as the README's compile line writes it)
/// names the well-known types without holding their files: they are found built in, as
/// `verify --descriptor-set` finds them, and not compared, as an old `.proto` file's
/// imports are not. A set lacking another imported file is refused with a hint.
#[test]
fn a_set_written_without_its_imports_finds_the_well_known_types() {
    let dir = std::env::temp_dir().join(format!("bijoubuf-imports-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let set = dir.join("stamped.binpb");
    let set_arg = set.to_str().expect("utf-8 path");
    let r = run(&[
        "compile",
        "--descriptor-set-out",
        set_arg,
        "imports/v1/stamped.proto",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run(&["breaking", "--against", set_arg, "imports/v1"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(r.stdout, "no breaking changes\n");
    // The new side no longer imports timestamp.proto: the findings are those of the old
    // .proto file, with no google.protobuf.Timestamp removed.
    let from_set = run(&[
        "breaking",
        "--against",
        set_arg,
        "--format",
        "json",
        "imports/v2",
    ]);
    let from_proto = run(&[
        "breaking",
        "--against",
        "imports/v1",
        "--format",
        "json",
        "imports/v2",
    ]);
    assert_eq!(from_set.code, 1, "{}", from_set.stderr);
    assert_eq!(from_set.stdout, from_proto.stdout);
    assert!(
        !from_set.stdout.contains("Timestamp is removed"),
        "{}",
        from_set.stdout
    );

    let set = dir.join("order.binpb");
    let set_arg = set.to_str().expect("utf-8 path");
    let r = run(&[
        "compile",
        "--descriptor-set-out",
        set_arg,
        "imports/split/order.proto",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run(&[
        "breaking",
        "--against",
        set_arg,
        "imports/split/order.proto",
    ]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains(
            "type \".shop.v1.Line\" is not defined; the set lacks the imported file line.proto: \
             write it with its imports (`bijoubuf compile --include-imports`, protoc's \
             `--include_imports`)"
        ),
        "{}",
        r.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}
