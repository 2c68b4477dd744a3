//! Generated code names the runtime's hidden module through one alias per module
//! (`use ::bijoubuf::__private as __bb;`) and the prelude's names through it, so schema
//! types named `Ok`, `Err`, `Some`, `None`, `Default`, `Result` or `__bb` compile (the
//! schema is `protos/hidden_alias.proto`), and behave.

use bijoubuf::{Message, MessageRef};
use bijoubuf_codegen_tests::hidden_alias::{self as t, bb, ok};
use bijoubuf_testkit::{assert_rejects, assert_value_roundtrip};

fn sample() -> t::Ok {
    t::Ok {
        some: Some(ok::Some::Err(t::Err { code: "e".into() })),
        default: Some(t::Default {
            ok: vec![
                t::Ok {
                    some: Some(ok::Some::None(-1)),
                    default: None,
                },
                t::Ok::default(),
            ],
        }),
    }
}

#[test]
fn types_named_like_the_prelude_round_trip() {
    let v = sample();
    assert_value_roundtrip(&v);
    let bytes = v.encode_to_vec().unwrap();
    // The borrowed twin reads the same bytes and converts back; `decode_into` reads in
    // place.
    assert_eq!(t::OkRef::decode(&bytes).unwrap().to_owned(), v);
    let mut into = t::Ok::default();
    into.decode_into(&bytes).unwrap();
    assert_eq!(into, v);
}

#[test]
fn a_second_oneof_member_is_refused_under_the_schema_names() {
    // `None` (field 1, key 00) = -1, then `Err` (field 2, key 02: the next number,
    // LEN) = empty.
    let e = assert_rejects::<t::Ok>(&[0x00, 0x01, 0x02, 0x00], "oneof-conflict", 2);
    assert_eq!(e.path_string(), "Ok.Err");
}

#[test]
fn the_alias_named_message_and_its_module() {
    // `message __bb` is `Bb` in module `bb`, which declares the alias for itself.
    let b = t::Bb {
        bb: 3,
        inner: Some(bb::Bb { x: 4 }),
        result: t::Result::Ok as i32,
    };
    assert_value_roundtrip(&b);
    assert_eq!(t::Bb::NAME, "__bb");
    assert_eq!(bb::Bb::FULL_NAME, "hidden_alias.__bb.__Bb");
    assert_eq!(t::Result::try_from(1), Ok(t::Result::Ok));
    assert_eq!(t::Result::try_from(2), Err(2));
    assert_eq!(b.result(), Some(t::Result::Ok));
}
