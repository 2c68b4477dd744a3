//! Descriptor sets byte for byte as protoc 36.2 writes them (with `--retain_options
//! --include_source_info`, bijoubuf always keeping source-retention options): the order
//! of options records and of source locations, which a field-by-field comparison does
//! not see but a hash of the set does (issue 23, item 7).

use bijoubuf_schema::{Compiled, DescriptorSetOptions, compile_sources};
use prost::Message as _;

/// `(number, payload)` of each top-level record of a message.
fn records(b: &[u8]) -> Vec<(u32, Vec<u8>)> {
    fn varint(b: &[u8], i: &mut usize) -> u64 {
        let mut v = 0u64;
        let mut shift = 0;
        loop {
            let x = b[*i];
            *i += 1;
            v |= u64::from(x & 0x7f) << shift;
            if x < 0x80 {
                return v;
            }
            shift += 7;
        }
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let key = varint(b, &mut i);
        let start = i;
        match key & 7 {
            0 => {
                varint(b, &mut i);
                out.push(((key >> 3) as u32, b[start..i].to_vec()));
            }
            2 => {
                let len = varint(b, &mut i) as usize;
                i += len;
                out.push(((key >> 3) as u32, b[i - len..i].to_vec()));
            }
            _ => panic!("descriptor sets here use varint and length-delimited fields only"),
        }
    }
    out
}

/// The payload of the first record numbered `n`.
fn field(b: &[u8], n: u32) -> Vec<u8> {
    records(b)
        .into_iter()
        .find(|r| r.0 == n)
        .unwrap_or_else(|| panic!("no field {n}"))
        .1
}

/// The encoded `FileDescriptorProto` of the last file.
fn last_file(c: &Compiled) -> Vec<u8> {
    let set = c.schema.encode_file_descriptor_set();
    records(&set).pop().expect("a file").1
}

const RULES: &str = r#"syntax = "proto2";
package r;
import "google/protobuf/descriptor.proto";
message Range { optional int32 lo = 1; optional int32 hi = 2; }
message Rules { optional Range range = 1; optional int32 x = 2; }
extend google.protobuf.FieldOptions { optional Rules rules = 5000; }
"#;

#[test]
fn custom_options_keep_source_order_and_known_fields_merge() {
    let text = r#"edition = "2023";
package c;
import "r.proto";
import "google/protobuf/descriptor.proto";
extend google.protobuf.FileOptions { int32 z = 6000; int32 y = 5999; r.Rules fr = 6001; }
option (z) = 1;
option features.enum_type = OPEN;
option java_package = "x";
option (y) = 2;
option (fr).x = 3;
option optimize_for = SPEED;
option (fr).range.lo = 4;
option features.field_presence = IMPLICIT;
message M { int32 a = 1 [(r.rules).x = 1, deprecated = true, (r.rules).range = { hi: 2 lo: 1 }]; }
"#;
    let c = compile_sources(&[("r.proto", RULES), ("c.proto", text)])
        .unwrap_or_else(|e| panic!("refused: {:?}", e.errors()));
    let file = last_file(&c);
    // As protoc 36.2 writes them: descriptor.proto's own fields first, in number order,
    // the two `features.…` statements merged into one FeatureSet (field_presence 2,
    // enum_type 1); then each custom option's record as written, in source order.
    let options: Vec<(u32, Vec<u8>)> = records(&field(&file, 8));
    assert_eq!(
        options,
        [
            (1, b"x".to_vec()),
            (9, vec![0x01]),
            (50, vec![0x08, 0x02, 0x10, 0x01]),
            (6000, vec![0x01]),
            (5999, vec![0x02]),
            (6001, vec![0x10, 0x03]),
            (6001, vec![0x0a, 0x02, 0x08, 0x04]),
        ]
    );
    // A field's options the same way; an aggregate's fields in number order.
    let message = field(&file, 4);
    let options = records(&field(&field(&message, 2), 8));
    assert_eq!(
        options,
        [
            (3, vec![0x01]),
            (5000, vec![0x10, 0x01]),
            (5000, vec![0x0a, 0x04, 0x08, 0x01, 0x10, 0x02]),
        ]
    );
}

#[test]
fn locations_follow_the_text_as_protoc_records_them() {
    let text = "syntax = \"proto2\";\npackage l;\nimport \"google/protobuf/descriptor.proto\";\nmessage M {\n  optional int32 a = 1;\n  oneof o {\n    int32 b = 2;\n  }\n}\nextend google.protobuf.FileOptions {\n  optional int32 z = 6000;\n}\noption (z) = 1;\n";
    let c = compile_sources(&[("l.proto", text)])
        .unwrap_or_else(|e| panic!("refused: {:?}", e.errors()));
    let info = prost_types::SourceCodeInfo::decode(field(&last_file(&c), 9).as_slice())
        .expect("source info");
    let paths: Vec<&[i32]> = info.location.iter().map(|l| l.path.as_slice()).collect();
    let at = |p: &[i32]| {
        paths
            .iter()
            .position(|q| *q == p)
            .unwrap_or_else(|| panic!("no location {p:?}"))
    };
    // The oneof before the field declared in it (protoc records it when it meets it).
    assert!(at(&[4, 0, 8, 0]) < at(&[4, 0, 2, 1]));
    // An extension: its location, then its extendee, then its label.
    assert_eq!(at(&[7, 0]) + 1, at(&[7, 0, 2]));
    assert_eq!(at(&[7, 0, 2]) + 1, at(&[7, 0, 4]));
    // The option statement after the extend block, as written.
    assert!(at(&[7, 0, 3]) < at(&[8]));
    // Every location starts no earlier than the one before it, extendees aside.
    let starts: Vec<(i32, i32)> = info
        .location
        .iter()
        .filter(|l| !(l.path.len() == 3 && l.path[0] == 7 && l.path[2] == 2))
        .map(|l| (l.span[0], l.span[1]))
        .collect();
    assert!(starts.windows(2).all(|w| w[0] <= w[1]), "{starts:?}");
}

#[test]
fn feature_values_have_descriptor_protos_numbers() {
    // descriptor.proto numbers Utf8Validation VERIFY = 2, NONE = 3 (1 is reserved): the
    // built-in copy had NONE = 1, which protoc reads as an unknown value.
    let text = "edition = \"2023\";\npackage u;\nmessage M { string s = 1 [features.utf8_validation = NONE]; }\n";
    let c = compile_sources(&[("u.proto", text)])
        .unwrap_or_else(|e| panic!("refused: {:?}", e.errors()));
    let options = field(&field(&field(&last_file(&c), 4), 2), 8);
    // FieldOptions.features (21) = { utf8_validation (4): NONE (3) }.
    assert_eq!(records(&options), [(21, vec![0x20, 0x03])]);
}

#[test]
fn protocs_default_set_drops_source_retention_and_writes_options_back_in_number_order() {
    // protoc 36.2 without --retain_options: custom options sorted and merged like the
    // standard ones, options of source retention gone (with their source locations),
    // an options message left empty by that gone too.
    let text = r#"syntax = "proto2";
package s;
import "google/protobuf/descriptor.proto";
message Sub { optional int32 a = 1 [retention = RETENTION_SOURCE]; optional int32 b = 2; }
extend google.protobuf.MessageOptions {
  optional int32 src = 7000 [retention = RETENTION_SOURCE];
  optional Sub sub = 7001;
  optional int32 run = 6999;
  repeated Sub subs = 7002;
}
message M { option (src) = 1; }
message N { option (sub) = { a: 1 b: 2 }; option (run) = 3; }
message O { option (subs) = { a: 1 b: 2 }; option (subs) = { a: 3 }; }
"#;
    let c = compile_sources(&[("s.proto", text)])
        .unwrap_or_else(|e| panic!("refused: {:?}", e.errors()));
    let flags = DescriptorSetOptions {
        include_source_info: true,
        ..DescriptorSetOptions::default()
    };
    let set = c.schema.encode_descriptor_set(flags);
    let file = records(&set).pop().expect("a file").1;
    let messages: Vec<Vec<u8>> = records(&file)
        .into_iter()
        .filter(|r| r.0 == 4)
        .map(|r| r.1)
        .collect();
    let options = |m: &[u8]| records(m).into_iter().find(|r| r.0 == 7).map(|r| r.1);
    assert_eq!(
        options(&messages[1]),
        None,
        "M: only a source-retention option"
    );
    assert_eq!(
        records(&options(&messages[2]).expect("N's options")),
        [(6999, vec![0x03]), (7001, vec![0x10, 0x02])]
    );
    // Each item of a repeated option loses its source-retention fields too.
    assert_eq!(
        records(&options(&messages[3]).expect("O's options")),
        [(7002, vec![0x10, 0x02]), (7002, vec![])]
    );
    let info = prost_types::SourceCodeInfo::decode(field(&file, 9).as_slice()).expect("info");
    for gone in [&[4, 1, 7][..], &[4, 1, 7, 7000]] {
        assert!(
            info.location.iter().all(|l| l.path != gone),
            "location {gone:?} kept"
        );
    }
    assert!(info.location.iter().any(|l| l.path == [4, 3, 7]));
    // protoc's defaults leave source info out; --retain_options keeps everything.
    let plain = c
        .schema
        .encode_descriptor_set(DescriptorSetOptions::default());
    let file = records(&plain).pop().expect("a file").1;
    assert!(records(&file).iter().all(|r| r.0 != 9));
    let retained = c.schema.encode_descriptor_set(DescriptorSetOptions {
        retain_options: true,
        include_source_info: true,
        ..DescriptorSetOptions::default()
    });
    assert_eq!(retained, c.schema.encode_file_descriptor_set());
}

#[test]
fn imports_come_first_when_asked() {
    let c = bijoubuf_schema::Compiler::new()
        .source("r.proto", RULES)
        .source(
            "i.proto",
            "syntax = \"proto2\";\nimport \"r.proto\";\nmessage I { optional r.Rules rules = 1; }\n",
        )
        .compile(&["i.proto"])
        .unwrap_or_else(|e| panic!("refused: {:?}", e.errors()));
    let names = |set: Vec<u8>| -> Vec<String> {
        records(&set)
            .into_iter()
            .map(|f| String::from_utf8(field(&f.1, 1)).expect("a name"))
            .collect()
    };
    let flags = DescriptorSetOptions::default();
    assert_eq!(names(c.schema.encode_descriptor_set(flags)), ["i.proto"]);
    let flags = DescriptorSetOptions {
        include_imports: true,
        ..flags
    };
    assert_eq!(
        names(c.schema.encode_descriptor_set(flags)),
        ["google/protobuf/descriptor.proto", "r.proto", "i.proto"]
    );
}

#[test]
fn source_retention_features_are_dropped_without_importing_descriptor_proto() {
    // enforce_naming_style has source retention; protoc knows descriptor.proto whether
    // or not the file imports it, and its default set leaves the feature out (as
    // protoc 36.2 writes it: an empty FeatureSet remains).
    let text = "edition = \"2024\";\npackage n;\noption features.enforce_naming_style = STYLE_LEGACY;\nmessage bad_name {}\n";
    let c = compile_sources(&[("n.proto", text)])
        .unwrap_or_else(|e| panic!("refused: {:?}", e.errors()));
    let set = c
        .schema
        .encode_descriptor_set(DescriptorSetOptions::default());
    let file = records(&set).pop().expect("a file").1;
    assert_eq!(records(&field(&file, 8)), [(50, vec![])]);
    let retained = c.schema.encode_descriptor_set(DescriptorSetOptions {
        retain_options: true,
        ..DescriptorSetOptions::default()
    });
    let file = records(&retained).pop().expect("a file").1;
    // FileOptions.features (50) = { enforce_naming_style (7): STYLE_LEGACY (2) }.
    assert_eq!(records(&field(&file, 8)), [(50, vec![0x38, 0x02])]);
}

#[test]
fn a_repeated_option_is_packed_as_protobuf_writes_the_field() {
    // googleapis' bigtable/v2/session.proto sets a repeated enum option of a proto3
    // file once per statement: protoc's default set writes the items packed (proto3's
    // default), its --retain_options set one record per statement, as written.
    let text = "syntax = \"proto3\";\npackage p;\nimport \"google/protobuf/descriptor.proto\";\nenum K { K_UNSPECIFIED = 0; K_A = 1; K_B = 2; }\nextend google.protobuf.MessageOptions { repeated K kinds = 50000; }\nmessage M { option (kinds) = K_A; option (kinds) = K_B; }\n";
    let c = compile_sources(&[("p.proto", text)])
        .unwrap_or_else(|e| panic!("refused: {:?}", e.errors()));
    let options = |flags: DescriptorSetOptions| {
        let set = c.schema.encode_descriptor_set(flags);
        let file = records(&set).pop().expect("a file").1;
        records(&field(&field(&file, 4), 7))
    };
    assert_eq!(
        options(DescriptorSetOptions::default()),
        [(50000, vec![0x01, 0x02])]
    );
    let retained = DescriptorSetOptions {
        retain_options: true,
        ..DescriptorSetOptions::default()
    };
    assert_eq!(
        options(retained),
        [(50000, vec![0x01]), (50000, vec![0x02])]
    );
}
