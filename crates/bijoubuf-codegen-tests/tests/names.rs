//! Keyword-named and colliding schema names compile, keep their schema names on the
//! wire and in error paths, and round-trip.

use std::collections::BTreeMap;

use bijoubuf::Message;
use bijoubuf_codegen_tests::keywords::r#type::{
    self as kw, Kind, Loop, Match, Self_, kind, r#match,
};
use bijoubuf_testkit::{assert_rejects, assert_value_roundtrip};

#[test]
fn keyword_fields_round_trip() {
    let m = Match {
        r#type: "t".into(),
        self_: -1,
        super_: true,
        crate_: 4,
        r#fn: "f".into(),
        r#async: 6,
        r#gen: "g".into(),
        unknown_fields_: vec![8],
        r#match: "m".into(),
        selves: vec!["s".into()],
        r#use: BTreeMap::from([("u".into(), "v".into())]),
        r#impl: Some(r#match::Impl::Where("w".into())),
        r: "r".into(),
        encode: "e".into(),
    };
    assert_value_roundtrip(&m);
    // `encode` the field does not shadow `encode` the method.
    assert!(!m.encode_to_vec().unwrap().is_empty());
    assert_eq!(Match::NAME, "match");
}

#[test]
fn error_paths_use_schema_names() {
    // `self` is field 2 (key 04): holding its default is refused under its schema name.
    let e = assert_rejects::<Match>(&[0x04, 0x00], "default-value-present", 0);
    assert_eq!(e.path_string(), "match.self");
    // `selves` (10) is a repeated string: key ((10 - 1) << 2) | LEN = 26.
    let e = assert_rejects::<Match>(&[0x26, 0x00], "empty-repeated", 0);
    assert_eq!(e.path_string(), "match.selves");
}

#[test]
fn self_named_message_and_oneof_colliding_with_nested_type() {
    let s = Self_ {
        inner: Some(Match::default()),
        next: Some(Box::new(Self_::default())),
    };
    assert_value_roundtrip(&s);
    assert_eq!(Self_::NAME, "Self");
    // The oneof `kind` and the nested message `Kind` meet in module `kind`: the nested
    // message keeps its name, the oneof enum takes the suffix.
    let k = Kind {
        kind: Some(kind::Kind_::Nested(kind::Kind { value: 3 })),
    };
    assert_value_roundtrip(&k);
    assert_value_roundtrip(&Kind {
        kind: Some(kind::Kind_::Text("t".into())),
    });
}

#[test]
fn keyword_enum_variants() {
    assert_eq!(Loop::try_from(1), Ok(Loop::Self_));
    assert_eq!(Loop::Type.as_str_name(), "LOOP_TYPE");
    assert_eq!(Loop::from_str_name("LOOP_MOD"), Some(Loop::Mod));
    assert_eq!(kw::Loop::default(), Loop::Type);
}

#[test]
fn messages_named_like_prelude_types() {
    use bijoubuf_codegen_tests::keywords::r#type as t;
    let v = t::Result {
        b: Some(t::Box {
            v: Some(t::Vec {
                x: 1,
                name: Some("n".into()),
            }),
            named: BTreeMap::from([(
                "k".into(),
                t::Option {
                    value: Some(t::String::default()),
                },
            )]),
        }),
    };
    assert_value_roundtrip(&v);
    let s = t::String {
        s: "s".into(),
        options: vec![t::Option::default()],
    };
    assert_value_roundtrip(&s);
}

#[test]
fn fields_named_like_generated_bindings() {
    use bijoubuf_codegen_tests::keywords::r#type::{Locals, locals};
    let l = Locals {
        r: 1,
        s: 2,
        w: 3,
        size: 4,
        v: Some(locals::V::B("b".into())),
        self_ref: Some(Box::new(Locals {
            v: Some(locals::V::A(0)),
            ..Locals::default()
        })),
    };
    assert_value_roundtrip(&l);
}

/// `protos/digit_names.proto`: names of an underscore and a digit keep the underscore in
/// Rust (the generator panicked on them), and the schema's names on the wire and in paths.
#[test]
fn names_of_an_underscore_and_a_digit_compile_and_round_trip() {
    use bijoubuf_codegen_tests::digit_names::{self as d, m};
    let v = d::M {
        _2conflict: 2,
        _3o: Some(m::_3o::Y("y".into())),
        _7m: BTreeMap::from([("k".into(), 7)]),
        n: Some(m::_8n { v: 8 }),
        _9ns: vec![m::_8n { v: 9 }],
    };
    assert_value_roundtrip(&v);
    assert_value_roundtrip(&d::_2m { m: Some(v) });
    assert_value_roundtrip(&d::UsesEnum {
        e: d::_4e::_4eOne as i32,
    });
    assert_eq!(d::_2m::NAME, "_2M");
    // `_2conflict` is field 1 (key 00): holding its default is refused under its name.
    let e = assert_rejects::<d::M>(&[0x00, 0x00], "default-value-present", 0);
    assert_eq!(e.path_string(), "M._2conflict");
}
