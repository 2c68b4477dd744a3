//! Every edition feature, every value, at every level: set as `features.x = V` and as
//! `features = { x: V }`, the two files give the same accept/refuse decision (the same
//! error codes), the same descriptor set (protoc's defaults and with options retained),
//! and the same bytes on the wire for one value (issue 23: the aggregate spelling was
//! once ignored, so the same schema wrote other bytes).

use bijoubuf_reflect::{DescriptorPool, json};
use bijoubuf_schema::{Compiled, DescriptorSetOptions, compile_sources};

/// Features and their values (descriptor.proto's `FeatureSet`, as protoc 36.2 has it),
/// with the edition that has them all.
const FEATURES: &[(&str, &[&str], &str)] = &[
    (
        "field_presence",
        &["EXPLICIT", "IMPLICIT", "LEGACY_REQUIRED"],
        "2024",
    ),
    ("enum_type", &["OPEN", "CLOSED"], "2024"),
    ("repeated_field_encoding", &["PACKED", "EXPANDED"], "2024"),
    ("utf8_validation", &["VERIFY", "NONE"], "2024"),
    (
        "message_encoding",
        &["LENGTH_PREFIXED", "DELIMITED"],
        "2024",
    ),
    ("json_format", &["ALLOW", "LEGACY_BEST_EFFORT"], "2024"),
    (
        "enforce_naming_style",
        &["STYLE2024", "STYLE_LEGACY"],
        "2024",
    ),
    ("enforce_naming_style", &["STYLE2026"], "2026"),
    (
        "default_symbol_visibility",
        &["EXPORT_ALL", "EXPORT_TOP_LEVEL", "LOCAL_ALL", "STRICT"],
        "2024",
    ),
    (
        "enforce_proto_limits",
        &["LEGACY_NO_EXPLICIT_LIMITS", "PROTO_LIMITS2026"],
        "2026",
    ),
];

/// Where a feature can be written: every element that takes options.
const LEVELS: &[&str] = &[
    "file", "message", "field", "oneof", "enum", "value", "service", "method", "range",
];

/// The schema with `opt` (`features.x = V` or `features = { x: V }`) at `level`; a
/// field-level feature goes on the field it is about.
fn schema(edition: &str, feature: &str, opt: &str, level: &str) -> String {
    let at = |l: &str, text: String| if l == level { text } else { String::new() };
    let field = match feature {
        "repeated_field_encoding" => "b",
        "utf8_validation" => "s",
        "message_encoding" => "m",
        _ => "a",
    };
    let on = |f: &str| {
        if level == "field" && f == field {
            format!(" [{opt}]")
        } else {
            String::new()
        }
    };
    format!(
        "edition = \"{edition}\";\npackage sp;\n{file}\n\
         export enum Kind {{ {en} KIND_UNSPECIFIED = 0{val}; KIND_A = 1; }}\n\
         export message Item {{\n  {msg}\n  int32 a = 1{a};\n  repeated int32 b = 2{b};\n  \
         string s = 3{s};\n  Kind k = 4;\n  Item m = 6{m};\n  oneof choice {{ {oo} int64 c = 5; }}\n  \
         extensions 100 to 200{rng};\n}}\n\
         service Items {{ {svc} rpc Get(Item) returns (Item){mth} }}\n",
        file = at("file", format!("option {opt};")),
        en = at("enum", format!("option {opt};")),
        val = at("value", format!(" [{opt}]")),
        msg = at("message", format!("option {opt};")),
        a = on("a"),
        b = on("b"),
        s = on("s"),
        m = on("m"),
        oo = at("oneof", format!("option {opt};")),
        rng = at("range", format!(" [{opt}]")),
        svc = at("service", format!("option {opt};")),
        mth = if level == "method" {
            format!(" {{ option {opt}; }}")
        } else {
            ";".to_string()
        },
    )
}

/// The value every accepted schema encodes.
const VALUE: &str = r#"{"a": 0, "b": [1, 2], "s": "x", "k": "KIND_A", "m": {"a": 1}, "c": "7"}"#;

fn compile(text: &str) -> Result<Compiled, Vec<&'static str>> {
    compile_sources(&[("sp/v1/s.proto", text)])
        .map_err(|e| e.errors().iter().map(|d| d.code()).collect())
}

fn sets(c: &Compiled) -> [Vec<u8>; 2] {
    [false, true].map(|retain_options| {
        c.schema.encode_descriptor_set(DescriptorSetOptions {
            retain_options,
            ..Default::default()
        })
    })
}

fn wire(c: &Compiled) -> Vec<u8> {
    let pool = DescriptorPool::new(&c.schema);
    let desc = pool.message("sp.Item").expect("sp.Item");
    json::from_str(&desc, VALUE)
        .expect("the value reads")
        .encode()
        .expect("the value encodes")
}

#[test]
fn aggregate_and_dotted_spellings_agree_on_every_feature_value_and_level() {
    let (mut accepted, mut refused) = (0, 0);
    for (feature, values, edition) in FEATURES {
        for value in *values {
            for level in LEVELS {
                let dotted = schema(
                    edition,
                    feature,
                    &format!("features.{feature} = {value}"),
                    level,
                );
                let aggregate = schema(
                    edition,
                    feature,
                    &format!("features = {{ {feature}: {value} }}"),
                    level,
                );
                let what = format!("{feature} = {value} on the {level} (edition {edition})");
                match (compile(&dotted), compile(&aggregate)) {
                    (Ok(d), Ok(a)) => {
                        accepted += 1;
                        assert_eq!(sets(&d), sets(&a), "descriptor sets: {what}");
                        assert_eq!(wire(&d), wire(&a), "wire bytes: {what}");
                    }
                    (Err(d), Err(a)) => {
                        refused += 1;
                        assert_eq!(d, a, "error codes: {what}");
                    }
                    (d, a) => panic!(
                        "{what}: dotted {:?}, aggregate {:?}",
                        d.map(|_| "accepted"),
                        a.map(|_| "accepted")
                    ),
                }
            }
        }
    }
    // Both kinds of outcome are covered (a feature where its target forbids it is
    // refused in both spellings).
    eprintln!("{accepted} cases accepted in both spellings, {refused} refused in both");
    assert!(
        accepted >= 40 && refused >= 40,
        "{accepted} accepted, {refused} refused"
    );
}

#[test]
fn the_comparison_sees_a_feature_that_changes_bytes() {
    // That equal bytes above mean something: IMPLICIT on the file drops `a = 0`.
    let bytes = |value: &str| {
        let text = schema(
            "2024",
            "field_presence",
            &format!("features = {{ field_presence: {value} }}"),
            "file",
        );
        wire(&compile(&text).unwrap_or_else(|e| panic!("{e:?}")))
    };
    let (explicit, implicit) = (bytes("EXPLICIT"), bytes("IMPLICIT"));
    assert_ne!(explicit, implicit);
    assert_eq!(
        explicit.len(),
        implicit.len() + 2,
        "the record of a = 0: key and value"
    );
}
