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
    assert_eq!(r.code, 1);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON output");
    let items = v.as_array().expect("an array");
    assert_eq!(items.len(), 1);
    assert_eq!(items[0]["rule"], "field-added");
    assert_eq!(items[0]["severity"], "warning");
    assert_eq!(items[0]["line"], 7);
    assert_eq!(items[0]["counterexample"]["bytes"], "0c 01");
    assert_eq!(
        items[0]["counterexample"]["outcome"]["refused"],
        "unknown-field"
    );
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
