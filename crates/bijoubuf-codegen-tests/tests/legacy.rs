//! proto2: required fields are plain values, always written; optional fields with
//! `[default = …]` get `_or_default` getters; enums stay open.

use bijoubuf::Message;
use bijoubuf_codegen_tests::legacy::{Level, Record, record};
use bijoubuf_testkit::{assert_canonical_roundtrip, assert_value_roundtrip};

#[test]
fn required_fields_are_written_even_when_default() {
    let r = Record::default();
    // id = 0 (key 00, 00), name = "" (key 06, 00), inner (12, delta 8: key 22) holding
    // token = 0 (key 01, eight zero bytes).
    let bytes = r.encode_to_vec().unwrap();
    let mut want = vec![0x00, 0x00, 0x06, 0x00, 0x22, 0x09, 0x01];
    want.extend_from_slice(&[0; 8]);
    assert_eq!(bytes, want);
    assert_canonical_roundtrip::<Record>(&bytes);
}

#[test]
fn defaults_are_getters_not_values() {
    let r = Record::default();
    assert_eq!(r.note_or_default(), "none");
    assert_eq!(r.count_or_default(), -7);
    assert_eq!(r.ratio_or_default(), 0.5);
    assert!(r.enabled_or_default());
    assert_eq!(r.magic_or_default(), b"\x01\x02ab");
    assert_eq!(r.level(), Some(Level::Medium));
    // proto2's first declared value is the enum default.
    assert_eq!(r.plain_level(), Some(Level::Low));
    let set = Record {
        count: Some(3),
        level: Some(99),
        ..Record::default()
    };
    assert_eq!((set.count_or_default(), set.level()), (3, None));
}

#[test]
fn recursive_optional_message_round_trips() {
    let r = Record {
        id: 1,
        name: "a".into(),
        child: Some(Box::new(Record {
            id: 2,
            ..Record::default()
        })),
        tags: vec![1, 2],
        level: Some(Level::High.into()),
        inner: record::Inner {
            token: 5,
            ..record::Inner::default()
        },
        ..Record::default()
    };
    assert_value_roundtrip(&r);
}

#[test]
fn enum_aliases_are_constants_of_the_first_name() {
    use bijoubuf_codegen_tests::legacy::Mode;
    assert_eq!(Mode::Enabled, Mode::On);
    assert_eq!(Mode::from_str_name("MODE_ENABLED"), Some(Mode::On));
    assert_eq!(Mode::On.as_str_name(), "MODE_ON");
    assert_eq!(Mode::try_from(1), Ok(Mode::On));
}

#[test]
#[allow(deprecated)] // the field is deprecated in the schema; reading it is the point
fn deprecated_fields_still_round_trip() {
    let r = Record {
        legacy_name: Some("old".into()),
        ..Record::default()
    };
    let back = assert_value_roundtrip(&r);
    assert_eq!(
        Record::decode(&back).unwrap().legacy_name.as_deref(),
        Some("old")
    );
}
