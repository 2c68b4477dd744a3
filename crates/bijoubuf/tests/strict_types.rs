//! A message type without unknown-field storage (the defaults, which `Bare` keeps:
//! `KEEPS_UNKNOWN_FIELDS = false` and an empty `__unknown`) is decoded strictly even when
//! the caller asks to preserve: its unknown records are `unknown-field` at their key,
//! while a parent that keeps them still does.
use bijoubuf::__private::{Int32, Msg, Pass, Reader};
use bijoubuf::{DecodeError, DecodeOptions, Message, UnknownFieldPolicy, UnknownFields};
use bijoubuf_testkit::{assert_canonical_roundtrip_with, assert_rejects_with};

/// `message Bare { int32 a = 2; }`, without unknown-field storage: the contract's defaults.
#[derive(Debug, Default, PartialEq)]
struct Bare {
    a: i32,
}

impl Message for Bare {
    const NAME: &'static str = "Bare";
    const FIELD_NUMBERS: &'static [u32] = &[2];
}

impl bijoubuf::__private::Encode for Bare {
    type Schema = Self;

    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        p.implicit::<Int32>(2, &self.a)
    }
}

impl<'a> bijoubuf::__private::Decode<'a> for Bare {
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let a = r.implicit::<Int32>(2, "a")?;
        r.finish()?;
        Ok(Bare { a })
    }
}

/// `message Holder { Bare child = 2; }`, with storage.
#[derive(Debug, Default, PartialEq)]
struct Holder {
    child: Option<Bare>,
    unknown_fields: UnknownFields,
}

impl Message for Holder {
    const NAME: &'static str = "Holder";
    const KEEPS_UNKNOWN_FIELDS: bool = true;
    const FIELD_NUMBERS: &'static [u32] = &[2];
}

impl bijoubuf::__private::Encode for Holder {
    type Schema = Self;

    fn __unknown(&self) -> &UnknownFields {
        &self.unknown_fields
    }

    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        p.optional::<Msg<Bare>>(2, self.child.as_ref())
    }
}

impl<'a> bijoubuf::__private::Decode<'a> for Holder {
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let child = r.optional::<Msg<Bare>>(2, "child")?;
        let unknown_fields = r.finish()?;
        Ok(Holder {
            child,
            unknown_fields,
        })
    }
}

fn preserve() -> DecodeOptions {
    DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve)
}

#[test]
fn a_type_without_storage_rejects_unknown_records_at_their_key() {
    // Bare: unknown 1 before a (2), unknown 3 after it.
    let e = assert_rejects_with::<Bare>(&[0x00, 0x01, 0x00, 0x02], &preserve(), "unknown-field", 0);
    assert_eq!(e.path_string(), "Bare.1");
    let e = assert_rejects_with::<Bare>(&[0x04, 0x02, 0x00, 0x01], &preserve(), "unknown-field", 2);
    assert_eq!(e.path_string(), "Bare.3");
    assert_canonical_roundtrip_with::<Bare>(&[0x04, 0x02], &preserve());
}

#[test]
fn a_parent_with_storage_keeps_its_own() {
    // Holder: unknown 1, then child (2, key 02) = Bare { a: 1 }, then unknown 3.
    let bytes = [0x00, 0x07, 0x02, 0x02, 0x04, 0x02, 0x00, 0x09];
    let d = assert_canonical_roundtrip_with::<Holder>(&bytes, &preserve());
    assert_eq!(d.unknown_field_count(), 2);
    // An unknown record inside the child is refused at its key (offset 6), path included.
    let bad = [0x00, 0x07, 0x02, 0x04, 0x04, 0x02, 0x00, 0x01];
    let e = assert_rejects_with::<Holder>(&bad, &preserve(), "unknown-field", 6);
    assert_eq!(e.path_string(), "Holder.child.3");
}
