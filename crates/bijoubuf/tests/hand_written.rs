//! Hand-written `Message` implementations that break the contract generated code keeps
//! (fields in ascending number order; `finish` at the end of `__decode`) get an error,
//! never bytes that mean something else and never input that is silently skipped. The
//! checks are plain code, not `debug_assert!`: `cargo test --release` runs these too.
use bijoubuf::__private::{Bytes, Int32, Msg, Pass, Reader};
use bijoubuf::{DecodeError, DecodeOptions, EncodeErrorKind, Message, UnknownFields};

/// Writes fields `first` then `second` (both `int32` 7) in the size pass, and in the
/// order given by `write_swapped` in the write pass.
#[derive(Debug, Default)]
struct Order {
    first: u32,
    second: u32,
    write_swapped: bool,
    unknown_fields: UnknownFields,
}

impl Message for Order {
    const NAME: &'static str = "Order";
    const KEEPS_UNKNOWN_FIELDS: bool = true;
    const FIELD_NUMBERS: &'static [u32] = &[1, 2, 3];
}

impl bijoubuf::__private::Encode for Order {
    type Schema = Self;

    fn __unknown(&self) -> &UnknownFields {
        &self.unknown_fields
    }

    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        // A walk that asks which pass runs it (the write pass's contributions are
        // zero-sized) can still disagree with itself: the write pass swaps.
        let writing = core::mem::size_of::<P::Out>() == 0;
        let (a, b) = if self.write_swapped && writing {
            (self.second, self.first)
        } else {
            (self.first, self.second)
        };
        p.explicit::<Int32>(a, &7) + p.explicit::<Int32>(b, &7)
    }
}

impl<'a> bijoubuf::__private::Decode<'a> for Order {
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let _ = r.optional::<Int32>(1, "a")?;
        let _ = r.optional::<Int32>(2, "b")?;
        let unknown_fields = r.finish()?;
        Ok(Order {
            unknown_fields,
            ..Default::default()
        })
    }
}

fn order(first: u32, second: u32) -> Order {
    Order {
        first,
        second,
        ..Default::default()
    }
}

#[test]
fn ascending_fields_encode() {
    assert_eq!(
        order(1, 2).encode_to_vec().unwrap(),
        [0x00, 0x0E, 0x00, 0x0E]
    );
}

#[test]
fn fields_out_of_order_are_refused() {
    // 2 then 1: the second key's delta would wrap to a number past 2^29 - 1.
    let e = order(2, 1).encode_to_vec().unwrap_err();
    assert_eq!(e.kind(), EncodeErrorKind::FieldOrder);
    assert_eq!(e.code(), "field-order");
    // The same number twice.
    let e = order(1, 1).encode_to_vec().unwrap_err();
    assert_eq!(e.kind(), EncodeErrorKind::FieldOrder);
    // Numbers outside 1 ..= 2^29 - 1.
    assert_eq!(
        order(0, 1).encode_to_vec().unwrap_err().kind(),
        EncodeErrorKind::FieldOrder
    );
    assert_eq!(
        order(1, 1 << 29).encode_to_vec().unwrap_err().kind(),
        EncodeErrorKind::FieldOrder
    );
    // 2^29 - 1 itself is a field number.
    assert!(order(1, (1 << 29) - 1).encode_to_vec().is_ok());
    // Nothing is written on error, and `encoded_len` does not panic.
    let mut buf = vec![0xAA];
    assert!(order(2, 1).encode(&mut buf).is_err());
    assert_eq!(buf, [0xAA]);
    let _ = order(2, 1).encoded_len();
}

#[test]
fn a_write_pass_out_of_order_is_refused() {
    // The size pass is in order and the sizes agree; only the write pass swaps.
    let m = Order {
        write_swapped: true,
        ..order(1, 2)
    };
    let e = m.encode_to_vec().unwrap_err();
    assert_eq!(e.kind(), EncodeErrorKind::FieldOrder);
    let mut buf = Vec::new();
    assert!(m.encode_length_delimited(&mut buf).is_err());
    assert!(buf.is_empty());
}

/// A blob (field 1) longer than a sink's chunk, then fields 3 and 2, in both passes.
#[derive(Debug, Default)]
struct BlobThenDisorder {
    blob: Vec<u8>,
    unknown_fields: UnknownFields,
}

impl Message for BlobThenDisorder {
    const NAME: &'static str = "BlobThenDisorder";
    const KEEPS_UNKNOWN_FIELDS: bool = true;
    const FIELD_NUMBERS: &'static [u32] = &[1, 2, 3];
}

impl bijoubuf::__private::Encode for BlobThenDisorder {
    type Schema = Self;

    fn __unknown(&self) -> &UnknownFields {
        &self.unknown_fields
    }

    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        p.explicit::<Bytes>(1, &self.blob) + p.explicit::<Int32>(3, &7) + p.explicit::<Int32>(2, &7)
    }
}

impl<'a> bijoubuf::__private::Decode<'a> for BlobThenDisorder {
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let unknown_fields = r.finish()?;
        Ok(BlobThenDisorder {
            unknown_fields,
            ..Default::default()
        })
    }
}

#[test]
fn out_of_order_fields_are_refused_before_a_sink_sees_a_byte() {
    // The size pass refuses the order, so a sink is handed nothing, even when the
    // fields before the disorder fill several of its chunks (a hand-written type's
    // size pass checks the order; were it skipped, the write pass would find the
    // disorder only after handing the blob over).
    let m = BlobThenDisorder {
        blob: vec![0x5A; 3 * bijoubuf::sink::CHUNK],
        ..Default::default()
    };
    let mut taken = Vec::new();
    let e = m.encode_to_sink(&mut taken).unwrap_err();
    assert_eq!(e.kind(), EncodeErrorKind::FieldOrder);
    assert!(taken.is_empty(), "the sink took {} bytes", taken.len());
    let mut w = Vec::new();
    assert!(m.encode_to_writer(&mut w).is_err());
    assert!(w.is_empty(), "the writer took {} bytes", w.len());
}

#[test]
fn out_of_order_inside_a_nested_message_is_refused() {
    let outer = Outer {
        child: Some(order(2, 1)),
        ..Default::default()
    };
    let e = outer.encode_to_vec().unwrap_err();
    assert_eq!(e.kind(), EncodeErrorKind::FieldOrder);
}

/// Reads field 1 only and, with `FORGETS`, never calls `finish`; with `IN_PLACE`, its
/// top-level read goes through `Reader::top_in_place`, as generated dispatch and table
/// types' do, rather than the default `Reader::top_by_value`.
#[derive(Debug, Default, PartialEq)]
struct Forgetful<const FORGETS: bool, const IN_PLACE: bool = false> {
    a: Option<i32>,
    unknown_fields: UnknownFields,
}

impl<const FORGETS: bool, const IN_PLACE: bool> Forgetful<FORGETS, IN_PLACE> {
    fn read(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError> {
        self.a = r.optional::<Int32>(1, "a")?;
        if !FORGETS {
            self.unknown_fields = r.finish()?;
        }
        Ok(())
    }
}

impl<const FORGETS: bool, const IN_PLACE: bool> Message for Forgetful<FORGETS, IN_PLACE> {
    const NAME: &'static str = "Forgetful";
    const KEEPS_UNKNOWN_FIELDS: bool = true;
    const FIELD_NUMBERS: &'static [u32] = &[1];
}

impl<const FORGETS: bool, const IN_PLACE: bool> bijoubuf::__private::Encode
    for Forgetful<FORGETS, IN_PLACE>
{
    type Schema = Self;

    fn __unknown(&self) -> &UnknownFields {
        &self.unknown_fields
    }

    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        p.optional::<Int32>(1, self.a.as_ref())
    }
}

impl<'a, const FORGETS: bool, const IN_PLACE: bool> bijoubuf::__private::Decode<'a>
    for Forgetful<FORGETS, IN_PLACE>
{
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let mut m = Self::default();
        m.read(r)?;
        Ok(m)
    }

    fn __decode_top(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        if IN_PLACE {
            r.top_in_place(Self::read)
        } else {
            r.top_by_value()
        }
    }
}

/// `Outer { Order child = 1; Forgetful<true> lazy = 2; optional int32 tail = 3; }`
#[derive(Debug, Default)]
struct Outer {
    child: Option<Order>,
    lazy: Option<Forgetful<true>>,
    tail: Option<i32>,
    unknown_fields: UnknownFields,
}

impl Message for Outer {
    const NAME: &'static str = "Outer";
    const KEEPS_UNKNOWN_FIELDS: bool = true;
    const FIELD_NUMBERS: &'static [u32] = &[1, 2, 3];
}

impl bijoubuf::__private::Encode for Outer {
    type Schema = Self;

    fn __unknown(&self) -> &UnknownFields {
        &self.unknown_fields
    }

    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        p.optional::<Msg<Order>>(1, self.child.as_ref())
            + p.optional::<Msg<Forgetful<true>>>(2, self.lazy.as_ref())
            + p.optional::<Int32>(3, self.tail.as_ref())
    }
}

impl<'a> bijoubuf::__private::Decode<'a> for Outer {
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let child = r.optional::<Msg<Order>>(1, "child")?;
        let lazy = r.optional::<Msg<Forgetful<true>>>(2, "lazy")?;
        let tail = r.optional::<Int32>(3, "tail")?;
        let unknown_fields = r.finish()?;
        Ok(Outer {
            child,
            lazy,
            tail,
            unknown_fields,
        })
    }
}

#[test]
fn records_a_top_level_decode_did_not_read_are_refused() {
    // a = 1, then field 3 = 1: the impl never asks for field 3 and never calls finish.
    let input = [0x00, 0x02, 0x04, 0x02];
    let e = Forgetful::<true>::decode(&input).unwrap_err();
    assert_eq!((e.code(), e.offset()), ("unknown-field", 2));
    assert_eq!(e.path_string(), "Forgetful.3");
    // Preserving changes nothing: the impl keeps no records.
    let preserve = DecodeOptions::new().unknown_fields(bijoubuf::UnknownFieldPolicy::Preserve);
    let e = Forgetful::<true>::decode_with(&input, &preserve).unwrap_err();
    assert_eq!((e.code(), e.offset()), ("unknown-field", 2));
    // The impl that calls finish: strict refuses the same record, preserving keeps it.
    let e = Forgetful::<false>::decode(&input).unwrap_err();
    assert_eq!((e.code(), e.offset()), ("unknown-field", 2));
    let d = Forgetful::<false>::decode_with(&input, &preserve).unwrap();
    assert_eq!(d.unknown_field_count(), 1);
    // With every record read, the forgetful impl decodes.
    let m = Forgetful::<true>::decode(&[0x00, 0x02]).unwrap();
    assert_eq!(m.a, Some(1));
    // A lookahead record (loaded by the request for field 1, numbered above it) is left
    // too.
    let e = Forgetful::<true>::decode(&[0x04, 0x02]).unwrap_err();
    assert_eq!((e.code(), e.offset()), ("unknown-field", 0));
}

#[test]
fn records_a_top_level_read_in_place_did_not_read_are_refused() {
    // The inputs above, read in place at the top level (`Reader::top_in_place`): its own
    // all-read test refuses them, with the error the default path gives, rooted alike.
    let preserve = DecodeOptions::new().unknown_fields(bijoubuf::UnknownFieldPolicy::Preserve);
    for (input, offset) in [(&[0x00, 0x02, 0x04, 0x02][..], 2), (&[0x04, 0x02][..], 0)] {
        let by_value = Forgetful::<true>::decode(input).unwrap_err();
        assert_eq!(
            (by_value.code(), by_value.offset()),
            ("unknown-field", offset)
        );
        assert_eq!(
            Forgetful::<true, true>::decode(input).unwrap_err(),
            by_value
        );
        assert_eq!(
            Forgetful::<true, true>::decode_with(input, &preserve).unwrap_err(),
            by_value
        );
    }
    // The impl that calls finish reads in place the same way: strict refuses the record,
    // preserving keeps it.
    let input = [0x00, 0x02, 0x04, 0x02];
    let e = Forgetful::<false, true>::decode(&input).unwrap_err();
    assert_eq!((e.code(), e.offset()), ("unknown-field", 2));
    let d = Forgetful::<false, true>::decode_with(&input, &preserve).unwrap();
    assert_eq!(d.unknown_field_count(), 1);
    assert_eq!(
        Forgetful::<true, true>::decode(&[0x00, 0x02]).unwrap().a,
        Some(1)
    );
    // An error the read returns is rooted at the type's name too: field 1's key with
    // no value after it.
    let e = Forgetful::<true, true>::decode(&[0x00]).unwrap_err();
    assert_eq!(e, Forgetful::<true>::decode(&[0x00]).unwrap_err());
    assert_eq!(e.path_string(), "Forgetful.a");
}

#[test]
fn records_a_nested_decode_did_not_read_are_refused() {
    // Outer.lazy (2, key 06) = { a = 1, field 3 = 1 }.
    let input = [0x06, 0x04, 0x00, 0x02, 0x04, 0x02];
    let e = Outer::decode(&input).unwrap_err();
    assert_eq!((e.code(), e.offset()), ("unknown-field", 4));
    assert_eq!(e.path_string(), "Outer.lazy.3");
    assert!(Outer::decode(&[0x06, 0x02, 0x00, 0x02]).is_ok());
}

#[test]
fn a_nested_decode_that_ran_to_its_end_leaves_the_parent_reading() {
    // Outer.lazy (2) = {} (its request for field 1 finds the end; it never calls finish),
    // then Outer.tail (3) = 1: the parent's next request must see the record, not the
    // child's end.
    let input = [0x06, 0x00, 0x00, 0x02];
    let m = Outer::decode(&input).unwrap();
    assert_eq!((m.lazy.map(|l| l.a), m.tail), (Some(None), Some(1)));
    let preserve = DecodeOptions::new().unknown_fields(bijoubuf::UnknownFieldPolicy::Preserve);
    let d = Outer::decode_with(&input, &preserve).unwrap();
    assert_eq!((d.message().tail, d.unknown_field_count()), (Some(1), 0));
}
